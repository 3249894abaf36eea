package dev.zstdjava.lz4;

import dev.zstdjava.NativeLibrary;
import dev.zstdjava.internal.Binder.Fn;
import dev.zstdjava.internal.Binder;
import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.CallKind;
import dev.zstdjava.internal.LibC;
import dev.zstdjava.internal.NativeLoader;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.ByteBuffer;
import java.util.List;

import static dev.zstdjava.internal.Binder.IN;
import static dev.zstdjava.internal.Binder.INT;
import static dev.zstdjava.internal.Binder.PTR;
import static dev.zstdjava.internal.Binder.SIZE_T;
import static dev.zstdjava.internal.Binder.rethrow;

/**
 * Every liblz4 function this library calls, bound once: the block format ({@code lz4.h}, {@code lz4hc.h}) and the
 * frame format ({@code lz4frame.h}). Functions that move data come in two forms: {@code ..._CRITICAL} (critical: heap
 * segments allowed, used for heap memory and short calls) and the regular form (native memory only; lets the JVM
 * reach safepoints during long calls). Callers check every bound before calling.
 *
 * <p>The unsafe {@code LZ4_decompress_fast} family is deliberately not bound: only the bounds-checked decoders
 * ({@code LZ4_decompress_safe}, {@code LZ4_decompress_safe_partial}, {@code LZ4F_decompress}) are reachable.
 *
 * <p>Frame results follow {@code LZ4F_isError}: a {@code size_t} that, read as a signed {@code long}, is negative
 * exactly when it is an error ({@code (size_t)-code}, {@code code} one of {@code LZ4F_errorCodes}).
 */
final class Lz4Native {
    private Lz4Native() {}

    /** {@code LZ4_MAX_INPUT_SIZE}: the largest block {@code LZ4_compress*} accepts. */
    static final int MAX_INPUT_SIZE = 0x7E000000;
    /** {@code LZ4F_VERSION}: the frame API version passed to the context constructors. */
    private static final int LZ4F_VERSION = 100;
    /** {@code LZ4F_HEADER_SIZE_MAX}. */
    static final int LZ4F_HEADER_SIZE_MAX = 19;
    /** {@code LZ4F_ERROR_dstMaxSize_tooSmall}. */
    static final int LZ4F_ERROR_DST_MAX_SIZE_TOO_SMALL = 11;

    /** {@code LZ4F_frameInfo_t}, 32 bytes on every 64-bit ABI. */
    static final StructLayout FRAME_INFO = MemoryLayout.structLayout(
            INT.withName("blockSizeID"),
            INT.withName("blockMode"),
            INT.withName("contentChecksumFlag"),
            INT.withName("frameType"),
            ValueLayout.JAVA_LONG.withName("contentSize"),
            INT.withName("dictID"),
            INT.withName("blockChecksumFlag"));
    private static final long FRAME_INFO_CONTENT_SIZE =
            FRAME_INFO.byteOffset(MemoryLayout.PathElement.groupElement("contentSize"));

    /** {@code LZ4F_preferences_t} (with its embedded {@code LZ4F_frameInfo_t}), 56 bytes on every 64-bit ABI. */
    static final StructLayout PREFERENCES = MemoryLayout.structLayout(
            FRAME_INFO.withName("frameInfo"),
            INT.withName("compressionLevel"),
            INT.withName("autoFlush"),
            INT.withName("favorDecSpeed"),
            MemoryLayout.sequenceLayout(3, INT).withName("reserved"));

    // byte offsets of the preferences fields (plain offsets, not layout VarHandles: those differ between JDKs)
    private static final long P_BLOCK_SIZE_ID = prefField("frameInfo", "blockSizeID");
    private static final long P_BLOCK_MODE = prefField("frameInfo", "blockMode");
    private static final long P_CONTENT_CHECKSUM = prefField("frameInfo", "contentChecksumFlag");
    private static final long P_CONTENT_SIZE = prefField("frameInfo", "contentSize");
    private static final long P_BLOCK_CHECKSUM = prefField("frameInfo", "blockChecksumFlag");
    private static final long P_LEVEL = prefField("compressionLevel");
    private static final long P_AUTO_FLUSH = prefField("autoFlush");
    private static final long P_FAVOR_DEC_SPEED = prefField("favorDecSpeed");

    private static long prefField(String... path) {
        MemoryLayout.PathElement[] p = new MemoryLayout.PathElement[path.length];
        for (int i = 0; i < path.length; i++) {
            p[i] = MemoryLayout.PathElement.groupElement(path[i]);
        }
        return PREFERENCES.byteOffset(p);
    }

    /** {@code malloc}/{@code realloc}/{@code free} for this package's native buffers. */
    static final LibC LIBC = LibC.bind(MethodHandles.lookup());

