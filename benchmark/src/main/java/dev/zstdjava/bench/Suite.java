package dev.zstdjava.bench;

import dev.zstdjava.bench.report.Env;
import org.openjdk.jmh.profile.GCProfiler;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.ChainedOptionsBuilder;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;

/**
 * The benchmark profiles: which cells run, for how long, and the matching C reference cases.
 *
 * <pre>
 *   suite quick|full DIR [--cref PATH] [--only zstd|lz4] [--dry-run]
 * </pre>
 *
 * Writes DIR/jmh-GROUP.json (JMH results with {@code -prof gc}), DIR/jmh-GROUP.log (JMH's console output),
 * DIR/payloads/*.bin, DIR/alloc-probe.jsonl ({@link AllocProbe}), DIR/env.properties and, with {@code --cref},
 * DIR/cref.jsonl (the C reference's results).
 */
@Command(name = "suite",
        description = "Runs a profile's JMH cells, the C reference and the allocation probe; results into DIR.")
public final class Suite implements Callable<Integer> {

    /** One JMH run: some methods of one class over a parameter grid. */
    record Group(String name, String benchClass, List<String> methods, List<String> payloads, String paramName,
                 List<String> paramValues) {
        String include() {
            return "dev\\.zstdjava\\.bench\\." + benchClass + "\\.(" + String.join("|", methods) + ")$";
        }

        int cells() {
            return methods.size() * payloads.size() * paramValues.size();
        }
    }

    /** A profile: its groups and its timing. */
    record Profile(String name, List<Group> groups, int warmups, int warmupMs, int iterations, int iterationMs,
                   int forks) {
        /** rough wall time on an idle machine: per cell fork start, setup and iterations; the 64 MiB payload's
         * setup adds more; then the C reference and the allocation probe */
        long estimateSeconds() {
            long perCell = 2 + (long) (warmups * warmupMs + iterations * iterationMs) / 1000;
            long total = 0;
            Set<String> payloads = new LinkedHashSet<>();
            for (Group g : groups) {
                long big = g.payloads().contains("text-64m") ? g.methods().size() * (long) g.paramValues().size() : 0;
                total += g.cells() * perCell * forks + big * 8;
                payloads.addAll(g.payloads());
            }
            long probe = payloads.size() * 24L * (payloads.contains("text-64m") ? 2 : 1);
            return total + crefSeconds() + probe;
        }

        long crefSeconds() {
            return crefCases().size() * 2L * (crefWarmupMs(this) + (long) iterations * iterationMs) / 1000;
        }

        /** C reference cases (codec:level:payload) covering every payload and level of the groups */
        List<String> crefCases() {
            Set<String> cases = new LinkedHashSet<>();
            for (Group g : groups) {
                String codec = g.benchClass.startsWith("Lz4") ? "lz4" : "zstd";
                for (String v : g.paramValues) {
                    String level = codec.equals("lz4") ? String.valueOf(Lz4Modes.level(v)) : v;
                    for (String p : g.payloads) {
                        cases.add(codec + ":" + level + ":" + p);
                    }
                }
            }
            return new ArrayList<>(cases);
        }
    }

    static final List<String> ZSTD_ALL = List.of("zstdjava_segment", "zstdjava_arrayDst", "zstdjava_arrayNew",
            "zstdjava_buffer", "zstdjava_static", "zstdjni_static", "zstdjni_ctxArray", "zstdjni_ctxDirect",
            "aircompressor_java", "aircompressor_native");
    static final List<String> ZSTD_HEADLINE = List.of("zstdjava_segment", "zstdjava_arrayDst", "zstdjava_arrayNew",
            "zstdjni_static", "zstdjni_ctxDirect");
    static final List<String> LZ4_ALL = List.of("zstdjava_segment", "zstdjava_arrayDst", "zstdjava_arrayNew",
            "zstdjava_buffer", "lz4java_jni", "lz4java_jniArrayNew", "aircompressor_java", "aircompressor_native");
    static final List<String> LZ4_HEADLINE = List.of("zstdjava_segment", "zstdjava_arrayDst", "zstdjava_arrayNew",
            "lz4java_jni");
    static final List<String> QUICK_PAYLOADS = List.of("text-128", "text-1k", "text-64k");

