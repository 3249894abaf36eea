package dev.zstdjava.values.spring;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.spring.CompressingRedisSerializerTest.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.util.LinkedHashMap;
import java.util.Map;

import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The operations of Spring Data Redis 4.1 that compare values ({@code SetSpec}, {@code compareAndSet},
 * {@code DeleteSpec}): refused by name before anything is sent, and the ones that do not compare sent. Runs on 4.1
 * only (the older lines' runs leave this class out: it calls methods they lack); {@link CompressingRedisTemplateTest}
 * covers what every line has.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingRedisTemplateSpecTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();
    static RedisConnectionFactory factory;

    @AfterAll
    static void stop() throws Exception {
        if (factory != null) {
            ((DisposableBean) factory).destroy();
        }
    }

    @Test
    void comparingSpecsAreRefusedByNameAndNothingIsSent() {
        ValueCompressor vc = CompressingRedisTemplateTest.compressor(CompressionBackend.ZSTD, true);
        factory = CompressingRedisSerializerTest.start(Driver.LETTUCE, redis.server().port());
        CompressingRedisTemplate<String, String> t = CompressingRedisTemplate.create(factory, RedisSerializer.string(), vc);
        redis.client().set(CompressingRedisTemplateTest.b("r:counter"), CompressingRedisTemplateTest.b("10"));
        ValueOperations<String, String> v = t.opsForValue();
        Map<String, Executable> refused = new LinkedHashMap<>();
        refused.put("SET ... IFEQ", () -> v.compareAndSet("r:counter", "10", "11"));
        refused.put("SET ... IFNE", () -> v.set("r:counter", "11", spec -> spec.ifNotEquals().value("10")));
        refused.put("SET ... IFDEQ", () -> v.setGet("r:counter", "11", spec -> spec.ifEquals().digest("abc")));
        // Spring sends DELEX key IFEQ value, as for compareAndDelete
        refused.put("DELEX ... IFEQ", () -> t.delete("r:counter", spec -> spec.ifEquals().value("10")));
        refused.put("DELEX ... IFDNE", () -> t.delete("r:counter", spec -> spec.ifNotEquals().digest("abc")));
        // through a StringRedisTemplate reference: the overrides are reached
        StringRedisTemplate plain = new CompressingStringRedisTemplate(factory, vc);
        refused.put("DELEX ... IFEQ ", () -> plain.compareAndDelete("r:counter", "10"));
        refused.put("DELEX ... IFNE", () -> plain.delete("r:counter", spec -> spec.ifNotEquals().value("10")));
        CompressingRedisTemplateTest.assertRefusedAndNothingSent(redis, refused);
        // a set or delete whose spec does not compare is sent
        v.set("r:other", json(500));
        assertTrue(v.set("r:other", json(600), spec -> spec.ifPresent()));
        assertEquals(json(600), v.get("r:other"));
        assertTrue(t.delete("r:other", spec -> spec.always()));
        assertFalse(redis.client().exists(CompressingRedisTemplateTest.b("r:other")));
        assertThrows(CommandRefusedException.class, () -> v.compareAndSet("r:counter", "10", "12"));
    }
}
