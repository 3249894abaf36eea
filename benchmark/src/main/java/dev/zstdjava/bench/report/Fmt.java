package dev.zstdjava.bench.report;

import dev.zstdjava.bench.report.Measurements.Cell;

import java.util.Locale;

/** How the report writes numbers: ops/ms, ratios, B/op, sizes; "–" for what was not measured. */
final class Fmt {
    private Fmt() {
    }

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
        return num(c.score()) + (Double.isNaN(c.error()) ? "" : " ± " + num(c.error()));
    }

    static double r(Cell a, Cell b) {
        return a == null || b == null ? Double.NaN : a.score() / b.score();
    }

    /** @return v, or 0 for NaN (an error bar that was not measured adds nothing) */
    static double nz(double v) {
        return Double.isNaN(v) ? 0 : v;
    }
}
