package dev.zstdjava.pause;

import dev.zstdjava.ChildProcess;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.CriticalCompression;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressor;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * How long a critical heap call can hold off a safepoint (and so every GC) at the default
 * {@code zstdjava.criticalHeapLimit}: each workload runs in its own JVM with {@code -Xlog:safepoint}, one thread
 * calling zstd on heap arrays of the largest size that still goes through a critical call (1 MiB of input for levels
 * up to 5, 256 KiB up to 12, 64 KiB above; 1 MiB of output for decompression), another requesting a safepoint every
 * few milliseconds ({@code System.gc()}). The JVM's "Reaching safepoint" time is the time-to-safepoint; the
 * baseline workload makes no zstd calls. Run it with {@code tools/safepoint.sh [seconds-per-workload]}.
 * {@link #compareStaging} sets staging against critical calls on the same large arrays in one JVM.
 */
public final class SafepointProbe {
    private static final Pattern REACHING = Pattern.compile("Reaching safepoint: (\\d+) ns");
    static final List<String> WORKLOADS = List.of("baseline", "compress-1", "compress-3", "compress-9", "compress-19",
            "decompress");

    /** The workload of {@link #compareStaging}: staged and critical phases in turn, in one JVM. */
    static final String STAGING = "staging-vs-critical";
    /**
     * Heap input of every call of {@link #compareStaging}, at level {@value #STAGING_LEVEL}: far above the default
     * limit (256 KiB there), and slow to compress next to the copies staging makes (a critical call holds off a
     * safepoint for the whole compression, staging only for the copies).
     */
    static final int STAGING_INPUT = 8 << 20;
    static final int STAGING_LEVEL = 9;
    private static final int STAGING_PHASES = 6;
    private static final int STAGING_MIN_CALLS = 4;
    private static final Pattern SAFEPOINT = Pattern.compile(
            "\\[(\\d+)ns\\] Safepoint .*Reaching safepoint: (\\d+) ns.*Total: (\\d+) ns");

    private SafepointProbe() {}

    /** One workload's result: safepoints seen, worst and 99th-percentile time to reach them, median call time. */
    public record Result(String workload, int inputBytes, int safepoints, long worstNanos, long p99Nanos,
                         long medianCallNanos) {
        @Override
        public String toString() {
            return String.format("%-12s %9d B  %6d safepoints  worst %8.2f ms  p99 %7.2f ms  one call (median) %7.2f ms",
                    workload, inputBytes, safepoints, worstNanos / 1e6, p99Nanos / 1e6, medianCallNanos / 1e6);
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("child")) {
            if (args[1].equals(STAGING)) {
                stagingChild(Long.parseLong(args[2]));
            } else {
                child(args[1], Long.parseLong(args[2]));
            }
            return;
        }
        long millis = (long) (Double.parseDouble(args.length > 0 ? args[0] : "10") * 1000);
        for (String w : WORKLOADS) {
            System.out.println(measure(w, millis, Path.of("target", "safepoint")));
        }
    }

    /** Runs one workload in a new JVM for {@code millis} and parses its safepoint log. */
    public static Result measure(String workload, long millis, Path dir) throws IOException, InterruptedException {
        Path log = dir.resolve(workload + ".log").toAbsolutePath();
        String printed = runChild(workload, millis, dir, log);
        List<Long> reach = new ArrayList<>();
        Matcher m = REACHING.matcher(Files.readString(log));
        while (m.find()) {
            reach.add(Long.parseLong(m.group(1)));
        }
        long[] sorted = reach.stream().mapToLong(Long::longValue).sorted().toArray();
        String[] fields = printed.trim().split("\\s+");
        return new Result(workload, Integer.parseInt(fields[0]), sorted.length,
                sorted.length == 0 ? -1 : sorted[sorted.length - 1],
                sorted.length == 0 ? -1 : sorted[(int) Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.99) - 1)],
                Long.parseLong(fields[1]));
    }

    /**
     * Starts the child JVM of {@code workload} with the safepoint log (each line stamped with the value of
     * {@link System#nanoTime}) in {@code log}; waits at most {@code millis} plus two minutes, then kills it.
     *
     * @return what the child printed
     */
    private static String runChild(String workload, long millis, Path dir, Path log)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Files.deleteIfExists(log);
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xmx512m", "-Xlog:safepoint=info:file=" + log + ":timenanos",
                "-cp", System.getProperty("java.class.path"), SafepointProbe.class.getName(), "child", workload,
                Long.toString(millis));
        ChildProcess p = ChildProcess.run(new ProcessBuilder(cmd).redirectErrorStream(true), millis / 1000 + 120);
        Files.write(dir.resolve(workload + ".out"), p.stdout());
        if (p.exit() != 0) {
            throw new IllegalStateException(workload + " failed (exit " + p.exit() + "):\n" + p.out());
        }
        return p.out();
    }

    /**
     * Staged against critical in one JVM: the times to safepoint while {@value #STAGING_INPUT}-byte heap arrays go
     * through {@link ZstdCompressor} at level {@value #STAGING_LEVEL} (staged through native memory: the library's path above
     * {@code zstdjava.criticalHeapLimit}), and while the same arrays go through one critical downcall each (the
     * binding the library uses in place below the limit, called directly: what the limit prevents).
     *
     * @param staged  per staged phase, the times to reach each safepoint requested in it (nanoseconds)
     * @param critical per critical phase, the same
     */
    public record Staging(List<long[]> staged, List<long[]> critical) {
        /** @return the median over the phases of {@code f} of one phase's times */
        static long median(List<long[]> phases, ToLongFunction<long[]> f) {
            return median(phases.stream().mapToLong(f).toArray());
        }

        static long median(long[] values) {
            long[] v = values.clone();
            Arrays.sort(v);
            return v.length == 0 ? -1 : v[v.length / 2];
        }

        static long worst(long[] values) {
            return Arrays.stream(values).max().orElse(-1);
        }

        /** @return the fewest safepoints any phase saw */
        int fewestSafepoints() {
            return Stream.concat(staged.stream(), critical.stream()).mapToInt(a -> a.length).min().orElse(0);
        }

        @Override
        public String toString() {
            return String.format("staged: worst %.2f ms, median %.3f ms; critical: worst %.2f ms, median %.3f ms"
                            + " (medians over %d phases each; safepoints per phase: staged %s, critical %s)",
                    median(staged, Staging::worst) / 1e6, median(staged, Staging::median) / 1e6,
                    median(critical, Staging::worst) / 1e6, median(critical, Staging::median) / 1e6, staged.size(),
                    staged.stream().map(a -> String.valueOf(a.length)).toList(),
                    critical.stream().map(a -> String.valueOf(a.length)).toList());
        }
    }

    /**
     * Runs {@link #STAGING} in a new JVM (phases of at least {@code millis / 6} and {@value #STAGING_MIN_CALLS}
     * calls each, critical and staged in turn) and gives each safepoint to the phase in which it was requested.
     */
    public static Staging compareStaging(long millis, Path dir) throws IOException, InterruptedException {
        Path log = dir.resolve(STAGING + ".log").toAbsolutePath();
        String printed = runChild(STAGING, millis, dir, log);
        List<long[]> phases = new ArrayList<>(); // start, end, critical ? 1 : 0
        for (String line : printed.lines().toList()) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 4 && f[0].equals("phase")) {
                phases.add(new long[] {Long.parseLong(f[2]), Long.parseLong(f[3]), f[1].equals("critical") ? 1 : 0});
            }
        }
        if (phases.size() != STAGING_PHASES) {
            throw new IllegalStateException(STAGING + " printed " + phases.size() + " phases:\n" + printed);
        }
        List<List<Long>> reach = new ArrayList<>();
        phases.forEach(ph -> reach.add(new ArrayList<>()));
        Matcher m = SAFEPOINT.matcher(Files.readString(log));
        while (m.find()) {
            long requested = Long.parseLong(m.group(1)) - Long.parseLong(m.group(3)); // logged at its end
            for (int i = 0; i < phases.size(); i++) {
                if (requested >= phases.get(i)[0] && requested < phases.get(i)[1]) {
                    reach.get(i).add(Long.parseLong(m.group(2)));
                }
            }
        }
        List<long[]> staged = new ArrayList<>();
        List<long[]> critical = new ArrayList<>();
        for (int i = 0; i < phases.size(); i++) {
            long[] times = reach.get(i).stream().mapToLong(Long::longValue).toArray();
            (phases.get(i)[2] == 1 ? critical : staged).add(times);
        }
        return new Staging(staged, critical);
    }

    /** The child JVM of {@link #STAGING}: prints "phase critical|staged startNanos endNanos" per phase. */
    static void stagingChild(long millis) throws Exception {
        if (Runtime.version().feature() < 22) {
            throw new IllegalStateException("no critical downcall on heap arrays before JDK 22");
        }
        byte[] data = text(STAGING_INPUT);
        byte[] dst = new byte[(int) Zstd.compressBound(STAGING_INPUT)];
        if (STAGING_INPUT <= CriticalCompression.heapCriticalLimit() >> 2) { // the limit of levels 6 to 12
            throw new IllegalStateException("the input is not above zstdjava.criticalHeapLimit");
        }
        Thread gc = requestSafepoints();
        try (CriticalCompression cctx = new CriticalCompression(STAGING_LEVEL);
             ZstdCompressor c = ZstdCompressor.builder().level(STAGING_LEVEL).build()) {
            long phaseNanos = TimeUnit.MILLISECONDS.toNanos(millis) / STAGING_PHASES;
            for (int phase = 0; phase < STAGING_PHASES; phase++) {
                boolean critical = phase % 2 == 0;
                long start = System.nanoTime();
                long end = start + phaseNanos;
                for (int calls = 0; calls < STAGING_MIN_CALLS || System.nanoTime() < end; calls++) {
                    long n = critical
                            ? cctx.compress(data, dst)
                            : c.compress(data, 0, data.length, dst, 0, dst.length);
                    if (n <= 0) {
                        throw new AssertionError("compress returned " + n);
                    }
                }
                System.out.println("phase " + (critical ? "critical" : "staged") + " " + start + " " + System.nanoTime());
            }
        }
        gc.interrupt();
    }

    /** The child JVM: one thread calling zstd, one requesting safepoints; prints input size and median call time. */
    static void child(String workload, long millis) throws Exception {
        int size = switch (workload) {
            case "baseline", "compress-1", "compress-3", "decompress" -> 1 << 20;
            case "compress-9" -> 256 << 10;
            case "compress-19" -> 64 << 10;
            default -> throw new IllegalArgumentException("unknown workload " + workload + ", known: " + WORKLOADS);
        };
        byte[] data = text(size);
        byte[] frame = Zstd.compress(data, 3);
        byte[] dst = new byte[(int) Zstd.compressBound(size)];
        int level = workload.startsWith("compress-") ? Integer.parseInt(workload.substring(9)) : 3;
        List<Long> calls = new ArrayList<>();
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        Thread gc = requestSafepoints();
        try (ZstdCompressor c = ZstdCompressor.builder().level(level).build();
             ZstdDecompressor d = ZstdDecompressor.create()) {
            while (System.nanoTime() < end) {
                long t0 = System.nanoTime();
                switch (workload) {
                    case "baseline" -> Thread.sleep(1);
                    case "decompress" -> {
                        if (d.decompress(frame, 0, frame.length, dst, 0, size) != size) {
                            throw new AssertionError("decompressed size");
                        }
                    }
                    default -> c.compress(data, 0, size, dst, 0, dst.length);
                }
                calls.add(System.nanoTime() - t0);
            }
        }
        gc.interrupt();
        long[] sorted = calls.stream().mapToLong(Long::longValue).sorted().toArray();
        System.out.println(size + " " + sorted[sorted.length / 2]);
    }

    /** @return a daemon thread requesting a safepoint ({@link System#gc}) every 3 ms until it is interrupted */
    private static Thread requestSafepoints() {
        return Thread.ofPlatform().daemon().start(() -> {
            while (true) {
                System.gc();
                try {
                    Thread.sleep(3);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
    }

    /** Text like cache values: JSON records with words drawn from a small vocabulary. */
    static byte[] text(int size) {
        String[] words = {"alpha", "beta", "gamma", "delta", "user", "order", "item", "price", "status", "active",
            "pending", "shipped", "name", "email", "city", "country", "created", "updated"};
        SplittableRandom r = new SplittableRandom(1);
        StringBuilder b = new StringBuilder(size + 200);
        while (b.length() < size) {
            b.append("{\"id\":").append(r.nextInt(1_000_000)).append(",\"").append(words[r.nextInt(words.length)])
                    .append("\":\"").append(words[r.nextInt(words.length)]).append(r.nextInt(100)).append("\"}\n");
        }
        return Arrays.copyOf(b.toString().getBytes(StandardCharsets.US_ASCII), size);
    }
}
