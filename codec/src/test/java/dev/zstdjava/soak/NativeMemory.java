package dev.zstdjava.soak;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.SegmentAllocator;
import java.lang.foreign.StructLayout;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * The process's native memory as the C allocator sees it: glibc's {@code mallinfo2()} (bytes in use in every arena
 * plus mmapped chunks), called through FFM; and the resident set size from {@code /proc/self/status} as a coarser
 * second measure. zstd and lz4 allocate their contexts, dictionaries and buffers with {@code malloc}, so a leak in
 * this library shows up as malloc in use.
 *
 * <p>Malloc in use is the whole process's: the JVM's own threads hold memory for a while too (a JIT compilation's
 * arenas, which the JVM's chunk pool keeps up to 5 s after the compilation; a background thread an earlier test left).
 * A test that compares two measures against a margin therefore takes the least over a window of collections
 * ({@link #floor}) or waits until the memory has fallen as far as it expects ({@link #fallTo}): another thread's
 * transient memory is in some samples only, memory that is really held is in every one of them.
 */
public final class NativeMemory {
    /** struct mallinfo2: ten size_t fields; uordblks (index 7) is the bytes in use, hblkhd (index 4) mmapped bytes. */
    private static final StructLayout MALLINFO2 = MemoryLayout.structLayout(
            ValueLayout.JAVA_LONG.withName("arena"), ValueLayout.JAVA_LONG.withName("ordblks"),
            ValueLayout.JAVA_LONG.withName("smblks"), ValueLayout.JAVA_LONG.withName("hblks"),
            ValueLayout.JAVA_LONG.withName("hblkhd"), ValueLayout.JAVA_LONG.withName("usmblks"),
            ValueLayout.JAVA_LONG.withName("fsmblks"), ValueLayout.JAVA_LONG.withName("uordblks"),
            ValueLayout.JAVA_LONG.withName("fordblks"), ValueLayout.JAVA_LONG.withName("keepcost"));
    private static final MethodHandle MALLINFO = Linker.nativeLinker().defaultLookup().find("mallinfo2")
            .map(s -> Linker.nativeLinker().downcallHandle(s, FunctionDescriptor.of(MALLINFO2))).orElse(null);

    private NativeMemory() {}

    /** @return true when glibc's {@code mallinfo2} is available (glibc 2.33 and later) */
    public static boolean hasMallinfo() {
        return MALLINFO != null;
    }

    /** @return bytes allocated with malloc and not yet freed, or empty without glibc's {@code mallinfo2} */
    public static Optional<Long> mallocInUse() {
        if (MALLINFO == null) {
            return Optional.empty();
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment info = (MemorySegment) MALLINFO.invokeExact((SegmentAllocator) arena);
            return Optional.of(info.getAtIndex(ValueLayout.JAVA_LONG, 7) + info.getAtIndex(ValueLayout.JAVA_LONG, 4));
        } catch (Throwable t) {
            throw new IllegalStateException("mallinfo2 failed", t);
        }
    }

    /** @return bytes allocated with malloc and not yet freed; throws without glibc's {@code mallinfo2} */
    public static long inUse() {
        return mallocInUse().orElseThrow(() -> new IllegalStateException("glibc's mallinfo2 (glibc 2.33+) is needed"));
    }

    /**
     * Lets the Cleaner free what the GC found unreachable (contexts an earlier test or operation dropped): collects
     * until malloc in use has not fallen by more than 64 KiB below its least for three collections in a row, at most
     * 10 s, so that a Cleaner slowed by a busy machine is waited for.
     */
    public static void settle() throws InterruptedException {
        long least = inUse();
        for (int i = 0, still = 0; i < 100 && still < 3; i++) {
            System.gc();
            Thread.sleep(100);
            long now = inUse();
            still = now < least - (64 << 10) ? 0 : still + 1;
            least = Math.min(least, now);
        }
    }

    /**
     * @return the least malloc in use over {@code window} of collections, after {@link #settle()}: what other threads
     *         hold for a while does not count; memory the caller holds counts in every sample, so it is in the least
     */
    public static long floor(Duration window) throws InterruptedException {
        settle();
        long least = inUse();
        long end = System.nanoTime() + window.toNanos();
        while (System.nanoTime() < end) {
            System.gc();
            Thread.sleep(100);
            least = Math.min(least, inUse());
        }
        return least;
    }

    /**
     * Collects until malloc in use is at most {@code target}, or {@code deadline} has passed: memory that is to go
     * (freed by a close, or by the Cleaner once a collection found its owner unreachable) is waited for, and another
     * thread's transient memory, which goes on its own, is waited out; memory that stays (a leak) keeps it above.
     *
     * @return the least malloc in use seen: at most {@code target} as soon as it got there, else the least before the
     *         deadline
     */
    public static long fallTo(long target, Duration deadline) throws InterruptedException {
        long least = inUse();
        long end = System.nanoTime() + deadline.toNanos();
        while (least > target && System.nanoTime() < end) {
            System.gc();
            Thread.sleep(100);
            least = Math.min(least, inUse());
        }
        return least;
    }

    /** @return the resident set size in bytes ({@code VmRSS} of {@code /proc/self/status}), or -1 elsewhere */
    public static long rss() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmRSS:")) {
                    return Long.parseLong(line.replaceAll("\\D", "")) * 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }
}
