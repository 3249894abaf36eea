package dev.zstdjava.internal;

import dev.zstdjava.NativeLibrary;

import java.lang.foreign.Arena;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.List;

import static dev.zstdjava.internal.Binder.INT;
import static dev.zstdjava.internal.Binder.PTR;
import static dev.zstdjava.internal.Binder.SIZE_T;
import static dev.zstdjava.internal.Binder.fn;

/**
 * Every libzstd function this library calls, bound once. Functions that move data come in two forms: {@code ...H}
 * (critical: heap segments allowed, used for heap memory and short calls) and the regular form (native memory;
 * lets the JVM reach safepoints during long calls). Callers check every bound before calling.
 *
 * <p>Return values follow zstd: a {@code size_t} that, read as a signed {@code long}, is negative exactly when it
 * is an error code ({@code (size_t)-code} with code below 128); {@link #isError} tests that without a native call.
 */
public final class ZstdNative {
    private ZstdNative() {}

    public static final NativeLibrary LIBRARY;
    /** The library version as major*10000 + minor*100 + patch. */
    public static final int VERSION_NUMBER;

    // ZSTD_cParameter
    public static final int C_COMPRESSION_LEVEL = 100;
    public static final int C_WINDOW_LOG = 101;
    public static final int C_STRATEGY = 107;
    public static final int C_ENABLE_LONG_DISTANCE_MATCHING = 160;
    public static final int C_CONTENT_SIZE_FLAG = 200;
    public static final int C_CHECKSUM_FLAG = 201;
    public static final int C_DICT_ID_FLAG = 202;
    public static final int C_NB_WORKERS = 400;
    // ZSTD_dParameter
    public static final int D_WINDOW_LOG_MAX = 100;
    // ZSTD_ResetDirective
    public static final int RESET_SESSION_ONLY = 1;
    public static final int RESET_PARAMETERS = 2;
    public static final int RESET_SESSION_AND_PARAMETERS = 3;
    // ZSTD_getFrameContentSize results
    public static final long CONTENTSIZE_UNKNOWN = -1L;
    public static final long CONTENTSIZE_ERROR = -2L;

    // ZSTD_EndDirective
    public static final int E_CONTINUE = 0;
    public static final int E_FLUSH = 1;
    public static final int E_END = 2;
    // ZSTD_dictLoadMethod_e, ZSTD_dictContentType_e
    public static final int DLM_BY_COPY = 0;
    public static final int DCT_RAW_CONTENT = 1;

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
    public static final StructLayout FAST_COVER_PARAMS = MemoryLayout.structLayout(
            INT.withName("k"), INT.withName("d"), INT.withName("f"), INT.withName("steps"), INT.withName("nbThreads"),
            MemoryLayout.paddingLayout(4), ValueLayout.JAVA_DOUBLE.withName("splitPoint"), INT.withName("accel"),
            INT.withName("shrinkDict"), INT.withName("shrinkDictMaxRegression"), ZDICT_PARAMS.withName("zParams"));
    public static final long FC_K = offset("k"), FC_D = offset("d"), FC_F = offset("f"), FC_STEPS = offset("steps"),
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

