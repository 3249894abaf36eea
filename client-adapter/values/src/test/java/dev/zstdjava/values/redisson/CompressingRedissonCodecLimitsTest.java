package dev.zstdjava.values.redisson;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.ValueFormat;
import dev.zstdjava.values.lines.ClientLines;
import dev.zstdjava.zstd.ZstdDictionary;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RBucket;
import org.redisson.api.RList;
import org.redisson.api.RMap;
import org.redisson.api.RSet;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.StringCodec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.testkit.TestValues.jsonRecords;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Where Redisson's codec cannot follow the command policy, shown on a real server: a Codec cannot tell a member from
 * a value, so an RSet (or RList) with the compressing codec stores compressed members; and the compare operations
 * (RBucket.compareAndSet, RMap.replace/remove with a value, containsValue) compare encoded bytes in Lua, so they hold
 * only while every writer uses the same backend, level, library build and dictionary; RBucket.findCommon (LCS)
 * compares stored bytes too.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingRedissonCodecLimitsTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    static RedissonClient redisson;

    @BeforeAll
    static void start() {
        redisson = Redisson.create(CompressingRedissonCodecTest.config(redis.server().port()));
    }

    @AfterAll
    static void stop() {
        if (redisson != null) {
            redisson.shutdown();
        }
    }

    static byte[] b(String s) {
        return CompressingRedissonCodecTest.b(s);
    }

    /** Hash values opted in, so that map values are compressed too. */
    static CompressingRedissonCodec codec(CompressionBackend backend) {
        return new CompressingRedissonCodec(StringCodec.INSTANCE,
                CompressionConfig.builder().backend(backend).compressHashValues(true).build());
    }

    /** Misuse made visible: an RSet with the codec compresses its members, so the server compares compressed bytes. */
    @Test
    void anRSetWithTheCodecStoresCompressedMembers() {
        String m = json(233);
        RSet<String> zstdSet = redisson.getSet("rs:set", codec(CompressionBackend.ZSTD));
        assertTrue(zstdSet.add(m));
        byte[] stored = redis.client().smembers(b("rs:set")).iterator().next();
        assertTrue(ValueFormat.hasHeader(ByteBuffer.wrap(stored)), "the member is stored compressed");
        assertFalse(redis.client().sismember(b("rs:set"), b(m)), "SISMEMBER from a plain client misses it");
        redis.client().sadd(b("rs:set"), b(m));
        assertEquals(2, redis.client().scard(b("rs:set")), "the same member from a plain client is a second one");
        RSet<String> lz4Set = redisson.getSet("rs:set", codec(CompressionBackend.LZ4));
        assertTrue(lz4Set.add(m), "and from an lz4 codec a third");
        assertEquals(3, redis.client().scard(b("rs:set")));
        assertTrue(zstdSet.contains(m), "the same codec finds its own encoding");
        assertEquals(1, redis.client().srem(b("rs:set"), b(m)), "SREM from a plain client removes only its own");
        // list elements alike: LREM from a plain client misses the compressed element
        RList<String> list = redisson.getList("rs:list", codec(CompressionBackend.ZSTD));
        list.add(m);
        assertEquals(0, redis.client().lrem(b("rs:list"), 0, b(m)));
        // the way out: members through the wrapped codec itself
        RSet<String> plainSet = redisson.getSet("rs:plain", StringCodec.INSTANCE);
        plainSet.add(m);
        redis.client().sadd(b("rs:plain"), b(m));
        assertEquals(1, redis.client().scard(b("rs:plain")));
    }

    @Test
    void compareAndSetAndMapCompareOperationsHoldOnlyForTheSameWriterConfiguration() {
        String v = json(2000);
        String next = json(1500);
        CompressingRedissonCodec zstd = codec(CompressionBackend.ZSTD);
        CompressingRedissonCodec lz4 = codec(CompressionBackend.LZ4);
        CompressingRedissonCodec level9 = new CompressingRedissonCodec(StringCodec.INSTANCE,
                CompressionConfig.builder().level(9).compressHashValues(true).build());

        // same backend, level and build: the encoded bytes are equal, the comparison in Lua matches
        RBucket<String> bucket = redisson.getBucket("rc:bucket", zstd);
        bucket.set(v);
        assertTrue(bucket.compareAndSet(v, next));
        assertEquals(next, bucket.get());
        // written by another backend or level: equal values, different bytes, "not equal"
        redisson.<String>getBucket("rc:bucket", lz4).set(v);
        assertEquals(v, bucket.get(), "reads fine");
        assertFalse(bucket.compareAndSet(v, next), "compareAndSet misses a value another backend wrote");
        redisson.<String>getBucket("rc:bucket", level9).set(v);
        assertFalse(bucket.compareAndSet(v, next), "and one another level wrote");

        RMap<String, String> map = redisson.getMap("rc:map", zstd);
        map.put("f", v);
        assertTrue(map.containsValue(v));
        assertTrue(map.replace("f", v, next));
        assertTrue(map.remove("f", next));
        redisson.<String, String>getMap("rc:map", lz4).put("f", v);
        assertEquals(v, map.get("f"));
        assertFalse(map.containsValue(v), "containsValue misses a value another backend wrote");
        assertFalse(map.replace("f", v, next), "replace(k, old, new) misses it");
        assertFalse(map.remove("f", v), "remove(k, v) misses it");
        assertEquals(v, map.get("f"), "unchanged");
    }

    /**
     * {@code RBucket.findCommon} and {@code findCommonLength} run {@code LCS} on the stored bytes: side by side with
     * the wrapped codec, on compressed values they find what two compressed frames share, not what the values share,
     * and no codec can refuse them.
     */
    @Test
    void findCommonComparesTheStoredBytes() {
        assumeTrue(ClientLines.hasMethod(RBucket.class, "findCommon", String.class),
                "RBucket.findCommon is newer than this Redisson line");
        String v = json(3000);
        String w = json(2500); // the start of v
        RBucket<String> plainV = redisson.getBucket("rl:pv", StringCodec.INSTANCE);
        plainV.set(v);
        redisson.<String>getBucket("rl:pw", StringCodec.INSTANCE).set(w);
        assertEquals(w.length(), plainV.findCommonLength("rl:pw"));
        assertEquals(w, plainV.findCommon("rl:pw"));

        CompressingRedissonCodec zstd = codec(CompressionBackend.ZSTD);
        RBucket<String> compressedV = redisson.getBucket("rl:cv", zstd);
        compressedV.set(v);
        redisson.<String>getBucket("rl:cw", zstd).set(w);
        assertEquals(v, compressedV.get());
        long common = compressedV.findCommonLength("rl:cw");
        assertTrue(common < redis.client().strlen(b("rl:cw")), "at most the compressed length: " + common);
        assertNotEquals(w, compressedV.findCommon("rl:cw"), "not the common part of the values");
    }

    /** With dictionaries the bytes also depend on which dictionary the writer used: a new one breaks the match. */
    @Test
    void compareOperationsMissValuesWrittenWithAnotherDictionary() {
        byte[] dict = ZstdDictionary.train(jsonRecords(1500, 1), 16 << 10).toByteArray();
        String v = new String(jsonRecords(1, 9).get(0), StandardCharsets.UTF_8);
        try (DictionaryManager withDict = DictionaryManager.given(dict).build()) {
            CompressingRedissonCodec dictCodec = new CompressingRedissonCodec(StringCodec.INSTANCE,
                    ValueCompressor.create(CompressionConfig.defaults(), withDict));
            CompressingRedissonCodec noDict = codec(CompressionBackend.ZSTD);
            RBucket<String> bucket = redisson.getBucket("rd:bucket", dictCodec);
            bucket.set(v);
            assertTrue(bucket.compareAndSet(v, v), "same dictionary: matches");
            redisson.<String>getBucket("rd:bucket", noDict).set(v);
            assertEquals(v, bucket.get());
            assertFalse(bucket.compareAndSet(v, v), "written without the dictionary: misses");
        }
    }
}
