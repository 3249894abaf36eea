package dev.zstdjava.lz4;

import java.lang.reflect.Method;

/**
 * Heap bytes allocated by the current thread ({@code com.sun.management.ThreadMXBean}, reached reflectively because
 * the tests compile inside the codec module, which does not read {@code java.management}): an exact measure, unlike
 * the process RSS. Native bytes in use by malloc are {@link dev.zstdjava.soak.NativeMemory}'s.
 */
final class Lz4Allocation {
    private static final Object BEAN;
    private static final Method ALLOCATED;

    static {
        try {
            BEAN = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            ALLOCATED = Class.forName("com.sun.management.ThreadMXBean").getMethod("getCurrentThreadAllocatedBytes");
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Lz4Allocation() {}

    /**
     * @return heap bytes per run of {@code op}, measured after as many warm-up runs (so the JIT has compiled it): the
     *         least of three measured rounds, since a round during which the JIT is still compiling (late on a busy
     *         machine) counts the interpreted calls' allocation too
     */
    static long perCall(Runnable op, int runs) {
        for (int i = 0; i < runs; i++) {
            op.run();
        }
        long least = Long.MAX_VALUE;
        for (int round = 0; round < 3; round++) {
            long before = currentThreadAllocatedBytes();
            for (int i = 0; i < runs; i++) {
                op.run();
            }
            least = Math.min(least, (currentThreadAllocatedBytes() - before) / runs);
        }
        return least;
    }

    static long currentThreadAllocatedBytes() {
        try {
            return (long) ALLOCATED.invoke(BEAN);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
