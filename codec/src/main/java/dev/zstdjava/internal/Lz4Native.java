package dev.zstdjava.internal;

import dev.zstdjava.NativeLibrary;
import dev.zstdjava.internal.Binder.Fn;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.ByteBuffer;
import java.util.List;

import static dev.zstdjava.internal.Binder.IN;
import static dev.zstdjava.internal.Binder.INT;
import static dev.zstdjava.internal.Binder.PTR;
import static dev.zstdjava.internal.Binder.SIZE_T;
import static dev.zstdjava.internal.Binder.cString;
import static dev.zstdjava.internal.Binder.rethrow;

/**
 * Every liblz4 function this library calls, bound once: the block format ({@code lz4.h}, {@code lz4hc.h}) and the
 * frame format ({@code lz4frame.h}). Functions that move data come in two forms: {@code ...H} (critical: heap
 * segments allowed, used for heap memory and short calls) and the regular form (native memory only; lets the JVM
 * reach safepoints during long calls). Callers check every bound before calling.
 *
 * <p>The unsafe {@code LZ4_decompress_fast} family is deliberately not bound: only the bounds-checked decoders
 * ({@code LZ4_decompress_safe}, {@code LZ4_decompress_safe_partial}, {@code LZ4F_decompress}) are reachable.
 *
 * <p>Frame results follow {@code LZ4F_isError}: a {@code size_t} that, read as a signed {@code long}, is negative
 * exactly when it is an error ({@code (size_t)-code}, {@code code} one of {@code LZ4F_errorCodes}).
 */
public final class Lz4Native {
    private Lz4Native() {}

    /** {@code LZ4_MAX_INPUT_SIZE}: the largest block {@code LZ4_compress*} accepts. */
    public static final int MAX_INPUT_SIZE = 0x7E000000;
    /** {@code LZ4F_VERSION}: the frame API version passed to the context constructors. */
    private static final int LZ4F_VERSION = 100;
    /** {@code LZ4F_HEADER_SIZE_MAX}. */
    static final int LZ4F_HEADER_SIZE_MAX = 19;
    /** {@code LZ4F_ERROR_dstMaxSize_tooSmall}. */
    static final int LZ4F_ERROR_DST_MAX_SIZE_TOO_SMALL = 11;