    // ---- every liblz4 function used, declared once: symbol and signature (all required); IN = const pointer ---
    private static final Fn
            FN_SIZEOF_STATE = Fn.of("LZ4_sizeofState", INT),
            FN_SIZEOF_STATE_HC = Fn.of("LZ4_sizeofStateHC", INT),
            // the returned pointer is only compared with NULL: read as an integer (every supported platform is
            // 64-bit), so a restart after an aborted compression makes no MemorySegment for it
            FN_INIT_STREAM = Fn.of("LZ4_initStream", SIZE_T, PTR, SIZE_T),
            FN_INIT_STREAM_HC = Fn.of("LZ4_initStreamHC", SIZE_T, PTR, SIZE_T),
            // int f(void* state, const char* src, char* dst, int srcSize, int dstCapacity, int accelerationOrLevel)
            FN_COMPRESS_FAST = Fn.of("LZ4_compress_fast_extState_fastReset", INT, PTR, IN, PTR, INT, INT, INT),
            FN_COMPRESS_HC = Fn.of("LZ4_compress_HC_extStateHC_fastReset", INT, PTR, IN, PTR, INT, INT, INT),
            FN_DECOMPRESS_SAFE = Fn.of("LZ4_decompress_safe", INT, IN, PTR, INT, INT),
            FN_DECOMPRESS_PARTIAL = Fn.of("LZ4_decompress_safe_partial", INT, IN, PTR, INT, INT, INT),
            FN_CREATE_CCTX = Fn.of("LZ4F_createCompressionContext", SIZE_T, PTR, INT),
            FN_FREE_CCTX = Fn.of("LZ4F_freeCompressionContext", SIZE_T, PTR),
            FN_CREATE_DCTX = Fn.of("LZ4F_createDecompressionContext", SIZE_T, PTR, INT),
            FN_FREE_DCTX = Fn.of("LZ4F_freeDecompressionContext", SIZE_T, PTR),
            FN_RESET_DCTX = Fn.ofVoid("LZ4F_resetDecompressionContext", PTR),
            // size_t LZ4F_compressFrame_usingCDict(cctx, dst, dstCap, src, srcSize, cdict, prefs): reuses the cctx
            FN_COMPRESS_FRAME = Fn.of("LZ4F_compressFrame_usingCDict", SIZE_T, PTR, PTR, SIZE_T, IN, SIZE_T, IN, IN),
            FN_COMPRESS_FRAME_BOUND = Fn.of("LZ4F_compressFrameBound", SIZE_T, SIZE_T, IN),
            FN_COMPRESS_BOUND = Fn.of("LZ4F_compressBound", SIZE_T, SIZE_T, IN),
            FN_COMPRESS_BEGIN = Fn.of("LZ4F_compressBegin", SIZE_T, PTR, PTR, SIZE_T, IN),
            FN_COMPRESS_UPDATE = Fn.of("LZ4F_compressUpdate", SIZE_T, PTR, PTR, SIZE_T, IN, SIZE_T, IN),
            FN_FLUSH = Fn.of("LZ4F_flush", SIZE_T, PTR, PTR, SIZE_T, IN),
            FN_COMPRESS_END = Fn.of("LZ4F_compressEnd", SIZE_T, PTR, PTR, SIZE_T, IN),
            // size_t LZ4F_decompress(dctx, dst, size_t* dstSize, src, size_t* srcSize, const opts*)
            FN_DECOMPRESS = Fn.of("LZ4F_decompress", SIZE_T, PTR, PTR, PTR, IN, PTR, IN),
            // size_t LZ4F_getFrameInfo(dctx, LZ4F_frameInfo_t*, src, size_t* srcSize): decodes (and checks) a header
            FN_GET_FRAME_INFO = Fn.of("LZ4F_getFrameInfo", SIZE_T, PTR, PTR, IN, PTR),
            FN_GET_ERROR_NAME = Fn.of("LZ4F_getErrorName", PTR, SIZE_T),
            FN_VERSION_NUMBER = Fn.of("LZ4_versionNumber", INT);

    /** Loaded after the declarations above: the loader refuses a library lacking a required one. */
    private static final Binder B = Binder.load(MethodHandles.lookup(), new NativeLoader.Spec("lz4", "zstdjava.lz4.path",
            List.of("liblz4.so.1", "liblz4.so", "liblz4.1.dylib", "liblz4.dylib", "lz4.dll", "liblz4.dll"),
            "LZ4_versionNumber", 10900));

    // ---- the handles: regular (transition, native memory) or critical (heap memory, short calls); ..._CRITICAL = critical --
    static final MethodHandle SIZEOF_STATE = B.critical(FN_SIZEOF_STATE), SIZEOF_STATE_HC = B.critical(FN_SIZEOF_STATE_HC),
            INIT_STREAM = B.critical(FN_INIT_STREAM), INIT_STREAM_HC = B.critical(FN_INIT_STREAM_HC);
    static final MethodHandle COMPRESS_FAST = B.regular(FN_COMPRESS_FAST), COMPRESS_FAST_CRITICAL = B.critical(FN_COMPRESS_FAST),
            COMPRESS_HC = B.regular(FN_COMPRESS_HC), COMPRESS_HC_CRITICAL = B.critical(FN_COMPRESS_HC);
    static final MethodHandle DECOMPRESS_SAFE = B.regular(FN_DECOMPRESS_SAFE),
            DECOMPRESS_SAFE_CRITICAL = B.critical(FN_DECOMPRESS_SAFE), DECOMPRESS_PARTIAL = B.regular(FN_DECOMPRESS_PARTIAL),
            DECOMPRESS_PARTIAL_CRITICAL = B.critical(FN_DECOMPRESS_PARTIAL);
    static final MethodHandle F_CREATE_CCTX = B.regular(FN_CREATE_CCTX), F_FREE_CCTX = B.regular(FN_FREE_CCTX),
            F_CREATE_DCTX = B.regular(FN_CREATE_DCTX), F_FREE_DCTX = B.regular(FN_FREE_DCTX),
            F_RESET_DCTX = B.critical(FN_RESET_DCTX);
    static final MethodHandle F_COMPRESS_FRAME = B.regular(FN_COMPRESS_FRAME),
            F_COMPRESS_FRAME_CRITICAL = B.critical(FN_COMPRESS_FRAME),
            F_COMPRESS_FRAME_BOUND = B.critical(FN_COMPRESS_FRAME_BOUND), F_COMPRESS_BOUND = B.critical(FN_COMPRESS_BOUND);
    static final MethodHandle F_COMPRESS_BEGIN = B.critical(FN_COMPRESS_BEGIN),
            F_COMPRESS_UPDATE = B.regular(FN_COMPRESS_UPDATE), F_COMPRESS_UPDATE_CRITICAL = B.critical(FN_COMPRESS_UPDATE);
    /** For the array helpers only (see {@link Binder#heap}). */
    static final MethodHandle COMPRESS_FAST_ON_ARRAYS = B.heap(FN_COMPRESS_FAST), COMPRESS_HC_ON_ARRAYS = B.heap(FN_COMPRESS_HC),
            DECOMPRESS_SAFE_ON_ARRAYS = B.heap(FN_DECOMPRESS_SAFE), DECOMPRESS_PARTIAL_ON_ARRAYS = B.heap(FN_DECOMPRESS_PARTIAL),
            F_COMPRESS_FRAME_ON_ARRAYS = B.heap(FN_COMPRESS_FRAME);
    /** For calls on the contexts' own staging buffers only (see {@link Binder#staged}). */
    static final MethodHandle COMPRESS_FAST_ON_STAGING = B.staged(FN_COMPRESS_FAST), COMPRESS_HC_ON_STAGING = B.staged(FN_COMPRESS_HC),
            DECOMPRESS_SAFE_ON_STAGING = B.staged(FN_DECOMPRESS_SAFE), DECOMPRESS_PARTIAL_ON_STAGING = B.staged(FN_DECOMPRESS_PARTIAL),
            F_COMPRESS_FRAME_ON_STAGING = B.staged(FN_COMPRESS_FRAME), F_DECOMPRESS_ON_STAGING = B.staged(FN_DECOMPRESS),
            F_GET_FRAME_INFO_ON_STAGING = B.staged(FN_GET_FRAME_INFO);
    static final MethodHandle F_FLUSH = B.regular(FN_FLUSH), F_FLUSH_CRITICAL = B.critical(FN_FLUSH),
            F_COMPRESS_END = B.regular(FN_COMPRESS_END), F_COMPRESS_END_CRITICAL = B.critical(FN_COMPRESS_END);
    static final MethodHandle F_DECOMPRESS = B.regular(FN_DECOMPRESS), F_DECOMPRESS_CRITICAL = B.critical(FN_DECOMPRESS),
            F_GET_FRAME_INFO_CRITICAL = B.critical(FN_GET_FRAME_INFO), F_GET_ERROR_NAME = B.critical(FN_GET_ERROR_NAME);

