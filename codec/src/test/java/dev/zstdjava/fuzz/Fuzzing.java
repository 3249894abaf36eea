package dev.zstdjava.fuzz;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Runs the fuzz targets (classes with {@code public static void fuzzerTestOneInput(byte[])}) two ways:
 * <ul>
 *   <li><b>regression</b>: every input kept in the target's corpus folder ({@code src/test/fuzz/<Target>/} of the
 *       module: seeds made from real frames, inputs the fuzzer found interesting, and {@code crash-*} findings) is run
 *       through the target in this JVM;</li>
 *   <li><b>fuzzing</b>: Jazzer's coverage-guided fuzzer runs the target in a <em>forked</em> JVM for
 *       {@code -Dzstdjava.fuzz.seconds} seconds (default 5), starting from that corpus, so a JVM crash (a SIGSEGV in
 *       native code) fails the test like an exception does. A finding is written into the corpus folder as
 *       {@code crash-<sha1>}, where it stays as a regression input once committed.</li>
 * </ul>
 * With {@code -Dzstdjava.fuzz.keepCorpus=true} ({@code tools/fuzz.sh} sets it) the new inputs that add coverage are
 * merged back into the corpus folder, so the next run resumes from there. Each run appends one line per target to
 * {@code target/fuzz/runs.tsv} (target, seconds asked, executions, exit status, wall seconds of the fork).
 */
public final class Fuzzing {
    /** Seconds each target is fuzzed for; 5 in the default test run. */
    public static final int SECONDS = Integer.getInteger("zstdjava.fuzz.seconds", 5);
    private static final boolean KEEP_CORPUS = Boolean.getBoolean("zstdjava.fuzz.keepCorpus");
    /**
     * Jazzer's bug detectors look for injection bugs (SQL, LDAP, deserialization, ...) that a codec cannot have, and
     * hook JDK classes that its bundled ASM cannot read on JDK 25 (class file version 69): left off, which also
     * shortens each fork's start. Coverage instrumentation of this project's classes is unaffected.
     */
    private static final String SANITIZERS = Stream.of("ClojureLangHooks", "Deserialization",
            "ExpressionLanguageInjection", "LdapInjection", "NamingContextLookup", "OsCommandInjection",
            "ReflectiveCall", "RegexInjection", "RegexRoadblocks", "ScriptEngineInjection", "ServerSideRequestForgery",
            "SqlInjection", "XPathInjection").map(h -> "com.code_intelligence.jazzer.sanitizers." + h)
            .collect(java.util.stream.Collectors.joining(":"));
    private static final Pattern DONE = Pattern.compile("Done (\\d+) runs in (\\d+) second");

    private Fuzzing() {}

    /**
     * @return the targets named in {@code -Dzstdjava.fuzz.targets} (corpus folder names, comma-separated; names of
     *         other modules' targets are ignored here), or all
     */
    public static List<Class<?>> select(List<Class<?>> all) {
        String only = System.getProperty("zstdjava.fuzz.targets", "").trim();
        if (only.isEmpty()) {
            return all;
        }
        List<String> names = List.of(only.split("\\s*,\\s*"));
        return all.stream().filter(c -> names.contains(corpus(c).getFileName().toString())).toList();
    }

    /** @return the target's corpus folder, {@code src/test/fuzz/<simple name>} (nested classes: {@code Outer.Inner}) */
    public static Path corpus(Class<?> target) {
        String name = target.getName().substring(target.getPackageName().length() + 1).replace('$', '.');
        return Path.of("src", "test", "fuzz", name);
    }

    /** Runs every input in the target's corpus folder through it, here; the folder must hold at least one seed. */
    public static void regression(Class<?> target) throws Throwable {
        Path dir = corpus(target);
        assertTrue(Files.isDirectory(dir), "no corpus folder " + dir.toAbsolutePath());
        MethodHandle entry = MethodHandles.publicLookup().findStatic(target, "fuzzerTestOneInput",
                MethodType.methodType(void.class, byte[].class));
        List<Path> inputs;
        try (Stream<Path> files = Files.list(dir)) {
            inputs = files.filter(Files::isRegularFile).sorted().toList();
        }
        assertTrue(!inputs.isEmpty(), "no seed in " + dir.toAbsolutePath());
        for (Path input : inputs) {
            try {
                entry.invokeExact(Files.readAllBytes(input));
            } catch (Throwable t) {
                throw new AssertionError(target.getSimpleName() + " fails on regression input " + input, t);
            }
        }
    }

