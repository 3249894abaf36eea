package dev.zstdjava.bench.e2e;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.lang.management.ThreadInfo;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * CPU time and heap allocation of a client's Netty event-loop threads, found by thread name: what a client costs the
 * threads that every caller of a connection shares. A {@link Snapshot} before and after a phase gives the phase's
 * {@link Usage}; divided by the commands it is the "event-loop CPU per command" of the reports.
 *
 * <p>Threads are matched by the names the clients give them: Lettuce's {@code DefaultEventLoopGroupProvider} names its
 * I/O threads {@code lettuce-nioEventLoop-P-T} (or {@code epoll}, {@code kqueue}, {@code io_uring}; its
 * {@code lettuce-eventExecutorLoop} computation threads and {@code lettuce-timer} are not event loops), Redisson's
 * {@code ServiceManager} names them {@code redisson-netty-P-T}. Every matching thread of the process counts, so a
 * phase must be the only work of that client library while it is measured (the tools run one client at a time).
 * Java GLIDE has no Java event loop: its requests go to the Rust core through JNI, its I/O (and its compression)
 * runs on native Tokio threads ({@code glide-worker}) and its replies reach Java on native callback threads
 * ({@code glide-jni-callback}); on Linux those are read from {@code /proc/self/task} (their name, truncated to 15
 * characters, and the CPU time in {@code schedstat}), and their allocation is not measured (native).
 *
 * <p>A thread that starts during the phase counts from zero; one that ends during it counts nothing of the phase
 * (the JVM no longer reports it). Not thread-safe; allocates per snapshot, never during a phase.
 */
final class EventLoopThreads {
    private static final com.sun.management.ThreadMXBean THREADS =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private EventLoopThreads() {}

    /** Which client's event-loop threads, by name; {@code pattern} null where there are none to measure. */
    enum Family {
        LETTUCE(Pattern.compile("lettuce-(nio|epoll|kqueue|io_uring)EventLoop-\\d+-\\d+"),
                "Lettuce's Netty event-loop threads (lettuce-nioEventLoop-*, lettuce-epollEventLoop-*, ...)"),
        REDISSON(Pattern.compile("redisson-netty-\\d+-\\d+"), "Redisson's Netty threads (redisson-netty-*)"),
        GLIDE(Pattern.compile("glide-worker.*|glide-jni-callb.*"), "its native Tokio worker and JNI callback "
                + "threads (glide-worker, glide-jni-callback; CPU time from /proc/self/task, Linux only, no "
                + "allocation figure)", true),
        NONE(null, "none: the client has no event loop (blocking I/O on the calling thread)");

        final Pattern pattern;
        final String description;
        /** native threads, found in /proc/self/task rather than by the JVM */
        final boolean proc;

        Family(Pattern pattern, String description) {
            this(pattern, description, false);
        }

        Family(Pattern pattern, String description, boolean proc) {
            this.pattern = pattern;
            this.description = description;
            this.proc = proc;
        }

        boolean measured() {
            return pattern != null && (proc ? Files.isDirectory(TASKS) : supported());
        }
    }

    private static final Path TASKS = Path.of("/proc/self/task");

    /** @return whether the JVM measures per-thread CPU time and allocation (it then turns both on) */
    static boolean supported() {
        if (!THREADS.isThreadCpuTimeSupported() || !THREADS.isThreadAllocatedMemorySupported()) {
            return false;
        }
        if (!THREADS.isThreadCpuTimeEnabled()) {
            THREADS.setThreadCpuTimeEnabled(true);
        }
        if (!THREADS.isThreadAllocatedMemoryEnabled()) {
            THREADS.setThreadAllocatedMemoryEnabled(true);
        }
        return true;
    }

    /** Per thread id: {CPU nanoseconds, bytes allocated} at one instant. */
    record Snapshot(Map<Long, long[]> threads) {}

    /**
     * What the matched threads used between two snapshots.
     *
     * @param cpuNanos   CPU time (user + system) of the threads
     * @param allocBytes heap bytes the threads allocated
     * @param threads    threads seen in the second snapshot
     */
    record Usage(long cpuNanos, long allocBytes, int threads) {
        /** Not measured (no such threads for the client, or the JVM cannot measure them). */
        static final Usage NONE = new Usage(-1, -1, 0);

        boolean measured() {
            return cpuNanos >= 0;
        }

        /** @return CPU microseconds per command, NaN when not measured or no commands */
        double cpuMicrosPer(long ops) {
            return measured() && ops > 0 ? cpuNanos / 1000.0 / ops : Double.NaN;
        }

        /** @return bytes allocated per command, NaN when not measured (or native threads) or no commands */
        double allocBytesPer(long ops) {
            return measured() && allocBytes >= 0 && ops > 0 ? (double) allocBytes / ops : Double.NaN;
        }
    }

    /** @return the matching threads' counters now, null when {@code family} is not measured */
    static Snapshot snapshot(Family family) {
        if (!family.measured()) {
            return null;
        }
        if (family.proc) {
            return nativeSnapshot(family.pattern);
        }
        long[] ids = THREADS.getAllThreadIds();
        ThreadInfo[] infos = THREADS.getThreadInfo(ids, 0);
        int n = 0;
        for (int i = 0; i < ids.length; i++) {
            if (infos[i] != null && family.pattern.matcher(infos[i].getThreadName()).matches()) {
                ids[n++] = ids[i];
            }
        }
        long[] matched = java.util.Arrays.copyOf(ids, n);
        long[] cpu = THREADS.getThreadCpuTime(matched);
        long[] alloc = THREADS.getThreadAllocatedBytes(matched);
        Map<Long, long[]> out = new HashMap<>();
        for (int i = 0; i < n; i++) {
            if (cpu[i] >= 0 && alloc[i] >= 0) { // -1: ended in between
                out.put(matched[i], new long[] {cpu[i], alloc[i]});
            }
        }
        return new Snapshot(out);
    }

    /** @return per task id of this process whose name matches: {CPU nanoseconds from schedstat, -1} */
    private static Snapshot nativeSnapshot(Pattern pattern) {
        Map<Long, long[]> out = new HashMap<>();
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(TASKS)) {
            for (Path t : tasks) {
                try {
                    if (pattern.matcher(Files.readString(t.resolve("comm")).trim()).matches()) {
                        String stat = Files.readString(t.resolve("schedstat")).trim();
                        out.put(Long.parseLong(t.getFileName().toString()),
                                new long[] {Long.parseLong(stat.substring(0, stat.indexOf(' '))), -1});
                    }
                } catch (IOException | RuntimeException e) {
                    // the task ended while it was read, or no schedstat: left out
                }
            }
        } catch (IOException e) {
            return null;
        }
        return new Snapshot(out);
    }

    /**
     * @return the usage between {@code before} and {@code after}: per thread in {@code after}, its counters minus
     *     those in {@code before} (zero when it started in between); {@link Usage#NONE} when either is null
     */
    static Usage between(Snapshot before, Snapshot after) {
        if (before == null || after == null) {
            return Usage.NONE;
        }
        long cpu = 0;
        long alloc = 0;
        boolean allocMeasured = true;
        for (Map.Entry<Long, long[]> e : after.threads().entrySet()) {
            long[] b = before.threads().getOrDefault(e.getKey(), new long[2]);
            cpu += e.getValue()[0] - b[0];
            allocMeasured &= e.getValue()[1] >= 0;
            alloc += e.getValue()[1] - b[1];
        }
        return new Usage(cpu, allocMeasured ? alloc : -1, after.threads().size());
    }
}
