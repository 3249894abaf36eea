package dev.zstdjava.internal;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Contexts for the static convenience methods: each platform thread keeps its own, confined to it (no other thread
 * can reach it, so its calls need no fenced instruction: see {@link Guard}); virtual threads borrow shared
 * (guarded) contexts from a small pool (at most four per core kept idle), so a million virtual threads do not make a
 * million native contexts. Nothing blocks: an empty pool makes a new context, a full one closes the returned
 * context. Contexts held by dead platform threads are freed by their {@link Guard}'s Cleaner.
 *
 * @param <T> a context type
 */
public final class ContextCache<T> {
    private static final int POOL_LIMIT = 4 * Runtime.getRuntime().availableProcessors();

    private final Supplier<T> confined;
    private final Supplier<T> factory;
    private final Consumer<T> closer;
    private final ThreadLocal<T> perThread = new ThreadLocal<>();
    private final ConcurrentLinkedQueue<T> pool = new ConcurrentLinkedQueue<>();
    private final AtomicInteger pooled = new AtomicInteger();

    /**
     * @param confined makes a context confined to the calling thread (for a platform thread's own)
     * @param factory  makes a shared context (for the pool of virtual threads)
     * @param closer   closes a context that does not fit the pool
     */
    public ContextCache(Supplier<T> confined, Supplier<T> factory, Consumer<T> closer) {
        this.confined = confined;
        this.factory = factory;
        this.closer = closer;
    }

    /** @return a context for the calling thread; hand it back with {@link #release} */
    public T acquire() {
        if (!Thread.currentThread().isVirtual()) {
            T c = perThread.get();
            if (c == null) {
                c = confined.get();
                perThread.set(c);
            }
            return c;
        }
        T c = pool.poll();
        if (c == null) {
            return factory.get();
        }
        pooled.decrementAndGet();
        return c;
    }

    /**
     * A one-shot call on a borrowed context. Implementations are method references or lambdas that capture nothing,
     * so each is one constant object and a call allocates nothing for it.
     *
     * @param <T> the context type
     */
    @FunctionalInterface
    public interface Call<T> {
        /** @param arg the call's one setting: a level or an output size or limit */
        byte[] apply(T context, byte[] src, int off, int len, long arg);
    }

    /** Borrows a context for the calling thread, runs {@code call} on {@code src[off, off+len)} and hands it back. */
    public byte[] run(Call<T> call, byte[] src, int off, int len, long arg) {
        T c = acquire();
        try {
            return call.apply(c, src, off, len, arg);
        } finally {
            release(c);
        }
    }

    /** Returns a context from {@link #acquire}, on the same thread. */
    public void release(T c) {
        if (Thread.currentThread().isVirtual()) {
            if (pooled.incrementAndGet() <= POOL_LIMIT) {
                pool.offer(c);
            } else {
                pooled.decrementAndGet();
                closer.accept(c);
            }
        }
    }
}
