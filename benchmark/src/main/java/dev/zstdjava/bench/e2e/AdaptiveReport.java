package dev.zstdjava.bench.e2e;

import dev.zstdjava.bench.report.Generated;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.PatternDecision;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * The report of {@code ./e2e --adaptive} (Markdown): the value set, per client CPU per SET, server memory and GET per
 * kind, the adaptive client's decisions next to advise's rule, and the targets with ratios against fixed zstd 3.
 * Per client, each figure is the median of its rounds; a ratio of two clients is the median of their ratios round by
 * round; memory is the latest round's.
 */
final class AdaptiveReport {
    private final EndToEnd.Options o;
    private final String setup;
    private final MixedValues.Set data;
    private final Map<MixedValues.Kind, AdaptiveOracle.Choice> oracle;
    private final Map<AdaptiveRun.Client, List<AdaptiveRun.Round>> rounds;
    private final List<PatternDecision> snapshot;
    private final AdaptiveRun.Trail trail;
    private final long learnWrites;
    private final String dictOutcome;
    /** Per kind, its pattern's dictionary in lettuce-zstd-adaptive: since which write, or why none. */
    private final Map<MixedValues.Kind, String> adaptiveDictionaries;
    private final int inflight;
    private final int batch;
    private final long mismatches;
    private final String firstMismatch;
    private final List<String> verdicts = new ArrayList<>();
    private final StringBuilder md = new StringBuilder();

    AdaptiveReport(EndToEnd.Options o, String setup, MixedValues.Set data,
                   Map<MixedValues.Kind, AdaptiveOracle.Choice> oracle,
                   Map<AdaptiveRun.Client, List<AdaptiveRun.Round>> rounds, List<PatternDecision> snapshot,
                   AdaptiveRun.Trail trail, long learnWrites, String dictOutcome,
                   Map<MixedValues.Kind, String> adaptiveDictionaries, int inflight, int batch, long mismatches,
                   String firstMismatch) {
        this.o = o;
        this.setup = setup;
        this.data = data;
        this.oracle = oracle;
        this.rounds = rounds;
        this.snapshot = snapshot;
        this.trail = trail;
        this.learnWrites = learnWrites;
        this.dictOutcome = dictOutcome;
        this.adaptiveDictionaries = adaptiveDictionaries;
        this.inflight = inflight;
        this.batch = batch;
        this.mismatches = mismatches;
        this.firstMismatch = firstMismatch;
    }

    /** @return one line per target: the figure, the target, met or not */
    List<String> verdicts() {
        return verdicts;
    }

    Path write(Path out) throws IOException {
        markdown();
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        Files.writeString(out, md.toString());
        return out;
    }

    private static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    private void line(String s) {
        md.append(s).append('\n');
    }

    /** @return the median of {@code figure} over {@code c}'s rounds (the mean of the middle two for an even count) */
    private double median(AdaptiveRun.Client c, ToDoubleFunction<AdaptiveRun.Round> figure) {
        double[] v = rounds.getOrDefault(c, List.of()).stream().mapToDouble(figure).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }

    private double cpuPerSet(AdaptiveRun.Client c) {
        return median(c, r -> r.set().cpuMicrosPerOp());
    }

    private long memory(AdaptiveRun.Client c) {
        return latest(c).memory();
    }

    private double saved(AdaptiveRun.Client c) {
        return 1 - (double) memory(c) / memory(AdaptiveRun.Client.PLAIN);
    }

    private AdaptiveRun.Round latest(AdaptiveRun.Client c) {
        List<AdaptiveRun.Round> rs = rounds.get(c);
        return rs.get(rs.size() - 1);
    }

    private double getOps(AdaptiveRun.Client c, MixedValues.Kind k) {
        return median(c, r -> r.gets().get(k).opsPerSec());
    }

    private double getP50(AdaptiveRun.Client c, MixedValues.Kind k) {
        return median(c, r -> r.gets().get(k).micros(50));
    }

