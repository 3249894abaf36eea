package dev.zstdjava.bench.report;

import dev.zstdjava.bench.report.Measurements.Cell;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

import static dev.zstdjava.bench.report.Contestants.LABEL;
import static dev.zstdjava.bench.report.Contestants.SHORT;
import static dev.zstdjava.bench.report.Contestants.bestOf;
import static dev.zstdjava.bench.report.Contestants.headSetting;
import static dev.zstdjava.bench.report.Fmt.bytes;
import static dev.zstdjava.bench.report.Fmt.nz;
import static dev.zstdjava.bench.report.Fmt.ratio;
import static dev.zstdjava.bench.report.Measurements.RESOLVING_OPS;
import static dev.zstdjava.bench.report.Measurements.key;
import static dev.zstdjava.bench.report.Measurements.payloadSize;

/**
 * The project's performance and allocation targets, each checked on every measured cell it covers, with the worst
 * cell as evidence. The targets themselves are written out in {@link #targets()}.
 */
final class Verdicts {
    /** A verdict with numbers: met, within noise, inconclusive, missed or not measured; the worst cell. */
    record Verdict(String status, String detail) {
    }

    /** One row of the targets table. */
    record Target(String what, Verdict verdict) {
    }

    private final Measurements res;
    private final String warmupNote;

    Verdicts(Measurements res) {
        this.res = res;
        this.warmupNote = "quick".equals(res.env("profile", null))
                ? " (quick profile: after its short warm-up, B/op can still include allocation by code the JIT has "
                + "not optimised yet)" : "";
    }

    /** @return every target with its verdict; a codec without cells in this run gets one "not measured" row */
    List<Target> targets() {
        List<Target> out = new ArrayList<>();
        for (String codec : List.of("zstd", "lz4")) {
            String set = headSetting(codec);
            if (res.payloads(codec, set).isEmpty()) {
                out.add(new Target(codec + " targets",
                        new Verdict("not measured", "no " + codec + " cells in this run")));
                continue;
            }
            if (codec.equals("zstd")) {
                out.add(new Target("zstd `MemorySegment` >= 0.97x C below 64 KiB, >= 0.99x at >= 64 KiB",
                        vsRef(codec, set, "zstdjava_segment", "c", p -> payloadSize(p) < 65536 ? 0.97 : 0.99)));
            } else {
                // about 1 ns of binding is all 0.90x leaves of a ~10 ns call at 128 B
                out.add(new Target("lz4 `MemorySegment` >= 0.90x C below 1 KiB, >= 0.97x at >= 1 KiB",
                        vsRef(codec, set, "zstdjava_segment", "c", p -> payloadSize(p) < 1024 ? 0.90 : 0.97)));
            }
            String bst = bestOf(codec);
            out.add(new Target(codec + " `MemorySegment` never slower than " + LABEL.get(bst),
                    vsRef(codec, set, "zstdjava_segment", bst, p -> 1.0)));
            if (codec.equals("zstd")) {
                out.add(new Target("zstd `MemorySegment` ahead of zstd-jni's best path at 128 B", vsRef(codec, set,
                        "zstdjava_segment", bst, p -> p.equals("text-128") ? 1.0 : Double.NaN, true)));
                out.add(new Target("zstd `byte[]` -> new `byte[]` >= 1.15x zstd-jni `Zstd.compress(byte[])`/"
                        + "`Zstd.decompress(byte[], size)` at 1 KiB", vsRef(codec, set, "zstdjava_arrayNew",
                        "zstdjni_static", p -> p.equals("text-1k") ? 1.15 : Double.NaN)));
            }
            out.add(new Target(codec + " `byte[]`-with-destination within 3% of `MemorySegment` up to the staging "
                    + "limit (1 MiB; larger arrays are copied through native memory by design)" + jdkNote(),
                    vsRef(codec, set, "zstdjava_arrayDst", "zstdjava_segment",
                            p -> payloadSize(p) <= STAGING_LIMIT ? 0.97 : Double.NaN)));
            out.add(new Target(codec + " 0 B/op (< 1) for `MemorySegment` and caller-destination paths (JMH)",
                    zeroAlloc(codec)));
            out.add(new Target(codec + " < 1 B/op for `MemorySegment`, `byte[]`-with-destination and `ByteBuffer`, "
                    + "allocation probe: every payload, the call compiled on its own rather than inlined into its caller",
                    zeroAllocProbe(codec)));
            out.add(new Target(codec + " `byte[]` -> new `byte[]` allocates only the returned array (JMH)",
                    onlyArray(codec, set, false)));
            out.add(new Target(codec + " the same, allocation probe (call compiled on its own)",
                    onlyArray(codec, set, true)));
        }
        return out;
    }

