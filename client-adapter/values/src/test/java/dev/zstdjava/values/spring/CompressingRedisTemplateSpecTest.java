package dev.zstdjava.values.spring;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionConfig;
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
import org.springframework.data.redis.serializer.GenericJackson2JsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/**
 * What Spring Data Redis 4.1 adds. The operations that compare values ({@code SetSpec}, {@code compareAndSet},
 * {@code DeleteSpec}): refused by name before anything is sent, and the ones that do not compare sent. The typed read
 * {@code RedisSerializer.deserialize(bytes, type)}: a wrapped serializer reads into the type as the serializer it
 * wraps does, side by side with the unwrapped one, and decodes a compressed value first. Runs on 4.1
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

    static RedisConnectionFactory factory() {
        if (factory == null) {
            factory = CompressingRedisSerializerTest.start(Driver.LETTUCE, redis.server().port());
        }
        return factory;
    }

    @Test
    void comparingSpecsAreRefusedByNameAndNothingIsSent() {
        ValueCompressor vc = CompressingRedisTemplateTest.compressor(CompressionBackend.ZSTD, true);
        factory();
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

    /** A type the JSON does not name: only a typed read turns the document into it. */
    public record Person(String name, int age) {}

    @Test
    void aTypedReadReadsIntoTheTypeAsTheWrappedSerializerDoes() {
        String document = "{\"name\":\"Ann\",\"age\":41}";
        byte[] key = "person:1".getBytes(StandardCharsets.UTF_8);
        redis.client().set(key, document.getBytes(StandardCharsets.UTF_8)); // as a plain client (or GLIDE) stored it
        byte[] stored = redis.client().get(key);
        // an application's ObjectMapper, without default typing: documents carry no type information
        RedisSerializer<Object> json = new GenericJackson2JsonRedisSerializer(new ObjectMapper());
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        RedisSerializer<Object> wrapped = CompressingRedisSerializer.wrap(json, vc);
        RedisSerializer<?> templates = CompressingRedisTemplate.create(factory(), json, vc).getValueSerializer();

        Person expected = new Person("Ann", 41);
        assertEquals(expected, json.deserialize(stored, Person.class), "the unwrapped serializer");
        assertEquals(expected, wrapped.deserialize(stored, Person.class), "the wrapped serializer");
        assertEquals(expected, templates.deserialize(stored, Person.class), "a compressing template's serializer");
        assertNull(wrapped.deserialize(null, Person.class));

        // the same document stored compressed: decoded, then read into the type by the wrapped serializer
        byte[] big = ("{\"name\":\"" + "Ann ".repeat(200) + "\",\"age\":41}").getBytes(StandardCharsets.UTF_8);
        redis.client().set(key, vc.compress(big));
        byte[] compressed = redis.client().get(key);
        assertArrayEquals(big, vc.decompress(compressed));
        Person longName = new Person("Ann ".repeat(200), 41);
        assertEquals(longName, json.deserialize(big, Person.class));
        assertEquals(longName, wrapped.deserialize(compressed, Person.class));
        assertEquals(longName, templates.deserialize(compressed, Person.class));
    }
}

