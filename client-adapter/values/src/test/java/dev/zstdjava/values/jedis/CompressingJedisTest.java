package dev.zstdjava.values.jedis;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.ValueFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import redis.clients.jedis.params.GetExParams;
import redis.clients.jedis.params.SetParams;

import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.testkit.TestValues.random;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/** Jedis (every supported line) on a real server: the helper, and plain byte[] commands with a ValueCompressor, reading each other. */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingJedisTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * {@code new SetParams().ex(seconds)} on every Jedis line: this class is compiled against the newest, whose
     * {@code SetParams.ex} returns {@code SetParams}; Jedis 6.0 has only the {@code ex} it inherits from a
     * package-private class, so the call goes through reflection.
     */
    static SetParams ex(long seconds) {
        SetParams p = new SetParams();
        try {
            Method ex = SetParams.class.getMethod("ex", long.class);
            ex.setAccessible(true);
            ex.invoke(p, seconds);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
        return p;
    }

    static void assertCompressed(byte[] stored, int originalLength) {
        assertTrue(ValueFormat.hasHeader(ByteBuffer.wrap(stored)), "header");
        assertTrue(stored.length < originalLength, stored.length + " >= " + originalLength);
    }

    @Test
    void stringCommands() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        CompressingJedis jedis = new CompressingJedis(redis.client(), vc);
        byte[] big = b(json(4000));
        assertEquals("OK", jedis.set(b("k1"), big));
        assertEquals("OK", jedis.set(b("k2"), b("small")));
        assertEquals("OK", jedis.set(b("k3"), big, ex(100)));
        assertEquals("OK", jedis.setex(b("k4"), 100, big));
        assertArrayEquals(big, jedis.get(b("k1")));
        assertArrayEquals(b("small"), jedis.get(b("k2")));
        assertNull(jedis.get(b("missing")));
        assertCompressed(redis.client().get(b("k1")), big.length);
        assertArrayEquals(b("small"), redis.client().get(b("k2")));
        assertTrue(redis.client().ttl(b("k3")) > 0);
        assertArrayEquals(big, jedis.getEx(b("k4"), new GetExParams().persist()));
        assertEquals(-1, redis.client().ttl(b("k4")));
        assertArrayEquals(big, jedis.getDel(b("k3")));
        assertNull(jedis.getDel(b("k3")));

        byte[] other = text(10_000);
        assertEquals("OK", jedis.mset(b("m1"), big, b("m2"), other));
        List<byte[]> got = jedis.mget(b("m1"), b("missing"), b("m2"));
        assertArrayEquals(big, got.get(0));
        assertNull(got.get(1));
        assertArrayEquals(other, got.get(2));
        assertCompressed(redis.client().get(b("m2")), other.length);
        assertEquals(5, vc.stats().valuesCompressed());
    }

    @Test
    void hashCommands() {
        // hash values are compressed only when opted in
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().compressHashValues(true).build());
        CompressingJedis jedis = new CompressingJedis(redis.client(), vc);
        byte[] big = b(json(3000));
        byte[] rnd = random(2000, 7);
        assertEquals(1, jedis.hset(b("h"), b("a"), big));
        Map<byte[], byte[]> more = new LinkedHashMap<>();
        more.put(b("b"), b("small"));
        more.put(b("c"), rnd);
        assertEquals(2, jedis.hset(b("h"), more));
        assertArrayEquals(big, jedis.hget(b("h"), b("a")));
        assertNull(jedis.hget(b("h"), b("none")));
        List<byte[]> got = jedis.hmget(b("h"), b("a"), b("none"), b("c"));
        assertArrayEquals(big, got.get(0));
        assertNull(got.get(1));
        assertArrayEquals(rnd, got.get(2));
        Map<String, byte[]> all = new LinkedHashMap<>();
        jedis.hgetAll(b("h")).forEach((k, v) -> all.put(new String(k, StandardCharsets.UTF_8), v));
        assertEquals(3, all.size());
        assertArrayEquals(big, all.get("a"));
        assertArrayEquals(b("small"), all.get("b"));
        assertArrayEquals(rnd, all.get("c"));
        assertEquals(3, jedis.hvals(b("h")).size());
        assertCompressed(redis.client().hget(b("h"), b("a")), big.length);
        assertArrayEquals(rnd, redis.client().hget(b("h"), b("c")), "random bytes do not compress: stored as they are");
    }

    /** {@code hgetAll} returns a map that finds a field by its bytes, as the map Jedis returns does. */
    @Test
    void hgetAllFindsFieldsByTheirBytes() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().compressHashValues(true).build());
        CompressingJedis jedis = new CompressingJedis(redis.client(), vc);
        byte[] big = b(json(4000));
        jedis.hset(b("hf"), b("a"), big);
        jedis.hset(b("hf"), b("b"), b("small"));
        assertNotNull(redis.client().hgetAll(b("hf")).get(b("a")), "Jedis's own map finds a field by its bytes");
        Map<byte[], byte[]> all = jedis.hgetAll(b("hf"));
        assertEquals(2, all.size());
        assertTrue(all.containsKey(b("a")), "containsKey(\"a\")");
        assertArrayEquals(big, all.get(b("a")), "get(\"a\")");
        assertArrayEquals(b("small"), all.get(b("b")), "get(\"b\")");
        assertNull(all.get(b("none")));
    }

    /** What the README and docs/values.md show for plain Jedis: byte[] commands around one shared ValueCompressor. */
    @Test
    void plainByteArrayCommandsAndTheHelperReadEachOther() {
        ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults());
        byte[] value = text(5000);
        redis.client().set(b("plain-usage"), values.compress(value));
        byte[] stored = redis.client().get(b("plain-usage"));
        byte[] back = stored == null ? null : values.decompress(stored);
        assertArrayEquals(value, back);
        assertArrayEquals(value, new CompressingJedis(redis.client(), values).get(b("plain-usage")));
        new CompressingJedis(redis.client(), values).set(b("helper"), value);
        assertArrayEquals(value, values.decompress(redis.client().get(b("helper"))));
    }

    @Test
    void plainValuesWrittenBeforeReadBackUnchanged() {
        CompressingJedis jedis = new CompressingJedis(redis.client(),
                ValueCompressor.create(CompressionConfig.defaults()));
        byte[] v = text(3000);
        redis.client().set(b("old"), v);
        redis.client().hset(b("oldh"), b("f"), v);
        assertArrayEquals(v, jedis.get(b("old")));
        assertArrayEquals(v, jedis.hget(b("oldh"), b("f")));
    }

    /** Nothing lost: a value over the limit written through the wrapper reads back through it and unwrapped. */
    @Test
    void aValueOverTheLimitWrittenByTheWrapperReadsBack() {
        ValueCompressor limited = ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(10_000).build());
        CompressingJedis jedis = new CompressingJedis(redis.client(), limited);
        jedis.set(b("over"), text(10_001));
        assertArrayEquals(text(10_001), jedis.get(b("over")), "wrapped");
        assertArrayEquals(text(10_001), redis.client().get(b("over")), "unwrapped: stored as it is");
        jedis.set(b("at"), text(10_000));
        assertArrayEquals(text(10_000), jedis.get(b("at")), "wrapped");
        assertCompressed(redis.client().get(b("at")), 10_000);
        assertEquals(1, limited.stats().skippedTooLarge());
    }

    @Test
    void valuesOverTheLimitFailAndTheClientStaysUsable() {
        ValueCompressor limited = ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(10_000).build());
        CompressingJedis jedis = new CompressingJedis(redis.client(), limited);
        redis.client().set(b("big"), ValueCompressor.create(CompressionConfig.defaults()).compress(text(20_000)));
        assertThrows(DecompressionLimitException.class, () -> jedis.get(b("big")));
        assertThrows(DecompressionLimitException.class, () -> jedis.mget(b("big")));
        jedis.set(b("ok"), text(9000));
        assertArrayEquals(text(9000), jedis.get(b("ok")));
        assertEquals(2, limited.stats().sizeLimitErrors());
    }
}
