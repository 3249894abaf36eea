package dev.zstdjava.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Valkey/Redis server for one test class, or for a run of the end-to-end benchmark ({@code ./e2e}): started on
 * a free loopback port (or a given address) with persistence off; stopped, and its folder deleted, by {@link #close()},
 * which a shutdown hook also runs so that Ctrl-C or a killed JVM does not leave it running.
 */
public final class RedisServer implements AutoCloseable {
    public static final String HOST = "127.0.0.1";

    private Process process;
    private final String host;
    private final int port;
    private final Path dir;
    private final Path binary;
    private final List<String> cmd;
    private final Thread hook;

    private RedisServer(Process process, String host, int port, Path dir, Path binary, List<String> cmd) {
        this.process = process;
        this.host = host;
        this.port = port;
        this.dir = dir;
        this.binary = binary;
        this.cmd = cmd;
        this.hook = new Thread(this::stop, "redis-server-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    public static RedisServer start() {
        return start(false);
    }

    /**
     * Starts a server; {@code cluster} makes it a cluster node with no slots yet. The node timeout (3 s) also sets how
     * long a new master waits before its cluster state turns ok; short, but tolerant of a busy machine.
     */
    public static RedisServer start(boolean cluster) {
        return start(TestEnv.serverBinary(), cluster);
    }

    /** Starts {@code binary} on a free loopback port, trying five ports; {@code cluster} as in {@link #start(boolean)}. */
    public static RedisServer start(Path binary, boolean cluster) {
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            try {
                return launch(binary, List.of(), HOST, freePort(), true, cluster);
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IllegalStateException("could not start " + binary, last);
    }

    /**
     * Starts {@code binary} through {@code launcher} (a command prefix such as {@code ip netns exec NS} that execs the
     * server, or empty), bound to {@code host}:{@code port} only; one attempt.
     *
     * @param protectedMode false for a non-loopback address only this run can reach (a private link), where the
     *                      server's protected mode would refuse the clients
     * @throws IOException when it could not be started or did not answer PING (with its log)
     */
    public static RedisServer start(Path binary, List<String> launcher, String host, int port, boolean protectedMode)
            throws IOException {
        return launch(binary, launcher, host, port, protectedMode, false);
    }

    /**
     * Starts a server that keeps its data: append-only file fsynced before every reply ({@code appendfsync always}),
     * so every acknowledged write survives {@link #kill()} and {@link #startAgain()}; {@code DEBUG} is enabled.
     */
    public static RedisServer startPersistent() throws IOException {
        return launch(TestEnv.serverBinary(), List.of(), HOST, freePort(), true, false, true);
    }

    private static RedisServer launch(Path binary, List<String> launcher, String host, int port,
                                      boolean protectedMode, boolean cluster) throws IOException {
        return launch(binary, launcher, host, port, protectedMode, cluster, false);
    }

    private static RedisServer launch(Path binary, List<String> launcher, String host, int port,
                                      boolean protectedMode, boolean cluster, boolean persistent) throws IOException {
        Path dir = Files.createTempDirectory("zstdjava-redis-" + port + "-");
        List<String> cmd = new ArrayList<>(launcher);
        cmd.addAll(List.of(binary.toString(), "--port", Integer.toString(port), "--bind", host, "--save", "",
                "--appendonly", persistent ? "yes" : "no", "--dir", dir.toString(), "--daemonize", "no",
                "--protected-mode", protectedMode ? "yes" : "no"));
        if (persistent) {
            cmd.addAll(List.of("--appendfsync", "always", "--enable-debug-command", "yes"));
        }
        if (cluster) {
            cmd.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file",
                    dir.resolve("nodes.conf").toString(), "--cluster-node-timeout", "3000"));
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile()).start();
        RedisServer server = new RedisServer(p, host, port, dir, binary, cmd);
        if (server.awaitPing()) {
            return server;
        }
        Path log = dir.resolve("server.log");
        String text = Files.exists(log) ? Files.readString(log) : "";
        server.close();
        throw new IOException(binary + " on " + host + ":" + port + " did not answer PING; its log:\n" + text);
    }

    /** @return the address it listens on ({@link #HOST} unless started on another) */
    public String host() {
        return host;
    }

    /** @return the binary it runs */
    public Path binary() {
        return binary;
    }

    public int port() {
        return port;
    }

    /**
     * Writes the data set to disk ({@code SAVE}), stops the server and starts it again on the same port and folder,
     * so it comes back with the same data, as after a planned restart. Clients see their connections drop.
     */
    public void restart() throws IOException {
        String saved = command("SAVE");
        if (!saved.startsWith("+OK")) {
            throw new IOException("SAVE answered " + saved.trim());
        }
        stopProcess();
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile())).start();
        if (!awaitPing()) {
            throw new IOException("server on port " + port + " did not come back after a restart; its log:\n"
                    + Files.readString(dir.resolve("server.log")));
        }
    }

    /** Kills the server at once (SIGKILL): no shutdown, no save. {@link #startAgain()} brings it back. */
    public void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, java.util.concurrent.TimeUnit.SECONDS);
    }

    /** Starts the server again on the same port and folder, loading what it persisted, and waits for PING. */
    public void startAgain() throws IOException {
        process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile())).start();
        if (!awaitPing()) {
            throw new IOException("server on port " + port + " did not come back; its log:\n"
                    + Files.readString(dir.resolve("server.log")));
        }
    }

    /** Sends one inline command over a fresh socket and returns the raw reply. */
    public String command(String inline) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
            s.setSoTimeout(5000);
            OutputStream out = s.getOutputStream();
            out.write((inline + "\r\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = s.getInputStream();
            byte[] buf = new byte[65536];
            int n = in.read(buf);
            return n <= 0 ? "" : new String(buf, 0, n, StandardCharsets.UTF_8);
        }
    }

    private boolean awaitPing() {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        while (System.nanoTime() < deadline && process.isAlive()) {
            try {
                if (command("PING").startsWith("+PONG")) {
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

    /** Stops the server and deletes its folder; safe to call again. */
    @Override
    public void close() {
        stop();
        try {
            Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException ignored) {
            // already shutting down: the hook runs stop() again, which is harmless
        }
    }

    private synchronized void stop() {
        stopProcess();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a temp folder
        }
    }

    private void stopProcess() {
        if (!process.isAlive()) {
            return;
        }
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
}