    /** Fuzzes the target in a forked JVM for {@link #SECONDS} seconds; fails on any finding or crash. */
    public static void fuzz(Class<?> target) throws IOException, InterruptedException {
        Path corpus = corpus(target).toAbsolutePath();
        Run run = fork(target, corpus, SECONDS);
        Path runs = Path.of("target", "fuzz", "runs.tsv");
        Files.writeString(runs, String.join("\t", corpus.getFileName().toString(), Integer.toString(SECONDS),
                Long.toString(run.executions), Integer.toString(run.exit), Long.toString(run.wallSeconds)) + "\n",
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        if (run.exit != 0) {
            fail(target.getSimpleName() + ": the fuzzer stopped with exit status " + run.exit + " (a finding or a"
                    + " crash; the input is saved in " + corpus + " as crash-*, now a regression input). Log "
                    + run.log + ", last lines:\n" + tail(run.output, 60));
        }
        assertTrue(run.executions > 0, "no run count in " + run.log + ":\n" + tail(run.output, 30));
        if (KEEP_CORPUS) {
            List<String> merge = jazzer(target, run.work);
            merge.addAll(List.of("-merge=1", corpus.toString(), run.work.resolve("corpus").toString()));
            assertEquals(0, run(merge, run.work.resolve("merge.log"), 600), "merging the corpus failed, see "
                    + run.work);
        }
    }

    /** One forked fuzzing run: exit status, executions (-1 when the fuzzer printed none), its folder and output. */
    record Run(int exit, long executions, long wallSeconds, Path work, Path log, String output) {}

    /**
     * Runs Jazzer on {@code target} in a new JVM for {@code seconds}, reading the inputs in {@code corpus} and
     * writing findings there; new interesting inputs go to {@code target/fuzz/<name>/corpus}.
     */
    static Run fork(Class<?> target, Path corpus, int seconds) throws IOException, InterruptedException {
        Path work = Path.of("target", "fuzz", corpus.getFileName().toString()).toAbsolutePath();
        Path fresh = work.resolve("corpus");
        Files.createDirectories(fresh);
        Files.createDirectories(corpus);
        Path log = work.resolve("jazzer.log");
        List<String> cmd = jazzer(target, work);
        cmd.addAll(List.of("-max_total_time=" + seconds, "-timeout=30", "-rss_limit_mb=2560",
                "-artifact_prefix=" + corpus + "/", fresh.toString(), corpus.toString()));
        long start = System.nanoTime();
        int exit = run(cmd, log, seconds + 180);
        String out = Files.readString(log, StandardCharsets.ISO_8859_1);
        Matcher m = DONE.matcher(out);
        long execs = m.find() ? Long.parseLong(m.group(1)) : -1;
        return new Run(exit, execs, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - start), work, log, out);
    }

    /** The command line of a forked Jazzer run of {@code target} with this JVM's class path. */
    private static List<String> jazzer(Class<?> target, Path work) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(List.of("-Xmx1g", "-Xss2m", "--enable-native-access=ALL-UNNAMED", "-XX:+EnableDynamicAgentLoading",
                "-XX:ErrorFile=" + work.resolve("hs_err_%p.log"), "-cp", System.getProperty("java.class.path"),
                "com.code_intelligence.jazzer.Jazzer", "--target_class=" + target.getName(),
                "--instrumentation_includes=dev.zstdjava.**",
                // the targets and this harness are not what is fuzzed: uninstrumented, they cost nothing per input
                "--instrumentation_excludes=dev.zstdjava.fuzz.**:dev.zstdjava.values.ValueCompressorFuzz",
                "--reproducer_path=" + work,
                "--disabled_hooks=" + SANITIZERS));
        return cmd;
    }

    private static int run(List<String> cmd, Path log, int timeoutSeconds) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        boolean ended;
        try {
            ended = p.waitFor(timeoutSeconds, TimeUnit.SECONDS);
        } catch (InterruptedException e) { // the test's timeout: the fuzzer must not outlive it
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            throw e;
        }
        if (!ended) {
            p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            fail("the forked fuzzer did not finish within " + timeoutSeconds + " s: " + log);
        }
        return p.exitValue();
    }

    private static String tail(String s, int lines) {
        String[] all = s.split("\n");
        return String.join("\n", List.of(all).subList(Math.max(0, all.length - lines), all.length));
    }
}
