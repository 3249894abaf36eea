package dev.zstdjava.bench;

import dev.zstdjava.bench.report.Env;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.PatternDecision;
import dev.zstdjava.values.ValueCompressor;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Adaptive compression on random keys against the fixed mode, paired round by round: the target is that a keyspace of
 * random keys (every key its own pattern) costs no more CPU than fixed zstd 3. The two differ by a few percent, which
 * separate JMH runs on a shared machine do not resolve; here every contestant writes in the same JVM, in interleaved
 * rounds (each round times each contestant once, in a rotating order, so a slow phase of the machine hits all of
 * them), and each contestant's figure is the median of its per-round ratio to zstd 3 in the same round, in several
 * fresh JVMs.
 *
 * <p>Contestants, each writing the same value ({@link Payloads}' generated text) in its own loop: fixed zstd 3
 * ({@link ValueCompressor}, the reference); fixed zstd 1 (the option the adaptive mode takes on this text: the floor
 * it can reach); adaptive with random keys ({@code sess:} and 15 letters, counted up: none seen twice); adaptive with
 * one key; and that one key with no sample after its first writes (the look-up and the decision without samples).
 *
 * <pre>
 *   adaptive-keys [--jvms 3] [--rounds 40] [--warmup-rounds 10] [--writes 20000] [--payload text-128]
 * </pre>
 *
 * Prints per contestant: the median over the JVMs of each JVM's median ratio to zstd 3, the lowest and highest JVM,
 * and the first and third quartiles of all rounds' ratios; for random keys, a verdict against 1.00x.
 */
@Command(name = "adaptive-keys", description = "Adaptive compression on random keys against fixed zstd 3: one JVM, "
        + "interleaved rounds, ratios paired by round, several fresh JVMs.")
public final class AdaptiveKeys implements Callable<Integer> {
    static final String[] CONTESTANTS = {"fixed zstd 3", "fixed zstd 1", "adaptive, random keys", "adaptive, one key",
        "adaptive, one key, unsampled"};
    static final int RANDOM_KEYS = 2;

    @Option(names = "--jvms", description = "fresh JVMs (default ${DEFAULT-VALUE})")
    int jvms = 3;

    @Option(names = "--rounds", description = "measured rounds per JVM (default ${DEFAULT-VALUE})")
    int rounds = 40;

    @Option(names = "--warmup-rounds", description = "rounds run first and not counted (default ${DEFAULT-VALUE})")
    int warmupRounds = 10;

    @Option(names = "--writes", description = "writes per contestant per round (default ${DEFAULT-VALUE})")
    int writes = 20_000;

    @Option(names = "--payload", description = "the value written, a generated payload (default ${DEFAULT-VALUE})")
    String payload = "text-128";

    @Override
    public Integer call() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<double[][]> ratios = new ArrayList<>(); // per JVM: [contestant][round]
        List<String> decisions = new ArrayList<>();
        for (int j = 1; j <= jvms; j++) {
            List<String> cmd = List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g",
                    "-Djava.util.logging.config.file=/dev/null", "-cp", System.getProperty("java.class.path"),
                    AdaptiveKeys.class.getName(), payload, String.valueOf(rounds), String.valueOf(warmupRounds),
                    String.valueOf(writes));
            System.out.printf("adaptive-keys: JVM %d of %d%n", j, jvms);
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).start();
            List<String> lines = new ArrayList<>();
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    lines.add(line);
                }
            }
            if (p.waitFor() != 0) {
                throw new IOException("adaptive-keys: child JVM " + j + " failed (exit " + p.exitValue() + ")");
            }
            ratios.add(parse(lines, rounds));
            for (String l : lines) {
                if (l.startsWith("decision\t")) {
                    decisions.add("JVM " + j + ": " + l.substring("decision\t".length()));
                }
            }
        }
        System.out.println(report(ratios, describe()));
        decisions.forEach(System.out::println);
        return 0;
    }

    private String describe() {
        return String.format(Locale.ROOT, "%d fresh JVMs x (%d warm-up + %d measured rounds) x %,d writes per contestant"
                        + " per round; %s (%s); JDK %s; %s; load average %s", jvms, warmupRounds, rounds, writes,
                payload, Payloads.describe(payload), Runtime.version(), Env.cpu(), Env.load());
    }

    /** The child's lines {@code round\tcontestant\tns}: each round's time over zstd 3's, [contestant][round]. */
    static double[][] parse(List<String> lines, int rounds) {
        double[][] ns = new double[CONTESTANTS.length][rounds];
        for (double[] row : ns) {
            Arrays.fill(row, Double.NaN);
        }
        for (String line : lines) {
            String[] f = line.split("\t");
            if (f.length == 3 && !f[0].equals("decision")) {
                ns[Integer.parseInt(f[1])][Integer.parseInt(f[0])] = Double.parseDouble(f[2]);
            }
        }
        double[][] ratio = new double[CONTESTANTS.length][rounds];
        for (int c = 0; c < CONTESTANTS.length; c++) {
            for (int r = 0; r < rounds; r++) {
                ratio[c][r] = ns[c][r] / ns[0][r];
                if (Double.isNaN(ratio[c][r])) {
                    throw new IllegalStateException("no time for " + CONTESTANTS[c] + " in round " + r);
                }
            }
        }
        return ratio;
    }

    /** The table: per contestant the median of JVM medians [lowest, highest JVM], the quartiles of all rounds. */
    static String report(List<double[][]> perJvm, String description) {
        StringBuilder md = new StringBuilder();
        md.append("Adaptive compression on random keys, paired with fixed zstd 3 round by round: ").append(description)
                .append("\n\n| contestant | ÷ fixed zstd 3: median of the JVMs' medians [lowest, highest JVM] "
                        + "| quartiles of all rounds |\n|---|---:|---:|\n");
        String verdict = "";
        for (int c = 1; c < CONTESTANTS.length; c++) {
            double[] medians = new double[perJvm.size()];
            List<Double> all = new ArrayList<>();
            for (int j = 0; j < perJvm.size(); j++) {
                medians[j] = median(perJvm.get(j)[c]);
                for (double v : perJvm.get(j)[c]) {
                    all.add(v);
                }
            }
            double[] a = all.stream().mapToDouble(Double::doubleValue).sorted().toArray();
            Arrays.sort(medians);
            double m = median(medians);
            md.append(String.format(Locale.ROOT, "| %s | %.3fx [%.3f, %.3f] | %.3f, %.3f |%n", CONTESTANTS[c], m,
                    medians[0], medians[medians.length - 1], quantile(a, 0.25), quantile(a, 0.75)));
            if (c == RANDOM_KEYS) {
                verdict = String.format(Locale.ROOT, "%nRandom keys: %.3fx of fixed zstd 3: %s%n", m,
                        m <= 1.0 ? "no more than the fixed mode (met)"
                                : "MORE than the fixed mode (the target is at most 1.00x)");
            }
        }
        return md.append(verdict).toString();
    }

    static double median(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return quantile(s, 0.5);
    }

    /** {@code q} of sorted {@code s}, interpolating between neighbours. */
    static double quantile(double[] s, double q) {
        double at = q * (s.length - 1);
        int lo = (int) Math.floor(at);
        int hi = Math.min(lo + 1, s.length - 1);
        return s[lo] + (s[hi] - s[lo]) * (at - lo);
    }

    // ---- child: the contestants, timed -----------------------------------------------------------------------------

    private static final int LETTERS = 15;
    private static long sink;

    /** Child JVM: {@code PAYLOAD ROUNDS WARMUP_ROUNDS WRITES}; prints {@code round\tcontestant\tns} per round. */
    public static void main(String[] args) {
        byte[] value = Payloads.load(args[0]);
        int rounds = Integer.parseInt(args[1]);
        int warmup = Integer.parseInt(args[2]);
        int writes = Integer.parseInt(args[3]);
        ValueCompressor zstd3 = ValueCompressor.create(CompressionConfig.defaults());
        ValueCompressor zstd1 = ValueCompressor.create(CompressionConfig.builder().level(1).build());
        AdaptiveCompressor random = AdaptiveCompressor.builder(CompressionConfig.defaults()).build();
        AdaptiveCompressor oneKey = AdaptiveCompressor.builder(CompressionConfig.defaults()).build();
        AdaptiveCompressor unsampled = AdaptiveCompressor.builder(CompressionConfig.defaults())
                .sampling(AdaptiveCompressor.DEFAULT_FIRST_WRITES, Integer.MAX_VALUE, Integer.MAX_VALUE).build();
        byte[] key = "sess:ggggggggggggggg".getBytes(StandardCharsets.US_ASCII);
        byte[] one = "sess:12345:profile".getBytes(StandardCharsets.US_ASCII);
        long[] ns = new long[CONTESTANTS.length];
        StringBuilder out = new StringBuilder();
        for (int r = 0; r < warmup + rounds; r++) {
            for (int i = 0; i < CONTESTANTS.length; i++) {
                int c = (i + r) % CONTESTANTS.length;
                ns[c] = switch (c) {
                    case 0 -> fixed(zstd3, value, writes);
                    case 1 -> fixed(zstd1, value, writes);
                    case 2 -> randomKeys(random, key, value, writes);
                    case 3 -> oneKey(oneKey, one, value, writes);
                    default -> oneKey(unsampled, one, value, writes);
                };
            }
            if (r >= warmup) {
                for (int c = 0; c < CONTESTANTS.length; c++) {
                    out.append(r - warmup).append('\t').append(c).append('\t')
                            .append(String.format(Locale.ROOT, "%.1f", (double) ns[c] / writes)).append('\n');
                }
            }
        }
        Map<String, AdaptiveCompressor> shown = new LinkedHashMap<>();
        shown.put("random keys", random);
        shown.put("one key", oneKey);
        for (Map.Entry<String, AdaptiveCompressor> e : shown.entrySet()) {
            for (PatternDecision d : e.getValue().snapshot()) {
                if (!d.pattern().startsWith("sess:ggg")) { // random keys' own patterns, each seen once: not shown
                    out.append("decision\t").append(e.getKey()).append(": ").append(d.pattern()).append(' ')
                            .append(d.option().label()).append(" after ").append(d.valuesSeen()).append(" writes\n");
                }
            }
        }
        out.append("sink\t").append(sink).append('\n');
        System.out.print(out);
    }

    // one loop per kind of contestant, so that no call site is shared between the fixed and the adaptive writes

    private static long fixed(ValueCompressor c, byte[] value, int writes) {
        long s = System.nanoTime();
        long n = 0;
        for (int i = 0; i < writes; i++) {
            n += c.compress(value).length;
        }
        long t = System.nanoTime() - s;
        sink += n;
        return t;
    }

    private static long randomKeys(AdaptiveCompressor c, byte[] key, byte[] value, int writes) {
        long s = System.nanoTime();
        long n = 0;
        for (int i = 0; i < writes; i++) {
            n += c.compress(nextKey(key), value).length;
        }
        long t = System.nanoTime() - s;
        sink += n;
        return t;
    }

    private static long oneKey(AdaptiveCompressor c, byte[] key, byte[] value, int writes) {
        long s = System.nanoTime();
        long n = 0;
        for (int i = 0; i < writes; i++) {
            n += c.compress(key, value).length;
        }
        long t = System.nanoTime() - s;
        sink += n;
        return t;
    }

    /**
     * Counts the last 15 letters of {@code k} up by one, in place (base 20, {@code g} to {@code z}): a key not seen
     * before, and no digit or hex id, so the fold keeps each its own pattern. Allocates nothing.
     */
    static byte[] nextKey(byte[] k) {
        for (int i = k.length - 1; i >= k.length - LETTERS; i--) {
            if (k[i] != 'z') {
                k[i]++;
                return k;
            }
            k[i] = 'g';
        }
        return k;
    }
}