    static final MethodHandle CREATE_CCTX, FREE_CCTX, CREATE_DCTX, FREE_DCTX;
    static final MethodHandle CCTX_SET_PARAMETER, CCTX_RESET, DCTX_SET_PARAMETER, DCTX_RESET;
    static final MethodHandle COMPRESS2, COMPRESS2_H, DECOMPRESS_DCTX, DECOMPRESS_DCTX_H;
    static final MethodHandle COMPRESS_STREAM2_SIMPLE, COMPRESS_STREAM2_SIMPLE_H;
    static final MethodHandle DECOMPRESS_STREAM_SIMPLE, DECOMPRESS_STREAM_SIMPLE_H;
    static final MethodHandle GET_FRAME_CONTENT_SIZE_H, FIND_DECOMPRESSED_SIZE_H, FIND_FRAME_COMPRESSED_SIZE_H;
    static final MethodHandle DECOMPRESS_BOUND_H;
    static final MethodHandle IS_ERROR, GET_ERROR_CODE, GET_ERROR_NAME;
    static final MethodHandle MIN_C_LEVEL, MAX_C_LEVEL, DEFAULT_C_LEVEL, C_PARAM_GET_BOUNDS, D_PARAM_GET_BOUNDS;
    static final MethodHandle C_STREAM_IN_SIZE, C_STREAM_OUT_SIZE, D_STREAM_IN_SIZE, D_STREAM_OUT_SIZE;
    static final MethodHandle CREATE_CDICT, CREATE_CDICT_ADVANCED, GET_CPARAMS, FREE_CDICT;
    static final MethodHandle CREATE_DDICT, CREATE_DDICT_ADVANCED, FREE_DDICT;
    static final MethodHandle CCTX_REF_CDICT, DCTX_REF_DDICT;
    static final MethodHandle GET_DICT_ID_FROM_FRAME_H, GET_DICT_ID_FROM_DICT_H;
    static final MethodHandle ZDICT_TRAIN, ZDICT_OPTIMIZE_FAST_COVER, ZDICT_IS_ERROR, ZDICT_GET_ERROR_NAME, ZDICT_GET_DICT_HEADER_SIZE;

