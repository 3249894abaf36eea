package dev.zstdjava.zstd;

import java.lang.foreign.MemorySegment;
import java.util.function.ToLongFunction;

/** Error translation and context setup shared by the zstd classes. */
final class Checks {
    private Checks() {}

    /** ZSTD_CCtx_setParameter; a rejected value is an {@link IllegalArgumentException} with the valid range. */
    static void setParameter(MemorySegment cctx, int param, int value, String name) {
        long r = ZstdNative.cctxSetParameter(cctx, param, value);
        if (ZstdNative.isError(r)) {
            throw rejected("zstd parameter " + name, value, r, ZstdNative.cParamBounds(param));
        }
    }

    /** A value zstd refused: names it, zstd's reason and the valid range (when the library knows it). */
    static IllegalArgumentException rejected(String name, int value, long code, int[] bounds) {
        return new IllegalArgumentException(name + " = " + value + " rejected: " + ZstdNative.errorName(code)
                + (bounds == null ? "" : " (valid range " + bounds[0] + ".." + bounds[1] + ")"));
    }

    /** @return {@code bounds}, or {lower, upper} when the library cannot tell (it predates the bounds query) */
    static int[] bounds(int[] bounds, int lower, int upper) {
        return bounds != null ? bounds : new int[] {lower, upper};
    }

    /** Throws an {@link IllegalArgumentException} naming the valid range unless {@code value} lies in it. */
    static void inRange(String name, int value, int[] bounds) {
        if (value < bounds[0] || value > bounds[1]) {
            throw new IllegalArgumentException(name + " = " + value + " is out of range (valid range " + bounds[0]
                    + ".." + bounds[1] + ")");
        }
    }

    /**
     * References a dictionary from a fresh context ({@code ZSTD_CCtx_refCDict} or {@code ZSTD_DCtx_refDDict}).
     *
     * @return {@code shared}, acquired for the context; the caller releases it when it frees the context
     */
    static SharedDict reference(SharedDict shared, ToLongFunction<MemorySegment> refCall,
                                DigestedDictionary dictionary) {
        long r = refCall.applyAsLong(shared.acquire());
        if (ZstdNative.isError(r)) {
            shared.release();
            throw error(r, "zstd reference dictionary", dictionary.toString());
        }
        return shared;
    }

    static ZstdException error(long code, String operation, String detail) {
        return new ZstdException(operation, ZstdNative.errorCode(code), ZstdNative.errorName(code), detail);
    }
}
