package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.RedisCluster;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.event.connection.DisconnectedEvent;
import io.lettuce.core.resource.ClientResources;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import reactor.core.Disposable;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Commands Lettuce sends again on a cluster, side by side on a compressing and a plain Lettuce cluster client (a
 * 3-master cluster of the test kit's own): after an {@code ASK} redirect (a slot in migration), after a reconnect
 * (commands buffered while disconnected: {@code disconnectedBehavior} ACCEPT_COMMANDS, Lettuce's default), and after
 * their node left the topology (Lettuce's {@code ClusterNodeEndpoint} writes the commands it still holds back through
 * the cluster, to the slot's new owner). Each time the compressing connection gives what the plain one gives: the
 * same callback order, every future completed, the same errors; values read back whoever wrote them, and compressed
 * once however often they are sent. The node-removal test kills a node and runs last.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class LettuceClusterRedispatchTest {
    static RedisCluster servers;
    static CompressingRedisClusterClient cluster;
    static RedisClusterClient plain;
    static final ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults());
    /** compressing */
    static StatefulRedisClusterConnection<String, String> z;
    /** plain Lettuce, reading and writing the stored bytes */
    static StatefulRedisClusterConnection<byte[], byte[]> p;

    @BeforeAll
    static void start() throws Exception {
        servers = RedisCluster.start();
        RedisURI seed = RedisURI.create(RedisServer.HOST, servers.seedPort());
        cluster = CompressingRedisClusterClient.create(seed);
        plain = RedisClusterClient.create(seed);
        z = cluster.connect(StringCodec.UTF8, values);
        p = plain.connect(ByteArrayCodec.INSTANCE);
    }

    @AfterAll
    static void stop() {
        if (z != null) {
            z.close();
            p.close();
        }
        if (cluster != null) {
            cluster.shutdown(0, 2, TimeUnit.SECONDS);
            plain.shutdown(0, 2, TimeUnit.SECONDS);
        }
        if (servers != null) {
            servers.close();
        }
    }

    /**
     * ASK: a slot of node 0 migrating to node 2; keys written during the migration live on node 2 only, so node 0
     * answers {@code ASK} to every command on them and Lettuce sends each again, after {@code ASKING}, to node 2.
     */
    @Test
    @Order(1)
    void askRedirectsKeepValuesErrorsAndOrder() throws Exception {
        List<RedisServer> nodes = servers.nodes();
        RedisServer from = nodes.get(0);
        RedisServer to = nodes.get(2);
        String tag = tagOf(from, "ask");
        int slot = SlotHash.getSlot(tag);
        ok(to.command("CLUSTER SETSLOT " + slot + " IMPORTING " + id(from)));
        ok(from.command("CLUSTER SETSLOT " + slot + " MIGRATING " + id(to)));
        try {
            String zKey = tag + "z";
            String pKey = tag + "p";
            String zValue = value("ask-z");
            String pValue = value("ask-p");
            long compressedBefore = values.stats().valuesCompressed();
            assertEquals("OK", z.sync().set(zKey, zValue));
            assertEquals(compressedBefore + 1, values.stats().valuesCompressed(), "sent twice (ASK), compressed once");
            assertEquals("OK", p.sync().set(bytes(pKey), bytes(pValue)));
            assertTrue(to.command("CLUSTER COUNTKEYSINSLOT " + slot).startsWith(":2"), "both on the importing node");
            assertTrue(from.command("CLUSTER COUNTKEYSINSLOT " + slot).startsWith(":0"));

            long decompressedBefore = values.stats().valuesDecompressed();
            Map<String, Object> zGot = new LinkedHashMap<>();
            Map<String, Object> pGot = new LinkedHashMap<>();
            List<String> zOrder = run(z.async(), a -> List.of(
                    named("GET z", a.get(zKey)), named("GET p", a.get(pKey)), named("HGET z", a.hget(zKey, "f")),
                    named("DEL none", a.del(tag + "none")), named("GET z again", a.get(zKey))), zGot);
            List<String> pOrder = run(p.async(), a -> List.of(
                    named("GET z", a.get(bytes(zKey))), named("GET p", a.get(bytes(pKey))),
                    named("HGET z", a.hget(bytes(zKey), bytes("f"))), named("DEL none", a.del(bytes(tag + "none"))),
                    named("GET z again", a.get(bytes(zKey)))), pGot);
            assertEquals(pOrder, zOrder, "callback order");
            assertEquals(zValue, zGot.get("GET z"));
            assertEquals(zValue, zGot.get("GET z again"));
            assertEquals(pValue, zGot.get("GET p"), "a value the plain client wrote");
            assertEquals(2, values.stats().valuesDecompressed() - decompressedBefore, "each read decoded once");
            assertStoredOnce(zValue, (byte[]) pGot.get("GET z"));
            assertEquals(pValue, string((byte[]) pGot.get("GET p")));
            assertEquals(pGot.get("HGET z"), zGot.get("HGET z"), "the error");
            assertTrue(String.valueOf(zGot.get("HGET z")).contains("WRONGTYPE"), String.valueOf(zGot.get("HGET z")));
            assertEquals(0L, zGot.get("DEL none"));
            assertEquals(0L, pGot.get("DEL none"));
            assertEquals(List.of(zValue, pValue), z.sync().mget(zKey, pKey).stream().map(kv -> kv.getValue()).toList());
        } finally {
            for (RedisServer n : nodes) {
                ok(n.command("CLUSTER SETSLOT " + slot + " NODE " + id(to)));
            }
        }
    }

    /**
     * A reconnect: node 1 drops every client connection and holds the handshake of the new ones ({@code CLIENT PAUSE}),
     * so that what both clients send meanwhile waits in Lettuce's buffer and goes out once the connection is back. The
     * pause (3 s) is long enough that a loaded machine still sends the commands before the connection is back; should
     * it not, the test is reported skipped, not passed.
     */
    @Test
    @Order(2)
    void commandsBufferedWhileDisconnectedAreReplayedAfterTheReconnect() throws Exception {
        RedisServer node = servers.nodes().get(1);
        String tag = tagOf(node, "reconnect");
        String zOld = value("old-z");
        String pOld = value("old-p");
        assertEquals("OK", z.sync().set(tag + "z0", zOld));
        assertEquals("OK", p.sync().set(bytes(tag + "p0"), bytes(pOld)));
        String zValue = value("new-z");
        String pValue = value("new-p");
        List<CountDownLatch> down = List.of(new CountDownLatch(1), new CountDownLatch(1));
        AtomicBoolean back = new AtomicBoolean();
        List<Disposable> listening = new ArrayList<>();
        for (int i = 0; i < 2; i++) {
            ClientResources r = (i == 0 ? cluster : plain).getResources();
            CountDownLatch dropped = down.get(i);
            listening.add(r.eventBus().get().subscribe(e -> {
                if (e instanceof DisconnectedEvent d && port(d.remoteAddress()) == node.port()) {
                    dropped.countDown();
                } else if (e instanceof ConnectionActivatedEvent a && port(a.remoteAddress()) == node.port()) {
                    back.set(true);
                }
            }));
        }
        try {
            node.command("MULTI\r\nCLIENT KILL TYPE normal SKIPME yes\r\nCLIENT PAUSE 3000 ALL\r\nEXEC");
            for (CountDownLatch d : down) {
                assertTrue(d.await(10, TimeUnit.SECONDS), "each client saw its connection to the node drop");
            }
            long compressedBefore = values.stats().valuesCompressed();
            Map<String, Object> zGot = new LinkedHashMap<>();
            Map<String, Object> pGot = new LinkedHashMap<>();
            List<CompletableFuture<Object>> zCalls = calls(z.async(), a -> List.of(
                    named("SET", a.set(tag + "z1", zValue)), named("GET new", a.get(tag + "z1")),
                    named("GET old", a.get(tag + "z0")), named("GET plain's", a.get(tag + "p0")),
                    named("HGET", a.hget(tag + "z0", "f"))), zGot);
            List<CompletableFuture<Object>> pCalls = calls(p.async(), a -> List.of(
                    named("SET", a.set(bytes(tag + "p1"), bytes(pValue))), named("GET new", a.get(bytes(tag + "p1"))),
                    named("GET old", a.get(bytes(tag + "p0"))), named("GET plain's", a.get(bytes(tag + "z0"))),
                    named("HGET", a.hget(bytes(tag + "p0"), bytes("f")))), pGot);
            assumeFalse(back.get(), "the connection came back before the commands were sent: nothing was buffered");
            List<String> zOrder = await(zCalls, zGot);
            List<String> pOrder = await(pCalls, pGot);
            assertEquals(pOrder, zOrder, "callback order");
            assertEquals(List.of("SET", "GET new", "GET old", "GET plain's", "HGET"), zOrder);
            assertTrue(back.get());
            assertEquals(compressedBefore + 1, values.stats().valuesCompressed(), "the buffered SET compressed once");
            assertEquals(zValue, zGot.get("GET new"));
            assertEquals(zOld, zGot.get("GET old"));
            assertEquals(pOld, zGot.get("GET plain's"), "a value the plain client wrote");
            assertEquals(pValue, string((byte[]) pGot.get("GET new")));
            assertEquals(pOld, string((byte[]) pGot.get("GET old")));
            assertStoredOnce(zOld, (byte[]) pGot.get("GET plain's"));
            assertStoredOnce(zValue, p.sync().get(bytes(tag + "z1")));
            assertEquals(pGot.get("HGET"), zGot.get("HGET"), "the error");
        } finally {
            listening.forEach(Disposable::dispose);
        }
    }

    /**
     * A node leaves the topology while commands wait for it: node 1 is killed, the commands both clients send to its
     * slots wait in Lettuce's buffer, the slots go to node 0 and node 1 is forgotten; the topology refresh closes the
     * node's connection, whose endpoint writes the commands it holds back through the cluster, to node 0. Auto-flush
     * is off, so they and a command sent after the refresh go out together and are answered together.
     */
    @Test
    @Order(3)
    void commandsHeldForARemovedNodeGoToTheSlotsNewOwner() throws Exception {
        List<RedisServer> nodes = servers.nodes();
        RedisServer removed = nodes.get(1);
        String removedId = id(removed);
        String tag = tagOf(removed, "removed");
        String other = tagOf(nodes.get(0), "removed");
        List<Integer> slots = z.getPartitions().getPartitionByNodeId(removedId).getSlots();
        assertNull(z.sync().get(tag + "warm")); // node connections to nodes 0 and 1 are open
        assertNull(z.sync().get(other + "warm"));
        assertNull(p.sync().get(bytes(tag + "warm")));
        assertNull(p.sync().get(bytes(other + "warm")));
        removed.kill();
        String[] zValues = {value("removed-z1"), value("removed-z2")};
        String pValue = value("removed-p");
        long compressedBefore = values.stats().valuesCompressed();
        long decompressedBefore = values.stats().valuesDecompressed();
        z.setAutoFlushCommands(false);
        p.setAutoFlushCommands(false);
        try {
            Map<String, Object> zGot = new LinkedHashMap<>();
            Map<String, Object> pGot = new LinkedHashMap<>();
            List<CompletableFuture<Object>> zCalls = new ArrayList<>(calls(z.async(), a -> List.of(
                    named("SET 1", a.set(tag + "z1", zValues[0])), named("SET 2", a.set(tag + "z2", zValues[1])),
                    named("GET 1", a.get(tag + "z1")), named("GET 2", a.get(tag + "z2")),
                    named("HGET", a.hget(tag + "z1", "f"))), zGot));
            List<CompletableFuture<Object>> pCalls = new ArrayList<>(calls(p.async(), a -> List.of(
                    named("SET 1", a.set(bytes(tag + "p1"), bytes(pValue))),
                    named("SET 2", a.set(bytes(tag + "p2"), bytes(pValue))),
                    named("GET 1", a.get(bytes(tag + "p1"))), named("GET 2", a.get(bytes(tag + "p2"))),
                    named("HGET", a.hget(bytes(tag + "p1"), bytes("f")))), pGot));

            RedisServer owner = nodes.get(0);
            RedisServer third = nodes.get(2);
            ok(owner.command("CLUSTER FORGET " + removedId));
            ok(third.command("CLUSTER FORGET " + removedId));
            ok(owner.command("CLUSTER ADDSLOTSRANGE " + ranges(slots)));
            awaitSettled(2, owner, third);
            cluster.refreshPartitions();
            plain.refreshPartitions();
            assertNull(z.getPartitions().getPartitionByNodeId(removedId), "the node left the topology");
            assertNull(p.getPartitions().getPartitionByNodeId(removedId));
            zCalls.addAll(calls(z.async(), a -> List.of(named("DEL", a.del(tag + "none"))), zGot));
            pCalls.addAll(calls(p.async(), a -> List.of(named("DEL", a.del(bytes(tag + "none")))), pGot));
            z.flushCommands();
            p.flushCommands();
            List<String> zOrder = await(zCalls, zGot);
            List<String> pOrder = await(pCalls, pGot);
            assertEquals(List.of("SET 1", "SET 2", "GET 1", "GET 2", "HGET", "DEL"), pOrder);
            assertEquals(pOrder, zOrder, "callback order");
            assertEquals("OK", zGot.get("SET 1"));
            assertEquals(zValues[0], zGot.get("GET 1"));
            assertEquals(zValues[1], zGot.get("GET 2"));
            assertEquals(pValue, string((byte[]) pGot.get("GET 2")));
            assertEquals(pGot.get("HGET"), zGot.get("HGET"), "the error");
            assertEquals(0L, zGot.get("DEL"));
            assertEquals(compressedBefore + 2, values.stats().valuesCompressed(), "sent twice, compressed once");
            assertEquals(decompressedBefore + 2, values.stats().valuesDecompressed(), "decoded once");
        } finally {
            z.setAutoFlushCommands(true);
            p.setAutoFlushCommands(true);
        }
        // on node 0 now, as written: compressed once; the plain client's value read by the compressing one
        assertStoredOnce(zValues[0], p.sync().get(bytes(tag + "z1")));
        assertEquals(pValue, z.sync().get(tag + "p1"));
    }

    // ------------------------------------------------------------------------------------------------- helpers

    record Named<T>(String name, RedisFuture<T> future) {}

    static <T> Named<T> named(String name, RedisFuture<T> future) {
        return new Named<>(name, future);
    }

    // Sends the calls; each records, in completion order, its name and what it gave (its value, or its error's
    // message) in got; a call completed twice fails.
    static <A> List<CompletableFuture<Object>> calls(A api, Function<A, List<Named<?>>> send,
                                                     Map<String, Object> got) {
        List<CompletableFuture<Object>> out = new ArrayList<>();
        for (Named<?> n : send.apply(api)) {
            out.add(n.future().toCompletableFuture().handle((v, e) -> {
                Object outcome = e != null ? message(e) : v;
                synchronized (got) {
                    assertNull(got.put(n.name(), outcome == null ? "(nil)" : outcome), "completed twice: " + n.name());
                }
                return outcome;
            }));
        }
        return out;
    }

    // Waits (up to 10 s) for the calls: nothing may hang. @return their names in completion order
    static List<String> await(List<CompletableFuture<Object>> calls, Map<String, Object> got)
            throws InterruptedException, ExecutionException {
        try {
            CompletableFuture.allOf(calls.toArray(new CompletableFuture<?>[0])).get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            synchronized (got) {
                fail("pending after 10 s; completed: " + got.keySet());
            }
        }
        synchronized (got) {
            return List.copyOf(got.keySet());
        }
    }

    private static <A> List<String> run(A api, Function<A, List<Named<?>>> send, Map<String, Object> got)
            throws InterruptedException, ExecutionException {
        return await(calls(api, send, got), got);
    }

    private static String message(Throwable e) {
        Throwable t = e instanceof java.util.concurrent.CompletionException && e.getCause() != null ? e.getCause() : e;
        return t.getClass().getSimpleName() + ": " + t.getMessage();
    }

    // The stored form of a value the compressing client wrote: compressed, and decompressed once it is the value.
    private static void assertStoredOnce(String value, byte[] stored) {
        assertTrue(LettuceClusterTest.compressed(stored, CompressionBackend.ZSTD), "stored compressed");
        assertEquals(value, string(values.decompress(stored)), "compressed once");
    }

    private static String value(String name) {
        return name + ":" + TestValues.json(64 << 10);
    }

    // A hash tag whose slot `node` owns, as the compressing client sees the topology.
    private static String tagOf(RedisServer node, String name) throws IOException {
        String id = id(node);
        for (int i = 0; ; i++) {
            String tag = "{" + name + i + "}";
            if (id.equals(z.getPartitions().getPartitionBySlot(SlotHash.getSlot(tag)).getNodeId())) {
                return tag;
            }
        }
    }

    // Until each of the nodes left sees every slot assigned and knows only the nodes left (up to 20 s).
    static void awaitSettled(int knownNodes, RedisServer... nodes) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        for (RedisServer n : nodes) {
            String info;
            while (!(info = n.command("CLUSTER INFO")).contains("cluster_state:ok")
                    || !info.contains("cluster_known_nodes:" + knownNodes)) {
                assertTrue(System.nanoTime() < deadline, "the cluster did not settle without the removed node: " + info);
                Thread.sleep(20);
            }
        }
    }

    // The arguments of CLUSTER ADDSLOTSRANGE for these slots: "from to" for each run of consecutive ones.
    static String ranges(List<Integer> slots) {
        List<Integer> sorted = slots.stream().sorted().toList();
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < sorted.size(); i++) {
            int from = sorted.get(i);
            while (i + 1 < sorted.size() && sorted.get(i + 1) == sorted.get(i) + 1) {
                i++;
            }
            out.append(out.isEmpty() ? "" : " ").append(from).append(' ').append(sorted.get(i));
        }
        return out.toString();
    }

    static String id(RedisServer node) throws IOException {
        String reply = node.command("CLUSTER MYID");
        return reply.split("\r\n")[1];
    }

    static void ok(String reply) {
        assertTrue(reply.startsWith("+OK"), reply.trim());
    }

    private static int port(SocketAddress address) {
        return address instanceof InetSocketAddress a ? a.getPort() : -1;
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String string(byte[] b) {
        return b == null ? null : new String(b, StandardCharsets.UTF_8);
    }
}
