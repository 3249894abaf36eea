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

    static long currentThreadAllocatedBytes() {
        try {
            return (long) ALLOCATED.invoke(BEAN);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
