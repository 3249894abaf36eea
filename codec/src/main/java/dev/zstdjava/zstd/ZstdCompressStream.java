package dev.zstdjava.zstd;

import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.Guard;
import dev.zstdjava.internal.LibC;
import dev.zstdjava.internal.ZstdNative;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * critical and heap input and output pass through native staging buffers of {@link #recommendedInputSize()} and
 * {@link #recommendedOutputSize()} bytes (one copy each way). zstd copies the input it takes into its own window,
 * so segments need not stay valid after a call.
 *
 * <p><b>Thread safety:</b> one call at a time; a concurrent call or a call after {@link #close()} throws
 * {@link IllegalStateException}. <b>Allocation:</b> none per call; positions live in native memory allocated with
 * the context. Close it when done; unclosed instances are freed by a {@link java.lang.ref.Cleaner}.
 */
public final class ZstdCompressStream implements AutoCloseable {
    private static final long IN_SIZE = ZstdNative.cStreamInSize();
    private static final long OUT_SIZE = ZstdNative.cStreamOutSize();
    /** Most heap bytes one critical call reads or writes (zstdjava.criticalHeapLimit, at least 4 KiB). */
    static final long HEAP_WINDOW = Math.max(ZstdNative.HEAP_CRITICAL_LIMIT, 4096);

    private final Native state;
    private final Guard guard;
    private final int workers;
    private long consumed;
    private long produced;

    private static final class Native implements Runnable {
        final MemorySegment cctx = ZstdNative.createCCtx();
        /** Two native size_t: output position at 0, input position at 8. */
        final MemorySegment pos = LibC.malloc(16);
        final MemorySegment srcPos = pos.asSlice(8);
        MemorySegment stageIn = MemorySegment.NULL;
        MemorySegment stageOut = MemorySegment.NULL;
        SharedDict dict;

        @Override
        public void run() {
            ZstdNative.freeCCtx(cctx);
            LibC.free(pos);
            LibC.free(stageIn);
            LibC.free(stageOut);
            SharedDict.release(dict);
        }
    }

    private ZstdCompressStream(ZstdCompressionParameters p) {
        this.state = new Native();
        this.guard = new Guard(this, "ZstdCompressStream", state);
        this.workers = p.workers();
        guard.setUp(() -> state.dict = p.applyTo(state.cctx));
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

    /** @return {@code ZSTD_CStreamInSize()}: an input piece size that suits zstd (one block, 128 KiB) */
    public static long recommendedInputSize() {
        return IN_SIZE;
    }

    /** @return {@code ZSTD_CStreamOutSize()}: an output size that always holds one compressed block */
    public static long recommendedOutputSize() {
        return OUT_SIZE;
    }

    /**
     * Compresses from {@code src} into {@code dst} ({@code ZSTD_e_continue}); zstd may buffer input without output.
     *
     * @return a hint of a good next input size (never an error: errors throw {@link ZstdException})
     */
    public long compress(MemorySegment src, MemorySegment dst) {
        return step(src, 0, src.byteSize(), dst, 0, dst.byteSize(), ZstdNative.E_CONTINUE);
    }

    /**
     * Takes input from {@code src} and flushes ({@code ZSTD_e_flush}): once it returns 0, everything given so far
     * is in the output as complete blocks a decoder can read, and the frame stays open.
     *
     * @return 0 when done; otherwise call again with the input not yet consumed and more output space
     */
    public long flush(MemorySegment src, MemorySegment dst) {
        return step(src, 0, src.byteSize(), dst, 0, dst.byteSize(), ZstdNative.E_FLUSH);
    }

    /**
     * Takes input from {@code src} and ends the frame ({@code ZSTD_e_end}); once it returns 0 the frame is complete
     * and the next call starts a new one.
     *
     * @return 0 when the frame is complete; otherwise call again with the input not yet consumed (and no new input)
     *         and more output space
     */
    public long end(MemorySegment src, MemorySegment dst) {
        return step(src, 0, src.byteSize(), dst, 0, dst.byteSize(), ZstdNative.E_END);
    }

    /** @return bytes of {@code src} the last call read */
    public long consumed() {
        return consumed;
    }

    /** @return bytes the last call wrote at the start of {@code dst} */
    public long produced() {
        return produced;
    }

    /** Abandons the frame in progress (keeping parameters and dictionary); the next call starts a new frame. */
    public void reset() {
        guard.enter();
        try {
            ZstdNative.cctxReset(state.cctx, ZstdNative.RESET_SESSION_ONLY);
            consumed = 0;
            produced = 0;
        } finally {
            guard.exit();
        }
    }

    /**
     * One ZSTD_compressStream2 call on {@code src[srcStart, srcEnd)} into {@code dst[dstStart, dstEnd)}: positions
     * are passed to zstd as offsets, so whole arrays can be given without slicing.
     */
    long step(MemorySegment src, long srcStart, long srcEnd, MemorySegment dst, long dstStart, long dstEnd, int op) {
        Objects.checkFromToIndex(srcStart, srcEnd, src.byteSize());
        Objects.checkFromToIndex(dstStart, dstEnd, dst.byteSize());
        Bounds.writable(dst);
        long r;
        guard.enter();
        try {
            if (workers > 0 && (!src.isNative() || !dst.isNative())) {
                r = staged(src, srcStart, srcEnd, dst, dstStart, dstEnd, op);
            } else {
                boolean heap = !src.isNative() || !dst.isNative();
                long sEnd = srcEnd;
                long dEnd = dstEnd;
                int callOp = op;
                if (heap) { // bound the critical call: at most HEAP_WINDOW bytes in and out
                    if (srcEnd - srcStart > HEAP_WINDOW) {
                        sEnd = srcStart + HEAP_WINDOW;
                        callOp = ZstdNative.E_CONTINUE; // flush or end only once the last input is in reach
                    }
                    dEnd = Math.min(dstEnd, dstStart + HEAP_WINDOW);
                }
                MemorySegment pos = state.pos;
                pos.set(ValueLayout.JAVA_LONG, 0, dstStart);
                pos.set(ValueLayout.JAVA_LONG, 8, srcStart);
                boolean critical = workers == 0
                        && (heap || (sEnd - srcStart) + (dEnd - dstStart) < ZstdNative.CRITICAL_LIMIT);
                r = ZstdNative.compressStream2(state.cctx, dst, dEnd, pos, src, sEnd, state.srcPos, callOp, critical);
                consumed = pos.get(ValueLayout.JAVA_LONG, 8) - srcStart;
                produced = pos.get(ValueLayout.JAVA_LONG, 0) - dstStart;
                if (callOp != op && !ZstdNative.isError(r)) {
                    r = Math.max(r, 1); // input is left, so the flush or end is not done
                }
            }
            if (ZstdNative.isError(r)) {
                ZstdNative.cctxReset(state.cctx, ZstdNative.RESET_SESSION_ONLY);
                throw Checks.error(r, "zstd compress stream", Bounds.sizes(srcEnd - srcStart, dstEnd - dstStart)
                        + "; the frame in progress was abandoned");
            }
            return r;
        } finally {
            guard.exit();
            Reference.reachabilityFence(this); // the Cleaner must not free the context during the call
        }
    }

    /** With workers: heap memory goes through native buffers and the call is a regular (non-critical) one. */
    private long staged(MemorySegment src, long srcStart, long srcEnd, MemorySegment dst, long dstStart, long dstEnd,
                        int op) {
        MemorySegment in = src;
        long inStart = srcStart;
        long inEnd = srcEnd;
        if (!src.isNative()) {
            if (state.stageIn.address() == 0) {
                state.stageIn = LibC.malloc(IN_SIZE);
            }
            long n = Math.min(srcEnd - srcStart, IN_SIZE);
            MemorySegment.copy(src, srcStart, state.stageIn, 0, n);
            in = state.stageIn;
            inStart = 0;
            inEnd = n;
        }
        MemorySegment out = dst;
        long outStart = dstStart;
        long outEnd = dstEnd;
        if (!dst.isNative()) {
            if (state.stageOut.address() == 0) {
                state.stageOut = LibC.malloc(OUT_SIZE);
            }
            out = state.stageOut;
            outStart = 0;
            outEnd = Math.min(dstEnd - dstStart, OUT_SIZE);
        }
        MemorySegment pos = state.pos;
        pos.set(ValueLayout.JAVA_LONG, 0, outStart);
        pos.set(ValueLayout.JAVA_LONG, 8, inStart);
        long r = ZstdNative.compressStream2(state.cctx, out, outEnd, pos, in, inEnd, state.srcPos, op, false);
        consumed = pos.get(ValueLayout.JAVA_LONG, 8) - inStart;
        produced = pos.get(ValueLayout.JAVA_LONG, 0) - outStart;
        if (out != dst && produced > 0 && !ZstdNative.isError(r)) {
            MemorySegment.copy(out, 0, dst, dstStart, produced);
        }
        return r;
    }

    /** Frees the native context now, or when the call in progress returns. Idempotent. */
    @Override
    public void close() {
        guard.close();
    }

    /**
     * Parameters of a {@link ZstdCompressStream} (and of a {@link ZstdOutputStream}), set one at a time and checked
     * as they are set; each option is described on {@link ZstdCompressionParameters}.
     */
    public static final class Builder extends CompressionSetters<Builder> {
        private Builder() {}

        /** @return a new stream with these parameters */
        public ZstdCompressStream build() {
            return new ZstdCompressStream(parameters);
        }
    }
}
