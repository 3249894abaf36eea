package dev.zstdjava.values.spring;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.PatternDecision;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.spring.CompressingRedisSerializerTest.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.HashOperations;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.values.TwoPatterns.adaptive;
import static dev.zstdjava.values.TwoPatterns.b;
import static dev.zstdjava.values.TwoPatterns.blobValue;
import static dev.zstdjava.values.TwoPatterns.decision;
import static dev.zstdjava.values.TwoPatterns.hasHeader;
import static dev.zstdjava.values.TwoPatterns.jsonValue;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link CompressingRedisTemplate} and {@link CompressingStringRedisTemplate} in the adaptive mode on a real server:
 * two key patterns (compressible JSON, random blobs), each value written under its own key's pattern by every
 * compressing operation (the hash's key for hash values, each entry's key for {@code multiSet}); every value read
 * back by the adaptive template and by a fixed one; the blobs stored plain once their pattern has decided; the
 * policy and its refusals as in the fixed mode.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class AdaptiveRedisTemplateTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    private static RedisConnectionFactory lettuce;

    @BeforeAll
    static void connect() {
        lettuce = CompressingRedisSerializerTest.start(Driver.LETTUCE, redis.server().port());
    }

    @AfterAll
    static void disconnect() throws Exception {
        ((DisposableBean) lettuce).destroy();
    }

    static RedisConnectionFactory factory() {
        return lettuce;
    }

    @Test
    void eachKeyIsWrittenUnderItsPattern() {
        AdaptiveCompressor adaptive = adaptive(CompressionConfig.builder().compressHashValues(true).build());
        CompressingRedisTemplate<String, byte[]> template = CompressingRedisTemplate.create(factory(),
                RedisSerializer.byteArray(), adaptive);
        assertSame(adaptive, template.adaptive());
        assertSame(adaptive.reader(), template.compressor());
        ValueOperations<String, byte[]> ops = template.opsForValue();
        Map<String, byte[]> written = new LinkedHashMap<>();
        int n = 24;
        for (int i = 0; i < n; i++) {
            String j = "json:" + i;
            String r = "blob:" + i;
            template.delete(List.of(j, r));
            switch (i % 3) {
                case 0 -> {
                    ops.set(j, jsonValue(i));
                    ops.set(r, blobValue(i), 100, TimeUnit.SECONDS);
                }
                case 1 -> {
                    assertTrue(ops.setIfAbsent(j, jsonValue(i)));
                    assertTrue(ops.setIfAbsent(r, blobValue(i)));
                }
                default -> {
                    template.boundValueOps(j).set(jsonValue(i));
                    template.boundValueOps(r).set(blobValue(i));
                }
            }
            written.put(j, jsonValue(i));
            written.put(r, blobValue(i));
        }
        // MSET and MSETNX: each value under its own entry's key, the patterns interleaved
        Map<String, byte[]> mset = new LinkedHashMap<>();
        for (int i = n; i < n + 4; i++) {
            mset.put("json:" + i, jsonValue(i));
            mset.put("blob:" + i, blobValue(i));
        }
        ops.multiSet(mset);
        written.putAll(mset);
        Map<String, byte[]> msetnx = new LinkedHashMap<>();
        msetnx.put("blob:nx", blobValue(40));
        msetnx.put("json:nx", jsonValue(40));
        template.delete(msetnx.keySet());
        assertTrue(ops.multiSetIfAbsent(msetnx));
        written.putAll(msetnx);

        PatternDecision js = decision(adaptive, "json:*");
        PatternDecision bl = decision(adaptive, "blob:*");
        assertEquals(n + 5, js.valuesSeen(), js.toString());
        assertEquals(n + 5, bl.valuesSeen(), bl.toString());
        assertNotEquals(CompressionOption.PLAIN, js.option(), js.toString());
        assertTrue(js.savedFraction() > 0.5, js.toString());
        assertEquals(CompressionOption.PLAIN, bl.option(), bl.toString());

        CompressingRedisTemplate<String, byte[]> fixed = CompressingRedisTemplate.create(factory(),
                RedisSerializer.byteArray(), ValueCompressor.create(CompressionConfig.defaults()));
        for (Map.Entry<String, byte[]> e : written.entrySet()) {
            String key = e.getKey();
            assertArrayEquals(e.getValue(), ops.get(key), key);
            assertArrayEquals(e.getValue(), fixed.opsForValue().get(key), key);
            byte[] raw = redis.client().get(b(key));
            if (key.startsWith("blob:")) {
                assertArrayEquals(e.getValue(), raw, key + " stored as it is");
            } else {
                assertTrue(hasHeader(raw) && raw.length < e.getValue().length, key + " compressed");
            }
        }
        assertEquals(mset.size(), ops.multiGet(mset.keySet()).size());

        // hash values: under the hash's key, not the field (the fields are named like the JSON keys)
        HashOperations<String, String, byte[]> hash = template.opsForHash();
        template.delete(List.of("blob:hash", "json:hash"));
        for (int i = 0; i < 3; i++) {
            hash.put("blob:hash", "json:f" + i, blobValue(i));
        }
        Map<String, byte[]> fields = new LinkedHashMap<>();
        fields.put("json:f3", blobValue(3));
        fields.put("json:f4", blobValue(4));
        hash.putAll("blob:hash", fields);
        assertTrue(hash.putIfAbsent("json:hash", "blob:f", jsonValue(1)));
        assertEquals(n + 5 + 5, decision(adaptive, "blob:*").valuesSeen());
        assertEquals(n + 5 + 1, decision(adaptive, "json:*").valuesSeen());
        for (int i = 0; i < 5; i++) {
            assertArrayEquals(blobValue(i), redis.client().hget(b("blob:hash"), b("json:f" + i)), "stored as it is");
            assertArrayEquals(blobValue(i), hash.get("blob:hash", "json:f" + i));
        }
        assertTrue(hasHeader(redis.client().hget(b("json:hash"), b("blob:f"))));
        assertArrayEquals(jsonValue(1), hash.get("json:hash", "blob:f"));
    }

    @Test
    void thePolicyAndRefusalsAreTheFixedModes() {
        AdaptiveCompressor adaptive = adaptive(CompressionConfig.defaults());
        CompressingRedisTemplate<String, byte[]> template = CompressingRedisTemplate.create(factory(),
                RedisSerializer.byteArray(), adaptive);
        assertSame(adaptive.config().commandPolicy(), template.policy());
        byte[] v = jsonValue(3);
        // hash values plain by default: not written through the adaptive compressor at all
        template.opsForHash().put("json:h", "f", v);
        assertArrayEquals(v, redis.client().hget(b("json:h"), b("f")));
        // GETSET sends its value plain
        template.delete("json:g");
        assertNull(template.opsForValue().getAndSet("json:g", v));
        assertArrayEquals(v, redis.client().get(b("json:g")));
        // members plain
        template.delete("json:set");
        template.opsForSet().add("json:set", v);
        assertArrayEquals(v, redis.client().smembers(b("json:set")).iterator().next());
        assertEquals(0, decision(adaptive, "json:*").valuesSeen());
        // refused by name, nothing sent, nothing seen
        assertThrows(CommandRefusedException.class, () -> template.opsForValue().append("json:a", "x"));
        assertThrows(CommandRefusedException.class, () -> template.opsForValue().increment("json:c"));
        assertNull(redis.client().get(b("json:a")));
        assertEquals(0, decision(adaptive, "json:*").valuesSeen());
        template.opsForValue().set("json:s", v);
        assertEquals(1, decision(adaptive, "json:*").valuesSeen());
        assertTrue(hasHeader(redis.client().get(b("json:s"))));
        // inside a session callback the operations keep the policy and the keys
        template.execute(new org.springframework.data.redis.core.SessionCallback<Object>() {
            @Override
            @SuppressWarnings("unchecked")
            public <K, V> Object execute(org.springframework.data.redis.core.RedisOperations<K, V> operations) {
                ((RedisTemplate<String, byte[]>) operations).opsForValue().set("json:session", v);
                return null;
            }
        });
        assertEquals(2, decision(adaptive, "json:*").valuesSeen());
        assertArrayEquals(v, template.opsForValue().get("json:session"));
    }

    @Test
    void theStringTemplateWritesUnderEachKey() {
        AdaptiveCompressor adaptive = adaptive(CompressionConfig.defaults());
        CompressingStringRedisTemplate template = new CompressingStringRedisTemplate(factory(), adaptive);
        assertSame(adaptive, template.adaptive());
        String v = json(2000);
        template.opsForValue().set("json:str", v);
        template.opsForValue().multiSet(Map.of("json:str2", v, "other:str", v));
        assertEquals(2, decision(adaptive, "json:*").valuesSeen());
        assertTrue(hasHeader(redis.client().get(b("json:str"))));
        assertEquals(v, template.opsForValue().get("json:str"));
        assertEquals(List.of(v, v), template.opsForValue().multiGet(List.of("json:str2", "other:str")));
        assertThrows(CommandRefusedException.class, () -> template.opsForValue().increment("json:n"));
    }

    @Test
    void aSerializerOfItsOwnWritesUnderItsName() {
        AdaptiveCompressor adaptive = adaptive(CompressionConfig.defaults());
        CompressingRedisSerializer<byte[]> s = CompressingRedisSerializer.forPattern(RedisSerializer.byteArray(),
                adaptive, "blob:cache");
        assertSame(adaptive, s.adaptive());
        assertTrue(s.compresses());
        for (int i = 0; i < 10; i++) {
            byte[] stored = s.serialize(blobValue(i));
            assertArrayEquals(blobValue(i), s.deserialize(stored));
        }
        assertEquals(10, decision(adaptive, "blob:*").valuesSeen());
        assertEquals(CompressionOption.PLAIN, decision(adaptive, "blob:*").option());
        assertArrayEquals(blobValue(11), s.serialize(blobValue(11)), "plain once decided");
        byte[] j = s.serialize(jsonValue(1)); // under the blob pattern's decision: plain too
        assertArrayEquals(jsonValue(1), j);
    }
}
