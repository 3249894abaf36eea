package dev.zstdjava.values;

import java.util.Collections;
import java.util.Set;
import java.util.WeakHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * A fixed set of slots holding idle {@link Coder}s. Thread-safe and lock-free; borrowing and returning allocate
 * nothing once the slots are filled. A thread starts looking at the slot its id points to, so threads that run
 * often (Netty event loops) tend to keep their own coder. When every slot is taken a new coder is made, and a coder
 * that finds no free slot on return is closed, as is every coder once the pool is {@linkplain #close() closed}.
 * {@link #freeReleasedDictionaries()} frees the coders' decompressors of released dictionaries, an idle coder's at
 * once and a lent one's on its return (never under a call in flight).
 *
 * <p>Every pool that reads dictionaries is also listed, weakly, in {@link #READING}, so that a dictionary a
 * {@link DictionaryManager} evicts to stay within {@link DictionaryManager.Builder#maxLoadedBytes} is freed in every
 * coder that keeps a decompressor of it ({@link #freeReleasedEverywhere()}), whichever lookup reads through that
 * manager (its own compressors', an adaptive compressor's reader over pattern lineages or given managers).
 */
final class CoderPool {
    /** The pools with a dictionary lookup, weakly held (a pool no longer used is not kept); guarded by itself. */
    private static final Set<CoderPool> READING = Collections.newSetFromMap(new WeakHashMap<>());

    private final CompressionConfig config;
    private final DictionaryLookup dictionaries;
    private final AtomicReferenceArray<Coder> slots;
    private volatile boolean closed;
    /** {@link #freeReleasedDictionaries()} calls so far: a coder returned that has seen fewer frees its own first */
    private final AtomicInteger releases = new AtomicInteger();

    CoderPool(CompressionConfig config, DictionaryLookup dictionaries) {
        this.config = config;
        this.dictionaries = dictionaries;
        this.slots = new AtomicReferenceArray<>(Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));
        if (dictionaries != null) {
            synchronized (READING) {
                READING.add(this);
            }
        }
    }

    /**
     * {@link #freeReleasedDictionaries()} in every pool that reads dictionaries: after a manager evicted dictionaries,
     * so that no coder keeps their decompression tables allocated (an idle coder's are freed now, a lent one's when
     * its call returns). On the evicting thread; rare (an eviction), never on a read path.
     */
    static void freeReleasedEverywhere() {
        CoderPool[] pools;
        synchronized (READING) {
            pools = READING.toArray(new CoderPool[0]);
        }
        for (CoderPool p : pools) {
            p.freeReleasedDictionaries();
        }
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
        Coder c = new Coder(config, dictionaries);
        c.releasesSeen = releases.get(); // it holds no decompressor yet
        return c;
    }

    void release(Coder c) {
        int n = slots.length();
        int start = (int) (Thread.currentThread().threadId() % n);
        int seen = releases.get();
        if (c.releasesSeen != seen) { // dictionaries were released while it was lent: this call is over
            c.freeReleasedDictionaries();
            c.releasesSeen = seen;
        }
        for (int i = 0; i < n; i++) {
            int idx = (start + i) % n;
            if (!closed && slots.get(idx) == null && slots.compareAndSet(idx, null, c)) {
                if (closed && slots.compareAndSet(idx, c, null)) { // close() may have emptied the slots before
                    c.close();
                } else if (releases.get() != seen && slots.compareAndSet(idx, c, null)) {
                    release(c); // freeReleasedDictionaries() may have read this slot before: free them here
                }
                return;
            }
        }
        c.close();
    }

    /**
     * Frees the decompressors the coders hold of dictionaries whose digests were released (a lineage of
     * {@link PatternDictionaries} released, its manager closed): an idle coder's now, taken from its slot (so no call
     * uses it meanwhile), and a coder lent out on its return, when the call that holds it is over. A decompressor in
     * use is never freed. The coders keep their other decompressors and contexts. Thread-safe; allocates nothing.
     */
    void freeReleasedDictionaries() {
        releases.incrementAndGet(); // before the slots are read: a coder returned meanwhile sees it, or is seen here
        for (int i = 0; i < slots.length(); i++) {
            Coder c = slots.getAndSet(i, null);
            if (c != null) {
                release(c); // frees them, and puts the coder back
            }
        }
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
