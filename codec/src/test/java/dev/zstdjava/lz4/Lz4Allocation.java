package dev.zstdjava.lz4;

import java.lang.reflect.Method;

/**
 * Heap bytes allocated by the current thread ({@code com.sun.management.ThreadMXBean}), reached reflectively because
 * the tests compile inside the codec module, which does not read {@code java.management}.
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

    /** @return heap bytes per run of {@code op}, measured after as many warm-up runs (so the JIT has compiled it) */
    static long perCall(Runnable op, int runs) {
        for (int i = 0; i < runs; i++) {
            op.run();
        }
        long before = currentThreadAllocatedBytes();
        for (int i = 0; i < runs; i++) {
            op.run();
        }
        return (currentThreadAllocatedBytes() - before) / runs;
    }

    static long currentThreadAllocatedBytes() {
        try {
            return (long) ALLOCATED.invoke(BEAN);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
