package dev.zstdjava.lz4;

import dev.zstdjava.Compressor;
import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.CallKind;
import dev.zstdjava.internal.Confinement;
import dev.zstdjava.internal.Guard;
import dev.zstdjava.internal.OneShot;
import dev.zstdjava.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * An LZ4 frame compressor: one native {@code LZ4F_cctx} and its preferences, reused by every call. Two ways to use it:
 * <ul>
 *   <li>one-shot: {@code compress(...)} writes one complete frame per call (four API shapes);</li>
 *   <li>streaming over memory segments: {@link #begin}, then {@link #update} any number of times, {@link #flush} when
 *       the data written so far must be decodable, and {@link #end}. Each step writes into a caller segment.</li>
 * </ul>
 *
 * <p><b>Thread safety:</b> one call at a time. A call from a second thread while one runs, or any call after
 * {@link #close()}, throws {@link IllegalStateException}; memory is never freed under a running call. One made by
 * {@link Builder#confined()} belongs to the thread that built it (see
 * {@link Lz4Compressor.Builder#confined()}).
 *
 * <p><b>Allocation:</b> on native memory the one-shot forms and every streaming step allocate nothing (lz4 sizes its
 * internal buffers on first use and keeps them). Heap arrays and heap buffers are used in place through critical
 * downcalls up to {@code zstdjava.criticalHeapLimit} bytes of work (default 1 MiB for the fast levels, less for HC,
 * as {@link Lz4Compressor}) and staged through a native buffer of this compressor above it, which is kept between
 * calls up to 1 MiB. The {@code byte[]} and {@code ByteBuffer} forms make their views of arrays and direct buffers
 * next to the native call, so they allocate nothing also where the JIT does not inline the call into its caller.
 * {@link #compress(byte[])} allocates the returned array (it compresses into that native buffer and copies the frame
 * out once; its input, when at most {@code zstdjava.heapStagingLimit} bytes, is copied in, so no view of it exists).
 *
 * <p>Close it when done; a compressor that is dropped unclosed is freed by a {@link java.lang.ref.Cleaner}.
 */
public final class Lz4FrameCompressor implements Compressor {
    private static final Lz4Native.FrameStep FRAME = Lz4Native.FrameStep.FRAME;
    private static final Lz4Native.FrameStep UPDATE = Lz4Native.FrameStep.UPDATE;
    private static final Lz4Native.FrameStep FLUSH = Lz4Native.FrameStep.FLUSH;
    private static final Lz4Native.FrameStep END = Lz4Native.FrameStep.END;

    /** The context and its calls; a final field of a final class, so each call binds to it directly. */
    private final Core core;

    /** Native memory of one compressor; freed by {@link Guard}. Must not reference the compressor. */
    private static final class Native implements Runnable {
        final MemorySegment cctx;
        final MemorySegment prefs;
        final Scratch scratch = new Scratch(Lz4Native.LIBC);
        final Lz4Native.FrameCompression frames;

        Native() {
            MemorySegment p = Lz4Native.LIBC.malloc(Lz4Native.PREFERENCES.byteSize());
            try {
                cctx = Lz4Native.createCompressionContext();
            } catch (RuntimeException | Error e) {
                Lz4Native.LIBC.free(p);
                throw e;
            }
            prefs = p;
            frames = new Lz4Native.FrameCompression(cctx, prefs);
        }

        @Override
        public void run() {
            Lz4Native.freeCompressionContext(cctx);
            Lz4Native.LIBC.free(prefs);
            scratch.free();
        }
    }

    private Lz4FrameCompressor(Lz4Frame.Options options, Confinement confinement) {
        this.core = new Core(Objects.requireNonNull(options, "options"), new Native(), confinement);
    }

    /** @return a compressor writing frames with {@link Lz4Frame.Options#DEFAULT} */
    public static Lz4FrameCompressor create() {
        return builder().build();
    }

    /** @return a compressor writing frames with {@code options} */
    public static Lz4FrameCompressor create(Lz4Frame.Options options) {
        return builder().options(options).build();
    }

    /** @return a default compressor confined to the calling thread (for {@link Lz4Frame}'s own) */
    static Lz4FrameCompressor confinedToThisThread() {
        return new Lz4FrameCompressor(Lz4Frame.Options.DEFAULT, Confinement.CONFINED);
    }

    /** @return a builder for a compressor with other options, or confined to the calling thread */
    public static Builder builder() {
        return new Builder();
    }

    /** @return true when only the thread that built this compressor may use it ({@link Builder#confined()}) */
    public boolean isConfined() {
        return core.isConfined();
    }

    /** @return the options of the frames this compressor writes */
    public Lz4Frame.Options options() {
        return core.options;
    }

    /** Changes the options of a cached compressor of {@link Lz4Frame}'s static methods (Java writes only). */
    void options(Lz4Frame.Options newOptions) {
        core.options(newOptions);
    }

    /** @return {@link Lz4Frame#maxCompressedLength(long, Lz4Frame.Options)} with this compressor's options */
    @Override
    public long maxCompressedLength(long srcLen) {
        return core.maxCompressedLength(srcLen);
    }

    // ---- one-shot ------------------------------------------------------------------------------------------------

    @Override
    public long compress(MemorySegment src, MemorySegment dst) {
        return core.segmentCall(src, dst);
    }

    @Override
    public int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen) {
        return core.arrayCall(src, srcOff, srcLen, dst, dstOff, dstLen);
    }

    @Override
    public byte[] compress(byte[] src, int off, int len) {
        return core.newArrayCall(src, off, len);
    }

    @Override
    public int compress(ByteBuffer src, ByteBuffer dst) {
        return core.bufferCall(src, dst);
    }

    // ---- streaming -----------------------------------------------------------------------------------------------

    /**
     * Starts a frame without a declared content size and writes its header (at most 19 bytes) into {@code dst}.
     * Abandons a frame in progress.
     *
     * @return the header's size in bytes
     * @throws Lz4Exception if {@code dst} has fewer than 19 bytes
     */
    public long begin(MemorySegment dst) {
        return core.begin(dst, Lz4Frame.UNKNOWN_SIZE);
    }

    /**
     * Starts a frame declaring {@code contentSize} bytes of content (checked by {@link #end}) and writes its header.
     *
     * @param contentSize the exact number of bytes the frame will hold, or {@link Lz4Frame#UNKNOWN_SIZE}; 0 is
     *                    checked too, although the header cannot declare it (lz4 reads 0 as unknown), so a frame
     *                    begun with 0 holds no content
     * @return the header's size in bytes
     */
    public long begin(MemorySegment dst, long contentSize) {
        return core.begin(dst, contentSize);
    }

    /**
     * @return the destination size {@link #update} needs for {@code srcLen} input bytes (it includes a block lz4 may
     *         already hold buffered); {@link #flush} and {@link #end} need {@code updateBound(0)}
     */
    public long updateBound(long srcLen) {
        return core.updateBound(srcLen);
    }

    /**
     * Compresses all of {@code src} into the frame, writing the blocks it completes into {@code dst}; the rest stays
     * buffered in the context.
     *
     * @param dst at least {@link #updateBound(long) updateBound(src.byteSize())} bytes
     * @return the number of bytes written into {@code dst} (0 when everything was buffered)
     * @throws Lz4Exception          if {@code dst} is too small (checked before calling lz4; the frame stays usable)
     * @throws IllegalStateException if no frame was begun
     */
    public long update(MemorySegment src, MemorySegment dst) {
        return core.streamStep(UPDATE, "lz4 frame update", src, dst);
    }

    /**
     * Compresses whatever is buffered into {@code dst}, so that everything given so far can be decoded.
     *
     * @param dst at least {@link #updateBound(long) updateBound(0)} bytes
     * @return the number of bytes written
     */
    public long flush(MemorySegment dst) {
        return core.streamStep(FLUSH, "lz4 frame flush", MemorySegment.NULL, dst);
    }

    /**
     * Compresses whatever is buffered and writes the end mark and checksum, completing the frame.
     *
     * @param dst at least {@link #updateBound(long) updateBound(0)} bytes
     * @return the number of bytes written
     * @throws Lz4Exception if the frame declared a content size that differs from the bytes given
     */
    public long end(MemorySegment dst) {
        return core.streamStep(END, "lz4 frame end", MemorySegment.NULL, dst);
    }

    /** Frees the native context now, or when the call in progress returns. Idempotent. */
    @Override
    public void close() {
        core.close();
    }

        /** The guarded context, its options and the native calls of the one-shot and streaming forms. */
        private static final class Core extends OneShot.Encoder {
            private final Native state;
            private Lz4Frame.Options options;
            private boolean inFrame;
            /** The streamed frame was begun declaring 0 bytes, which its header cannot say (lz4 reads 0 as unknown). */
            private boolean emptyDeclared;
            /** The streamed frame has taken input. */
            private boolean tookInput;
            /** Heap work above this many bytes is staged through native memory; smaller for the slower HC levels. */
            private long heapLimit;

            Core(Lz4Frame.Options options, Native state, Confinement confinement) {
                super("Lz4FrameCompressor", state, state.scratch, confinement);
                this.state = state;
                apply(options);
            }

            /** Changes the options (Java writes only). */
            void options(Lz4Frame.Options newOptions) {
                if (!newOptions.equals(options)) {
                    guard.enter();
                    try {
                        apply(newOptions);
                    } finally {
                        guard.exit();
                    }
                }
            }

            private void apply(Lz4Frame.Options o) {
                Lz4Native.preferences(state.prefs, o);
                options = o;
                heapLimit = Lz4Native.heapLimit(o.level());
                inFrame = false;
            }

            long maxCompressedLength(long srcLen) {
                return Lz4Frame.maxCompressedLength(srcLen, options);
            }

        /**
         * The frame compression of the {@code byte[]} forms, on arrays and offsets (no view of them crosses a method
         * boundary, so none is allocated): in place up to {@link #heapLimit}, staged through native memory above it
         * (and always on JDK 21). {@code dst} is null for {@link Lz4FrameCompressor#compress(byte[], int, int)}: the
         * frame stays in the scratch buffer.
         */
        @Override
        protected long arrays(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, long dstCap) {
            startFrame();
            if (srcLen <= heapLimit && !Bounds.small(srcLen, srcLen)) { // in place; small arrays are staged: no views
                return dst != null
                        ? Lz4Native.compressFrame(state.frames, dst, dstOff, dstCap, src, srcOff, srcLen)
                        : Lz4Native.compressFrame(state.frames, state.scratch.get(dstCap), dstCap, src, srcOff, srcLen);
            }
            long outCap = dst == null ? dstCap : Math.min(dstCap, maxCompressedLength(srcLen));
            MemorySegment in = state.scratch.stage(src, srcOff, srcLen);
            MemorySegment out = state.scratch.get(outCap);
            long r = Lz4Native.compressFrameStaged(state.frames, out, outCap, in, srcLen);
            if (dst != null) {
                Scratch.unstage(out, dst, dstOff, r);
            }
            return r;
        }

        @Override
        protected long segments(MemorySegment src, long srcLen, MemorySegment dst, long dstCap) {
            startFrame();
            return call(FRAME, src, srcLen, dst, dstCap, srcLen);
        }

        @Override
        protected long direct(ByteBuffer src, ByteBuffer dst) {
            startFrame();
            return Lz4Native.compressFrame(state.frames, dst, src);
        }

        /** Before a one-shot frame: abandons a streamed frame in progress; the header declares the real content size. */
        private void startFrame() {
            inFrame = false;
            Lz4Native.preferencesContentSize(state.prefs, options.contentSize() ? 1 : 0);
        }

        @Override
        protected void checkSizes(long srcLen, long dstCap) {
            checkFrameCapacity(srcLen, dstCap);
        }

        @Override
        protected long capacity(int srcLen) {
            return maxCompressedLength(srcLen);
        }

        @Override
        protected RuntimeException error(long r, MemorySegment src, long dstCap) {
            return Lz4Checks.frameError(r, "lz4 frame compress", Bounds.sizes(src.byteSize(), dstCap));
        }

        /**
         * One native step: in place when possible, staged through native memory when heap memory would otherwise be
         * held by a critical call for more than {@link #heapLimit} bytes of work.
         */
        private long call(Lz4Native.FrameStep op, MemorySegment src, long srcLen, MemorySegment dst, long dstCap, long work) {
            if (src.isNative() && dst.isNative()) {
                return invoke(op, src, srcLen, dst, dstCap,
                        work < Lz4Native.CRITICAL_LIMIT ? CallKind.CRITICAL : CallKind.REGULAR);
            }
            if (work <= heapLimit) {
                return invoke(op, src, srcLen, dst, dstCap, CallKind.CRITICAL);
            }
            long need = op == FRAME ? maxCompressedLength(srcLen) : updateBound(op == UPDATE ? srcLen : 0);
            long outCap = dst.isNative() ? dstCap : Math.min(dstCap, need);
            try {
                MemorySegment in = state.scratch.stageInput(src, srcLen);
                MemorySegment out = state.scratch.stagedOutput(dst, outCap);
                long r = invoke(op, in, srcLen, out, outCap, CallKind.REGULAR);
                Scratch.unstage(out, dst, r);
                return r;
            } finally {
                state.scratch.trim();
            }
        }

        private long invoke(Lz4Native.FrameStep op, MemorySegment src, long srcLen, MemorySegment dst, long dstCap,
                            CallKind kind) {
            return Lz4Native.frameStep(op, state.frames, dst, dstCap, src, srcLen, kind);
        }

        private void checkFrameCapacity(long srcLen, long dstCap) {
            long bound = maxCompressedLength(srcLen);
            if (dstCap < bound) {
                throw new Lz4Exception("lz4 frame compress", Lz4Exception.DST_MAX_SIZE_TOO_SMALL,
                        "destination too small: " + Bounds.sizes(srcLen, dstCap) + "; a one-shot frame needs"
                                + " maxCompressedLength(" + srcLen + ") = " + bound + " bytes");
            }
        }

        /** See {@link Lz4FrameCompressor#begin(MemorySegment, long)}. */
        long begin(MemorySegment dst, long contentSize) {
            Bounds.writable(dst);
            if (contentSize < Lz4Frame.UNKNOWN_SIZE) {
                throw new IllegalArgumentException("contentSize must be >= 0 or UNKNOWN_SIZE, got " + contentSize);
            }
            long dstCap = dst.byteSize();
            if (dstCap < Lz4Frame.HEADER_SIZE_MAX) {
                throw new Lz4Exception("lz4 frame begin", Lz4Exception.DST_MAX_SIZE_TOO_SMALL, "destination of " + dstCap
                        + " bytes is smaller than the largest frame header (" + Lz4Frame.HEADER_SIZE_MAX + " bytes)");
            }
            guard.enter();
            try {
                inFrame = false;
                Lz4Native.preferencesContentSize(state.prefs, Math.max(contentSize, 0));
                long r = Lz4Native.compressBegin(state.frames, dst, dstCap);
                if (Lz4Native.isError(r)) {
                    throw Lz4Checks.frameError(r, "lz4 frame begin", "output capacity " + dstCap + " bytes");
                }
                inFrame = true;
                emptyDeclared = contentSize == 0;
                tookInput = false;
                return r;
            } finally {
                guard.exit();
            }
        }

        /** See {@link Lz4FrameCompressor#updateBound(long)}. */
        long updateBound(long srcLen) {
            if (srcLen < 0) {
                throw new IllegalArgumentException("srcLen must be >= 0, got " + srcLen);
            }
            return Lz4Frame.updateBound(srcLen, options);
        }

        /**
         * One step of the frame in progress: {@code update} ({@code src} is the input), {@code flush} or {@code end}
         * ({@code src} is NULL). The work is the input plus the block lz4 may hold buffered.
         */
        private long streamStep(Lz4Native.FrameStep op, String name, MemorySegment src, MemorySegment dst) {
            Bounds.writable(dst);
            Bounds.disjoint(src, dst);
            long srcLen = src.byteSize();
            long dstCap = dst.byteSize();
            checkStreamCapacity(name, srcLen, dstCap);
            guard.enter();
            try {
                requireFrame();
                if (op == END && emptyDeclared && tookInput) { // lz4 checks every other declared size itself
                    inFrame = false;
                    throw new Lz4Exception(name, Lz4Exception.FRAME_SIZE_WRONG, "the frame was begun declaring a"
                            + " content size of 0 bytes but was given input; the frame is abandoned");
                }
                long r = call(op, src, srcLen, dst, dstCap, srcLen + options.blockSize().bytes());
                long n = streamResult(r, name, srcLen, dstCap);
                tookInput |= srcLen > 0;
                if (op == END) {
                    inFrame = false;
                }
                return n;
            } finally {
                guard.exit();
            }
        }

        private void requireFrame() {
            if (!inFrame) {
                throw new IllegalStateException("no LZ4 frame in progress: call begin(dst) first (a failed step or a"
                        + " one-shot compress also ends the frame)");
            }
        }

        private void checkStreamCapacity(String op, long srcLen, long dstCap) {
            long bound = updateBound(srcLen);
            if (dstCap < bound) {
                throw new Lz4Exception(op, Lz4Exception.DST_MAX_SIZE_TOO_SMALL, "destination too small: "
                        + Bounds.sizes(srcLen, dstCap) + "; this step needs updateBound(" + srcLen + ") = " + bound
                        + " bytes");
            }
        }

        private long streamResult(long r, String op, long srcLen, long dstCap) {
            if (Lz4Native.isError(r)) {
                inFrame = false; // lz4 leaves the context undefined after an error
                throw Lz4Checks.frameError(r, op, Bounds.sizes(srcLen, dstCap));
            }
            return r;
        }
    }

    /** The frame options and confinement of an {@link Lz4FrameCompressor}, as {@link Lz4Compressor.Builder}. */
    public static final class Builder extends ContextSettings<Builder> {
        private Lz4Frame.Options options = Lz4Frame.Options.DEFAULT;

        private Builder() {}

        /** @return this builder, writing frames with {@code options} */
        public Builder options(Lz4Frame.Options options) {
            this.options = Objects.requireNonNull(options, "options");
            return this;
        }

        /** @return a new compressor (confined to the calling thread after {@link #confined()}) */
        public Lz4FrameCompressor build() {
            return new Lz4FrameCompressor(options, confinement);
        }
    }
}
