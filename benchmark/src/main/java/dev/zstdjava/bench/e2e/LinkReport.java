package dev.zstdjava.bench.e2e;

import dev.zstdjava.bench.e2e.Clients.Kind;
import dev.zstdjava.bench.e2e.Results.Cell;
import dev.zstdjava.bench.e2e.Results.Phase;
import dev.zstdjava.bench.e2e.Results.Row;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report section of a {@code --link} run: the targets for a shaped link (compression must pay where bytes on the
 * wire are the limit) and, per cell and client, throughput, p50/p99 and how much of the link the values used.
 */
final class LinkReport {
    /** Requests in flight the link targets are defined at (the GLIDE benchmark's). */
    static final int TARGET_INFLIGHT = 100;
    static final double REPEAT_4000_TARGET = 1.8;
    static final double JSON_TARGET = 1.5;
    static final double AGAINST_GLIDE_TARGET = 0.97;
    static final String REPEAT_4000 = "repeat 4000 B";
    static final String PLAIN_4000 = "4000 B";

    private final long linkBits;
    private final Map<String, Row> rows = new LinkedHashMap<>();
    private final List<Cell> cells = new ArrayList<>();
    private final StringBuilder md = new StringBuilder();

    private LinkReport(long linkBits, List<Row> combined) {
        this.linkBits = linkBits;
        for (Row r : combined) {
            rows.put(key(r.cell(), r.client()), r);
            if (!cells.contains(r.cell())) {
                cells.add(r.cell());
            }
        }
    }

    private static String key(Cell c, Kind k) {
        return c.label() + "|" + k.id;
    }

    /**
     * @param combined one row per cell and client (each round's best phase)
     * @return the Markdown section
     */
    static String section(EndToEnd.Options o, List<Kind> clients, List<Row> combined) {
        LinkReport r = new LinkReport(NetworkLink.parseRate(o.link), combined);
        r.write(o, clients);
        return r.md.toString();
    }

    private void line(String s) {
        md.append(s).append('\n');
    }

    private static String f(String fmt, Object... args) {
        return String.format(Locale.ROOT, fmt, args);
    }

