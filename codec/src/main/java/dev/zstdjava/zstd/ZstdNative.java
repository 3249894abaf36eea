package dev.zstdjava.zstd;

import dev.zstdjava.NativeLibrary;
import dev.zstdjava.internal.Binder.Fn;
import dev.zstdjava.internal.Binder;
import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.CallKind;
import dev.zstdjava.internal.Direction;
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
 * Every libzstd function this library calls, bound once. Functions that move data come in two forms: {@code ..._CRITICAL}
 * (critical: heap segments allowed, used for heap memory and short calls) and the regular form (native memory;
 * lets the JVM reach safepoints during long calls). Callers check every bound before calling.
 *
 * <p>Return values follow zstd: a {@code size_t} that, read as a signed {@code long}, is negative exactly when it
 * is an error code ({@code (size_t)-code} with code below 128); {@link #isError} tests that without a native call.
 */
final class ZstdNative {
    private ZstdNative() {}

    // ZSTD_cParameter
    static final int C_COMPRESSION_LEVEL = 100;
    static final int C_WINDOW_LOG = 101;
    static final int C_STRATEGY = 107;
    static final int C_ENABLE_LONG_DISTANCE_MATCHING = 160;
    static final int C_CONTENT_SIZE_FLAG = 200;
    static final int C_CHECKSUM_FLAG = 201;
    static final int C_DICT_ID_FLAG = 202;
    static final int C_NB_WORKERS = 400;
    /** {@code ZSTD_c_forceAttachDict}: an experimental parameter ({@code ZSTD_c_experimentalParam4}) since 1.4.0. */
    static final int C_FORCE_ATTACH_DICT = 1001;
    /** {@code ZSTD_dictForceAttach}, a value of {@link #C_FORCE_ATTACH_DICT}. */
    static final int DICT_FORCE_ATTACH = 1;
    /** {@code ZSTD_dfast}, a {@code ZSTD_strategy}. */
    static final int STRATEGY_DFAST = 2;
    // ZSTD_dParameter
    static final int D_WINDOW_LOG_MAX = 100;
    /** {@code ZSTD_ResetDirective}. */
    enum ResetDirective {
        SESSION_ONLY(1), PARAMETERS(2), SESSION_AND_PARAMETERS(3);

        final int code;

        ResetDirective(int code) {
            this.code = code;
        }
    }

    /** {@code ZSTD_getFrameContentSize} result: the frame does not declare its content size. */
    static final long CONTENTSIZE_UNKNOWN = -1L;
    /** {@code ZSTD_getFrameContentSize} result: not a valid frame header (or too short to hold one). */
    static final long CONTENTSIZE_ERROR = -2L;

    /** {@code ZSTD_EndDirective}: what a streaming compression call does after taking its input. */
    enum EndDirective {
        /** {@code ZSTD_e_continue}: take input, emit what is ready. */
        CONTINUE(0),
        /** {@code ZSTD_e_flush}: also flush every buffered byte as a complete block. */
        FLUSH(1),
        /** {@code ZSTD_e_end}: also end the frame. */
        END(2);

        final int code;

        EndDirective(int code) {
            this.code = code;
        }
    }
    /**
     * How zstd reads dictionary bytes ({@code ZSTD_dictContentType_e}): {@link #AUTO} as its dictionary format when
     * they start with its magic number, {@link #RAW} as plain content.
     */
    enum DictionaryContent {
        AUTO, RAW
    }

    // ZSTD_dictLoadMethod_e, ZSTD_dictContentType_e
    private static final int DLM_BY_COPY = 0;
    private static final int DLM_BY_REF = 1;
    private static final int DCT_AUTO = 0;
    private static final int DCT_RAW_CONTENT = 1;

    /** {@code ZSTD_compressionParameters}: seven 32-bit fields, passed by value. */
    private static final StructLayout C_PARAMS = MemoryLayout.structLayout(
            INT.withName("windowLog"), INT.withName("chainLog"), INT.withName("hashLog"), INT.withName("searchLog"),
            INT.withName("minMatch"), INT.withName("targetLength"), INT.withName("strategy"));
    /** {@code ZSTD_customMem}: alloc, free, opaque; all NULL selects malloc/free. */
    private static final StructLayout CUSTOM_MEM = MemoryLayout.structLayout(
            PTR.withName("customAlloc"), PTR.withName("customFree"), PTR.withName("opaque"));
    /** {@code ZDICT_params_t}. */
    private static final StructLayout ZDICT_PARAMS = MemoryLayout.structLayout(
            INT.withName("compressionLevel"), INT.withName("notificationLevel"), INT.withName("dictID"));
    /** {@code ZDICT_fastCover_params_t} (zdict.h, zstd 1.4.5 and later). */
    static final StructLayout FAST_COVER_PARAMS = MemoryLayout.structLayout(
            INT.withName("k"), INT.withName("d"), INT.withName("f"), INT.withName("steps"), INT.withName("nbThreads"),
            MemoryLayout.paddingLayout(4), ValueLayout.JAVA_DOUBLE.withName("splitPoint"), INT.withName("accel"),
            INT.withName("shrinkDict"), INT.withName("shrinkDictMaxRegression"), ZDICT_PARAMS.withName("zParams"));
    static final long FC_K = offset("k"), FC_D = offset("d"), FC_F = offset("f"), FC_STEPS = offset("steps"),
            FC_THREADS = offset("nbThreads"), FC_SPLIT_POINT = offset("splitPoint"), FC_ACCEL = offset("accel"),
            FC_LEVEL = FAST_COVER_PARAMS.byteOffset(MemoryLayout.PathElement.groupElement("zParams"),
                    MemoryLayout.PathElement.groupElement("compressionLevel")),
            FC_DICT_ID = FAST_COVER_PARAMS.byteOffset(MemoryLayout.PathElement.groupElement("zParams"),
                    MemoryLayout.PathElement.groupElement("dictID"));

    private static long offset(String field) {
        return FAST_COVER_PARAMS.byteOffset(MemoryLayout.PathElement.groupElement(field));
    }

    private static final StructLayout BOUNDS = MemoryLayout.structLayout(
            SIZE_T.withName("error"), INT.withName("lowerBound"), INT.withName("upperBound"));

    /** {@code malloc}/{@code realloc}/{@code free} for this package's native buffers. */
    static final LibC LIBC = LibC.bind(MethodHandles.lookup());

    // ---- every libzstd function used, declared once: symbol, signature (IN = const pointer), optional -----------
    private static final Fn
            FN_CREATE_CCTX = Fn.of("ZSTD_createCCtx", PTR),
            FN_FREE_CCTX = Fn.of("ZSTD_freeCCtx", SIZE_T, PTR),
            FN_CREATE_DCTX = Fn.of("ZSTD_createDCtx", PTR),
            FN_FREE_DCTX = Fn.of("ZSTD_freeDCtx", SIZE_T, PTR),
            FN_SIZEOF_DCTX = Fn.of("ZSTD_sizeof_DCtx", SIZE_T, IN),
            FN_SIZEOF_DDICT = Fn.of("ZSTD_sizeof_DDict", SIZE_T, IN),
            FN_CCTX_SET_PARAMETER = Fn.of("ZSTD_CCtx_setParameter", SIZE_T, PTR, INT, INT),
            FN_CCTX_RESET = Fn.of("ZSTD_CCtx_reset", SIZE_T, PTR, INT),
            FN_DCTX_SET_PARAMETER = Fn.of("ZSTD_DCtx_setParameter", SIZE_T, PTR, INT, INT),
            FN_DCTX_RESET = Fn.of("ZSTD_DCtx_reset", SIZE_T, PTR, INT),
            FN_COMPRESS2 = Fn.of("ZSTD_compress2", SIZE_T, PTR, PTR, SIZE_T, IN, SIZE_T),
            FN_DECOMPRESS_DCTX = Fn.of("ZSTD_decompressDCtx", SIZE_T, PTR, PTR, SIZE_T, IN, SIZE_T),
            FN_COMPRESS_STREAM2_SIMPLE = Fn.of("ZSTD_compressStream2_simpleArgs",
                    SIZE_T, PTR, PTR, SIZE_T, PTR, IN, SIZE_T, PTR, INT).optional(),
            FN_DECOMPRESS_STREAM_SIMPLE = Fn.of("ZSTD_decompressStream_simpleArgs",
                    SIZE_T, PTR, PTR, SIZE_T, PTR, IN, SIZE_T, PTR).optional(),
            FN_GET_FRAME_CONTENT_SIZE = Fn.of("ZSTD_getFrameContentSize", SIZE_T, IN, SIZE_T),
            FN_FIND_DECOMPRESSED_SIZE = Fn.of("ZSTD_findDecompressedSize", SIZE_T, IN, SIZE_T),
            FN_FIND_FRAME_COMPRESSED_SIZE = Fn.of("ZSTD_findFrameCompressedSize", SIZE_T, IN, SIZE_T),
            FN_DECOMPRESS_BOUND = Fn.of("ZSTD_decompressBound", SIZE_T, IN, SIZE_T).optional(),
            FN_GET_ERROR_CODE = Fn.of("ZSTD_getErrorCode", INT, SIZE_T),
            FN_GET_ERROR_NAME = Fn.of("ZSTD_getErrorName", PTR, SIZE_T),
            FN_MIN_C_LEVEL = Fn.of("ZSTD_minCLevel", INT),
            FN_MAX_C_LEVEL = Fn.of("ZSTD_maxCLevel", INT),
            FN_DEFAULT_C_LEVEL = Fn.of("ZSTD_defaultCLevel", INT).optional(),
            FN_C_PARAM_GET_BOUNDS = Fn.of("ZSTD_cParam_getBounds", BOUNDS, INT),
            FN_D_PARAM_GET_BOUNDS = Fn.of("ZSTD_dParam_getBounds", BOUNDS, INT),
            FN_C_STREAM_IN_SIZE = Fn.of("ZSTD_CStreamInSize", SIZE_T),
            FN_C_STREAM_OUT_SIZE = Fn.of("ZSTD_CStreamOutSize", SIZE_T),
            FN_D_STREAM_IN_SIZE = Fn.of("ZSTD_DStreamInSize", SIZE_T),
            FN_D_STREAM_OUT_SIZE = Fn.of("ZSTD_DStreamOutSize", SIZE_T),
            FN_CREATE_CDICT = Fn.of("ZSTD_createCDict", PTR, PTR, SIZE_T, INT),
            FN_GET_CPARAMS = Fn.of("ZSTD_getCParams", C_PARAMS, INT, ValueLayout.JAVA_LONG, SIZE_T).optional(),
            FN_CREATE_CDICT_ADVANCED = Fn.of("ZSTD_createCDict_advanced",
                    PTR, PTR, SIZE_T, INT, INT, C_PARAMS, CUSTOM_MEM).optional(),
            FN_FREE_CDICT = Fn.of("ZSTD_freeCDict", SIZE_T, PTR),
            FN_CREATE_DDICT = Fn.of("ZSTD_createDDict", PTR, PTR, SIZE_T),
            FN_CREATE_DDICT_ADVANCED = Fn.of("ZSTD_createDDict_advanced",
                    PTR, PTR, SIZE_T, INT, INT, CUSTOM_MEM).optional(),
            FN_FREE_DDICT = Fn.of("ZSTD_freeDDict", SIZE_T, PTR),
            FN_CCTX_REF_CDICT = Fn.of("ZSTD_CCtx_refCDict", SIZE_T, PTR, PTR),
            FN_DCTX_REF_DDICT = Fn.of("ZSTD_DCtx_refDDict", SIZE_T, PTR, PTR),
            FN_GET_DICT_ID_FROM_FRAME = Fn.of("ZSTD_getDictID_fromFrame", INT, IN, SIZE_T),
            FN_GET_DICT_ID_FROM_DICT = Fn.of("ZSTD_getDictID_fromDict", INT, IN, SIZE_T),
            FN_ZDICT_TRAIN = Fn.of("ZDICT_trainFromBuffer", SIZE_T, PTR, SIZE_T, PTR, PTR, INT),
            FN_ZDICT_OPTIMIZE_FAST_COVER = Fn.of("ZDICT_optimizeTrainFromBuffer_fastCover",
                    SIZE_T, PTR, SIZE_T, PTR, PTR, INT, PTR).optional(),
            FN_ZDICT_IS_ERROR = Fn.of("ZDICT_isError", INT, SIZE_T),
            FN_ZDICT_GET_DICT_HEADER_SIZE = Fn.of("ZDICT_getDictHeaderSize", SIZE_T, IN, SIZE_T),
            FN_ZDICT_GET_ERROR_NAME = Fn.of("ZDICT_getErrorName", PTR, SIZE_T),
            FN_VERSION_NUMBER = Fn.of("ZSTD_versionNumber", INT);

    /** Loaded after the declarations above: the loader refuses a library lacking a required one. */
    private static final Binder B = Binder.load(MethodHandles.lookup(), new NativeLoader.Spec("zstd", "zstdjava.zstd.path",
            List.of("libzstd.so.1", "libzstd.so", "libzstd.1.dylib", "libzstd.dylib", "zstd.dll", "libzstd.dll"),
            "ZSTD_versionNumber", 10400));

    // ---- the handles: regular (transition, native memory) or critical (heap memory, short calls); ..._CRITICAL = critical --
    static final MethodHandle CREATE_CCTX = B.regular(FN_CREATE_CCTX), FREE_CCTX = B.regular(FN_FREE_CCTX),
            CREATE_DCTX = B.regular(FN_CREATE_DCTX), FREE_DCTX = B.regular(FN_FREE_DCTX),
            SIZEOF_DCTX = B.critical(FN_SIZEOF_DCTX), SIZEOF_DDICT = B.critical(FN_SIZEOF_DDICT);
    static final MethodHandle CCTX_SET_PARAMETER = B.critical(FN_CCTX_SET_PARAMETER),
            CCTX_RESET = B.critical(FN_CCTX_RESET), DCTX_SET_PARAMETER = B.critical(FN_DCTX_SET_PARAMETER),
            DCTX_RESET = B.critical(FN_DCTX_RESET);
    static final MethodHandle COMPRESS2 = B.regular(FN_COMPRESS2), COMPRESS2_CRITICAL = B.critical(FN_COMPRESS2),
            DECOMPRESS_DCTX = B.regular(FN_DECOMPRESS_DCTX), DECOMPRESS_DCTX_CRITICAL = B.critical(FN_DECOMPRESS_DCTX);
    /** For the array helpers only (see {@link Binder#heap}). */
    static final MethodHandle COMPRESS2_ON_ARRAYS = B.heap(FN_COMPRESS2), DECOMPRESS_DCTX_ON_ARRAYS = B.heap(FN_DECOMPRESS_DCTX),
            FIND_DECOMPRESSED_SIZE_ON_ARRAYS = B.heap(FN_FIND_DECOMPRESSED_SIZE);
    /** For calls on the contexts' own staging buffers only (see {@link Binder#staged}). */
    static final MethodHandle COMPRESS2_ON_STAGING = B.staged(FN_COMPRESS2), DECOMPRESS_DCTX_ON_STAGING = B.staged(FN_DECOMPRESS_DCTX),
            FIND_DECOMPRESSED_SIZE_ON_STAGING = B.staged(FN_FIND_DECOMPRESSED_SIZE);
    static final MethodHandle COMPRESS_STREAM2_SIMPLE = B.regular(FN_COMPRESS_STREAM2_SIMPLE),
            COMPRESS_STREAM2_SIMPLE_CRITICAL = B.critical(FN_COMPRESS_STREAM2_SIMPLE),
            DECOMPRESS_STREAM_SIMPLE = B.regular(FN_DECOMPRESS_STREAM_SIMPLE),
            DECOMPRESS_STREAM_SIMPLE_CRITICAL = B.critical(FN_DECOMPRESS_STREAM_SIMPLE);
    static final MethodHandle GET_FRAME_CONTENT_SIZE_CRITICAL = B.critical(FN_GET_FRAME_CONTENT_SIZE),
            FIND_DECOMPRESSED_SIZE_CRITICAL = B.critical(FN_FIND_DECOMPRESSED_SIZE),
            FIND_FRAME_COMPRESSED_SIZE_CRITICAL = B.critical(FN_FIND_FRAME_COMPRESSED_SIZE),
            DECOMPRESS_BOUND_CRITICAL = B.critical(FN_DECOMPRESS_BOUND);
    static final MethodHandle GET_ERROR_CODE = B.critical(FN_GET_ERROR_CODE),
            GET_ERROR_NAME = B.critical(FN_GET_ERROR_NAME);
    static final MethodHandle MIN_C_LEVEL = B.critical(FN_MIN_C_LEVEL), MAX_C_LEVEL = B.critical(FN_MAX_C_LEVEL),
            DEFAULT_C_LEVEL = B.critical(FN_DEFAULT_C_LEVEL), C_PARAM_GET_BOUNDS = B.critical(FN_C_PARAM_GET_BOUNDS),
            D_PARAM_GET_BOUNDS = B.critical(FN_D_PARAM_GET_BOUNDS);
    static final MethodHandle C_STREAM_IN_SIZE = B.critical(FN_C_STREAM_IN_SIZE),
            C_STREAM_OUT_SIZE = B.critical(FN_C_STREAM_OUT_SIZE), D_STREAM_IN_SIZE = B.critical(FN_D_STREAM_IN_SIZE),
            D_STREAM_OUT_SIZE = B.critical(FN_D_STREAM_OUT_SIZE);
    static final MethodHandle CREATE_CDICT = B.regular(FN_CREATE_CDICT), GET_CPARAMS = B.critical(FN_GET_CPARAMS),
            CREATE_CDICT_ADVANCED = B.regular(FN_CREATE_CDICT_ADVANCED), FREE_CDICT = B.regular(FN_FREE_CDICT);
    static final MethodHandle CREATE_DDICT = B.regular(FN_CREATE_DDICT),
            CREATE_DDICT_ADVANCED = B.regular(FN_CREATE_DDICT_ADVANCED), FREE_DDICT = B.regular(FN_FREE_DDICT);
    static final MethodHandle CCTX_REF_CDICT = B.critical(FN_CCTX_REF_CDICT),
            DCTX_REF_DDICT = B.critical(FN_DCTX_REF_DDICT);
    static final MethodHandle GET_DICT_ID_FROM_FRAME_CRITICAL = B.critical(FN_GET_DICT_ID_FROM_FRAME),
            GET_DICT_ID_FROM_DICT_CRITICAL = B.critical(FN_GET_DICT_ID_FROM_DICT);
    static final MethodHandle ZDICT_TRAIN = B.regular(FN_ZDICT_TRAIN),
            ZDICT_OPTIMIZE_FAST_COVER = B.regular(FN_ZDICT_OPTIMIZE_FAST_COVER),
            ZDICT_IS_ERROR = B.critical(FN_ZDICT_IS_ERROR),
            ZDICT_GET_DICT_HEADER_SIZE = B.critical(FN_ZDICT_GET_DICT_HEADER_SIZE),
            ZDICT_GET_ERROR_NAME = B.critical(FN_ZDICT_GET_ERROR_NAME);

    static final NativeLibrary LIBRARY = B.info();
    /** The library version as major*10000 + minor*100 + patch. */
    static final int VERSION_NUMBER = intConstant(B.critical(FN_VERSION_NUMBER));

    /** Calls below this many bytes of work use the critical form even on native memory (no thread transition). */
    static final long CRITICAL_LIMIT = 16 * 1024;

    /**
     * Heap arrays above this many bytes (system property {@code zstdjava.criticalHeapLimit}, default 1 MiB) are
     * staged through native memory instead of being accessed in place. A critical downcall keeps its thread in the
     * Java state, so no safepoint, and therefore no GC of any collector, can start until it returns: JEP 423's
     * region pinning (G1) covers JNI critical regions, not FFM critical calls. Staging bounds that pause to about
     * what compressing 1 MiB at level 3 takes (a few milliseconds) at the price of one copy per direction.
     */
    static final long HEAP_CRITICAL_LIMIT = Bounds.HEAP_CRITICAL_LIMIT;

    /** Most heap bytes one critical call reads or writes when heap work is cut into pieces: {@link Bounds#HEAP_WINDOW}. */
    static final long HEAP_WINDOW = Bounds.HEAP_WINDOW;

    /** @return true when {@code code}, a zstd {@code size_t} result, is an error */
    static boolean isError(long code) {
        return code < 0;
    }

    // ---- contexts ------------------------------------------------------------------------------------------------

    static MemorySegment createCCtx() {
        try {
            MemorySegment p = (MemorySegment) CREATE_CCTX.invokeExact();
            if (p.address() == 0) {
                throw new OutOfMemoryError("ZSTD_createCCtx returned NULL");
            }
            return p;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void freeCCtx(MemorySegment cctx) {
        try {
            long ignored = (long) FREE_CCTX.invokeExact(cctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static MemorySegment createDCtx() {
        try {
            MemorySegment p = (MemorySegment) CREATE_DCTX.invokeExact();
            if (p.address() == 0) {
                throw new OutOfMemoryError("ZSTD_createDCtx returned NULL");
            }
            return p;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void freeDCtx(MemorySegment dctx) {
        try {
            long ignored = (long) FREE_DCTX.invokeExact(dctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return {@code ZSTD_sizeof_DCtx}: the bytes the context holds now, its streaming buffers included */
    static long sizeofDCtx(MemorySegment dctx) {
        try {
            return (long) SIZEOF_DCTX.invokeExact(dctx);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return {@code ZSTD_sizeof_DDict}: the bytes of its tables, and of its content when it holds a copy */
    static long sizeofDDict(MemorySegment ddict) {
        try {
            return (long) SIZEOF_DDICT.invokeExact(ddict);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long cctxSetParameter(MemorySegment cctx, int param, int value) {
        try {
            return (long) CCTX_SET_PARAMETER.invokeExact(cctx, param, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long cctxReset(MemorySegment cctx, ResetDirective directive) {
        try {
            return (long) CCTX_RESET.invokeExact(cctx, directive.code);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long dctxSetParameter(MemorySegment dctx, int param, int value) {
        try {
            return (long) DCTX_SET_PARAMETER.invokeExact(dctx, param, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long dctxReset(MemorySegment dctx, ResetDirective directive) {
        try {
            return (long) DCTX_RESET.invokeExact(dctx, directive.code);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- one-shot ------------------------------------------------------------------------------------------------

    /** ZSTD_compress2 with {@code dst[dstOff, dstOff+dstCap)} and {@code src[srcOff, srcOff+srcLen)}; bounds pre-checked. */
    static long compress2(MemorySegment cctx, MemorySegment dst, long dstCap, MemorySegment src, long srcLen,
                          CallKind kind) {
        try {
            return kind == CallKind.CRITICAL
                    ? (long) COMPRESS2_CRITICAL.invokeExact(cctx, dst, dstCap, src, srcLen)
                    : (long) COMPRESS2.invokeExact(cctx, dst, dstCap, src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /*
     * Heap arrays: the array views are made here, in the method that makes the call, and never cross a method
     * boundary. The downcall's own adapters are always inlined, so escape analysis removes the views wherever this
     * method is compiled, inlined into its caller or on its own (a view passed to a method the JIT does not inline,
     * for instance one it already compiled into a large body, is allocated). Critical, through the ..._ON_ARRAYS handles
     * (Binder.heap: an adapter of their own, whose session checks the JIT inlines); used only up to
     * HEAP_CRITICAL_LIMIT bytes.
     */

    /**
     * ZSTD_compress2 from {@code src[srcOff, srcOff+srcLen)} into {@code dst[dstOff, dstOff+dstCap)}, in place.
     */
    static long compressArrays(MemorySegment cctx, byte[] dst, int dstOff, int dstCap, byte[] src, int srcOff,
                               int srcLen) {
        MemorySegment d = MemorySegment.ofArray(dst).asSlice(dstOff);
        MemorySegment s = MemorySegment.ofArray(src).asSlice(srcOff);
        try {
            return (long) COMPRESS2_ON_ARRAYS.invokeExact(cctx, d, (long) dstCap, s, (long) srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * ZSTD_decompressDCtx from {@code src[srcOff, srcOff+srcLen)} into {@code dst[dstOff, dstOff+dstCap)}, in place.
     */
    static long decompressArrays(MemorySegment dctx, byte[] dst, int dstOff, int dstCap, byte[] src, int srcOff,
                                 int srcLen) {
        MemorySegment d = MemorySegment.ofArray(dst).asSlice(dstOff);
        MemorySegment s = MemorySegment.ofArray(src).asSlice(srcOff);
        try {
            return (long) DECOMPRESS_DCTX_ON_ARRAYS.invokeExact(dctx, d, (long) dstCap, s, (long) srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZSTD_compress2 from {@code src[srcOff, srcOff+srcLen)}, in place, into native {@code dst}. */
    static long compress2(MemorySegment cctx, MemorySegment dst, long dstCap, byte[] src, int srcOff,
                                 int srcLen) {
        try {
            return (long) COMPRESS2_ON_ARRAYS.invokeExact(cctx, dst, dstCap, MemorySegment.ofArray(src).asSlice(srcOff),
                    (long) srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /*
     * Direct buffers: the views of their remaining bytes are made here, next to the call, as for arrays.
     */

    /** ZSTD_compress2 between two direct buffers; critical below {@link #CRITICAL_LIMIT} bytes of input. */
    static long compressDirect(MemorySegment cctx, ByteBuffer dst, ByteBuffer src) {
        MemorySegment d = MemorySegment.ofBuffer(dst);
        MemorySegment s = MemorySegment.ofBuffer(src);
        long dstCap = d.byteSize();
        long srcLen = s.byteSize();
        Bounds.disjointNative(s.scope(), s.address(), srcLen, d.scope(), d.address(), dstCap);
        try {
            return srcLen < CRITICAL_LIMIT
                    ? (long) COMPRESS2_CRITICAL.invokeExact(cctx, d, dstCap, s, srcLen)
                    : (long) COMPRESS2.invokeExact(cctx, d, dstCap, s, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZSTD_decompressDCtx between two direct buffers; critical below {@link #CRITICAL_LIMIT} bytes of output. */
    static long decompressDirect(MemorySegment dctx, ByteBuffer dst, ByteBuffer src) {
        MemorySegment d = MemorySegment.ofBuffer(dst);
        MemorySegment s = MemorySegment.ofBuffer(src);
        long dstCap = d.byteSize();
        long srcLen = s.byteSize();
        Bounds.disjointNative(s.scope(), s.address(), srcLen, d.scope(), d.address(), dstCap);
        try {
            return dstCap < CRITICAL_LIMIT
                    ? (long) DECOMPRESS_DCTX_CRITICAL.invokeExact(dctx, d, dstCap, s, srcLen)
                    : (long) DECOMPRESS_DCTX.invokeExact(dctx, d, dstCap, s, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * ZSTD_compress2 (or, for {@link Direction#DECOMPRESS}, ZSTD_decompressDCtx) on a context's own native staging
     * buffers ({@code Scratch}); critical below {@link #CRITICAL_LIMIT} bytes of work, through handles of their own.
     */
    static long staged(Direction direction, MemorySegment ctx, MemorySegment dst, long dstCap, MemorySegment src,
                       long srcLen) {
        boolean compress = direction == Direction.COMPRESS;
        if ((compress ? srcLen : dstCap) >= CRITICAL_LIMIT) {
            return oneShot(direction, ctx, dst, dstCap, src, srcLen, CallKind.REGULAR);
        }
        try {
            return compress
                    ? (long) COMPRESS2_ON_STAGING.invokeExact(ctx, dst, dstCap, src, srcLen)
                    : (long) DECOMPRESS_DCTX_ON_STAGING.invokeExact(ctx, dst, dstCap, src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZSTD_findDecompressedSize of a context's native staging buffer holding {@code srcLen} bytes. */
    static long findDecompressedSizeStaged(MemorySegment src, long srcLen) {
        try {
            return (long) FIND_DECOMPRESSED_SIZE_ON_STAGING.invokeExact(src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZSTD_findDecompressedSize of {@code src[off, off+len)}, read in place. */
    static long findDecompressedSize(byte[] src, int off, int len) {
        try {
            return (long) FIND_DECOMPRESSED_SIZE_ON_ARRAYS.invokeExact(MemorySegment.ofArray(src).asSlice(off), (long) len);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** {@link #compress2} or {@link #decompressDCtx}, as {@code direction} says, on segments. */
    static long oneShot(Direction direction, MemorySegment ctx, MemorySegment dst, long dstCap, MemorySegment src,
                        long srcLen, CallKind kind) {
        return direction == Direction.COMPRESS
                ? compress2(ctx, dst, dstCap, src, srcLen, kind)
                : decompressDCtx(ctx, dst, dstCap, src, srcLen, kind);
    }

    static long decompressDCtx(MemorySegment dctx, MemorySegment dst, long dstCap, MemorySegment src,
                               long srcLen, CallKind kind) {
        try {
            return kind == CallKind.CRITICAL
                    ? (long) DECOMPRESS_DCTX_CRITICAL.invokeExact(dctx, dst, dstCap, src, srcLen)
                    : (long) DECOMPRESS_DCTX.invokeExact(dctx, dst, dstCap, src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- streaming -----------------------------------------------------------------------------------------------

    /**
     * The context of a streaming call and its two native {@code size_t} positions ({@code ZSTD_*Stream_simpleArgs}),
     * which the caller sets before the call and reads after it. Made once per context.
     */
    record StreamCursor(MemorySegment ctx, MemorySegment dstPos, MemorySegment srcPos) {}

    /** ZSTD_compressStream2_simpleArgs on the cursor's context and positions. */
    static long compressStream2(StreamCursor c, MemorySegment dst, long dstCap, MemorySegment src, long srcLen,
                                EndDirective op, CallKind kind) {
        try {
            return kind == CallKind.CRITICAL
                    ? (long) COMPRESS_STREAM2_SIMPLE_CRITICAL.invokeExact(c.ctx(), dst, dstCap, c.dstPos(), src, srcLen,
                            c.srcPos(), op.code)
                    : (long) COMPRESS_STREAM2_SIMPLE.invokeExact(c.ctx(), dst, dstCap, c.dstPos(), src, srcLen,
                            c.srcPos(), op.code);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZSTD_decompressStream_simpleArgs on the cursor's context and positions. */
    static long decompressStream(StreamCursor c, MemorySegment dst, long dstCap, MemorySegment src, long srcLen,
                                 CallKind kind) {
        try {
            return kind == CallKind.CRITICAL
                    ? (long) DECOMPRESS_STREAM_SIMPLE_CRITICAL.invokeExact(c.ctx(), dst, dstCap, c.dstPos(), src, srcLen,
                            c.srcPos())
                    : (long) DECOMPRESS_STREAM_SIMPLE.invokeExact(c.ctx(), dst, dstCap, c.dstPos(), src, srcLen,
                            c.srcPos());
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long cStreamInSize() {
        return sizeConstant(C_STREAM_IN_SIZE);
    }

    static long cStreamOutSize() {
        return sizeConstant(C_STREAM_OUT_SIZE);
    }

    static long dStreamInSize() {
        return sizeConstant(D_STREAM_IN_SIZE);
    }

    static long dStreamOutSize() {
        return sizeConstant(D_STREAM_OUT_SIZE);
    }

    // ---- dictionaries --------------------------------------------------------------------------------------------

    /**
     * ZSTD_createCDict (auto content type) or, for raw content, ZSTD_createCDict_advanced with the level's
     * parameters. The dictionary bytes are copied; {@code dict} must be native memory.
     *
     * @return the CDict, or NULL when zstd rejects the dictionary or memory is short
     */
    static MemorySegment createCDict(MemorySegment dict, long size, int level, DictionaryContent content) {
        try {
            if (content == DictionaryContent.AUTO) {
                return (MemorySegment) CREATE_CDICT.invokeExact(dict, size, level);
            }
            try (Arena a = Arena.ofConfined()) {
                MemorySegment cParams = (MemorySegment) GET_CPARAMS.invokeExact(
                        (java.lang.foreign.SegmentAllocator) a, level, 0L, size);
                MemorySegment mem = a.allocate(CUSTOM_MEM);
                return (MemorySegment) CREATE_CDICT_ADVANCED.invokeExact(dict, size, DLM_BY_COPY, DCT_RAW_CONTENT,
                        cParams, mem);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * The strategy of the parameters ZSTD_getCParams gives {@code level} for a dictionary of {@code dictSize} bytes
     * and a source of unknown size: the parameters {@link #createCDict} digests a dictionary with.
     *
     * @return a {@code ZSTD_strategy}, or -1 when the loaded library lacks ZSTD_getCParams
     */
    static int strategyFor(int level, long dictSize) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment cParams = (MemorySegment) GET_CPARAMS.invokeExact(
                    (java.lang.foreign.SegmentAllocator) a, level, 0L, dictSize);
            return cParams.get(INT, C_PARAMS.byteOffset(MemoryLayout.PathElement.groupElement("strategy")));
        } catch (UnsupportedOperationException e) {
            return -1;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void freeCDict(MemorySegment cdict) {
        try {
            long ignored = (long) FREE_CDICT.invokeExact(cdict);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZSTD_createDDict, or ZSTD_createDDict_advanced for raw content; copies {@code dict} (native memory). */
    static MemorySegment createDDict(MemorySegment dict, long size, DictionaryContent content) {
        try {
            if (content == DictionaryContent.AUTO) {
                return (MemorySegment) CREATE_DDICT.invokeExact(dict, size);
            }
            try (Arena a = Arena.ofConfined()) {
                MemorySegment mem = a.allocate(CUSTOM_MEM);
                return (MemorySegment) CREATE_DDICT_ADVANCED.invokeExact(dict, size, DLM_BY_COPY, DCT_RAW_CONTENT,
                        mem);
            }
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /**
     * ZSTD_createDDict_advanced by reference: the tables are digested from {@code dict}, whose content the
     * {@code ZSTD_DDict} then reads in place; {@code dict} must outlive it. NULL when zstd cannot allocate it.
     *
     * @throws UnsupportedOperationException if the loaded library lacks the function
     */
    static MemorySegment createDDictByReference(MemorySegment dict, long size, DictionaryContent content) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment mem = a.allocate(CUSTOM_MEM);
            return (MemorySegment) CREATE_DDICT_ADVANCED.invokeExact(dict, size, DLM_BY_REF,
                    content == DictionaryContent.RAW ? DCT_RAW_CONTENT : DCT_AUTO, mem);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static void freeDDict(MemorySegment ddict) {
        try {
            long ignored = (long) FREE_DDICT.invokeExact(ddict);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZSTD_CCtx_refCDict; NULL returns the context to no-dictionary mode. */
    static long cctxRefCDict(MemorySegment cctx, MemorySegment cdict) {
        try {
            return (long) CCTX_REF_CDICT.invokeExact(cctx, cdict);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZSTD_DCtx_refDDict; NULL returns the context to no-dictionary mode. */
    static long dctxRefDDict(MemorySegment dctx, MemorySegment ddict) {
        try {
            return (long) DCTX_REF_DDICT.invokeExact(dctx, ddict);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return the dictionary id a frame header names, as an unsigned int; 0 if none or unreadable */
    static int getDictIdFromFrame(MemorySegment src, long srcLen) {
        try {
            return (int) GET_DICT_ID_FROM_FRAME_CRITICAL.invokeExact(src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return the id of a zstd-format dictionary, as an unsigned int; 0 for raw content */
    static int getDictIdFromDict(MemorySegment dict, long size) {
        try {
            return (int) GET_DICT_ID_FROM_DICT_CRITICAL.invokeExact(dict, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZDICT_trainFromBuffer; all memory native. Returns the dictionary size or a ZDICT error code. */
    static long trainFromBuffer(MemorySegment dict, long capacity, MemorySegment samples, MemorySegment sizes,
                                       int nbSamples) {
        try {
            return (long) ZDICT_TRAIN.invokeExact(dict, capacity, samples, sizes, nbSamples);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZDICT_optimizeTrainFromBuffer_fastCover; {@code params} ({@link #FAST_COVER_PARAMS}) is updated in place. */
    static long optimizeFastCover(MemorySegment dict, long capacity, MemorySegment samples,
                                         MemorySegment sizes, int nbSamples, MemorySegment params) {
        try {
            return (long) ZDICT_OPTIMIZE_FAST_COVER.invokeExact(dict, capacity, samples, sizes, nbSamples, params);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZDICT_getDictHeaderSize: the size of the header and entropy tables, or an error code. */
    static long dictHeaderSize(MemorySegment dict, long size) {
        try {
            return (long) ZDICT_GET_DICT_HEADER_SIZE.invokeExact(dict, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static boolean zdictIsError(long code) {
        try {
            return (int) ZDICT_IS_ERROR.invokeExact(code) != 0;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static String zdictErrorName(long code) {
        try {
            MemorySegment s = (MemorySegment) ZDICT_GET_ERROR_NAME.invokeExact(code);
            return B.cString(s);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- frames --------------------------------------------------------------------------------------------------

    static long getFrameContentSize(MemorySegment src, long srcLen) {
        try {
            return (long) GET_FRAME_CONTENT_SIZE_CRITICAL.invokeExact(src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long findDecompressedSize(MemorySegment src, long srcLen) {
        try {
            return (long) FIND_DECOMPRESSED_SIZE_CRITICAL.invokeExact(src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long findFrameCompressedSize(MemorySegment src, long srcLen) {
        try {
            return (long) FIND_FRAME_COMPRESSED_SIZE_CRITICAL.invokeExact(src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static long decompressBound(MemorySegment src, long srcLen) {
        try {
            return (long) DECOMPRESS_BOUND_CRITICAL.invokeExact(src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- errors and constants ------------------------------------------------------------------------------------

    /** @return zstd's stable error code ({@code ZSTD_ErrorCode}) of an error result */
    static int errorCode(long code) {
        try {
            return (int) GET_ERROR_CODE.invokeExact(code);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return zstd's readable description of an error result */
    static String errorName(long code) {
        try {
            MemorySegment s = (MemorySegment) GET_ERROR_NAME.invokeExact(code);
            return B.cString(s);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    static int minCLevel() {
        return intConstant(MIN_C_LEVEL);
    }

    static int maxCLevel() {
        return intConstant(MAX_C_LEVEL);
    }

    /** @return ZSTD_defaultCLevel(), or 3 (its value in every release) on libraries older than 1.5.0 */
    static int defaultCLevel() {
        try {
            return (int) DEFAULT_C_LEVEL.invokeExact();
        } catch (UnsupportedOperationException e) {
            return 3;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return {lower, upper} bounds of a compression parameter, or null if the library does not know it */
    static int[] cParamBounds(int param) {
        return bounds(C_PARAM_GET_BOUNDS, param);
    }

    /** @return {lower, upper} bounds of a decompression parameter, or null if the library does not know it */
    static int[] dParamBounds(int param) {
        return bounds(D_PARAM_GET_BOUNDS, param);
    }

    private static int[] bounds(MethodHandle h, int param) {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment r = (MemorySegment) h.invokeExact((java.lang.foreign.SegmentAllocator) a, param);
            if (isError(r.get(ValueLayout.JAVA_LONG, 0))) {
                return null;
            }
            return new int[] {r.get(ValueLayout.JAVA_INT, 8), r.get(ValueLayout.JAVA_INT, 12)};
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static long sizeConstant(MethodHandle h) {
        try {
            return (long) h.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    private static int intConstant(MethodHandle h) {
        try {
            return (int) h.invokeExact();
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }
}
