package dev.zstdjava.bench;

import dev.zstdjava.bench.report.Env;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;

/**
 * The side-by-side comparison with the peers: this library, zstd-jni (reused contexts; direct buffers are its best
 * path), aircompressor v3's FFM natives and lz4-java (JNI), all in ONE JVM per run, in interleaved rounds (each
 * round times every contestant of a cell once, in a rotating order, so a slow phase of the machine hits all of them),
 * repeated in several fresh JVMs. zstd level 3 and lz4 (default, acceleration 1), compression and decompression of
 * slices of real JSON, every form both sides offer, grouped by kind of memory:
 * <ul>
 *   <li>{@code native}: native memory (this library's {@code MemorySegment} and direct {@code ByteBuffer} forms;
 *       zstd-jni's direct-buffer context calls, aircompressor's segments, lz4-java's direct buffers);</li>
 *   <li>{@code byte[]}: heap arrays into a caller's array;</li>
 *   <li>{@code new byte[]}: a heap array in, a new array out (this library's instance and static forms).</li>
 * </ul>
 * Each of this library's forms is compared with the fastest peer form of the same kind in the same cell: the ratio is
 * the peer's time over ours (above 1: we are faster). The report (Markdown) gives per cell the median over the JVMs of
 * each JVM's median, the spread (lowest and highest JVM), and a verdict against 1.00x (0.99x counts when the spread
 * reaches 1.00x).
 *
 * <pre>
 *   peers DIR [--jvms 3] [--rounds 10] [--warmup-rounds 3] [--round-ms 200] [--sizes 128,1024,16384,262144]
 * </pre>
 *
 * Writes DIR/peers.md and DIR/peers-jvmN.tsv (one line per round: cell, contestant, ns per call). A child JVM is
 * {@code java -cp <this class path> dev.zstdjava.bench.PeerCells --child ...} ({@link PeerCells}: the cells and the
 * timing; kept apart so that this command class loads no peer library, and the jar's other commands run on JDK 21,
 * where aircompressor's classes do not load).
 */
@Command(name = "peers", description = "This library against zstd-jni, aircompressor (FFM) and lz4-java: one JVM, "
        + "interleaved rounds, several fresh JVMs; writes DIR/peers.md.")
public final class Peers implements Callable<Integer> {
    /** the payload the JSON slices are cut from (the corpus's citm_catalog.json; a stand-in without the corpus) */
    static final String SOURCE = "json-large";

    @Parameters(index = "0", paramLabel = "DIR", description = "results folder")
    Path dir;

    @Option(names = "--jvms", description = "fresh JVMs (default ${DEFAULT-VALUE})")
    int jvms = 3;

    @Option(names = "--rounds", description = "measured rounds per JVM (default ${DEFAULT-VALUE})")
    int rounds = 10;

    @Option(names = "--warmup-rounds", description = "rounds run first and not counted (default ${DEFAULT-VALUE})")
    int warmupRounds = 3;

    @Option(names = "--round-ms", description = "time per contestant per round (default ${DEFAULT-VALUE})")
    int roundMs = 200;

    @Option(names = "--sizes", split = ",", description = "JSON slice sizes in bytes (default ${DEFAULT-VALUE})")
    List<Integer> sizes = List.of(128, 1024, 16384, 262144);

    @Option(names = "--only", description = "only cells whose name starts with this (e.g. lz4.decompress)")
    String only = "";

    @Option(names = "--jvm-arg", description = "extra argument for the child JVMs (repeatable)")
    List<String> jvmArgs = new ArrayList<>();

    /** One contestant of a cell: who, which form, which kind of memory, and the call. */
    record Contestant(String library, String form, String kind, Call call) {
        String name() {
            return library + " " + form;
        }

        boolean ours() {
            return library.equals(OURS);
        }
    }

    static final String OURS = "zstd-java";

    @FunctionalInterface
    interface Call {
        long run();
    }

    /** A cell: codec, operation and size, with every contestant's call prepared on the same input. */
    record Cell(String name, List<Contestant> contestants) {}

    // ---- parent: runs the child JVMs and writes the report --------------------------------------------------------

