package dev.zstdjava.bench.report;

import dev.zstdjava.bench.Payloads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Turns a results folder (JMH JSON files from {@code suite}, {@code cref.jsonl} from the C reference,
 * {@code env.properties}) into a Markdown report with PNG charts beside it, and prints the headline table.
 *
 * <pre>
 *   report DIR OUT.md [--title TEXT] [--note TEXT]
 * </pre>
 *
 * Charts go to a folder named after OUT.md without its extension (docs/benchmarks.md -> docs/benchmarks/).
 */
public final class Report {
    /** One measured cell. score and error in ops/ms (error = JMH's 99.9% half-width, or the C run's sd); alloc B/op. */
    record Cell(String codec, String op, String contestant, String payload, String setting, double score,
                double error, double alloc, int samples, double iterMs) {
        /** operations in one measurement iteration: JMH's per-iteration overhead in B/op is divided by this */
        double opsPerIteration() {
            return score * iterMs;
        }
    }

    /** JMH's own threads allocate some KB per iteration; below this many ops per iteration B/op cannot resolve 1 B */
    static final double RESOLVING_OPS = 100_000;

    static double millis(String jmhTime) {
        if (jmhTime == null) {
            return Double.NaN;
        }
        String[] p = jmhTime.trim().split("\\s+");
        double v = Double.parseDouble(p[0]);
        return switch (p.length > 1 ? p[1] : "s") {
            case "ms" -> v;
            case "us" -> v / 1000;
            case "min" -> v * 60_000;
            default -> v * 1000;
        };
    }

    static final Map<String, String> LABEL = new LinkedHashMap<>();
    static final Map<String, String> SHORT = new LinkedHashMap<>();

    static {
        put("c", "C", "C calling the library directly (same build as zstd-java, gcc -O2)");
        put("zstdjava_segment", "seg", "zstd-java MemorySegment in/out (native segments)");
        put("zstdjava_arrayDst", "arr+dst", "zstd-java byte[] with caller destination");
        put("zstdjava_arrayNew", "arr→new", "zstd-java byte[] -> new byte[] (instance)");
        put("zstdjava_buffer", "buf", "zstd-java ByteBuffer (direct)");
        put("zstdjava_static", "static", "zstd-java static Zstd.compress/decompress(byte[])");
        put("zstdjni_static", "jni static", "zstd-jni static Zstd.compress(byte[], level) / Zstd.decompress(byte[], size)");
        put("zstdjni_ctxArray", "jni ctx[]", "zstd-jni reused ZstdCompressCtx/ZstdDecompressCtx on byte[]");
        put("zstdjni_ctxDirect", "jni best", "zstd-jni reused ctx on direct ByteBuffers (its best path)");
        put("lz4java_jni", "lz4-java", "lz4-java JNI fastResetCompressor / highFastResetCompressor / safeDecompressor, byte[]+dst");
        put("lz4java_jniArrayNew", "lz4-java new", "lz4-java JNI, byte[] -> new byte[]");
        put("aircompressor_java", "air java", "aircompressor-v3 pure Java, byte[]+dst");
        put("aircompressor_native", "air ffm", "aircompressor-v3 FFM binding to its bundled native library, native segments");
    }

    private static void put(String key, String shortName, String label) {
        SHORT.put(key, shortName);
        LABEL.put(key, label);
    }

    private final List<Cell> cells = new ArrayList<>();
    private final Map<String, String> crefEnv = new LinkedHashMap<>();
    private final Map<String, Long> compressedSize = new LinkedHashMap<>();
    private final Properties env = new Properties();
    /** exact B/op from the allocation probe, by {@link #key} */
    private final Map<String, Double> probe = new LinkedHashMap<>();

    static String key(String codec, String op, String contestant, String payload, String setting) {
        return codec + "|" + op + "|" + contestant + "|" + payload + "|" + setting;
    }
    private final Set<String> jvmArgs = new LinkedHashSet<>();
    private String jmhVersion = "?";
    private String jdk = "?";
    private final List<String> failures = new ArrayList<>();

    public static void main(String[] args) throws Exception {
        if (args.length < 2) {
            throw new IllegalArgumentException("usage: report DIR OUT.md [--title TEXT] [--note TEXT]");
        }
        String title = "zstd-java benchmarks";
        String note = null;
        for (int i = 2; i < args.length; i++) {
            switch (args[i]) {
                case "--title" -> title = args[++i];
                case "--note" -> note = args[++i];
                default -> throw new IllegalArgumentException("unknown option " + args[i]);
            }
        }
        Report r = new Report();
        r.load(Path.of(args[0]));
        Path out = Path.of(args[1]);
        String md = r.markdown(out, title, note);
        if (out.getParent() != null) {
            Files.createDirectories(out.getParent());
        }
        Files.writeString(out, md);
        System.out.println(r.headline());
        System.out.println("report: " + out.toAbsolutePath());
    }

    // ---------------------------------------------------------------- loading

