package dev.zstdjava.soak;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * A leak and soak run: calls randomly chosen operations (each checks its own result) for a number of operations,
 * sampling native memory ({@link NativeMemory}) and the heap along the way. The first quarter of the run is
 * warm-up (pools, caches, JIT); the growth that counts is from the sample after warm-up to the last sample. Those two
 * are each the least of samples over {@link #END_WINDOW} of collections (each measure's own least), so that
 * Cleaner-freed contexts are freed and what is held only for a while (a JIT compilation's arenas, a dictionary
 * training that runs in the background) does not count at either end, while memory that is kept is in every sample.
 */
public final class Soak {
    /** One operation; {@code i} counts its own calls, so an operation can do rare things every n-th call. */
    @FunctionalInterface
    public interface Op {
        void run(SplittableRandom random, long i) throws Exception;
    }

    /** One sample: after {@code ops} operations, bytes of malloc in use (-1 if unknown), RSS, heap used after GC. */
    public record Sample(long ops, long millis, long mallocInUse, long rss, long heapUsed) {}

    /** The run: samples, and the growth from the end of warm-up to the end. */
    public record Result(List<Sample> samples, Sample afterWarmup, Sample last) {
        public long mallocGrowth() {
            return last.mallocInUse - afterWarmup.mallocInUse;
        }

        public long rssGrowth() {
            return last.rss - afterWarmup.rss;
        }

        public long heapGrowth() {
            return last.heapUsed - afterWarmup.heapUsed;
        }

        /** @return the largest malloc in use of any sample after warm-up, minus the after-warm-up sample */
        public long mallocPeakDrift() {
            return samples.stream().filter(s -> s.ops >= afterWarmup.ops).mapToLong(Sample::mallocInUse).max()
                    .orElse(0) - afterWarmup.mallocInUse;
        }

        public String summary() {
            return String.format("%,d ops in %.1f s; after warm-up (%,d ops) -> end: malloc in use %s -> %s (%+,d B,"
                            + " peak drift %+,d B), RSS %,d -> %,d B (%+,d B), heap after GC %,d -> %,d B (%+,d B)",
                    last.ops, last.millis / 1000.0, afterWarmup.ops, mib(afterWarmup.mallocInUse), mib(last.mallocInUse),
                    mallocGrowth(), mallocPeakDrift(), afterWarmup.rss, last.rss, rssGrowth(), afterWarmup.heapUsed,
                    last.heapUsed, heapGrowth());
        }

        private static String mib(long b) {
            return String.format("%.1f MiB", b / 1048576.0);
        }
    }

    /**
     * How long the samples at the end of warm-up and at the end are taken over: longer than the JVM keeps the arenas
     * of finished JIT compilations in its chunk pool (it prunes the pool every 5 s; a run's samples show malloc in use
     * falling by up to 17 MiB then), and than a dictionary manager's retraining interval in the adapter soak (2 s).
     */
    static final Duration END_WINDOW = Duration.ofSeconds(6);

    private Soak() {}

    /**
     * Runs {@code totalOps} operations drawn from {@code ops} (a fixed seed, so runs repeat), taking
     * {@code samples} samples, and writes them to {@code csv}.
     */
    public static Result run(Map<String, Op> ops, long totalOps, int samples, Path csv) throws Exception {
        List<String> names = new ArrayList<>(ops.keySet());
        List<Op> list = names.stream().map(ops::get).toList();
        long[] calls = new long[list.size()];
        SplittableRandom random = new SplittableRandom(42);
        long warmup = totalOps / 4;
        long every = Math.max(1, (totalOps - warmup) / samples);
        List<Sample> taken = new ArrayList<>();
        long start = System.nanoTime();
        Sample afterWarmup = null;
        for (long n = 0; n < totalOps; n++) {
            int k = random.nextInt(list.size());
            try {
                list.get(k).run(random, calls[k]++);
            } catch (Exception | AssertionError e) {
                throw new AssertionError("operation " + names.get(k) + " failed at op " + n, e);
            }
            if (n + 1 == warmup || (n + 1 > warmup && (n + 1 - warmup) % every == 0) || n + 1 == totalOps) {
                Sample s = n + 1 == warmup || n + 1 == totalOps ? leastSample(n + 1, start) : sample(n + 1, start);
                taken.add(s);
                if (afterWarmup == null) {
                    afterWarmup = s;
                }
            }
        }
        Files.createDirectories(csv.toAbsolutePath().getParent());
        StringBuilder out = new StringBuilder("ops,millis,malloc_in_use,rss,heap_used\n");
        for (Sample s : taken) {
            out.append(s.ops).append(',').append(s.millis).append(',').append(s.mallocInUse).append(',')
                    .append(s.rss).append(',').append(s.heapUsed).append('\n');
        }
        Files.writeString(csv, out);
        return new Result(taken, afterWarmup, taken.getLast());
    }

    /** Collects garbage (twice, with a pause for the Cleaner thread) and then samples. */
    static Sample sample(long ops, long start) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        long heap = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
        return new Sample(ops, (System.nanoTime() - start) / 1_000_000, NativeMemory.mallocInUse().orElse(-1L),
                NativeMemory.rss(), heap);
    }

    /**
     * Samples after a collection again and again for {@link #END_WINDOW}, keeping each measure's least (the time is
     * the first sample's).
     */
    static Sample leastSample(long ops, long start) throws InterruptedException {
        Sample least = sample(ops, start);
        long end = System.nanoTime() + END_WINDOW.toNanos();
        while (System.nanoTime() < end) {
            System.gc();
            Thread.sleep(100);
            long heap = Runtime.getRuntime().totalMemory() - Runtime.getRuntime().freeMemory();
            least = new Sample(ops, least.millis, Math.min(least.mallocInUse, NativeMemory.mallocInUse().orElse(-1L)),
                    Math.min(least.rss, NativeMemory.rss()), Math.min(least.heapUsed, heap));
        }
        return least;
    }

    /** @return the operation count: {@code -Dzstdjava.soak.ops}, or {@code defaultOps} */
    public static long ops(long defaultOps) {
        return Long.getLong("zstdjava.soak.ops", defaultOps);
    }

}
