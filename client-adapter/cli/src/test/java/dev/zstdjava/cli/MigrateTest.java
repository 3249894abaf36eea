package dev.zstdjava.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.testkit.TestValues;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static dev.zstdjava.cli.Writers.utf8;
import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/** {@code migrate} on a real standalone server: dry run, --apply, races, TTLs, second runs, bad input. */
class MigrateTest extends StandaloneServer {

    @AfterEach
    void noHook() {
        Migrate.beforeWrite = null;
    }

    /** Every key with its stored content (strings, hashes, sets, lists, sorted sets), to compare before and after. */
    static Map<String, Object> dump() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        Map<String, Object> m = new HashMap<>();
        for (byte[] k : c.keys("*")) { // the test's own check; the tool never uses KEYS
            String key = new String(k, StandardCharsets.UTF_8);
            Object v = switch (c.type(k)) {
                case "string" -> ByteBuffer.wrap(c.get(k));
                case "hash" -> {
                    Map<ByteBuffer, ByteBuffer> h = new HashMap<>();
                    c.hgetall(k).forEach((f, x) -> h.put(ByteBuffer.wrap(f), ByteBuffer.wrap(x)));
                    yield h;
                }
                case "set" -> {
                    Set<ByteBuffer> s = new HashSet<>();
                    c.smembers(k).forEach(x -> s.add(ByteBuffer.wrap(x)));
                    yield s;
                }
                case "list" -> c.lrange(k, 0, -1).stream().map(ByteBuffer::wrap).toList();
                case "zset" -> c.zrangeWithScores(k, 0, -1).stream()
                        .map(x -> ByteBuffer.wrap(x.getValue()) + "@" + x.getScore()).toList();
                default -> null;
            };
            m.put(key, v);
        }
        return m;
    }

    static long count(JsonNode r, String outcome) {
        return r.get("keys").get(outcome).asLong();
    }

    static byte[] get(String key) {
        return raw.sync().get(utf8(key));
    }

    @Test
    void redissonDataMovesToGlideKeepingTtlsAndHashFieldNames() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        String v = json(3000);
        for (int i = 1; i <= 5; i++) {
            c.set(utf8("rz:" + i), Writers.redissonZstd(v + i));
        }
        c.pexpire(utf8("rz:1"), 500_000);
        c.pexpire(utf8("rz:2"), 90_000);
        c.set(utf8("rl:1"), Writers.redissonLz4(v));
        c.set(utf8("rplain:1"), utf8(v));
        for (int f = 0; f < 3; f++) {
            c.hset(utf8("rzmap:1"), Writers.redissonZstdKey("field" + f), Writers.redissonZstd(v + f));
        }
        c.pexpire(utf8("rzmap:1"), 300_000);
        Map<String, Object> before = dump();

        Tool dry = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "r*", "--json");
        assertEquals(0, dry.code(), dry.toString());
        JsonNode d = dry.json();
        assertFalse(d.get("apply").asBoolean());
        assertEquals(6, count(d, "rewritten"), dry.out());
        assertEquals(2, count(d, "skipped: not that format"), dry.out());
        assertEquals("done", d.get("cursor").asText());
        assertEquals(before, dump(), "a dry run writes nothing");

        long pttl1 = c.pttl(utf8("rz:1"));
        long pttl2 = c.pttl(utf8("rz:2"));
        long pttlMap = c.pttl(utf8("rzmap:1"));
        long t0 = System.nanoTime();
        Tool apply = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "r*",
                "--apply", "--json");
        long elapsedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        assertEquals(0, apply.code(), apply.toString());
        JsonNode a = apply.json();
        assertEquals(6, count(a, "rewritten"), apply.out());
        assertEquals(2, count(a, "skipped: not that format"), apply.out());
        assertEquals(0, count(a, "failed"), apply.out());
        for (int i = 1; i <= 5; i++) {
            byte[] s = get("rz:" + i);
            assertArrayEquals(new byte[] {0, 1, 2, 0, 1}, java.util.Arrays.copyOf(s, 5), "rz:" + i);
            assertEquals(v + i, new String(Writers.ZSTD.decompress(s), StandardCharsets.UTF_8));
        }
        assertEquals(-1, c.pttl(utf8("rz:3")), "no TTL stays no TTL");
        assertTtlKept(pttl1, c.pttl(utf8("rz:1")), elapsedMs);
        assertTtlKept(pttl2, c.pttl(utf8("rz:2")), elapsedMs);
        assertTtlKept(pttlMap, c.pttl(utf8("rzmap:1")), elapsedMs);
        // the hash: plain field names (as this library's Redisson codec reads them), GLIDE values
        Map<byte[], byte[]> h = c.hgetall(utf8("rzmap:1"));
        assertEquals(3, h.size());
        for (int f = 0; f < 3; f++) {
            byte[] stored = c.hget(utf8("rzmap:1"), utf8("field" + f));
            assertNotNull(stored, "field" + f);
            assertEquals(v + f, new String(Writers.ZSTD.decompress(stored), StandardCharsets.UTF_8));
        }
        // untouched: the lz4 one and the plain one
        assertEquals(before.get("rl:1"), ByteBuffer.wrap(get("rl:1")));
        assertEquals(before.get("rplain:1"), ByteBuffer.wrap(get("rplain:1")));

        Tool again = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "r*",
                "--apply", "--json");
        assertEquals(0, again.code(), again.toString());
        assertEquals(0, count(again.json(), "rewritten"), again.out());
        assertEquals(8, count(again.json(), "skipped: not that format"), again.out());
    }

    static void assertTtlKept(long before, long after, long elapsedMs) {
        assertTrue(after > 0, "TTL kept: " + after);
        assertTrue(after <= before && before - after <= elapsedMs + 1000, "TTL " + before + " -> " + after
                + " after " + elapsedMs + " ms");
    }

    @Test
    void aKeyChangedBetweenReadAndWriteIsSkipped() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        for (int i = 1; i <= 3; i++) {
            c.set(utf8("lg:" + i), Writers.lettuce(io.lettuce.core.codec.CompressionCodec.CompressionType.GZIP,
                    json(2000) + i));
        }
        RedisClient other = RedisClient.create(RedisURI.create(RedisServer.HOST, server.port()));
        try (StatefulRedisConnection<byte[], byte[]> app = other.connect(ByteArrayCodec.INSTANCE)) {
            Migrate.beforeWrite = key -> {
                if (new String(key, StandardCharsets.UTF_8).equals("lg:2")) {
                    app.sync().set(key, utf8("written by the application meanwhile"));
                }
            };
            Tool t = Tool.run("migrate", uri, "--from", "lettuce-gzip", "--to", "glide-lz4", "--match", "lg:*",
                    "--apply", "--json");
            assertEquals(0, t.code(), t.toString());
            assertEquals(2, count(t.json(), "rewritten"), t.out());
            assertEquals(1, count(t.json(), "skipped: changed meanwhile"), t.out());
        } finally {
            other.shutdown(0, 2, TimeUnit.SECONDS);
        }
        assertEquals("written by the application meanwhile", new String(get("lg:2"), StandardCharsets.UTF_8));
        for (int i : new int[] {1, 3}) {
            byte[] s = get("lg:" + i);
            assertEquals(2, s[4], "glide lz4");
            assertEquals(json(2000) + i, new String(Writers.LZ4.decompress(s), StandardCharsets.UTF_8));
        }
    }

    @Test
    void compressedMembersElementsAndValuesBecomePlain() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        String v = json(800);
        c.sadd(utf8("cset:1"), Writers.ZSTD.compress(utf8(v + "a")), Writers.ZSTD.compress(utf8(v + "b")), utf8("x"));
        c.expire(utf8("cset:1"), 1000);
        c.rpush(utf8("clist:1"), Writers.LZ4.compress(utf8(v + "a")), utf8("plain"), Writers.ZSTD.compress(utf8(v + "c")));
        c.zadd(utf8("czset:1"), ScoredValue.just(1.5, Writers.ZSTD.compress(utf8(v + "a"))), ScoredValue.just(2, utf8("y")));
        c.hset(utf8("chash:1"), utf8("f"), Writers.ZSTD.compress(utf8(v)));
        c.set(utf8("cplain:1"), utf8(v));
        long ttl = c.pttl(utf8("cset:1"));
        Tool t = Tool.run("migrate", uri, "--from", "compressed", "--to", "plain", "--match", "c*", "--apply", "--json");
        assertEquals(0, t.code(), t.toString());
        assertEquals(4, count(t.json(), "rewritten"), t.out());
        assertEquals(1, count(t.json(), "skipped: not that format"), t.out());
        Set<String> members = new HashSet<>();
        c.smembers(utf8("cset:1")).forEach(m -> members.add(new String(m, StandardCharsets.UTF_8)));
        assertEquals(Set.of(v + "a", v + "b", "x"), members);
        assertTtlKept(ttl, c.pttl(utf8("cset:1")), 5000);
        List<String> list = new ArrayList<>();
        c.lrange(utf8("clist:1"), 0, -1).forEach(m -> list.add(new String(m, StandardCharsets.UTF_8)));
        assertEquals(List.of(v + "a", "plain", v + "c"), list);
        List<ScoredValue<byte[]>> z = c.zrangeWithScores(utf8("czset:1"), 0, -1);
        assertEquals(2, z.size());
        assertEquals(v + "a", new String(z.get(0).getValue(), StandardCharsets.UTF_8));
        assertEquals(1.5, z.get(0).getScore());
        assertEquals(v, new String(c.hget(utf8("chash:1"), utf8("f")), StandardCharsets.UTF_8));
        Tool again = Tool.run("migrate", uri, "--from", "compressed", "--to", "plain", "--match", "c*", "--apply", "--json");
        assertEquals(0, count(again.json(), "rewritten"), again.out());
    }

    @Test
    void plainValuesAreCompressedWhenThatMakesThemSmaller() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        for (int i = 1; i <= 3; i++) {
            c.set(utf8("p:" + i), utf8(json(1000 + i)));
        }
        c.set(utf8("p:small"), utf8("tiny"));
        c.set(utf8("p:random"), TestValues.random(2000, 1));
        c.sadd(utf8("p:set"), utf8(json(1000))); // members are never compressed
        Tool t = Tool.run("migrate", uri, "--from", "plain", "--to", "glide-zstd:6", "--match", "p:*", "--apply", "--json");
        assertEquals(0, t.code(), t.toString());
        assertEquals(3, count(t.json(), "rewritten"), t.out());
        assertEquals(2, count(t.json(), "skipped: would not be smaller"), t.out());
        assertEquals(1, count(t.json(), "skipped: not that format"), t.out());
        assertEquals(json(1002), new String(Writers.ZSTD.decompress(get("p:2")), StandardCharsets.UTF_8));
        assertEquals("tiny", new String(get("p:small"), StandardCharsets.UTF_8));
    }

    @Test
    void aCorruptValueFailsTheRunAndIsNotWritten() {
        // Redisson's length prefix and the zstd magic number, then a frame header without a dictionary id and garbage
        byte[] corrupt = TestValues.concat(new byte[] {0, 0, 0x10, 0, 0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0, 0x58},
                utf8("garbage after the zstd frame header"));
        raw.sync().set(utf8("bad:1"), corrupt);
        raw.sync().set(new byte[] {'b', 'a', 'd', ':', (byte) 0xff, '\\'}, corrupt); // a binary name, listed as such
        Map<String, Object> before = dump();
        Tool t = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "bad:*", "--apply");
        assertEquals(1, t.code(), t.toString());
        assertTrue(t.out().contains("bad:1: string value: corrupt"), t.out());
        assertTrue(t.out().contains("failed: bad:\\xFF\\\\: string value: corrupt"), t.out());
        assertTrue(t.err().contains("2 keys failed"), t.err());
        assertEquals(before, dump());
    }

    @Test
    void valuesOverTheLimitFailTheRunAndAreNotWritten() {
        raw.sync().set(utf8("big:1"), utf8(json(5000)));
        raw.sync().set(utf8("bomb:1"), Writers.redissonZstd("a".repeat(50_000)));
        Map<String, Object> before = dump();
        Tool plain = Tool.run("migrate", uri, "--from", "plain", "--to", "glide-zstd", "--match", "big:*", "--apply",
                "--limit", "4000");
        assertEquals(1, plain.code(), plain.toString());
        assertTrue(plain.out().contains("big:1: string value of 5000 bytes is over --limit 4000; not read"), plain.out());
        Tool bomb = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "bomb:*",
                "--apply", "--limit", "4000");
        assertEquals(1, bomb.code(), bomb.toString());
        assertTrue(bomb.out().contains("bomb:1: string value: over the limit"), bomb.out());
        assertEquals(before, dump());
    }

    /**
     * A collection is read whole only when its MEMORY USAGE, every element counted, is within 4 x --limit: one huge
     * member among many small ones (which a sampled MEMORY USAGE misses) fails the key unread; a member over --limit
     * in a collection within it fails the key too. Nothing is written.
     */
    @Test
    void aCollectionWithAHugeMemberFailsUnreadAndIsNotWritten() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        String v = json(800);
        for (int i = 0; i < 200; i++) {
            c.sadd(utf8("hugeset:1"), utf8("m" + i));
        }
        c.sadd(utf8("hugeset:1"), Writers.ZSTD.compress(utf8(v + "a")), TestValues.random(200_000, 3));
        c.sadd(utf8("bigmember:1"), Writers.ZSTD.compress(utf8(v + "b")), TestValues.random(50_000, 4));
        Map<String, Object> before = dump();
        Tool t = Tool.run("migrate", uri, "--from", "compressed", "--to", "plain", "--match", "*", "--apply",
                "--limit", "40000");
        assertEquals(1, t.code(), t.toString());
        assertTrue(t.out().matches("(?s).*failed: hugeset:1: uses \\d+ bytes \\(MEMORY USAGE\\), over 4 x --limit 40000.*"),
                t.out());
        assertTrue(t.out().contains("failed: bigmember:1: set member of 50000 bytes is over --limit 40000; the key is"
                + " left as it is"), t.out());
        assertEquals(before, dump());
    }

    /**
     * Members that become one: a set keeps one of them, a sorted-set member or a hash field stored in two forms with
     * the same score or value too; each is counted as merged, and the dry run predicts it.
     */
    @Test
    void membersThatBecomeOneAreCountedAsMerged() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        String v = json(800);
        c.sadd(utf8("mset:1"), Writers.ZSTD.compress(utf8(v + "a")), utf8(v + "a"), Writers.LZ4.compress(utf8(v + "b")),
                Writers.ZSTD.compress(utf8(v + "b")), utf8("other"));
        c.zadd(utf8("mzset:1"), ScoredValue.just(3, Writers.ZSTD.compress(utf8(v))), ScoredValue.just(3, utf8(v)));
        c.hset(utf8("mhash:1"), Writers.redissonZstdKey("g"), Writers.redissonZstd("same"));
        c.hset(utf8("mhash:1"), utf8("g"), utf8("same"));
        String[] args = {"migrate", uri, "--from", "compressed", "--to", "plain", "--match", "m*", "--json"};
        Map<String, Object> before = dump();
        Tool dry = Tool.run(args);
        assertEquals(0, dry.code(), dry.toString());
        assertEquals(List.of(3L, 4L), List.of(count(dry.json(), "rewritten"), dry.json().path("merged").asLong(-1)),
                dry.out());
        assertEquals(before, dump());
        Tool t = Tool.run(java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of(
                "--apply")).toArray(String[]::new));
        assertEquals(0, t.code(), t.toString());
        assertEquals(List.of(3L, 4L), List.of(count(t.json(), "rewritten"), t.json().path("merged").asLong(-1)),
                t.out());
        assertEquals(Set.of(ByteBuffer.wrap(utf8(v + "a")), ByteBuffer.wrap(utf8(v + "b")),
                ByteBuffer.wrap(utf8("other"))), dump().get("mset:1"));
        assertEquals(List.of(ByteBuffer.wrap(utf8(v)) + "@3.0"), dump().get("mzset:1"));
        assertEquals(Map.of(ByteBuffer.wrap(utf8("g")), ByteBuffer.wrap(utf8("same"))), dump().get("mhash:1"));
    }

    /**
     * A sorted-set member or hash field stored in two forms with different scores or values would lose one when
     * rewritten as one: the key fails and is left as it is.
     */
    @Test
    void membersInTwoFormsWithDifferentScoresOrValuesAreLeftAlone() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        String v = json(800);
        c.zadd(utf8("czset:1"), ScoredValue.just(1, Writers.ZSTD.compress(utf8(v))), ScoredValue.just(2, utf8(v)));
        c.hset(utf8("chash:1"), Writers.redissonZstdKey("f"), Writers.redissonZstd("the old form's value"));
        c.hset(utf8("chash:1"), utf8("f"), utf8("the value the application wrote since"));
        Map<String, Object> before = dump();
        Tool conflict = Tool.run("migrate", uri, "--from", "compressed", "--to", "plain", "--match", "c*", "--apply");
        assertEquals(1, conflict.code(), conflict.toString());
        assertTrue(conflict.out().contains("failed: czset:1: zset member '" + v.substring(0, 60) + "...' is stored in"
                + " two forms with different scores (1.0 and 2.0): rewriting them as one would lose one; the key is"
                + " left as it is"), conflict.out());
        assertTrue(conflict.out().contains("failed: chash:1: hash field 'f' is stored in two forms with different"
                + " values"), conflict.out());
        assertEquals(before, dump(), "nothing lost");
    }

    /** A hash field's own TTL (HPEXPIRE; HSET clears it) survives the rewrite of its value and of its name. */
    @Test
    void aHashFieldsOwnTtlSurvivesTheRewrite() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        String v = json(2000);
        c.hset(utf8("fttl:1"), utf8("f"), Writers.redissonZstd(v + "f"));
        c.hset(utf8("fttl:1"), Writers.redissonZstdKey("g"), Writers.redissonZstd(v + "g"));
        c.hset(utf8("fttl:1"), utf8("h"), Writers.redissonZstd(v + "h"));
        c.hpexpire(utf8("fttl:1"), 500_000, utf8("f"));
        c.hpexpire(utf8("fttl:1"), 400_000, Writers.redissonZstdKey("g"));
        List<Long> before = c.hpexpiretime(utf8("fttl:1"), utf8("f"), Writers.redissonZstdKey("g"));
        Tool t = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "fttl:*",
                "--apply", "--json");
        assertEquals(0, t.code(), t.toString());
        assertEquals(1, count(t.json(), "rewritten"), t.out());
        assertEquals(v + "g", new String(Writers.ZSTD.decompress(c.hget(utf8("fttl:1"), utf8("g"))),
                StandardCharsets.UTF_8));
        assertEquals(List.of(before.get(0), before.get(1), -1L), c.hpexpiretime(utf8("fttl:1"), utf8("f"), utf8("g"),
                utf8("h")), "each field's expiry time kept, and none added");
    }

    /**
     * A hash field stored in two forms that become one is merged only when both forms expire at the same time (or
     * neither has a TTL of its own): otherwise the field written would lose one TTL or gain one, so the key fails, in
     * the dry run as in the real one, and is left as it is. When they agree, the field keeps that TTL.
     */
    @Test
    void hashFieldsInTwoFormsWithDifferentTtlsAreNotMerged() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        c.hset(utf8("ttlplain:1"), Writers.redissonZstdKey("g"), Writers.redissonZstd("same"));
        c.hset(utf8("ttlplain:1"), utf8("g"), utf8("same"));
        c.hpexpire(utf8("ttlplain:1"), 500_000, utf8("g")); // the plain form expires, the other does not
        c.hset(utf8("ttlold:1"), Writers.redissonZstdKey("g"), Writers.redissonZstd("same"));
        c.hset(utf8("ttlold:1"), utf8("g"), utf8("same"));
        c.hpexpire(utf8("ttlold:1"), 500_000, Writers.redissonZstdKey("g")); // the old form expires, the plain not
        long at = System.currentTimeMillis() + 600_000;
        c.hset(utf8("ttlsame:1"), Writers.redissonZstdKey("g"), Writers.redissonZstd("same"));
        c.hset(utf8("ttlsame:1"), utf8("g"), utf8("same"));
        c.hpexpireat(utf8("ttlsame:1"), at, Writers.redissonZstdKey("g"), utf8("g"));
        Map<String, Object> before = dump();
        List<Long> plainBefore = c.hpexpiretime(utf8("ttlplain:1"), utf8("g"));
        String[] args = {"migrate", uri, "--from", "compressed", "--to", "plain", "--match", "ttl*", "--json"};
        Tool dry = Tool.run(args);
        assertEquals(1, dry.code(), dry.toString());
        assertEquals(List.of(1L, 2L), List.of(count(dry.json(), "rewritten"), count(dry.json(), "failed")), dry.out());
        Tool t = Tool.run(java.util.stream.Stream.concat(java.util.Arrays.stream(args), java.util.stream.Stream.of(
                "--apply")).toArray(String[]::new));
        assertEquals(1, t.code(), t.toString());
        assertEquals(List.of(1L, 2L, 1L), List.of(count(t.json(), "rewritten"), count(t.json(), "failed"),
                t.json().get("merged").asLong()), t.out());
        String failures = t.json().get("failures").toString();
        assertTrue(failures.contains("ttlplain:1: hash field 'g' is stored in two forms with different TTLs (expiring"
                + " never and at "), failures);
        assertTrue(failures.contains("ttlold:1: hash field 'g' is stored in two forms with different TTLs"), failures);
        assertEquals(before.get("ttlplain:1"), dump().get("ttlplain:1"), "left as it is");
        assertEquals(before.get("ttlold:1"), dump().get("ttlold:1"), "left as it is");
        assertEquals(plainBefore, c.hpexpiretime(utf8("ttlplain:1"), utf8("g")), "its TTL kept");
        assertEquals(Map.of(ByteBuffer.wrap(utf8("g")), ByteBuffer.wrap(utf8("same"))), dump().get("ttlsame:1"));
        assertEquals(List.of(at), c.hpexpiretime(utf8("ttlsame:1"), utf8("g")), "the TTL both forms had");
    }

    /** More failed keys than the summary lists: it says how many are not listed, and stderr does not claim all are. */
    @Test
    void failuresBeyondTheListedOnesAreCounted() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        int keys = 107; // the summary lists 100
        for (int i = 0; i < keys; i++) {
            c.set(utf8("many:" + i), PrintedNamesTest.CORRUPT);
        }
        Tool t = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "many:*",
                "--rate", "100000");
        assertEquals(1, t.code(), t.toString());
        assertEquals(100, t.out().lines().filter(l -> l.matches("  failed: many:\\d+: .*")).count(),
                t.out());
        assertTrue(t.out().contains("  failed: 7 more keys, not listed (the first 100 are)"), t.out());
        assertTrue(t.err().contains(keys + " keys failed and were left as they are (the first 100 listed above)"),
                t.err());
        Tool json = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "many:*",
                "--rate", "100000", "--json");
        assertEquals(List.of(100L, 7L), List.of((long) json.json().get("failures").size(),
                json.json().get("failuresNotListed").asLong()), json.out());
    }

    /** A key replaced by one of another type between its TYPE and its reading is skipped as changed; the run goes on. */
    @Test
    void aKeyThatChangesTypeAsItIsReadIsSkippedAsChanged() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        c.sadd(utf8("t:1"), Writers.ZSTD.compress(utf8(json(800))));
        c.set(utf8("t:2"), Writers.ZSTD.compress(utf8(json(900))));
        Reader.afterType = key -> {
            if (new String(key, StandardCharsets.UTF_8).equals("t:1")) {
                c.del(key);
                c.set(key, utf8("now a string"));
            }
        };
        try {
            Tool t = Tool.run("migrate", uri, "--from", "compressed", "--to", "plain", "--match", "t:*", "--apply",
                    "--json");
            assertEquals(0, t.code(), t.toString());
            assertEquals(List.of(1L, 1L), List.of(count(t.json(), "rewritten"),
                    count(t.json(), "skipped: changed meanwhile")), t.out());
        } finally {
            Reader.afterType = null;
        }
        assertEquals("now a string", new String(get("t:1"), StandardCharsets.UTF_8));
        assertEquals(json(900), new String(get("t:2"), StandardCharsets.UTF_8));
    }

    @Test
    void unreachableServerWrongPasswordAndBadArgumentsExitNonZero() throws Exception {
        Tool down = Tool.run("migrate", "redis://127.0.0.1:1", "--from", "plain", "--to", "glide-zstd", "--match", "*",
                "--apply");
        assertEquals(1, down.code(), down.toString());
        assertTrue(down.err().contains("cannot connect to 127.0.0.1:1"), down.err());

        try (RedisServer locked = RedisServer.start()) {
            assertTrue(locked.command("CONFIG SET requirepass s3cret").startsWith("+OK"));
            String base = "127.0.0.1:" + locked.port();
            Tool wrong = Tool.run("inspect", "redis://:wrong@" + base);
            assertEquals(1, wrong.code(), wrong.toString());
            assertTrue(wrong.err().contains("authentication to " + base + " failed"), wrong.err());
            Tool none = Tool.run("migrate", "redis://" + base, "--from", "plain", "--to", "glide-zstd", "--match", "*");
            assertEquals(1, none.code(), none.toString());
            assertTrue(none.err().contains("NOAUTH") || none.err().contains("authentication"), none.err());
            Tool right = Tool.run("inspect", "redis://:s3cret@" + base, "--json");
            assertEquals(0, right.code(), right.toString());
            // an ACL user, named in the URI
            assertTrue(locked.command("AUTH s3cret\r\nACL SETUSER tool on >t00l ~* &* +@all").contains("+OK"));
            Tool user = Tool.run("inspect", "redis://tool:t00l@" + base, "--json");
            assertEquals(0, user.code(), user.toString());
            // inspect and advise need no write permission: a user allowed only reads (and the handshake) runs them
            assertTrue(locked.command("AUTH s3cret\r\nSET doc:1 " + "abcdefgh".repeat(40)
                    + "\r\nACL SETUSER reader on >r3ad ~* &* +@read +@connection +info +memory -@write").contains("+OK"));
            Tool reader = Tool.run("inspect", "redis://reader:r3ad@" + base, "--json");
            assertEquals(0, reader.code(), reader.toString());
            assertEquals(1, reader.json().get("keysRead").asLong(), reader.out());
            Tool readerAdvise = Tool.run("advise", "redis://reader:r3ad@" + base, "--json");
            assertEquals(0, readerAdvise.code(), readerAdvise.toString());
            Tool readerWrite = Tool.run("migrate", "redis://reader:r3ad@" + base, "--from", "plain", "--to",
                    "glide-zstd", "--match", "doc:*", "--apply");
            assertEquals(1, readerWrite.code(), readerWrite.toString());
            System.out.println("migrate --apply as a read-only user: " + readerWrite.err().strip());
            assertTrue(readerWrite.err().contains("NOPERM") || readerWrite.err().contains("EXECABORT"), readerWrite.err());
            Tool badUser = Tool.run("inspect", "redis://tool:nope@" + base);
            assertEquals(1, badUser.code(), badUser.toString());
            assertTrue(badUser.err().contains("authentication to " + base + " failed"), badUser.err());
        }

        Tool rate = Tool.run("inspect", uri, "--rate", "0");
        assertEquals(2, rate.code(), rate.toString());
        assertTrue(rate.err().contains("--rate must be at least 1"), rate.err());
        Tool from = Tool.run("migrate", uri, "--from", "brotli", "--to", "plain", "--match", "*");
        assertEquals(2, from.code(), from.toString());
        assertTrue(from.err().contains("--from 'brotli'"), from.err());
        Tool missing = Tool.run("migrate", uri, "--from", "plain", "--to", "glide-zstd");
        assertEquals(2, missing.code(), missing.toString());
        assertTrue(missing.err().contains("--match"), missing.err());
    }
}