    /**
     * @return {@code figure(a) / figure(z)} round by round, sorted: the two clients' figures of one round are measured
     *         side by side, so what the machine does to a whole round cancels in the ratio (it does not in a ratio of
     *         two medians taken over different rounds)
     */
    private double[] roundRatios(AdaptiveRun.Client a, AdaptiveRun.Client z, ToDoubleFunction<AdaptiveRun.Round> figure) {
        List<AdaptiveRun.Round> ra = rounds.getOrDefault(a, List.of());
        List<AdaptiveRun.Round> rz = rounds.getOrDefault(z, List.of());
        int n = Math.min(ra.size(), rz.size());
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = figure.applyAsDouble(ra.get(i)) / figure.applyAsDouble(rz.get(i));
        }
        java.util.Arrays.sort(v);
        return v;
    }

    /**
     * @return the ratio of {@code a}'s figure to {@code z}'s: the median of the ratios round by round (the mean of the
     *         middle two for an even count); every "vs lettuce-zstd" and every target ratio of the report
     */
    private double ratio(AdaptiveRun.Client a, AdaptiveRun.Client z, ToDoubleFunction<AdaptiveRun.Round> figure) {
        double[] v = roundRatios(a, z, figure);
        if (v.length == 0) {
            return Double.NaN;
        }
        int m = v.length / 2;
        return v.length % 2 == 1 ? v[m] : (v[m - 1] + v[m]) / 2;
    }

    /**
     * @return the first and third quartiles (nearest rank) of the ratios round by round: how far one round's ratio
     *         strays from their median, so the noise a target is read against is in the report
     */
    private double[] roundRatioQuartiles(AdaptiveRun.Client a, AdaptiveRun.Client z,
                                         ToDoubleFunction<AdaptiveRun.Round> figure) {
        double[] v = roundRatios(a, z, figure);
        int n = v.length;
        if (n == 0) {
            return new double[] {Double.NaN, Double.NaN};
        }
        return new double[] {v[(n - 1) / 4], v[(3 * (n - 1) + 3) / 4]};
    }

    private double cpuRatio(AdaptiveRun.Client a, AdaptiveRun.Client z) {
        return ratio(a, z, r -> r.set().cpuMicrosPerOp());
    }

    private double getOpsRatio(AdaptiveRun.Client a, AdaptiveRun.Client z, MixedValues.Kind k) {
        return ratio(a, z, r -> r.gets().get(k).opsPerSec());
    }

    private double getP50Ratio(AdaptiveRun.Client a, AdaptiveRun.Client z, MixedValues.Kind k) {
        return ratio(a, z, r -> r.gets().get(k).micros(50));
    }

    private String target(String what, String figure, String goal, boolean met) {
        String verdict = met ? "met" : "**not met**";
        verdicts.add(what + ": " + figure + " (target " + goal + "): " + (met ? "met" : "not met"));
        return "| " + what + " | " + figure + " | " + goal + " | " + verdict + " |";
    }

    private void markdown() {
        boolean quick = o.mode.equals("quick");
        String command = "./e2e" + (o.commandLine.isEmpty() ? "" : " " + o.commandLine);
        line("# Adaptive compression end to end: mixed values on a real server");
        line("");
        line(Generated.notice(command));
        line("");
        if (quick) {
            line("> **Quick run** (`--quick`): short phases and few keys, to check the tool works. The numbers are "
                    + "indicative only; use the full run for decisions.");
            line("");
        }
        line(setup);
        line("");
        line(f("Each client writes keys of its own (the key ends with `:` and the client's letter), so every "
                + "client's values are in the server at once. In each round every client writes the %d keys of the "
                + "mixed set (SET phase: pipelines of %d, %d in flight, at least %.1f s and every key once) and sums "
                + "`MEMORY USAGE` over every key written (and the dictionary keys the client keeps in the server); "
                + "then, kind by kind, the GET phases of the clients that read: each client in %d slices of the "
                + "time (at least %.2f s each, every value checked), in the round's order, then in the reverse order, "
                + "and so on, its slices counted as one phase (p50 is the round trip of one request, a pipeline of %d "
                + "GETs). %d round(s); the order of the clients rotates from round to round. Per client each figure "
                + "is the median of its rounds, and each \"vs lettuce-zstd\" the median of the two clients' ratios "
                + "round by round; memory is the latest round's. Client CPU per SET is the benchmark JVM's process CPU "
                + "time over the SET phase divided by its SETs: the server, a process of its own, is not in it.",
                data.size(), batch, inflight, o.seconds, AdaptiveRun.GET_SLICES,
                o.seconds / AdaptiveRun.GET_SLICES, batch, o.rounds));
        line("");
        line(mismatches == 0 ? "**0 mismatches**: every GET returned what was written."
                : "**" + mismatches + " mismatches**; first: " + firstMismatch);
        line("");

        line("## The value set");
        line("");
        line("Generated from a seed (" + MixedValues.SEED + "): the same keys and bytes on every machine; no corpus "
                + "is read. Incompressible kinds: " + f("%.0f%%", 100 * data.incompressibleShare())
                + " of the values by count.");
        line("");
        line("| Kind | Keys | Values | Share | Size range | Mean size | Total |");
        line("|---|---|---:|---:|---|---:|---:|");
        data.stats().forEach((k, s) -> line(f("| %s | `%s` | %d | %.0f%% | %d..%d B | %.0f B | %.1f MiB |",
                k.label, k.keyPattern(), s[0], 100.0 * s[0] / data.size(), s[1], s[2], (double) s[3] / s[0],
                s[3] / 1048576.0)));
        line("");

        line("## Clients");
        line("");
        line("| Client | What |");
        line("|---|---|");
        for (AdaptiveRun.Client c : AdaptiveRun.Client.values()) {
            line("| " + c.id + " | " + c.label + " |");
        }
        line("");
        line("- The goal of lettuce-zstd-adaptive and of advise's rule here: " + goal() + "; a pattern's dictionary "
                + f("is adopted, and the oracle's dictionary option usable, at +%.1f points", 100 * o.dictionaryGain)
                + (o.dictionaryGain == DictionaryManager.DEFAULT_MIN_IMPROVEMENT ? " (the library's default)" : "")
                + ".");
        line("- lettuce-zstd-dict's dictionary after the warm-up: " + dictOutcome + ".");
        line("- lettuce-zstd-adaptive learned from " + learnWrites + " writes in key order (pipelines of 20, its "
                + "decisions looked at after each) before the rounds, until every kind's pattern had at least "
                + o.adaptiveWrites + " and, once no lineage that had the samples to train was waiting for its first "
                + "training (at most " + EndToEnd.TRAINING_WAIT_S + " s), " + AdaptiveRun.AFTER_TRAINING + " more.");
        long adopted = adaptiveDictionaries.values().stream().filter(s -> s.startsWith("from write")).count();
        line("- lettuce-zstd-adaptive's patterns with a dictionary: " + adopted + " of "
                + adaptiveDictionaries.size() + " (each pattern's lineage: the column \"Its dictionary\" below).");
        line("");

        AdaptiveRun.Client z = AdaptiveRun.Client.ZSTD;
        AdaptiveRun.Client a = AdaptiveRun.Client.ADAPTIVE;
        line("## Per client");
        line("");
        line("| Client | CPU µs per SET | vs lettuce-zstd | Server memory | Saved vs plain |");
        line("|---|---:|---:|---:|---:|");
        for (AdaptiveRun.Client c : AdaptiveRun.Client.values()) {
            line(f("| %s | %.2f | %.2fx | %.1f MiB | %s |", c.id, cpuPerSet(c), cpuRatio(c, z),
                    memory(c) / 1048576.0, c == AdaptiveRun.Client.PLAIN ? "—" : f("%.1f%%", 100 * saved(c))));
        }
        line("");
        line("### Server memory per kind");
        line("");
        line("What each client's total is made of (the latest round): per kind, `MEMORY USAGE` summed over its keys "
                + "and the share saved against lettuce's; the dictionaries the client keeps in the server; and, "
                + "in points of the total saving, what each kind adds to the difference from lettuce-zstd-adaptive "
                + "(positive: the client saves more there).");
        line("");
        StringBuilder kindHead = new StringBuilder("| Client |");
        StringBuilder kindRule = new StringBuilder("|---|");
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            kindHead.append(' ').append(k.id).append(" |");
            kindRule.append("---:|");
        }
        line(kindHead + " dictionaries |");
        line(kindRule + "---:|");
        AdaptiveRun.Round plain = latest(AdaptiveRun.Client.PLAIN);
        AdaptiveRun.Round adaptiveRound = latest(a);
        for (AdaptiveRun.Client c : AdaptiveRun.Client.values()) {
            AdaptiveRun.Round r = latest(c);
            StringBuilder row = new StringBuilder("| " + c.id + " |");
            for (MixedValues.Kind k : MixedValues.Kind.values()) {
                long m = r.memoryByKind().get(k);
                long p = plain.memoryByKind().get(k);
                double points = 100.0 * (adaptiveRound.memoryByKind().get(k) - m) / plain.memory();
                row.append(f(" %.2f MiB, %.1f%%%s |", m / 1048576.0, 100 * (1 - (double) m / p),
                        c == a || c == AdaptiveRun.Client.PLAIN ? "" : f(" (%+.2f)", points)));
            }
            double points = 100.0 * (adaptiveRound.dictionaries() - r.dictionaries()) / plain.memory();
            line(row + f(" %.0f KiB%s |", r.dictionaries() / 1024.0,
                    c == a || c == AdaptiveRun.Client.PLAIN ? "" : f(" (%+.2f)", points)));
        }
        line("");
        line("### GET per kind");
        line("");
        line("| Kind | Client | GET/s | vs lettuce-zstd | p50 µs | vs lettuce-zstd |");
        line("|---|---|---:|---:|---:|---:|");
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            for (AdaptiveRun.Client c : AdaptiveRun.Client.values()) {
                if (c == AdaptiveRun.Client.ORACLE || c == AdaptiveRun.Client.ORACLE_NO_DICTIONARY) {
                    continue;
                }
                line(f("| %s | %s | %.0f | %.2fx | %.0f | %.2fx |", k.id, c.id, getOps(c, k),
                        getOpsRatio(c, z, k), getP50(c, k), getP50Ratio(c, z, k)));
            }
        }
        line("");

        line("## Decisions: lettuce-zstd-adaptive next to advise's rule");
        line("");
        line("The oracle: per kind, every option measured on the kind's values as `zstd-values advise` measures "
                + "(stored bytes saved against plain; compression CPU per KiB on this machine; the dictionary "
                + f("option trained on one half, measured on the other, usable at %+.1f points over zstd 3), and the "
                + "option ", 100 * o.dictionaryGain) + "the shared rule (`CompressionGoal.decide` for the goal "
                + goal() + ", which `advise` recommends by and "
                + "`AdaptiveCompressor` decides by) takes, and the option it takes without the dictionary option. "
                + "\"Same\" compares lettuce-zstd-adaptive's option with the first: its dictionary option is "
                + "measured once its pattern's lineage has a dictionary (\"Its dictionary\": the pattern's write "
                + "by which it had one, and its training outcome). The oracle client writes each kind with the first. "
                + "Writes until settled: the pattern's writes by its last change of option over the whole run "
                + "(learning and rounds), not counting changes to or from the dictionary option (\"Its "
                + "dictionary\" reports those); 0 when it kept its starting option (zstd 3).");
        line("");
        line("| Kind | Pattern | Adaptive: option now | Its saving | Advise's rule | Its saving | Advise's rule "
                + "without dictionaries | Same | Writes until settled | Decisions | Its dictionary |");
        line("|---|---|---|---:|---|---:|---|---|---:|---|---|");
        Map<MixedValues.Kind, String> patterns = AdaptiveRun.patterns(data.tagged(AdaptiveRun.Client.ADAPTIVE.tag));
        long worstSettle = 0;
        int same = 0;
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            String p = patterns.get(k);
            PatternDecision d = snapshot.stream().filter(x -> x.pattern().equals(p)).findFirst().orElse(null);
            AdaptiveOracle.Choice c = oracle.get(k);
            long settled = trail.settledAt(p);
            worstSettle = Math.max(worstSettle, settled);
            boolean eq = d != null && d.option() == c.option();
            same += eq ? 1 : 0;
            line(f("| %s | `%s` | %s | %s | %s | %.1f%% | %s | %s | %d | %s | %s |", k.id, p,
                    d == null ? "not tracked" : d.option().label(),
                    d == null ? "—" : f("%.1f%%", 100 * d.savedFraction()), c.option().label(),
                    100 * c.savedBy(c.option()), c.withoutDictionary().label(), eq ? "yes" : "no", settled,
                    trail.path(p), adaptiveDictionaries.getOrDefault(k, "—").replace("|", "/")));
        }
        line("");
        line("### The oracle's measurements");
        line("");
        StringBuilder head = new StringBuilder("| Kind |");
        StringBuilder rule = new StringBuilder("|---|");
        for (CompressionOption opt : CompressionOption.compressing()) {
            head.append(' ').append(opt.label()).append(" |");
            rule.append("---:|");
        }
        line(head + " Dictionary |");
        line(rule + "---|");
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            AdaptiveOracle.Choice c = oracle.get(k);
            StringBuilder row = new StringBuilder("| " + k.id + " |");
            for (CompressionOption opt : CompressionOption.compressing()) {
                int i = opt.ordinal();
                row.append(Double.isNaN(c.saved()[i]) ? " — |" : f(" %.1f%%, %.2f µs/KiB%s |", 100 * c.saved()[i],
                        c.cpuMicrosPerKiB()[i], opt == c.option() ? " **←**" : ""));
            }
            line(row + " " + c.note() + " |");
        }
        line("");

        line("## Targets (ratios against lettuce-zstd, fixed zstd 3)");
        line("");
        line("| Target | Measured | Goal | |");
        line("|---|---:|---|---|");
        double cpuRatio = cpuRatio(a, z);
        line(target("Client CPU per SET, adaptive / zstd 3", f("%.2fx", cpuRatio), "<= " + AdaptiveRun.CPU_TARGET + "x",
                cpuRatio <= AdaptiveRun.CPU_TARGET));
        double bestFixed = Math.max(saved(z), saved(AdaptiveRun.Client.DICT));
        line(target("Memory saved, adaptive vs the best fixed config", f("%.1f%% vs %.1f%%", 100 * saved(a),
                100 * bestFixed), ">= the best fixed", saved(a) >= bestFixed));
        double oracleSaved = saved(AdaptiveRun.Client.ORACLE);
        line(target("Memory saved, adaptive vs the oracle", f("%.1f%% vs %.1f%% (%+.1f points)", 100 * saved(a),
                100 * oracleSaved, 100 * (saved(a) - oracleSaved)), "within " + (int) AdaptiveRun.ORACLE_POINTS
                + " points", 100 * (oracleSaved - saved(a)) <= AdaptiveRun.ORACLE_POINTS));
        double withoutDictionaries = saved(AdaptiveRun.Client.ORACLE_NO_DICTIONARY);
        String noDict = f("Memory saved, adaptive vs the oracle without dictionaries (for reading only: %.1f%% vs "
                + "%.1f%%, %+.1f points)", 100 * saved(a), 100 * withoutDictionaries,
                100 * (saved(a) - withoutDictionaries));
        verdicts.add(noDict);
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            double ops = getOpsRatio(a, z, k);
            double p50 = getP50Ratio(a, z, k);
            double[] opsQ = roundRatioQuartiles(a, z, r -> r.gets().get(k).opsPerSec());
            double[] p50Q = roundRatioQuartiles(a, z, r -> r.gets().get(k).micros(50));
            AdaptiveRun.Client equal = AdaptiveRun.Client.AGAIN;
            double[] equalOpsQ = roundRatioQuartiles(equal, z, r -> r.gets().get(k).opsPerSec());
            double[] equalP50Q = roundRatioQuartiles(equal, z, r -> r.gets().get(k).micros(50));
            line(target("GET on " + k.id + ": throughput, p50", f("%.2fx, %.2fx (a round's: %.2f-%.2fx, %.2f-%.2fx; "
                    + "%s: %.2fx, %.2fx, a round's: %.2f-%.2fx, %.2f-%.2fx)", ops, p50, opsQ[0], opsQ[1], p50Q[0],
                    p50Q[1], equal.id, getOpsRatio(equal, z, k), getP50Ratio(equal, z, k), equalOpsQ[0], equalOpsQ[1],
                    equalP50Q[0], equalP50Q[1]),
                    f("throughput >= %.2fx, p50 <= %.2fx", 1 - AdaptiveRun.GET_TOLERANCE, 1 + AdaptiveRun.GET_TOLERANCE),
                    ops >= 1 - AdaptiveRun.GET_TOLERANCE && p50 <= 1 + AdaptiveRun.GET_TOLERANCE));
        }
        line(target("Decisions settled (most writes of a pattern)", String.valueOf(worstSettle),
                "<= " + AdaptiveRun.SETTLE_TARGET + " writes per pattern", worstSettle <= AdaptiveRun.SETTLE_TARGET));
        String agree = "Adaptive decisions equal to advise's rule on " + same + " of "
                + MixedValues.Kind.values().length + " kinds";
        verdicts.add(agree);
        line("");
        line(agree + ". " + noDict + ".");
        line("");
        line("Target ratios: the median of the two clients' ratios round by round; for the GETs, in brackets, the "
                + "first and third quartiles of those ratios (each round's GET phases of a kind interleaved), which "
                + "show how much one round's comparison strays on this machine. Where that spread is wider than the "
                + "target's 5%, one run's verdict on a kind can go either way. After them, the same figures for "
                + AdaptiveRun.Client.AGAIN.id + ", a client the same as lettuce-zstd: what the GET ratios of two "
                + "equal clients are in this run (the verdicts do not use them).");
    }

    /** @return the run's goal in words: {@code balanced}, {@code speed}, {@code memory (CPU budget 5.00 µs/KiB)} */
    private String goal() {
        String kind = o.goal.kind().name().toLowerCase(java.util.Locale.ROOT);
        return o.goal.kind() == dev.zstdjava.values.CompressionGoal.Kind.MEMORY
                ? f("%s (CPU budget %.2f µs/KiB)", kind, o.goal.cpuBudgetMicrosPerKiB()) : kind;
    }
}
