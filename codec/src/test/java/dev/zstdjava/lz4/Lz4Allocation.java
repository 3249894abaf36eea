package dev.zstdjava.lz4;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.reflect.Method;

/**
 * Heap bytes allocated by the current thread ({@code com.sun.management.ThreadMXBean}, reached reflectively because
 * the tests compile inside the codec module, which does not read {@code java.management}), and native bytes in use
 * by malloc (glibc's {@code mallinfo2}, summed over all arenas): exact measures, unlike the process RSS, which the
 * Java heap moves as well.
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

    /** {@code struct mallinfo2}: ten {@code size_t}; in use = {@code uordblks} (7) + {@code hblkhd} (4). */
    private static final MemoryLayout MALLINFO2 = MemoryLayout.sequenceLayout(10, ValueLayout.JAVA_LONG);
    private static final MethodHandle MALLINFO = Linker.nativeLinker().downcallHandle(
            Linker.nativeLinker().defaultLookup().find("mallinfo2").orElseThrow(
                    () -> new IllegalStateException("mallinfo2 not found: these tests need glibc 2.33 or newer")),
            FunctionDescriptor.of(MemoryLayout.structLayout(MALLINFO2)));

    private Lz4Allocation() {}

    /** @return bytes currently allocated through malloc in this process (all threads, all arenas) */
    static long mallocInUseBytes() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = (MemorySegment) MALLINFO.invokeExact((SegmentAllocator) a);
            return m.getAtIndex(ValueLayout.JAVA_LONG, 7) + m.getAtIndex(ValueLayout.JAVA_LONG, 4);
        } catch (Throwable t) {
            throw new IllegalStateException(t);
        }
    }

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
