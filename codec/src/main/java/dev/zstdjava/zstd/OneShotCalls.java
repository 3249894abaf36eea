package dev.zstdjava.zstd;

import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.Scratch;
import dev.zstdjava.internal.ZstdNative;

import java.lang.foreign.MemorySegment;

/**
 * The native steps of {@link ZstdCompressor}'s and {@link ZstdDecompressor}'s one-shot calls: in place when the data
 * allows a critical call, staged through the context's {@link Scratch} otherwise. {@code compress} picks
 * {@code ZSTD_compress2} (whose work is its input) or {@code ZSTD_decompressDCtx} (whose work is its output).
 */
final class OneShotCalls {
    private OneShotCalls() {}

    /**
     * Two segments: critical when both are native and the work is under {@link ZstdNative#CRITICAL_LIMIT}, or when
     * heap memory is involved and the work is at most {@code heapLimit}; staged (a regular call on native copies)
     * above it.
     */
    static long segments(boolean compress, MemorySegment ctx, Scratch scratch, long heapLimit, MemorySegment src,
                         long srcLen, MemorySegment dst, long dstCap) {
        long work = compress ? srcLen : dstCap;
        if (src.isNative() && dst.isNative()) {
            return ZstdNative.oneShot(compress, ctx, dst, dstCap, src, srcLen, work < ZstdNative.CRITICAL_LIMIT);
        }
        if (work <= heapLimit) {
            return ZstdNative.oneShot(compress, ctx, dst, dstCap, src, srcLen, true);
        }
        long outCap = compress && !dst.isNative() ? Math.min(dstCap, Zstd.compressBound(srcLen)) : dstCap;
        try {
            MemorySegment in = scratch.stageInput(src, srcLen);
            MemorySegment out = scratch.stagedOutput(dst, outCap);
            long r = ZstdNative.oneShot(compress, ctx, out, outCap, in, srcLen, false);
            Scratch.unstage(out, dst, r);
            return r;
        } finally {
            scratch.trim();
        }
    }

    /**
     * Two arrays, on arrays and offsets: staged through the native scratch buffers when small
     * ({@link Bounds#small}: no view of an array is made, so nothing is allocated whatever the JIT inlines), in place
     * above that up to {@code heapLimit} bytes of work (views made next to the native call), staged again above it
     * (and always on JDK 21). {@code dst} is null for a compression into the scratch output buffer (the
     * {@code byte[] -> new byte[]} form). The caller trims the scratch buffers (after it has copied that output out).
     */
    static long arrays(boolean compress, MemorySegment ctx, Scratch scratch, long heapLimit, byte[] src, int srcOff,
                       int srcLen, byte[] dst, int dstOff, long dstCap) {
        long work = compress ? srcLen : dstCap;
        if (work <= heapLimit && !Bounds.small(srcLen, work)) {
            return dst != null
                    ? ZstdNative.oneShot(compress, ctx, dst, dstOff, (int) dstCap, src, srcOff, srcLen)
                    : ZstdNative.compress2(ctx, scratch.get(dstCap), dstCap, src, srcOff, srcLen);
        }
        long outCap = compress && dst != null ? Math.min(dstCap, Zstd.compressBound(srcLen)) : dstCap;
        MemorySegment in = scratch.stage(src, srcOff, srcLen);
        MemorySegment out = scratch.get(outCap);
        long r = ZstdNative.staged(compress, ctx, out, outCap, in, srcLen);
        if (dst != null) {
            Scratch.unstage(out, dst, dstOff, r);
        }
        return r;
    }
}
