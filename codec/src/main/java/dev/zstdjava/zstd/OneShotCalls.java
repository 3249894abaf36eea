package dev.zstdjava.zstd;

import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.CallKind;
import dev.zstdjava.internal.Direction;
import dev.zstdjava.internal.Scratch;

import java.lang.foreign.MemorySegment;

/**
 * The native steps of {@link ZstdCompressor}'s and {@link ZstdDecompressor}'s one-shot calls: in place when the data
 * allows a critical call, staged through the context's {@link Scratch} otherwise. The {@link Direction} picks
 * {@code ZSTD_compress2} (whose work is its input) or {@code ZSTD_decompressDCtx} (whose work is its output).
 * One instance per context, made with it; used under the context's guard, so one thread at a time.
 */
final class OneShotCalls {
    private final MemorySegment ctx;
    private final Scratch scratch;
    /** Heap work above this many bytes is staged through native memory (smaller for slower compression levels). */
    long heapLimit;

    OneShotCalls(MemorySegment ctx, Scratch scratch, long heapLimit) {
        this.ctx = ctx;
        this.scratch = scratch;
        this.heapLimit = heapLimit;
    }

    /**
     * Two segments: critical when both are native and the work is under {@link ZstdNative#CRITICAL_LIMIT}, or when
     * heap memory is involved and the work is at most {@code heapLimit}; staged (a regular call on native copies)
     * above it.
     */
    long segments(Direction direction, MemorySegment src, long srcLen, MemorySegment dst, long dstCap) {
        boolean compress = direction == Direction.COMPRESS;
        long work = compress ? srcLen : dstCap;
        if (src.isNative() && dst.isNative()) {
            return ZstdNative.oneShot(direction, ctx, dst, dstCap, src, srcLen,
                    work < ZstdNative.CRITICAL_LIMIT ? CallKind.CRITICAL : CallKind.REGULAR);
        }
        if (work <= heapLimit) {
            return ZstdNative.oneShot(direction, ctx, dst, dstCap, src, srcLen, CallKind.CRITICAL);
        }
        long outCap = compress && !dst.isNative() ? Math.min(dstCap, Zstd.compressBound(srcLen)) : dstCap;
        try {
            MemorySegment in = scratch.stageInput(src, srcLen);
            MemorySegment out = scratch.stagedOutput(dst, outCap);
            long r = ZstdNative.oneShot(direction, ctx, out, outCap, in, srcLen, CallKind.REGULAR);
            Scratch.unstage(out, dst, r);
            return r;
        } finally {
            scratch.trim();
        }
    }

    /**
     * A compression of all of {@code src} into {@code dst[dstOff, dstOff+dstCap)}, with no view of {@code dst}: the
     * frame is written to the scratch output buffer and copied to {@code dst} at the offset, and the native call gets
     * only segments that exist before it ({@code src} itself, or its copy in the scratch input buffer when a heap
     * {@code src} is above {@code heapLimit}), so nothing is allocated whatever the JIT inlines. A frame that may take
     * more than {@link Scratch#KEEP} bytes goes straight into a view of the range instead ({@link #segments}), so the
     * native memory is not doubled for large values. The caller trims the scratch buffers.
     */
    long compressAt(MemorySegment src, long srcLen, MemorySegment dst, long dstOff, long dstCap) {
        long outCap = Math.min(dstCap, Zstd.compressBound(srcLen));
        if (outCap > Scratch.KEEP) {
            return segments(Direction.COMPRESS, src, srcLen, dst.asSlice(dstOff, dstCap), dstCap);
        }
        MemorySegment out = scratch.get(outCap);
        long r;
        if (src.isNative()) {
            r = ZstdNative.compress2(ctx, out, outCap, src, srcLen,
                    srcLen < ZstdNative.CRITICAL_LIMIT ? CallKind.CRITICAL : CallKind.REGULAR);
        } else if (srcLen <= heapLimit) {
            r = ZstdNative.compress2(ctx, out, outCap, src, srcLen, CallKind.CRITICAL);
        } else {
            r = ZstdNative.staged(Direction.COMPRESS, ctx, out, outCap, scratch.stageInput(src, srcLen), srcLen);
        }
        Scratch.unstage(out, dst, dstOff, r);
        return r;
    }

    /**
     * Two arrays, on arrays and offsets: staged through the native scratch buffers when small
     * ({@link Bounds#small}: no view of an array is made, so nothing is allocated whatever the JIT inlines), in place
     * above that up to {@code heapLimit} bytes of work (views made next to the native call), staged again above it
     * (and always on JDK 21). {@code dst} is null for a compression into the scratch output buffer (the
     * {@code byte[] -> new byte[]} form). The caller trims the scratch buffers (after it has copied that output out).
     */
    long arrays(Direction direction, byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, long dstCap) {
        boolean compress = direction == Direction.COMPRESS;
        long work = compress ? srcLen : dstCap;
        if (work <= heapLimit && !Bounds.small(srcLen, work)) {
            if (dst == null) {
                return ZstdNative.compress2(ctx, scratch.get(dstCap), dstCap, src, srcOff, srcLen);
            }
            return compress
                    ? ZstdNative.compressArrays(ctx, dst, dstOff, (int) dstCap, src, srcOff, srcLen)
                    : ZstdNative.decompressArrays(ctx, dst, dstOff, (int) dstCap, src, srcOff, srcLen);
        }
        long outCap = compress && dst != null ? Math.min(dstCap, Zstd.compressBound(srcLen)) : dstCap;
        MemorySegment in = scratch.stage(src, srcOff, srcLen);
        MemorySegment out = scratch.get(outCap);
        long r = ZstdNative.staged(direction, ctx, out, outCap, in, srcLen);
        if (dst != null) {
            Scratch.unstage(out, dst, dstOff, r);
        }
        return r;
    }
}
