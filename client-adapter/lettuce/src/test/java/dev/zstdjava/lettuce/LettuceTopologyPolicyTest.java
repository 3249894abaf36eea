package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.testkit.TestEnv;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionBackend;
import io.lettuce.core.ReadFrom;
import io.lettuce.core.RedisURI;
import io.lettuce.core.SortArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.masterreplica.MasterReplica;
import io.lettuce.core.masterreplica.StatefulRedisMasterReplicaConnection;
import io.lettuce.core.sentinel.api.StatefulRedisSentinelConnection;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static dev.zstdjava.lettuce.LettucePolicyTest.b;
import static dev.zstdjava.lettuce.LettucePolicyTest.codec;
import static dev.zstdjava.lettuce.LettucePolicyTest.compressed;
import static org.junit.jupiter.api.Assertions.*;

/**
 * What master/replica ({@code MasterReplica.connect}) and Sentinel-resolved connections of a
 * {@link CompressingRedisClient} get: the policy, as on a standalone connection, because Lettuce opens their node
 * connections through the client's factory and sends through their {@code dispatch}. Real servers: a master, a
 * replica and a Sentinel that monitors the master.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class LettuceTopologyPolicyTest {
    static RedisServer master;
    static RedisServer replica;
    static Process sentinel;
    static int sentinelPort;
    static Path sentinelDir;
    static CompressingRedisClient client;
    static StatefulRedisConnection<byte[], byte[]> raw;

    @BeforeAll
    static void start() throws Exception {
        master = RedisServer.start();
        replica = RedisServer.start();
        assertTrue(replica.command("REPLICAOF " + RedisServer.HOST + " " + master.port()).startsWith("+OK"));
        sentinelDir = Files.createTempDirectory("zstdjava-sentinel-");
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getByName(RedisServer.HOST))) {
            sentinelPort = s.getLocalPort();
        }
        Path conf = sentinelDir.resolve("sentinel.conf");
        Files.writeString(conf, "port " + sentinelPort + "\nbind " + RedisServer.HOST + "\ndir " + sentinelDir
                + "\nsentinel monitor m " + RedisServer.HOST + " " + master.port() + " 1\n");
        sentinel = new ProcessBuilder(TestEnv.serverBinary().toString(), conf.toString(), "--sentinel")
                .redirectErrorStream(true).redirectOutput(sentinelDir.resolve("sentinel.log").toFile()).start();
        client = CompressingRedisClient.create();
        raw = client.connect(ByteArrayCodec.INSTANCE, RedisURI.create(RedisServer.HOST, master.port()));
        awaitReplica();
    }

    // the replica has finished its first sync and the Sentinel answers
    private static void awaitReplica() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (!replica.command("INFO replication").contains("master_link_status:up")) {
            assertTrue(System.nanoTime() < deadline, "replica did not sync: " + replica.command("INFO replication"));
            Thread.sleep(50);
        }
        RedisURI uri = RedisURI.create(RedisServer.HOST, sentinelPort);
        while (true) {
            try (StatefulRedisSentinelConnection<String, String> s = client.connectSentinel(uri)) {
                if (s.sync().getMasterAddrByName("m") != null) {
                    return;
                }
            } catch (RuntimeException e) {
                assertTrue(System.nanoTime() < deadline, "sentinel did not start: " + e
                        + Files.readString(sentinelDir.resolve("sentinel.log")));
            }
            Thread.sleep(50);
        }
    }

    @AfterAll
    static void stop() throws IOException {
        if (raw != null) {
            raw.close();
        }
        if (client != null) {
            client.shutdown();
        }
        if (sentinel != null) {
            sentinel.destroyForcibly();
        }
        if (replica != null) {
            replica.close();
        }
        if (master != null) {
            master.close();
        }
        if (sentinelDir != null) {
            try (var files = Files.walk(sentinelDir)) {
                files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    /** The policy on one data connection: SET compressed, APPEND and SORT BY refused, MULTI with a refusal discarded. */
    static void policyHolds(RedisCommands<String, String> s, String prefix) throws Exception {
        String v = TestValues.json(500);
        s.set(prefix + "k", v);
        assertTrue(compressed(raw.sync().get(b(prefix + "k")), CompressionBackend.ZSTD), prefix);
        assertEquals(v, s.get(prefix + "k"));
        byte[] stored = raw.sync().get(b(prefix + "k"));
        assertThrows(CommandRefusedException.class, () -> s.append(prefix + "k", "x"), prefix);
        assertThrows(CommandRefusedException.class, () -> s.sort(prefix + "l", SortArgs.Builder.by("w_*")), prefix);
        assertEquals("OK", s.multi());
        s.set(prefix + "tx", v);
        s.incr(prefix + "n"); // queued calls of the sync API return null; EXEC fails with the refusal
        assertEquals("INCR", assertThrows(CommandRefusedException.class, s::exec, prefix).command());
        assertEquals(0, raw.sync().exists(b(prefix + "tx"), b(prefix + "n")), "EXEC ran nothing");
        assertArrayEquals(stored, raw.sync().get(b(prefix + "k")));
        assertEquals("PONG", s.ping());
    }

    @Test
    void masterReplicaConnectionsFollowThePolicy() throws Exception {
        try (StatefulRedisMasterReplicaConnection<String, String> c = MasterReplica.connect(client,
                codec(CompressionBackend.ZSTD), RedisURI.create(RedisServer.HOST, master.port()))) {
            policyHolds(c.sync(), "mr:");
            // reads from the replica decode what the master stored compressed
            String v = TestValues.json(800);
            c.sync().set("mr:replicated", v);
            assertEquals(1, c.sync().waitForReplication(1, 5000));
            c.setReadFrom(ReadFrom.REPLICA);
            assertEquals(v, c.sync().get("mr:replicated"));
        }
    }

    @Test
    void sentinelResolvedConnectionsFollowThePolicy() throws Exception {
        RedisURI viaSentinel = RedisURI.Builder.sentinel(RedisServer.HOST, sentinelPort, "m")
                .withTimeout(Duration.ofSeconds(10)).build();
        try (StatefulRedisConnection<String, String> c = client.connect(codec(CompressionBackend.ZSTD),
                viaSentinel)) {
            policyHolds(c.sync(), "sentinel:");
        }
        try (StatefulRedisMasterReplicaConnection<String, String> c = MasterReplica.connect(client,
                codec(CompressionBackend.ZSTD), viaSentinel)) {
            policyHolds(c.sync(), "sentinel-mr:");
        }
        // the connection to the Sentinel itself carries Sentinel commands only: no values to compress or refuse
        try (StatefulRedisSentinelConnection<String, String> s = client.connectSentinel(
                codec(CompressionBackend.ZSTD), RedisURI.create(RedisServer.HOST, sentinelPort))) {
            java.net.InetSocketAddress addr = (java.net.InetSocketAddress) s.sync().getMasterAddrByName("m");
            assertEquals(List.of(RedisServer.HOST, master.port()), List.of(addr.getHostString(), addr.getPort()));
        }
    }
}