    static boolean lz4Present() {
        try {
            Class.forName("dev.zstdjava.bench.Lz4CompressBench");
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Adds the headline groups (default setting, compress and decompress, the quick payloads) of each codec given. */
    private static void headline(List<Group> g, List<String> zstdMethods, List<String> lz4Methods) {
        if (zstdMethods != null) {
            g.add(new Group("zstd-compress", "ZstdCompressBench", zstdMethods, QUICK_PAYLOADS, "level", List.of("3")));
            g.add(new Group("zstd-decompress", "ZstdDecompressBench", zstdMethods, QUICK_PAYLOADS, "level",
                    List.of("3")));
        }
        if (lz4Methods != null) {
            g.add(new Group("lz4-compress", "Lz4CompressBench", lz4Methods, QUICK_PAYLOADS, "mode",
                    List.of("default")));
            g.add(new Group("lz4-decompress", "Lz4DecompressBench", lz4Methods, QUICK_PAYLOADS, "mode",
                    List.of("default")));
        }
    }

    static Profile profile(String name, String only) {
        List<Group> g = new ArrayList<>();
        boolean zstd = only == null || only.equals("zstd");
        boolean lz4 = (only == null || only.equals("lz4")) && lz4Present();
        List<String> all = Payloads.names();
        switch (name) {
            case "quick" -> {
                headline(g, zstd ? ZSTD_HEADLINE : null, lz4 ? LZ4_HEADLINE : null);
                return new Profile(name, g, 2, 500, 5, 200, 1);
            }
            case "full" -> {
                if (zstd) {
                    g.add(new Group("zstd-compress", "ZstdCompressBench", ZSTD_ALL, all, "level", List.of("3")));
                    g.add(new Group("zstd-decompress", "ZstdDecompressBench", ZSTD_ALL, all, "level", List.of("3")));
                    List<String> lv = List.of("1", "9", "19");
                    g.add(new Group("zstd-levels-compress", "ZstdCompressBench",
                            List.of("zstdjava_segment", "zstdjava_arrayDst", "zstdjava_arrayNew", "zstdjni_static",
                                    "zstdjni_ctxDirect", "aircompressor_native"), List.of("text-64k"), "level", lv));
                    g.add(new Group("zstd-levels-decompress", "ZstdDecompressBench",
                            List.of("zstdjava_segment", "zstdjava_arrayDst", "zstdjava_arrayNew", "zstdjni_static",
                                    "zstdjni_ctxDirect", "aircompressor_java", "aircompressor_native"),
                            List.of("text-64k"), "level", lv));
                }
                if (lz4) {
                    g.add(new Group("lz4-compress", "Lz4CompressBench", LZ4_ALL, all, "mode", List.of("default")));
                    g.add(new Group("lz4-decompress", "Lz4DecompressBench", LZ4_ALL, all, "mode",
                            List.of("default")));
                    g.add(new Group("lz4-fast8-compress", "Lz4CompressBench",
                            List.of("zstdjava_segment", "zstdjava_arrayDst", "lz4java_jni", "aircompressor_native"),
                            all, "mode", List.of("fast8")));
                    g.add(new Group("lz4-hc9-compress", "Lz4CompressBench",
                            List.of("zstdjava_segment", "zstdjava_arrayDst", "lz4java_jni"), all, "mode",
                            List.of("hc9")));
                    g.add(new Group("lz4-modes-decompress", "Lz4DecompressBench",
                            List.of("zstdjava_segment", "lz4java_jni"), all, "mode", List.of("fast8", "hc9")));
                }
                return new Profile(name, g, 2, 400, 5, 400, 1);
            }
            case "targets" -> { // the binding-overhead target cells again, with more forks and longer iterations
                List<String> forms = List.of("zstdjava_segment", "zstdjava_arrayDst");
                headline(g, zstd ? forms : null, lz4 ? forms : null);
                return new Profile(name, g, 3, 500, 8, 500, 3);
            }
            case "smoke" -> { // every group of the full profile on one small payload, minimal time: checks the plumbing
                List<Group> small = new ArrayList<>();
                for (Group x : profile("full", only).groups()) {
                    small.add(new Group(x.name(), x.benchClass(), x.methods(),
                            x.payloads().contains("text-1k") ? List.of("text-1k") : x.payloads(), x.paramName(),
                            x.paramValues()));
                }
                return new Profile(name, small, 1, 100, 2, 100, 1);
            }
            default -> throw new IllegalArgumentException("unknown profile '" + name
                    + "' (quick, full, targets or smoke)");
        }
    }

    @Parameters(index = "0", paramLabel = "PROFILE", description = "quick, full, targets or smoke")
    String profile;

    @Parameters(index = "1", paramLabel = "DIR", description = "results folder")
    Path dir;

    @Option(names = "--cref", paramLabel = "PATH",
            description = "the C reference executable (cref.c, built by ./bench)")
    Path cref;

    /** the codecs a run can be limited to */
    enum Codec { zstd, lz4 }

    @Option(names = "--only", paramLabel = "CODEC", description = "only this codec: ${COMPLETION-CANDIDATES}")
    Codec only;

    @Option(names = "--dry-run", description = "print the cells and the time estimate, run nothing")
    boolean dryRun;

    @Override
    public Integer call() throws Exception {
        Profile p = profile(profile, only == null ? null : only.name());
        Files.createDirectories(dir);
        long cells = p.groups().stream().mapToLong(Group::cells).sum();
        System.out.printf("bench: profile %s, %d JMH cells in %d groups%s, about %d min on an idle machine%n",
                p.name(), cells, p.groups().size(), cref == null ? "" : " plus the C reference",
                Math.max(1, Math.round(p.estimateSeconds() / 60.0)));
        if (!lz4Present()) {
            System.out.println("bench: the lz4 suites are not in this build; lz4 cells skipped");
        }
        if (dryRun) {
            for (Group g : p.groups()) {
                System.out.printf("  %-24s %4d cells: %s x %s x %s=%s%n", g.name(), g.cells(), g.methods(),
                        g.payloads(), g.paramName(), g.paramValues());
            }
            System.out.printf("  C reference: %d cases, about %d s%n", p.crefCases().size(), p.crefSeconds());
            return 0;
        }
        java.util.Properties env = new java.util.Properties();
        env.setProperty("profile", p.name());
        env.setProperty("timing", p.warmups() + " x " + p.warmupMs() + " ms warm-up, " + p.iterations() + " x "
                + p.iterationMs() + " ms measurement, " + p.forks() + " fork(s) per cell");
        env.setProperty("started", java.time.Instant.now().toString());
        env.setProperty("load.before", Env.load());
        env.setProperty("cpu", Env.cpu());
        env.setProperty("cores", String.valueOf(Runtime.getRuntime().availableProcessors()));
        env.setProperty("memory", Env.memory());
        env.setProperty("os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        if (cref != null) {
            runCref(p, dir, cref);
        }
        Set<String> probe = new LinkedHashSet<>();
        for (Group g : p.groups()) {
            probe.addAll(g.payloads());
        }
        System.out.printf("bench: allocation probe (exact B/op of zstd-java's forms): %s%n", probe);
        AllocProbe.run(dir.resolve("alloc-probe.jsonl"), List.copyOf(probe));
        int n = 0;
        for (Group g : p.groups()) {
            n++;
            Path json = dir.resolve("jmh-" + g.name() + ".json");
            Path log = dir.resolve("jmh-" + g.name() + ".log");
            System.out.printf("bench: [%d/%d] %s: %d cells (progress: tail -f %s)%n", n, p.groups().size(),
                    g.name(), g.cells(), log);
            ChainedOptionsBuilder o = new OptionsBuilder()
                    .include(g.include())
                    .param("payload", g.payloads().toArray(String[]::new))
                    .param(g.paramName(), g.paramValues().toArray(String[]::new))
                    .warmupIterations(p.warmups())
                    .warmupTime(TimeValue.milliseconds(p.warmupMs()))
                    .measurementIterations(p.iterations())
                    .measurementTime(TimeValue.milliseconds(p.iterationMs()))
                    .forks(p.forks())
                    .addProfiler(GCProfiler.class)
                    .resultFormat(ResultFormatType.JSON)
                    .result(json.toString())
                    .output(log.toString())
                    .shouldFailOnError(false);
            new Runner(o.build()).run();
            if (Files.readString(log).contains("<failure>")) {
                System.out.println("bench: some cells of " + g.name() + " failed; see " + log);
            }
        }
        env.setProperty("finished", java.time.Instant.now().toString());
        env.setProperty("load.after", Env.load());
        try (var w = Files.newBufferedWriter(dir.resolve("env.properties"))) {
            env.store(w, "benchmark run environment");
        }
        return 0;
    }

    private static void runCref(Profile p, Path dir, Path exe) throws Exception {
        List<String> cases = p.crefCases();
        Path payloads = dir.resolve("payloads");
        Set<String> names = new LinkedHashSet<>();
        for (String c : cases) {
            names.add(c.substring(c.lastIndexOf(':') + 1));
        }
        Payloads.writeAll(payloads, List.copyOf(names));
        List<String> cmd = new ArrayList<>(List.of(exe.toString(), payloads.toString(),
                String.valueOf(crefWarmupMs(p)), String.valueOf(p.iterationMs()),
                String.valueOf(p.iterations())));
        cmd.addAll(cases);
        System.out.printf("bench: C reference: %d cases (%s)%n", cases.size(), exe);
        Path out = dir.resolve("cref.jsonl");
        Process proc = new ProcessBuilder(cmd).redirectOutput(out.toFile())
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        int rc = proc.waitFor();
        if (rc != 0) {
            throw new IOException("C reference failed (exit " + rc + "): " + String.join(" ", cmd));
        }
    }

    /** C needs no JIT warm-up, only warm caches and clocks: at most one second */
    static int crefWarmupMs(Profile p) {
        return Math.min(1000, p.warmups() * p.warmupMs());
    }
}
