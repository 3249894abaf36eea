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
 * An LZ4 block compressor: one native compression state, initialised once and reused by every call
 * ({@code LZ4_compress_fast_extState_fastReset} or {@code LZ4_compress_HC_extStateHC_fastReset}). Each call writes
 * one raw LZ4 block (no frame, no size header): the caller keeps the decompressed size to decode it.
 *
 * <p><b>Levels</b> (as Valkey GLIDE numbers them): {@code 0} is lz4's default compressor; {@code -1..-128} is the fast
 * compressor with acceleration {@code -level} (faster, larger output); {@code 1..12} is LZ4 HC at that level
 * (slower, smaller output; 1 and 2 are the same "mid" level, 9 is lz4's HC default, 10..12 are optimal parsing).
 *
 * <p><b>Thread safety:</b> one call at a time. A call from a second thread while one runs, or any call after
 * {@link #close()}, throws {@link IllegalStateException}; memory is never freed under a running call. Use one
 * instance per thread, or {@link Lz4}'s static methods, which keep one per thread. A compressor made by
 * {@link Builder#confined()} belongs to the thread that built it: only that thread may call it and close it, and
 * its calls save the atomic instruction that admits one call at a time (any other thread is refused with an
 * {@link IllegalStateException} naming both threads).
 *
 * <p><b>Allocation:</b> the {@link MemorySegment}, caller-destination {@code byte[]} and {@link ByteBuffer} forms
 * allocate nothing on the Java heap, also where the JIT does not inline the call into its caller: arrays of at most
 * {@code zstdjava.heapStagingLimit} bytes (default 4 KiB) are copied through a native buffer of this object, so no
 * view of them exists whatever the JIT decides; the views of larger arrays and of buffers are made next to the native
 * call, where escape analysis removes them (a call staged through buffers
 * larger than the 1 MiB kept between calls allocates their two segment objects, 160 bytes). Heap arrays are read and
 * written in place through critical downcalls, which
 * hold off safepoints (GC) for their length; above {@code zstdjava.criticalHeapLimit} bytes of input (default
 * 1 MiB for the fast levels, a sixteenth of it for HC 1..9, a thirty-second for HC 10..12) heap data is staged
 * through a native buffer of this compressor instead, one copy each way. {@link #compress(byte[])} allocates exactly
 * the returned array: it compresses into that native buffer and copies the block out once. The buffer is kept
 * between calls up to 1 MiB. The state itself
 * ({@code LZ4_sizeofState()} bytes, about 16 KiB, or {@code LZ4_sizeofStateHC()}, about 256 KiB) is allocated when
 * the compressor is created.
 *
 * <p>Close it when done; a compressor that is dropped unclosed is freed by a {@link java.lang.ref.Cleaner}.
 */
public final class Lz4Compressor implements Compressor {
    /** The native state and its calls; a final field of a final class, so each call binds to it directly. */
    private final Core core;

    /** Native memory of one compressor; freed by {@link Guard}. Must not reference the compressor. */
    private static final class Native implements Runnable {
        final Lz4Native.BlockCompression block = new Lz4Native.BlockCompression();
        final Scratch scratch = new Scratch(Lz4Native.LIBC);

        @Override
        public void run() {
            block.free();
            scratch.free();
        }
    }

    private Lz4Compressor(int level, Confinement confinement) {
        this.core = new Core(Lz4.checkLevel(level), new Native(), confinement);
    }

    /** @return a compressor using lz4's default compressor ({@link Lz4#DEFAULT_LEVEL}) */
    public static Lz4Compressor create() {
        return builder().build();
    }

    /**
     * @param level {@code 0} default, {@code -1..-128} fast with acceleration {@code -level}, {@code 1..12} HC
     * @return a compressor at {@code level}
     * @throws IllegalArgumentException if {@code level} is outside {@link Lz4#MIN_LEVEL}..{@link Lz4#MAX_LEVEL}
     */
    public static Lz4Compressor create(int level) {
        return builder().level(level).build();
    }

    /** @return a compressor at the default level confined to the calling thread (for {@link Lz4}'s own) */
    static Lz4Compressor confinedToThisThread() {
        return new Lz4Compressor(Lz4.DEFAULT_LEVEL, Confinement.CONFINED);
    }

    /** @return a builder for a compressor at another level, or confined to the calling thread */
    public static Builder builder() {
        return new Builder();
    }

    /** @return true when only the thread that built this compressor may use it ({@link Builder#confined()}) */
    public boolean isConfined() {
        return core.isConfined();
    }

    /** @return the level this compressor uses */
    public int level() {
        return core.level();
    }

    /** Changes the level of a cached compressor of {@link Lz4}'s static methods; allocates the HC state once. */
    void level(int newLevel) {
        core.level(newLevel);
    }

    /**
     * @return {@link Lz4#maxCompressedLength(int)}: the largest block for {@code srcLen} input bytes
     * @throws IllegalArgumentException if {@code srcLen} is negative or over {@link Lz4#MAX_INPUT_SIZE}
     */
    @Override
    public long maxCompressedLength(long srcLen) {
        if (srcLen < 0 || srcLen > Lz4.MAX_INPUT_SIZE) {
            throw new IllegalArgumentException("srcLen must be 0.." + Lz4.MAX_INPUT_SIZE + " (LZ4_MAX_INPUT_SIZE), got "
                    + srcLen);
        }
        return Lz4.maxCompressedLength((int) srcLen);
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
     * As {@link #compress(MemorySegment, MemorySegment)}, but a block that does not fit in {@code dst} is reported by
     * the result instead of an exception: for "store it compressed only if that is smaller", where not fitting is
     * the expected answer for incompressible data and an exception per value would cost more than compressing it.
     *
     * @return the block's size in bytes, or {@link Compressor#DOES_NOT_FIT} when it does not fit in {@code dst}
     *         (whose content is then unspecified)
     * @throws Lz4Exception             if {@code src} is larger than {@link Lz4#MAX_INPUT_SIZE}
     * @throws IllegalArgumentException if {@code dst} is read-only
     * @throws IllegalStateException    if this compressor is closed or in use by another thread
     */
    public long tryCompress(MemorySegment src, MemorySegment dst) {
        int r = core.compressOrZero(src, dst);
        return r > 0 ? r : DOES_NOT_FIT;
    }

    /**
     * As {@link #tryCompress(MemorySegment, MemorySegment)}, into {@code dst[dstOff, dstOff + dstLen)}: for a block
     * written after a header of the caller's. When the room it may take (the range, or
     * {@link Lz4#maxCompressedLength} of {@code src}, whichever is smaller) is at most 1 MiB, no view of {@code dst} is
     * made: the block is written to this compressor's native buffer and copied into the range (one copy of the
     * block), so the call allocates nothing, whatever the JIT inlines. Above that it goes straight into a view of the
     * range, so a large value does not need its compressed size again in native memory.
     *
     * @return the block's size in bytes, or {@link Compressor#DOES_NOT_FIT} when it does not fit in the destination
     *         range (whose content is then unspecified; {@code dst} outside the range is never written)
     * @throws Lz4Exception              if {@code src} is larger than {@link Lz4#MAX_INPUT_SIZE}
     * @throws IndexOutOfBoundsException if the destination range is not inside {@code dst}
     * @throws IllegalArgumentException  if {@code dst} is read-only
     * @throws IllegalStateException     if this compressor is closed or in use by another thread
     */
    public long tryCompress(MemorySegment src, MemorySegment dst, long dstOff, long dstLen) {
        int r = core.compressOrZeroAt(src, dst, dstOff, dstLen);
        return r > 0 ? r : DOES_NOT_FIT;
    }

    /**
     * As {@link #tryCompress(MemorySegment, MemorySegment)}, from {@code src[srcOff, srcOff + srcLen)} into
     * {@code dst[dstOff, dstOff + dstLen)}: the {@code byte[]} form, which makes no view of the arrays (allocates
     * nothing).
     *
     * @return the block's size in bytes, or {@link Compressor#DOES_NOT_FIT} when it does not fit in the destination
     *         range (whose content is then unspecified)
     * @throws Lz4Exception              if {@code srcLen} is larger than {@link Lz4#MAX_INPUT_SIZE}
     * @throws IndexOutOfBoundsException if a range is not inside its array
     * @throws IllegalStateException     if this compressor is closed or in use by another thread
     */
    public long tryCompress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen) {
        long r = core.arrayResult(src, srcOff, srcLen, dst, dstOff, dstLen);
        return r > 0 ? r : DOES_NOT_FIT;
    }

    /** Frees the native state now, or when the call in progress returns. Idempotent. */
    @Override
    public void close() {
        core.close();
    }

    /** The guarded native state and the native calls of the one-shot forms. */
    private static final class Core extends OneShot.Encoder {
        private final Native state;
        /** Heap inputs above this size are staged through native memory; smaller for the slower HC levels. */
        private long heapLimit;

        Core(int level, Native state, Confinement confinement) {
            super("Lz4Compressor", state, state.scratch, confinement);
            this.state = state;
            state.block.level = level;
            this.heapLimit = Lz4Native.heapLimit(level);
            guard.setUp(state.block::current);
        }

        int level() {
            return state.block.level;
        }

        void level(int newLevel) {
            if (newLevel != state.block.level) {
                Lz4.checkLevel(newLevel);
                guard.enter();
                try {
                    state.block.forLevel(newLevel);
                    state.block.level = newLevel;
                    heapLimit = Lz4Native.heapLimit(newLevel);
                } finally {
                    guard.exit();
                }
            }
        }

        /** @return the block's size, or 0 when it does not fit in {@code dst} */
        int compressOrZero(MemorySegment src, MemorySegment dst) {
            Bounds.writable(dst);
            Bounds.disjoint(src, dst);
            long srcLen = src.byteSize();
            checkInput(srcLen);
            guard.enter();
            try {
                return (int) segments(src, srcLen, dst, dst.byteSize());
            } finally {
                guard.exit();
            }
        }

        /** @return the block's size, or 0 when it does not fit in {@code dst[dstOff, dstOff + dstLen)} */
        int compressOrZeroAt(MemorySegment src, MemorySegment dst, long dstOff, long dstLen) {
            Objects.requireNonNull(src, "src");
            Bounds.range(dst, dstOff, dstLen, "dst");
            Bounds.writable(dst);
            Bounds.disjoint(src, 0, src.byteSize(), dst, dstOff, dstLen);
            long srcSize = src.byteSize();
            checkInput(srcSize);
            guard.enter();
            try {
                int srcLen = (int) srcSize; // checkInput: at most Lz4.MAX_INPUT_SIZE
                int outCap = Math.min(Lz4Checks.capacity(dstLen), Lz4.maxCompressedLength(srcLen));
                if (outCap == 0) {
                    return 0; // no block fits in 0 bytes (the smallest is 1)
                }
                if (outCap > Scratch.KEEP) { // large: straight into a view of the range, no native copy of the block
                    return (int) segments(src, srcSize, dst.asSlice(dstOff, dstLen), dstLen);
                }
                // no view of dst: the block goes to the scratch output buffer and is copied to dst at the offset, and
                // the call gets only segments that exist before it (src, or its staged copy), so nothing is allocated
                MemorySegment out = state.scratch.get(outCap);
                int r;
                if (src.isNative()) {
                    r = run(src, out, srcLen, outCap,
                            srcLen < Lz4Native.CRITICAL_LIMIT ? CallKind.CRITICAL : CallKind.REGULAR);
                } else if (srcLen <= heapLimit) {
                    r = run(src, out, srcLen, outCap, CallKind.CRITICAL);
                } else {
                    r = state.block.restartIfAborted(Lz4Native.compressStaged(state.block,
                            state.scratch.stageInput(src, srcLen), out, srcLen, outCap));
                }
                Scratch.unstage(out, dst, dstOff, r);
                return r;
            } finally {
                state.scratch.trim();
                guard.exit();
            }
        }

        /** The one compression call: in place when possible, staged through native memory for large heap arrays. */
        @Override
        protected long segments(MemorySegment src, long srcSize, MemorySegment dst, long dstCap) {
            int srcLen = (int) srcSize; // checkSizes: at most Lz4.MAX_INPUT_SIZE
            int cap = Lz4Checks.capacity(dstCap);
            if (cap == 0) {
                // no block fits in 0 bytes (the smallest is 1), and liblz4 would compute end pointers past dst, which
                // wrap for an empty segment at the top of the address space (MemorySegment.ofAddress(-8)): no call
                return 0;
            }
            if (src.isNative() && dst.isNative()) {
                return run(src, dst, srcLen, cap, srcLen < Lz4Native.CRITICAL_LIMIT ? CallKind.CRITICAL : CallKind.REGULAR);
            }
            if (srcLen <= heapLimit) {
                return run(src, dst, srcLen, cap, CallKind.CRITICAL);
            }
            int outCap = dst.isNative() ? cap : Math.min(cap, Lz4.maxCompressedLength(srcLen));
            try {
                MemorySegment in = state.scratch.stageInput(src, srcLen);
                MemorySegment out = state.scratch.stagedOutput(dst, outCap);
                int r = run(in, out, srcLen, outCap, CallKind.REGULAR);
                Scratch.unstage(out, dst, r);
                return r;
            } finally {
                state.scratch.trim();
            }
        }

        /**
         * The compression call of the {@code byte[]} forms, on arrays and offsets (no view of them crosses a method
         * boundary, so none is allocated): in place up to {@link #heapLimit}, staged through native memory above it
         * (and always on JDK 21). {@code dst} is null for {@link Lz4Compressor#compress(byte[], int, int)}: the block stays in the
         * scratch buffer.
         */
        @Override
        protected long arrays(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, long dstCapacity) {
            int dstCap = (int) dstCapacity; // an array's length or Lz4.maxCompressedLength
            Lz4Native.BlockCompression block = state.block;
            int r;
            if (srcLen <= heapLimit && !Bounds.small(srcLen, srcLen)) { // in place; small arrays are staged: no views
                r = dst != null
                        ? Lz4Native.compress(block, src, srcOff, dst, dstOff, srcLen, dstCap)
                        : Lz4Native.compress(block, src, srcOff, state.scratch.get(dstCap), srcLen, dstCap);
            } else {
                int outCap = dst == null ? dstCap : Math.min(dstCap, Lz4.maxCompressedLength(srcLen));
                MemorySegment in = state.scratch.stage(src, srcOff, srcLen);
                MemorySegment out = state.scratch.get(outCap);
                r = Lz4Native.compressStaged(block, in, out, srcLen, outCap);
                if (dst != null) {
                    Scratch.unstage(out, dst, dstOff, r);
                }
            }
            return block.restartIfAborted(r);
        }

        /** One compression call on segments at the current level. */
        private int run(MemorySegment src, MemorySegment dst, int srcLen, int dstCap, CallKind kind) {
            Lz4Native.BlockCompression block = state.block;
            int l = block.level;
            MemorySegment s = block.current();
            int r = l > 0
                    ? Lz4Native.compressHC(s, src, dst, srcLen, dstCap, l, kind)
                    : Lz4Native.compressFast(s, src, dst, srcLen, dstCap, l < 0 ? -l : 1, kind);
            return block.restartIfAborted(r);
        }

        @Override
        protected void checkSizes(long srcLen, long dstCap) {
            checkInput(srcLen);
        }

        @Override
        protected long capacity(int srcLen) {
            checkInput(srcLen);
            return Lz4.maxCompressedLength(srcLen);
        }

        @Override
        protected long direct(ByteBuffer src, ByteBuffer dst) {
            return state.block.restartIfAborted(Lz4Native.compress(state.block, src, dst));
        }

        @Override
        protected boolean failed(long r) {
            return r <= 0;
        }

        @Override
        protected RuntimeException error(long r, MemorySegment src, long dstCap) {
            return tooSmall(src.byteSize(), dstCap);
        }

        private static void checkInput(long srcLen) {
            if (srcLen > Lz4.MAX_INPUT_SIZE) {
                throw new Lz4Exception("lz4 compress", Lz4Exception.NO_FRAME_CODE, "input of " + srcLen + " bytes exceeds the lz4 block limit of "
                        + Lz4.MAX_INPUT_SIZE + " bytes (LZ4_MAX_INPUT_SIZE); split it or use Lz4Frame");
            }
        }

        private static Lz4Exception tooSmall(long srcLen, long dstCap) {
            return new Lz4Exception("lz4 compress", Lz4Exception.NO_FRAME_CODE, "destination too small: " + Bounds.sizes(srcLen, dstCap)
                    + "; Lz4.maxCompressedLength(" + srcLen + ") = " + Lz4.maxCompressedLength((int) srcLen)
                    + " bytes always suffice");
        }
    }

    /**
     * The level and confinement of an {@link Lz4Compressor}, set one at a time and checked as they are set, as
     * {@link dev.zstdjava.zstd.ZstdCompressor.Builder}.
     */
    public static final class Builder extends ContextSettings<Builder> {
        private int level = Lz4.DEFAULT_LEVEL;

        private Builder() {}

        /**
         * @param level {@code 0} default, {@code -1..-128} fast with acceleration {@code -level}, {@code 1..12} HC
         * @return this builder
         * @throws IllegalArgumentException if {@code level} is outside {@link Lz4#MIN_LEVEL}..{@link Lz4#MAX_LEVEL}
         */
        public Builder level(int level) {
            this.level = Lz4.checkLevel(level);
            return this;
        }

        /** @return a new compressor (confined to the calling thread after {@link #confined()}) */
        public Lz4Compressor build() {
            return new Lz4Compressor(level, confinement);
        }
    }
}