    /** the default {@code zstdjava.criticalHeapLimit}: heap arrays above it are staged through native memory */
    static final long STAGING_LIMIT = 1L << 20;

    /** JDK 21 has no heap segments in downcalls, so every {@code byte[]} is staged there */
    private String jdkNote() {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\((\\d+)[^)]*\\)$").matcher(res.jdk());
        return m.find() && Integer.parseInt(m.group(1)) < 22
                ? " (this run is on JDK " + m.group(1) + ", which stages every array: the bar is for JDK 22+)" : "";
    }

    private Verdict vsRef(String codec, String set, String who, String ref,
                          Function<String, Double> bar) {
        return vsRef(codec, set, who, ref, bar, false);
    }

    /** who/ref >= bar(payload) on every payload with a bar (NaN = not covered); strict = must be above */
    private Verdict vsRef(String codec, String set, String who, String ref,
                          Function<String, Double> bar, boolean strict) {
        String worst = null;
        double worstMargin = Double.POSITIVE_INFINITY;
        boolean missed = false;
        boolean noise = false;
        boolean inconclusive = false;
        boolean wide = false;
        int n = 0;
        for (String op : List.of("compress", "decompress")) {
            for (String p : res.payloads(codec, set)) {
                double need = bar.apply(p);
                if (Double.isNaN(need)) {
                    continue;
                }
                Cell a = res.cell(codec, op, who, p, set);
                Cell c = res.cell(codec, op, ref, p, set);
                if (a == null || c == null) {
                    continue;
                }
                n++;
                double rr = a.score() / c.score();
                // relative error of the ratio from both error bars
                double rel = (nz(a.error()) / a.score()) + (nz(c.error()) / c.score());
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

    /** the JMH verdict on cells with enough operations per iteration to resolve 1 B/op */
    private Verdict zeroAlloc(String codec) {
        String worst = null;
        double max = -1;
        int n = 0;
        int unresolved = 0;
        for (Cell c : res.cells()) {
            if (c.codec().equals(codec) && (c.contestant().equals("zstdjava_segment")
                    || c.contestant().equals("zstdjava_arrayDst")) && !Double.isNaN(c.alloc())) {
                if (!(c.opsPerIteration() >= RESOLVING_OPS)) {
                    unresolved++;
                    continue;
                }
                n++;
                if (c.alloc() > max) {
                    max = c.alloc();
                    worst = c.op() + " " + c.payload() + " (" + c.setting() + ") " + SHORT.get(c.contestant()) + ": "
                            + bytes(c.alloc()) + " B/op";
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
        for (var e : res.probe().entrySet()) {
            String[] k = e.getKey().split("\\|");
            if (k[0].equals(codec) && (k[2].equals("zstdjava_segment") || k[2].equals("zstdjava_arrayDst")
                    || k[2].equals("zstdjava_buffer"))) {
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
            for (String p : res.payloads(codec, set)) {
                Cell c;
                if (useProbe) {
                    Double exact = res.probe().get(key(codec, op, "zstdjava_arrayNew", p, set));
                    c = exact == null ? null
                            : new Cell(codec, op, "zstdjava_arrayNew", p, set, 0, 0, exact, 0, Double.NaN);
                } else {
                    c = res.cell(codec, op, "zstdjava_arrayNew", p, set);
                    if (c != null && !(c.opsPerIteration() >= RESOLVING_OPS)) {
                        unresolved++;
                        continue;
                    }
                }
                if (c == null || Double.isNaN(c.alloc())) {
                    continue;
                }
                long len = op.equals("decompress") ? payloadSize(p)
                        : res.compressedSize(codec, set, p);
                if (len < 0) {
                    continue;
                }
                n++;
                double expected = 16 + ((len + 7) & ~7L); // array header + data, 8-byte aligned
                double extra = c.alloc() - expected;
                if (extra > maxExtra) {
                    maxExtra = extra;
                    worst = op + " " + p + ": " + bytes(c.alloc()) + " B/op for a " + len + "-byte array ("
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
}
