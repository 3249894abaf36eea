package dev.zstdjava.testkit;

import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A cluster of three primaries on loopback (no replicas), slots split evenly, for one test class: started by
 * {@link #start()}, stopped with its servers by {@link #close()}. Lettuce is an optional dependency of the test kit.
 */
public final class RedisCluster implements AutoCloseable {
    private final List<RedisServer> nodes;

    private RedisCluster(List<RedisServer> nodes) {
        this.nodes = nodes;
    }

    /**
     * Starts three cluster nodes, assigns slots 0-5460, 5461-10922, 10923-16383, joins them and waits (30 s at most)
     * until every node reports {@code cluster_state:ok} with three known nodes.
     *
     * @throws IllegalStateException if the cluster does not form in time
     */
    public static RedisCluster start() throws InterruptedException {
        List<RedisServer> nodes = new ArrayList<>();
        RedisClient client = RedisClient.create();
        try {
            for (int i = 0; i < 3; i++) {
                nodes.add(RedisServer.start(true));
            }
            List<StatefulRedisConnection<String, String>> admin = new ArrayList<>();
            for (RedisServer n : nodes) {
                admin.add(client.connect(StringCodec.UTF8, RedisURI.create(RedisServer.HOST, n.port())));
            }
            int[][] ranges = {{0, 5460}, {5461, 10922}, {10923, 16383}};
            for (int i = 0; i < 3; i++) {
                admin.get(i).sync().clusterAddSlotsRange(Range.create(ranges[i][0], ranges[i][1]));
            }
            for (int i = 1; i < 3; i++) {
                admin.get(0).sync().clusterMeet(RedisServer.HOST, nodes.get(i).port());
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (true) {
                boolean ok = true;
                for (StatefulRedisConnection<String, String> a : admin) {
                    String info = a.sync().clusterInfo();
                    ok &= info.contains("cluster_state:ok") && info.contains("cluster_known_nodes:3");
                }
                if (ok) {
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("cluster did not reach state ok: " + admin.get(0).sync().clusterInfo());
                }
                Thread.sleep(50);
            }
            admin.forEach(StatefulRedisConnection::close);
            return new RedisCluster(nodes);
        } catch (RuntimeException | InterruptedException e) {
            nodes.forEach(RedisServer::close);
            throw e;
        } finally {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    /** @return the three nodes; node {@code i} serves the {@code i}-th third of the slots */
    public List<RedisServer> nodes() {
        return nodes;
    }

    @Override
    public void close() {
        nodes.forEach(RedisServer::close);
    }
}
