package dev.zstdjava.testkit;

import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;
import java.util.function.IntSupplier;

/**
 * Heap bytes allocated per call, for the allocation tests of the values and Lettuce modules: the current thread's
 * count ({@link #bytesPerCall}) or the sum over every live thread ({@link #allThreadsBytesPerCall}), from
 * {@code com.sun.management.ThreadMXBean}, reached reflectively (test code compiled inside a module that does not
 * read {@code java.management} can use it).
 */
public final class Allocations {
    private static final Object THREADS;
    private static final Method ALLOCATED;
    private static final Method ALL_ALLOCATED;
    private static final Method ALL_IDS;

    static {
        try {
            THREADS = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            ALLOCATED = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
            ALL_ALLOCATED = Class.forName("com.sun.management.ThreadMXBean").getMethod("getThreadAllocatedBytes",
                    long[].class);
            ALL_IDS = Class.forName("java.lang.management.ThreadMXBean").getMethod("getAllThreadIds");
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Allocations() {}

    /** @return heap bytes the current thread has allocated so far */
    public static long allocated() {
        try {
            return (long) ALLOCATED.invoke(THREADS);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @return heap bytes per call of {@code call} on this thread (rounded down), measured after a warm-up of as many
     *         calls: the least of three measured rounds, as the codec's allocation tests measure. An allocation made by
     *         every call shows in every round (at least 16 bytes per call); a one-off of the JIT (a late compile or a
     *         deoptimization on a busy machine) or of the measuring call itself in one round only, and the measuring
     *         call's own few bytes divide to 0
     */
    public static long bytesPerCall(int calls, IntSupplier call) {
        long sink = 0;
        for (int i = 0; i < calls; i++) {
            sink += call.getAsInt();
        }
        long least = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long before = allocated();
            for (int i = 0; i < calls; i++) {
                sink += call.getAsInt();
            }
            least = Math.min(least, (allocated() - before) / calls);
        }
        consume(sink);
        return least;
    }

    /**
     * @return the heap bytes of a {@code byte[length]}: its 16-byte header (the default object layout: compressed
     *         class pointers) and its elements, rounded up to 8 bytes, as the codec's allocation tests count it
     */
    public static long arrayBytes(int length) {
        return (16L + length + 7) & ~7L;
    }

    /**
     * @return heap bytes per call of {@code call} summed over the threads, after a warm-up of as many calls: the growth
     *         of each thread alive after the measured calls ({@link #allocatedSince}), divided by the calls
     */
    public static long allThreadsBytesPerCall(int calls, IntSupplier call) {
        long sink = 0;
        for (int i = 0; i < calls; i++) {
            sink += call.getAsInt();
        }
        Map<Long, Long> before = allocatedByThread();
        for (int i = 0; i < calls; i++) {
            sink += call.getAsInt();
        }
        long per = allocatedSince(before) / calls;
        consume(sink);
        return per;
    }

    /** @return the heap bytes each live thread has allocated so far, by thread id */
    public static Map<Long, Long> allocatedByThread() {
        try {
            long[] ids = (long[]) ALL_IDS.invoke(THREADS);
            long[] bytes = (long[]) ALL_ALLOCATED.invoke(THREADS, (Object) ids);
            Map<Long, Long> byThread = new HashMap<>(2 * ids.length);
            for (int i = 0; i < ids.length; i++) {
                if (bytes[i] >= 0) { // -1: the thread ended between the two calls, or is not measured
                    byThread.put(ids[i], bytes[i]);
                }
            }
            return byThread;
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * @return the heap bytes allocated since {@code before} ({@link #allocatedByThread}) by the threads alive now, a
     *         thread started meanwhile counted from 0. A thread that ended meanwhile is missed: its bytes are never
     *         subtracted, so the figure cannot fall below 0 when a pool retires a thread during the measurement
     */
    public static long allocatedSince(Map<Long, Long> before) {
        long sum = 0;
        for (Map.Entry<Long, Long> now : allocatedByThread().entrySet()) {
            sum += Math.max(0, now.getValue() - before.getOrDefault(now.getKey(), 0L));
        }
        return sum;
    }

    private static volatile long consumed;

    // keeps the calls' results alive, so the JIT cannot drop the calls
    private static void consume(long sink) {
        consumed = sink;
    }
}
