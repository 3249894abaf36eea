package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.MissingDictionaryException;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdFrame;
import io.lettuce.core.KeyValue;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.api.StatefulRedisClusterConnection;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** A 3-master cluster on loopback, the codec on {@link RedisClusterClient}, one key in every slot. */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class LettuceClusterTest {
    static final List<RedisServer> nodes = new ArrayList<>();
    static RedisClient setupClient;
    static CompressingRedisClusterClient cluster;

    @BeforeAll
    static void startCluster() throws Exception {
        for (int i = 0; i < 3; i++) {
            nodes.add(RedisServer.start(true));
        }
        setupClient = RedisClient.create();
        List<StatefulRedisConnection<String, String>> admin = new ArrayList<>();
        for (RedisServer n : nodes) {
            admin.add(setupClient.connect(StringCodec.UTF8, RedisURI.create(RedisServer.HOST, n.port())));
        }
        int[][] ranges = {{0, 5460}, {5461, 10922}, {10923, 16383}};
        for (int i = 0; i < 3; i++) {
            assertEquals("OK", admin.get(i).sync().clusterAddSlotsRange(Range.create(ranges[i][0], ranges[i][1])));
        }
        for (int i = 1; i < 3; i++) {
            assertEquals("OK", admin.get(0).sync().clusterMeet(RedisServer.HOST, nodes.get(i).port()));
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
                fail("cluster did not reach state ok: " + admin.get(0).sync().clusterInfo());
            }
            Thread.sleep(50);
        }
        admin.forEach(StatefulRedisConnection::close);
        cluster = CompressingRedisClusterClient.create(RedisURI.create(RedisServer.HOST, nodes.get(0).port()));
    }

    @AfterAll
    static void stopCluster() {
        if (cluster != null) {
            cluster.shutdown(0, 2, TimeUnit.SECONDS);
        }
        if (setupClient != null) {
            setupClient.shutdown(0, 2, TimeUnit.SECONDS);
        }
        nodes.forEach(RedisServer::close);
    }

    static String value(int slot) {
        return slot % 8 == 0 ? "short-" + slot
                : ("{\"slot\":" + slot + ",\"payload\":\"" + "abcdefgh".repeat(8 + slot % 100) + "\"}");
    }

    @Test
    void everySlotRoundTripsThroughTheCodec() throws Exception {
        String[] keyOfSlot = new String[SlotHash.SLOT_COUNT];
        int found = 0;
        for (int i = 0; found < SlotHash.SLOT_COUNT; i++) {
            String key = "key:" + i;
            int slot = SlotHash.getSlot(key);
            if (keyOfSlot[slot] == null) {
                keyOfSlot[slot] = key;
                found++;
            }
        }
        ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults());
        try (StatefulRedisClusterConnection<String, String> conn = cluster.connect(StringCodec.UTF8, values);
             StatefulRedisClusterConnection<byte[], byte[]> raw = cluster.connect(ByteArrayCodec.INSTANCE)) {
            RedisAdvancedClusterAsyncCommands<String, String> a = conn.async();
            List<RedisFuture<String>> sets = new ArrayList<>();
            for (int slot = 0; slot < SlotHash.SLOT_COUNT; slot++) {
                sets.add(a.set(keyOfSlot[slot], value(slot)));
            }
            for (RedisFuture<String> f : sets) {
                assertEquals("OK", f.get(30, TimeUnit.SECONDS));
            }
            // MGET over keys of many slots: Lettuce splits it per node and reassembles
            for (int from = 0; from < SlotHash.SLOT_COUNT; from += 1024) {
                String[] keys = Arrays.copyOfRange(keyOfSlot, from, from + 1024);
                List<KeyValue<String, String>> got = a.mget(keys).get(30, TimeUnit.SECONDS);
                for (int i = 0; i < keys.length; i++) {
                    assertEquals(value(from + i), got.get(i).getValue(), keys[i]);
                }
            }
            // MSET across slots, then read back one by one on the sync API
            Map<String, String> batch = new LinkedHashMap<>();
            for (int slot = 0; slot < SlotHash.SLOT_COUNT; slot += 97) {
                batch.put(keyOfSlot[slot], value(slot).toUpperCase());
            }
            assertEquals("OK", conn.sync().mset(batch));
            batch.forEach((k, v) -> assertEquals(v, conn.sync().get(k)));
            // stored compressed where it helps; keys hash to the same slots as plain keys
            byte[] stored = raw.sync().get(keyOfSlot[1].getBytes(StandardCharsets.UTF_8));
            assertArrayEquals(new byte[] {0, 1, 2, 0, 1}, Arrays.copyOf(stored, 5));
            assertTrue(stored.length < value(1).length());
            byte[] small = raw.sync().get(keyOfSlot[8].getBytes(StandardCharsets.UTF_8));
            assertArrayEquals(value(8).getBytes(StandardCharsets.UTF_8), small);
            // every master holds its share
            long total = 0;
            for (RedisServer n : nodes) {
                try (StatefulRedisConnection<String, String> c =
                             setupClient.connect(StringCodec.UTF8, RedisURI.create(RedisServer.HOST, n.port()))) {
                    long size = c.sync().dbsize();
                    assertTrue(size > 5000, "node " + n.port() + " holds " + size + " keys");
                    total += size;
                }
            }
            assertEquals(SlotHash.SLOT_COUNT, total);
        }
    }

    /**
     * Futures of one node connection complete in the order of their replies, as Lettuce's: a GET of a compressed
     * value, then a DEL in the same slot, sent together; the GET's callback runs first, every time.
     */
    @Test
    void futuresOfOneNodeCompleteInReplyOrder() throws Exception {
        try (StatefulRedisClusterConnection<String, String> z = cluster.connect(StringCodec.UTF8,
                ValueCompressor.create(CompressionConfig.defaults()))) {
            String big = WorkThreadsTest.big(1);
            assertEquals("OK", z.sync().set("{order}k", big));
            for (int t = 0; t < 20; t++) {
                java.util.Queue<String> order = new java.util.concurrent.ConcurrentLinkedQueue<>();
                z.setAutoFlushCommands(false);
                java.util.concurrent.CompletableFuture<Void> get = z.async().get("{order}k")
                        .thenAccept(v -> order.add(big.equals(v) ? "GET" : "GET " + v)).toCompletableFuture();
                java.util.concurrent.CompletableFuture<Void> del = z.async().del("{order}x")
                        .thenAccept(v -> order.add("DEL")).toCompletableFuture();
                z.flushCommands();
                z.setAutoFlushCommands(true);
                java.util.concurrent.CompletableFuture.allOf(get, del).get(5, TimeUnit.SECONDS);
                assertEquals(List.of("GET", "DEL"), List.copyOf(order), "trial " + t);
            }
        }
    }

    /** A CompressingCodec on a plain RedisClusterClient fails its first command, saying how to connect. */
    @Test
    void aCompressingCodecOnAPlainClusterClientFailsTheFirstCommand() {
        RedisClusterClient plain = RedisClusterClient.create(RedisURI.create(RedisServer.HOST, nodes.get(0).port()));
        try (StatefulRedisClusterConnection<String, String> c = plain.connect(CompressingCodec.wrap(StringCodec.UTF8,
                CompressionConfig.defaults()));
             StatefulRedisClusterConnection<byte[], byte[]> raw = cluster.connect(ByteArrayCodec.INSTANCE)) {
            LettucePolicyTest.assertMisuse(assertThrows(Exception.class,
                    () -> c.sync().set("misused", value(1))));
            assertNull(raw.sync().get("misused".getBytes(StandardCharsets.UTF_8)), "nothing stored");
        } finally {
            plain.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    static void flushAll() {
        for (RedisServer n : nodes) {
            try (StatefulRedisConnection<String, String> c =
                         setupClient.connect(StringCodec.UTF8, RedisURI.create(RedisServer.HOST, n.port()))) {
                c.sync().flushall();
            }
        }
    }

    static boolean compressed(byte[] stored, CompressionBackend backend) {
        return stored != null && stored.length > 5 && stored[0] == 0 && stored[1] == 1 && stored[2] == 2
                && stored[4] == backend.id();
    }

    /**
     * The command policy on the cluster: one member from a zstd, an lz4 and a plain connection; sorted-set ranges,
     * scripts and refusals; MSET split by slot compresses every part; a retry after MOVED sends the same, once
     * compressed value to the slot's new owner.
     */
    @Test
    void commandPolicyOnTheCluster() throws Exception {
        flushAll();
        String member = dev.zstdjava.testkit.TestValues.json(233);
        CompressingCodec<String, String> zstd = CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.defaults());
        try (StatefulRedisClusterConnection<String, String> z = cluster.connect(zstd);
             StatefulRedisClusterConnection<String, String> l = cluster.connect(CompressingCodec.wrap(StringCodec.UTF8,
                     CompressionConfig.builder().backend(CompressionBackend.LZ4).build()));
             StatefulRedisClusterConnection<String, String> p = cluster.connect(StringCodec.UTF8);
             StatefulRedisClusterConnection<byte[], byte[]> raw = cluster.connect(ByteArrayCodec.INSTANCE)) {
            for (String k : List.of("s", "{s}2", "other")) {
                assertEquals(1, z.sync().sadd(k, member));
                assertEquals(0, l.sync().sadd(k, member));
                assertEquals(0, p.sync().sadd(k, member));
                assertEquals(1, p.sync().scard(k));
                assertEquals(List.of(true, false), l.sync().smismember(k, member, "x"));
                assertArrayEquals(member.getBytes(StandardCharsets.UTF_8),
                        raw.sync().smembers(k.getBytes(StandardCharsets.UTF_8)).iterator().next());
            }
            String pad = "y".repeat(200);
            z.sync().zadd("z", 0.0, "alpha" + pad, 0.0, "bravo" + pad, 0.0, "charlie" + pad);
            assertEquals(List.of("bravo" + pad), z.sync().zrangebylex("z", Range.create("bravo", "c")));
            assertEquals((long) member.length(), (Long) z.sync().eval("return string.len(ARGV[1])",
                    io.lettuce.core.ScriptOutputType.INTEGER, new String[] {"z"}, member));
            // refusals, with the connection usable after them
            z.sync().set("v", member);
            for (Runnable call : List.<Runnable>of(() -> z.sync().append("v", "x"), () -> z.sync().incr("n"),
                    () -> z.sync().getrange("v", 0, 3), () -> z.sync().strlen("v"))) {
                assertThrows(dev.zstdjava.values.CommandRefusedException.class, call::run);
            }
            assertEquals(member, z.sync().get("v"));
            assertTrue(compressed(raw.sync().get("v".getBytes(StandardCharsets.UTF_8)), CompressionBackend.ZSTD));
            // a node connection used directly follows the policy too
            String nodeId = z.getPartitions().getPartitionBySlot(SlotHash.getSlot("v")).getNodeId();
            assertThrows(dev.zstdjava.values.CommandRefusedException.class,
                    () -> z.getConnection(nodeId).sync().append("v", "x"));
            // MSET over many slots: Lettuce splits it per slot, every part is compressed
            Map<String, String> batch = new LinkedHashMap<>();
            for (int i = 0; i < 200; i++) {
                batch.put("m:" + i, member + i);
            }
            assertEquals("OK", z.sync().mset(batch));
            java.util.Set<Integer> slots = new java.util.HashSet<>();
            for (Map.Entry<String, String> e : batch.entrySet()) {
                slots.add(SlotHash.getSlot(e.getKey()));
                assertTrue(compressed(raw.sync().get(e.getKey().getBytes(StandardCharsets.UTF_8)),
                        CompressionBackend.ZSTD), e.getKey());
                assertEquals(e.getValue(), l.sync().get(e.getKey()));
            }
            assertTrue(slots.size() > 100);
            // MGET over those slots: Lettuce splits it and combines the parts' futures; the parts' replies are decoded
            // off the event loop (the sync caller waits on the combination, not on a part) and come back in order
            String[] keys = batch.keySet().toArray(new String[0]);
            List<String> expected = new ArrayList<>(batch.values());
            assertEquals(expected, z.sync().mget(keys).stream().map(kv -> kv.getValue()).toList());
            assertEquals(expected, z.async().mget(keys).get(10, TimeUnit.SECONDS).stream()
                    .map(kv -> kv.getValue()).toList());
            assertEquals(expected, z.reactive().mget(keys).map(kv -> kv.getValue()).collectList().block());
            // on the cluster too, the dispatching thread compresses and the node connection's event loop decodes
            WorkThreadsTest.ThreadRecordingCodec recorder = new WorkThreadsTest.ThreadRecordingCodec();
            try (StatefulRedisClusterConnection<String, String> t = cluster.connect(CompressingCodec.wrap(recorder,
                    CompressionConfig.defaults()))) {
                for (int i = 0; i < 20; i++) {
                    assertEquals("OK", t.sync().set("th" + i, WorkThreadsTest.big(i)));
                    assertEquals(WorkThreadsTest.big(i), t.sync().get("th" + i));
                }
                List<WorkThreadsTest.Use> uses = recorder.take();
                assertEquals(40, uses.size());
                for (WorkThreadsTest.Use u : uses) {
                    if (u.what().equals("encode")) {
                        assertSame(Thread.currentThread(), u.thread(), () -> "encoded on " + u.thread());
                    } else {
                        assertTrue(u.onEventLoop(), () -> "decoded on " + u.thread());
                    }
                }
                assertEquals(WorkThreadsTest.big(3), t.async().get("th3").toCompletableFuture().thenApply(v -> v)
                        .get(5, TimeUnit.SECONDS));
                assertTrue(recorder.take().stream().allMatch(WorkThreadsTest.Use::onEventLoop));
            }

            // PUBLISH on the cluster connection is plain; subscribers with and without the codec get it as sent
            try (var sub = cluster.connectPubSub(zstd); var rawSub = cluster.connectPubSub(ByteArrayCodec.INSTANCE)) {
                java.util.concurrent.LinkedBlockingQueue<String> got = new java.util.concurrent.LinkedBlockingQueue<>();
                java.util.concurrent.LinkedBlockingQueue<byte[]> gotRaw = new java.util.concurrent.LinkedBlockingQueue<>();
                sub.addListener(new io.lettuce.core.pubsub.RedisPubSubAdapter<>() {
                    @Override
                    public void message(String channel, String message) {
                        got.add(message);
                    }
                });
                rawSub.addListener(new io.lettuce.core.pubsub.RedisPubSubAdapter<>() {
                    @Override
                    public void message(byte[] channel, byte[] message) {
                        gotRaw.add(message);
                    }
                });
                sub.sync().subscribe("ch");
                rawSub.sync().subscribe("ch".getBytes(StandardCharsets.UTF_8));
                z.sync().publish("ch", member);
                assertEquals(member, got.poll(5, TimeUnit.SECONDS));
                assertArrayEquals(member.getBytes(StandardCharsets.UTF_8), gotRaw.poll(5, TimeUnit.SECONDS));
            }

            // MOVED: the slot of a fresh key moves to another master behind the client's back; the SET is redirected
            // and retried as the same command, its value compressed once
            String key = "moved-key";
            int slot = SlotHash.getSlot(key);
            List<StatefulRedisConnection<String, String>> admin = new ArrayList<>();
            try {
                List<String> ids = new ArrayList<>();
                for (RedisServer n : nodes) {
                    StatefulRedisConnection<String, String> a =
                            setupClient.connect(StringCodec.UTF8, RedisURI.create(RedisServer.HOST, n.port()));
                    admin.add(a);
                    ids.add(a.sync().clusterMyId());
                }
                String ownerId = z.getPartitions().getPartitionBySlot(slot).getNodeId();
                int from = ids.indexOf(ownerId);
                int to = (from + 1) % 3;
                assertEquals(0, admin.get(from).sync().clusterCountKeysInSlot(slot));
                assertEquals("OK", admin.get(to).sync().clusterSetSlotImporting(slot, ids.get(from)));
                assertEquals("OK", admin.get(from).sync().clusterSetSlotMigrating(slot, ids.get(to)));
                for (int i : new int[] {to, from, (from + 2) % 3}) {
                    assertEquals("OK", admin.get(i).sync().clusterSetSlotNode(slot, ids.get(to)));
                }
                assertEquals(ownerId, z.getPartitions().getPartitionBySlot(slot).getNodeId(), "topology is stale");
                String value = member + member;
                long compressedBefore = zstd.compressor().stats().valuesCompressed();
                assertEquals("OK", z.sync().set(key, value));
                assertEquals(compressedBefore + 1, zstd.compressor().stats().valuesCompressed(),
                        "sent twice (MOVED), compressed once, on the calling thread");
                byte[] stored = admin.get(to).sync().dispatch(io.lettuce.core.protocol.CommandType.GET,
                        new io.lettuce.core.output.ByteArrayOutput<>(StringCodec.UTF8),
                        new io.lettuce.core.protocol.CommandArgs<>(StringCodec.UTF8).addKey(key));
                assertTrue(compressed(stored, CompressionBackend.ZSTD), "stored on the new owner, compressed");
                assertArrayEquals(value.getBytes(StandardCharsets.UTF_8), zstd.compressor().decompress(stored),
                        "compressed once");
                assertEquals(value, z.sync().get(key));
            } finally {
                admin.forEach(StatefulRedisConnection::close);
            }
        } finally {
            flushAll();
        }
    }

    /**
     * Dictionaries on the cluster: managed mode publishes in one slot (the prefix's hash tag), values spread over
     * every master use it, a second client picks it up at creation, and a value whose dictionary a client lacks fails
     * only its command until the dictionary is fetched. Flushes every master at the end.
     */
    @Test
    void dictionariesOnTheCluster() throws Exception {
        List<byte[]> train = dev.zstdjava.testkit.TestValues.jsonRecords(3000, 31);
        List<byte[]> values = dev.zstdjava.testkit.TestValues.jsonRecords(300, 32);
        String prefix = LettuceDictionaryStore.DEFAULT_PREFIX;
        try (StatefulRedisClusterConnection<byte[], byte[]> raw = cluster.connect(ByteArrayCodec.INSTANCE);
             LettuceDictionaryStore store = LettuceDictionaryStore.builder().connect(cluster);
             DictionaryManager m = DictionaryManager.managed(store).minSamples(500).build();
             StatefulRedisClusterConnection<byte[], byte[]> conn = cluster.connect(CompressingCodec.wrap(
                     ByteArrayCodec.INSTANCE, ValueCompressor.create(CompressionConfig.defaults(), m)))) {
            List<RedisFuture<String>> sets = new ArrayList<>();
            for (int i = 0; i < train.size(); i++) {
                sets.add(conn.async().set(("t:" + i).getBytes(StandardCharsets.UTF_8), train.get(i)));
            }
            for (RedisFuture<String> f : sets) {
                assertEquals("OK", f.get(30, TimeUnit.SECONDS));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (m.currentId() == 0) {
                assertTrue(System.nanoTime() < deadline, "no dictionary adopted: " + m.trainingStats());
                Thread.sleep(20);
            }
            long id = m.currentId();
            int slot = SlotHash.getSlot(prefix + "seq");
            for (String k : new String[] {"index", "lease", "dict:" + id}) {
                assertEquals(slot, SlotHash.getSlot(prefix + k), k);
            }
            assertNotNull(raw.sync().get((prefix + "dict:" + id).getBytes(StandardCharsets.UTF_8)));
            java.util.Set<Integer> slots = new java.util.HashSet<>();
            for (int i = 0; i < values.size(); i++) {
                byte[] key = ("v:" + i).getBytes(StandardCharsets.UTF_8);
                slots.add(SlotHash.getSlot(key));
                conn.sync().set(key, values.get(i));
                byte[] stored = raw.sync().get(key);
                assertEquals(id, ZstdFrame.dictionaryId(stored, 5, stored.length - 5));
                assertArrayEquals(values.get(i), conn.sync().get(key));
            }
            assertTrue(slots.size() > 250, "values spread over " + slots.size() + " slots");

            // a second client loads the published dictionary before build() returns
            try (LettuceDictionaryStore store2 = LettuceDictionaryStore.builder().connect(cluster);
                 DictionaryManager second = DictionaryManager.shared(store2).refreshInterval(Duration.ofHours(1))
                         .notifications(false).build();
                 LettuceDictionaryStore store3 = LettuceDictionaryStore.builder().connect(cluster);
                 DictionaryManager third = DictionaryManager.shared(store3).refreshInterval(Duration.ofHours(1))
                         .build();
                 StatefulRedisClusterConnection<byte[], byte[]> conn2 = cluster.connect(CompressingCodec.wrap(
                         ByteArrayCodec.INSTANCE, ValueCompressor.create(CompressionConfig.defaults(), second)))) {
                assertEquals(id, second.currentId());
                for (int i = 0; i < values.size(); i += 3) {
                    assertArrayEquals(values.get(i), conn2.sync().get(("v:" + i).getBytes(StandardCharsets.UTF_8)));
                }
                // another dictionary published after it started: its values fail until fetched, the rest work
                byte[] newer = dev.zstdjava.zstd.ZstdDictionary.train(values, 4 << 10).toByteArray();
                long newerId = dev.zstdjava.zstd.ZstdDictionary.of(newer).id();
                byte[] key = "newer".getBytes(StandardCharsets.UTF_8);
                try (DictionaryManager w = DictionaryManager.given(newer).build()) {
                    raw.sync().set(key, ValueCompressor.create(CompressionConfig.defaults(), w).compress(values.get(0)));
                }
                store.putIfAbsent(newerId, newer);
                Exception e = assertThrows(Exception.class, () -> conn2.sync().get(key));
                Throwable t = e;
                while (t != null && !(t instanceof MissingDictionaryException)) {
                    t = t.getCause();
                }
                assertNotNull(t, e.toString());
                assertEquals(newerId, ((MissingDictionaryException) t).dictionaryId());
                assertArrayEquals(values.get(1), conn2.sync().get("v:1".getBytes(StandardCharsets.UTF_8)));
                deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!second.isLoaded(newerId)) {
                    assertTrue(System.nanoTime() < deadline, "dictionary " + newerId + " not fetched");
                    Thread.sleep(20);
                }
                assertArrayEquals(values.get(0), conn2.sync().get(key));
                assertEquals(newerId, second.currentId(), "the newest published compresses");
                // a client subscribed to publications (the default) got it without reading such a value
                deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (third.currentId() != newerId) {
                    assertTrue(System.nanoTime() < deadline, "publication of " + newerId + " not announced");
                    Thread.sleep(20);
                }
            }
        } finally {
            for (RedisServer n : nodes) {
                try (StatefulRedisConnection<String, String> c =
                             setupClient.connect(StringCodec.UTF8, RedisURI.create(RedisServer.HOST, n.port()))) {
                    c.sync().flushall();
                }
            }
        }
    }
}