    static {
        NativeLoader.Loaded lib = NativeLoader.load(new NativeLoader.Spec("zstd", "zstdjava.zstd.path",
                List.of("libzstd.so.1", "libzstd.so", "libzstd.1.dylib", "libzstd.dylib", "zstd.dll", "libzstd.dll"),
                "ZSTD_versionNumber", 10400));
        LIBRARY = lib.info();
        Binder b = new Binder(lib);
        CREATE_CCTX = b.bind("ZSTD_createCCtx", fn(PTR));
        FREE_CCTX = b.bind("ZSTD_freeCCtx", fn(SIZE_T, PTR));
        CREATE_DCTX = b.bind("ZSTD_createDCtx", fn(PTR));
        FREE_DCTX = b.bind("ZSTD_freeDCtx", fn(SIZE_T, PTR));
        CCTX_SET_PARAMETER = b.critical("ZSTD_CCtx_setParameter", fn(SIZE_T, PTR, INT, INT));
        CCTX_RESET = b.critical("ZSTD_CCtx_reset", fn(SIZE_T, PTR, INT));
        DCTX_SET_PARAMETER = b.critical("ZSTD_DCtx_setParameter", fn(SIZE_T, PTR, INT, INT));
        DCTX_RESET = b.critical("ZSTD_DCtx_reset", fn(SIZE_T, PTR, INT));
        var fiveArgs = fn(SIZE_T, PTR, PTR, SIZE_T, PTR, SIZE_T);
        COMPRESS2 = b.bind("ZSTD_compress2", fiveArgs);
        COMPRESS2_H = b.critical("ZSTD_compress2", fiveArgs);
        DECOMPRESS_DCTX = b.bind("ZSTD_decompressDCtx", fiveArgs);
        DECOMPRESS_DCTX_H = b.critical("ZSTD_decompressDCtx", fiveArgs);
        var simpleArgs = fn(SIZE_T, PTR, PTR, SIZE_T, PTR, PTR, SIZE_T, PTR);
        var cSimpleArgs = fn(SIZE_T, PTR, PTR, SIZE_T, PTR, PTR, SIZE_T, PTR, INT);
        COMPRESS_STREAM2_SIMPLE = b.optional("ZSTD_compressStream2_simpleArgs", cSimpleArgs, false);
        COMPRESS_STREAM2_SIMPLE_H = b.optional("ZSTD_compressStream2_simpleArgs", cSimpleArgs, true);
        DECOMPRESS_STREAM_SIMPLE = b.optional("ZSTD_decompressStream_simpleArgs", simpleArgs, false);
        DECOMPRESS_STREAM_SIMPLE_H = b.optional("ZSTD_decompressStream_simpleArgs", simpleArgs, true);
        GET_FRAME_CONTENT_SIZE_H = b.critical("ZSTD_getFrameContentSize", fn(SIZE_T, PTR, SIZE_T));
        FIND_DECOMPRESSED_SIZE_H = b.critical("ZSTD_findDecompressedSize", fn(SIZE_T, PTR, SIZE_T));
        FIND_FRAME_COMPRESSED_SIZE_H = b.critical("ZSTD_findFrameCompressedSize", fn(SIZE_T, PTR, SIZE_T));
        DECOMPRESS_BOUND_H = b.optional("ZSTD_decompressBound", fn(SIZE_T, PTR, SIZE_T), true);
        IS_ERROR = b.critical("ZSTD_isError", fn(INT, SIZE_T));
        GET_ERROR_CODE = b.critical("ZSTD_getErrorCode", fn(INT, SIZE_T));
        GET_ERROR_NAME = b.critical("ZSTD_getErrorName", fn(PTR, SIZE_T));
        MIN_C_LEVEL = b.critical("ZSTD_minCLevel", fn(INT));
        MAX_C_LEVEL = b.critical("ZSTD_maxCLevel", fn(INT));
        DEFAULT_C_LEVEL = b.optional("ZSTD_defaultCLevel", fn(INT), true);
        C_PARAM_GET_BOUNDS = b.critical("ZSTD_cParam_getBounds", fn(BOUNDS, INT));
        D_PARAM_GET_BOUNDS = b.critical("ZSTD_dParam_getBounds", fn(BOUNDS, INT));
        C_STREAM_IN_SIZE = b.critical("ZSTD_CStreamInSize", fn(SIZE_T));
        C_STREAM_OUT_SIZE = b.critical("ZSTD_CStreamOutSize", fn(SIZE_T));
        D_STREAM_IN_SIZE = b.critical("ZSTD_DStreamInSize", fn(SIZE_T));
        D_STREAM_OUT_SIZE = b.critical("ZSTD_DStreamOutSize", fn(SIZE_T));
        CREATE_CDICT = b.bind("ZSTD_createCDict", fn(PTR, PTR, SIZE_T, INT));
        GET_CPARAMS = b.optional("ZSTD_getCParams", fn(C_PARAMS, INT, ValueLayout.JAVA_LONG, SIZE_T), true);
        CREATE_CDICT_ADVANCED = b.optional("ZSTD_createCDict_advanced",
                fn(PTR, PTR, SIZE_T, INT, INT, C_PARAMS, CUSTOM_MEM), false);
        FREE_CDICT = b.bind("ZSTD_freeCDict", fn(SIZE_T, PTR));
        CREATE_DDICT = b.bind("ZSTD_createDDict", fn(PTR, PTR, SIZE_T));
        CREATE_DDICT_ADVANCED = b.optional("ZSTD_createDDict_advanced",
                fn(PTR, PTR, SIZE_T, INT, INT, CUSTOM_MEM), false);
        FREE_DDICT = b.bind("ZSTD_freeDDict", fn(SIZE_T, PTR));
        CCTX_REF_CDICT = b.critical("ZSTD_CCtx_refCDict", fn(SIZE_T, PTR, PTR));
        DCTX_REF_DDICT = b.critical("ZSTD_DCtx_refDDict", fn(SIZE_T, PTR, PTR));
        GET_DICT_ID_FROM_FRAME_H = b.critical("ZSTD_getDictID_fromFrame", fn(INT, PTR, SIZE_T));
        GET_DICT_ID_FROM_DICT_H = b.critical("ZSTD_getDictID_fromDict", fn(INT, PTR, SIZE_T));
        ZDICT_TRAIN = b.bind("ZDICT_trainFromBuffer", fn(SIZE_T, PTR, SIZE_T, PTR, PTR, INT));
        ZDICT_OPTIMIZE_FAST_COVER = b.optional("ZDICT_optimizeTrainFromBuffer_fastCover",
                fn(SIZE_T, PTR, SIZE_T, PTR, PTR, INT, PTR), false);
        ZDICT_IS_ERROR = b.critical("ZDICT_isError", fn(INT, SIZE_T));
        ZDICT_GET_DICT_HEADER_SIZE = b.critical("ZDICT_getDictHeaderSize", fn(SIZE_T, PTR, SIZE_T));
        ZDICT_GET_ERROR_NAME = b.critical("ZDICT_getErrorName", fn(PTR, SIZE_T));
        int v;
        try {
            v = (int) b.critical("ZSTD_versionNumber", fn(INT)).invokeExact();
        } catch (Throwable t) {
            throw new ExceptionInInitializerError(t);
        }
        VERSION_NUMBER = v;
    }

