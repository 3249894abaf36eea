package dev.zstdjava.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zstdjava.lettuce.LettuceDictionaryStore;
import dev.zstdjava.testkit.GlideScript;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.PatternDictionaries;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdDictionary;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.CompressionCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.zstdjava.cli.Writers.utf8;
import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/** {@code inspect} on a real server filled by every writer: each class counted exactly. */
class InspectTest extends StandaloneServer {

    /** Counts of (pattern, where, class) from inspect's JSON. */
    static Map<String, Long> classes(JsonNode root) {
        Map<String, Long> m = new HashMap<>();
        for (JsonNode p : root.get("patterns")) {
            for (JsonNode c : p.get("classes")) {
                m.put(p.get("pattern").asText() + " | " + c.get("where").asText() + " | " + c.get("class").asText(),
                        c.get("values").asLong());
            }
        }
        return m;
    }

    @Test
    void everyWriterIsCountedExactly(@TempDir Path tmp) throws Exception {
        RedisCommands<byte[], byte[]> c = raw.sync();
        String v = json(1200);
        for (int i = 1; i <= 6; i++) {
            c.set(utf8("plain:" + i), utf8(json(300 + i)));
        }
        for (int i = 1; i <= 3; i++) {
            c.set(utf8("redisson:" + i), Writers.redissonIntegration(v));
            c.set(utf8("gz:" + i), Writers.lettuce(CompressionCodec.CompressionType.GZIP, v));
            c.set(utf8("df:" + i), Writers.lettuce(CompressionCodec.CompressionType.DEFLATE, v));
            c.set(utf8("rz:" + i), Writers.redissonZstd(v));
            c.set(utf8("rl:" + i), Writers.redissonLz4(v));
            c.set(utf8("lz:" + i), Writers.LZ4.compress(utf8(v)));
            c.set(utf8("spring:" + i), Writers.spring(v));
        }
        // this project's Lettuce integration, through its policy client (SET values compressed)
        var policyClient = dev.zstdjava.lettuce.CompressingRedisClient.create(
                io.lettuce.core.RedisURI.create(RedisServer.HOST, server.port()));
        try (var lettuce = policyClient.connect(io.lettuce.core.codec.StringCodec.UTF8, Writers.ZSTD)) {
            for (int i = 1; i <= 3; i++) {
                lettuce.sync().set("lettuce:" + i, v);
            }
        } finally {
            policyClient.shutdown();
        }
        // this project's Jedis wrapper, through a real Jedis client
        try (redis.clients.jedis.RedisClient jedis = redis.clients.jedis.RedisClient.create(RedisServer.HOST,
                server.port())) {
            dev.zstdjava.values.jedis.CompressingJedis cj = new dev.zstdjava.values.jedis.CompressingJedis(jedis,
                    Writers.ZSTD);
            for (int i = 1; i <= 3; i++) {
                cj.set(utf8("jedis:" + i), utf8(v));
            }
        }
        Map<String, byte[]> rzmap = new LinkedHashMap<>();
        for (int f = 0; f < 4; f++) {
            rzmap.put("f" + f, Writers.redissonZstd(v + f));
        }
        for (var e : rzmap.entrySet()) {
            c.hset(utf8("rzmap:1"), Writers.redissonZstdKey(e.getKey()), e.getValue());
        }
        for (int f = 0; f < 3; f++) {
            c.hset(utf8("ghash:1"), utf8("field" + f), Writers.ZSTD.compress(utf8(v + f)));
        }
        c.sadd(utf8("gset:1"), Writers.ZSTD.compress(utf8(v + "a")), Writers.ZSTD.compress(utf8(v + "b")),
                Writers.ZSTD.compress(utf8(v + "c")), utf8("x"));
        c.rpush(utf8("glist:1"), Writers.ZSTD.compress(utf8(v + "a")), Writers.ZSTD.compress(utf8(v + "b")),
                utf8("plain element"));
        c.zadd(utf8("gzset:1"), ScoredValue.just(1, Writers.ZSTD.compress(utf8(v + "a"))),
                ScoredValue.just(2, Writers.ZSTD.compress(utf8(v + "b"))));
        c.set(utf8("unknown:1"), TestValues.concat(new byte[] {0, 1, 2, 9, 1}, utf8(v)));
        c.set(utf8("corrupt:1"), TestValues.concat(new byte[] {0, 1, 2, 0, 1}, utf8("this is not a zstd frame at all")));
        long[] id = new long[1];
        c.set(utf8("dict:1"), TestValues.dictionaryValue(id));
        // the real GLIDE (Python) client, zstd and lz4
        Map<String, byte[]> py = new LinkedHashMap<>();
        Map<String, byte[]> pyLz4 = new LinkedHashMap<>();
        for (int i = 1; i <= 4; i++) {
            py.put("glide:" + i, utf8(json(2000 + i)));
            pyLz4.put("glidelz:" + i, utf8(json(2000 + i)));
        }
        Path script = Path.of("../lettuce/src/test/python/glide_interop.py");
        GlideScript.run(script, tmp, "write", server.port(), "zstd", py);
        GlideScript.run(script, tmp, "write", server.port(), "lz4", pyLz4);

        Tool t = Tool.run("inspect", uri, "--json", "--sample", "1000");
        assertEquals(0, t.code(), t.toString());
        JsonNode root = t.json();
        long keys = c.dbsize();
        assertEquals(keys, root.get("keysScanned").asLong(), t.out());
        assertEquals(keys, root.get("keysRead").asLong(), t.out());
        assertTrue(root.get("exact").asBoolean());
        Map<String, Long> want = new HashMap<>();
        want.put("plain:* | string value | plain", 6L);
        want.put("lettuce:* | string value | glide-zstd", 3L);
        want.put("redisson:* | string value | glide-zstd", 3L);
        want.put("spring:* | string value | glide-zstd", 3L);
        want.put("jedis:* | string value | glide-zstd", 3L);
        want.put("gz:* | string value | lettuce-gzip", 3L);
        want.put("df:* | string value | lettuce-deflate", 3L);
        want.put("rz:* | string value | redisson-zstd", 3L);
        want.put("rl:* | string value | redisson-lz4", 3L);
        want.put("lz:* | string value | glide-lz4", 3L);
        want.put("rzmap:* | hash field | redisson-zstd", 4L);
        want.put("rzmap:* | hash value | redisson-zstd", 4L);
        want.put("ghash:* | hash field | plain", 3L);
        want.put("ghash:* | hash value | glide-zstd", 3L);
        want.put("gset:* | set member | glide-zstd", 3L);
        want.put("gset:* | set member | plain", 1L);
        want.put("glist:* | list element | glide-zstd", 2L);
        want.put("glist:* | list element | plain", 1L);
        want.put("gzset:* | zset member | glide-zstd", 2L);
        want.put("unknown:* | string value | glide-unknown-header: unknown header", 1L);
        want.put("corrupt:* | string value | glide-zstd: corrupt", 1L);
        want.put("dict:* | string value | glide-zstd (dictionary " + id[0] + "): missing dictionary", 1L);
        want.put("glide:* | string value | glide-zstd", 4L);
        want.put("glidelz:* | string value | glide-lz4", 4L);
        assertEquals(want, classes(root), t.out());
        // stored and decoded bytes of one class, exactly
        for (JsonNode p : root.get("patterns")) {
            if (p.get("pattern").asText().equals("rz:*")) {
                JsonNode cl = p.get("classes").get(0);
                assertEquals(3L * v.length(), cl.get("decodedBytes").asLong());
                assertEquals(3L * Writers.redissonZstd(v).length, cl.get("storedBytes").asLong());
                assertEquals(3, p.get("memoryUsageKeys").asLong(), "MEMORY USAGE of every key read");
            }
        }
        // the text form says the same
        Tool text = Tool.run("inspect", uri);
        assertEquals(0, text.code(), text.toString());
        assertTrue(text.out().contains("every key: counts are exact"), text.out());
        assertTrue(text.out().matches("(?s).*pattern rz:\\*: 3 keys, 3 read.*redisson-zstd\\s+3\\s.*"), text.out());
    }

