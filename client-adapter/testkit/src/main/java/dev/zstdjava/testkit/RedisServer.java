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
 * A real Valkey/Redis server for one test class: started on a free loopback port with persistence off, stopped
 * (and its folder deleted) by {@link #close()}.
 */
public final class RedisServer implements AutoCloseable {
    public static final String HOST = "127.0.0.1";

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

    public static RedisServer start() {
        return start(false);
    }

    /**
     * Starts a server; {@code cluster} makes it a cluster node with no slots yet. The node timeout (3 s) also sets how
     * long a new master waits before its cluster state turns ok; short, but tolerant of a busy machine.
     */
    public static RedisServer start(boolean cluster) {
        Path binary = TestEnv.serverBinary();
        IOException last = null;
        for (int attempt = 0; attempt < 5; attempt++) {
            int port = freePort();
            try {
                Path dir = Files.createTempDirectory("zstdjava-redis-" + port + "-");
                List<String> cmd = new ArrayList<>(List.of(binary.toString(), "--port", Integer.toString(port),
                        "--bind", HOST, "--save", "", "--appendonly", "no", "--dir", dir.toString(),
                        "--daemonize", "no", "--protected-mode", "yes"));
                if (cluster) {
                    cmd.addAll(List.of("--cluster-enabled", "yes", "--cluster-config-file",
                            dir.resolve("nodes.conf").toString(), "--cluster-node-timeout", "3000"));
                }
                Process p = new ProcessBuilder(cmd).redirectErrorStream(true)
                        .redirectOutput(dir.resolve("server.log").toFile()).start();
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

    /** Sends one inline command over a fresh socket and returns the raw reply. */
    public String command(String inline) throws IOException {
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
        stopProcess();
        try (var files = Files.walk(dir)) {
            files.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // best effort: a temp folder
        }
    }

    private void stopProcess() {
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
