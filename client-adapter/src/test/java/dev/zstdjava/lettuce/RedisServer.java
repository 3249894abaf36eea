package dev.zstdjava.lettuce;

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
 * A real Valkey/Redis server for one test class: started on a free loopback port with persistence off, stopped
 * (and its folder deleted) by {@link #close()}.
 */
final class RedisServer implements AutoCloseable {
    static final String HOST = "127.0.0.1";

    private Process process;
    private final int port;
    private final Path dir;
    private final List<String> cmd;

    private RedisServer(Process process, int port, Path dir, List<String> cmd) {
        this.process = process;
        this.port = port;
        this.dir = dir;
        this.cmd = cmd;
    }

    static RedisServer start() {
        return start(false);
    }

    /**
     * Starts a server; {@code cluster} makes it a cluster node with no slots yet. The node timeout (3 s) also sets how
     * long a new master waits before its cluster state turns ok; short, but tolerant of a busy machine.
     */
    static RedisServer start(boolean cluster) {
        return start(cluster, false);
    }

    /**
     * Starts a server that keeps its data: append-only file fsynced before every reply ({@code appendfsync always}),
     * so every acknowledged write survives {@link #kill()} and {@link #restart()}; {@code DEBUG} is enabled.
     */
    static RedisServer startPersistent() {
        return start(false, true);
    }

    private static RedisServer start(boolean cluster, boolean persistent) {
        Path binary = TestEnv.serverBinary();
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = freePort();
            try {
                Path dir = Files.createTempDirectory("zstdjava-redis-" + port + "-");
                List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--port", Integer.toString(port),
                        "--bind", HOST, "--save", "", "--appendonly", persistent ? "yes" : "no", "--dir",
                        dir.toString(), "--daemonize", "no", "--protected-mode", "yes"));
                if (persistent) {
                    cmd.addAll(List.of("--appendfsync", "always", "--enable-debug-command", "yes"));
                }
                if (cluster) {
                    cmd.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file",
                            dir.resolve("nodes.conf").toString(), "--cluster-node-timeout", "3000"));
                }
                Process p = launch(cmd, dir);
                RedisServer server = new RedisServer(p, port, dir, cmd);
                if (server.awaitPing()) {
                    return server;
                }
                String log = Files.exists(dir.resolve("server.log")) ? Files.readString(dir.resolve("server.log")) : "";
                server.close();
                last = new IOException("server on port " + port + " did not answer PING; its log:\n" + log);
            } catch (IOException e) {
                last = e;
            }
        }
        throw new IllegalStateException("could not start " + binary, last);
    }

    private static Process launch(List<String> cmd, Path dir) throws IOException {
        return new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("server.log").toFile())).start();
    }

    /** Kills the server at once (SIGKILL): no shutdown, no final save. */
    void kill() throws InterruptedException {
        process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
    }

    /** Starts the server again on the same port and folder (so it loads what it persisted) and waits for PING. */
    void restart() throws IOException {
        process = launch(cmd, dir);
        if (!awaitPing()) {
            throw new IOException("the restarted server on port " + port + " did not answer PING; its log:\n"
                    + Files.readString(dir.resolve("server.log")));
        }
    }

    int port() {
        return port;
    }

    /** Sends one inline command over a fresh socket and returns the raw reply. */
    String command(String inline) throws IOException {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(HOST, port), 1000);
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

    private static int freePort() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(HOST))) {
            return s.getLocalPort();
        } catch (IOException e) {
            throw new IllegalStateException("no free loopback port", e);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a temp folder
        }
    }
}
