package dev.zstdjava.zstd;

import dev.zstdjava.internal.Direction;
import dev.zstdjava.internal.Guard;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.Function;

/**
 * What {@link ZstdCompressStream} and {@link ZstdDecompressStream} share: a native context ({@code ZSTD_CCtx} or
 * {@code ZSTD_DCtx}) with the two native positions of {@code ZSTD_*Stream_simpleArgs}, the dictionary it references,
 * the {@link Guard}, and the progress of the last call ({@link #consumed()}, {@link #produced()}).
 */
abstract sealed class ZstdStream implements AutoCloseable permits ZstdCompressStream, ZstdDecompressStream {
    /** Most heap bytes one critical call reads or writes (zstdjava.criticalHeapLimit, at least 4 KiB). */
    static final long HEAP_WINDOW = ZstdNative.HEAP_WINDOW;

    final Native state;
    final Guard guard;
    long consumed;
    long produced;

    /** Native memory of one stream; freed by {@link Guard}. Must not reference the stream. */
    static final class Native implements Runnable {
        final Direction direction;
        final ZstdNative.StreamCursor cursor;
        final MemorySegment ctx;
        /** Two native size_t: output position at 0, input position at 8. */
        final MemorySegment pos = ZstdNative.LIBC.malloc(16);
        final MemorySegment srcPos = pos.asSlice(8);
        /** Staging buffers of a compression stream with workers; NULL until first needed. */
        MemorySegment stageIn = MemorySegment.NULL;
        MemorySegment stageOut = MemorySegment.NULL;
        SharedDict dict;

        Native(Direction direction) {
            MemorySegment c;
            try {
                c = direction == Direction.COMPRESS ? ZstdNative.createCCtx() : ZstdNative.createDCtx();
            } catch (RuntimeException | Error e) {
                ZstdNative.LIBC.free(pos);
                throw e;
            }
            this.direction = direction;
            this.ctx = c;
            this.cursor = new ZstdNative.StreamCursor(c, pos, srcPos);
        }

        /** Abandons the frame in progress ({@code ZSTD_reset_session_only}); parameters and dictionary stay. */
        void resetSession() {
            if (direction == Direction.COMPRESS) {
                ZstdNative.cctxReset(ctx, ZstdNative.ResetDirective.SESSION_ONLY);
            } else {
                ZstdNative.dctxReset(ctx, ZstdNative.ResetDirective.SESSION_ONLY);
            }
        }

        @Override
        public void run() {
            if (direction == Direction.COMPRESS) {
                ZstdNative.freeCCtx(ctx);
            } else {
                ZstdNative.freeDCtx(ctx);
            }
            ZstdNative.LIBC.free(pos);
            ZstdNative.LIBC.free(stageIn);
            ZstdNative.LIBC.free(stageOut);
            SharedDict.release(dict);
        }
    }

    /**
     * @param applyTo sets the parameters on the fresh context and references the dictionary (the records'
     *                {@code applyTo}); if it throws, the context is freed at once
     */
    ZstdStream(Direction direction, String what, Function<MemorySegment, SharedDict> applyTo) {
        this.state = new Native(direction);
        this.guard = new Guard(this, what, state);
        guard.setUp(() -> state.dict = applyTo.apply(state.ctx));
    }

    /** @return bytes of {@code src} the last call read */
    public final long consumed() {
        return consumed;
    }

    /** @return bytes the last call wrote at the start of {@code dst} */
    public final long produced() {
        return produced;
    }

    /**
     * Sets the output and input positions for the next {@code ZSTD_*Stream_simpleArgs} call.
     *
     * @return the output position, to pass to the call ({@code state.srcPos} is the input position)
     */
    final MemorySegment positions(long dstStart, long srcStart) {
        MemorySegment pos = state.pos;
        pos.set(ValueLayout.JAVA_LONG, 0, dstStart);
        pos.set(ValueLayout.JAVA_LONG, 8, srcStart);
        return pos;
    }

    /** After a call started at these positions: records how far it got in {@link #consumed} and {@link #produced}. */
    final void advanced(long srcStart, long dstStart) {
        consumed = state.pos.get(ValueLayout.JAVA_LONG, 8) - srcStart;
        produced = state.pos.get(ValueLayout.JAVA_LONG, 0) - dstStart;
    }

    /** Under the guard: abandons the frame in progress and clears the progress, then {@link #restarted()}. */
    final void restart() {
        guard.enter();
        try {
            state.resetSession();
            consumed = 0;
            produced = 0;
            restarted();
        } finally {
            guard.exit();
        }
    }

    /** Clears what a subclass counts per frame or since creation; runs under the guard. */
    void restarted() {}

    /** @return the end of a critical call's range from {@code start}: at most {@link #HEAP_WINDOW} bytes */
    static long window(long start, long end) {
        return Math.min(end, start + HEAP_WINDOW);
    }

    /** Frees the native context now, or when the call in progress returns. Idempotent. */
    @Override
    public final void close() {
        guard.close();
    }
}
