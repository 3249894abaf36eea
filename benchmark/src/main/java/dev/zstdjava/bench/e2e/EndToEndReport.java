package dev.zstdjava.bench.e2e;

import dev.zstdjava.bench.chart.BarChart;
import dev.zstdjava.bench.e2e.Clients.Kind;
import dev.zstdjava.bench.e2e.Results.Cell;
import dev.zstdjava.bench.e2e.Results.Row;
import dev.zstdjava.bench.report.Generated;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** Writes the Markdown report, its PNG charts and the raw CSV. */
final class EndToEndReport {
    static final double ZSTD_MEMORY_TARGET = 0.49;
    static final double LZ4_MEMORY_TARGET = 0.28;
    static final double ZSTD_SET_TARGET = 0.80;
    static final double LZ4_SET_TARGET = 0.95;
    static final int TARGET_BATCH = 20;
    /** Managed dictionaries: memory saved on small JSON records and on ~2 KiB JSON objects, against plain Lettuce */
    static final double DICT_RECORDS_MEMORY_TARGET = 0.45;
    static final double DICT_JSON_MEMORY_TARGET = 0.80;
    /** Managed dictionaries: SET and GET throughput with pipelines against lettuce-zstd on the 1 KiB and json sets */
    static final double DICT_SET_TARGET = 1.5;
    static final double DICT_GET_TARGET = 1.0;
    /** The codec client (compressing where Lettuce encodes) against compression on the calling thread */
    static final double CALLER_TARGET = 0.95;
    static final int CALLER_INFLIGHT = 64;

    /** Everything about the run except the rows. */
    record Meta(EndToEnd.Options options, Instant started, Duration took, double loadAtStart, String serverVersion,
                String serverDesc,
                List<Datasets.Dataset> datasets, List<Kind> clients, Map<Kind, String> unavailable,
                long mismatches, String firstMismatch, Map<String, String> training, Map<Kind, String> codecThreads,
                String pinning) {}

    /** Writes one chart as PNG; the tool's is {@link BarChart#writePng}, a test's may fail as a machine without fonts does. */
    @FunctionalInterface
    interface PngWriter {
        void write(BarChart chart, Path file) throws IOException;
    }

    private final Meta meta;
    private final List<Row> rawRows;
    private final List<Row> rows;
    private final StringBuilder md = new StringBuilder();
    /** Why the charts were not drawn, null when they were */
    private String chartsSkipped;

    private EndToEndReport(Meta meta, List<Row> rawRows) {
        this.meta = meta;
        this.rawRows = rawRows;
        this.rows = combineRounds(rawRows);
    }

    /**
     * @return one row per cell and client: each phase from its fastest round (interference from other processes
     *         only ever slows a round down), memory averaged, mismatches summed
     */
    static List<Row> combineRounds(List<Row> raw) {
        Map<String, List<Row>> groups = new java.util.LinkedHashMap<>();
        for (Row r : raw) {
            groups.computeIfAbsent(r.cell().label() + "|" + r.client().id, x -> new ArrayList<>()).add(r);
        }
        List<Row> out = new ArrayList<>();
        for (List<Row> g : groups.values()) {
            Row first = g.get(0);
            Results.Phase set = first.set();
            Results.Phase get = first.get();
            double mem = 0;
            double used = 0;
            long mismatches = 0;
            for (Row r : g) {
                set = r.set().opsPerSec() > set.opsPerSec() ? r.set() : set;
                get = r.get().opsPerSec() > get.opsPerSec() ? r.get() : get;
                mem += r.memPerKey();
                used += r.usedPerKey();
                mismatches += r.mismatches();
            }
            out.add(new Row(first.cell(), first.client(), 0, first.keys(), set, get, mem / g.size(), used / g.size(),
                    first.storedForm(), mismatches));
        }
        return out;
    }

    /** @return the Markdown file written */
    static Path write(Meta meta, List<Row> rows) throws IOException {
        return write(meta, rows, BarChart::writePng);
    }

    /**
     * Writes the CSV, the charts through {@code png} and the Markdown. Drawing a chart needs fonts (AWT): where it
     * fails (no fonts installed, no font configuration, AWT's native libraries missing) the charts are skipped and
     * removed, the report says why, and the tables and the CSV are written all the same.
     *
     * @return the Markdown file written
     */
    static Path write(Meta meta, List<Row> rows, PngWriter png) throws IOException {
        Path out = meta.options().out;
        String base = out.getFileName().toString().replaceFirst("\\.md$", "");
        Path dir = out.resolveSibling(base);
        Files.createDirectories(dir);
        EndToEndReport r = new EndToEndReport(meta, rows);
        Files.writeString(dir.resolve("results.csv"), r.csv(), StandardCharsets.UTF_8);
        r.charts(dir, png);
        Files.writeString(out, r.markdown(base), StandardCharsets.UTF_8);
        return out;
    }