    @Test
    void aSampleSaysItIsOneAndStaysWithinItsSize() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        for (int i = 0; i < 300; i++) {
            c.set(utf8("user:" + i), Writers.ZSTD.compress(utf8(json(500))));
        }
        Tool t = Tool.run("inspect", uri, "--json", "--sample", "50");
        assertEquals(0, t.code(), t.toString());
        JsonNode root = t.json();
        assertEquals(300, root.get("keysScanned").asLong());
        assertEquals(50, root.get("keysRead").asLong());
        assertFalse(root.get("exact").asBoolean());
        assertEquals(Map.of("user:* | string value | glide-zstd", 50L), classes(root));
        assertEquals(300, root.get("patterns").get(0).get("keys").asLong());
    }

    @Test
    void everyCommandGoesThroughTheRateLimitAndProgressGoesToStderr() {
        for (int i = 0; i < 20; i++) {
            raw.sync().set(utf8("r:" + i), utf8(json(200)));
        }
        long t0 = System.nanoTime();
        Tool t = Tool.run("inspect", uri, "--json", "--rate", "100", "--progress");
        double seconds = (System.nanoTime() - t0) / 1e9;
        assertEquals(0, t.code(), t.toString());
        long commands = t.json().get("commands").asLong();
        assertTrue(commands >= 20 * 4, "TYPE, STRLEN, GET, MEMORY USAGE per key: " + commands);
        // a lower bound only: at 100 commands a second, N commands cannot take less than (N - 1) / 100 s
        assertTrue(seconds >= (commands - 1) / 100.0 * 0.95, commands + " commands in " + seconds + " s");
        assertTrue(t.err().contains("\rscanned ") || t.err().contains("\rreading "), t.err());
        assertFalse(t.out().contains("\r"), "progress stays off stdout");
    }

    @Test
    void valuesOverTheLimitAreSkippedUnread() {
        raw.sync().set(utf8("big:1"), utf8(json(5000)));
        raw.sync().hset(utf8("bighash:1"), utf8("f"), utf8(json(5000)));
        Tool t = Tool.run("inspect", uri, "--json", "--limit", "4000");
        assertEquals(0, t.code(), t.toString());
        Map<String, Long> cl = classes(t.json());
        assertEquals(1L, cl.get("big:* | string value | skipped: over the limit (--limit)"), t.out());
        assertEquals(1L, cl.get("bighash:* | hash value | skipped: over the limit (--limit)"), t.out());
        // a compressed value that decodes to more than the limit
        raw.sync().flushall();
        raw.sync().set(utf8("bomb:1"), Writers.ZSTD.compress(new byte[50_000]));
        Tool b = Tool.run("inspect", uri, "--json", "--limit", "4000");
        assertEquals(Map.of("bomb:* | string value | glide-zstd: over the limit", 1L), classes(b.json()), b.out());
    }

    /**
     * Members, list elements and hash field names have no length command: a collection whose MEMORY USAGE is over
     * 4 x --limit is not read at all (one huge member among small ones), a member over --limit in one within it is
     * dropped as read, and what the tool reports of these keys is only their skipped count.
     */
    @Test
    void aCollectionWithAHugeMemberIsNotRead() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        byte[] huge = TestValues.random(200_000, 7);
        c.sadd(utf8("hugeset:1"), utf8("a"), utf8("b"), utf8("c"), huge);
        c.zadd(utf8("hugezset:1"), ScoredValue.just(1, utf8("a")), ScoredValue.just(2, huge));
        c.rpush(utf8("hugelist:1"), utf8("x"), utf8("y"), huge);
        for (int i = 0; i < 100; i++) {
            c.rpush(utf8("hugelist:1"), utf8("element " + i));
        }
        c.hset(utf8("hugehash:1"), huge, utf8("a small value"));
        c.hset(utf8("hugehash:1"), utf8("f"), utf8("another"));
        c.sadd(utf8("okset:1"), utf8("a"), utf8("b"), utf8("c"));
        c.sadd(utf8("bigmember:1"), utf8("small"), TestValues.random(6000, 8)); // within 4 x --limit in all
        Tool t = Tool.run("inspect", uri, "--json", "--limit", "4000");
        assertEquals(0, t.code(), t.toString());
        assertEquals(Map.of(
                "hugeset:* | set member | " + Inspect.UNREAD, 1L,
                "hugezset:* | zset member | " + Inspect.UNREAD, 1L,
                "hugelist:* | list element | " + Inspect.UNREAD, 1L,
                "hugehash:* | hash field | " + Inspect.UNREAD, 1L,
                "okset:* | set member | plain", 3L,
                "bigmember:* | set member | plain", 1L,
                "bigmember:* | set member | skipped: over the limit (--limit)", 1L), classes(t.json()), t.out());
        // the huge list element is past the first --elements: the list is read
        Tool first = Tool.run("inspect", uri, "--json", "--limit", "4000", "--elements", "1", "--match", "hugelist:*");
        assertEquals(Map.of("hugelist:* | list element | plain", 1L), classes(first.json()), first.out());
    }

    /** A set, sorted set or hash of more than --max-elements is not read: bounding it would take O(N) server time. */
    @Test
    void aCollectionOverMaxElementsIsNotRead() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        for (int i = 0; i < 30; i++) {
            c.sadd(utf8("many:1"), utf8("member " + i));
            c.hset(utf8("manyhash:1"), utf8("field " + i), utf8("value " + i));
        }
        Tool t = Tool.run("inspect", uri, "--json", "--max-elements", "20", "--elements", "4");
        assertEquals(0, t.code(), t.toString());
        assertEquals(Map.of("many:* | set member | " + Inspect.UNREAD, 1L,
                "manyhash:* | hash field | " + Inspect.UNREAD, 1L), classes(t.json()), t.out());
        Tool all = Tool.run("inspect", uri, "--json", "--max-elements", "30", "--elements", "4");
        assertEquals(Map.of("many:* | set member | plain", 4L, "manyhash:* | hash field | plain", 4L,
                "manyhash:* | hash value | plain", 4L), classes(all.json()), all.out());
    }

    /** A key replaced by one of another type between its TYPE and its reading is left out, and the run goes on. */
    @Test
    void aKeyThatChangesTypeAsItIsReadIsLeftOut() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        c.sadd(utf8("t:1"), utf8("a"), utf8("b"));
        c.set(utf8("u:1"), utf8("plain value"));
        Reader.afterType = key -> {
            if (new String(key, StandardCharsets.UTF_8).equals("t:1")) {
                c.del(key);
                c.set(key, utf8("now a string"));
            }
        };
        try {
            Tool t = Tool.run("inspect", uri, "--json");
            assertEquals(0, t.code(), t.toString());
            assertEquals(Map.of("u:* | string value | plain", 1L), classes(t.json()), t.out());
        } finally {
            Reader.afterType = null;
        }
    }

    @Test
    void getDecodesWithThePublishedDictionary(@TempDir Path tmp) throws Exception {
        List<byte[]> samples = TestValues.jsonRecords(400, 7);
        ZstdDictionary dict = ZstdDictionary.train(samples, 4 << 10);
        publish(dict.id(), dict.toByteArray());
        byte[] original = samples.get(3);
        try (DictionaryManager dm = DictionaryManager.given(dict.toByteArray()).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().minCompressionSize(16).build(), dm);
            raw.sync().set(utf8("event:1"), vc.compress(original));
        }
        Path out = tmp.resolve("value.bin");
        Tool t = Tool.run("inspect", "get", uri, "event:1", "--out", out.toString());
        assertEquals(0, t.code(), t.toString());
        assertArrayEquals(original, Files.readAllBytes(out));
        assertTrue(t.out().contains("glide-zstd (dictionary " + dict.id() + ")"), t.out());
        // inspect counts it as decoded with its dictionary, and leaves the store's keys out
        Map<String, Long> cl = classes(Tool.run("inspect", uri, "--json").json());
        assertEquals(Map.of("event:* | string value | glide-zstd (dictionary " + dict.id() + ")", 1L), cl);
        // a legacy value, to stdout
        raw.sync().set(utf8("gz:1"), Writers.lettuce(CompressionCodec.CompressionType.GZIP, "hello gzip"));
        Tool g = Tool.run("inspect", "get", uri, "gz:1");
        assertEquals(0, g.code(), g.toString());
        assertEquals("hello gzip", g.out().strip());
        assertTrue(g.err().contains("lettuce-gzip"), g.err());
        // a corrupt value: a clear message and exit 1
        raw.sync().set(utf8("corrupt:1"), TestValues.concat(new byte[] {0, 1, 2, 0, 1}, utf8("not zstd at all")));
        Tool bad = Tool.run("inspect", "get", uri, "corrupt:1");
        assertEquals(1, bad.code(), bad.toString());
        assertTrue(bad.err().contains("corrupt"), bad.err());
        Tool missing = Tool.run("inspect", "get", uri, "nothing:here");
        assertEquals(1, missing.code(), missing.toString());
        assertTrue(missing.err().contains("no such key"), missing.err());
    }

    /**
     * A published entry cut short in the server (a partial restore): still a dictionary, which decoded values written
     * with the published one to wrong bytes. It is left out, naming both sizes, and its values fail as missing it.
     */
    @Test
    void getOfAValueWhoseDictionaryEntryWasCutShortFailsAsMissingIt(@TempDir Path tmp) throws Exception {
        List<byte[]> samples = TestValues.jsonRecords(2000, 8);
        byte[] dict = ZstdDictionary.train(samples, 16 << 10).toByteArray();
        long id = ZstdDictionary.of(dict).id();
        publish(id, dict);
        int n = 20;
        try (DictionaryManager dm = DictionaryManager.given(dict).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), dm);
            for (int i = 0; i < n; i++) {
                raw.sync().set(utf8("event:" + i), vc.compress(samples.get(i)));
            }
        }
        byte[] cut = java.util.Arrays.copyOf(dict, dict.length - 4000);
        raw.sync().set(utf8(LettuceDictionaryStore.DEFAULT_PREFIX + "dict:" + id), cut);
        List<String> wrong = new java.util.ArrayList<>();
        List<Tool> runs = new java.util.ArrayList<>();
        for (int i = 0; i < n; i++) {
            Path out = tmp.resolve("value" + i + ".bin");
            Tool t = Tool.run("inspect", "get", uri, "event:" + i, "--out", out.toString());
            runs.add(t);
            if (t.code() == 0 && !java.util.Arrays.equals(samples.get(i), Files.readAllBytes(out))) {
                wrong.add("event:" + i);
            }
        }
        assertEquals(List.of(), wrong, "written out as wrong bytes, exit 0");
        for (Tool t : runs) {
            assertEquals(1, t.code(), t.toString());
            assertTrue(t.err().contains("dictionary " + id + " is left out") && t.err().contains("lists it with "
                    + dict.length + " bytes but its entry, key " + LettuceDictionaryStore.DEFAULT_PREFIX + "dict:" + id
                    + " (") && t.err().contains(", holds " + cut.length + " (cut short"), t.err());
            assertTrue(t.err().contains("needs zstd dictionary " + id + ", which is left out: "), t.err());
        }
    }

    /**
     * A value written with a dictionary that no store holds: the error names the keys it was looked for at (the
     * store's entry and the lineages' claim of the id), not the library's setup.
     */
    @Test
    void getOfAValueWhoseDictionaryIsPublishedNowhereNamesTheKeysLookedAt(@TempDir Path tmp) throws Exception {
        List<byte[]> samples = TestValues.jsonRecords(2000, 9);
        byte[] dict = ZstdDictionary.train(samples, 16 << 10).toByteArray();
        long id = ZstdDictionary.of(dict).id();
        try (DictionaryManager dm = DictionaryManager.given(dict).build()) {
            raw.sync().set(utf8("unpublished:1"),
                    ValueCompressor.create(CompressionConfig.defaults(), dm).compress(samples.get(0)));
        }
        Tool t = Tool.run("inspect", "get", uri, "unpublished:1", "--out", tmp.resolve("v.bin").toString());
        assertEquals(1, t.code(), t.toString());
        assertTrue(t.err().contains("the value needs zstd dictionary " + id + ", which is not published: the store of "
                + LettuceDictionaryStore.DEFAULT_PREFIX + " holds no entry for it (key "
                + LettuceDictionaryStore.DEFAULT_PREFIX + "dict:" + id + " ") && t.err().contains("and no pattern"
                + " lineage claims it (key " + PatternDictionaries.prefix(PatternDictionaries.ID_CLAIMS) + "dict:" + id
                + " "), t.err());
        assertFalse(t.err().contains("DictionaryManager") || t.err().contains("ValueCompressor"), t.err());
    }

    /** A key of another type than the value asked for: the error names the key and what get reads. */
    @Test
    void getOfAKeyOfAnotherTypeNamesTheKey() {
        raw.sync().hset(utf8("profile:1"), utf8("name"), utf8("x"));
        Tool t = Tool.run("inspect", "get", uri, "profile:1");
        assertEquals(1, t.code(), t.toString());
        assertTrue(t.err().contains("error: profile:1: WRONGTYPE"), t.err());
        assertTrue(t.err().contains("(inspect get reads a string value, or a hash value with --field)"), t.err());
        raw.sync().set(utf8("doc:1"), utf8("text"));
        Tool f = Tool.run("inspect", "get", uri, "doc:1", "--field", "name");
        assertEquals(1, f.code(), f.toString());
        assertTrue(f.err().contains("error: doc:1: WRONGTYPE"), f.err());
    }
}
