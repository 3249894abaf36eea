package dev.zstdjava.zstd;

import dev.zstdjava.Compressor;
import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.Confinement;
import dev.zstdjava.internal.Direction;
import dev.zstdjava.internal.Guard;
import dev.zstdjava.internal.OneShot;
import dev.zstdjava.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A zstd compressor: one native {@code ZSTD_CCtx} with fixed parameters, reused by every call. Each call writes one
 * complete zstd frame.
 *
 * <p><b>Thread safety:</b> one call at a time. A call from a second thread while one runs, or any call after
 * {@link #close()}, throws {@link IllegalStateException}; memory is never freed under a running call. Use one
 * instance per thread, or {@link Zstd}'s static methods, which keep one per thread. Admitting one call at a time
 * costs one atomic instruction per call; a compressor built with {@link Builder#confined()} belongs to the thread
 * that built it and costs none (only that thread may call it and close it; any other thread is refused with an
 * {@link IllegalStateException}).
 *
 * <p><b>Allocation:</b> the {@link MemorySegment}, caller-destination {@code byte[]} and {@link ByteBuffer} forms
 * allocate nothing on the Java heap, also where the JIT does not inline the call into its caller: arrays of at most
 * {@code zstdjava.heapStagingLimit} bytes (default 4 KiB) are copied through a native buffer of this object, so no
 * view of them exists whatever the JIT decides; the views of larger arrays and of buffers are made next to the native
 * call, where escape analysis removes them (a call staged through buffers
 * larger than the 1 MiB kept between calls allocates their two segment objects, 160 bytes). Heap arrays are read and
 * written in place through critical downcalls, which hold off safepoints (GC) for their length; above
 * {@code zstdjava.criticalHeapLimit} bytes of input (default 1 MiB at levels up to 5, a quarter of it up to level
 * 12, a sixteenth above) heap data is staged through a native buffer of this compressor instead, one copy each way.
 * {@link #compress(byte[])} allocates exactly the returned array: it compresses into the native buffer and copies the
 * frame out once. The buffer is kept between calls up to 1 MiB.
 *
 * <p>Close it when done; a compressor that is dropped unclosed is freed by a {@link java.lang.ref.Cleaner}.
 */
public final class ZstdCompressor implements Compressor {
    /** The context and its calls; a final field of a final class, so each call binds to it directly. */
    private final Core core;

    private ZstdCompressor(ZstdCompressionParameters p, Confinement confinement) {
        this.core = new Core(new Native(), p, confinement);
    }

    /** Native memory of one compressor; freed by {@link Guard}. Must not reference the compressor. */
    private static final class Native implements Runnable {
        final MemorySegment cctx = ZstdNative.createCCtx();
        final Scratch scratch = new Scratch(ZstdNative.LIBC);
        final OneShotCalls calls = new OneShotCalls(cctx, scratch, 0);
        SharedDict dict;

        @Override
        public void run() {
            ZstdNative.freeCCtx(cctx);
            scratch.free();
            SharedDict.release(dict);
        }
    }

    /** @return a compressor at zstd's default level ({@link Zstd#DEFAULT_LEVEL}) */
    public static ZstdCompressor create() {
        return builder().build();
    }

    /** @return a compressor at {@code level} ({@link Zstd#MIN_LEVEL}..{@link Zstd#MAX_LEVEL}; negative is faster) */
    public static ZstdCompressor create(int level) {
        return builder().level(level).build();
    }

    /** @return a compressor with these parameters */
    public static ZstdCompressor create(ZstdCompressionParameters parameters) {
        return new ZstdCompressor(Objects.requireNonNull(parameters, "parameters"), Confinement.SHARED);
    }

    /** @return a compressor at the default level confined to the calling thread (for {@link Zstd}'s own) */
    static ZstdCompressor confinedToThisThread() {
        return new ZstdCompressor(ZstdCompressionParameters.defaults(), Confinement.CONFINED);
    }

    /** @return true when only the thread that built this compressor may use it ({@link Builder#confined()}) */
    public boolean isConfined() {
        return core.isConfined();
    }

    /** @return a builder for a compressor with other parameters */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the compression level this compressor uses */
    public int level() {
        return core.level;
    }

    /** Sets the level on a cached compressor of {@link Zstd}'s static methods; one native call when it changes. */
    void level(int newLevel) {
        core.level(newLevel);
    }

    /** @return {@link Zstd#compressBound(long)}: the largest frame for {@code srcLen} input bytes */
    @Override
    public long maxCompressedLength(long srcLen) {
        return Zstd.compressBound(srcLen);
    }

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

    /**
     * As {@link #compress(MemorySegment, MemorySegment)}, but a frame that does not fit in {@code dst} is reported by
     * the result instead of an exception: for "store it compressed only if that is smaller", where not fitting is
     * the expected answer for incompressible data and an exception per value would cost more than compressing it.
     *
     * <p>zstd may need a few bytes more room than the finished frame takes, so a {@code dst} of exactly the frame's
     * size can give {@link Compressor#DOES_NOT_FIT}; {@link Zstd#compressBound(long)} bytes always suffice.
     *
     * @return the frame's size in bytes, or {@link Compressor#DOES_NOT_FIT} when it does not fit in {@code dst}
     *         (whose content is then unspecified)
     * @throws ZstdException            if zstd fails for any other reason
     * @throws IllegalArgumentException if {@code dst} is read-only
     * @throws IllegalStateException    if this compressor is closed or in use by another thread
     */
    public long tryCompress(MemorySegment src, MemorySegment dst) {
        long r = core.compressOrError(src, dst);
        if (ZstdNative.isError(r)) {
            if (-r == ZstdException.DST_SIZE_TOO_SMALL) {
                return DOES_NOT_FIT;
            }
            throw Checks.error(r, "zstd compress", Bounds.sizes(src.byteSize(), dst.byteSize()));
        }
        return r;
    }

    /**
     * As {@link #tryCompress(MemorySegment, MemorySegment)}, into {@code dst[dstOff, dstOff + dstLen)}: for a frame
     * written after a header of the caller's. When the room it may take (the range, or
     * {@link Zstd#compressBound} of {@code src}, whichever is smaller) is at most 1 MiB, no view of {@code dst} is
     * made: the frame is written to this compressor's native buffer and copied into the range (one copy of the
     * frame), so the call allocates nothing, whatever the JIT inlines. Above that it goes straight into a view of the
     * range, so a large value does not need its compressed size again in native memory.
     *
     * @return the frame's size in bytes, or {@link Compressor#DOES_NOT_FIT} when it does not fit in the destination
     *         range (whose content is then unspecified; {@code dst} outside the range is never written)
     * @throws ZstdException             if zstd fails for any other reason
     * @throws IndexOutOfBoundsException if the destination range is not inside {@code dst}
     * @throws IllegalArgumentException  if {@code dst} is read-only
     * @throws IllegalStateException     if this compressor is closed or in use by another thread
     */
    public long tryCompress(MemorySegment src, MemorySegment dst, long dstOff, long dstLen) {
        long r = core.compressOrErrorAt(src, dst, dstOff, dstLen);
        if (ZstdNative.isError(r)) {
            if (-r == ZstdException.DST_SIZE_TOO_SMALL) {
                return DOES_NOT_FIT;
            }
            throw Checks.error(r, "zstd compress", Bounds.sizes(src.byteSize(), dstLen));
        }
        return r;
    }

    /**
     * As {@link #tryCompress(MemorySegment, MemorySegment)}, from {@code src[srcOff, srcOff + srcLen)} into
     * {@code dst[dstOff, dstOff + dstLen)}: the {@code byte[]} form, which makes no view of the arrays (allocates
     * nothing).
     *
     * @return the frame's size in bytes, or {@link Compressor#DOES_NOT_FIT} when it does not fit in the destination
     *         range (whose content is then unspecified)
     * @throws ZstdException             if zstd fails for any other reason
     * @throws IndexOutOfBoundsException if a range is not inside its array
     * @throws IllegalStateException     if this compressor is closed or in use by another thread
     */
    public long tryCompress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen) {
        long r = core.arrayResult(src, srcOff, srcLen, dst, dstOff, dstLen);
        if (ZstdNative.isError(r)) {
            if (-r == ZstdException.DST_SIZE_TOO_SMALL) {
                return DOES_NOT_FIT;
            }
            throw Checks.error(r, "zstd compress", Bounds.sizes(srcLen, dstLen));
        }
        return r;
    }

    /** Frees the native context now, or when the call in progress returns. Idempotent. */
    @Override
    public void close() {
        core.close();
    }

    /** The guarded context and the native calls of the one-shot forms. */
    private static final class Core extends OneShot.Encoder {
        private final Native state;
        int level;

        Core(Native state, ZstdCompressionParameters p, Confinement confinement) {
            super("ZstdCompressor", state, state.scratch, confinement);
            this.state = state;
            this.level = p.level();
            state.calls.heapLimit = heapLimit(p.level());
            guard.setUp(() -> state.dict = p.applyTo(state.cctx));
        }

        void level(int newLevel) {
            if (newLevel != level) {
                guard.enter();
                try {
                    Checks.setParameter(state.cctx, ZstdNative.C_COMPRESSION_LEVEL, newLevel, "level");
                    level = newLevel;
                    state.calls.heapLimit = heapLimit(newLevel);
                } finally {
                    guard.exit();
                }
            }
        }

        /** Heap inputs above this size are staged through native memory; smaller for slower (higher) levels. */
        private static long heapLimit(int level) {
            return ZstdNative.HEAP_CRITICAL_LIMIT >> (level <= 5 ? 0 : level <= 12 ? 2 : 4);
        }

        /** @return the frame's size or a zstd error result */
        long compressOrError(MemorySegment src, MemorySegment dst) {
            Bounds.writable(dst);
            Bounds.disjoint(src, dst);
            guard.enter();
            try {
                return segments(src, src.byteSize(), dst, dst.byteSize());
            } finally {
                guard.exit();
            }
        }

        /** @return the frame's size or a zstd error result, written to {@code dst[dstOff, dstOff + dstLen)} */
        long compressOrErrorAt(MemorySegment src, MemorySegment dst, long dstOff, long dstLen) {
            Objects.requireNonNull(src, "src");
            Bounds.range(dst, dstOff, dstLen, "dst");
            Bounds.writable(dst);
            Bounds.disjoint(src, 0, src.byteSize(), dst, dstOff, dstLen);
            guard.enter();
            try {
                return state.calls.compressAt(src, src.byteSize(), dst, dstOff, dstLen);
            } finally {
                state.scratch.trim();
                guard.exit();
            }
        }

        /** The one compression call: in place when possible, staged through native memory for large heap arrays. */
        @Override
        protected long segments(MemorySegment src, long srcLen, MemorySegment dst, long dstCap) {
            return state.calls.segments(Direction.COMPRESS, src, srcLen, dst, dstCap);
        }

        /**
         * The compression call of the {@code byte[]} forms, on arrays and offsets (no view of them crosses a method
         * boundary, so none is allocated): in place up to {@link #heapLimit(int)}, staged through native memory above
         * it (and always on JDK 21). {@code dst} is null for {@link ZstdCompressor#compress(byte[], int, int)}: the
         * frame stays in the scratch buffer.
         */
        @Override
        protected long arrays(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, long dstCap) {
            return state.calls.arrays(Direction.COMPRESS, src, srcOff, srcLen, dst, dstOff, dstCap);
        }

        @Override
        protected void checkSizes(long srcLen, long dstCap) {
            // zstd takes any size and reports a destination too small itself
        }

        @Override
        protected long capacity(int srcLen) {
            return Zstd.compressBound(srcLen);
        }

        @Override
        protected long direct(ByteBuffer src, ByteBuffer dst) {
            return ZstdNative.compressDirect(state.cctx, dst, src);
        }

        @Override
        protected RuntimeException error(long r, MemorySegment src, long dstCap) {
            return Checks.error(r, "zstd compress", Bounds.sizes(src.byteSize(), dstCap));
        }
    }

    /**
     * Parameters of a {@link ZstdCompressor}, set one at a time and checked as they are set; each option is
     * described on {@link ZstdCompressionParameters}.
     */
    public static final class Builder extends CompressionSetters<Builder> {
        private Confinement confinement = Confinement.SHARED;

        private Builder() {}

        /**
         * The compressor will belong to the thread that calls {@link #build()}, as FFM's confined arenas do: only
         * that thread may call it and close it, and each call saves the atomic instruction that admits one call at a
         * time (a plain read of the owner thread instead). A call or close from any other thread throws
         * {@link IllegalStateException} naming both threads and changes nothing. A confined compressor that becomes
         * unreachable unclosed is freed by a {@link java.lang.ref.Cleaner}, as any other.
         *
         * @return this builder
         */
        public Builder confined() {
            this.confinement = Confinement.CONFINED;
            return this;
        }

        /** @return a new compressor with these parameters (confined to the calling thread after {@link #confined()}) */
        public ZstdCompressor build() {
            return new ZstdCompressor(toParameters(), confinement);
        }
    }
}