    // ---- lookups ----

    private Row row(Cell cell, Kind k) {
        for (Row r : rows) {
            if (r.cell().equals(cell) && r.client() == k) {
                return r;
            }
        }
        return null;
    }

    private List<Cell> cells() {
        List<Cell> out = new ArrayList<>();
        for (Row r : rows) {
            if (!out.contains(r.cell())) {
                out.add(r.cell());
            }
        }
        return out;
    }

    private boolean has(Kind k) {
        return meta.clients().contains(k);
    }

    /** @return throughput of {@code k} divided by {@code base}'s in {@code cell}, NaN when either is missing */
    private double ratio(Cell cell, Kind k, Kind base, boolean set) {
        Row a = row(cell, k);
        Row b = row(cell, base);
        if (a == null || b == null) {
            return Double.NaN;
        }
        double x = set ? a.set().opsPerSec() : a.get().opsPerSec();
        double y = set ? b.set().opsPerSec() : b.get().opsPerSec();
        return y == 0 ? Double.NaN : x / y;
    }

    /** @return mean MEMORY USAGE per key of {@code k} on {@code dataset} over all its cells, NaN when not measured */
    private double memPerKey(String dataset, Kind k) {
        double sum = 0;
        int n = 0;
        for (Row r : rows) {
            if (r.cell().dataset().equals(dataset) && r.client() == k) {
                sum += r.memPerKey();
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    private double usedPerKey(String dataset, Kind k) {
        double sum = 0;
        int n = 0;
        for (Row r : rows) {
            if (r.cell().dataset().equals(dataset) && r.client() == k) {
                sum += r.usedPerKey();
                n++;
            }
        }
        return n == 0 ? Double.NaN : sum / n;
    }

    private String stored(String dataset, Kind k) {
        for (Row r : rows) {
            if (r.cell().dataset().equals(dataset) && r.client() == k) {
                return r.storedForm();
            }
        }
        return "";
    }

    private double saved(String dataset, Kind k) {
        return 1 - memPerKey(dataset, k) / memPerKey(dataset, Kind.LETTUCE);
    }

    // ---- formatting ----

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }

    static String num(double v) {
        if (Double.isNaN(v)) {
            return "n/a";
        }
        return v >= 100 ? f("%,.0f", v) : v >= 10 ? f("%.1f", v) : f("%.2f", v);
    }

    static String x(double v) {
        return Double.isNaN(v) ? "n/a" : f("%.2fx", v);
    }

    private static String pct(double v) {
        return Double.isNaN(v) ? "n/a" : f("%.1f%%", v * 100);
    }

    private void line(String s) {
        md.append(s).append('\n');
    }

    // ---- Markdown ----

    private String markdown(String assetDir) {
        EndToEnd.Options o = meta.options();
        boolean quick = o.mode.equals("quick");
        line("# End-to-end benchmark: compression on a real server");
        line("");
        line(Generated.notice("./e2e" + (o.commandLine.isEmpty() ? "" : " " + o.commandLine)));
        line("");
        line("Lettuce without compression (the baseline), Lettuce with this library (zstd, lz4), Lettuce's own GZIP "
                + "codec and Java GLIDE with and without its compression, run one after the other on the same server "
                + "and the same data, in one run.");
        line("");
        if (quick) {
            line("> **Quick run** (`--quick`): short phases and few keys, to check the tool works. The numbers are "
                    + "indicative only; use the full run for decisions.");
            line("");
        }
        line("Generated by `./e2e" + (o.commandLine.isEmpty() ? "" : " " + o.commandLine) + "` on "
                + DateTimeFormatter.ISO_LOCAL_DATE_TIME.format(meta.started().atOffset(ZoneOffset.UTC).withNano(0))
                + " UTC; the run took " + f("%d:%02d", meta.took().toMinutes(), meta.took().toSecondsPart())
                + ". Raw numbers: [" + assetDir + "/results.csv](" + assetDir + "/results.csv).");
        line("");

        setup(o);
        correctness();
        if (o.link != null) {
            md.append(LinkReport.section(o, meta.clients(), rows));
        }
        targets();
        memory(assetDir);
        throughput(assetDir);
        if (chartsSkipped != null) {
            line("## Charts");
            line("");
            line("**The charts were not drawn on this machine** (" + chartsSkipped + "); drawing them needs fonts "
                    + "(install fontconfig and a font package, e.g. fonts-dejavu-core). The tables and the CSV are "
                    + "complete.");
            line("");
        }
        overhead();
        return md.toString();
    }

    private void setup(EndToEnd.Options o) {
        var os = ManagementFactory.getOperatingSystemMXBean();
        line("## Setup");
        line("");
        line("- Server: " + meta.serverVersion() + ", " + meta.serverDesc() + ".");
        if (o.linkDescription != null) {
            line("- Link: " + o.linkDescription + ".");
        }
        line("- Machine: " + os.getAvailableProcessors() + " CPUs, " + os.getName() + " " + os.getVersion() + " "
                + os.getArch() + "; Java " + System.getProperty("java.vm.name") + " " + Runtime.version()
                + f("; load average %.2f at the start of the run, %.2f at the end.", meta.loadAtStart(),
                os.getSystemLoadAverage()));
        line("- Library: " + LibraryOrigin.describe() + ".");
        line("- Matrix: values " + String.join(", ", meta.datasets().stream().map(Datasets.Dataset::name).toList())
                + "; requests in flight " + o.inflight + "; commands per pipelined batch " + o.batch + "; "
                + o.keys + " keys per cell.");
        if (o.rounds > 1) {
            line("- The whole matrix ran " + o.rounds + " times (rounds); for each client and cell the tables show "
                    + "each phase's fastest round (other processes can only slow a round down) and the mean memory. "
                    + "The CSV has every round.");
        }
        line(f("- Each client in each cell: %.2f s unmeasured SETs and GETs, then the SET phase (at least %.2f s and "
                + "until every key is written), server memory, then the GET phase (at least %.2f s, every key read "
                + "and checked). Before the matrix, %.2f s of SETs and GETs per client warm the JVM. The order of the "
                + "clients rotates from cell to cell.", o.warmup, o.seconds, o.seconds, o.globalWarmup));
        line("- Requests in flight are virtual threads, each sending one request (a single command or a pipelined "
                + "batch) and waiting for its replies. Lettuce pipelines by dispatching the batch's commands in one "
                + "write and flush on its one shared connection; GLIDE sends a non-atomic `Batch` (its pipeline) on "
                + "its one multiplexed connection. Latency is per request: a batch counts once, from sending to its "
                + "last reply. The tool sends Lettuce's commands as `AsyncCommand`s handed to "
                + "`StatefulConnection.dispatch` (one command, or a batch's commands at once), not through the sync, "
                + "async or reactive API, and waits on the futures `dispatch` returns, as Lettuce's async API hands "
                + "them out; so a codec encodes and decodes a value on whichever thread the client does that for "
                + "dispatched commands. "
                + "The `-caller` clients use Lettuce's plain `ByteArrayCodec` and call this library's "
                + "`ValueCompressor` on the requesting threads instead: `compress` before the SET is queued, "
                + "`decompress` after the GET's reply; the bytes on the server are the same. Where each client "
                + "compressed and decompressed in this run is in the table below (for the codec clients observed on "
                + "one SET and one GET before the matrix).");
        line("- CPU per op: CPU time of the whole benchmark process (all client threads, GC, GLIDE's native "
                + "threads) during the phase, divided by the commands. Event-loop CPU per op: CPU time (the JVM's "
                + "per-thread CPU time) of the client's event-loop threads during the phase, divided by the commands: "
                + "for Lettuce " + EventLoopThreads.Family.LETTUCE.description + "; for GLIDE "
                + EventLoopThreads.Family.GLIDE.description + ". Wire bytes: the server's "
                + "`total_net_input_bytes` (SET phase) and `total_net_output_bytes` (GET phase) growth per command. "
                + "Memory: mean `MEMORY USAGE` of 400 sampled keys (key, value and overhead), and `used_memory` "
                + "growth over the SET phase per key.");
        if (meta.pinning() != null) {
            line("- CPUs: " + meta.pinning() + ".");
        }
        line("");
        line("| Client | What | Where values are compressed and decompressed |");
        line("|---|---|---|");
        for (Kind k : Kind.values()) {
            if (has(k)) {
                line("| " + k.id + " | " + k.label + " | " + meta.codecThreads().getOrDefault(k, "not observed") + " |");
            } else if (meta.unavailable().containsKey(k)) {
                line("| " + k.id + " | " + k.label + " — **did not run here**: " + meta.unavailable().get(k) + " | — |");
            }
        }
        line("");
        boolean dict = has(Kind.LETTUCE_ZSTD_DICT);
        line(dict ? "| Values | What | " + Kind.LETTUCE_ZSTD_DICT.id + ": its dictionary after the warm-up |" : "| Values | What |");
        line(dict ? "|---|---|---|" : "|---|---|");
        for (Datasets.Dataset d : meta.datasets()) {
            line("| " + d.name() + " | " + d.description() + " |"
                    + (dict ? " " + meta.training().getOrDefault(d.name(), "—") + " |" : ""));
        }
        line("");
    }

    private void correctness() {
        long gets = 0;
        for (Row r : rows) {
            gets += r.get().ops();
        }
        line("## Correctness");
        line("");
        if (meta.mismatches() == 0) {
            line(f("Every GET was checked against the value written: %,d GETs, **0 mismatches**.", gets));
        } else {
            line(f("**FAILED: %,d of %,d GETs did not return the value written.** First: %s", meta.mismatches(), gets,
                    meta.firstMismatch()));
        }
        line("");
    }

    private void targets() {
        line("## Targets");
        line("");
        line("| Target | Measured | Result |");
        line("|---|---|---|");
        boolean json = meta.datasets().stream().anyMatch(d -> d.name().equals(Datasets.JSON));
        memoryTarget(json, Kind.LETTUCE_ZSTD, ZSTD_MEMORY_TARGET, Kind.GLIDE_ZSTD);
        memoryTarget(json, Kind.LETTUCE_LZ4, LZ4_MEMORY_TARGET, Kind.GLIDE_LZ4);
        setTarget(Kind.LETTUCE_LZ4, LZ4_SET_TARGET);
        setTarget(Kind.LETTUCE_LZ4_CALLER, LZ4_SET_TARGET);
        setTarget(Kind.LETTUCE_ZSTD, ZSTD_SET_TARGET);
        setTarget(Kind.LETTUCE_ZSTD_CALLER, ZSTD_SET_TARGET);
        overheadTarget("zstd", Kind.LETTUCE_ZSTD, Kind.GLIDE_ZSTD);
        overheadTarget("zstd", Kind.LETTUCE_ZSTD_CALLER, Kind.GLIDE_ZSTD);
        overheadTarget("lz4", Kind.LETTUCE_LZ4, Kind.GLIDE_LZ4);
        overheadTarget("lz4", Kind.LETTUCE_LZ4_CALLER, Kind.GLIDE_LZ4);
        dictionaryTargets();
        callerTarget();
        line("");
        if (has(Kind.GLIDE)) {
            line("For reference, GLIDE's own SET throughput with compression ÷ without, pipelines of " + TARGET_BATCH
                    + " (GLIDE reports 0.24x for zstd): zstd " + glideSetRatios(Kind.GLIDE_ZSTD) + "; lz4 "
                    + glideSetRatios(Kind.GLIDE_LZ4) + ".");
            line("");
        }
        line("The overhead target compares, per cell and phase, this library's compressed ÷ uncompressed Lettuce "
                + "throughput with GLIDE's compressed ÷ uncompressed GLIDE throughput; the cells where it is missed "
                + "are listed under [Compression overhead against GLIDE](#compression-overhead-against-glide).");
        line("");
    }

    static String verdict(boolean met) {
        return met ? "met" : "**missed**";
    }

    private void memoryTarget(boolean json, Kind k, double target, Kind glide) {
        String name = f("Memory saved on ~2 KiB JSON, %s >= %.0f%%", k.id, target * 100);
        if (!json || !has(k)) {
            line("| " + name + " | not measured | n/a |");
            return;
        }
        double s = saved(Datasets.JSON, k);
        String g = has(glide) ? f(" (%s: %s)", glide.id, pct(saved(Datasets.JSON, glide))) : "";
        line("| " + name + " | " + pct(s) + g + " | " + verdict(s >= target) + " |");
    }

    private void setTarget(Kind k, double target) {
        String name = f("SET throughput vs baseline with pipelines of %d, %s >= %.2fx", TARGET_BATCH, k.id, target);
        List<String> parts = new ArrayList<>();
        int met = 0;
        int n = 0;
        for (Cell c : cells()) {
            if (c.batch() != TARGET_BATCH) {
                continue;
            }
            double r = ratio(c, k, Kind.LETTUCE, true);
            if (Double.isNaN(r)) {
                continue;
            }
            n++;
            met += r >= target ? 1 : 0;
            parts.add(c.dataset() + " if" + c.inflight() + ": " + x(r));
        }
        if (n == 0) {
            line("| " + name + " | not measured | n/a |");
            return;
        }
        line("| " + name + " | " + String.join("; ", parts) + " | " + verdict(met == n)
                + (met == n ? "" : f(" (met in %d of %d cells)", met, n)) + " |");
    }

    /** @return GLIDE's own compressed ÷ uncompressed SET throughput in the target's cells, for reference */
    private String glideSetRatios(Kind glide) {
        List<String> parts = new ArrayList<>();
        for (Cell c : cells()) {
            double r = c.batch() == TARGET_BATCH ? ratio(c, glide, Kind.GLIDE, true) : Double.NaN;
            if (!Double.isNaN(r)) {
                parts.add(c.dataset() + " if" + c.inflight() + ": " + x(r));
            }
        }
        return parts.isEmpty() ? "not measured" : String.join("; ", parts);
    }

    private void overheadTarget(String backend, Kind ours, Kind glide) {
        String name = "Compression overhead (" + backend + ", " + ours.id + ") at most GLIDE's, every cell, SET and GET";
        if (!has(ours)) {
            return; // the client was not selected with --clients
        }
        if (!has(glide) || !has(Kind.GLIDE)) {
            line("| " + name + " | not measured (GLIDE " + backend + " did not run) | n/a |");
            return;
        }
        int met = 0;
        int n = 0;
        int faster = 0;
        double worst = Double.POSITIVE_INFINITY;
        String worstAt = "";
        for (Cell c : cells()) {
            for (boolean set : new boolean[] {true, false}) {
                double a = ratio(c, ours, Kind.LETTUCE, set);
                double b = ratio(c, glide, Kind.GLIDE, set);
                if (Double.isNaN(a) || Double.isNaN(b)) {
                    continue;
                }
                n++;
                met += a >= b ? 1 : 0;
                faster += ratio(c, ours, glide, set) >= 1 ? 1 : 0;
                if (a - b < worst) {
                    worst = a - b;
                    worstAt = c.label() + (set ? " SET" : " GET") + f(": ours %.2fx, GLIDE %.2fx", a, b);
                }
            }
        }
        line("| " + name + " | ratio at least GLIDE's in " + met + " of " + n + " cell-phases; closest/worst "
                + worstAt + " (absolute: " + ours.id + " at least as fast as " + glide.id + " in " + faster + " of " + n
                + ") | " + verdict(met == n) + " |");
    }

    /**
     * The codec client against the same compression on the calling thread with 64 requests in flight: per cell and
     * phase, the median over the rounds of each client's throughput, lettuce-zstd's ÷ lettuce-zstd-caller's.
     */
    private void callerTarget() {
        Kind k = Kind.LETTUCE_ZSTD;
        Kind caller = Kind.LETTUCE_ZSTD_CALLER;
        if (!has(k) || !has(caller)) {
            return;
        }
        String name = f("Throughput with %d in flight, %s >= %.2fx %s, median of the rounds, every cell, SET and GET",
                CALLER_INFLIGHT, k.id, CALLER_TARGET, caller.id);
        List<String> parts = new ArrayList<>();
        int met = 0;
        int n = 0;
        for (Cell c : cells()) {
            if (c.inflight() != CALLER_INFLIGHT) {
                continue;
            }
            for (boolean set : new boolean[] {true, false}) {
                double r = medianOps(c, k, set) / medianOps(c, caller, set);
                if (Double.isNaN(r)) {
                    continue;
                }
                n++;
                met += r >= CALLER_TARGET ? 1 : 0;
                parts.add(c.dataset() + " b" + c.batch() + (set ? " SET " : " GET ") + x(r));
            }
        }
        line("| " + name + " | " + (n == 0 ? "not measured" : String.join("; ", parts)) + " | "
                + (n == 0 ? "n/a" : verdict(met == n) + (met == n ? "" : f(" (met in %d of %d)", met, n))) + " |");
    }

    /** @return the median over the rounds of {@code k}'s throughput in {@code cell}, NaN when it did not run there */
    private double medianOps(Cell cell, Kind k, boolean set) {
        List<Double> ops = new ArrayList<>();
        for (Row r : rawRows) {
            if (r.cell().equals(cell) && r.client() == k) {
                ops.add(set ? r.set().opsPerSec() : r.get().opsPerSec());
            }
        }
        return EventLoopProbe.median(ops);
    }

    private void dictionaryTargets() {
        if (!has(Kind.LETTUCE_ZSTD_DICT)) {
            return; // the client was not selected with --clients
        }
        Kind k = Kind.LETTUCE_ZSTD_DICT;
        dictionaryMemory(Datasets.RECORDS, "small JSON records", DICT_RECORDS_MEMORY_TARGET);
        dictionaryMemory(Datasets.JSON, "~2 KiB JSON", DICT_JSON_MEMORY_TARGET);
        for (boolean set : new boolean[] {true, false}) {
            double target = set ? DICT_SET_TARGET : DICT_GET_TARGET;
            String name = f("%s throughput with pipelines of %d on 1 KiB and json, %s >= %.1fx %s", set ? "SET" : "GET",
                    TARGET_BATCH, k.id, target, Kind.LETTUCE_ZSTD.id);
            List<String> parts = new ArrayList<>();
            int met = 0;
            int n = 0;
            for (Cell c : cells()) {
                boolean dataset = c.dataset().equals(Datasets.JSON) || c.dataset().equals(Datasets.sizeName(1024));
                double r = c.batch() == TARGET_BATCH && dataset ? ratio(c, k, Kind.LETTUCE_ZSTD, set) : Double.NaN;
                if (!Double.isNaN(r)) {
                    n++;
                    met += r >= target ? 1 : 0;
                    parts.add(c.dataset() + " if" + c.inflight() + ": " + x(r));
                }
            }
            for (String d : List.of(Datasets.sizeName(1024), Datasets.JSON)) {
                String outcome = meta.training().get(d);
                if (n > 0 && outcome != null && !outcome.startsWith("dictionary ")) {
                    parts.add("on " + d + " " + k.id + " wrote without a dictionary (" + outcome + ")");
                }
            }
            line("| " + name + " | " + (n == 0 ? "not measured" : String.join("; ", parts)) + " | "
                    + (n == 0 ? "n/a" : verdict(met == n) + (met == n ? "" : f(" (met in %d of %d cells)", met, n)))
                    + " |");
        }
    }

    private void dictionaryMemory(String dataset, String what, double target) {
        Kind k = Kind.LETTUCE_ZSTD_DICT;
        String name = f("Memory saved on %s, %s >= %.0f%%", what, k.id, target * 100);
        double s = saved(dataset, k);
        if (Double.isNaN(s)) {
            line("| " + name + " | not measured | n/a |");
            return;
        }
        double z = saved(dataset, Kind.LETTUCE_ZSTD);
        String other = Double.isNaN(z) ? "" : f(" (%s: %s)", Kind.LETTUCE_ZSTD.id, pct(z));
        line("| " + name + " | " + pct(s) + other + " | " + verdict(s >= target) + " |");
    }

    private List<Kind> compressedKinds() {
        List<Kind> out = new ArrayList<>();
        for (Kind k : meta.clients()) {
            if (k.backend != null) {
                out.add(k);
            }
        }
        return out;
    }

    private void memory(String assetDir) {
        line("## Server memory");
        line("");
        line("Saved = 1 − (`MEMORY USAGE` per key of the client ÷ that of the baseline), same keys and values. "
                + "Stored form: what a sample of 200 stored values looks like on the server.");
        line("");
        line("| Values | Client | Stored form | MEMORY USAGE per key | Saved vs baseline | used_memory growth per key |");
        line("|---|---|---|---:|---:|---:|");
        for (Datasets.Dataset d : meta.datasets()) {
            for (Kind k : meta.clients()) {
                line("| " + d.name() + " | " + k.id + " | " + stored(d.name(), k) + " | " + num(memPerKey(d.name(), k))
                        + " B | " + (k == Kind.LETTUCE ? "—" : pct(saved(d.name(), k))) + " | "
                        + num(usedPerKey(d.name(), k)) + " B |");
            }
        }
        line("");
        image("memory saved", assetDir + "/memory-saved.png");
    }

    private void throughput(String assetDir) {
        line("## Throughput, latency, CPU and wire bytes");
        line("");
        line("×base: throughput ÷ the baseline's (Lettuce without compression) in the same cell. Latencies in µs per "
                + "request (a pipelined batch is one request). CPU: µs of process CPU time per command. Loop: µs of the "
                + "client's event-loop CPU time per command (n/a: none the JVM can measure). Wire: bytes the server "
                + "received per SET, sent per GET.");
        line("");
        image("SET throughput vs baseline", assetDir + "/set-throughput-ratio.png");
        image("GET throughput vs baseline", assetDir + "/get-throughput-ratio.png");
        for (Datasets.Dataset d : meta.datasets()) {
            line("### Values: " + d.name());
            line("");
            line("| In flight | Batch | Client | SET ops/s | ×base | SET p50 / p99 / p99.9 µs | SET CPU µs/op "
                    + "| SET loop µs/op | SET wire B/op | GET ops/s | ×base | GET p50 / p99 / p99.9 µs | GET CPU µs/op "
                    + "| GET loop µs/op | GET wire B/op |");
            line("|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
            for (Cell c : cells()) {
                if (!c.dataset().equals(d.name())) {
                    continue;
                }
                for (Kind k : meta.clients()) {
                    Row r = row(c, k);
                    if (r == null) {
                        continue;
                    }
                    line("| " + c.inflight() + " | " + c.batch() + " | " + k.id
                            + " | " + num(r.set().opsPerSec()) + " | " + x(ratio(c, k, Kind.LETTUCE, true))
                            + " | " + lat(r.set()) + " | " + num(r.set().cpuMicrosPerOp())
                            + " | " + num(r.set().loopCpuMicrosPerOp()) + " | " + num(r.set().inPerOp())
                            + " | " + num(r.get().opsPerSec()) + " | " + x(ratio(c, k, Kind.LETTUCE, false))
                            + " | " + lat(r.get()) + " | " + num(r.get().cpuMicrosPerOp())
                            + " | " + num(r.get().loopCpuMicrosPerOp()) + " | " + num(r.get().outPerOp())
                            + " |");
                }
            }
            line("");
        }
    }

    /** A chart's image link, or nothing when the charts were skipped (the Charts section says why). */
    private void image(String alt, String path) {
        if (chartsSkipped == null) {
            line("![" + alt + "](" + path + ")");
            line("");
        }
    }

    private static String lat(Results.Phase p) {
        return num(p.micros(50)) + " / " + num(p.micros(99)) + " / " + num(p.micros(99.9));
    }

    private void overhead() {
        line("## Compression overhead against GLIDE");
        line("");
        if (!has(Kind.GLIDE)) {
            line("Java GLIDE did not run here, so there is no comparison: "
                    + meta.unavailable().getOrDefault(Kind.GLIDE, "not selected with --clients") + ".");
            line("");
            return;
        }
        line("Each client against itself without compression: this library = lettuce-X ÷ lettuce, GLIDE = "
                + "glide-X ÷ glide, same cell, same run. Target: ours >= GLIDE's in every cell.");
        line("");
        line("| Values | In flight | Batch | Ours | SET ours | SET GLIDE | SET | GET ours | GET GLIDE | GET |");
        line("|---|---:|---:|---|---:|---:|---|---:|---:|---|");
        for (Cell c : cells()) {
            for (Kind ours : new Kind[] {Kind.LETTUCE_ZSTD, Kind.LETTUCE_ZSTD_CALLER, Kind.LETTUCE_LZ4,
                    Kind.LETTUCE_LZ4_CALLER}) {
                Kind glide = ours.backend.equals("zstd") ? Kind.GLIDE_ZSTD : Kind.GLIDE_LZ4;
                if (!has(ours) || !has(glide)) {
                    continue;
                }
                double so = ratio(c, ours, Kind.LETTUCE, true);
                double sg = ratio(c, glide, Kind.GLIDE, true);
                double go = ratio(c, ours, Kind.LETTUCE, false);
                double gg = ratio(c, glide, Kind.GLIDE, false);
                line("| " + c.dataset() + " | " + c.inflight() + " | " + c.batch() + " | " + ours.id
                        + " | " + x(so) + " | " + x(sg) + " | " + verdict(so >= sg)
                        + " | " + x(go) + " | " + x(gg) + " | " + verdict(go >= gg) + " |");
            }
        }
        line("");
    }

    // ---- charts ----

    static final List<String> CHART_FILES = List.of("set-throughput-ratio.png", "get-throughput-ratio.png",
            "memory-saved.png");

    /**
     * Draws the charts; where drawing fails as it does without fonts (an {@link Error} from AWT's font setup such as
     * "Probable fatal error: No fonts found", an {@code InternalError} or {@code UnsatisfiedLinkError} from its font
     * manager, or a {@code RuntimeException}), removes those written so far and records why. Out-of-memory and stack
     * overflow still propagate, and so does an {@link IOException} writing a file.
     */
    private void charts(Path dir, PngWriter png) throws IOException {
        try {
            drawCharts(dir, png);
        } catch (OutOfMemoryError | StackOverflowError e) {
            throw e;
        } catch (RuntimeException | Error e) {
            for (String f : CHART_FILES) {
                Files.deleteIfExists(dir.resolve(f));
            }
            chartsSkipped = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
            System.err.println("e2e: charts skipped, drawing failed: " + chartsSkipped);
        }
    }

    private void drawCharts(Path dir, PngWriter png) throws IOException {
        List<Cell> cells = cells();
        List<String> groups = cells.stream().map(Cell::label).toList();
        List<Kind> others = meta.clients().stream().filter(k -> k != Kind.LETTUCE).toList();
        List<String> names = others.stream().map(k -> k.id).toList();
        for (boolean set : new boolean[] {true, false}) {
            double[][] v = new double[others.size()][cells.size()];
            for (int s = 0; s < others.size(); s++) {
                for (int g = 0; g < cells.size(); g++) {
                    v[s][g] = ratio(cells.get(g), others.get(s), Kind.LETTUCE, set);
                }
            }
            String phase = set ? "SET" : "GET";
            png.write(new BarChart(phase + " throughput ÷ Lettuce without compression (if = in flight, b = batch)",
                    "throughput vs baseline", groups, names, v, null, 1.0, "Lettuce without compression = 1.0", false),
                    dir.resolve(phase.toLowerCase(Locale.ROOT) + "-throughput-ratio.png"));
        }
        List<Kind> comp = compressedKinds();
        List<String> ds = meta.datasets().stream().map(Datasets.Dataset::name).toList();
        double[][] m = new double[comp.size()][ds.size()];
        for (int s = 0; s < comp.size(); s++) {
            for (int g = 0; g < ds.size(); g++) {
                m[s][g] = saved(ds.get(g), comp.get(s));
            }
        }
        png.write(BarChart.of("Server memory saved vs Lettuce without compression (MEMORY USAGE)", "memory saved", ds,
                comp.stream().map(k -> k.id).toList(), m, Double.NaN, true), dir.resolve("memory-saved.png"));
    }

    // ---- CSV ----

    /** @return {@code v} formatted, empty when not measured (NaN) */
    static String csvNum(double v, String fmt) {
        return Double.isNaN(v) ? "" : f(fmt, v);
    }

    private String csv() {
        StringBuilder sb = new StringBuilder();
        sb.append("dataset,inflight,batch,client,round,keys,set_ops,set_seconds,set_ops_per_s,set_p50_us,set_p99_us,"
                + "set_p999_us,set_cpu_us_per_op,set_net_in_bytes_per_op,get_ops,get_seconds,get_ops_per_s,get_p50_us,"
                + "get_p99_us,get_p999_us,get_cpu_us_per_op,get_net_out_bytes_per_op,memory_usage_bytes_per_key,"
                + "used_memory_bytes_per_key,stored_form,mismatches,set_event_loop_cpu_us_per_op,"
                + "set_event_loop_alloc_bytes_per_op,get_event_loop_cpu_us_per_op,get_event_loop_alloc_bytes_per_op\n");
        for (Row r : rawRows) {
            Results.Phase s = r.set();
            Results.Phase g = r.get();
            sb.append(f("%s,%d,%d,%s,%d,%d,%d,%.4f,%.1f,%.1f,%.1f,%.1f,%.3f,%.1f,%d,%.4f,%.1f,%.1f,%.1f,%.1f,%.3f,%.1f,%.1f,%.1f,%s,%d,%s,%s,%s,%s%n",
                    r.cell().dataset(), r.cell().inflight(), r.cell().batch(), r.client().id, r.round(), r.keys(),
                    s.ops(), s.nanos() / 1e9, s.opsPerSec(), s.micros(50), s.micros(99), s.micros(99.9),
                    s.cpuMicrosPerOp(), s.inPerOp(),
                    g.ops(), g.nanos() / 1e9, g.opsPerSec(), g.micros(50), g.micros(99), g.micros(99.9),
                    g.cpuMicrosPerOp(), g.outPerOp(), r.memPerKey(), r.usedPerKey(), r.storedForm(), r.mismatches(),
                    csvNum(s.loopCpuMicrosPerOp(), "%.3f"), csvNum(s.loopAllocPerOp(), "%.1f"),
                    csvNum(g.loopCpuMicrosPerOp(), "%.3f"), csvNum(g.loopAllocPerOp(), "%.1f")));
        }
        return sb.toString();
    }
}
