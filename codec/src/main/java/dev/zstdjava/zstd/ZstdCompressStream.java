package dev.zstdjava.zstd;

import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.CallKind;
import dev.zstdjava.internal.Direction;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.util.Objects;

/**
 * Streaming zstd compression over {@link MemorySegment}s ({@code ZSTD_compressStream2}): feed input in pieces with
 * {@link #compress}, make everything so far decodable with {@link #flush}, finish the frame with {@link #end}. After
 * each call {@link #consumed()} and {@link #produced()} tell how far it got; the caller advances its segments.
 * After {@link #end} returns 0 the next call starts a new frame. {@link ZstdOutputStream} wraps this class.
 *
 * <p>Example: {@code while (s.end(in, out) != 0) { drain(out, s.produced()); }}
 *
 * <p><b>Memory:</b> native and heap segments are both accepted. Heap memory is read and written in place through
 * critical downcalls, each on at most {@code zstdjava.criticalHeapLimit} bytes (default 1 MiB) of input and of
 * output, so that no call holds off the garbage collector for long: on larger heap segments a call makes partial
 * progress, which {@link #consumed()} and {@link #produced()} report as always. With
 * {@link Builder#workers(int) workers}, zstd's threads run while a call may wait for them, so calls are never
 * critical and heap input and output pass through native staging buffers of {@link #RECOMMENDED_INPUT_SIZE} and
 * {@link #RECOMMENDED_OUTPUT_SIZE} bytes (one copy each way). zstd copies the input it takes into its own window,
 * so segments need not stay valid after a call.
 *
 * <p><b>Thread safety:</b> one call at a time; a concurrent call or a call after {@link #close()} throws
 * {@link IllegalStateException}. <b>Allocation:</b> none per call; positions live in native memory allocated with
 * the context. Close it when done; unclosed instances are freed by a {@link java.lang.ref.Cleaner}.
 */
public final class ZstdCompressStream extends ZstdStream {
    /** {@code ZSTD_CStreamInSize()}: an input piece size that suits zstd (one block, 128 KiB). */
    public static final long RECOMMENDED_INPUT_SIZE = ZstdNative.cStreamInSize();
    /** {@code ZSTD_CStreamOutSize()}: an output size that always holds one compressed block. */
    public static final long RECOMMENDED_OUTPUT_SIZE = ZstdNative.cStreamOutSize();

    private final int workers;

    private ZstdCompressStream(ZstdCompressionParameters p) {
        super(Direction.COMPRESS, "ZstdCompressStream", p::applyTo);
        this.workers = p.workers();
    }

    /** @return a stream at zstd's default level */
    public static ZstdCompressStream create() {
        return builder().build();
    }

    /** @return a stream at {@code level} */
    public static ZstdCompressStream create(int level) {
        return builder().level(level).build();
    }

    /** @return a stream with these parameters */
    public static ZstdCompressStream create(ZstdCompressionParameters parameters) {
        return new ZstdCompressStream(Objects.requireNonNull(parameters, "parameters"));
    }

    /** @return a builder for a stream with other parameters */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Compresses from {@code src} into {@code dst} ({@code ZSTD_e_continue}); zstd may buffer input without output.
     *
     * @return a hint of a good next input size (never an error: errors throw {@link ZstdException})
     */
    public long compress(MemorySegment src, MemorySegment dst) {
        return step(src, 0, src.byteSize(), dst, 0, dst.byteSize(), ZstdNative.EndDirective.CONTINUE);
    }

    /**
     * Takes input from {@code src} and flushes ({@code ZSTD_e_flush}): once it returns 0, everything given so far
     * is in the output as complete blocks a decoder can read, and the frame stays open.
     *
     * @return 0 when done; otherwise call again with the input not yet consumed and more output space
     */
    public long flush(MemorySegment src, MemorySegment dst) {
        return step(src, 0, src.byteSize(), dst, 0, dst.byteSize(), ZstdNative.EndDirective.FLUSH);
    }

    /**
     * Takes input from {@code src} and ends the frame ({@code ZSTD_e_end}); once it returns 0 the frame is complete
     * and the next call starts a new one.
     *
     * @return 0 when the frame is complete; otherwise call again with the input not yet consumed (and no new input)
     *         and more output space
     */
    public long end(MemorySegment src, MemorySegment dst) {
        return step(src, 0, src.byteSize(), dst, 0, dst.byteSize(), ZstdNative.EndDirective.END);
    }

    /** Abandons the frame in progress (keeping parameters and dictionary); the next call starts a new frame. */
    public void reset() {
        restart();
    }