    @Override
    public Integer call() throws Exception {
        Files.createDirectories(dir);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<Path> results = new ArrayList<>();
        for (int j = 1; j <= jvms; j++) {
            Path out = dir.resolve("peers-jvm" + j + ".tsv");
            List<String> cmd = new ArrayList<>(List.of(java, "--enable-native-access=ALL-UNNAMED", "-Xms1g", "-Xmx1g"));
            cmd.addAll(jvmArgs);
            cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), PeerCells.class.getName(), "--child",
                    out.toString(), String.valueOf(rounds), String.valueOf(warmupRounds), String.valueOf(roundMs),
                    sizes.stream().map(String::valueOf).reduce((a, b) -> a + "," + b).orElseThrow(), only));
            System.out.printf("peers: JVM %d of %d (%s)%n", j, jvms, out);
            Process p = new ProcessBuilder(cmd).inheritIO().start();
            if (p.waitFor() != 0) {
                throw new IOException("peers: child JVM " + j + " failed (exit " + p.exitValue() + ")");
            }
            results.add(out);
        }
        Path md = dir.resolve("peers.md");
        Files.writeString(md, report(results, describe()));
        System.out.println("peers: wrote " + md);
        return 0;
    }

    private String describe() {
        return String.format(Locale.ROOT, "%d fresh JVMs x (%d warm-up + %d measured rounds) x %d ms per contestant "
                        + "per round; JSON slices of %s (%s); JDK %s; %s; zstd-jni %s, aircompressor-v3 %s, lz4-java %s; "
                        + "load average %s",
                jvms, warmupRounds, rounds, roundMs, SOURCE, Payloads.describe(SOURCE), Runtime.version(), Env.cpu(),
                Env.artifact("zstd-jni"), Env.artifact("aircompressor-v3"), Env.artifact("lz4-java"), Env.load());
    }

    /** A cell and contestant's ns per call in each JVM (the median of that JVM's rounds). */
    static Map<String, Map<String, double[]>> perJvm(List<Path> results) throws IOException {
        Map<String, Map<String, double[]>> m = new TreeMap<>(BY_CODEC_OP_SIZE);
        for (int j = 0; j < results.size(); j++) {
            Map<String, Map<String, List<Double>>> rounds = new LinkedHashMap<>();
            for (String line : Files.readAllLines(results.get(j))) {
                String[] f = line.split("\t");
                if (f.length == 3) {
                    rounds.computeIfAbsent(f[0], k -> new LinkedHashMap<>()).computeIfAbsent(f[1], k -> new ArrayList<>())
                            .add(Double.parseDouble(f[2]));
                }
            }
            for (var cell : rounds.entrySet()) {
                for (var c : cell.getValue().entrySet()) {
                    m.computeIfAbsent(cell.getKey(), k -> new LinkedHashMap<>())
                            .computeIfAbsent(c.getKey(), k -> new double[results.size()])[j] = median(c.getValue());
                }
            }
        }
        return m;
    }

    /** Cells ordered by codec and operation, then by size ({@code zstd.compress.128B} before {@code ...1KiB}). */
    static final java.util.Comparator<String> BY_CODEC_OP_SIZE = java.util.Comparator
            .comparing((String c) -> c.substring(0, c.lastIndexOf('.')))
            .thenComparingLong(c -> {
                String s = c.substring(c.lastIndexOf('.') + 1);
                return s.endsWith("KiB") ? Long.parseLong(s.substring(0, s.length() - 3)) << 10
                        : s.endsWith("B") ? Long.parseLong(s.substring(0, s.length() - 1)) : 0;
            })
            .thenComparing(c -> c);

    static double median(List<Double> v) {
        double[] a = v.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        return a.length == 0 ? Double.NaN : a.length % 2 == 1 ? a[a.length / 2] : (a[a.length / 2 - 1] + a[a.length / 2]) / 2;
    }

    static double median(double[] v) {
        return median(Arrays.stream(v).boxed().toList());
    }

    /** The verdict against the target: 1.00x, or 0.99x when the spread over the JVMs reaches 1.00x. */
    static String verdict(double ratio, double best) {
        if (ratio >= 1.0) {
            return "met";
        }
        if (ratio >= 0.99 && best >= 1.0) {
            return "met within spread";
        }
        return "MISSED";
    }

    /** The Markdown report of the runs in {@code results}. */
    static String report(List<Path> results, String description) throws IOException {
        Map<String, Map<String, double[]>> m = perJvm(results);
        StringBuilder sb = new StringBuilder("# zstd-java against its peers\n\n");
        sb.append("Made by `./bench peers` (").append(description).append(").\n\n");
        sb.append("Each row: one of this library's forms in one cell against the fastest peer form of the same kind ")
                .append("of memory (native memory, `byte[]` into a caller array, `byte[]` to a new array). ns per call: ")
                .append("median over the JVMs of each JVM's median round [lowest JVM, highest JVM]. Ratio: the peer's ")
                .append("time over ours, per JVM, median [lowest, highest]. Target: at least 1.00x, or 0.99x when the ")
                .append("spread reaches 1.00x.\n\n");
        sb.append("| cell | kind | zstd-java form | zstd-java ns | best peer | peer ns | ratio | verdict |\n");
        sb.append("|---|---|---|---:|---|---:|---:|---|\n");
        int met = 0;
        int rows = 0;
        List<String> missed = new ArrayList<>();
        for (var cell : m.entrySet()) {
            Map<String, double[]> cs = cell.getValue();
            for (var ours : cs.entrySet()) {
                String[] o = ours.getKey().split("\\|");
                if (!o[0].equals(OURS)) {
                    continue;
                }
                String kind = o[2];
                // the best peer of the same kind: the lowest median time
                String bestPeer = null;
                for (var c : cs.entrySet()) {
                    String[] p = c.getKey().split("\\|");
                    if (!p[0].equals(OURS) && p[2].equals(kind)
                            && (bestPeer == null || median(c.getValue()) < median(cs.get(bestPeer)))) {
                        bestPeer = c.getKey();
                    }
                }
                if (bestPeer == null) {
                    continue; // no peer offers this kind
                }
                double[] ot = ours.getValue();
                double[] pt = cs.get(bestPeer);
                double[] ratio = new double[ot.length];
                for (int j = 0; j < ot.length; j++) {
                    ratio[j] = pt[j] / ot[j];
                }
                double r = median(ratio);
                double lo = Arrays.stream(ratio).min().orElse(r);
                double hi = Arrays.stream(ratio).max().orElse(r);
                String v = verdict(r, hi);
                rows++;
                if (!v.equals("MISSED")) {
                    met++;
                } else {
                    missed.add(cell.getKey() + " " + o[1]);
                }
                String[] pn = bestPeer.split("\\|");
                sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s %s | %s | %.3fx [%.3f, %.3f] | %s |%n",
                        cell.getKey(), kind, o[1], ns(ot), pn[0], pn[1], ns(pt), r, lo, hi, v));
            }
        }
        sb.append(String.format(Locale.ROOT, "%n%d of %d rows at the target.%s%n", met, rows,
                missed.isEmpty() ? "" : " Missed: " + String.join(", ", missed) + "."));
        sb.append("\n## Every contestant\n\nns per call, median over the JVMs [lowest, highest].\n\n");
        sb.append("| cell | library | form | kind | ns |\n|---|---|---|---|---:|\n");
        for (var cell : m.entrySet()) {
            for (var c : cell.getValue().entrySet()) {
                String[] p = c.getKey().split("\\|");
                sb.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", cell.getKey(), p[0], p[1], p[2],
                        ns(c.getValue())));
            }
        }
        return sb.toString();
    }

    private static String ns(double[] t) {
        return String.format(Locale.ROOT, "%.1f [%.1f, %.1f]", median(t), Arrays.stream(t).min().orElse(0),
                Arrays.stream(t).max().orElse(0));
    }

    /** @return the first {@code size} bytes of {@code source} (repeated when it is shorter) */
    static byte[] slice(byte[] source, int size) {
        byte[] b = new byte[size];
        for (int at = 0; at < size; at += source.length) {
            System.arraycopy(source, 0, b, at, Math.min(source.length, size - at));
        }
        return b;
    }

}
