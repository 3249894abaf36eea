package dev.zstdjava.pause;

import dev.zstdjava.zstd.Zstd;
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
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How long a critical heap call can hold off a safepoint (and so every GC) at the default
 * {@code zstdjava.criticalHeapLimit}: each workload runs in its own JVM with {@code -Xlog:safepoint}, one thread
 * calling zstd on heap arrays of the largest size that still goes through a critical call (1 MiB of input for levels
 * up to 5, 256 KiB up to 12, 64 KiB above; 1 MiB of output for decompression), another requesting a safepoint every
 * few milliseconds ({@code System.gc()}). The JVM's "Reaching safepoint" time is the time-to-safepoint; the
 * baseline workload makes no zstd calls. Run it with {@code tools/safepoint.sh [seconds-per-workload]}.
 */
public final class SafepointProbe {
    private static final Pattern REACHING = Pattern.compile("Reaching safepoint: (\\d+) ns");
    static final List<String> WORKLOADS = List.of("baseline", "compress-1", "compress-3", "compress-9", "compress-19",
            "decompress");

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
            child(args[1], Long.parseLong(args[2]));
            return;
        }
        long millis = (long) (Double.parseDouble(args.length > 0 ? args[0] : "10") * 1000);
        for (String w : WORKLOADS) {
            System.out.println(measure(w, millis, Path.of("target", "safepoint")));
        }
    }

    /** Runs one workload in a new JVM for {@code millis} and parses its safepoint log. */
    public static Result measure(String workload, long millis, Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Path log = dir.resolve(workload + ".log").toAbsolutePath();
        Path out = dir.resolve(workload + ".out").toAbsolutePath();
        Files.deleteIfExists(log);
        List<String> cmd = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-Xmx512m", "-Xlog:safepoint=info:file=" + log,
                "-cp", System.getProperty("java.class.path"), SafepointProbe.class.getName(), "child", workload,
                Long.toString(millis));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(millis / 1000 + 120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(workload + " did not finish: " + out);
        }
        String printed = Files.readString(out);
        if (p.exitValue() != 0) {
            throw new IllegalStateException(workload + " failed (exit " + p.exitValue() + "):\n" + printed);
        }
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
        Thread gc = Thread.ofPlatform().daemon().start(() -> {
            while (true) {
                System.gc();
                try {
                    Thread.sleep(3);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
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