    /**
     * One ZSTD_compressStream2 call on {@code src[srcStart, srcEnd)} into {@code dst[dstStart, dstEnd)}: positions
     * are passed to zstd as offsets, so whole arrays can be given without slicing.
     */
    long step(MemorySegment src, long srcStart, long srcEnd, MemorySegment dst, long dstStart, long dstEnd,
              ZstdNative.EndDirective op) {
        Objects.checkFromToIndex(srcStart, srcEnd, src.byteSize());
        Objects.checkFromToIndex(dstStart, dstEnd, dst.byteSize());
        Bounds.writable(dst);
        Bounds.disjoint(src, srcStart, srcEnd - srcStart, dst, dstStart, dstEnd - dstStart);
        long r;
        guard.enter();
        try {
            boolean heap = !src.isNative() || !dst.isNative();
            if (workers > 0 && heap) {
                r = staged(src, srcStart, srcEnd, dst, dstStart, dstEnd, op);
            } else if (heap) { // bound the critical call: at most HEAP_WINDOW bytes in and out
                long sEnd = window(srcStart, srcEnd);
                // flush or end once the last input is in reach
                ZstdNative.EndDirective callOp = sEnd < srcEnd ? ZstdNative.EndDirective.CONTINUE : op;
                r = call(src, srcStart, sEnd, dst, dstStart, window(dstStart, dstEnd), callOp);
                if (callOp != op && !ZstdNative.isError(r)) {
                    r = Math.max(r, 1); // input is left, so the flush or end is not done
                }
            } else {
                r = call(src, srcStart, srcEnd, dst, dstStart, dstEnd, op);
            }
            if (ZstdNative.isError(r)) {
                state.resetSession();
                throw Checks.error(r, "zstd compress stream", Bounds.sizes(srcEnd - srcStart, dstEnd - dstStart)
                        + "; the frame in progress was abandoned");
            }
            return r;
        } finally {
            guard.exit();
            Reference.reachabilityFence(this); // the Cleaner must not free the context during the call
        }
    }

    /**
     * One call from the given positions: critical for heap memory (the callers bound its length) and, without
     * workers, below {@link ZstdNative#CRITICAL_LIMIT} bytes of work; regular otherwise.
     */
    private long call(MemorySegment src, long srcStart, long srcEnd, MemorySegment dst, long dstStart, long dstEnd,
                      ZstdNative.EndDirective op) {
        boolean heap = !src.isNative() || !dst.isNative();
        long work = (srcEnd - srcStart) + (dstEnd - dstStart);
        CallKind kind = heap || (workers == 0 && work < ZstdNative.CRITICAL_LIMIT)
                ? CallKind.CRITICAL
                : CallKind.REGULAR;
        positions(dstStart, srcStart);
        long r = ZstdNative.compressStream2(state.cursor, dst, dstEnd, src, srcEnd, op, kind);
        advanced(srcStart, dstStart);
        return r;
    }

    /**
     * With workers: the heap side(s) go through native buffers of {@link #RECOMMENDED_INPUT_SIZE} and
     * {@link #RECOMMENDED_OUTPUT_SIZE} bytes (allocated on first use, kept with the context) and the call is a
     * regular (non-critical) one. When the staged piece is not all of the input, the call only continues: a flush or
     * end on that piece would end the frame without the rest.
     */
    private long staged(MemorySegment src, long srcStart, long srcEnd, MemorySegment dst, long dstStart, long dstEnd,
                        ZstdNative.EndDirective op) {
        Native s = state;
        ZstdNative.EndDirective callOp = op;
        if (!src.isNative()) {
            s.stageIn = staging(s.stageIn, RECOMMENDED_INPUT_SIZE);
            long n = Math.min(srcEnd - srcStart, RECOMMENDED_INPUT_SIZE);
            if (n < srcEnd - srcStart) {
                callOp = ZstdNative.EndDirective.CONTINUE;
            }
            MemorySegment.copy(src, srcStart, s.stageIn, 0, n);
            src = s.stageIn;
            srcStart = 0;
            srcEnd = n;
        }
        long r;
        if (dst.isNative()) {
            r = call(src, srcStart, srcEnd, dst, dstStart, dstEnd, callOp);
        } else {
            s.stageOut = staging(s.stageOut, RECOMMENDED_OUTPUT_SIZE);
            r = call(src, srcStart, srcEnd, s.stageOut, 0, Math.min(dstEnd - dstStart, RECOMMENDED_OUTPUT_SIZE), callOp);
            if (produced > 0 && !ZstdNative.isError(r)) {
                MemorySegment.copy(s.stageOut, 0, dst, dstStart, produced);
            }
        }
        return callOp != op && !ZstdNative.isError(r) ? Math.max(r, 1) : r; // input is left: not done
    }

    private static MemorySegment staging(MemorySegment buffer, long size) {
        return buffer.address() != 0 ? buffer : ZstdNative.LIBC.malloc(size);
    }

    /**
     * Parameters of a {@link ZstdCompressStream} (and of a {@link ZstdOutputStream}), set one at a time and checked
     * as they are set; each option is described on {@link ZstdCompressionParameters}.
     */
    public static final class Builder extends CompressionSetters<Builder> {
        private Builder() {}

        /** @return a new stream with these parameters */
        public ZstdCompressStream build() {
            return new ZstdCompressStream(toParameters());
        }
    }
}
