package dev.zstdjava.interop;

import dev.zstdjava.testkit.TestEnv;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The scripts ({@code tools/cache-dir.sh}, which {@code tools/test-env.sh} and every other script source) and the
 * tests' {@link TestEnv} choose the same test-environment folder for the same environment, and neither takes it from
 * Java's {@code user.home}: each case runs the script and a child JVM started with {@code -Duser.home} pointing
 * elsewhere, under {@code HOME}, {@code XDG_CACHE_HOME}, {@code ZSTDJAVA_CACHE} and {@code ZSTDJAVA_TEST_ENV} set
 * case by case (and the other three removed). Needs bash; no server.
 */
class CacheDirRuleTest {
    private static final Path SCRIPT = ReadmeLinksTest.ROOT.resolve("tools/cache-dir.sh");

    @TempDir
    Path tmp;

    @Test
    void homeOnly() throws Exception {
        Path home = tmp.resolve("home");
        assertBothChoose(home.resolve(".cache/zstd-java/redis-test-env"), Map.of("HOME", home.toString()));
    }

    @Test
    void xdgCacheHomeBeforeHome() throws Exception {
        Path xdg = tmp.resolve("xdg");
        assertBothChoose(xdg.resolve("zstd-java/redis-test-env"),
                Map.of("HOME", tmp.resolve("home").toString(), "XDG_CACHE_HOME", xdg.toString()));
    }

    @Test
    void zstdjavaCacheBeforeXdg() throws Exception {
        Path cache = tmp.resolve("cache");
        assertBothChoose(cache.resolve("redis-test-env"), Map.of("HOME", tmp.resolve("home").toString(),
                "XDG_CACHE_HOME", tmp.resolve("xdg").toString(), "ZSTDJAVA_CACHE", cache.toString()));
    }

    @Test
    void zstdjavaTestEnvBeforeAll() throws Exception {
        Path env = tmp.resolve("env");
        assertBothChoose(env, Map.of("HOME", tmp.resolve("home").toString(),
                "ZSTDJAVA_CACHE", tmp.resolve("cache").toString(), "ZSTDJAVA_TEST_ENV", env.toString()));
    }

    @Test
    void noVariableIsAnErrorInBoth() throws Exception {
        Result script = run(List.of("bash", SCRIPT.toString(), "test-env"), Map.of());
        assertNotEquals(0, script.exit, script.out);
        assertTrue(script.out.contains("HOME"), script.out);
        Result jvm = run(childJava(), Map.of());
        assertNotEquals(0, jvm.exit, jvm.out);
        assertTrue(jvm.out.contains("neither ZSTDJAVA_CACHE, XDG_CACHE_HOME nor HOME is set"), jvm.out);
    }

    private void assertBothChoose(Path expected, Map<String, String> env) throws Exception {
        Result script = run(List.of("bash", SCRIPT.toString(), "test-env"), env);
        assertEquals(0, script.exit, script.out);
        Result jvm = run(childJava(), env);
        assertEquals(0, jvm.exit, jvm.out);
        assertEquals(expected.toString(), script.out.strip(), "tools/cache-dir.sh under " + env);
        assertEquals(expected.toString(), jvm.out.strip(), "TestEnv (user.home elsewhere) under " + env);
    }

    // A JVM that prints TestEnv.envDir(), with user.home pointing away from every folder a case expects.
    private List<String> childJava() {
        String testkit = Path.of(TestEnv.class.getProtectionDomain().getCodeSource().getLocation().getPath())
                .toString();
        return List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Duser.home=" + tmp.resolve("user-home-from-passwd"), "-cp", testkit,
                TestEnv.class.getName());
    }

    private record Result(int exit, String out) {}

    // Runs a command with exactly the cache variables of `env` (the four removed, then `env` added), output merged.
    private Result run(List<String> command, Map<String, String> env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true);
        for (String v : List.of("HOME", "XDG_CACHE_HOME", "ZSTDJAVA_CACHE", "ZSTDJAVA_TEST_ENV")) {
            pb.environment().remove(v);
        }
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child did not end: " + command);
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8));
    }
}