    /** {@code LZ4F_frameInfo_t}, 32 bytes on every 64-bit ABI. */
    public static final StructLayout FRAME_INFO = MemoryLayout.structLayout(
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
    public static final StructLayout PREFERENCES = MemoryLayout.structLayout(
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

    private static final Binder B = Binder.load(new NativeLoader.Spec("lz4", "zstdjava.lz4.path",
            List.of("liblz4.so.1", "liblz4.so", "liblz4.1.dylib", "liblz4.dylib", "lz4.dll", "liblz4.dll"),
            "LZ4_versionNumber", 10900));

    // ---- every liblz4 function used, declared once: symbol and signature (all required); IN = const pointer ---
    private static final Fn
            FN_SIZEOF_STATE = Fn.of("LZ4_sizeofState", INT),
            FN_SIZEOF_STATE_HC = Fn.of("LZ4_sizeofStateHC", INT),
            FN_INIT_STREAM = Fn.of("LZ4_initStream", PTR, PTR, SIZE_T),
            FN_INIT_STREAM_HC = Fn.of("LZ4_initStreamHC", PTR, PTR, SIZE_T),
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

    // ---- the handles: regular (transition, native memory) or critical (heap memory, short calls); ...H = critical --
    static final MethodHandle SIZEOF_STATE = B.critical(FN_SIZEOF_STATE), SIZEOF_STATE_HC = B.critical(FN_SIZEOF_STATE_HC),
            INIT_STREAM = B.critical(FN_INIT_STREAM), INIT_STREAM_HC = B.critical(FN_INIT_STREAM_HC);
    static final MethodHandle COMPRESS_FAST = B.regular(FN_COMPRESS_FAST), COMPRESS_FAST_H = B.critical(FN_COMPRESS_FAST),
            COMPRESS_HC = B.regular(FN_COMPRESS_HC), COMPRESS_HC_H = B.critical(FN_COMPRESS_HC);
    static final MethodHandle DECOMPRESS_SAFE = B.regular(FN_DECOMPRESS_SAFE),
            DECOMPRESS_SAFE_H = B.critical(FN_DECOMPRESS_SAFE), DECOMPRESS_PARTIAL = B.regular(FN_DECOMPRESS_PARTIAL),
            DECOMPRESS_PARTIAL_H = B.critical(FN_DECOMPRESS_PARTIAL);
    static final MethodHandle F_CREATE_CCTX = B.regular(FN_CREATE_CCTX), F_FREE_CCTX = B.regular(FN_FREE_CCTX),
            F_CREATE_DCTX = B.regular(FN_CREATE_DCTX), F_FREE_DCTX = B.regular(FN_FREE_DCTX),
            F_RESET_DCTX = B.critical(FN_RESET_DCTX);
    static final MethodHandle F_COMPRESS_FRAME = B.regular(FN_COMPRESS_FRAME),
            F_COMPRESS_FRAME_H = B.critical(FN_COMPRESS_FRAME),
            F_COMPRESS_FRAME_BOUND = B.critical(FN_COMPRESS_FRAME_BOUND), F_COMPRESS_BOUND = B.critical(FN_COMPRESS_BOUND);
    static final MethodHandle F_COMPRESS_BEGIN = B.critical(FN_COMPRESS_BEGIN),
            F_COMPRESS_UPDATE = B.regular(FN_COMPRESS_UPDATE), F_COMPRESS_UPDATE_H = B.critical(FN_COMPRESS_UPDATE);
    /** For the array helpers only (see {@link Binder#heap}). */
    static final MethodHandle COMPRESS_FAST_A = B.heap(FN_COMPRESS_FAST), COMPRESS_HC_A = B.heap(FN_COMPRESS_HC),
            DECOMPRESS_SAFE_A = B.heap(FN_DECOMPRESS_SAFE), DECOMPRESS_PARTIAL_A = B.heap(FN_DECOMPRESS_PARTIAL),
            F_COMPRESS_FRAME_A = B.heap(FN_COMPRESS_FRAME);
    /** For calls on the contexts' own staging buffers only (see {@link Binder#staged}). */
    static final MethodHandle COMPRESS_FAST_S = B.staged(FN_COMPRESS_FAST), COMPRESS_HC_S = B.staged(FN_COMPRESS_HC),
            DECOMPRESS_SAFE_S = B.staged(FN_DECOMPRESS_SAFE), DECOMPRESS_PARTIAL_S = B.staged(FN_DECOMPRESS_PARTIAL),
            F_COMPRESS_FRAME_S = B.staged(FN_COMPRESS_FRAME), F_DECOMPRESS_S = B.staged(FN_DECOMPRESS),
            F_GET_FRAME_INFO_S = B.staged(FN_GET_FRAME_INFO);
    static final MethodHandle F_FLUSH = B.regular(FN_FLUSH), F_FLUSH_H = B.critical(FN_FLUSH),
            F_COMPRESS_END = B.regular(FN_COMPRESS_END), F_COMPRESS_END_H = B.critical(FN_COMPRESS_END);
    static final MethodHandle F_DECOMPRESS = B.regular(FN_DECOMPRESS), F_DECOMPRESS_H = B.critical(FN_DECOMPRESS),
            F_GET_FRAME_INFO_H = B.critical(FN_GET_FRAME_INFO), F_GET_ERROR_NAME = B.critical(FN_GET_ERROR_NAME);

    public static final NativeLibrary LIBRARY = B.info();

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
            int r1 = (int) DECOMPRESS_SAFE_H.invokeExact(s, d, 0, 0);
            int r2 = (int) DECOMPRESS_SAFE.invokeExact(s, d, 0, 0);
            int r3 = (int) DECOMPRESS_PARTIAL_H.invokeExact(s, d, 0, 0, 0);
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

    /** Calls below this many bytes of work use the critical form even on native memory (no thread transition). */
    public static final long CRITICAL_LIMIT = 16 * 1024;

    /**
     * Heap arrays above this many bytes of work (system property {@code zstdjava.criticalHeapLimit}, default 1 MiB,
     * shared with zstd) are staged through native memory or processed in pieces instead of being accessed in place
     * by one long critical call: a critical downcall holds off safepoints, and so every GC, until it returns. The
     * compressors scale it down for the slower HC levels.
     */
    public static final long HEAP_CRITICAL_LIMIT = Bounds.HEAP_CRITICAL_LIMIT;

    /** Most heap bytes one critical call reads or writes when heap work is cut into pieces: {@link Bounds#HEAP_WINDOW}. */
    public static final long HEAP_WINDOW = Bounds.HEAP_WINDOW;

    /** @return the heap work limit for compression at a GLIDE-style lz4 level (smaller for slower HC levels) */
    public static long heapLimit(int level) {
        return HEAP_CRITICAL_LIMIT >> (level <= 0 ? 0 : level <= 9 ? 4 : 5);
    }

    // ---- block format --------------------------------------------------------------------------------------------

    /** @return {@code LZ4_sizeofState()}, the bytes of a fast compression state */
    public static int sizeofState() {
        try {
            return (int) SIZEOF_STATE.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return {@code LZ4_sizeofStateHC()}, the bytes of an HC compression state */
    public static int sizeofStateHC() {
        try {
            return (int) SIZEOF_STATE_HC.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Initialises {@code state} (malloc'd, {@link #sizeofState()} bytes) once; throws if lz4 refuses it. */
    public static void initStream(MemorySegment state) {
        try {
            MemorySegment r = (MemorySegment) INIT_STREAM.invokeExact(state, state.byteSize());
            if (r.address() == 0) {
                throw new IllegalStateException("LZ4_initStream refused a state of " + state.byteSize() + " bytes");
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Initialises {@code state} (malloc'd, {@link #sizeofStateHC()} bytes) once; throws if lz4 refuses it. */
    public static void initStreamHC(MemorySegment state) {
        try {
            MemorySegment r = (MemorySegment) INIT_STREAM_HC.invokeExact(state, state.byteSize());
            if (r.address() == 0) {
                throw new IllegalStateException("LZ4_initStreamHC refused a state of " + state.byteSize() + " bytes");
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4_compress_fast_extState_fastReset}: compressed size, or 0 when {@code dst} is too small. */
    public static int compressFast(MemorySegment state, MemorySegment src, MemorySegment dst, int srcSize,
                                   int dstCapacity, int acceleration, boolean critical) {
        try {
            return critical
                    ? (int) COMPRESS_FAST_H.invokeExact(state, src, dst, srcSize, dstCapacity, acceleration)
                    : (int) COMPRESS_FAST.invokeExact(state, src, dst, srcSize, dstCapacity, acceleration);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4_compress_HC_extStateHC_fastReset}: compressed size, or 0 when {@code dst} is too small. */
    public static int compressHC(MemorySegment state, MemorySegment src, MemorySegment dst, int srcSize,
                                 int dstCapacity, int level, boolean critical) {
        try {
            return critical
                    ? (int) COMPRESS_HC_H.invokeExact(state, src, dst, srcSize, dstCapacity, level)
                    : (int) COMPRESS_HC.invokeExact(state, src, dst, srcSize, dstCapacity, level);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /*
     * Heap arrays: the views are made here, next to the call (see ZstdNative), so escape analysis removes them
     * wherever this method is compiled. Critical, through the ..._A handles (Binder.heap); used only up to
     * HEAP_CRITICAL_LIMIT bytes.
     */

    /**
     * One block compression from {@code src[srcOff, srcOff+srcSize)} into {@code dst[dstOff, dstOff+dstCapacity)},
     * in place: HC at {@code level > 0}, otherwise fast with acceleration {@code -level} (1 at level 0).
     *
     * @return the compressed size, or 0 when {@code dst} is too small
     */
    public static int compress(MemorySegment state, int level, byte[] src, int srcOff, byte[] dst, int dstOff,
                               int srcSize, int dstCapacity) {
        MemorySegment s = MemorySegment.ofArray(src).asSlice(srcOff);
        MemorySegment d = MemorySegment.ofArray(dst).asSlice(dstOff);
        try {
            return level > 0
                    ? (int) COMPRESS_HC_A.invokeExact(state, s, d, srcSize, dstCapacity, level)
                    : (int) COMPRESS_FAST_A.invokeExact(state, s, d, srcSize, dstCapacity, level < 0 ? -level : 1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** As {@link #compress(MemorySegment, int, byte[], int, byte[], int, int, int)} into native {@code dst}. */
    public static int compress(MemorySegment state, int level, byte[] src, int srcOff, MemorySegment dst,
                               int srcSize, int dstCapacity) {
        MemorySegment s = MemorySegment.ofArray(src).asSlice(srcOff);
        try {
            return level > 0
                    ? (int) COMPRESS_HC_A.invokeExact(state, s, dst, srcSize, dstCapacity, level)
                    : (int) COMPRESS_FAST_A.invokeExact(state, s, dst, srcSize, dstCapacity, level < 0 ? -level : 1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * {@code LZ4_decompress_safe} (or, when {@code partial}, {@code LZ4_decompress_safe_partial} up to
     * {@code dstCapacity} bytes) from {@code src[srcOff, srcOff+srcSize)} into {@code dst[dstOff, ...)}, in place.
     *
     * @return bytes written, or a negative number when the input is malformed
     */
    public static int decompress(byte[] src, int srcOff, byte[] dst, int dstOff, int srcSize, int dstCapacity,
                                 boolean partial) {
        MemorySegment s = MemorySegment.ofArray(src).asSlice(srcOff);
        MemorySegment d = MemorySegment.ofArray(dst).asSlice(dstOff);
        try {
            return partial
                    ? (int) DECOMPRESS_PARTIAL_A.invokeExact(s, d, srcSize, dstCapacity, dstCapacity)
                    : (int) DECOMPRESS_SAFE_A.invokeExact(s, d, srcSize, dstCapacity);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * One block compression (as {@link #compress(MemorySegment, int, byte[], int, byte[], int, int, int)}) from the
     * remaining bytes of direct buffer {@code src} into those of direct buffer {@code dst}, the views made here;
     * critical below {@link #CRITICAL_LIMIT} bytes of input. A destination above 2 GiB is used up to 2 GiB - 1.
     *
     * @return the compressed size, or 0 when {@code dst} is too small
     */
    public static int compress(MemorySegment state, int level, ByteBuffer src, ByteBuffer dst) {
        MemorySegment s = MemorySegment.ofBuffer(src);
        MemorySegment d = MemorySegment.ofBuffer(dst);
        int srcSize = src.remaining();
        int cap = dst.remaining();
        int accel = level < 0 ? -level : 1;
        try {
            if (srcSize < CRITICAL_LIMIT) {
                return level > 0
                        ? (int) COMPRESS_HC_H.invokeExact(state, s, d, srcSize, cap, level)
                        : (int) COMPRESS_FAST_H.invokeExact(state, s, d, srcSize, cap, accel);
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
    public static int decompress(ByteBuffer src, ByteBuffer dst) {
        MemorySegment s = MemorySegment.ofBuffer(src);
        MemorySegment d = MemorySegment.ofBuffer(dst);
        int srcSize = src.remaining();
        int cap = dst.remaining();
        try {
            return cap < CRITICAL_LIMIT
                    ? (int) DECOMPRESS_SAFE_H.invokeExact(s, d, srcSize, cap)
                    : (int) DECOMPRESS_SAFE.invokeExact(s, d, srcSize, cap);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * One {@code LZ4F_decompress} call from the remaining bytes of direct buffer {@code src} into those of direct
     * buffer {@code dst}, the views made here, next to the call (a {@code decompress} whose views do not cross a
     * method boundary); critical below {@link #CRITICAL_LIMIT} bytes of input and output. {@code dstSize} and
     * {@code srcSize} as for {@link #decompress(MemorySegment, Object, long, long, MemorySegment, Object, long, long,
     * MemorySegment, boolean)}.
     */
    public static long decompressFrame(MemorySegment dctx, ByteBuffer dst, MemorySegment dstSize, ByteBuffer src,
                                       MemorySegment srcSize) {
        MemorySegment d = MemorySegment.ofBuffer(dst);
        MemorySegment s = MemorySegment.ofBuffer(src);
        long dstLen = d.byteSize();
        long srcLen = s.byteSize();
        dstSize.set(ValueLayout.JAVA_LONG, 0, dstLen);
        srcSize.set(ValueLayout.JAVA_LONG, 0, srcLen);
        try {
            return Math.max(srcLen, dstLen) < CRITICAL_LIMIT
                    ? (long) F_DECOMPRESS_H.invokeExact(dctx, d, dstSize, s, srcSize, MemorySegment.NULL)
                    : (long) F_DECOMPRESS.invokeExact(dctx, d, dstSize, s, srcSize, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /*
     * Staged calls: on a context's own native buffers (Scratch), through handles of their own (Binder.staged);
     * critical below CRITICAL_LIMIT bytes of work, regular above.
     */

    /** As {@link #compress(MemorySegment, int, byte[], int, byte[], int, int, int)} on staging buffers. */
    public static int compressStaged(MemorySegment state, int level, MemorySegment src, MemorySegment dst,
                                     int srcSize, int dstCapacity) {
        if (srcSize >= CRITICAL_LIMIT) {
            return level > 0
                    ? compressHC(state, src, dst, srcSize, dstCapacity, level, false)
                    : compressFast(state, src, dst, srcSize, dstCapacity, level < 0 ? -level : 1, false);
        }
        try {
            return level > 0
                    ? (int) COMPRESS_HC_S.invokeExact(state, src, dst, srcSize, dstCapacity, level)
                    : (int) COMPRESS_FAST_S.invokeExact(state, src, dst, srcSize, dstCapacity, level < 0 ? -level : 1);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** As {@link #decompress(byte[], int, byte[], int, int, int, boolean)} on staging buffers. */
    public static int decompressStaged(MemorySegment src, MemorySegment dst, int srcSize, int dstCapacity,
                                       boolean partial) {
        if (dstCapacity >= CRITICAL_LIMIT) {
            return partial
                    ? decompressPartial(src, dst, srcSize, dstCapacity, dstCapacity, false)
                    : decompressSafe(src, dst, srcSize, dstCapacity, false);
        }
        try {
            return partial
                    ? (int) DECOMPRESS_PARTIAL_S.invokeExact(src, dst, srcSize, dstCapacity, dstCapacity)
                    : (int) DECOMPRESS_SAFE_S.invokeExact(src, dst, srcSize, dstCapacity);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4F_compressFrame_usingCDict} without a dictionary on staging buffers. */
    public static long compressFrameStaged(MemorySegment cctx, MemorySegment dst, long dstCap, MemorySegment src,
                                           long srcLen, MemorySegment prefs) {
        if (srcLen >= CRITICAL_LIMIT) {
            return frameStep(FRAME, cctx, dst, dstCap, src, srcLen, prefs, false);
        }
        try {
            return (long) F_COMPRESS_FRAME_S.invokeExact(cctx, dst, dstCap, src, srcLen, MemorySegment.NULL, prefs);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4_decompress_safe}: bytes written, or a negative number when the input is malformed. */
    public static int decompressSafe(MemorySegment src, MemorySegment dst, int srcSize, int dstCapacity,
                                     boolean critical) {
        try {
            return critical
                    ? (int) DECOMPRESS_SAFE_H.invokeExact(src, dst, srcSize, dstCapacity)
                    : (int) DECOMPRESS_SAFE.invokeExact(src, dst, srcSize, dstCapacity);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4_decompress_safe_partial}: bytes written (at most {@code target}), or negative when malformed. */
    public static int decompressPartial(MemorySegment src, MemorySegment dst, int srcSize, int target,
                                        int dstCapacity, boolean critical) {
        try {
            return critical
                    ? (int) DECOMPRESS_PARTIAL_H.invokeExact(src, dst, srcSize, target, dstCapacity)
                    : (int) DECOMPRESS_PARTIAL.invokeExact(src, dst, srcSize, target, dstCapacity);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- frame format: contexts ----------------------------------------------------------------------------------

    public static MemorySegment createCompressionContext() {
        return createContext(F_CREATE_CCTX, "LZ4F_createCompressionContext");
    }

    public static void freeCompressionContext(MemorySegment cctx) {
        try {
            long ignored = (long) F_FREE_CCTX.invokeExact(cctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static MemorySegment createDecompressionContext() {
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

    public static void freeDecompressionContext(MemorySegment dctx) {
        try {
            long ignored = (long) F_FREE_DCTX.invokeExact(dctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static void resetDecompressionContext(MemorySegment dctx) {
        try {
            F_RESET_DCTX.invokeExact(dctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- frame format: preferences -------------------------------------------------------------------------------

    /**
     * Fills a {@link #PREFERENCES} segment (zeroing it first, as lz4 requires for the reserved fields).
     *
     * @param blockSizeId   {@code LZ4F_blockSizeID_t}: 4 (64 KB) .. 7 (4 MB)
     * @param contentSize   the size to declare in the header, or 0 for none
     */
    public static void preferences(MemorySegment prefs, int level, int blockSizeId, boolean blockIndependent,
                                   boolean blockChecksum, boolean contentChecksum, long contentSize,
                                   boolean autoFlush, boolean favorDecompressionSpeed) {
        prefs.fill((byte) 0);
        prefs.set(ValueLayout.JAVA_INT, P_BLOCK_SIZE_ID, blockSizeId);
        prefs.set(ValueLayout.JAVA_INT, P_BLOCK_MODE, blockIndependent ? 1 : 0);
        prefs.set(ValueLayout.JAVA_INT, P_CONTENT_CHECKSUM, contentChecksum ? 1 : 0);
        prefs.set(ValueLayout.JAVA_LONG, P_CONTENT_SIZE, contentSize);
        prefs.set(ValueLayout.JAVA_INT, P_BLOCK_CHECKSUM, blockChecksum ? 1 : 0);
        prefs.set(ValueLayout.JAVA_INT, P_LEVEL, level);
        prefs.set(ValueLayout.JAVA_INT, P_AUTO_FLUSH, autoFlush ? 1 : 0);
        prefs.set(ValueLayout.JAVA_INT, P_FAVOR_DEC_SPEED, favorDecompressionSpeed ? 1 : 0);
    }

    /** Sets the declared content size of a {@link #PREFERENCES} segment (0 = not declared). */
    public static void preferencesContentSize(MemorySegment prefs, long contentSize) {
        prefs.set(ValueLayout.JAVA_LONG, P_CONTENT_SIZE, contentSize);
    }

    // ---- frame format: compression -------------------------------------------------------------------------------

    /**
     * {@code LZ4F_compressFrame} from {@code src[srcOff, srcOff+srcLen)} into {@code dst[dstOff, dstOff+dstCap)},
     * in place (critical; the views are made here, next to the call).
     */
    public static long compressFrame(MemorySegment cctx, byte[] dst, int dstOff, long dstCap, byte[] src, int srcOff,
                                     long srcLen, MemorySegment prefs) {
        try {
            return (long) F_COMPRESS_FRAME_A.invokeExact(cctx, MemorySegment.ofArray(dst).asSlice(dstOff), dstCap,
                    MemorySegment.ofArray(src).asSlice(srcOff), srcLen, MemorySegment.NULL, prefs);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** As {@link #compressFrame(MemorySegment, byte[], int, long, byte[], int, long, MemorySegment)} into native {@code dst}. */
    public static long compressFrame(MemorySegment cctx, MemorySegment dst, long dstCap, byte[] src, int srcOff,
                                     long srcLen, MemorySegment prefs) {
        try {
            return (long) F_COMPRESS_FRAME_A.invokeExact(cctx, dst, dstCap, MemorySegment.ofArray(src).asSlice(srcOff),
                    srcLen, MemorySegment.NULL, prefs);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * As {@link #frameStep} {@link #FRAME} from
     * the remaining bytes of direct buffer {@code src} into those of direct buffer {@code dst}, the views made here,
     * next to the call; critical below {@link #CRITICAL_LIMIT} bytes of input.
     */
    public static long compressFrame(MemorySegment cctx, ByteBuffer dst, ByteBuffer src, MemorySegment prefs) {
        MemorySegment d = MemorySegment.ofBuffer(dst);
        MemorySegment s = MemorySegment.ofBuffer(src);
        long dstCap = d.byteSize();
        long srcLen = s.byteSize();
        try {
            return srcLen < CRITICAL_LIMIT
                    ? (long) F_COMPRESS_FRAME_H.invokeExact(cctx, d, dstCap, s, srcLen, MemorySegment.NULL, prefs)
                    : (long) F_COMPRESS_FRAME.invokeExact(cctx, d, dstCap, s, srcLen, MemorySegment.NULL, prefs);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long compressFrameBound(long srcLen, MemorySegment prefs) {
        try {
            return (long) F_COMPRESS_FRAME_BOUND.invokeExact(srcLen, prefs);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long compressBound(long srcLen, MemorySegment prefs) {
        try {
            return (long) F_COMPRESS_BOUND.invokeExact(srcLen, prefs);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@code LZ4F_compressBegin}; {@code dst} must be native or heap with at least 19 bytes. */
    public static long compressBegin(MemorySegment cctx, MemorySegment dst, long dstCap, MemorySegment prefs) {
        try {
            return (long) F_COMPRESS_BEGIN.invokeExact(cctx, dst, dstCap, prefs);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@link #frameStep} steps: a whole frame, or a streamed frame's update, flush or end. */
    public static final int FRAME = 0, UPDATE = 1, FLUSH = 2, END = 3;

    /**
     * One step of frame compression into {@code dst}: {@link #FRAME} is {@code LZ4F_compressFrame_usingCDict} without a
     * dictionary (reuses {@code cctx}), {@link #UPDATE} {@code LZ4F_compressUpdate}, {@link #FLUSH} {@code LZ4F_flush},
     * {@link #END} {@code LZ4F_compressEnd}; {@code src} is read by the first two, {@code prefs} by the first.
     */
    public static long frameStep(int op, MemorySegment cctx, MemorySegment dst, long dstCap, MemorySegment src,
                                 long srcLen, MemorySegment prefs, boolean critical) {
        MemorySegment none = MemorySegment.NULL;
        try {
            if (critical) {
                return switch (op) {
                    case FRAME -> (long) F_COMPRESS_FRAME_H.invokeExact(cctx, dst, dstCap, src, srcLen, none, prefs);
                    case UPDATE -> (long) F_COMPRESS_UPDATE_H.invokeExact(cctx, dst, dstCap, src, srcLen, none);
                    case FLUSH -> (long) F_FLUSH_H.invokeExact(cctx, dst, dstCap, none);
                    default -> (long) F_COMPRESS_END_H.invokeExact(cctx, dst, dstCap, none);
                };
            }
            return switch (op) {
                case FRAME -> (long) F_COMPRESS_FRAME.invokeExact(cctx, dst, dstCap, src, srcLen, none, prefs);
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
     * {@code LZ4F_decompress} on {@code dst[dstOff, +dstLen)} and {@code src[srcOff, +srcLen)}, each a {@code byte[]},
     * a {@link ByteBuffer} (offsets from its position) or a {@link MemorySegment}: the views are made here, next to
     * the call, so none escapes a caller that the JIT does not inline. {@code dstSize} and {@code srcSize} are native
     * {@code size_t}s: on entry the lengths, on return the bytes written and read. Heap memory needs {@code critical}.
     *
     * @return the hint for the next call (0 when a frame ended), or an error code
     */
    public static long decompress(MemorySegment dctx, Object dst, long dstOff, long dstLen, MemorySegment dstSize,
                                  Object src, long srcOff, long srcLen, MemorySegment srcSize, boolean critical) {
        return decompress(dctx, dst, dstOff, dstLen, dstSize, src, srcOff, srcLen, srcSize, critical, false);
    }

    /**
     * As {@link #decompress(MemorySegment, Object, long, long, MemorySegment, Object, long, long, MemorySegment,
     * boolean)}; {@code staged}: both are a context's own staging buffers (critical calls then go through handles of
     * their own, see {@link Binder#staged}).
     */
    public static long decompress(MemorySegment dctx, Object dst, long dstOff, long dstLen, MemorySegment dstSize,
                                  Object src, long srcOff, long srcLen, MemorySegment srcSize, boolean critical,
                                  boolean staged) {
        dstSize.set(ValueLayout.JAVA_LONG, 0, dstLen);
        srcSize.set(ValueLayout.JAVA_LONG, 0, srcLen);
        MemorySegment d = view(dst, dstOff, dstLen);
        MemorySegment s = view(src, srcOff, srcLen);
        try {
            if (critical && staged) {
                return (long) F_DECOMPRESS_S.invokeExact(dctx, d, dstSize, s, srcSize, MemorySegment.NULL);
            }
            return critical
                    ? (long) F_DECOMPRESS_H.invokeExact(dctx, d, dstSize, s, srcSize, MemorySegment.NULL)
                    : (long) F_DECOMPRESS.invokeExact(dctx, d, dstSize, s, srcSize, MemorySegment.NULL);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return true when {@code memory} (a {@code byte[]}, {@link ByteBuffer} or {@link MemorySegment}) is native */
    public static boolean isNative(Object memory) {
        return memory instanceof MemorySegment m ? m.isNative() : memory instanceof ByteBuffer b && b.isDirect();
    }

    /**
     * {@code memory[off, +len)} as a segment, made here so that it does not outlive the call: escape analysis removes
     * it when C2 inlines the JDK methods that make it (see the allocation notes in {@code docs/benchmarks.md}).
     */
    private static MemorySegment view(Object memory, long off, long len) {
        if (memory instanceof byte[] a) {
            return MemorySegment.ofArray(a).asSlice(off, len);
        }
        if (memory instanceof ByteBuffer b) {
            MemorySegment whole = MemorySegment.ofBuffer(b);
            return off == 0 && len == whole.byteSize() ? whole : whole.asSlice(off, len);
        }
        MemorySegment m = (MemorySegment) memory;
        // native memory at offset 0 goes as it is (the length is passed separately): a staging buffer needs no slice
        return off == 0 && (len == m.byteSize() || m.isNative()) ? m : m.asSlice(off, len);
    }

    /**
     * {@code LZ4F_getFrameInfo} at the start of a frame: decodes and verifies the header (its checksum included),
     * fills {@code info} ({@link #FRAME_INFO}) and consumes the header; decoding continues after it. {@code src} as
     * for {@link #decompress}; {@code srcSize} is a native {@code size_t}: on return the header size.
     *
     * @return the hint for the next {@link #decompress} call, or an error code
     */
    public static long getFrameInfo(MemorySegment dctx, MemorySegment info, Object src, long srcOff, long srcLen,
                                    MemorySegment srcSize) {
        srcSize.set(ValueLayout.JAVA_LONG, 0, srcLen);
        MemorySegment s = view(src, srcOff, srcLen);
        try {
            return s.isNative() // the callers stage the header (a copy of at most 19 bytes): handles of their own
                    ? (long) F_GET_FRAME_INFO_S.invokeExact(dctx, info, s, srcSize)
                    : (long) F_GET_FRAME_INFO_H.invokeExact(dctx, info, s, srcSize);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return the content size of a filled {@link #FRAME_INFO}, 0 when the frame does not declare it */
    public static long frameInfoContentSize(MemorySegment info) {
        return info.get(ValueLayout.JAVA_LONG, FRAME_INFO_CONTENT_SIZE);
    }

    // ---- errors --------------------------------------------------------------------------------------------------

    /** @return true when {@code code}, an LZ4F {@code size_t} result, is an error */
    public static boolean isError(long code) {
        return code < 0;
    }

    /** @return the {@code LZ4F_errorCodes} value of an error result */
    public static int errorCode(long code) {
        return (int) -code;
    }

    /** @return lz4's description of an LZ4F error result, for example {@code "ERROR_decompressionFailed"} */
    public static String errorName(long code) {
        try {
            MemorySegment s = (MemorySegment) F_GET_ERROR_NAME.invokeExact(code);
            return cString(s);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }
}