    void load(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                String n = f.getFileName().toString();
                if (n.startsWith("jmh-") && n.endsWith(".json")) {
                    loadJmh(f);
                } else if (n.equals("cref.jsonl")) {
                    loadCref(f);
                } else if (n.equals("alloc-probe.jsonl")) {
                    for (String line : Files.readAllLines(f)) {
                        if (!line.isBlank()) {
                            Object o = Json.parse(line);
                            probe.put(key(Json.str(o, "codec"), Json.str(o, "op"), Json.str(o, "contestant"),
                                    Json.str(o, "payload"), Json.str(o, "setting")), Json.num(o, "bytes_per_op"));
                        }
                    }
                } else if (n.equals("env.properties")) {
                    try (var in = Files.newBufferedReader(f)) {
                        env.load(in);
                    }
                } else if (n.startsWith("jmh-") && n.endsWith(".log")) {
                    for (String line : Files.readAllLines(f)) {
                        if (line.startsWith("<failure>") || line.contains("Exception:")) {
                            failures.add(n + ": " + line.strip());
                        }
                    }
                }
            }
        }
    }

    private void loadJmh(Path f) throws IOException {
        String text = Files.readString(f);
        if (text.isBlank()) {
            return;
        }
        for (Object o : (List<?>) Json.parse(text)) {
            String bench = Json.str(o, "benchmark");
            String cls = bench.substring(0, bench.lastIndexOf('.'));
            cls = cls.substring(cls.lastIndexOf('.') + 1);
            String method = bench.substring(bench.lastIndexOf('.') + 1);
            String codec = cls.startsWith("Lz4") ? "lz4" : "zstd";
            String op = cls.contains("Decompress") ? "decompress" : "compress";
            Map<String, Object> params = Json.obj(o, "params");
            String setting = codec.equals("lz4") ? Json.str(params, "mode") : Json.str(params, "level");
            Map<String, Object> pm = Json.obj(o, "primaryMetric");
            Map<String, Object> alloc = Json.obj(Json.obj(o, "secondaryMetrics"), "gc.alloc.rate.norm");
            Object raw = pm.get("rawData");
            int samples = 0;
            if (raw instanceof List<?> forks) {
                for (Object fk : forks) {
                    samples += ((List<?>) fk).size();
                }
            }
            cells.add(new Cell(codec, op, method, Json.str(params, "payload"), setting, Json.num(pm, "score"),
                    Json.num(pm, "scoreError"), Json.num(alloc, "score"), samples,
                    millis(Json.str(o, "measurementTime"))));
            jmhVersion = Objects.requireNonNullElse(Json.str(o, "jmhVersion"), jmhVersion);
            jdk = Json.str(o, "vmName") + " " + Json.str(o, "vmVersion") + " (" + Json.str(o, "jdkVersion") + ")";
            if (o instanceof Map<?, ?> m && m.get("jvmArgs") instanceof List<?> l) {
                for (Object a : l) {
                    jvmArgs.add(String.valueOf(a));
                }
            }
        }
    }

    private void loadCref(Path f) throws IOException {
        for (String line : Files.readAllLines(f)) {
            if (line.isBlank()) {
                continue;
            }
            Object o = Json.parse(line);
            if ("env".equals(Json.str(o, "kind"))) {
                for (var e : ((Map<?, ?>) o).entrySet()) {
                    crefEnv.put(String.valueOf(e.getKey()), String.valueOf(e.getValue()));
                }
                continue;
            }
            String codec = Json.str(o, "codec");
            int level = (int) Json.num(o, "level");
            String setting = codec.equals("lz4") ? lz4Mode(level) : String.valueOf(level);
            double ns = Json.num(o, "ns_op");
            double sd = Json.num(o, "ns_op_sd");
            double score = 1e6 / ns;
            cells.add(new Cell(codec, Json.str(o, "op"), "c", Json.str(o, "payload"), setting, score,
                    score * sd / ns, Double.NaN, (int) Json.num(o, "iterations"), Double.NaN));
            compressedSize.put(codec + "|" + setting + "|" + Json.str(o, "payload"), (long) Json.num(o, "compressed"));
        }
    }

    static String lz4Mode(int level) {
        return level == 0 ? "default" : level < 0 ? "fast" + (-level) : "hc" + level;
    }

    // ---------------------------------------------------------------- queries

    Cell cell(String codec, String op, String contestant, String payload, String setting) {
        for (Cell c : cells) {
            if (c.codec.equals(codec) && c.op.equals(op) && c.contestant.equals(contestant)
                    && c.payload.equals(payload) && c.setting.equals(setting)) {
                return c;
            }
        }
        return null;
    }

    List<String> payloads(String codec, String setting) {
        Set<String> present = new LinkedHashSet<>();
        for (Cell c : cells) {
            if (c.codec.equals(codec) && c.setting.equals(setting)) {
                present.add(c.payload);
            }
        }
        List<String> ordered = new ArrayList<>();
        for (String p : Payloads.names()) {
            if (present.contains(p)) {
                ordered.add(p);
            }
        }
        return ordered;
    }

    List<String> contestants(String codec, String op, String setting) {
        Set<String> present = new LinkedHashSet<>();
        for (Cell c : cells) {
            if (c.codec.equals(codec) && c.op.equals(op) && c.setting.equals(setting)) {
                present.add(c.contestant);
            }
        }
        List<String> ordered = new ArrayList<>();
        for (String k : LABEL.keySet()) {
            if (present.contains(k)) {
                ordered.add(k);
            }
        }
        return ordered;
    }

    List<String> settings(String codec) {
        Set<String> s = new LinkedHashSet<>();
        for (Cell c : cells) {
            if (c.codec.equals(codec)) {
                s.add(c.setting);
            }
        }
        return new ArrayList<>(s);
    }

    static String bestOf(String codec) {
        return codec.equals("zstd") ? "zstdjni_ctxDirect" : "lz4java_jni";
    }

    static String headSetting(String codec) {
        return codec.equals("zstd") ? "3" : "default";
    }

    static long payloadSize(String p) {
        Integer t = Payloads.TEXT.get(p);
        if (t != null) {
            return t;
        }
        try {
            return Files.size(Payloads.corpusDir().resolve(Payloads.file(p)));
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    // ---------------------------------------------------------------- formatting

    static String num(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        if (a == 0) {
            return "0";
        }
        return String.format(Locale.ROOT, "%.3g", v);
    }

    static String ratio(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "–" : String.format(Locale.ROOT, "%.2fx", v);
    }

    static String bytes(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        if (v < 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%,.0f", v);
    }

    static String size(long b) {
        if (b < 0) {
            return "?";
        }
        if (b >= 1 << 20 && b % (1 << 20) == 0) {
            return (b >> 20) + " MiB";
        }
        if (b >= 1 << 10 && b % (1 << 10) == 0) {
            return (b >> 10) + " KiB";
        }
        if (b >= 10_000) {
            return String.format(Locale.ROOT, "%,d B", b);
        }
        return b + " B";
    }

    static String pm(Cell c) {
        if (c == null) {
            return "–";
        }
        return num(c.score) + (Double.isNaN(c.error) ? "" : " ± " + num(c.error));
    }

    static double r(Cell a, Cell b) {
        return a == null || b == null ? Double.NaN : a.score / b.score;
    }

    // ---------------------------------------------------------------- headline (also printed)

    String headline() {
        StringBuilder b = new StringBuilder();
        for (String codec : List.of("zstd", "lz4")) {
            String set = headSetting(codec);
            if (payloads(codec, set).isEmpty()) {
                continue;
            }
            String best = bestOf(codec);
            String conv = codec.equals("zstd") ? "zstdjni_static" : "lz4java_jniArrayNew";
            for (String op : List.of("compress", "decompress")) {
                if (contestants(codec, op, set).isEmpty()) {
                    continue;
                }
                b.append("\n**").append(codec).append(' ').append(op)
                        .append(codec.equals("zstd") ? " (level 3)" : " (default)")
                        .append("**, ops/ms (higher is better) and ratios\n\n");
                b.append("| payload | size | C | seg | arr+dst | arr→new | ").append(SHORT.get(best))
                        .append(codec.equals("zstd") ? " | jni static" : "")
                        .append(" | seg/C | seg/").append(SHORT.get(best))
                        .append(codec.equals("zstd") ? " | arr→new/jni static" : "").append(" |\n");
                b.append("|---|---:|---:|---:|---:|---:|---:|---:|---:")
                        .append(codec.equals("zstd") ? "|---:|---:" : "").append("|\n");
                for (String p : payloads(codec, set)) {
                    Cell c = cell(codec, op, "c", p, set);
                    Cell seg = cell(codec, op, "zstdjava_segment", p, set);
                    Cell arr = cell(codec, op, "zstdjava_arrayDst", p, set);
                    Cell nw = cell(codec, op, "zstdjava_arrayNew", p, set);
                    Cell bst = cell(codec, op, best, p, set);
                    Cell cv = cell(codec, op, conv, p, set);
                    b.append("| ").append(p).append(" | ").append(size(payloadSize(p))).append(" | ")
                            .append(c == null ? "–" : num(c.score)).append(" | ")
                            .append(seg == null ? "–" : num(seg.score)).append(" | ")
                            .append(arr == null ? "–" : num(arr.score)).append(" | ")
                            .append(nw == null ? "–" : num(nw.score)).append(" | ")
                            .append(bst == null ? "–" : num(bst.score));
                    if (codec.equals("zstd")) {
                        b.append(" | ").append(cv == null ? "–" : num(cv.score));
                    }
                    b.append(" | ").append(ratio(r(seg, c))).append(" | ").append(ratio(r(seg, bst)));
                    if (codec.equals("zstd")) {
                        b.append(" | ").append(ratio(r(nw, cv)));
                    }
                    b.append(" |\n");
                }
            }
        }
        return b.toString();
    }

    // ---------------------------------------------------------------- the report

    String markdown(Path out, String title, String note) throws IOException {
        StringBuilder b = new StringBuilder();
        b.append("# ").append(title).append("\n\n");
        if (note != null) {
            b.append("> ").append(note.replace("\n", "\n> ")).append("\n\n");
        }
        b.append("Generated by `benchmarks.jar report` from JMH results (`-prof gc` on every cell) and the C "
                + "reference. Throughput is operations per millisecond (one operation = one whole payload "
                + "compressed to one frame/block, or one frame/block decompressed); higher is better. Ratios are "
                + "throughput ratios: above 1.00x means faster than the reference.\n\n");
        environment(b);
        warmupNote = "quick".equals(env.getProperty("profile"))
                ? " (quick profile: after its short warm-up, B/op can still include allocation by code the JIT has "
                + "not optimised yet)" : "";
        b.append("## Headline\n");
        b.append(headline()).append('\n');
        targets(b);
        probeTable(b);
        Path chartDir = chartDir(out);
        List<String> charts = charts(chartDir);
        for (String codec : List.of("zstd", "lz4")) {
            for (String set : settings(codec)) {
                if (codec.equals("zstd") && !set.equals("3") && payloads(codec, set).size() <= 1) {
                    continue; // level sweep, below
                }
                tables(b, codec, set);
            }
        }
        levelSweep(b);
        if (!charts.isEmpty()) {
            b.append("## Charts\n\n");
            for (String c : charts) {
                b.append("![").append(c).append("](").append(out.getParent() == null ? "" : "")
                        .append(chartDir.getFileName()).append('/').append(c).append(")\n\n");
            }
        }
        legend(b);
        notes(b);
        if (!failures.isEmpty()) {
            b.append("## Failed cells\n\n");
            for (String f : failures.subList(0, Math.min(40, failures.size()))) {
                b.append("- `").append(f.replace("`", "'")).append("`\n");
            }
            b.append('\n');
        }
        return b.toString();
    }

    static Path chartDir(Path out) {
        String n = out.getFileName().toString();
        String base = n.endsWith(".md") ? n.substring(0, n.length() - 3) : n + "-charts";
        return (out.getParent() == null ? Path.of(".") : out.getParent()).resolve(base);
    }

    private void environment(StringBuilder b) {
        b.append("## Environment\n\n| | |\n|---|---|\n");
        row(b, "CPU", env.getProperty("cpu", Env.cpu()));
        row(b, "cores (available to the JVM)", env.getProperty("cores", String.valueOf(
                Runtime.getRuntime().availableProcessors())));
        row(b, "memory", env.getProperty("memory", "?"));
        row(b, "OS", env.getProperty("os", System.getProperty("os.name") + " " + System.getProperty("os.version")));
        row(b, "JDK", jdk);
        row(b, "JMH", jmhVersion + ", forks' JVM options: `" + String.join(" ", jvmArgs) + "`");
        row(b, "profile", env.getProperty("profile", "?") + " (" + env.getProperty("timing", "?") + ")");
        row(b, "run", env.getProperty("started", "?") + " to " + env.getProperty("finished", "?"));
        row(b, "load average (1/5/15 min) before / after", env.getProperty("load.before", "?") + " / "
                + env.getProperty("load.after", "?"));
        b.append("\n**Contestants and the native code each one runs** (they differ: each Java library ships its "
                + "own build):\n\n| contestant | version | native library it runs |\n|---|---|---|\n");
        for (String[] v : Env.versions()) {
            b.append("| ").append(v[0]).append(" | ").append(v[1]).append(" | ").append(v[2]).append(" |\n");
        }
        if (!crefEnv.isEmpty()) {
            b.append("| C reference (`benchmark/src/main/c/cref.c`) | ").append(crefEnv.getOrDefault("compiler", "?"))
                    .append(" -O2 | zstd ").append(crefEnv.get("zstd_version")).append(", lz4 ")
                    .append(crefEnv.get("lz4_version")).append(": loaded from the .so files that zstd-java bundles "
                            + "(`").append(shortPath(crefEnv.get("zstd_library"))).append("`) |\n");
        }
        b.append('\n');
    }

    private static String shortPath(String p) {
        if (p == null) {
            return "?";
        }
        int i = p.indexOf("benchmark/target");
        return i >= 0 ? p.substring(i) : p;
    }

    private static void row(StringBuilder b, String k, String v) {
        b.append("| ").append(k).append(" | ").append(v).append(" |\n");
    }

    private void tables(StringBuilder b, String codec, String set) {
        String head = codec + (codec.equals("zstd") ? " level " + set : " " + set);
        String best = bestOf(codec);
        for (String op : List.of("compress", "decompress")) {
            List<String> who = contestants(codec, op, set);
            if (who.isEmpty()) {
                continue;
            }
            List<String> ps = payloads(codec, set);
            b.append("## ").append(head).append(", ").append(op).append("\n\n");
            b.append("Throughput, ops/ms ± JMH's 99.9% error (C: ± one standard deviation over its iterations):\n\n");
            header(b, who);
            for (String p : ps) {
                b.append("| ").append(p).append(" | ").append(size(payloadSize(p)));
                for (String w : who) {
                    b.append(" | ").append(pm(cell(codec, op, w, p, set)));
                }
                b.append(" |\n");
            }
            b.append("\nAllocation, B/op (`gc.alloc.rate.norm`; the C reference allocates nothing per "
                    + "operation):\n\n");
            List<String> jv = who.stream().filter(w -> !w.equals("c")).toList();
            header(b, jv);
            for (String p : ps) {
                b.append("| ").append(p).append(" | ").append(size(payloadSize(p)));
                for (String w : jv) {
                    Cell c = cell(codec, op, w, p, set);
                    b.append(" | ").append(c == null ? "–" : bytes(c.alloc));
                }
                b.append(" |\n");
            }
            for (String ref : List.of(best, "c")) {
                if (!who.contains(ref)) {
                    continue;
                }
                b.append("\nThroughput relative to ").append(ref.equals("c") ? "C" : SHORT.get(ref) + " ("
                        + LABEL.get(ref) + ")").append(":\n\n");
                List<String> others = who.stream().filter(w -> !w.equals(ref)).toList();
                header(b, others);
                for (String p : ps) {
                    Cell rc = cell(codec, op, ref, p, set);
                    b.append("| ").append(p).append(" | ").append(size(payloadSize(p)));
                    for (String w : others) {
                        b.append(" | ").append(ratio(r(cell(codec, op, w, p, set), rc)));
                    }
                    b.append(" |\n");
                }
            }
            b.append('\n');
        }
    }

    private static void header(StringBuilder b, List<String> who) {
        b.append("| payload | size |");
        for (String w : who) {
            b.append(' ').append(SHORT.get(w)).append(" |");
        }
        b.append("\n|---|---:|");
        b.append("---:|".repeat(who.size()));
        b.append('\n');
    }

    private void levelSweep(StringBuilder b) {
        List<String> levels = new ArrayList<>();
        for (String s : settings("zstd")) {
            if (cell("zstd", "compress", "zstdjava_segment", "text-64k", s) != null
                    || cell("zstd", "compress", "c", "text-64k", s) != null) {
                levels.add(s);
            }
        }
        if (levels.size() < 2) {
            return;
        }
        levels.sort((x, y) -> Integer.compare(Integer.parseInt(x), Integer.parseInt(y)));
        b.append("## zstd level sweep, text-64k\n\n");
        for (String op : List.of("compress", "decompress")) {
            Set<String> who = new LinkedHashSet<>();
            for (String l : levels) {
                for (String w : contestants("zstd", op, l)) {
                    if (cell("zstd", op, w, "text-64k", l) != null) {
                        who.add(w);
                    }
                }
            }
            List<String> ws = LABEL.keySet().stream().filter(who::contains).toList();
            b.append("**").append(op).append("**, ops/ms (ratio to C)\n\n| level | compression ratio |");
            for (String w : ws) {
                b.append(' ').append(SHORT.get(w)).append(" |");
            }
            b.append("\n|---|---:|").append("---:|".repeat(ws.size())).append('\n');
            for (String l : levels) {
                Long cs = compressedSize.get("zstd|" + l + "|text-64k");
                Cell c = cell("zstd", op, "c", "text-64k", l);
                b.append("| ").append(l).append(" | ")
                        .append(cs == null ? "–" : String.format(Locale.ROOT, "%.2f", 65536.0 / cs));
                for (String w : ws) {
                    Cell x = cell("zstd", op, w, "text-64k", l);
                    b.append(" | ").append(x == null ? "–" : num(x.score)
                            + (c == null || w.equals("c") ? "" : " (" + ratio(r(x, c)) + ")"));
                }
                b.append(" |\n");
            }
            b.append('\n');
        }
    }

    // ---------------------------------------------------------------- targets

    private String warmupNote = "";

    /** A verdict with numbers. */
    private record Verdict(String status, String detail) {
    }

    private void targets(StringBuilder b) {
        b.append("## Targets (issue 6)\n\n");
        b.append("Each target is checked on every measured cell it covers. *met* = holds on every cell; "
                + "*within noise* = fails on the score but the gap is inside the combined error bars; *missed* = "
                + "fails beyond the error bars; *not measured* = the run has no such cells. The worst cell is "
                + "shown.\n\n| target | status | worst cell |\n|---|---|---|\n");
        for (String codec : List.of("zstd", "lz4")) {
            String set = headSetting(codec);
            if (payloads(codec, set).isEmpty()) {
                String what = codec.equals("zstd") ? "zstd" : "lz4";
                b.append("| ").append(what).append(" targets | not measured | no ").append(what)
                        .append(" cells in this run |\n");
                continue;
            }
            double smallBar = codec.equals("zstd") ? 0.97 : 0.95;
            target(b, codec + " `MemorySegment` >= " + smallBar + "x C below 64 KiB, >= 0.99x at >= 64 KiB",
                    vsRef(codec, set, "zstdjava_segment", "c", p -> payloadSize(p) < 65536 ? smallBar : 0.99));
            String bst = bestOf(codec);
            target(b, codec + " `MemorySegment` never slower than " + LABEL.get(bst),
                    vsRef(codec, set, "zstdjava_segment", bst, p -> 1.0));
            if (codec.equals("zstd")) {
                target(b, "zstd `MemorySegment` ahead of zstd-jni's best path at 128 B", vsRef(codec, set,
                        "zstdjava_segment", bst, p -> p.equals("text-128") ? 1.0 : Double.NaN, true));
                target(b, "zstd `byte[]` -> new `byte[]` >= 1.15x zstd-jni `Zstd.compress(byte[])`/"
                        + "`Zstd.decompress(byte[], size)` at 1 KiB", vsRef(codec, set, "zstdjava_arrayNew",
                        "zstdjni_static", p -> p.equals("text-1k") ? 1.15 : Double.NaN));
            }
            target(b, codec + " `byte[]`-with-destination within 3% of `MemorySegment` at every size",
                    vsRef(codec, set, "zstdjava_arrayDst", "zstdjava_segment", p -> 0.97));
            target(b, codec + " 0 B/op (< 1) for `MemorySegment` and caller-destination paths (JMH)", zeroAlloc(codec));
            target(b, codec + " the same, allocation probe: every payload, the call compiled on its own rather than "
                    + "inlined into the benchmark loop (stricter than the issue asks)", zeroAllocProbe(codec));
            target(b, codec + " `byte[]` -> new `byte[]` allocates only the returned array (JMH)",
                    onlyArray(codec, set, false));
            target(b, codec + " the same, allocation probe (call compiled on its own)", onlyArray(codec, set, true));
        }
        b.append('\n');
    }

    private static void target(StringBuilder b, String what, Verdict v) {
        b.append("| ").append(what).append(" | **").append(v.status).append("** | ").append(v.detail).append(" |\n");
    }

    private Verdict vsRef(String codec, String set, String who, String ref,
                          java.util.function.Function<String, Double> bar) {
        return vsRef(codec, set, who, ref, bar, false);
    }

    /** who/ref >= bar(payload) on every payload with a bar (NaN = not covered); strict = must be above */
    private Verdict vsRef(String codec, String set, String who, String ref,
                          java.util.function.Function<String, Double> bar, boolean strict) {
        String worst = null;
        double worstMargin = Double.POSITIVE_INFINITY;
        boolean missed = false;
        boolean noise = false;
        boolean inconclusive = false;
        boolean wide = false;
        int n = 0;
        for (String op : List.of("compress", "decompress")) {
            for (String p : payloads(codec, set)) {
                double need = bar.apply(p);
                if (Double.isNaN(need)) {
                    continue;
                }
                Cell a = cell(codec, op, who, p, set);
                Cell c = cell(codec, op, ref, p, set);
                if (a == null || c == null) {
                    continue;
                }
                n++;
                double rr = a.score / c.score;
                // relative error of the ratio from both error bars
                double rel = (nz(a.error) / a.score) + (nz(c.error) / c.score);
                double margin = rr / need - 1;
                boolean fails = strict ? rr <= need : rr < need;
                wide |= rel > 0.25;
                if (fails) {
                    if (rel > 0.25) {
                        inconclusive = true;
                    } else if (rr * (1 + rel) >= need) {
                        noise = true;
                    } else {
                        missed = true;
                    }
                }
                if (margin < worstMargin) {
                    worstMargin = margin;
                    worst = op + " " + p + ": " + ratio(rr) + " (bar " + ratio(need) + ", ±"
                            + String.format(Locale.ROOT, "%.1f%%", rel * 100) + ")";
                }
            }
        }
        if (n == 0) {
            return new Verdict("not measured", "no cells with both " + SHORT.get(who) + " and " + SHORT.get(ref));
        }
        String status = missed ? "missed" : inconclusive ? "inconclusive" : noise ? "within noise"
                : wide ? "met (noisy: some error bars > ±25%)" : "met";
        return new Verdict(status, worst + "; " + n + " cells");
    }

    private static double nz(double v) {
        return Double.isNaN(v) ? 0 : v;
    }

    /** the JMH verdict on cells with enough operations per iteration to resolve 1 B/op */
    private Verdict zeroAlloc(String codec) {
        String worst = null;
        double max = -1;
        int n = 0;
        int unresolved = 0;
        for (Cell c : cells) {
            if (c.codec.equals(codec) && (c.contestant.equals("zstdjava_segment")
                    || c.contestant.equals("zstdjava_arrayDst")) && !Double.isNaN(c.alloc)) {
                if (!(c.opsPerIteration() >= RESOLVING_OPS)) {
                    unresolved++;
                    continue;
                }
                n++;
                if (c.alloc > max) {
                    max = c.alloc;
                    worst = c.op + " " + c.payload + " (" + c.setting + ") " + SHORT.get(c.contestant) + ": "
                            + bytes(c.alloc) + " B/op";
                }
            }
        }
        String skipped = unresolved == 0 ? "" : "; " + unresolved + " cells with under "
                + String.format(Locale.ROOT, "%,.0f", RESOLVING_OPS) + " ops per iteration cannot resolve 1 B/op "
                + "with JMH (see the allocation probe)";
        if (n == 0) {
            return new Verdict("not measured", "no cell with enough operations per iteration" + skipped);
        }
        return new Verdict(max < 1 ? "met" : "missed", worst + "; " + n + " cells, JMH gc.alloc.rate.norm"
                + skipped + warmupNote);
    }

    /** the allocation probe's verdict: every payload, the library call compiled on its own */
    private Verdict zeroAllocProbe(String codec) {
        String worst = null;
        double max = -1;
        int n = 0;
        for (var e : probe.entrySet()) {
            String[] k = e.getKey().split("\\|");
            if (k[0].equals(codec) && (k[2].equals("zstdjava_segment") || k[2].equals("zstdjava_arrayDst"))) {
                n++;
                if (e.getValue() > max) {
                    max = e.getValue();
                    worst = k[1] + " " + k[3] + " " + SHORT.get(k[2]) + ": " + bytes(e.getValue()) + " B/op";
                }
            }
        }
        if (n == 0) {
            return new Verdict("not measured", "no allocation probe in this run");
        }
        return new Verdict(max < 1 ? "met" : "missed", worst + "; " + n + " cells");
    }

    private Verdict onlyArray(String codec, String set, boolean useProbe) {
        String source = useProbe ? "allocation probe" : "JMH gc.alloc.rate.norm";
        int unresolved = 0;
        String worst = null;
        double maxExtra = Double.NEGATIVE_INFINITY;
        int n = 0;
        for (String op : List.of("compress", "decompress")) {
            for (String p : payloads(codec, set)) {
                Cell c;
                if (useProbe) {
                    Double exact = probe.get(key(codec, op, "zstdjava_arrayNew", p, set));
                    c = exact == null ? null
                            : new Cell(codec, op, "zstdjava_arrayNew", p, set, 0, 0, exact, 0, Double.NaN);
                } else {
                    c = cell(codec, op, "zstdjava_arrayNew", p, set);
                    if (c != null && !(c.opsPerIteration() >= RESOLVING_OPS)) {
                        unresolved++;
                        continue;
                    }
                }
                if (c == null || Double.isNaN(c.alloc)) {
                    continue;
                }
                long len = op.equals("decompress") ? payloadSize(p)
                        : compressedSize.getOrDefault(codec + "|" + set + "|" + p, -1L);
                if (len < 0) {
                    continue;
                }
                n++;
                double expected = 16 + ((len + 7) & ~7L); // array header + data, 8-byte aligned
                double extra = c.alloc - expected;
                if (extra > maxExtra) {
                    maxExtra = extra;
                    worst = op + " " + p + ": " + bytes(c.alloc) + " B/op for a " + len + "-byte array ("
                            + String.format(Locale.ROOT, "%+.1f", extra) + " B)";
                }
            }
        }
        String skipped = unresolved == 0 ? "" : "; " + unresolved + " cells with under "
                + String.format(Locale.ROOT, "%,.0f", RESOLVING_OPS) + " ops per iteration cannot resolve 1 B/op "
                + "with JMH";
        if (n == 0) {
            return new Verdict("not measured", "needs the C reference's frame sizes and resolvable arr→new cells"
                    + skipped);
        }
        return new Verdict(maxExtra < 1 ? "met" : "missed", worst + "; " + n + " cells, " + source + skipped
                + (useProbe ? "" : warmupNote));
    }

    private void probeTable(StringBuilder b) {
        if (probe.isEmpty()) {
            return;
        }
        b.append("## Exact allocation of zstd-java's forms (allocation probe)\n\n");
        b.append("B/op counted with `ThreadMXBean.getCurrentThreadAllocatedBytes()` for the calling thread around a "
                + "run of calls after a JIT warm-up (`AllocProbe`). JMH's `gc.alloc.rate.norm` below also counts JMH's "
                + "own threads, which shows as tens of B/op on payloads where an iteration holds few operations. For "
                + "`arr→new` the expected value is the returned array: 16 B header + length rounded up to 8.\n\n");
        Set<String> cols = new LinkedHashSet<>();
        Set<String> payloadSet = new LinkedHashSet<>();
        for (String k : probe.keySet()) {
            String[] p = k.split("\\|");
            cols.add(p[0] + " " + p[1] + "|" + p[2] + "|" + p[4]);
            payloadSet.add(p[3]);
        }
        List<String> ps = Payloads.names().stream().filter(payloadSet::contains).toList();
        b.append("| codec, op | form |");
        for (String p : ps) {
            b.append(' ').append(p).append(" |");
        }
        b.append("\n|---|---|").append("---:|".repeat(ps.size())).append('\n');
        for (String c : cols) {
            String[] q = c.split("\\|");
            String[] co = q[0].split(" ");
            b.append("| ").append(q[0]).append(" | ").append(SHORT.get(q[1])).append(" |");
            for (String p : ps) {
                Double v = probe.get(key(co[0], co[1], q[1], p, q[2]));
                b.append(' ').append(v == null ? "–" : bytes(v)).append(" |");
            }
            b.append('\n');
        }
        b.append('\n');
    }

    // ---------------------------------------------------------------- charts

    private List<String> charts(Path dir) {
        List<String> made = new ArrayList<>();
        try {
            Files.createDirectories(dir);
            for (String codec : List.of("zstd", "lz4")) {
                String set = headSetting(codec);
                for (String op : List.of("compress", "decompress")) {
                    List<String> who = contestants(codec, op, set);
                    List<String> ps = payloads(codec, set);
                    if (who.isEmpty() || ps.isEmpty()) {
                        continue;
                    }
                    boolean haveC = who.contains("c");
                    String ref = haveC ? "c" : bestOf(codec);
                    if (!who.contains(ref)) {
                        continue;
                    }
                    List<String> series = who.stream().filter(w -> !w.equals(ref)).toList();
                    double[][] v = new double[series.size()][ps.size()];
                    double[][] e = new double[series.size()][ps.size()];
                    for (int s = 0; s < series.size(); s++) {
                        for (int g = 0; g < ps.size(); g++) {
                            Cell x = cell(codec, op, series.get(s), ps.get(g), set);
                            Cell rc = cell(codec, op, ref, ps.get(g), set);
                            v[s][g] = r(x, rc);
                            e[s][g] = x == null || rc == null ? Double.NaN
                                    : v[s][g] * (nz(x.error) / x.score + nz(rc.error) / rc.score);
                        }
                    }
                    String name = codec + "-" + op + ".png";
                    String refName = haveC ? "C" : SHORT.get(ref);
                    Chart.bars(dir.resolve(name), codec + " " + op + (codec.equals("zstd") ? " level 3" : " default")
                                    + ": throughput relative to " + refName, "throughput / " + refName, ps,
                            series.stream().map(SHORT::get).toList(), v, e, 1.0, refName + " = 1.0");
                    made.add(name);
                }
            }
            List<String> levels = new ArrayList<>();
            for (String l : settings("zstd")) {
                if (cell("zstd", "compress", "c", "text-64k", l) != null) {
                    levels.add(l);
                }
            }
            levels.sort((x, y) -> Integer.compare(Integer.parseInt(x), Integer.parseInt(y)));
            if (levels.size() > 1) {
                for (String op : List.of("compress", "decompress")) {
                    Set<String> who = new LinkedHashSet<>();
                    for (String l : levels) {
                        for (String w : contestants("zstd", op, l)) {
                            if (!w.equals("c") && cell("zstd", op, w, "text-64k", l) != null) {
                                who.add(w);
                            }
                        }
                    }
                    List<String> series = LABEL.keySet().stream().filter(who::contains).toList();
                    double[][] v = new double[series.size()][levels.size()];
                    double[][] e = new double[series.size()][levels.size()];
                    for (int si = 0; si < series.size(); si++) {
                        for (int g = 0; g < levels.size(); g++) {
                            Cell x = cell("zstd", op, series.get(si), "text-64k", levels.get(g));
                            Cell rc = cell("zstd", op, "c", "text-64k", levels.get(g));
                            v[si][g] = r(x, rc);
                            e[si][g] = x == null || rc == null ? Double.NaN
                                    : v[si][g] * (nz(x.error) / x.score + nz(rc.error) / rc.score);
                        }
                    }
                    String name = "zstd-levels-" + op + ".png";
                    Chart.bars(dir.resolve(name), "zstd " + op + " text-64k by level: throughput relative to C",
                            "throughput / C", levels.stream().map(l -> "level " + l).toList(),
                            series.stream().map(SHORT::get).toList(), v, e, 1.0, "C = 1.0");
                    made.add(name);
                }
            }
        } catch (Throwable t) { // e.g. no fonts on a minimal machine: the tables still stand
            System.err.println("report: charts skipped: " + t);
        }
        return made;
    }

    // ---------------------------------------------------------------- legend and notes

    private void legend(StringBuilder b) {
        b.append("## Column legend\n\n| column | contestant and form |\n|---|---|\n");
        for (var e : LABEL.entrySet()) {
            b.append("| ").append(SHORT.get(e.getKey())).append(" | ").append(e.getValue()).append(" |\n");
        }
        b.append('\n');
    }

    private void notes(StringBuilder b) {
        List<Double> rel = new ArrayList<>();
        for (Cell c : cells) {
            if (!c.contestant.equals("c") && !Double.isNaN(c.error) && c.score > 0) {
                rel.add(c.error / c.score);
            }
        }
        if (!rel.isEmpty()) {
            rel.sort(null);
            long wide = rel.stream().filter(x -> x > 0.10).count();
            b.append("## Noise in this run\n\n")
                    .append(String.format(Locale.ROOT, "JMH error bars relative to the score: median ±%.1f%%, "
                                    + "90th percentile ±%.1f%%; %d of %d cells are wider than ±10%%. ",
                            100 * rel.get(rel.size() / 2), 100 * rel.get(Math.min(rel.size() - 1, rel.size() * 9 / 10)),
                            wide, rel.size()))
                    .append("Load average before / after the run: ").append(env.getProperty("load.before", "?"))
                    .append(" / ").append(env.getProperty("load.after", "?"))
                    .append(" (on 2 cores, anything above about 1 means other work competed with the benchmark).\n\n");
        }
        b.append("""
                ## How to read these numbers

                - **Error bars.** JMH's ± is the 99.9% confidence half-width over the measured iterations of one \
                fork (Student's t); with few iterations it is wide and it does not capture fork-to-fork (JIT, \
                memory layout) variation. The C reference's ± is one standard deviation over its iterations. A \
                ratio's uncertainty is roughly the sum of the two relative errors; differences of a few percent \
                are only meaningful where the bars are smaller than that.
                - **Noise on a small machine.** This machine has 2 cores shared with other work. A JMH fork runs \
                the benchmark thread plus JIT compiler and GC threads, so anything else running steals time \
                unevenly between cells that run minutes apart; compare cells measured close together, look at \
                the load averages above, and rerun suspicious cells alone \
                (`java -jar benchmark/target/benchmarks.jar ZstdCompressBench.zstdjava_segment -p payload=text-1k`).
                - **Same work, different code.** zstd-java and the C reference run the identical libzstd/liblz4 \
                build (so their ratio is the binding's overhead). zstd-jni, lz4-java and aircompressor's FFM \
                binding each run their own bundled build (versions above): their differences mix binding \
                overhead with compiler flags and library versions. aircompressor-v3 loads only the library \
                inside its own jar (`aircompressor/<os>-<arch>/lib*.so`, copied to a temporary file and opened \
                with `SymbolLookup.libraryLookup`; its one switch, `io.airlift.compress.v3.disable-native`, turns \
                native code off), so it is measured as shipped. aircompressor's Java zstd compressor has one \
                level only, so it appears only at zstd level 3; its lz4 compressors have no HC mode.
                - **Frames.** Every zstd contestant writes one frame with the content size and no checksum; all \
                zstd decompressors read the same frame, made by zstd-java at the cell's level. lz4 cells use raw \
                blocks (no frame); the decompressors get the exact decompressed size.
                - **Allocation.** `gc.alloc.rate.norm` counts Java heap bytes per operation; native memory held by \
                contexts is not counted (it is allocated once, outside the measured loop).

                Reproduce: `./bench quick` (a few minutes) or `./bench full`; plain JMH: \
                `java -jar benchmark/target/benchmarks.jar -prof gc [-prof async] [pattern]`.
                """);
    }
}
