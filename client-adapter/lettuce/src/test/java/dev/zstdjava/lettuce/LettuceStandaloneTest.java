package dev.zstdjava.lettuce;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionStats;
import dev.zstdjava.values.MissingDictionaryException;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.GetExArgs;
import io.lettuce.core.KeyValue;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScoredValue;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static dev.zstdjava.testkit.TestValues.concat;
import static dev.zstdjava.testkit.TestValues.random;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/** The codec against a real server: every value-carrying command family, sizes, APIs, stored bytes. */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class LettuceStandaloneTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer(CompressingRedisClient::create);

    static CompressingCodec<String, String> stringCodec;
    static CompressingCodec<byte[], byte[]> bytesCodec;
    static StatefulRedisConnection<String, String> strings;
    static StatefulRedisConnection<byte[], byte[]> bytes;

    @BeforeAll
    static void start() {
        stringCodec = CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.defaults());
        bytesCodec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE, CompressionConfig.defaults());
        strings = redis.client().connect(stringCodec);
        bytes = redis.client().connect(bytesCodec);
    }

    static byte[] k(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    static void assertCompressedStored(byte[] stored, int originalLength) {
        assertNotNull(stored);
        assertTrue(stored.length < originalLength, "stored " + stored.length + " >= " + originalLength);
        assertArrayEquals(new byte[] {0, 1, 2, 0, 1}, Arrays.copyOf(stored, 5));
    }

    @Test
    void setGetStrings() {
        RedisCommands<String, String> c = strings.sync();
        String v = TestValues.json(2000);
        assertEquals("OK", c.set("s", v));
        assertEquals(v, c.get("s"));
        assertCompressedStored(redis.raw().sync().get(k("s")), v.length());
        // keys are not touched: the raw connection finds the key by its plain name
        assertEquals(1, redis.raw().sync().exists(k("s")));
        String unicode = "żółć gęślą jaźń — ".repeat(50);
        c.set("u", unicode);
        assertEquals(unicode, c.get("u"));
        assertNull(c.get("missing"));
    }

    @Test
    void thresholdAt63And64And65Bytes() {
        RedisCommands<byte[], byte[]> c = bytes.sync();
        for (int n : new int[] {63, 64, 65}) {
            byte[] v = new byte[n];
            c.set(k("t" + n), v);
            assertArrayEquals(v, c.get(k("t" + n)));
            byte[] stored = redis.raw().sync().get(k("t" + n));
            if (n < 64) {
                assertArrayEquals(v, stored, "below the minimum: stored as is");
            } else {
                assertCompressedStored(stored, n);
            }
        }
    }

    @Test
    void sizesFromZeroTo8MiBTextAndBinary() {
        RedisCommands<byte[], byte[]> c = bytes.sync();
        int[] sizes = {0, 1, 5, 6, 63, 64, 65, 100, 1000, 4096, 65_536, 1 << 20, 8 << 20};
        for (int n : sizes) {
            byte[] t = text(n);
            byte[] b = random(n, n);
            c.set(k("text" + n), t);
            c.set(k("bin" + n), b);
            assertArrayEquals(t, c.get(k("text" + n)), "text " + n);
            assertArrayEquals(b, c.get(k("bin" + n)), "binary " + n);
            if (n >= 100) { // shorter text of this kind does not shrink with the header added
                assertCompressedStored(redis.raw().sync().get(k("text" + n)), n);
            }
            assertArrayEquals(b, redis.raw().sync().get(k("bin" + n)), "random bytes do not compress: stored as is");
        }
    }

    @Test
    void aValueThatNeedsAMissingDictionaryFailsThatCommandOnly() throws Exception {
        long[] id = new long[1];
        byte[] stored = TestValues.dictionaryValue(id);
        redis.raw().sync().set(k("dict"), stored);
        redis.raw().sync().set(k("plain"), k("plain value"));
        // sync: the command fails with the codec's exception (possibly wrapped by Lettuce), never with the raw bytes
        Exception e = assertThrows(Exception.class, () -> bytes.sync().get(k("dict")));
        Throwable t = e;
        while (t != null && !(t instanceof MissingDictionaryException)) {
            t = t.getCause();
        }
        assertNotNull(t, "MissingDictionaryException in the cause chain of " + e);
        assertEquals(id[0], ((MissingDictionaryException) t).dictionaryId());
        // the connection stays usable: the next commands on it work, also in one pipeline with a failing one
        assertArrayEquals(k("plain value"), bytes.sync().get(k("plain")));
        var failing = bytes.async().get(k("dict"));
        var after = bytes.async().get(k("plain"));
        assertArrayEquals(k("plain value"), after.get(10, TimeUnit.SECONDS));
        assertThrows(java.util.concurrent.ExecutionException.class, () -> failing.get(10, TimeUnit.SECONDS));
        String v = TestValues.json(3000);
        assertEquals("OK", strings.sync().set("after", v));
        assertEquals(v, strings.sync().get("after"));
    }

    @Test
    void binaryValuesThatLookCompressed() {
        RedisCommands<byte[], byte[]> c = bytes.sync();
        // starts with this backend's header, then no frame: compressed like any value (GLIDE's writer would store it
        // as it is, taking it for compressed), read back exactly
        byte[] lookalike = concat(new byte[] {0, 1, 2, 0, 1}, text(500));
        c.set(k("look"), lookalike);
        assertCompressedStored(redis.raw().sync().get(k("look")), lookalike.length);
        assertArrayEquals(lookalike, c.get(k("look")));
        // stored as it is by another writer: read back as is (the payload is not a frame), counted
        redis.raw().sync().set(k("look-raw"), lookalike);
        long failures = bytesCodec.compressor().stats().decompressionFailures();
        assertArrayEquals(lookalike, c.get(k("look-raw")));
        assertEquals(failures + 1, bytesCodec.compressor().stats().decompressionFailures());
        // just the magic with an unknown backend: compressed like any value, and read back exactly
        byte[] other = concat(new byte[] {0, 1, 2, 0, 9}, text(500));
        c.set(k("other"), other);
        assertCompressedStored(redis.raw().sync().get(k("other")), other.length);
        assertArrayEquals(other, c.get(k("other")));
        // tiny values made of the magic bytes
        for (byte[] v : new byte[][] {{0}, {0, 1}, {0, 1, 2}, {0, 1, 2, 0}, {0, 1, 2, 0, 1}}) {
            c.set(k("tiny"), v);
            assertArrayEquals(v, c.get(k("tiny")));
        }
    }

    @Test
    void msetMget() {
        RedisCommands<String, String> c = strings.sync();
        Map<String, String> values = new LinkedHashMap<>();
        for (int i = 0; i < 50; i++) {
            values.put("m" + i, i % 3 == 0 ? "small" + i : TestValues.json(100 + i * 50));
        }
        assertEquals("OK", c.mset(values));
        List<String> keys = new ArrayList<>(values.keySet());
        keys.add("nope");
        List<KeyValue<String, String>> got = c.mget(keys.toArray(String[]::new));
        for (int i = 0; i < 50; i++) {
            assertEquals(values.get("m" + i), got.get(i).getValue());
        }
        assertFalse(got.get(50).hasValue());
        assertTrue(c.msetnx(Map.of("nx1", TestValues.json(300), "nx2", TestValues.json(400))));
        assertEquals(TestValues.json(400), c.get("nx2"));
    }

    @Test
    void getexGetdelSetGetGetset() {
        RedisCommands<String, String> c = strings.sync();
        String a = TestValues.json(1000);
        String b = TestValues.json(1500);
        c.set("x", a);
        assertEquals(a, c.getex("x", GetExArgs.Builder.ex(Duration.ofSeconds(100))));
        assertTrue(c.ttl("x") > 0);
        assertEquals(a, c.setGet("x", b));
        assertEquals(b, c.get("x"));
        assertEquals(b, c.setGet("x", a, SetArgs.Builder.keepttl()));
        assertEquals(a, c.getset("x", b));
        assertEquals(b, c.getdel("x"));
        assertNull(c.get("x"));
        c.setex("ex", 100, a);
        assertEquals(a, c.get("ex"));
        assertTrue(c.setnx("nx", b));
        assertEquals(b, c.get("nx"));
    }

    @Test
    void hashes() {
        RedisCommands<String, String> c = strings.sync();
        Map<String, String> fields = new LinkedHashMap<>();
        for (int i = 0; i < 20; i++) {
            fields.put("f" + i, i % 2 == 0 ? TestValues.json(200 + i * 10) : "v" + i);
        }
        c.hset("h", fields);
        assertEquals(fields, c.hgetall("h"));
        assertEquals(fields.get("f4"), c.hget("h", "f4"));
        assertEquals(fields.get("f4"), c.hmget("h", "f4", "f5").get(0).getValue());
        assertEquals(new HashSet<>(fields.values()), new HashSet<>(c.hvals("h")));
        assertEquals(new HashSet<>(fields.keySet()), new HashSet<>(c.hkeys("h")), "field names are keys: untouched");
        // hash values are sent plain unless hash compression is opted in (LettucePolicyTest covers the opt-in)
        assertArrayEquals(k(fields.get("f4")), redis.raw().sync().hget(k("h"), k("f4")));
        assertTrue(c.hsetnx("h", "new", TestValues.json(500)));
        assertEquals(TestValues.json(500), c.hget("h", "new"));
    }

    @Test
    void lists() {
        RedisCommands<String, String> c = strings.sync();
        List<String> items = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            items.add(i % 4 == 0 ? "i" + i : TestValues.json(100 + i * 20));
        }
        c.rpush("l", items.toArray(String[]::new));
        assertEquals(items, c.lrange("l", 0, -1));
        assertEquals(items.get(5), c.lindex("l", 5));
        assertEquals(items.get(0), c.lpop("l"));
        assertEquals(items.get(29), c.rpop("l"));
        c.lset("l", 0, TestValues.json(999));
        assertEquals(TestValues.json(999), c.lindex("l", 0));
        assertArrayEquals(k(TestValues.json(999)), redis.raw().sync().lindex(k("l"), 0), "list elements are plain");
        assertEquals(1, c.lrem("l", 1, TestValues.json(999)));
    }

    @Test
    void setsAndSortedSets() {
        RedisCommands<String, String> c = strings.sync();
        Set<String> members = new HashSet<>();
        for (int i = 0; i < 25; i++) {
            members.add(i % 5 == 0 ? "s" + i : TestValues.json(80 + i * 30));
        }
        c.sadd("set", members.toArray(String[]::new));
        assertEquals(members, c.smembers("set"));
        assertTrue(c.sismember("set", TestValues.json(80 + 7 * 30)));
        assertTrue(redis.raw().sync().sismember(k("set"), k(TestValues.json(80 + 7 * 30))), "members are plain");
        assertNotNull(c.spop("set"));

        List<ScoredValue<String>> scored = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            scored.add(ScoredValue.just(i, TestValues.json(100 + i * 40)));
        }
        c.zadd("z", scored.toArray(new ScoredValue[0]));
        List<String> inOrder = scored.stream().map(ScoredValue::getValue).toList();
        assertEquals(inOrder, c.zrange("z", 0, -1));
        assertEquals(7.0, c.zscore("z", TestValues.json(100 + 7 * 40)));
        assertEquals(scored.get(19), c.zrangeWithScores("z", -1, -1).get(0));
        assertEquals(scored.get(0).getValue(), c.zpopmin("z").getValue());
    }

    @Test
    void asyncPipelineWithAutoFlushOff() throws Exception {
        StatefulRedisConnection<String, String> conn = redis.client().connect(stringCodec);
        try {
            conn.setAutoFlushCommands(false);
            RedisAsyncCommands<String, String> a = conn.async();
            List<RedisFuture<String>> sets = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                sets.add(a.set("p" + i, i % 2 == 0 ? TestValues.json(64 + i * 7) : "p" + i));
            }
            List<RedisFuture<String>> gets = new ArrayList<>();
            for (int i = 0; i < 500; i++) {
                gets.add(a.get("p" + i));
            }
            conn.flushCommands();
            for (RedisFuture<String> f : sets) {
                assertEquals("OK", f.get(10, TimeUnit.SECONDS));
            }
            for (int i = 0; i < 500; i++) {
                assertEquals(i % 2 == 0 ? TestValues.json(64 + i * 7) : "p" + i, gets.get(i).get(10, TimeUnit.SECONDS));
            }
        } finally {
            conn.close();
        }
    }

    @Test
    void asyncAndReactive() throws Exception {
        RedisAsyncCommands<String, String> a = strings.async();
        String v = TestValues.json(5000);
        assertEquals("OK", a.set("async", v).get(10, TimeUnit.SECONDS));
        assertEquals(v, a.get("async").get(10, TimeUnit.SECONDS));

        var r = strings.reactive();
        assertEquals("OK", r.set("reactive", v).block(Duration.ofSeconds(10)));
        assertEquals(v, r.get("reactive").block(Duration.ofSeconds(10)));
        List<String> values = Flux.range(0, 20)
                .concatMap(i -> r.set("rx" + i, TestValues.json(100 + i)).then(r.get("rx" + i)))
                .collectList().block(Duration.ofSeconds(10));
        for (int i = 0; i < 20; i++) {
            assertEquals(TestValues.json(100 + i), values.get(i));
        }
        assertCompressedStored(redis.raw().sync().get(k("reactive")), v.length());
    }

    @Test
    void valuesCompressedOnTheCallingThreadAndThroughTheCodecReadEachOther() throws Exception {
        // the "which thread compresses" pattern of docs/values.md: ByteArrayCodec + ValueCompressor on the caller's threads
        ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults());
        byte[] big = text(3000);
        byte[] small = text(40);
        byte[] random = random(2000, 9);
        redis.raw().sync().set(k("caller"), values.compress(big));
        redis.raw().sync().set(k("caller-small"), values.compress(small));
        redis.raw().sync().set(k("caller-random"), values.compress(random));
        assertCompressedStored(redis.raw().sync().get(k("caller")), big.length);
        assertArrayEquals(small, redis.raw().sync().get(k("caller-small")), "below the minimum size: stored as it is");
        assertArrayEquals(random, redis.raw().sync().get(k("caller-random")), "incompressible: stored as it is");
        // the codec reads what the caller compressed ...
        assertArrayEquals(big, bytes.sync().get(k("caller")));
        assertArrayEquals(small, bytes.sync().get(k("caller-small")));
        assertArrayEquals(random, bytes.sync().get(k("caller-random")));
        // ... and the caller reads what the codec compressed, from many threads at once
        bytes.sync().set(k("codec"), big);
        byte[] stored = redis.raw().sync().get(k("codec"));
        assertArrayEquals(stored, values.compress(big), "both ways store the same bytes");
        try (var pool = java.util.concurrent.Executors.newFixedThreadPool(4)) {
            var futures = new java.util.ArrayList<java.util.concurrent.Future<byte[]>>();
            for (int i = 0; i < 32; i++) {
                futures.add(pool.submit(() -> values.decompress(redis.raw().sync().get(k("codec")))));
            }
            for (var f : futures) {
                assertArrayEquals(big, f.get(10, TimeUnit.SECONDS));
            }
        }
        assertEquals(32, values.stats().valuesDecompressed());
    }

    @Test
    void plainValuesWrittenWithoutCompressionReadBack() {
        byte[] v = text(4000);
        redis.raw().sync().set(k("plain"), v);
        assertArrayEquals(v, bytes.sync().get(k("plain")));
        assertEquals(new String(v, StandardCharsets.UTF_8), strings.sync().get("plain"));
    }

    @Test
    void badStoredValuesGiveTheDocumentedResultAndTheConnectionStaysUsable() {
        RedisCommands<byte[], byte[]> c = bytes.sync();
        byte[] good = text(10_000);
        c.set(k("good"), good);
        byte[] stored = redis.raw().sync().get(k("good"));
        // truncated frame: returned as stored, counted
        byte[] truncated = Arrays.copyOf(stored, stored.length - 4);
        redis.raw().sync().set(k("truncated"), truncated);
        long failures = bytesCodec.compressor().stats().decompressionFailures();
        assertArrayEquals(truncated, c.get(k("truncated")));
        assertEquals(failures + 1, bytesCodec.compressor().stats().decompressionFailures());
        // unknown backend: returned as stored
        byte[] unknown = concat(new byte[] {0, 1, 2, 0, 0x7f}, text(100));
        redis.raw().sync().set(k("unknown"), unknown);
        assertArrayEquals(unknown, c.get(k("unknown")));
        // huge declared size: the command fails with the limit error
        byte[] huge = concat(new byte[] {0, 1, 2, 0, 1, (byte) 0x28, (byte) 0xb5, (byte) 0x2f, (byte) 0xfd, (byte) 0xe0},
                new byte[] {0, 0, 0, 0, 0, 1, 0, 0}, new byte[] {1, 0, 0});
        redis.raw().sync().set(k("huge"), huge);
        RuntimeException e = assertThrows(RuntimeException.class, () -> c.get(k("huge")));
        assertLimitError(e);
        // lz4 with lying lengths, and with a length its block could not decode to: returned as stored
        byte[] lz4Good = CompressingCodec.wrap(ByteArrayCodec.INSTANCE,
                CompressionConfig.builder().backend(CompressionBackend.LZ4).build()).compressor().compress(good);
        byte[] block = Arrays.copyOfRange(lz4Good, 9, lz4Good.length);
        byte[] lyingLonger = TestValues.lz4Stored(good.length + 1, block);
        byte[] lyingShorter = TestValues.lz4Stored(good.length - 1, block);
        redis.raw().sync().set(k("lz4good"), lz4Good);
        redis.raw().sync().set(k("lz4longer"), lyingLonger);
        redis.raw().sync().set(k("lz4shorter"), lyingShorter);
        redis.raw().sync().set(k("lz4huge"), TestValues.lz4Stored(0xFFFF_FFF0L, block));
        assertArrayEquals(good, c.get(k("lz4good")));
        assertArrayEquals(lyingLonger, c.get(k("lz4longer")));
        assertArrayEquals(lyingShorter, c.get(k("lz4shorter")));
        // a length its block could not decode to: no writer's value, a plain one that begins with the header
        assertArrayEquals(redis.raw().sync().get(k("lz4huge")), c.get(k("lz4huge")));
        // in the middle of an MGET: that command fails, the next ones work
        RuntimeException e2 = assertThrows(RuntimeException.class, () -> c.mget(k("good"), k("huge"), k("good")));
        assertLimitError(e2);
        assertEquals("PONG", c.ping());
        assertArrayEquals(good, c.get(k("good")));
        List<KeyValue<byte[], byte[]>> mget = c.mget(k("good"), k("truncated"), k("good"));
        assertArrayEquals(good, mget.get(0).getValue());
        assertArrayEquals(truncated, mget.get(1).getValue());
        assertArrayEquals(good, mget.get(2).getValue());
        // and other connections were never affected
        assertEquals(TestValues.json(300), setAndGet(TestValues.json(300)));
    }

    private static String setAndGet(String v) {
        strings.sync().set("after", v);
        return strings.sync().get("after");
    }

    static void assertLimitError(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof DecompressionLimitException) {
                return;
            }
        }
        fail("expected a DecompressionLimitException in the cause chain", e);
    }

    @Test
    void statsCountWhatHappened() {
        CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE, CompressionConfig.defaults());
        try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec)) {
            conn.sync().set(k("a"), text(1000));
            conn.sync().set(k("b"), text(10));
            conn.sync().set(k("c"), random(1000, 9));
            conn.sync().get(k("a"));
            conn.sync().get(k("b"));
            CompressionStats s = codec.compressor().stats();
            assertEquals(1, s.valuesCompressed());
            assertEquals(2, s.skipped());
            assertEquals(1000, s.originalBytes());
            assertEquals(redis.raw().sync().strlen(k("a")), s.compressedBytes());
            assertEquals(1, s.valuesDecompressed());
            assertEquals(1000, s.decompressedBytes());
        }
    }
}