    private void write(EndToEnd.Options o, List<Kind> clients) {
        line("## Network link");
        line("");
        line("The server ran in a network namespace of its own, reached only over a veth pair shaped to " + o.link
                + " in each direction (see Setup). Payload Mbit/s: the bytes the server received (SET phase) or sent "
                + "(GET phase) as Valkey counts them (RESP, without TCP/IP headers) × 8 ÷ the phase's time; % link: "
                + "that ÷ " + o.link + ". tbf counts whole packets with their headers, so a full link shows somewhat "
                + "below 100%.");
        line("");
        targets(clients);
        line("| Values | In flight | Batch | Client | SET ops/s | ×base | SET p50 / p99 µs | SET wire B/op "
                + "| SET payload Mbit/s (% link) | GET ops/s | ×base | GET p50 / p99 µs | GET wire B/op "
                + "| GET payload Mbit/s (% link) |");
        line("|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
        for (Cell c : cells) {
            for (Kind k : clients) {
                Row r = rows.get(key(c, k));
                if (r == null) {
                    continue;
                }
                line("| " + c.dataset() + " | " + c.inflight() + " | " + c.batch() + " | " + k.id
                        + phase(c, k, r.set(), r.set().inPerOp(), true)
                        + phase(c, k, r.get(), r.get().outPerOp(), false) + " |");
            }
        }
        line("");
    }

    private String phase(Cell c, Kind k, Phase p, double wirePerOp, boolean set) {
        double mbit = wirePerOp * p.opsPerSec() * 8 / 1e6;
        return " | " + EndToEndReport.num(p.opsPerSec()) + " | " + EndToEndReport.x(ratio(c, k, Kind.LETTUCE, set))
                + " | " + EndToEndReport.num(p.micros(50)) + " / " + EndToEndReport.num(p.micros(99))
                + " | " + EndToEndReport.num(wirePerOp) + " | " + f("%.1f (%.0f%%)", mbit, mbit * 1e6 / linkBits * 100);
    }

    private double ratio(Cell c, Kind k, Kind base, boolean set) {
        Row a = rows.get(key(c, k));
        Row b = rows.get(key(c, base));
        if (a == null || b == null) {
            return Double.NaN;
        }
        double y = (set ? b.set() : b.get()).opsPerSec();
        return y == 0 ? Double.NaN : (set ? a.set() : a.get()).opsPerSec() / y;
    }

    private List<Cell> targetCells(String dataset) {
        List<Cell> out = new ArrayList<>();
        for (Cell c : cells) {
            if (c.inflight() == TARGET_INFLIGHT && (dataset == null || c.dataset().equals(dataset))) {
                out.add(c);
            }
        }
        return out;
    }

    private void targets(List<Kind> clients) {
        line("### Link targets (defined for 100mbit, " + TARGET_INFLIGHT + " requests in flight)");
        line("");
        line("| Target | Measured | Result |");
        line("|---|---|---|");
        speedup(REPEAT_4000, REPEAT_4000_TARGET);
        speedup(Datasets.JSON, JSON_TARGET);
        if (clients.contains(Kind.GLIDE_ZSTD)) {
            againstGlide();
        } else {
            line("| lettuce-zstd >= " + AGAINST_GLIDE_TARGET + "x glide-zstd in every cell | not measured (glide-zstd "
                    + "did not run) | n/a |");
        }
        for (String d : List.of(REPEAT_4000, PLAIN_4000, Datasets.JSON)) {
            tail(d);
        }
        line("");
    }

    private void speedup(String dataset, double target) {
        String name = f("%s: lettuce-zstd SET and GET throughput >= %.1fx lettuce", dataset, target);
        List<String> parts = new ArrayList<>();
        boolean met = true;
        for (Cell c : targetCells(dataset)) {
            for (boolean set : new boolean[] {true, false}) {
                double r = ratio(c, Kind.LETTUCE_ZSTD, Kind.LETTUCE, set);
                if (!Double.isNaN(r)) {
                    parts.add("b" + c.batch() + (set ? " SET " : " GET ") + EndToEndReport.x(r));
                    met &= r >= target;
                }
            }
        }
        result(name, parts, met);
    }

    private void againstGlide() {
        String name = f("lettuce-zstd >= %.2fx glide-zstd, every cell, SET and GET", AGAINST_GLIDE_TARGET);
        List<String> parts = new ArrayList<>();
        boolean met = true;
        double worst = Double.POSITIVE_INFINITY;
        String worstAt = "";
        for (Cell c : targetCells(null)) {
            for (boolean set : new boolean[] {true, false}) {
                double r = ratio(c, Kind.LETTUCE_ZSTD, Kind.GLIDE_ZSTD, set);
                if (Double.isNaN(r)) {
                    continue;
                }
                parts.add(c.label());
                met &= r >= AGAINST_GLIDE_TARGET;
                if (r < worst) {
                    worst = r;
                    worstAt = c.label() + (set ? " SET " : " GET ") + EndToEndReport.x(r);
                }
            }
        }
        result(name, parts.isEmpty() ? parts : List.of(parts.size() + " cell-phases, lowest " + worstAt), met);
    }

    private void tail(String dataset) {
        String name = dataset + ": lettuce-zstd p99 at most lettuce's, SET and GET";
        List<String> parts = new ArrayList<>();
        boolean met = true;
        for (Cell c : targetCells(dataset)) {
            Row z = rows.get(key(c, Kind.LETTUCE_ZSTD));
            Row l = rows.get(key(c, Kind.LETTUCE));
            if (z == null || l == null) {
                continue;
            }
            for (boolean set : new boolean[] {true, false}) {
                double a = (set ? z.set() : z.get()).micros(99);
                double b = (set ? l.set() : l.get()).micros(99);
                parts.add("b" + c.batch() + (set ? " SET " : " GET ") + EndToEndReport.num(a) + " vs " + EndToEndReport.num(b) + " µs");
                met &= a <= b;
            }
        }
        result(name, parts, met);
    }

    private void result(String name, List<String> parts, boolean met) {
        if (parts.isEmpty()) {
            line("| " + name + " | not measured | n/a |");
        } else {
            line("| " + name + " | " + String.join("; ", parts) + " | " + EndToEndReport.verdict(met) + " |");
        }
    }
}
