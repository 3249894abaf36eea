package dev.zstdjava.values;

import dev.zstdjava.zstd.Zstd;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * No public constructor or method of the published jars (zstd-java-codec and zstd-java-values, including the public
 * classes of {@code dev.zstdjava.internal}, which are reachable on the class path) can crash or hang the JVM, whatever
 * arguments it is given: every one is called with hostile arguments (see {@link ApiFuzzChild}) in a forked JVM with
 * {@code --enable-native-access=ALL-UNNAMED}. A fatal signal, a non-zero exit, an {@code hs_err_pid*.log} or a call
 * that outlives its deadline is a failure naming the call and its arguments; a Java exception is the expected clear
 * error. After a crash or hang the fuzzer starts a new JVM at the next call, so one run lists every failure.
 *
 * <p>Deterministic (fixed seed) and bounded: the default run makes 16 calls per member (in the first rounds every
 * hostile segment, buffer, array and number reaches every parameter), well under two minutes.
 * The longer form, more rounds per member over several seeds:
 * <pre>{@code
 * ./mvnw -B -ntp -o -pl client-adapter/values -am verify -Dzstdjava.jdk21.skip=true -Dtest=PublicApiFuzzTest \
 *     -Dsurefire.failIfNoSpecifiedTests=false -Dzstdjava.apifuzz.rounds=50 -Dzstdjava.apifuzz.seeds=5
 * }</pre>
 * Other properties: {@code zstdjava.apifuzz.seed} (first seed), {@code zstdjava.apifuzz.callTimeoutMillis} (the
 * per-call deadline, default 5000). Each child's output is kept in {@code target/api-fuzz/}. Nothing is skipped but
 * {@link #EXCLUDED}: the native bindings are package-private in {@code dev.zstdjava.zstd} and
 * {@code dev.zstdjava.lz4}, so they are not public members, and {@code dev.zstdjava.internal}'s public classes
 * ({@code Binder}, {@code LibC}, {@code Guard}, {@code Scratch}, ...) are fuzzed like every other.
 */
class PublicApiFuzzTest {

    /**
     * Members never called ({@code Class#method} to the reason): those that legitimately block or would reach the
     * network. Small and explicit; a member is never excluded because it crashes or hangs. Empty today: no client is
     * ever built (foreign types are null or do-nothing proxies), so no call reaches a server, and no call blocked past
     * its deadline in the default run or in 3 seeds x 40 rounds (69,000 calls).
     */
    static final Map<String, String> EXCLUDED = new LinkedHashMap<>();

    private static final long SEED = Long.getLong("zstdjava.apifuzz.seed", 0x5EED_2026L);
    private static final int SEEDS = Integer.getInteger("zstdjava.apifuzz.seeds", 1);
    private static final int ROUNDS = Integer.getInteger("zstdjava.apifuzz.rounds", 16);
    private static final long CALL_TIMEOUT_MS = Long.getLong("zstdjava.apifuzz.callTimeoutMillis", 5000);

    @Test
    void noPublicMethodOfTheCodecAndValuesJarsCrashesOrHangsTheJvm() throws Exception {
        List<String> classes = new ArrayList<>();
        classes.addAll(classNames(location(Zstd.class)));
        classes.addAll(classNames(location(ValueCompressor.class)));
        assertTrue(classes.contains("dev.zstdjava.zstd.ZstdCompressor") && classes.contains(
                "dev.zstdjava.values.ValueCompressor"), "both jars enumerated: " + classes.size() + " classes");
        Set<String> skip = new LinkedHashSet<>(EXCLUDED.keySet());
        assertTrue(classes.contains("dev.zstdjava.internal.Binder") && classes.contains("dev.zstdjava.internal.LibC"),
                "the public classes of dev.zstdjava.internal are fuzzed too: " + classes);
        System.out.println("API fuzz: " + classes.size() + " classes, seeds from " + SEED + " x" + SEEDS + ", "
                + ROUNDS + " rounds per member, deadline " + CALL_TIMEOUT_MS + " ms per call");
        System.out.println("API fuzz: excluded members: " + (EXCLUDED.isEmpty() ? "none" : ""));
        EXCLUDED.forEach((k, v) -> System.out.println("  " + k + ": " + v));
        List<String> failures = new ArrayList<>();
        for (int s = 0; s < SEEDS; s++) {
            Run run = fuzz("jars-seed" + (SEED + s), classes, skip, SEED + s, ROUNDS);
            System.out.println("API fuzz: seed " + (SEED + s) + ": " + run.summary());
            run.noReceiver.forEach(m -> System.out.println("  never called (no instance from a public factory): " + m));
            assertTrue(run.members > 300, "members fuzzed: " + run.members);
            failures.addAll(run.failures);
        }
        if (!failures.isEmpty()) {
            fail(failures.size() + " call(s) crashed or hung the JVM:\n" + String.join("\n", failures));
        }
    }

    /** The proof that the fuzzer fails: a native crash and a hang are each reported by name; an exception is not. */
    @Test
    void aCrashAndAHangAreReportedByTheMethodThatCausedThem() throws Exception {
        Run run = fuzz("self-test", List.of(ApiFuzzSelfTestTargets.class.getName()), Set.of(), SEED, 1);
        System.out.println("API fuzz self-test: " + run.summary() + "\n  " + String.join("\n  ", run.failures));
        assertEquals(3, run.members);
        assertEquals(2, run.failures.size(), String.join("\n", run.failures));
        assertTrue(run.failures.get(0).startsWith("CRASH") && run.failures.get(0).contains(".crashInNative()")
                && run.failures.get(0).contains("hs_err"), run.failures.get(0));
        assertTrue(run.failures.get(1).startsWith("HANG") && run.failures.get(1).contains(".spinForever()"),
                run.failures.get(1));
        assertEquals(1, run.exceptions, "throwsClearError's call threw and was accepted");
    }

    /** One fuzz run, possibly over several child JVMs (a new one after each crash or hang). */
    static final class Run {
        final List<String> failures = new ArrayList<>();
        final Set<String> noReceiver = new LinkedHashSet<>();
        int members;
        long calls;
        long exceptions;
        int jvms;

        String summary() {
            return members + " members, " + calls + " calls (" + exceptions + " threw a Java exception), "
                    + noReceiver.size() + " never called for want of an instance, " + jvms + " JVM(s), "
                    + failures.size() + " crash/hang failure(s)";
        }
    }

    static Run fuzz(String name, List<String> classes, Set<String> skip, long seed, int rounds)
            throws IOException, InterruptedException {
        Path dir = Path.of(System.getProperty("user.dir"), "target", "api-fuzz", name);
        Files.createDirectories(dir);
        Path classList = Files.write(dir.resolve("classes.txt"), classes);
        Set<String> childSkip = new LinkedHashSet<>(skip);
        Run run = new Run();
        int start = 0;
        while (run.jvms < 400) {
            run.jvms++;
            Path skipFile = Files.write(dir.resolve("skip.txt"), childSkip);
            Path errors = Files.createTempDirectory(dir, "hs_err");
            Path log = dir.resolve("child-" + run.jvms + ".log");
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process p = new ProcessBuilder(java, "--enable-native-access=ALL-UNNAMED", "-Xmx512m", "-Xss2m",
                    "-XX:ErrorFile=" + errors.resolve("hs_err_pid%p.log"), "-XX:-CreateCoredumpOnCrash",
                    "-cp", System.getProperty("java.class.path"), ApiFuzzChild.class.getName(),
                    String.valueOf(seed), String.valueOf(rounds), String.valueOf(start),
                    String.valueOf(CALL_TIMEOUT_MS), classList.toString(), skipFile.toString())
                    .redirectErrorStream(true).start();
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            Thread reader = new Thread(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String l; (l = r.readLine()) != null; ) {
                        lines.add(l);
                    }
                } catch (IOException ignored) {
                    // the process died; its exit code says how
                } finally {
                    lines.add("\0EOF");
                }
            });
            reader.setDaemon(true);
            reader.start();
            String last = null;
            int lastIndex = -1;
            String hang = null;
            boolean done = false;
            boolean hanging = false;
            Deque<String> tail = new ArrayDeque<>();
            try (PrintWriter out = new PrintWriter(Files.newBufferedWriter(log))) {
                while (true) {
                    // the child's own deadline handles hangs; this catches a JVM stuck as a whole (a safepoint
                    // blocked by a critical native call)
                    String l = lines.poll(CALL_TIMEOUT_MS * 3 + 30_000, TimeUnit.MILLISECONDS);
                    if (l == null) {
                        p.destroyForcibly();
                        hang = "HANG (whole JVM stuck, killed) at " + last;
                        break;
                    }
                    if (l.equals("\0EOF")) {
                        break;
                    }
                    out.println(l);
                    tail.addLast(l);
                    if (tail.size() > 15) {
                        tail.removeFirst();
                    }
                    if (l.startsWith("CALL ")) {
                        run.calls++;
                        last = l.substring(5);
                        lastIndex = Integer.parseInt(l.substring(5, l.indexOf(' ', 5)));
                    } else if (l.startsWith("PREPARE ")) {
                        last = "making the arguments of " + l.substring(8);
                        lastIndex = Integer.parseInt(l.substring(8, l.indexOf(' ', 8)));
                    } else if (l.startsWith("FACTORY ") || l.startsWith("CLOSE ")) {
                        last = l;
                    } else if (l.startsWith("MEMBERS ")) {
                        run.members = Integer.parseInt(l.substring(8).trim());
                    } else if (l.startsWith("NORECEIVER ")) {
                        run.noReceiver.add(l.substring(l.indexOf(' ', 11) + 1));
                    } else if (l.startsWith("HANG ")) {
                        hang = "HANG (no return within " + CALL_TIMEOUT_MS + " ms): " + last;
                        hanging = true;
                    } else if (hanging && l.startsWith("    at ")) {
                        hang += "\n    " + l.trim(); // the worker's stack
                    } else if (l.startsWith("DONE ")) {
                        done = true;
                        run.exceptions += Long.parseLong(l.split(" ")[2]);
                    }
                }
            }
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
            int exit = p.waitFor();
            List<Path> hsErr;
            try (Stream<Path> s = Files.list(errors)) {
                hsErr = s.toList();
            }
            if (done && exit == 0 && hsErr.isEmpty()) {
                break;
            }
            if (last == null) {
                run.failures.add("CRASH before any call (exit " + exit + "): " + String.join("\n    ", tail));
                break;
            }
            if (hang != null && hsErr.isEmpty()) {
                run.failures.add(hang);
            } else {
                run.failures.add("CRASH (exit " + exit + (exit > 128 ? ", signal " + (exit - 128) : "")
                        + (hsErr.isEmpty() ? "" : ", " + hsErr.get(0).getFileName() + ": " + frame(hsErr.get(0)))
                        + ") in " + last);
            }
            if (last.startsWith("FACTORY ")) {
                // the same factory would be tried again in the next JVM: never use it again
                childSkip.add("factory " + last.substring(8));
                start = lastIndex >= 0 ? lastIndex : start; // found before the calls, or during call lastIndex
            } else {
                start = lastIndex + 1;
            }
        }
        return run;
    }

    /** The problematic frame an hs_err log names. */
    private static String frame(Path hsErr) {
        try {
            List<String> lines = Files.readAllLines(hsErr, StandardCharsets.ISO_8859_1);
            for (int i = 0; i < lines.size() - 1; i++) {
                if (lines.get(i).startsWith("# Problematic frame:")) {
                    return lines.get(i + 1).substring(1).trim();
                }
            }
            return "no problematic frame";
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Path location(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** Every class in a jar or class folder (module-info, package-info and META-INF left out). */
    static List<String> classNames(Path where) throws IOException {
        List<String> entries = new ArrayList<>();
        if (Files.isDirectory(where)) {
            try (Stream<Path> s = Files.walk(where)) {
                s.filter(Files::isRegularFile).forEach(f -> entries.add(where.relativize(f).toString()
                        .replace(where.getFileSystem().getSeparator(), "/")));
            }
        } else {
            try (ZipFile zip = new ZipFile(where.toFile())) {
                zip.stream().forEach(e -> entries.add(e.getName()));
            }
        }
        List<String> names = new ArrayList<>();
        for (String e : entries) {
            if (e.endsWith(".class") && !e.startsWith("META-INF/") && !e.endsWith("module-info.class")
                    && !e.endsWith("package-info.class")) {
                names.add(e.substring(0, e.length() - 6).replace('/', '.'));
            }
        }
        names.sort(null);
        return names;
    }
}
