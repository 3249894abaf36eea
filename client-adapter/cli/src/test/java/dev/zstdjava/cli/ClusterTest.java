package dev.zstdjava.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zstdjava.lettuce.LettuceDictionaryStore;
import dev.zstdjava.testkit.RedisCluster;
import dev.zstdjava.testkit.RedisServer;
import io.lettuce.core.RedisCommandTimeoutException;
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

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

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
        awaitDistinctEpochs();
    }

    /**
     * Waits (up to 30 s) until the primaries' config epochs differ: a cluster made with {@code CLUSTER MEET} starts
     * them all at 0, and the nodes then raise them one by one, which a run would report as a topology change.
     */
    private static void awaitDistinctEpochs() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (RedisServer n : cluster.nodes()) {
            while (true) {
                List<String> epochs = new ArrayList<>();
                for (String line : n.command("CLUSTER NODES").split("\r?\n")) {
                    String[] f = line.split(" ");
                    if (f.length > 8 && f[2].contains("master")) {
                        epochs.add(f[6]);
                    }
                }
                if (epochs.size() == 3 && epochs.stream().distinct().count() == 3) {
                    break;
                }
                assertTrue(System.nanoTime() < deadline, "config epochs " + epochs + " on " + n.port());
                Thread.sleep(50);
            }
        }
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

    /** @return the node id of each node of the cluster, in the order of {@code cluster.nodes()} */
    static List<String> ids() throws IOException {
        List<String> ids = new ArrayList<>();
        for (RedisServer n : cluster.nodes()) {
            Matcher m = Pattern.compile("[0-9a-f]{40}").matcher(n.command("CLUSTER MYID"));
            assertTrue(m.find());
            ids.add(m.group());
        }
        return ids;
    }

    /** @return the index of the node serving {@code key}, as the tool orders them (by node id) */
    static int node(String key) throws IOException {
        int slot = SlotHash.getSlot(key);
        int owner = slot <= 5460 ? 0 : slot <= 10922 ? 1 : 2;
        List<String> ids = ids();
        return (int) ids.stream().filter(id -> id.compareTo(ids.get(owner)) < 0).count();
    }

    /** @return the node id of the node the tool scans {@code rank}-th */
    static String idOfRank(int rank) throws IOException {
        return ids().stream().sorted().toList().get(rank);
    }

    @Test
    void inspectCountsEveryPrimaryAndMigrateRewritesAcrossThem() throws Exception {
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

        // a run stopped at the first key of the second node names that node by its id; resumed there, the keys of
        // the first are not seen
        String cursor = stoppedAt(onNode0 + 1);
        assertTrue(cursor.matches(idOfRank(1) + ":0@[0-9a-f]{8}/[0-9a-f]{16}"), cursor);
        Tool resumed = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "rz:*",
                "--cursor", cursor, "--json");
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
     * Runs a dry run of {@code migrate --from redisson-zstd --match rz:*} that stops with an error at the
     * {@code n}-th key it reads.
     *
     * @return the cursor its error line says to resume with
     */
    private static String stoppedAt(int n) {
        AtomicInteger read = new AtomicInteger();
        Reader.afterType = key -> {
            if (read.incrementAndGet() == n) {
                throw new RedisCommandTimeoutException("Command timed out after 10 second(s)");
            }
        };
        try {
            Tool stopped = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "rz:*");
            assertEquals(1, stopped.code(), stopped.toString());
            Matcher m = Pattern.compile("resume with --cursor (\\S+)\\)").matcher(stopped.err());
            assertTrue(m.find(), stopped.toString());
            return m.group(1);
        } finally {
            Reader.afterType = null;
        }
    }

    /**
     * A cursor names its primary by node id and the topology it was printed under: a cursor of a node that is not a
     * primary now (as after a failover), of a topology whose slots moved since, or naming a node by its index, is
     * refused with what changed, and nothing is scanned; with the slot back, the same cursor resumes.
     */
    @Test
    void aCursorThatNoLongerMatchesTheTopologyIsRefused() throws Exception {
        RedisAdvancedClusterCommands<byte[], byte[]> c = raw.sync();
        String v = json(1000);
        int onNode0 = 0;
        for (int i = 0; i < 30; i++) {
            c.set(utf8("rz:" + i), Writers.redissonZstd(v + i));
            onNode0 += node("rz:" + i) == 0 ? 1 : 0;
        }
        String cursor = stoppedAt(onNode0 + 1); // at the first key of the second node
        assertTrue(cursor.matches(idOfRank(1) + ":0@[0-9a-f]{8}/[0-9a-f]{16}"), cursor);
        String topology = cursor.substring(cursor.indexOf('@') + 1, cursor.indexOf('/'));
        String options = cursor.substring(cursor.indexOf('/'));
        String[] migrate = {"migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "rz:*",
                "--cursor"};

        Tool gone = Tool.run(BadArgumentsTest.concat(migrate, "f".repeat(40) + ":0@" + topology + options));
        assertEquals(2, gone.code(), gone.toString());
        assertTrue(gone.err().contains("names node " + "f".repeat(40) + ", which is not a primary serving slots now"),
                gone.err());
        Tool byIndex = Tool.run(BadArgumentsTest.concat(migrate, "1:0" + options));
        assertEquals(2, byIndex.code(), byIndex.toString());
        assertTrue(byIndex.err().contains("names a node by its index"), byIndex.err());

        List<String> ids = ids();
        int slot = 0;
        while (!cluster.nodes().get(0).command("CLUSTER COUNTKEYSINSLOT " + slot).startsWith(":0")) {
            slot++; // an empty slot of the first range, which moves without its keys
        }
        try {
            setSlot(slot, ids.get(1));
            Tool moved = Tool.run(BadArgumentsTest.concat(migrate, cursor));
            assertEquals(2, moved.code(), moved.toString());
            assertTrue(moved.err().contains("was printed when the cluster's primaries and their slots were " + topology
                    + "; they are "), moved.err());
            assertTrue(moved.out().isEmpty(), moved.out());
        } finally {
            setSlot(slot, ids.get(0));
        }
        Tool back = Tool.run(BadArgumentsTest.concat(migrate, cursor, "--json"));
        assertEquals(0, back.code(), back.toString());
        assertEquals(30 - onNode0, MigrateTest.count(back.json(), "rewritten"), back.out());
    }

    /**
     * A slot moved during a run, from a primary not yet scanned to one scanned already (its keys seen by neither
     * scan): the run ends with an error saying the topology changed and to run again from the start, and its
     * summary's cursor is 0, never "done".
     */
    @Test
    void aSlotMovedDuringARunFailsItLoudly() throws Exception {
        RedisAdvancedClusterCommands<byte[], byte[]> c = raw.sync();
        String first = idOfRank(0), second = idOfRank(1), last = idOfRank(2);
        RedisServer any = cluster.nodes().get(0);
        String tag = null;
        for (int i = 0; tag == null; i++) { // a hash tag whose slot the primary scanned last serves
            tag = owner(any, SlotHash.getSlot("t" + i)).equals(last) ? "t" + i : null;
        }
        int slot = SlotHash.getSlot(tag);
        String v = json(1000);
        List<String> keys = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            keys.add("mv:" + i);
            keys.add("{" + tag + "}mv:" + i); // 30 keys in the slot that moves
        }
        boolean onSecond = false;
        for (String k : keys) {
            c.set(utf8(k), Writers.redissonZstd(v));
            onSecond |= owner(any, SlotHash.getSlot(k)).equals(second);
        }
        assertTrue(onSecond, "a key on the primary scanned second");
        boolean[] moved = {false};
        Reader.afterType = key -> { // at the first key of the second primary: the first is scanned, the last not
            try {
                if (!moved[0] && owner(any, SlotHash.getSlot(key)).equals(second)) {
                    moved[0] = true;
                    moveSlot(slot, last, first);
                }
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        };
        try {
            Tool t = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "*mv:*",
                    "--json");
            assertTrue(moved[0], t.toString());
            assertEquals(1, t.code(), t.toString());
            assertTrue(t.err().contains("the cluster's topology changed during the run"), t.err());
            assertTrue(t.err().contains("this run did not see every key; run again from the start (without --cursor)"),
                    t.err());
            assertEquals("0", t.json().get("cursor").asText(), t.out());
            assertTrue(t.json().get("stopped").asText().contains("topology changed"), t.out());
            System.out.println("a slot moved during a run: " + t.err().strip());
        } finally {
            Reader.afterType = null;
            if (moved[0]) {
                moveSlot(slot, first, last);
            }
            for (String k : keys) {
                c.del(utf8(k));
            }
        }
    }

    /**
     * A slot being migrated (a resharding under way, its keys moving one by one) when a scan is to start: the run
     * ends before it scans, saying which slot, rather than count keys that may be moving between primaries.
     */
    @Test
    void aSlotBeingMigratedFailsARunLoudly() throws Exception {
        List<String> ids = ids();
        RedisServer source = cluster.nodes().get(0);
        int slot = 0;
        while (!source.command("CLUSTER COUNTKEYSINSLOT " + slot).startsWith(":0")) {
            slot++;
        }
        assertTrue(source.command("CLUSTER SETSLOT " + slot + " MIGRATING " + ids.get(1)).startsWith("+OK"));
        try {
            Tool t = Tool.run("inspect", uri, "--json");
            assertEquals(1, t.code(), t.toString());
            assertTrue(t.err().contains("the cluster's topology changed as the run started (primary " + ids.get(0)
                    + " at " + RedisServer.HOST + ":" + source.port() + ", when its scan was to start: slots are being"
                    + " migrated to or from it, a resharding under way ([" + slot + "->-" + ids.get(1) + "])"), t.err());
            assertTrue(t.out().isEmpty(), t.out());
        } finally {
            assertTrue(source.command("CLUSTER SETSLOT " + slot + " STABLE").startsWith("+OK"));
        }
        Tool after = Tool.run("inspect", uri, "--json");
        assertEquals(0, after.code(), after.toString());
    }

    /**
     * A primary that serves slots but that the cluster marks failed (down, no replica taken over yet): its keys cannot
     * be scanned, so a run refuses to start rather than scan the others and say every key was seen. Its own cluster:
     * the one the other tests share keeps its three primaries.
     */
    @Test
    void aFailedPrimaryServingSlotsFailsARunLoudly() throws Exception {
        try (RedisCluster own = RedisCluster.start()) {
            // the first node down: the dictionary store's slot is the third's, so the store is read as before
            RedisServer seed = own.nodes().get(1), down = own.nodes().get(0);
            String k = "{f}k"; // slot 3168: the first node's range
            assertEquals(3168, SlotHash.getSlot(k));
            assertTrue(SlotHash.getSlot(LettuceDictionaryStore.DEFAULT_PREFIX) > 10922);
            assertTrue(down.command("SET " + k + " v").startsWith("+OK"));
            Matcher id = Pattern.compile("[0-9a-f]{40}").matcher(down.command("CLUSTER MYID"));
            assertTrue(id.find());
            for (RedisServer n : own.nodes()) { // the others serve their slots while it is down
                assertTrue(n.command("CONFIG SET cluster-require-full-coverage no").startsWith("+OK"));
            }
            down.close();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!failed(seed, id.group())) { // the other primaries agree it is down (node timeout 3 s)
                assertTrue(System.nanoTime() < deadline, seed.command("CLUSTER NODES"));
                Thread.sleep(50);
            }
            Tool t = Tool.run("inspect", "redis://" + RedisServer.HOST + ":" + seed.port(), "--json", "--timeout", "2");
            assertEquals(1, t.code(), t.toString());
            assertTrue(t.err().contains("primary " + id.group() + " at " + RedisServer.HOST + ":" + down.port()
                    + " serves slots 0-5460 but the cluster marks it failed"), t.err());
            assertTrue(t.out().isEmpty(), t.out());
        }
    }

    /** @return whether {@code n}'s {@code CLUSTER NODES} flags the node {@code id} {@code fail} */
    private static boolean failed(RedisServer n, String id) throws IOException {
        for (String line : n.command("CLUSTER NODES").split("\\r?\\n")) {
            String[] f = line.split(" ");
            if (f.length > 2 && f[0].equals(id) && List.of(f[2].split(",")).contains("fail")) {
                return true;
            }
        }
        return false;
    }

    /**
     * Moves {@code slot} with its keys from the primary {@code from} to {@code to} (node ids), as a resharding does:
     * importing and migrating, each key with {@code MIGRATE}, then the slot given to {@code to} on every node.
     */
    private static void moveSlot(int slot, String from, String to) throws Exception {
        List<String> ids = ids();
        RedisServer source = cluster.nodes().get(ids.indexOf(from));
        RedisServer target = cluster.nodes().get(ids.indexOf(to));
        assertTrue(target.command("CLUSTER SETSLOT " + slot + " IMPORTING " + from).startsWith("+OK"));
        assertTrue(source.command("CLUSTER SETSLOT " + slot + " MIGRATING " + to).startsWith("+OK"));
        String reply = source.command("CLUSTER GETKEYSINSLOT " + slot + " 1000"); // *N, then $LEN and each key
        for (String key : reply.split("\r\n")) {
            if (!key.isEmpty() && !key.startsWith("*") && !key.startsWith("$")) {
                String r = source.command("MIGRATE " + RedisServer.HOST + " " + target.port() + " " + key + " 0 5000");
                assertTrue(r.startsWith("+OK"), key + ": " + r);
            }
        }
        setSlot(slot, to);
    }

    /** Gives {@code slot} (holding no key) to the node {@code id} on every node, that one first. */
    private static void setSlot(int slot, String id) throws Exception {
        List<String> ids = ids();
        List<RedisServer> order = new ArrayList<>(cluster.nodes());
        order.sort(java.util.Comparator.comparing(n -> ids.get(cluster.nodes().indexOf(n)).equals(id) ? 0 : 1));
        for (RedisServer n : order) {
            String r = n.command("CLUSTER SETSLOT " + slot + " NODE " + id);
            assertTrue(r.startsWith("+OK"), n.port() + ": " + r);
        }
        for (RedisServer n : cluster.nodes()) { // every node's view, as the tool reads the URI's
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!owner(n, slot).equals(id)) {
                assertTrue(System.nanoTime() < deadline, "slot " + slot + " not given to " + id);
                Thread.sleep(50);
            }
        }
    }

    /** @return the node id that {@code n}'s {@code CLUSTER NODES} says serves {@code slot} */
    private static String owner(RedisServer n, int slot) throws IOException {
        for (String line : n.command("CLUSTER NODES").split("\\r?\\n")) {
            String[] f = line.split(" ");
            for (int i = 8; i < f.length; i++) {
                String[] range = f[i].split("-");
                if (!range[0].matches("[0-9]+")) {
                    continue;
                }
                int lo = Integer.parseInt(range[0]);
                int hi = range.length > 1 ? Integer.parseInt(range[1]) : lo;
                if (slot >= lo && slot <= hi) {
                    return f[0];
                }
            }
        }
        return "";
    }

    /**
     * The cluster dictionary store's client finds the topology through its seed (the keyspace's URI): a seed whose
     * TCP connection is never made is given up after {@code --timeout}, and the error line names the store and Netty's
     * connect timeout (the tool's {@code --timeout}). Without that connect timeout Lettuce's own connection
     * initialization timer (the URI's timeout, also {@code --timeout}, started before the TCP connection) closes
     * the channel as well, but the line then says only {@code ClosedChannelException}.
     */
    @Test
    void theClusterDictionaryStoreGivesUpConnectingAfterTheTimeout() throws Exception {
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
