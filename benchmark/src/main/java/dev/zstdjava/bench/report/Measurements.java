package dev.zstdjava.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import dev.zstdjava.bench.Payloads;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.stream.Stream;

/**
 * A results folder, loaded: the JMH JSON files from {@code suite}, {@code cref.jsonl} from the C reference,
 * {@code alloc-probe.jsonl} from the allocation probe, {@code env.properties} and the JMH logs' failures; and the
 * queries the verdicts and the Markdown ask of them.
 */
final class Measurements {
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

    /** JMH writes NaN as a bare token where an error is unknown (one iteration) */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS).build();

    private final List<Cell> cells = new ArrayList<>();
    private final Map<String, String> crefEnv = new LinkedHashMap<>();
    private final Map<String, Long> compressedSize = new LinkedHashMap<>();
    private final Properties env = new Properties();
    /** exact B/op from the allocation probe, by {@link #key} */
    private final Map<String, Double> probe = new LinkedHashMap<>();
    private final Set<String> jvmArgs = new LinkedHashSet<>();
    private final List<String> failures = new ArrayList<>();
    private String jmhVersion = "?";
    private String jdk = "?";

    private Measurements() {
    }

    static String key(String codec, String op, String contestant, String payload, String setting) {
        return codec + "|" + op + "|" + contestant + "|" + payload + "|" + setting;
    }

    // ---------------------------------------------------------------- loading

    /** @return the results in {@code dir} (files it does not know are ignored) */
    static Measurements load(Path dir) throws IOException {
        Measurements r = new Measurements();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.sorted().toList()) {
                String n = f.getFileName().toString();
                if (n.startsWith("jmh-") && n.endsWith(".json")) {
                    r.loadJmh(f);
                } else if (n.equals("cref.jsonl")) {
                    r.loadCref(f);
                } else if (n.equals("alloc-probe.jsonl")) {
                    for (JsonNode o : jsonLines(f)) {
                        r.probe.put(key(str(o, "codec"), str(o, "op"), str(o, "contestant"), str(o, "payload"),
                                str(o, "setting")), num(o, "bytes_per_op"));
                    }
                } else if (n.equals("env.properties")) {
                    try (var in = Files.newBufferedReader(f)) {
                        r.env.load(in);
                    }
                } else if (n.startsWith("jmh-") && n.endsWith(".log")) {
                    for (String line : Files.readAllLines(f)) {
                        if (line.startsWith("<failure>") || line.contains("Exception:")) {
                            r.failures.add(n + ": " + line.strip());
                        }
                    }
                }
            }
        }
        return r;
    }

    private static List<JsonNode> jsonLines(Path f) throws IOException {
        List<JsonNode> out = new ArrayList<>();
        for (String line : Files.readAllLines(f)) {
            if (!line.isBlank()) {
                out.add(JSON.readTree(line));
            }
        }
        return out;
    }

    /** @return the text of {@code key}, null when absent */
    private static String str(JsonNode o, String key) {
        JsonNode v = o.get(key);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** @return the number at {@code key} (JMH writes some as strings, "NaN" among them), NaN when absent */
    private static double num(JsonNode o, String key) {
        JsonNode v = o.get(key);
        if (v == null || v.isNull()) {
            return Double.NaN;
        }
        if (v.isNumber()) {
            return v.doubleValue();
        }
        try {
            return Double.parseDouble(v.asText());
        } catch (NumberFormatException e) {
            return Double.NaN;
        }
    }

    private void loadJmh(Path f) throws IOException {
        if (Files.readString(f).isBlank()) {
            return;
        }
        for (JsonNode o : JSON.readTree(f.toFile())) {
            String bench = str(o, "benchmark");
            String cls = bench.substring(0, bench.lastIndexOf('.'));
            cls = cls.substring(cls.lastIndexOf('.') + 1);
            String method = bench.substring(bench.lastIndexOf('.') + 1);
            String codec = cls.startsWith("Lz4") ? "lz4" : "zstd";
            String op = cls.contains("Decompress") ? "decompress" : "compress";
            JsonNode params = o.path("params");
            String setting = codec.equals("lz4") ? str(params, "mode") : str(params, "level");
            JsonNode pm = o.path("primaryMetric");
            JsonNode alloc = o.path("secondaryMetrics").path("gc.alloc.rate.norm");
            int samples = 0;
            for (JsonNode fork : pm.path("rawData")) {
                samples += fork.size();
            }
            cells.add(new Cell(codec, op, method, str(params, "payload"), setting, num(pm, "score"),
                    num(pm, "scoreError"), num(alloc, "score"), samples, millis(str(o, "measurementTime"))));
            if (str(o, "jmhVersion") != null) {
                jmhVersion = str(o, "jmhVersion");
            }
            jdk = str(o, "vmName") + " " + str(o, "vmVersion") + " (" + str(o, "jdkVersion") + ")";
            for (JsonNode a : o.path("jvmArgs")) {
                jvmArgs.add(a.asText());
            }
        }
    }

    private void loadCref(Path f) throws IOException {
        for (JsonNode o : jsonLines(f)) {
            if ("env".equals(str(o, "kind"))) {
                for (var e : o.properties()) {
                    crefEnv.put(e.getKey(), e.getValue().isTextual() ? e.getValue().asText() : e.getValue().toString());
                }
                continue;
            }
            String codec = str(o, "codec");
            int level = (int) num(o, "level");
            String setting = codec.equals("lz4") ? lz4Mode(level) : String.valueOf(level);
            double ns = num(o, "ns_op");
            double sd = num(o, "ns_op_sd");
            double score = 1e6 / ns;
            cells.add(new Cell(codec, str(o, "op"), "c", str(o, "payload"), setting, score,
                    score * sd / ns, Double.NaN, (int) num(o, "iterations"), Double.NaN));
            compressedSize.put(codec + "|" + setting + "|" + str(o, "payload"), (long) num(o, "compressed"));
        }
    }

    /** @return a JMH time ("400 ms", "1 s") in milliseconds, NaN when absent */
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

    static String lz4Mode(int level) {
        return level == 0 ? "default" : level < 0 ? "fast" + (-level) : "hc" + level;
    }

    // ---------------------------------------------------------------- what was loaded

    List<Cell> cells() {
        return Collections.unmodifiableList(cells);
    }

    /** @return the C reference's frame or block size, or -1 */
    long compressedSize(String codec, String setting, String payload) {
        return compressedSize.getOrDefault(codec + "|" + setting + "|" + payload, -1L);
    }

    /** @return the allocation probe's B/op by {@link #key} */
    Map<String, Double> probe() {
        return Collections.unmodifiableMap(probe);
    }

    String env(String key, String otherwise) {
        return env.getProperty(key, otherwise);
    }

    Map<String, String> crefEnv() {
        return Collections.unmodifiableMap(crefEnv);
    }

    Set<String> jvmArgs() {
        return Collections.unmodifiableSet(jvmArgs);
    }

    List<String> failures() {
        return Collections.unmodifiableList(failures);
    }

    String jmhVersion() {
        return jmhVersion;
    }

    String jdk() {
        return jdk;
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

    /** @return the payloads measured for codec and setting, in {@link Payloads#names()} order */
    List<String> payloads(String codec, String setting) {
        Set<String> present = new LinkedHashSet<>();
        for (Cell c : cells) {
            if (c.codec.equals(codec) && c.setting.equals(setting)) {
                present.add(c.payload);
            }
        }
        return Payloads.names().stream().filter(present::contains).toList();
    }

    /** @return the contestants measured, in {@link Contestants#LABEL} order */
    List<String> contestants(String codec, String op, String setting) {
        Set<String> present = new LinkedHashSet<>();
        for (Cell c : cells) {
            if (c.codec.equals(codec) && c.op.equals(op) && c.setting.equals(setting)) {
                present.add(c.contestant);
            }
        }
        return Contestants.LABEL.keySet().stream().filter(present::contains).toList();
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

    /** @return the zstd levels with a text-64k cell of {@code who} (any of them), in ascending order */
    List<String> sweepLevels(String... who) {
        List<String> levels = new ArrayList<>();
        for (String s : settings("zstd")) {
            for (String w : who) {
                if (cell("zstd", "compress", w, "text-64k", s) != null) {
                    levels.add(s);
                    break;
                }
            }
        }
        levels.sort((x, y) -> Integer.compare(Integer.parseInt(x), Integer.parseInt(y)));
        return levels;
    }

    /** @return the payload's size in bytes, -1 when its corpus file cannot be read */
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
}
