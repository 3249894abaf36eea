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

import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
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

    /** @return an unwrapped {@code RedisTemplate} of the same serializers, to compare Spring's contract with */
    private static RedisTemplate<String, byte[]> plainTemplate() {
        RedisTemplate<String, byte[]> t = new RedisTemplate<>();
        t.setConnectionFactory(factory());
        t.setKeySerializer(RedisSerializer.string());
        t.setHashKeySerializer(RedisSerializer.string());
        t.setValueSerializer(RedisSerializer.byteArray());
        t.setHashValueSerializer(RedisSerializer.byteArray());
        t.afterPropertiesSet();
        return t;
    }

    /**
     * A map view whose entries compute their value on every {@code getValue()} (as a transforming view does): each
     * call returns a new array, stamped with the call's number, and is recorded.
     */
    private static final class ComputedMap extends AbstractMap<String, byte[]> {
        private final List<String> keys;
        /** every value {@code getValue()} returned, in call order */
        final List<byte[]> given = new ArrayList<>();
        /** the last value {@code getValue()} returned for each key */
        final Map<String, byte[]> lastGiven = new HashMap<>();

        ComputedMap(List<String> keys) {
            this.keys = keys;
        }

        private byte[] compute(String key) {
            int i = Integer.parseInt(key.substring(key.lastIndexOf('c') + 1));
            byte[] base = key.startsWith("json:") ? jsonValue(i) : blobValue(i);
            byte[] stamp = ("#" + given.size()).getBytes(StandardCharsets.US_ASCII);
            byte[] v = Arrays.copyOf(base, base.length + stamp.length);
            System.arraycopy(stamp, 0, v, base.length, stamp.length);
            given.add(v);
            lastGiven.put(key, v);
            return v;
        }

        @Override
        public Set<Entry<String, byte[]>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Entry<String, byte[]>> iterator() {
                    Iterator<String> k = keys.iterator();
                    return new Iterator<>() {
                        @Override
                        public boolean hasNext() {
                            return k.hasNext();
                        }

                        @Override
                        public Entry<String, byte[]> next() {
                            String key = k.next();
                            return new Entry<>() {
                                @Override
                                public String getKey() {
                                    return key;
                                }

                                @Override
                                public byte[] getValue() {
                                    return compute(key);
                                }

                                @Override
                                public byte[] setValue(byte[] value) {
                                    throw new UnsupportedOperationException();
                                }
                            };
                        }
                    };
                }

                @Override
                public int size() {
                    return keys.size();
                }
            };
        }
    }

    @Test
    void multiSetWritesTheValuesAComputingMapGivesOnceEachUnderItsKey() {
        AdaptiveCompressor adaptive = adaptive(CompressionConfig.defaults());
        CompressingRedisTemplate<String, byte[]> template = CompressingRedisTemplate.create(factory(),
                RedisSerializer.byteArray(), adaptive);
        RedisTemplate<String, byte[]> plain = plainTemplate();
        List<String> keys = List.of("json:c0", "blob:c0", "json:c1", "blob:c1", "json:c2", "blob:c2");
        for (boolean ifAbsent : new boolean[] {false, true}) {
            List<Object> results = new ArrayList<>();
            for (RedisTemplate<String, byte[]> t : List.of(plain, template)) {
                String which = (t == plain ? "plain " : "adaptive ") + (ifAbsent ? "multiSetIfAbsent" : "multiSet");
                t.delete(keys);
                ComputedMap m = new ComputedMap(keys);
                if (ifAbsent) {
                    results.add(t.opsForValue().multiSetIfAbsent(m));
                } else {
                    t.opsForValue().multiSet(m);
                    results.add(null);
                }
                assertEquals(keys.size(), m.given.size(), which + ": getValue() once per entry");
                for (String key : keys) {
                    assertArrayEquals(m.lastGiven.get(key), template.opsForValue().get(key), which + " " + key);
                }
                if (t == template) {
                    assertTrue(hasHeader(redis.client().get(b("json:c2"))), which + ": JSON compressed");
                }
            }
            assertEquals(results.get(0), results.get(1), "as the plain template");
        }
        // each value under its own key's pattern (three of each per call, two calls)
        assertEquals(6, decision(adaptive, "json:*").valuesSeen());
        assertEquals(6, decision(adaptive, "blob:*").valuesSeen());
    }

    @Test
    void equalKeysGivenAsDistinctObjectsAreWrittenAsThePlainTemplateWritesThem() {
        AdaptiveCompressor adaptive = adaptive(CompressionConfig.builder().compressHashValues(true).build());
        CompressingRedisTemplate<String, byte[]> template = CompressingRedisTemplate.create(factory(),
                RedisSerializer.byteArray(), adaptive);
        RedisTemplate<String, byte[]> plain = plainTemplate();
        Map<String, byte[]> m = new IdentityHashMap<>();
        m.put("json:d", jsonValue(1));
        m.put(new String("json:d"), jsonValue(2));
        m.put("blob:d", blobValue(1));
        m.put(new String("blob:d"), blobValue(2));
        m.put("json:e", jsonValue(3));
        List<String> keys = List.of("json:d", "blob:d", "json:e", "json:h");
        Map<String, byte[]> fields = new IdentityHashMap<>();
        fields.put("f", jsonValue(4));
        fields.put(new String("f"), jsonValue(5));
        fields.put("g", jsonValue(6));
        List<List<String>> seen = new ArrayList<>();
        for (RedisTemplate<String, byte[]> t : List.of(plain, template)) {
            t.delete(keys);
            t.opsForValue().multiSet(m);
            List<String> state = new ArrayList<>();
            for (String key : List.of("json:d", "blob:d", "json:e")) {
                state.add(key + "=" + Arrays.hashCode(template.opsForValue().get(key)));
            }
            t.delete(keys);
            state.add("msetnx " + t.opsForValue().multiSetIfAbsent(m));
            state.add("msetnx again " + t.opsForValue().multiSetIfAbsent(m));
            for (String key : List.of("json:d", "blob:d", "json:e")) {
                state.add(key + "=" + Arrays.hashCode(template.opsForValue().get(key)));
            }
            t.<String, byte[]>opsForHash().putAll("json:h", fields);
            for (String f : List.of("f", "g")) {
                state.add("h." + f + "=" + Arrays.hashCode(
                        template.<String, byte[]>opsForHash().get("json:h", f)));
            }
            seen.add(state);
        }
        assertEquals(seen.get(0), seen.get(1));
        // MSET once, MSETNX twice (the second refused by the server, its values serialized all the same), HMSET once
        assertEquals(3 * 3 + 3, decision(adaptive, "json:*").valuesSeen());
        assertEquals(2 * 3, decision(adaptive, "blob:*").valuesSeen());
        assertTrue(hasHeader(redis.client().get(b("json:e"))));
        assertTrue(hasHeader(redis.client().hget(b("json:h"), b("g"))));
    }

    @Test
    void multiSetWithANullValueEndsAsThePlainTemplateEnds() {
        // Spring Data Redis 4.0 and later serialize null as an empty value with the byte array (and string)
        // serializer; 3.5's, like the one here, return null, which Spring hands the connection
        RedisSerializer<String> nullAsNull = new RedisSerializer<>() {
            @Override
            public byte[] serialize(String value) {
                return value == null ? null : value.getBytes(StandardCharsets.UTF_8);
            }

            @Override
            public String deserialize(byte[] bytes) {
                return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
            }
        };
        for (RedisSerializer<?> serializer : List.of(RedisSerializer.byteArray(), nullAsNull)) {
            nullValue(serializer);
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static void nullValue(RedisSerializer serializer) {
        AdaptiveCompressor adaptive = adaptive(CompressionConfig.defaults());
        CompressingRedisTemplate<String, Object> template = CompressingRedisTemplate.create(factory(), serializer,
                adaptive);
        RedisTemplate<String, Object> plain = new RedisTemplate<>();
        plain.setConnectionFactory(factory());
        plain.setKeySerializer(RedisSerializer.string());
        plain.setValueSerializer(serializer);
        plain.afterPropertiesSet();
        Object v = serializer.deserialize(jsonValue(1));
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("json:n0", null);
        m.put("json:n1", v);
        m.put("json:n2", v);
        List<String> outcomes = new ArrayList<>();
        for (RedisTemplate<String, Object> t : List.of(plain, template)) {
            t.delete(List.copyOf(m.keySet()));
            String outcome;
            try {
                t.opsForValue().multiSet(m);
                outcome = "ok";
            } catch (RuntimeException e) {
                outcome = e.getClass().getName() + ": " + e.getMessage();
            }
            outcomes.add(outcome + " " + Arrays.toString(redis.client().get(b("json:n0"))) + " "
                    + Objects.deepEquals(v, template.opsForValue().get("json:n1")) + " "
                    + Objects.deepEquals(v, template.opsForValue().get("json:n2")));
        }
        assertEquals(outcomes.get(0), outcomes.get(1), "as the plain template");
        assertEquals(2, decision(adaptive, "json:*").valuesSeen(), "the null value is not compressed");
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