    static final NativeLibrary LIBRARY = B.info();

    static {
        warmUp();
    }

    /**
     * Calls each block decoding handle once, on empty input (lz4 rejects it without reading), before any caller can
     * be compiled. The JDK defines a downcall's adapter class uninitialized, and until the first call its handle
     * runs a class-initialization barrier; the JIT folds the handle's form as a constant, so code compiled before
     * that first call keeps the barrier, and the barrier allocates on every call (16 bytes:
     * {@code DirectMethodHandle.ensureInitialized}). The segment forms' critical decoding handle is reached only by
     * small native segments, late enough in a long run that a caller was compiled before it.
     */
    private static void warmUp() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment s = a.allocate(1);
            MemorySegment d = a.allocate(1);
            int r1 = (int) DECOMPRESS_SAFE_CRITICAL.invokeExact(s, d, 0, 0);
            int r2 = (int) DECOMPRESS_SAFE.invokeExact(s, d, 0, 0);
            int r3 = (int) DECOMPRESS_PARTIAL_CRITICAL.invokeExact(s, d, 0, 0, 0);
            int r4 = (int) DECOMPRESS_PARTIAL.invokeExact(s, d, 0, 0, 0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }
    /** The library version as major*10000 + minor*100 + patch. */
    static final int VERSION_NUMBER = versionNumber(B.critical(FN_VERSION_NUMBER));

