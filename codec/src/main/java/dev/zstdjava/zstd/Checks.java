package dev.zstdjava.zstd;

import dev.zstdjava.internal.ZstdNative;

import java.lang.foreign.MemorySegment;

/** Error translation and context setup shared by the zstd classes. */
final class Checks {
    private Checks() {}

    /** ZSTD_CCtx_setParameter; a rejected value is an {@link IllegalArgumentException} with the valid range. */
    static void setParameter(MemorySegment cctx, int param, int value, String name) {
        long r = ZstdNative.cctxSetParameter(cctx, param, value);
        if (ZstdNative.isError(r)) {
            int[] bounds = ZstdNative.cParamBounds(param);
            throw new IllegalArgumentException("zstd parameter " + name + " = " + value + " rejected: "
                    + ZstdNative.errorName(r) + (bounds == null ? "" : " (valid range " + bounds[0] + ".." + bounds[1] + ")"));
        }
    }

    /**
     * Applies a builder's compression parameters to a fresh context, and references its dictionary (returned so the
     * caller can keep it alive and release it when freed; null when there is none).
     */
    static SharedDict applyParameters(MemorySegment cctx, int level, boolean checksum, boolean contentSize,
                                      int windowLog, boolean longDistanceMatching, int workers, ZstdStrategy strategy,
                                      ZstdCompressionDictionary dictionary) {
        setParameter(cctx, ZstdNative.C_COMPRESSION_LEVEL, level, "level");
        if (checksum) {
            setParameter(cctx, ZstdNative.C_CHECKSUM_FLAG, 1, "checksum");
        }
        if (!contentSize) {
            setParameter(cctx, ZstdNative.C_CONTENT_SIZE_FLAG, 0, "contentSize");
        }
        if (windowLog != 0) {
            setParameter(cctx, ZstdNative.C_WINDOW_LOG, windowLog, "windowLog");
        }
        if (longDistanceMatching) {
            setParameter(cctx, ZstdNative.C_ENABLE_LONG_DISTANCE_MATCHING, 1, "longDistanceMatching");
        }
        if (workers != 0) {
            setParameter(cctx, ZstdNative.C_NB_WORKERS, workers, "workers");
        }
        if (strategy != null) {
            setParameter(cctx, ZstdNative.C_STRATEGY, strategy.nativeValue(), "strategy");
        }
        if (dictionary == null) {
            return null;
        }
        MemorySegment cdict = dictionary.shared().acquire();
        long r = ZstdNative.cctxRefCDict(cctx, cdict);
        if (ZstdNative.isError(r)) {
            dictionary.shared().release();
            throw error(r, "zstd reference dictionary", dictionary.toString());
        }
        return dictionary.shared();
    }

    /**
     * Applies a decompression builder's window limit to a fresh context and references its dictionary (returned so
     * the caller can keep it alive and release it when freed; null when there is none).
     */
    static SharedDict applyDecompressionParameters(MemorySegment dctx, int windowLogMax,
                                                   ZstdDecompressionDictionary dictionary) {
        if (windowLogMax != 0) {
            long r = ZstdNative.dctxSetParameter(dctx, ZstdNative.D_WINDOW_LOG_MAX, windowLogMax);
            if (ZstdNative.isError(r)) {
                int[] bounds = ZstdNative.dParamBounds(ZstdNative.D_WINDOW_LOG_MAX);
                throw new IllegalArgumentException("zstd windowLogMax = " + windowLogMax + " rejected: "
                        + ZstdNative.errorName(r) + (bounds == null ? "" : " (valid range " + bounds[0] + ".." + bounds[1] + ")"));
            }
        }
        if (dictionary == null) {
            return null;
        }
        MemorySegment ddict = dictionary.shared().acquire();
        long r = ZstdNative.dctxRefDDict(dctx, ddict);
        if (ZstdNative.isError(r)) {
            dictionary.shared().release();
            throw error(r, "zstd reference dictionary", dictionary.toString());
        }
        return dictionary.shared();
    }

    static ZstdException error(long code, String operation, String detail) {
        return new ZstdException(operation, ZstdNative.errorCode(code), ZstdNative.errorName(code), detail);
    }
}
