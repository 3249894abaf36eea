package dev.zstdjava.values.spring;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.ValueFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.Map;

import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/** The Spring serializer on a real server, over Spring's Lettuce and Jedis connection factories. */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingRedisSerializerTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    enum Driver { LETTUCE, JEDIS }

    static final Map<Driver, RedisConnectionFactory> FACTORIES = new EnumMap<>(Driver.class);

    @AfterAll
    static void stop() throws Exception {
        for (RedisConnectionFactory f : FACTORIES.values()) {
            ((org.springframework.beans.factory.DisposableBean) f).destroy();
        }
    }

    /** @return the started Spring connection factory of the given kind for the test server, one per class */
    static RedisConnectionFactory factory(Driver driver) {
        return FACTORIES.computeIfAbsent(driver, d -> start(d, redis.server().port()));
    }

    /** @return a started Spring connection factory of the given kind for the server on {@code port} */
    static RedisConnectionFactory start(Driver driver, int port) {
        RedisStandaloneConfiguration conf = new RedisStandaloneConfiguration(RedisServer.HOST, port);
        if (driver == Driver.LETTUCE) {
            LettuceConnectionFactory f = new LettuceConnectionFactory(conf);
            f.afterPropertiesSet();
            f.start();
            return f;
        }
        JedisConnectionFactory f = new JedisConnectionFactory(conf);
        f.afterPropertiesSet();
        f.start();
        return f;
    }

    static RedisTemplate<String, String> strings(Driver driver, ValueCompressor vc) {
        RedisTemplate<String, String> t = new RedisTemplate<>();
        t.setConnectionFactory(factory(driver));
        t.setKeySerializer(RedisSerializer.string());
        t.setHashKeySerializer(RedisSerializer.string());
        t.setValueSerializer(CompressingRedisSerializer.wrap(RedisSerializer.string(), vc));
        t.setHashValueSerializer(CompressingRedisSerializer.wrap(RedisSerializer.string(), vc));
        t.afterPropertiesSet();
        return t;
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void valuesAndHashValuesCompressKeysDoNot(Driver driver) {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        RedisTemplate<String, String> t = strings(driver, vc);
        String big = json(5000);
        t.opsForValue().set("s:big", big);
        t.opsForValue().set("s:small", "tiny");
        t.opsForHash().putAll("s:hash", Map.of("f1", big, "f2", "small"));
        assertEquals(big, t.opsForValue().get("s:big"));
        assertEquals("tiny", t.opsForValue().get("s:small"));
        assertEquals(big, t.opsForHash().get("s:hash", "f1"));
        assertEquals(Map.of("f1", big, "f2", "small"), t.opsForHash().entries("s:hash"));
        assertNull(t.opsForValue().get("s:missing"));

        // what the server holds: plain keys and field names, compressed values with the shared header
        byte[] stored = redis.client().get(b("s:big"));
        assertTrue(ValueFormat.hasHeader(java.nio.ByteBuffer.wrap(stored)));
        assertTrue(stored.length < big.length() / 3, "stored " + stored.length);
        assertArrayEquals(b(big), vc.decompress(stored));
        assertArrayEquals(b("tiny"), redis.client().get(b("s:small")));
        byte[] field = redis.client().hget(b("s:hash"), b("f1"));
        assertArrayEquals(b(big), vc.decompress(field));
        assertTrue(field.length < big.length() / 3);
        assertEquals(2, vc.stats().valuesCompressed());
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void readsPlainValuesAndValuesOtherClientsCompressed(Driver driver) {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        RedisTemplate<String, String> t = strings(driver, vc);
        String v = new String(text(3000), StandardCharsets.US_ASCII);
        redis.client().set(b("p:plain"), b(v));   // written before compression was turned on
        ValueCompressor lz4 = ValueCompressor.create(CompressionConfig.builder().backend(CompressionBackend.LZ4).build());
        redis.client().set(b("p:lz4"), lz4.compress(b(v)));
        assertEquals(v, t.opsForValue().get("p:plain"));
        assertEquals(v, t.opsForValue().get("p:lz4"));
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void valuesOverTheLimitFailWithDecompressionLimitException(Driver driver) {
        ValueCompressor limited = ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(10_000).build());
        RedisTemplate<String, String> t = strings(driver, limited);
        redis.client().set(b("l:big"), ValueCompressor.create(CompressionConfig.defaults()).compress(text(20_000)));
        Throwable e = assertThrows(RuntimeException.class, () -> t.opsForValue().get("l:big"));
        assertInstanceOf(DecompressionLimitException.class, e, "not wrapped: " + e);
        t.opsForValue().set("l:ok", "still usable " + json(500));
        assertEquals("still usable " + json(500), t.opsForValue().get("l:ok"));
        assertEquals(1, limited.stats().sizeLimitErrors());
    }

    record Session(String user, String payload) implements Serializable {}

    @ParameterizedTest
    @EnumSource(Driver.class)
    void compressValuesLeavesHashValuesPlainByDefault(Driver driver) {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        RedisTemplate<String, String> t = new RedisTemplate<>();
        t.setConnectionFactory(factory(driver));
        t.setKeySerializer(RedisSerializer.string());
        t.setHashKeySerializer(RedisSerializer.string());
        t.setValueSerializer(RedisSerializer.string());
        t.setHashValueSerializer(RedisSerializer.string());
        CompressingRedisSerializer.compressValues(t, vc);
        t.afterPropertiesSet();
        String big = json(4000);
        t.opsForHash().put("plainhash", "f", big);
        assertArrayEquals(b(big), redis.client().hget(b("plainhash"), b("f")));
        redis.client().hset(b("plainhash"), b("g"), vc.compress(b(big))); // compressed by an earlier build
        assertEquals(big, t.opsForHash().get("plainhash", "g"));
        assertFalse(((CompressingRedisSerializer<?>) t.getHashValueSerializer()).compresses());
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void compressValuesWrapsTheTemplatesValueSerializersOnly(Driver driver) {
        // hash values opted in (without it they are written plain: compressValuesLeavesHashValuesPlainByDefault)
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().compressHashValues(true).build());
        RedisTemplate<String, Object> t = new RedisTemplate<>();
        t.setConnectionFactory(factory(driver));
        t.setKeySerializer(RedisSerializer.string());
        t.setHashKeySerializer(RedisSerializer.string());
        CompressingRedisSerializer.compressValues(t, vc); // value serializers unset: the JDK default, compressed
        t.afterPropertiesSet();
        assertInstanceOf(CompressingRedisSerializer.class, t.getValueSerializer());
        assertInstanceOf(CompressingRedisSerializer.class, t.getHashValueSerializer());
        assertSame(RedisSerializer.string().getClass(), t.getKeySerializer().getClass());
        Session s = new Session("alice", json(4000));
        t.opsForValue().set("session:alice", s);
        t.opsForHash().put("sessions", "alice", s);
        assertEquals(s, t.opsForValue().get("session:alice"));
        assertEquals(s, t.opsForHash().get("sessions", "alice"));
        assertTrue(ValueFormat.hasHeader(java.nio.ByteBuffer.wrap(redis.client().get(b("session:alice")))));
        assertTrue(ValueFormat.hasHeader(java.nio.ByteBuffer.wrap(redis.client().hget(b("sessions"), b("alice")))));
        assertEquals(2, vc.stats().valuesCompressed());
    }
}