    /** Calls below this many bytes of work use the critical form even on native memory (no thread transition). */
    public static final long CRITICAL_LIMIT = 16 * 1024;

    /**
     * Heap arrays above this many bytes (system property {@code zstdjava.criticalHeapLimit}, default 1 MiB) are
     * staged through native memory instead of being accessed in place. A critical downcall keeps its thread in the
     * Java state, so no safepoint, and therefore no GC of any collector, can start until it returns: JEP 423's
     * region pinning (G1) covers JNI critical regions, not FFM critical calls. Staging bounds that pause to about
     * what compressing 1 MiB at level 3 takes (a few milliseconds) at the price of one copy per direction.
     */
    public static final long HEAP_CRITICAL_LIMIT = Bounds.HEAP_CRITICAL_LIMIT;

    /** @return true when {@code code}, a zstd {@code size_t} result, is an error */
    public static boolean isError(long code) {
        return code < 0;
    }

    // ---- contexts ------------------------------------------------------------------------------------------------

    public static MemorySegment createCCtx() {
        try {
            MemorySegment p = (MemorySegment) CREATE_CCTX.invokeExact();
            if (p.address() == 0) {
                throw new OutOfMemoryError("ZSTD_createCCtx returned NULL");
            }
            return p;
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    public static void freeCCtx(MemorySegment cctx) {
        try {
            long ignored = (long) FREE_CCTX.invokeExact(cctx);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    public static MemorySegment createDCtx() {
        try {
            MemorySegment p = (MemorySegment) CREATE_DCTX.invokeExact();
            if (p.address() == 0) {
                throw new OutOfMemoryError("ZSTD_createDCtx returned NULL");
            }
            return p;
        } catch (Error | RuntimeException e) {
            throw e;
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    public static void freeDCtx(MemorySegment dctx) {
        try {
            long ignored = (long) FREE_DCTX.invokeExact(dctx);
        } catch (Throwable t) {
            throw new AssertionError(t);
        }
    }

    public static long cctxSetParameter(MemorySegment cctx, int param, int value) {
        try {
            return (long) CCTX_SET_PARAMETER.invokeExact(cctx, param, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long cctxReset(MemorySegment cctx, int directive) {
        try {
            return (long) CCTX_RESET.invokeExact(cctx, directive);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long dctxSetParameter(MemorySegment dctx, int param, int value) {
        try {
            return (long) DCTX_SET_PARAMETER.invokeExact(dctx, param, value);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long dctxReset(MemorySegment dctx, int directive) {
        try {
            return (long) DCTX_RESET.invokeExact(dctx, directive);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- one-shot ------------------------------------------------------------------------------------------------

    /** ZSTD_compress2 with {@code dst[dstOff, dstOff+dstCap)} and {@code src[srcOff, srcOff+srcLen)}; bounds pre-checked. */
    public static long compress2(MemorySegment cctx, MemorySegment dst, long dstCap, MemorySegment src, long srcLen,
                                 boolean critical) {
        try {
            return critical
                    ? (long) COMPRESS2_H.invokeExact(cctx, dst, dstCap, src, srcLen)
                    : (long) COMPRESS2.invokeExact(cctx, dst, dstCap, src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long decompressDCtx(MemorySegment dctx, MemorySegment dst, long dstCap, MemorySegment src,
                                      long srcLen, boolean critical) {
        try {
            return critical
                    ? (long) DECOMPRESS_DCTX_H.invokeExact(dctx, dst, dstCap, src, srcLen)
                    : (long) DECOMPRESS_DCTX.invokeExact(dctx, dst, dstCap, src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- streaming -----------------------------------------------------------------------------------------------

    /** ZSTD_compressStream2_simpleArgs; {@code dstPos}/{@code srcPos} point to native {@code size_t}s. */
    public static long compressStream2(MemorySegment cctx, MemorySegment dst, long dstCap, MemorySegment dstPos,
                                       MemorySegment src, long srcLen, MemorySegment srcPos, int endOp,
                                       boolean critical) {
        try {
            return critical
                    ? (long) COMPRESS_STREAM2_SIMPLE_H.invokeExact(cctx, dst, dstCap, dstPos, src, srcLen, srcPos, endOp)
                    : (long) COMPRESS_STREAM2_SIMPLE.invokeExact(cctx, dst, dstCap, dstPos, src, srcLen, srcPos, endOp);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZSTD_decompressStream_simpleArgs; {@code dstPos}/{@code srcPos} point to native {@code size_t}s. */
    public static long decompressStream(MemorySegment dctx, MemorySegment dst, long dstCap, MemorySegment dstPos,
                                        MemorySegment src, long srcLen, MemorySegment srcPos, boolean critical) {
        try {
            return critical
                    ? (long) DECOMPRESS_STREAM_SIMPLE_H.invokeExact(dctx, dst, dstCap, dstPos, src, srcLen, srcPos)
                    : (long) DECOMPRESS_STREAM_SIMPLE.invokeExact(dctx, dst, dstCap, dstPos, src, srcLen, srcPos);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long cStreamInSize() {
        return sizeConstant(C_STREAM_IN_SIZE);
    }

    public static long cStreamOutSize() {
        return sizeConstant(C_STREAM_OUT_SIZE);
    }

    public static long dStreamInSize() {
        return sizeConstant(D_STREAM_IN_SIZE);
    }

    public static long dStreamOutSize() {
        return sizeConstant(D_STREAM_OUT_SIZE);
    }

    // ---- dictionaries --------------------------------------------------------------------------------------------

    /**
     * ZSTD_createCDict (auto content type) or, for raw content, ZSTD_createCDict_advanced with the level's
     * parameters. The dictionary bytes are copied; {@code dict} must be native memory.
     *
     * @return the CDict, or NULL when zstd rejects the dictionary or memory is short
     */
    public static MemorySegment createCDict(MemorySegment dict, long size, int level, boolean rawContent) {
        try {
            if (!rawContent) {
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

    public static void freeCDict(MemorySegment cdict) {
        try {
            long ignored = (long) FREE_CDICT.invokeExact(cdict);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZSTD_createDDict, or ZSTD_createDDict_advanced for raw content; copies {@code dict} (native memory). */
    public static MemorySegment createDDict(MemorySegment dict, long size, boolean rawContent) {
        try {
            if (!rawContent) {
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

    public static void freeDDict(MemorySegment ddict) {
        try {
            long ignored = (long) FREE_DDICT.invokeExact(ddict);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZSTD_CCtx_refCDict; NULL returns the context to no-dictionary mode. */
    public static long cctxRefCDict(MemorySegment cctx, MemorySegment cdict) {
        try {
            return (long) CCTX_REF_CDICT.invokeExact(cctx, cdict);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZSTD_DCtx_refDDict; NULL returns the context to no-dictionary mode. */
    public static long dctxRefDDict(MemorySegment dctx, MemorySegment ddict) {
        try {
            return (long) DCTX_REF_DDICT.invokeExact(dctx, ddict);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return the dictionary id a frame header names, as an unsigned int; 0 if none or unreadable */
    public static int getDictIdFromFrame(MemorySegment src, long srcLen) {
        try {
            return (int) GET_DICT_ID_FROM_FRAME_H.invokeExact(src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return the id of a zstd-format dictionary, as an unsigned int; 0 for raw content */
    public static int getDictIdFromDict(MemorySegment dict, long size) {
        try {
            return (int) GET_DICT_ID_FROM_DICT_H.invokeExact(dict, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZDICT_trainFromBuffer; all memory native. Returns the dictionary size or a ZDICT error code. */
    public static long trainFromBuffer(MemorySegment dict, long capacity, MemorySegment samples, MemorySegment sizes,
                                       int nbSamples) {
        try {
            return (long) ZDICT_TRAIN.invokeExact(dict, capacity, samples, sizes, nbSamples);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZDICT_optimizeTrainFromBuffer_fastCover; {@code params} ({@link #FAST_COVER_PARAMS}) is updated in place. */
    public static long optimizeFastCover(MemorySegment dict, long capacity, MemorySegment samples,
                                         MemorySegment sizes, int nbSamples, MemorySegment params) {
        try {
            return (long) ZDICT_OPTIMIZE_FAST_COVER.invokeExact(dict, capacity, samples, sizes, nbSamples, params);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** ZDICT_getDictHeaderSize: the size of the header and entropy tables, or an error code. */
    public static long dictHeaderSize(MemorySegment dict, long size) {
        try {
            return (long) ZDICT_GET_DICT_HEADER_SIZE.invokeExact(dict, size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static boolean zdictIsError(long code) {
        try {
            return (int) ZDICT_IS_ERROR.invokeExact(code) != 0;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static String zdictErrorName(long code) {
        try {
            MemorySegment s = (MemorySegment) ZDICT_GET_ERROR_NAME.invokeExact(code);
            return s.address() == 0 ? "unknown error" : s.reinterpret(4096).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- frames --------------------------------------------------------------------------------------------------

    public static long getFrameContentSize(MemorySegment src, long srcLen) {
        try {
            return (long) GET_FRAME_CONTENT_SIZE_H.invokeExact(src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long findDecompressedSize(MemorySegment src, long srcLen) {
        try {
            return (long) FIND_DECOMPRESSED_SIZE_H.invokeExact(src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long findFrameCompressedSize(MemorySegment src, long srcLen) {
        try {
            return (long) FIND_FRAME_COMPRESSED_SIZE_H.invokeExact(src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static long decompressBound(MemorySegment src, long srcLen) {
        try {
            return (long) DECOMPRESS_BOUND_H.invokeExact(src, srcLen);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    // ---- errors and constants ------------------------------------------------------------------------------------

    /** @return zstd's stable error code ({@code ZSTD_ErrorCode}) of an error result */
    public static int errorCode(long code) {
        try {
            return (int) GET_ERROR_CODE.invokeExact(code);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return zstd's readable description of an error result */
    public static String errorName(long code) {
        try {
            MemorySegment s = (MemorySegment) GET_ERROR_NAME.invokeExact(code);
            return s.address() == 0 ? "unknown error" : s.reinterpret(4096).getString(0);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    public static int minCLevel() {
        return intConstant(MIN_C_LEVEL);
    }

    public static int maxCLevel() {
        return intConstant(MAX_C_LEVEL);
    }

    /** @return ZSTD_defaultCLevel(), or 3 (its value in every release) on libraries older than 1.5.0 */
    public static int defaultCLevel() {
        try {
            return (int) DEFAULT_C_LEVEL.invokeExact();
        } catch (UnsupportedOperationException e) {
            return 3;
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** @return {lower, upper} bounds of a compression parameter, or null if the library does not know it */
    public static int[] cParamBounds(int param) {
        return bounds(C_PARAM_GET_BOUNDS, param);
    }

    /** @return {lower, upper} bounds of a decompression parameter, or null if the library does not know it */
    public static int[] dParamBounds(int param) {
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

    static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new IllegalStateException(t);
    }
}
