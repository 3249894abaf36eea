package dev.zstdjava.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zstdjava.lettuce.LettuceDictionaryStore;
import dev.zstdjava.testkit.RedisCluster;
import dev.zstdjava.testkit.RedisServer;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.sync.RedisAdvancedClusterCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.zstdjava.cli.Writers.utf8;
import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/** The tool on a 3-primary cluster: every primary scanned, counts exact, migrate and its cursor per node. */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class ClusterTest {
    static RedisCluster cluster;
    static RedisClusterClient client;
    static StatefulRedisClusterConnection<byte[], byte[]> raw;
    static String uri;

    @BeforeAll
    static void start() throws Exception {
        cluster = RedisCluster.start();
        int port = cluster.nodes().get(1).port(); // any node will do: the tool finds every primary
        uri = "redis://" + RedisServer.HOST + ":" + port;
        client = RedisClusterClient.create(RedisURI.create(RedisServer.HOST, port));
        raw = client.connect(ByteArrayCodec.INSTANCE);
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    /** @return the index of the node serving {@code key}, as the tool orders them (by address; all on one host) */
    static int node(String key) {
        int slot = SlotHash.getSlot(key);
        int owner = slot <= 5460 ? 0 : slot <= 10922 ? 1 : 2;
        int port = cluster.nodes().get(owner).port();
        int rank = 0;
        for (RedisServer n : cluster.nodes()) {
            rank += n.port() < port ? 1 : 0;
        }
        return rank;
    }

    @Test
    void inspectCountsEveryPrimaryAndMigrateRewritesAcrossThem() {
        RedisAdvancedClusterCommands<byte[], byte[]> c = raw.sync();
        String v = json(2000);
        int onNode0 = 0;
        for (int i = 0; i < 30; i++) {
            c.set(utf8("rz:" + i), Writers.redissonZstd(v + i));
            c.set(utf8("plain:" + i), utf8(v + i));
            c.set(utf8("lz:" + i), Writers.LZ4.compress(utf8(v + i)));
            onNode0 += node("rz:" + i) == 0 ? 1 : 0;
        }
        assertTrue(onNode0 > 0 && onNode0 < 30, "keys on every node: " + onNode0);
        Tool t = Tool.run("inspect", uri, "--json");
        assertEquals(0, t.code(), t.toString());
        JsonNode root = t.json();
        assertTrue(root.get("cluster").asBoolean());
        assertEquals(3, root.get("primaries").asInt());
        assertEquals(90, root.get("keysScanned").asLong());
        assertEquals(Map.of("rz:* | string value | redisson-zstd", 30L, "plain:* | string value | plain", 30L,
                "lz:* | string value | glide-lz4", 30L), InspectTest.classes(root));

        // resume from a cursor that starts at the second node: the keys of the first are not seen
        Tool resumed = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "rz:*",
                "--cursor", "1:0", "--json");
        assertEquals(0, resumed.code(), resumed.toString());
        assertEquals(30 - onNode0, MigrateTest.count(resumed.json(), "rewritten"), resumed.out());

        Tool apply = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "rz:*",
                "--apply", "--json");
        assertEquals(0, apply.code(), apply.toString());
        assertEquals(30, MigrateTest.count(apply.json(), "rewritten"), apply.out());
        for (int i = 0; i < 30; i++) {
            byte[] s = c.get(utf8("rz:" + i));
            assertEquals(v + i, new String(Writers.ZSTD.decompress(s), StandardCharsets.UTF_8));
            assertEquals(1, s[4]);
        }
        Tool again = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "rz:*",
                "--apply", "--json");
        assertEquals(0, MigrateTest.count(again.json(), "rewritten"), again.out());
        assertEquals(30, MigrateTest.count(again.json(), "skipped: not that format"), again.out());

        Tool get = Tool.run("inspect", "get", uri, "rz:7");
        assertEquals(0, get.code(), get.toString());
        assertEquals(v + 7, get.out().strip());
    }

    /**
     * The cluster dictionary store's client finds the topology through its seed (the keyspace's URI): a seed whose
     * TCP connection is never made fails within {@code --timeout}, and the error line names the store and Netty's
     * connect timeout (the tool's {@code --timeout}). Without that connect timeout Lettuce's own connection
     * initialization timer (the URI's timeout, also {@code --timeout}, started before the TCP connection) closes
     * the channel as well, but the line then says only {@code ClosedChannelException}.
     */
    @Test
    void theClusterDictionaryStoreConnectsWithinTheTimeout() throws Exception {
        try (Keyspace ks = Keyspace.connect(uri, Duration.ofSeconds(1), new RateLimiter(1000));
             UnreachablePort port = new UnreachablePort()) {
            assertTrue(ks.cluster());
            ks.uri().setPort(port.port()); // the seed the store's cluster client connects to
            TimeoutTest.assertStoreGivesUpAfterOneSecond(ks, "cannot connect to the dictionary store of "
                    + LettuceDictionaryStore.DEFAULT_PREFIX + " on 127.0.0.1:" + port.port() + " (a cluster): ");
        }
    }

    /**
     * A primary the store's client cannot reach, where the keyspace's connections were made: the primary serving the
     * store's slot announces (cluster-announce-port) a loopback port whose TCP connection is never made. The store's
     * cluster client meets it up to three times, each ended after {@code --timeout}: when it discovers the topology
     * (every node at once), possibly when it picks the node of its default connection (one attempt per known node,
     * in turn), and when the store's first command goes to that primary (a command waits {@code --timeout} at most).
     * So the run ends after a few timeouts (about two here) with a line naming the store and the timeout.
     */
    @Test
    void aPrimaryTheClusterStoreCannotReachFailsItWithinAFewTimeouts() throws Exception {
        RedisServer owner = cluster.nodes().get(2); // serves slot 14569, the store's hash tag's
        assertEquals(14569, SlotHash.getSlot(LettuceDictionaryStore.DEFAULT_PREFIX));
        RedisServer seed = cluster.nodes().get(1); // the URI's node
        try (Keyspace ks = Keyspace.connect(uri, Duration.ofSeconds(1), new RateLimiter(1000));
             UnreachablePort port = new UnreachablePort()) {
            assertEquals(3, ks.nodes().size());
            try {
                assertTrue(owner.command("CONFIG SET cluster-announce-port " + port.port()).startsWith("+OK"));
                awaitEveryNodeSees(RedisServer.HOST + ":" + port.port());
                Common common = new Common();
                common.dictionaryPrefix = LettuceDictionaryStore.DEFAULT_PREFIX;
                long start = System.nanoTime();
                ToolException e = assertThrows(ToolException.class,
                        () -> common.dictionaries(ks, new java.io.PrintWriter(new java.io.StringWriter())));
                long ms = (System.nanoTime() - start) / 1_000_000;
                String line = Main.describe(e);
                assertTrue(ms >= 900 && ms < 8_000, ms + " ms: " + line);
                assertTrue(line.matches("cannot (connect to|read) the dictionary store of \\Q"
                        + LettuceDictionaryStore.DEFAULT_PREFIX + "\\E on 127\\.0\\.0\\.1:" + seed.port()
                        + " \\(a cluster\\): .*"), line);
                assertTrue(line.contains("1 second(s)") || line.contains("after 1000 ms"), ms + " ms: " + line);
            } finally {
                assertTrue(owner.command("CONFIG SET cluster-announce-port 0").startsWith("+OK"));
                awaitEveryNodeSees(RedisServer.HOST + ":" + owner.port());
            }
        }
    }

    /**
     * Waits (up to 30 s) until every node's {@code CLUSTER NODES} lists a node at {@code address} (by gossip): the
     * store's client asks every node it finds for the topology and may take any node's view, so a node that has not
     * heard yet would hand it the reachable port.
     */
    private static void awaitEveryNodeSees(String address) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (RedisServer n : cluster.nodes()) {
            String nodes;
            while (!(nodes = n.command("CLUSTER NODES")).contains(" " + address + "@")) {
                assertTrue(System.nanoTime() < deadline, "node " + n.port() + " lists no node at " + address
                        + " after 30 s: " + nodes);
                Thread.sleep(50);
            }
        }
    }
}
