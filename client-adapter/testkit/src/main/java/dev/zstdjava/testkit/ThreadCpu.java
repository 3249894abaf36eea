package dev.zstdjava.testkit;

import java.lang.reflect.Method;

/**
 * CPU time of the current thread, from {@code java.lang.management.ThreadMXBean}, reached reflectively as
 * {@link Allocations} reaches it. A test that asks whether a waiting thread burns CPU measures that thread, not the
 * process: the process's figure also counts the JIT, the GC and every other thread of the test JVM.
 */
public final class ThreadCpu {
    private static final Object THREADS;
    private static final Method CPU;

    static {
        try {
            THREADS = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean").invoke(null);
            Class<?> bean = Class.forName("java.lang.management.ThreadMXBean");
            if (!(boolean) bean.getMethod("isCurrentThreadCpuTimeSupported").invoke(THREADS)) {
                throw new IllegalStateException("this JVM cannot measure the current thread's CPU time");
            }
            CPU = bean.getMethod("getCurrentThreadCpuTime");
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private ThreadCpu() {}

    /** @return nanoseconds of CPU the current thread has used so far */
    public static long nanos() {
        try {
            return (long) CPU.invoke(THREADS);
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }
}
