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
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A real Valkey (or Redis) server process for a test class or a benchmark run: a free loopback port, persistence off,
 * its own temporary folder. {@link #close()} (also run by a shutdown hook, so that Ctrl-C or a killed test JVM does
 * not leave it running) stops it and deletes the folder. Not thread-safe except {@link #close()}.
 */
public final class ValkeyServer implements AutoCloseable {
    /** The address every server listens on. */
    public static final String HOST = "127.0.0.1";

    private final Process process;
    private final String host;
    private final int port;
    private final Path dir;
    private final Path binary;
    private final Thread hook;

    private ValkeyServer(Process process, String host, int port, Path dir, Path binary) {
        this.process = process;
        this.host = host;
        this.port = port;
        this.dir = dir;
        this.binary = binary;
        this.hook = new Thread(this::stop, "valkey-server-stop");
        Runtime.getRuntime().addShutdownHook(hook);
    }

    /** Starts a standalone server on the test environment's binary ({@link TestEnv#serverBinary()}). */
    public static ValkeyServer start() {
        return start(TestEnv.serverBinary(), false);
    }

    /** Starts a server on the test environment's binary; {@code cluster} as in {@link #start(Path, boolean)}. */
    public static ValkeyServer start(boolean cluster) {
        return start(TestEnv.serverBinary(), cluster);
    }

    /** Starts a standalone server. */
    public static ValkeyServer start(Path binary) {
        return start(binary, false);
    }

    /**
     * Starts a server on {@link #HOST} that answers PING, trying five free ports before giving up.
     *
     * @param cluster make it a cluster node with no slots yet; the node timeout (3 s) also sets how long a new master
     *                waits before its cluster state turns ok: short, but tolerant of a busy machine
     * @throws IllegalStateException when no attempt answered, with the last server log
     */
    public static ValkeyServer start(Path binary, boolean cluster) {
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
     * Starts {@code binary} through {@code launcher} (a command prefix such as {@code ip netns exec NS} that execs
     * the server, or empty), bound to {@code host}:{@code port} only; one attempt.
     *
     * @param protectedMode false for a non-loopback address only this run can reach (a private link), where the
     *                      server's protected mode would refuse the clients
     * @throws IOException when it could not be started or did not answer PING (with its log)
     */
    public static ValkeyServer start(Path binary, List<String> launcher, String host, int port, boolean protectedMode)
            throws IOException {
        return launch(binary, launcher, host, port, protectedMode, false);
    }

    private static ValkeyServer launch(Path binary, List<String> launcher, String host, int port,
                                       boolean protectedMode, boolean cluster) throws IOException {
        Path dir = Files.createTempDirectory("zstdjava-valkey-" + port + "-");
        List<String> cmd = new ArrayList<>(launcher);
        cmd.addAll(List.of(binary.toString(), "--port", Integer.toString(port), "--bind", host, "--save", "",
                "--appendonly", "no", "--dir", dir.toString(), "--daemonize", "no",
                "--protected-mode", protectedMode ? "yes" : "no", "--loglevel", "warning"));
        if (cluster) {
            cmd.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file",
                    dir.resolve("nodes.conf").toString(), "--cluster-node-timeout", "3000"));
        }
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile()).start();
        ValkeyServer server = new ValkeyServer(p, host, port, dir, binary);
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

    /** @return the port it listens on, at {@link #host()} */
    public int port() {
        return port;
    }

    /** @return the binary it runs */
    public Path binary() {
        return binary;
    }

    /** Sends one inline command over a fresh connection and returns the raw reply (its first 64 KiB). */
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
}