    private static int versionNumber(MethodHandle h) {
        try {
            return (int) h.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Bytes of a fast and of an HC compression state. */
    private static final int STATE_SIZE = sizeofState(), STATE_SIZE_HC = sizeofStateHC();

    /** Calls below this many bytes of work use the critical form even on native memory (no thread transition). */
    static final long CRITICAL_LIMIT = 16 * 1024;

    /**
     * Heap arrays above this many bytes of work (system property {@code zstdjava.criticalHeapLimit}, default 1 MiB,
     * shared with zstd) are staged through native memory or processed in pieces instead of being accessed in place
     * by one long critical call: a critical downcall holds off safepoints, and so every GC, until it returns. The
     * compressors scale it down for the slower HC levels.
     */
    static final long HEAP_CRITICAL_LIMIT = Bounds.HEAP_CRITICAL_LIMIT;

    /** Most heap bytes one critical call reads or writes when heap work is cut into pieces: {@link Bounds#HEAP_WINDOW}. */
    static final long HEAP_WINDOW = Bounds.HEAP_WINDOW;

    /** @return the heap work limit for compression at a GLIDE-style lz4 level (smaller for slower HC levels) */
    static long heapLimit(int level) {
        return HEAP_CRITICAL_LIMIT >> (level <= 0 ? 0 : level <= 9 ? 4 : 5);
    }

    /**
     * A block compressor's native states and current level: the fast state ({@link #sizeofState()} bytes) and the
     * HC one ({@link #sizeofStateHC()}), each allocated and initialised on first use. Used under its compressor's
     * guard, so by one thread at a time; freed by {@link #free()}.
     */
    static final class BlockCompression {
        private MemorySegment fast = MemorySegment.NULL;
        private MemorySegment hc = MemorySegment.NULL;
        /** The compressor's level: HC at {@code level > 0}, fast with acceleration {@code -level} otherwise. */
        int level;

        /** The state for {@code level}, allocated and initialised on first use. */
        MemorySegment forLevel(int level) {
            if (level > 0) {
                if (hc.address() == 0) {
                    hc = LIBC.malloc(STATE_SIZE_HC);
                    initStreamHC(hc);
                }
                return hc;
            }
            if (fast.address() == 0) {
                fast = LIBC.malloc(STATE_SIZE);
                initStream(fast);
            }
            return fast;
        }

        /** @return the state for the current {@link #level} */
        MemorySegment current() {
            return forLevel(level);
        }

        /** After a compression that failed ({@code r <= 0}): the next one starts from a freshly initialised state. */
        int restartIfAborted(int r) {
            if (r <= 0) {
                if (level > 0) {
                    initStreamHC(current());
                } else {
                    initStream(current());
                }
            }
            return r;
        }

        void free() {
            LIBC.free(fast);
            LIBC.free(hc);
            fast = MemorySegment.NULL;
            hc = MemorySegment.NULL;
        }
    }

    /** The block decoders bound: {@code LZ4_decompress_safe}, or {@code LZ4_decompress_safe_partial}. */
    enum BlockDecoder {
        /** {@code LZ4_decompress_safe}: the whole block, which must fit. */
        SAFE,
        /** {@code LZ4_decompress_safe_partial}: as much of the block as fits. */
        PARTIAL
    }

    // ---- block format --------------------------------------------------------------------------------------------

    /** @return {@code LZ4_sizeofState()}, the bytes of a fast compression state */
    static int sizeofState() {
        try {
            return (int) SIZEOF_STATE.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return {@code LZ4_sizeofStateHC()}, the bytes of an HC compression state */
    static int sizeofStateHC() {
        try {
            return (int) SIZEOF_STATE_HC.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Initialises {@code state} (malloc'd, {@link #sizeofState()} bytes) once; throws if lz4 refuses it. */
    static void initStream(MemorySegment state) {
        try {
            long r = (long) INIT_STREAM.invokeExact(state, state.byteSize());
            if (r == 0) {
                throw new IllegalStateException("LZ4_initStream refused a state of " + state.byteSize() + " bytes");
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Initialises {@code state} (malloc'd, {@link #sizeofStateHC()} bytes) once; throws if lz4 refuses it. */
    static void initStreamHC(MemorySegment state) {
        try {
            long r = (long) INIT_STREAM_HC.invokeExact(state, state.byteSize());
            if (r == 0) {
                throw new IllegalStateException("LZ4_initStreamHC refused a state of " + state.byteSize() + " bytes");
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4_compress_fast_extState_fastReset}: compressed size, or 0 when {@code dst} is too small. */
    static int compressFast(MemorySegment state, MemorySegment src, MemorySegment dst, int srcSize,
                             int dstCapacity, int acceleration, CallKind kind) {
        try {
            return kind == CallKind.CRITICAL
                    ? (int) COMPRESS_FAST_CRITICAL.invokeExact(state, src, dst, srcSize, dstCapacity, acceleration)
                    : (int) COMPRESS_FAST.invokeExact(state, src, dst, srcSize, dstCapacity, acceleration);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4_compress_HC_extStateHC_fastReset}: compressed size, or 0 when {@code dst} is too small. */
    static int compressHC(MemorySegment state, MemorySegment src, MemorySegment dst, int srcSize,
                           int dstCapacity, int level, CallKind kind) {
        try {
            return kind == CallKind.CRITICAL
                    ? (int) COMPRESS_HC_CRITICAL.invokeExact(state, src, dst, srcSize, dstCapacity, level)
                    : (int) COMPRESS_HC.invokeExact(state, src, dst, srcSize, dstCapacity, level);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /*
     * Heap arrays: the views are made here, next to the call (see ZstdNative), so escape analysis removes them
     * wherever this method is compiled. Critical, through the ..._ON_ARRAYS handles (Binder.heap); used only up to
     * HEAP_CRITICAL_LIMIT bytes.
     */

    /**
     * One block compression from {@code src[srcOff, srcOff+srcSize)} into {@code dst[dstOff, dstOff+dstCapacity)},
     * in place, at the compressor's level ({@link BlockCompression}): HC at {@code level > 0}, otherwise fast with
     * acceleration {@code -level} (1 at level 0).
     *
     * @return the compressed size, or 0 when {@code dst} is too small
     */
    static int compress(BlockCompression c, byte[] src, int srcOff, byte[] dst, int dstOff, int srcSize,
                        int dstCapacity) {
        int level = c.level;
        MemorySegment state = c.current();
        MemorySegment s = MemorySegment.ofArray(src).asSlice(srcOff);
        MemorySegment d = MemorySegment.ofArray(dst).asSlice(dstOff);
        try {
            return level > 0
                    ? (int) COMPRESS_HC_ON_ARRAYS.invokeExact(state, s, d, srcSize, dstCapacity, level)
                    : (int) COMPRESS_FAST_ON_ARRAYS.invokeExact(state, s, d, srcSize, dstCapacity, level < 0 ? -level : 1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** As {@link #compress(BlockCompression, byte[], int, byte[], int, int, int)} into native {@code dst}. */
    static int compress(BlockCompression c, byte[] src, int srcOff, MemorySegment dst, int srcSize, int dstCapacity) {
        int level = c.level;
        MemorySegment state = c.current();
        MemorySegment s = MemorySegment.ofArray(src).asSlice(srcOff);
        try {
            return level > 0
                    ? (int) COMPRESS_HC_ON_ARRAYS.invokeExact(state, s, dst, srcSize, dstCapacity, level)
                    : (int) COMPRESS_FAST_ON_ARRAYS.invokeExact(state, s, dst, srcSize, dstCapacity, level < 0 ? -level : 1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code LZ4_decompress_safe} (or, for {@link BlockDecoder#PARTIAL}, {@code LZ4_decompress_safe_partial} up to
     * {@code dstCapacity} bytes) from {@code src[srcOff, srcOff+srcSize)} into {@code dst[dstOff, ...)}, in place.
     *
     * @return bytes written, or a negative number when the input is malformed
     */
    static int decompress(byte[] src, int srcOff, byte[] dst, int dstOff, int srcSize, int dstCapacity,
                          BlockDecoder decoder) {
        boolean partial = decoder == BlockDecoder.PARTIAL;
        MemorySegment s = MemorySegment.ofArray(src).asSlice(srcOff);
        MemorySegment d = MemorySegment.ofArray(dst).asSlice(dstOff);
        try {
            return partial
                    ? (int) DECOMPRESS_PARTIAL_ON_ARRAYS.invokeExact(s, d, srcSize, dstCapacity, dstCapacity)
                    : (int) DECOMPRESS_SAFE_ON_ARRAYS.invokeExact(s, d, srcSize, dstCapacity);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * One block compression (as {@link #compress(BlockCompression, byte[], int, byte[], int, int, int)}) from the
     * remaining bytes of direct buffer {@code src} into those of direct buffer {@code dst}, the views made here;
     * critical below {@link #CRITICAL_LIMIT} bytes of input. A destination above 2 GiB is used up to 2 GiB - 1.
     *
     * @return the compressed size, or 0 when {@code dst} is too small
     */
    static int compress(BlockCompression c, ByteBuffer src, ByteBuffer dst) {
        int level = c.level;
        MemorySegment state = c.current();
        MemorySegment s = MemorySegment.ofBuffer(src);
        MemorySegment d = MemorySegment.ofBuffer(dst);
        int srcSize = src.remaining();
        int cap = dst.remaining();
        Bounds.disjointNative(s.scope(), s.address(), srcSize, d.scope(), d.address(), cap);
        int accel = level < 0 ? -level : 1;
        try {
            if (srcSize < CRITICAL_LIMIT) {
                return level > 0
                        ? (int) COMPRESS_HC_CRITICAL.invokeExact(state, s, d, srcSize, cap, level)
                        : (int) COMPRESS_FAST_CRITICAL.invokeExact(state, s, d, srcSize, cap, accel);
            }
            return level > 0
                    ? (int) COMPRESS_HC.invokeExact(state, s, d, srcSize, cap, level)
                    : (int) COMPRESS_FAST.invokeExact(state, s, d, srcSize, cap, accel);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code LZ4_decompress_safe} from the remaining bytes of direct buffer {@code src} into those of direct buffer
     * {@code dst} (at most 2 GiB - 1 of each), the views made here, next to the call; critical below
     * {@link #CRITICAL_LIMIT} bytes of output.
     *
     * @return bytes written, or a negative number when the input is malformed
     */
    static int decompress(ByteBuffer src, ByteBuffer dst) {
        MemorySegment s = MemorySegment.ofBuffer(src);
        MemorySegment d = MemorySegment.ofBuffer(dst);
        int srcSize = src.remaining();
        int cap = dst.remaining();
        Bounds.disjointNative(s.scope(), s.address(), srcSize, d.scope(), d.address(), cap);
        try {
            return cap < CRITICAL_LIMIT
                    ? (int) DECOMPRESS_SAFE_CRITICAL.invokeExact(s, d, srcSize, cap)
                    : (int) DECOMPRESS_SAFE.invokeExact(s, d, srcSize, cap);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * One {@code LZ4F_decompress} call from the remaining bytes of direct buffer {@code src} into those of direct
     * buffer {@code dst}, the views made here, next to the call (a {@code decompress} whose views do not cross a
     * method boundary); critical below {@link #CRITICAL_LIMIT} bytes of input and output. On return
     * {@code f.dstSize()} and {@code f.srcSize()} hold the bytes written and read.
     */
    static long decompressFrame(FrameDecompression f, ByteBuffer dst, ByteBuffer src) {
        MemorySegment dctx = f.dctx();
        MemorySegment dstSize = f.dstSize();
        MemorySegment srcSize = f.srcSize();
        MemorySegment d = MemorySegment.ofBuffer(dst);
        MemorySegment s = MemorySegment.ofBuffer(src);
        long dstLen = d.byteSize();
        long srcLen = s.byteSize();
        Bounds.disjointNative(s.scope(), s.address(), srcLen, d.scope(), d.address(), dstLen);
        dstSize.set(ValueLayout.JAVA_LONG, 0, dstLen);
        srcSize.set(ValueLayout.JAVA_LONG, 0, srcLen);
        try {
            return Math.max(srcLen, dstLen) < CRITICAL_LIMIT
                    ? (long) F_DECOMPRESS_CRITICAL.invokeExact(dctx, d, dstSize, s, srcSize, MemorySegment.NULL)
                    : (long) F_DECOMPRESS.invokeExact(dctx, d, dstSize, s, srcSize, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /*
     * Staged calls: on a context's own native buffers (Scratch), through handles of their own (Binder.staged);
     * critical below CRITICAL_LIMIT bytes of work, regular above.
     */

    /** As {@link #compress(BlockCompression, byte[], int, byte[], int, int, int)} on staging buffers. */
    static int compressStaged(BlockCompression c, MemorySegment src, MemorySegment dst, int srcSize,
                              int dstCapacity) {
        int level = c.level;
        MemorySegment state = c.current();
        if (srcSize >= CRITICAL_LIMIT) {
            return level > 0
                    ? compressHC(state, src, dst, srcSize, dstCapacity, level, CallKind.REGULAR)
                    : compressFast(state, src, dst, srcSize, dstCapacity, level < 0 ? -level : 1, CallKind.REGULAR);
        }
        try {
            return level > 0
                    ? (int) COMPRESS_HC_ON_STAGING.invokeExact(state, src, dst, srcSize, dstCapacity, level)
                    : (int) COMPRESS_FAST_ON_STAGING.invokeExact(state, src, dst, srcSize, dstCapacity, level < 0 ? -level : 1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** As {@link #decompress(byte[], int, byte[], int, int, int, BlockDecoder)} on staging buffers. */
    static int decompressStaged(MemorySegment src, MemorySegment dst, int srcSize, int dstCapacity,
                                BlockDecoder decoder) {
        boolean partial = decoder == BlockDecoder.PARTIAL;
        if (dstCapacity >= CRITICAL_LIMIT) {
            return partial
                    ? decompressPartial(src, dst, srcSize, dstCapacity, dstCapacity, CallKind.REGULAR)
                    : decompressSafe(src, dst, srcSize, dstCapacity, CallKind.REGULAR);
        }
        try {
            return partial
                    ? (int) DECOMPRESS_PARTIAL_ON_STAGING.invokeExact(src, dst, srcSize, dstCapacity, dstCapacity)
                    : (int) DECOMPRESS_SAFE_ON_STAGING.invokeExact(src, dst, srcSize, dstCapacity);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4F_compressFrame_usingCDict} without a dictionary on staging buffers. */
    static long compressFrameStaged(FrameCompression f, MemorySegment dst, long dstCap, MemorySegment src,
                                    long srcLen) {
        if (srcLen >= CRITICAL_LIMIT) {
            return compressFrame(f, dst, dstCap, src, srcLen, CallKind.REGULAR);
        }
        try {
            return (long) F_COMPRESS_FRAME_ON_STAGING.invokeExact(f.cctx(), dst, dstCap, src, srcLen,
                    MemorySegment.NULL, f.prefs());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4_decompress_safe}: bytes written, or a negative number when the input is malformed. */
    static int decompressSafe(MemorySegment src, MemorySegment dst, int srcSize, int dstCapacity, CallKind kind) {
        try {
            return kind == CallKind.CRITICAL
                    ? (int) DECOMPRESS_SAFE_CRITICAL.invokeExact(src, dst, srcSize, dstCapacity)
                    : (int) DECOMPRESS_SAFE.invokeExact(src, dst, srcSize, dstCapacity);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4_decompress_safe_partial}: bytes written (at most {@code target}), or negative when malformed. */
    static int decompressPartial(MemorySegment src, MemorySegment dst, int srcSize, int target, int dstCapacity,
                                 CallKind kind) {
        try {
            return kind == CallKind.CRITICAL
                    ? (int) DECOMPRESS_PARTIAL_CRITICAL.invokeExact(src, dst, srcSize, target, dstCapacity)
                    : (int) DECOMPRESS_PARTIAL.invokeExact(src, dst, srcSize, target, dstCapacity);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- frame format: contexts ----------------------------------------------------------------------------------

    static MemorySegment createCompressionContext() {
        return createContext(F_CREATE_CCTX, "LZ4F_createCompressionContext");
    }

    static void freeCompressionContext(MemorySegment cctx) {
        try {
            long ignored = (long) F_FREE_CCTX.invokeExact(cctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static MemorySegment createDecompressionContext() {
        return createContext(F_CREATE_DCTX, "LZ4F_createDecompressionContext");
    }

    /** A frame context made by {@code create} ({@code name}: one of the two context constructors). */
    private static MemorySegment createContext(MethodHandle create, String name) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment slot = a.allocate(PTR);
            long r = (long) create.invokeExact(slot, LZ4F_VERSION);
            MemorySegment p = slot.get(ValueLayout.ADDRESS, 0);
            if (isError(r) || p.address() == 0) {
                throw new OutOfMemoryError(name + " failed: " + errorName(r));
            }
            return p;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void freeDecompressionContext(MemorySegment dctx) {
        try {
            long ignored = (long) F_FREE_DCTX.invokeExact(dctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void resetDecompressionContext(MemorySegment dctx) {
        try {
            F_RESET_DCTX.invokeExact(dctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- frame format: preferences -------------------------------------------------------------------------------

    /**
     * Fills a {@link #PREFERENCES} segment from {@code options} (zeroing it first, as lz4 requires for the reserved
     * fields): no declared content size, no auto-flush, no favoured decompression speed.
     */
    static void preferences(MemorySegment prefs, Lz4Frame.Options options) {
        prefs.fill((byte) 0);
        prefs.set(ValueLayout.JAVA_INT, P_BLOCK_SIZE_ID, options.blockSize().id());
        prefs.set(ValueLayout.JAVA_INT, P_BLOCK_MODE, options.blockIndependent() ? 1 : 0);
        prefs.set(ValueLayout.JAVA_INT, P_CONTENT_CHECKSUM, options.contentChecksum() ? 1 : 0);
        prefs.set(ValueLayout.JAVA_LONG, P_CONTENT_SIZE, 0L);
        prefs.set(ValueLayout.JAVA_INT, P_BLOCK_CHECKSUM, options.blockChecksum() ? 1 : 0);
        prefs.set(ValueLayout.JAVA_INT, P_LEVEL, options.frameLevel());
        prefs.set(ValueLayout.JAVA_INT, P_AUTO_FLUSH, 0);
        prefs.set(ValueLayout.JAVA_INT, P_FAVOR_DEC_SPEED, 0);
    }

    /** Sets the declared content size of a {@link #PREFERENCES} segment (0 = not declared). */
    static void preferencesContentSize(MemorySegment prefs, long contentSize) {
        prefs.set(ValueLayout.JAVA_LONG, P_CONTENT_SIZE, contentSize);
    }

    // ---- frame format: compression -------------------------------------------------------------------------------

    /** A compression context and its {@link #PREFERENCES}; made once per context. */
    record FrameCompression(MemorySegment cctx, MemorySegment prefs) {}

    /** The steps of frame compression: a whole frame, or a streamed frame's steps after {@code LZ4F_compressBegin}. */
    enum FrameStep {
        /** {@code LZ4F_compressFrame_usingCDict} without a dictionary: a whole frame (reuses the context). */
        FRAME,
        /** {@code LZ4F_compressUpdate}: compress input, emit the blocks that are full. */
        UPDATE,
        /** {@code LZ4F_flush}: emit the buffered input as a block. */
        FLUSH,
        /** {@code LZ4F_compressEnd}: emit the rest and the frame's end mark (and checksum). */
        END
    }

    /**
     * {@code LZ4F_compressFrame} from {@code src[srcOff, srcOff+srcLen)} into {@code dst[dstOff, dstOff+dstCap)},
     * in place (critical; the views are made here, next to the call).
     */
    static long compressFrame(FrameCompression f, byte[] dst, int dstOff, long dstCap, byte[] src, int srcOff,
                              long srcLen) {
        try {
            return (long) F_COMPRESS_FRAME_ON_ARRAYS.invokeExact(f.cctx(), MemorySegment.ofArray(dst).asSlice(dstOff),
                    dstCap, MemorySegment.ofArray(src).asSlice(srcOff), srcLen, MemorySegment.NULL, f.prefs());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** As {@link #compressFrame(FrameCompression, byte[], int, long, byte[], int, long)} into native {@code dst}. */
    static long compressFrame(FrameCompression f, MemorySegment dst, long dstCap, byte[] src, int srcOff,
                              long srcLen) {
        try {
            return (long) F_COMPRESS_FRAME_ON_ARRAYS.invokeExact(f.cctx(), dst, dstCap,
                    MemorySegment.ofArray(src).asSlice(srcOff), srcLen, MemorySegment.NULL, f.prefs());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code LZ4F_compressFrame} from the remaining bytes of direct buffer {@code src} into those of direct buffer
     * {@code dst}, the views made here, next to the call; critical below {@link #CRITICAL_LIMIT} bytes of input.
     */
    static long compressFrame(FrameCompression f, ByteBuffer dst, ByteBuffer src) {
        MemorySegment d = MemorySegment.ofBuffer(dst);
        MemorySegment s = MemorySegment.ofBuffer(src);
        Bounds.disjointNative(s.scope(), s.address(), s.byteSize(), d.scope(), d.address(), d.byteSize());
        return compressFrame(f, d, d.byteSize(), s, s.byteSize(),
                s.byteSize() < CRITICAL_LIMIT ? CallKind.CRITICAL : CallKind.REGULAR);
    }

    /** {@code LZ4F_compressFrame_usingCDict} without a dictionary (reuses the context) on segments. */
    static long compressFrame(FrameCompression f, MemorySegment dst, long dstCap, MemorySegment src, long srcLen,
                              CallKind kind) {
        try {
            return kind == CallKind.CRITICAL
                    ? (long) F_COMPRESS_FRAME_CRITICAL.invokeExact(f.cctx(), dst, dstCap, src, srcLen,
                            MemorySegment.NULL, f.prefs())
                    : (long) F_COMPRESS_FRAME.invokeExact(f.cctx(), dst, dstCap, src, srcLen, MemorySegment.NULL,
                            f.prefs());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long compressFrameBound(long srcLen, MemorySegment prefs) {
        try {
            return (long) F_COMPRESS_FRAME_BOUND.invokeExact(srcLen, prefs);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long compressBound(long srcLen, MemorySegment prefs) {
        try {
            return (long) F_COMPRESS_BOUND.invokeExact(srcLen, prefs);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4F_compressBegin}; {@code dst} must be native or heap with at least 19 bytes. */
    static long compressBegin(FrameCompression f, MemorySegment dst, long dstCap) {
        try {
            return (long) F_COMPRESS_BEGIN.invokeExact(f.cctx(), dst, dstCap, f.prefs());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** One step of frame compression into {@code dst}; {@code src} is read by {@code FRAME} and {@code UPDATE}. */
    static long frameStep(FrameStep step, FrameCompression f, MemorySegment dst, long dstCap, MemorySegment src,
                          long srcLen, CallKind kind) {
        if (step == FrameStep.FRAME) {
            return compressFrame(f, dst, dstCap, src, srcLen, kind);
        }
        MemorySegment cctx = f.cctx();
        MemorySegment none = MemorySegment.NULL;
        try {
            if (kind == CallKind.CRITICAL) {
                return switch (step) {
                    case UPDATE -> (long) F_COMPRESS_UPDATE_CRITICAL.invokeExact(cctx, dst, dstCap, src, srcLen, none);
                    case FLUSH -> (long) F_FLUSH_CRITICAL.invokeExact(cctx, dst, dstCap, none);
                    default -> (long) F_COMPRESS_END_CRITICAL.invokeExact(cctx, dst, dstCap, none);
                };
            }
            return switch (step) {
                case UPDATE -> (long) F_COMPRESS_UPDATE.invokeExact(cctx, dst, dstCap, src, srcLen, none);
                case FLUSH -> (long) F_FLUSH.invokeExact(cctx, dst, dstCap, none);
                default -> (long) F_COMPRESS_END.invokeExact(cctx, dst, dstCap, none);
            };
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- frame format: decompression -----------------------------------------------------------------------------

    /**
     * A decompression context and its two native {@code size_t}s for {@code LZ4F_decompress}: on entry the lengths
     * (set here), on return the bytes written and read. Made once per context.
     */
    record FrameDecompression(MemorySegment dctx, MemorySegment dstSize, MemorySegment srcSize) {}

    /*
     * LZ4F_decompress on dst[dstOff, +dstLen) and src[srcOff, +srcLen): one overload per kind of memory, each making
     * its views here, next to the call, so none escapes a caller that the JIT does not inline. Heap memory goes
     * through a critical call (the callers bound its length); native memory too below CRITICAL_LIMIT bytes in and
     * out, a regular call above.
     *
     * @return the hint for the next call (0 when a frame ended), or an error code
     */

    /** {@code LZ4F_decompress} on two segments (see above). */
    static long decompress(FrameDecompression f, MemorySegment dst, long dstOff, long dstLen, MemorySegment src,
                           long srcOff, long srcLen) {
        MemorySegment d = slice(dst, dstOff, dstLen);
        MemorySegment s = slice(src, srcOff, srcLen);
        boolean critical = !d.isNative() || !s.isNative() || Math.max(dstLen, srcLen) < CRITICAL_LIMIT;
        return frameCall(f, d, dstLen, s, srcLen, critical ? CallKind.CRITICAL : CallKind.REGULAR);
    }

    /**
     * {@code LZ4F_decompress} on a context's own native staging buffers: critical calls go through handles of their
     * own ({@link Binder#staged}).
     */
    static long decompressStaged(FrameDecompression f, MemorySegment dst, long dstOff, long dstLen,
                                 MemorySegment src, long srcOff, long srcLen) {
        MemorySegment d = slice(dst, dstOff, dstLen);
        MemorySegment s = slice(src, srcOff, srcLen);
        if (Math.max(dstLen, srcLen) >= CRITICAL_LIMIT) {
            return frameCall(f, d, dstLen, s, srcLen, CallKind.REGULAR);
        }
        MemorySegment dstSize = f.dstSize();
        MemorySegment srcSize = f.srcSize();
        dstSize.set(ValueLayout.JAVA_LONG, 0, dstLen);
        srcSize.set(ValueLayout.JAVA_LONG, 0, srcLen);
        try {
            return (long) F_DECOMPRESS_ON_STAGING.invokeExact(f.dctx(), d, dstSize, s, srcSize, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4F_decompress} from an array into an array, in place (critical). */
    static long decompress(FrameDecompression f, byte[] dst, long dstOff, long dstLen, byte[] src, long srcOff,
                           long srcLen) {
        MemorySegment d = MemorySegment.ofArray(dst).asSlice(dstOff, dstLen);
        MemorySegment s = MemorySegment.ofArray(src).asSlice(srcOff, srcLen);
        return frameCall(f, d, dstLen, s, srcLen, CallKind.CRITICAL);
    }

    /** {@code LZ4F_decompress} from an array, in place, into a segment (critical). */
    static long decompress(FrameDecompression f, MemorySegment dst, long dstOff, long dstLen, byte[] src,
                           long srcOff, long srcLen) {
        MemorySegment d = slice(dst, dstOff, dstLen);
        MemorySegment s = MemorySegment.ofArray(src).asSlice(srcOff, srcLen);
        return frameCall(f, d, dstLen, s, srcLen, CallKind.CRITICAL);
    }

    /** {@code LZ4F_decompress} on two buffers, offsets from their positions (see above). */
    static long decompress(FrameDecompression f, ByteBuffer dst, long dstOff, long dstLen, ByteBuffer src,
                           long srcOff, long srcLen) {
        MemorySegment d = slice(MemorySegment.ofBuffer(dst), dstOff, dstLen);
        MemorySegment s = slice(MemorySegment.ofBuffer(src), srcOff, srcLen);
        if (s.isNative() && d.isNative()) { // a native slice may be longer than its length
            Bounds.disjointNative(s.scope(), s.address(), srcLen, d.scope(), d.address(), dstLen);
        } else if (!s.isNative() && !d.isNative()) { // read-only heap buffers: not the array form
            Bounds.disjoint(s, 0, srcLen, d, 0, dstLen);
        }
        boolean critical = !dst.isDirect() || !src.isDirect() || Math.max(dstLen, srcLen) < CRITICAL_LIMIT;
        return frameCall(f, d, dstLen, s, srcLen, critical ? CallKind.CRITICAL : CallKind.REGULAR);
    }

    /** {@code memory[off, +len)}: the segment itself when that is all of it, or native memory from its start. */
    private static MemorySegment slice(MemorySegment memory, long off, long len) {
        // native memory at offset 0 goes as it is (the length is passed separately): a staging buffer needs no slice
        return off == 0 && (len == memory.byteSize() || memory.isNative()) ? memory : memory.asSlice(off, len);
    }

    /** The one {@code LZ4F_decompress} call of the overloads above. */
    private static long frameCall(FrameDecompression f, MemorySegment d, long dstLen, MemorySegment s, long srcLen,
                                  CallKind kind) {
        MemorySegment dstSize = f.dstSize();
        MemorySegment srcSize = f.srcSize();
        dstSize.set(ValueLayout.JAVA_LONG, 0, dstLen);
        srcSize.set(ValueLayout.JAVA_LONG, 0, srcLen);
        try {
            return kind == CallKind.CRITICAL
                    ? (long) F_DECOMPRESS_CRITICAL.invokeExact(f.dctx(), d, dstSize, s, srcSize, MemorySegment.NULL)
                    : (long) F_DECOMPRESS.invokeExact(f.dctx(), d, dstSize, s, srcSize, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code LZ4F_getFrameInfo} at the start of a frame: decodes and verifies the header (its checksum included),
     * fills {@code info} ({@link #FRAME_INFO}) and consumes the header; decoding continues after it. {@code src}
     * holds {@code srcLen} bytes (a context's staging buffer, or heap memory); on return {@code f.srcSize()} holds
     * the header size.
     *
     * @return the hint for the next {@code LZ4F_decompress} call, or an error code
     */
    static long getFrameInfo(FrameDecompression f, MemorySegment info, MemorySegment src, long srcLen) {
        MemorySegment srcSize = f.srcSize();
        srcSize.set(ValueLayout.JAVA_LONG, 0, srcLen);
        try {
            return src.isNative() // the callers stage the header (a copy of at most 19 bytes): handles of their own
                    ? (long) F_GET_FRAME_INFO_ON_STAGING.invokeExact(f.dctx(), info, src, srcSize)
                    : (long) F_GET_FRAME_INFO_CRITICAL.invokeExact(f.dctx(), info, src, srcSize);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return the content size of a filled {@link #FRAME_INFO}, 0 when the frame does not declare it */
    static long frameInfoContentSize(MemorySegment info) {
        return info.get(ValueLayout.JAVA_LONG, FRAME_INFO_CONTENT_SIZE);
    }

    // ---- errors --------------------------------------------------------------------------------------------------

    /** @return true when {@code code}, an LZ4F {@code size_t} result, is an error */
    static boolean isError(long code) {
        return code < 0;
    }

    /** @return the {@code LZ4F_errorCodes} value of an error result */
    static int errorCode(long code) {
        return (int) -code;
    }

    /** @return lz4's description of an LZ4F error result, for example {@code "ERROR_decompressionFailed"} */
    static String errorName(long code) {
        try {
            MemorySegment s = (MemorySegment) F_GET_ERROR_NAME.invokeExact(code);
            return B.cString(s);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }
}
