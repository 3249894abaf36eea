package dev.zstdjava.lettuce;

import io.netty.buffer.AbstractByteBufAllocator;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.UnpooledHeapByteBuf;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The buffers a command is encoded into on its dispatching thread ({@link EncodedCommand}'s constructor): heap
 * buffers over arrays kept from earlier commands. Lettuce's {@code CommandArgs} takes its scratch buffer for each
 * value from the target's allocator, so the command, that scratch and the delegate codec's plain encoding all come
 * from here: no
 * pooled Netty chunk (whose reference count every thread of the process updates, the event loop included) is touched,
 * no array is zeroed per command once warm, and the codec compresses from the value's array straight into the scratch
 * buffer's array.
 *
 * <p>The arrays sit in a small pool of {@link Spares}, one set per encoding thread at a time
 * ({@link #acquire}/{@link #release} around the encoding), so platform and virtual threads alike reuse them. A buffer
 * must be released by the encoding that allocated it (both hold for {@link EncodedCommand} and
 * Lettuce's scratch buffers); one never released leaves its array to the garbage collector. Kept: at most
 * {@link Spares#MAX_KEPT_ARRAY} bytes an array, three arrays a set, two sets a CPU. A value whose plain encoding may
 * be larger than that is encoded into direct memory first ({@link #plainBuffer}), as Lettuce encodes it, so a large
 * value costs the heap its stored form only. Thread-safe.
 */
final class EncodeBuffers extends AbstractByteBufAllocator {
    /** The allocator; heap buffers only. */
    static final ByteBufAllocator ALLOCATOR = new EncodeBuffers();

    /** Slot {@code i * STRIDE}: sets taken by different threads sit on different cache lines. */
    private static final int STRIDE = 16;
    private static final int SLOTS = Math.max(4, 2 * Runtime.getRuntime().availableProcessors());
    private static final AtomicReferenceArray<Spares> POOL = new AtomicReferenceArray<>(SLOTS * STRIDE);

    private EncodeBuffers() {
        super(false);
    }

    /** @return a set of arrays for one encoding on this thread: a pooled one, else a new, empty one */
    static Spares acquire() {
        int start = (int) (Thread.currentThread().threadId() % SLOTS);
        for (int i = 0; i < SLOTS; i++) {
            int idx = ((start + i) % SLOTS) * STRIDE;
            Spares s = POOL.get(idx);
            if (s != null && POOL.compareAndSet(idx, s, null)) {
                return s;
            }
        }
        return new Spares();
    }

    /** Returns {@code spares} to the pool (dropped when the pool is full). */
    static void release(Spares spares) {
        int start = (int) (Thread.currentThread().threadId() % SLOTS);
        for (int i = 0; i < SLOTS; i++) {
            int idx = ((start + i) % SLOTS) * STRIDE;
            if (POOL.get(idx) == null && POOL.compareAndSet(idx, null, spares)) {
                return;
            }
        }
    }

    /**
     * @param capacity the length of the array a command was encoded into
     * @param length   the command's length
     * @return whether the command keeps that array rather than a copy: an array this pool would not keep anyway
     *         (larger than {@link Spares#MAX_KEPT_ARRAY}), at most a quarter of it unused
     */
    static boolean keepsAsIs(int capacity, int length) {
        return capacity > Spares.MAX_KEPT_ARRAY && capacity - length <= length >>> 2;
    }

    /**
     * The buffer a value's plain encoding goes into before it is compressed (release it after use).
     * @param alloc    the encoding's allocator (this one, on the dispatching thread)
     * @param estimate the delegate codec's estimate of the plain encoding's size (for {@code StringCodec}, 3 bytes a
     *                 character)
     * @return a heap buffer of {@code alloc} up to {@link Spares#MAX_KEPT_ARRAY} bytes; above, a direct buffer of
     *         Netty's default allocator, which is what Lettuce encodes the same value into without compression
     *         (direct memory, bounded by {@code MaxDirectMemorySize}), so a large value's estimate never becomes a
     *         heap array
     */
    static ByteBuf plainBuffer(ByteBufAllocator alloc, int estimate) {
        return estimate > Spares.MAX_KEPT_ARRAY ? ByteBufAllocator.DEFAULT.directBuffer(estimate)
                : alloc.buffer(Math.max(16, estimate));
    }

    @Override
    protected ByteBuf newHeapBuffer(int initialCapacity, int maxCapacity) {
        return new Buffer(this, initialCapacity, maxCapacity);
    }

    @Override
    protected ByteBuf newDirectBuffer(int initialCapacity, int maxCapacity) {
        return newHeapBuffer(initialCapacity, maxCapacity); // encoding needs no native memory
    }

    @Override
    public boolean isDirectBufferPooled() {
        return false;
    }

    /**
     * Arrays of released buffers, kept for the next encoding: as many as one command holds at once (the command,
     * Lettuce's scratch buffer for a value, the delegate codec's plain encoding of it). Used by one thread at a time.
     */
    static final class Spares {
        /** The largest array kept; a larger value's buffers are allocated and dropped each time. */
        static final int MAX_KEPT_ARRAY = 64 * 1024;

        private final byte[][] arrays = new byte[3][];

        /** @return an array of at least {@code length} bytes: the smallest kept one that fits, else a new one */
        byte[] take(int length) {
            int best = -1;
            for (int i = 0; i < arrays.length; i++) {
                byte[] a = arrays[i];
                if (a != null && a.length >= length && (best < 0 || a.length < arrays[best].length)) {
                    best = i;
                }
            }
            if (best < 0) {
                return new byte[length];
            }
            byte[] a = arrays[best];
            arrays[best] = null;
            return a;
        }

        /** Keeps {@code array} of a released buffer, in a free place or in place of a smaller one. */
        void give(byte[] array) {
            if (array.length > MAX_KEPT_ARRAY) {
                return;
            }
            int smallest = 0;
            for (int i = 0; i < arrays.length; i++) {
                if (arrays[i] == null) {
                    arrays[i] = array;
                    return;
                }
                if (arrays[i].length < arrays[smallest].length) {
                    smallest = i;
                }
            }
            if (array.length > arrays[smallest].length) {
                arrays[smallest] = array;
            }
        }
    }

    /** A heap buffer whose arrays come from, and go back to, the encoding thread's {@link Spares}. */
    private static final class Buffer extends UnpooledHeapByteBuf {
        Buffer(ByteBufAllocator alloc, int initialCapacity, int maxCapacity) {
            super(alloc, initialCapacity, maxCapacity);
        }

        @Override
        protected byte[] allocateArray(int initialCapacity) {
            Spares s = PolicyScope.current().spares;
            return s != null ? s.take(initialCapacity) : new byte[initialCapacity];
        }

        @Override
        protected void freeArray(byte[] array) {
            Spares s = PolicyScope.current().spares;
            if (s != null) {
                s.give(array);
            }
        }
    }
}
