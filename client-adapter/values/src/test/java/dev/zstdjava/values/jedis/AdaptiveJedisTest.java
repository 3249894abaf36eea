package dev.zstdjava.values.jedis;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.PatternDecision;
import dev.zstdjava.values.ValueCompressor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.CompareCondition;

import java.util.LinkedHashMap;
import java.util.Map;

import static dev.zstdjava.values.TwoPatterns.adaptive;
import static dev.zstdjava.values.TwoPatterns.b;
import static dev.zstdjava.values.TwoPatterns.blobValue;
import static dev.zstdjava.values.TwoPatterns.decision;
import static dev.zstdjava.values.TwoPatterns.hasHeader;
import static dev.zstdjava.values.TwoPatterns.jsonValue;
import static org.junit.jupiter.api.Assertions.*;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@link CompressingJedis} in the adaptive mode on a real server: two key patterns (compressible JSON, random blobs),
 * each value written under its own key's pattern by every compressing method; every value read back by the adaptive
 * client and by a fixed one; the blobs stored plain once their pattern has decided.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class AdaptiveJedisTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    @Test
    void eachKeyIsWrittenUnderItsPattern() {
        AdaptiveCompressor adaptive = adaptive(CompressionConfig.builder().compressHashValues(true).build());
        CompressingJedis jedis = new CompressingJedis(redis.client(), adaptive);
        assertSame(adaptive, jedis.adaptive());
        assertSame(adaptive.reader(), jedis.compressor());
        Map<String, byte[]> written = new LinkedHashMap<>();
        int n = 24;
        for (int i = 0; i < n; i++) {
            String j = "json:" + i;
            String r = "blob:" + i;
            switch (i % 3) {
                case 0 -> {
                    assertEquals("OK", jedis.set(b(j), jsonValue(i)));
                    assertEquals("OK", jedis.set(b(r), blobValue(i), CompressingJedisTest.ex(100)));
                }
                case 1 -> {
                    assertEquals("OK", jedis.setex(b(j), 100, jsonValue(i)));
                    assertEquals("OK", jedis.setex(b(r), 100, blobValue(i)));
                }
                default -> {
                    assertNull(jedis.setGet(b(j), jsonValue(i)));
                    assertNull(jedis.setGet(b(r), blobValue(i)));
                }
            }
            written.put(j, jsonValue(i));
            written.put(r, blobValue(i));
        }
        // MSET: each value under its own key's pattern
        for (int i = n; i < n + 4; i++) {
            assertEquals("OK", jedis.mset(b("json:" + i), jsonValue(i), b("blob:" + i), blobValue(i)));
            written.put("json:" + i, jsonValue(i));
            written.put("blob:" + i, blobValue(i));
        }

        PatternDecision js = decision(adaptive, "json:*");
        PatternDecision bl = decision(adaptive, "blob:*");
        assertEquals(n + 4, js.valuesSeen(), js.toString());
        assertEquals(n + 4, bl.valuesSeen(), bl.toString());
        assertNotEquals(CompressionOption.PLAIN, js.option(), js.toString());
        assertTrue(js.savedFraction() > 0.5, js.toString());
        assertEquals(CompressionOption.PLAIN, bl.option(), bl.toString());

        CompressingJedis fixed = new CompressingJedis(redis.client(),
                ValueCompressor.create(CompressionConfig.defaults()));
        for (Map.Entry<String, byte[]> e : written.entrySet()) {
            byte[] key = b(e.getKey());
            assertArrayEquals(e.getValue(), jedis.get(key), e.getKey());
            assertArrayEquals(e.getValue(), fixed.get(key), e.getKey());
            byte[] raw = redis.client().get(key);
            if (e.getKey().startsWith("blob:")) {
                assertArrayEquals(e.getValue(), raw, e.getKey() + " stored as it is");
                assertFalse(hasHeader(raw), e.getKey());
            } else {
                assertTrue(hasHeader(raw) && raw.length < e.getValue().length, e.getKey() + " compressed");
            }
        }

        // HSET: by the hash's key, not the field (the fields are named like the JSON keys)
        for (int i = 0; i < 3; i++) {
            assertEquals(1, jedis.hset(b("blob:hash"), b("json:f" + i), blobValue(i)));
        }
        Map<byte[], byte[]> fields = new LinkedHashMap<>();
        fields.put(b("json:f3"), blobValue(3));
        fields.put(b("json:f4"), blobValue(4));
        assertEquals(2, jedis.hset(b("blob:hash"), fields));
        assertEquals(1, jedis.hset(b("json:hash"), b("blob:f"), jsonValue(1)));
        assertEquals(n + 4 + 5, decision(adaptive, "blob:*").valuesSeen());
        assertEquals(n + 4 + 1, decision(adaptive, "json:*").valuesSeen());
        for (int i = 0; i < 5; i++) {
            byte[] field = b("json:f" + i);
            assertArrayEquals(blobValue(i), redis.client().hget(b("blob:hash"), field), "stored as it is");
            assertArrayEquals(blobValue(i), jedis.hget(b("blob:hash"), field));
        }
        assertTrue(hasHeader(redis.client().hget(b("json:hash"), b("blob:f"))));
        assertArrayEquals(jsonValue(1), fixed.hget(b("json:hash"), b("blob:f")));
        assertArrayEquals(jsonValue(1), jedis.hget(b("json:hash"), b("blob:f")));
    }

    @Test
    void thePolicyIsTheFixedModes() {
        // hash values plain by default, as in the fixed mode: not written through the adaptive compressor at all
        AdaptiveCompressor adaptive = adaptive(CompressionConfig.defaults());
        CompressingJedis jedis = new CompressingJedis(redis.client(), adaptive);
        assertSame(adaptive.config().commandPolicy(), jedis.policy());
        byte[] v = jsonValue(3);
        jedis.hset(b("json:h"), b("f"), v);
        assertArrayEquals(v, redis.client().hget(b("json:h"), b("f")));
        assertEquals(0, decision(adaptive, "json:*").valuesSeen());
        // GETSET sends its value plain, as in the fixed mode
        assertNull(jedis.getSet(b("json:g"), v));
        assertArrayEquals(v, redis.client().get(b("json:g")));
        assertEquals(0, decision(adaptive, "json:*").valuesSeen());
        jedis.set(b("json:s"), v);
        assertEquals(1, decision(adaptive, "json:*").valuesSeen());
        assertTrue(hasHeader(redis.client().get(b("json:s"))));
    }

    @Test
    void refusalsAreTheFixedModes() {
        // the value conditions exist only on the newer Jedis lines (values-lines runs this class on older ones)
        assumeTrue(present("redis.clients.jedis.util.CompareCondition"), "no SET value conditions on this Jedis");
        CompressingJedis jedis = new CompressingJedis(redis.client(), adaptive(CompressionConfig.defaults()));
        byte[] v = jsonValue(1);
        SetParams ifeq = Conditions.ifEq(v);
        assertThrows(CommandRefusedException.class, () -> jedis.set(b("json:1"), v, ifeq));
        assertNull(redis.client().get(b("json:1")));
        assertEquals(0, decision(jedis.adaptive(), "json:*").valuesSeen());
    }

    static boolean present(String className) {
        try {
            Class.forName(className, false, AdaptiveJedisTest.class.getClassLoader());
            return true;
        } catch (ClassNotFoundException e) {
            return false;
        }
    }

    /** Loaded only where the condition classes exist. */
    static final class Conditions {
        static SetParams ifEq(byte[] value) {
            return new SetParams().condition(CompareCondition.valueEq(value));
        }
    }
}
