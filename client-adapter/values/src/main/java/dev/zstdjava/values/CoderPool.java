package dev.zstdjava.values;

import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A fixed set of slots holding idle {@link Coder}s. Thread-safe and lock-free; borrowing and returning allocate
 * nothing once the slots are filled. A thread starts looking at the slot its id points to, so threads that run
 * often (Netty event loops) tend to keep their own coder. When every slot is taken a new coder is made, and a coder
 * that finds no free slot on return is closed, as is every coder once the pool is {@linkplain #close() closed}.
 */
final class CoderPool {
    private final CompressionConfig config;
    private final DictionaryLookup dictionaries;
    private final AtomicReferenceArray<Coder> slots;
    private volatile boolean closed;

    CoderPool(CompressionConfig config, DictionaryLookup dictionaries) {
        this.config = config;
        this.dictionaries = dictionaries;
        this.slots = new AtomicReferenceArray<>(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
    }

    Coder acquire() {
        int n = slots.length();
        int start = (int) (Thread.currentThread().threadId() % n);
        for (int i = 0; i < n; i++) {
            int idx = (start + i) % n;
            Coder c = slots.get(idx);
            if (c != null && slots.compareAndSet(idx, c, null)) {
                return c;
            }
        }
        return new Coder(config, dictionaries);
    }

    void release(Coder c) {
        int n = slots.length();
        int start = (int) (Thread.currentThread().threadId() % n);
        for (int i = 0; i < n; i++) {
            int idx = (start + i) % n;
            if (!closed && slots.get(idx) == null && slots.compareAndSet(idx, null, c)) {
                if (closed && slots.compareAndSet(idx, c, null)) { // close() may have emptied the slots before
                    c.close();
                }
                return;
            }
        }
        c.close();
    }

    /**
     * Closes the idle coders, and from now on every coder on its return (calls in flight finish with theirs; later
     * ones make a coder each): the native contexts, and the dictionary digests they reference, are freed now rather
     * than when garbage-collected. Idempotent.
     */
    void close() {
        closed = true; // written before the slots are read: a concurrent release() sees it, or its coder is seen here
        for (int i = 0; i < slots.length(); i++) {
            Coder c = slots.getAndSet(i, null);
            if (c != null) {
                c.close();
            }
        }
    }
}
