package dev.zstdjava.bench.report;

import dev.zstdjava.bench.chart.BarChart;
import dev.zstdjava.bench.report.Measurements.Cell;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

import static dev.zstdjava.bench.report.Contestants.LABEL;
import static dev.zstdjava.bench.report.Contestants.SHORT;
import static dev.zstdjava.bench.report.Contestants.bestOf;
import static dev.zstdjava.bench.report.Contestants.headSetting;
import static dev.zstdjava.bench.report.Fmt.nz;
import static dev.zstdjava.bench.report.Fmt.r;

/**
 * The report's charts: each contestant's throughput relative to a reference (C where measured), per payload at the
 * headline setting and per zstd level on text-64k, with error bars from both cells' errors.
 */
final class ReportCharts {
    private final Measurements res;

    ReportCharts(Measurements res) {
        this.res = res;
    }

    /** @return the file names written to {@code dir}; none when charts cannot be drawn (the tables still stand) */
    List<String> write(Path dir) {
        List<String> made = new ArrayList<>();
        try {
            for (String codec : List.of("zstd", "lz4")) {
                String set = headSetting(codec);
                for (String op : List.of("compress", "decompress")) {
                    List<String> who = res.contestants(codec, op, set);
                    List<String> ps = res.payloads(codec, set);
                    String ref = who.contains("c") ? "c" : bestOf(codec);
                    if (ps.isEmpty() || !who.contains(ref)) {
                        continue;
                    }
                    String refName = ref.equals("c") ? "C" : SHORT.get(ref);
                    String name = codec + "-" + op + ".png";
                    relative(codec + " " + op + (codec.equals("zstd") ? " level 3" : " default")
                                    + ": throughput relative to " + refName, refName, codec, op, ref,
                            who.stream().filter(w -> !w.equals(ref)).toList(), ps, List.of(set), ps)
                            .writePng(dir.resolve(name));
                    made.add(name);
                }
            }
            List<String> levels = res.sweepLevels("c");
            if (levels.size() > 1) {
                for (String op : List.of("compress", "decompress")) {
                    Set<String> who = new LinkedHashSet<>();
                    for (String l : levels) {
                        for (String w : res.contestants("zstd", op, l)) {
                            if (!w.equals("c") && res.cell("zstd", op, w, "text-64k", l) != null) {
                                who.add(w);
                            }
                        }
                    }
                    String name = "zstd-levels-" + op + ".png";
                    relative("zstd " + op + " text-64k by level: throughput relative to C", "C", "zstd", op, "c",
                            LABEL.keySet().stream().filter(who::contains).toList(), List.of("text-64k"), levels,
                            levels.stream().map(l -> "level " + l).toList()).writePng(dir.resolve(name));
                    made.add(name);
                }
            }
        } catch (IOException | RuntimeException | Error e) { // e.g. no fonts on a minimal machine
            System.err.println("report: charts skipped: " + e);
        }
        return made;
    }

    /**
     * Throughput of each of {@code series} divided by {@code ref}'s in the same cell; the groups run over payloads
     * or settings (whichever list has more than one entry). A ratio's error is the sum of both relative errors.
     */
    private BarChart relative(String title, String refName, String codec, String op, String ref, List<String> series,
                              List<String> payloads, List<String> settings, List<String> groupNames) {
        int groups = groupNames.size();
        double[][] v = new double[series.size()][groups];
        double[][] e = new double[series.size()][groups];
        for (int s = 0; s < series.size(); s++) {
            for (int g = 0; g < groups; g++) {
                String p = payloads.get(payloads.size() == 1 ? 0 : g);
                String set = settings.get(settings.size() == 1 ? 0 : g);
                Cell x = res.cell(codec, op, series.get(s), p, set);
                Cell rc = res.cell(codec, op, ref, p, set);
                v[s][g] = r(x, rc);
                e[s][g] = x == null || rc == null ? Double.NaN
                        : v[s][g] * (nz(x.error()) / x.score() + nz(rc.error()) / rc.score());
            }
        }
        return new BarChart(title, "throughput / " + refName, groupNames, series.stream().map(SHORT::get).toList(),
                v, e, 1.0, refName + " = 1.0", false);
    }
}
