package dev.zstdjava.testkit;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A cluster of three masters on loopback (slots 0-5460, 5461-10922, 10923-16383), set up with inline commands so it
 * needs no client library: for the cluster tests of every client. {@link #close()} stops every node.
 */
public final class RedisCluster implements AutoCloseable {
    private static final int[][] RANGES = {{0, 5460}, {5461, 10922}, {10923, 16383}};

    private final List<RedisServer> nodes;

    private RedisCluster(List<RedisServer> nodes) {
        this.nodes = nodes;
    }

    /**
     * Starts three cluster nodes, assigns the slots, introduces the nodes and waits (up to 30 s) for every node to
     * report {@code cluster_state:ok} with three known nodes.
     * @throws IllegalStateException naming the last {@code CLUSTER INFO} if the cluster does not become ready
     */
    public static RedisCluster start() throws IOException, InterruptedException {
        List<RedisServer> nodes = new ArrayList<>();
        RedisCluster c = new RedisCluster(nodes);
        try {
            for (int i = 0; i < RANGES.length; i++) {
                nodes.add(RedisServer.start(true));
            }
            for (int i = 0; i < RANGES.length; i++) {
                expectOk(nodes.get(i).command("CLUSTER ADDSLOTSRANGE " + RANGES[i][0] + " " + RANGES[i][1]));
            }
            for (int i = 1; i < nodes.size(); i++) {
                expectOk(nodes.get(0).command("CLUSTER MEET " + RedisServer.HOST + " " + nodes.get(i).port()));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            String info = "";
            while (true) {
                boolean ok = true;
                for (RedisServer n : nodes) {
                    info = n.command("CLUSTER INFO");
                    ok &= info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:3");
                }
                if (ok) {
                    return c;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cluster did not reach state ok: " + info);
                }
                Thread.sleep(50);
            }
        } catch (IOException | InterruptedException | RuntimeException e) {
            c.close();
            throw e;
        }
    }

    private static void expectOk(String reply) {
        if (!reply.startsWith("+OK")) {
            throw new IllegalStateException("cluster setup command failed: " + reply.trim());
        }
    }

    /** @return the nodes, master of the slot ranges in order */
    public List<RedisServer> nodes() {
        return List.copyOf(nodes);
    }

    /** @return the port of the first node (a seed for cluster clients) */
    public int seedPort() {
        return nodes.get(0).port();
    }

    /** Stops every node. */
    @Override
    public void close() {
        nodes.forEach(RedisServer::close);
    }
}
