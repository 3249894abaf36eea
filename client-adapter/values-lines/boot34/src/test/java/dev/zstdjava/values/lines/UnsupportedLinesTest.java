package dev.zstdjava.values.lines;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.jedis.CompressingJedis;
import dev.zstdjava.values.spring.CompressingRedisSerializer;
import dev.zstdjava.values.spring.CompressingRedisTemplate;
import dev.zstdjava.values.spring.CompressingStringRedisTemplate;
import dev.zstdjava.values.spring.SpringDictionaryStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;
import redis.clients.jedis.Protocol;

import static org.junit.jupiter.api.Assertions.*;

/**
 * On the client lines Spring Boot 3.4 manages, one line older than each supported range (Jedis 5.2, Spring Data Redis
 * 3.4), {@code CompressingJedis} and the Spring serializer, templates and dictionary store fail when created, with a
 * message naming the supported range and the version found, while the old clients themselves work against the same
 * server.
 */
class UnsupportedLinesTest {
    /** Jedis's own client (a pooled {@code UnifiedJedis}), which 5.2 supports */
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    /** the versions the pom puts on the class path (the client-adapter parent passes them) */
    static final String JEDIS = System.getProperty("zstdjava.lines.jedis");
    static final String SPRING_DATA_REDIS = System.getProperty("zstdjava.lines.spring-data-redis");

    static final String JEDIS_REFUSAL = " needs " + ClientLines.JEDIS + "; the redis.clients.jedis from jedis-" + JEDIS
            + ".jar on the class path lacks redis.clients.jedis.params.HSetExParams";
    static final String SPRING_REFUSAL = " needs " + ClientLines.SPRING_DATA_REDIS
            + "; the org.springframework.data.redis.core " + SPRING_DATA_REDIS
            + " on the class path lacks ValueOperations.setGet(key, value, Duration)";

    static JedisConnectionFactory factory;

    @AfterAll
    static void stop() {
        if (factory != null) {
            factory.destroy();
        }
    }

    /** Spring Data Redis 3.4's own Jedis connection factory for the test server, started once */
    static JedisConnectionFactory factory() {
        if (factory == null) {
            factory = new JedisConnectionFactory(new RedisStandaloneConfiguration(RedisServer.HOST,
                    redis.server().port()));
            factory.afterPropertiesSet();
            factory.start();
        }
        return factory;
    }

    static ValueCompressor compressor() {
        return ValueCompressor.create(CompressionConfig.defaults());
    }

    @Test
    void theseAreTheLinesJustBelowTheRanges() {
        // a change to a range must revisit this module: these lines must stay one below it
        assertEquals("Jedis 6.0 to 8.x", ClientLines.JEDIS);
        assertEquals("Spring Data Redis 3.5 to 4.1", ClientLines.SPRING_DATA_REDIS);
        assertEquals("5.2.0", JEDIS);
        assertEquals("3.4.10", SPRING_DATA_REDIS);
        assertTrue(jar(Protocol.class).endsWith("/jedis-5.2.0.jar"), jar(Protocol.class));
        assertTrue(jar(RedisTemplate.class).endsWith("/spring-data-redis-3.4.10.jar"), jar(RedisTemplate.class));
    }

    @Test
    void theOldClientsThemselvesWork() {
        redis.client().set("jedis", "5.2");
        assertEquals("5.2", redis.client().get("jedis"), "Jedis 5.2 itself works");

        StringRedisTemplate template = new StringRedisTemplate(factory());
        template.opsForValue().set("spring", "3.4");
        assertEquals("3.4", template.opsForValue().get("spring"), "Spring Data Redis 3.4 itself works");
        assertEquals("5.2", template.opsForValue().get("jedis"), "and sees what Jedis wrote");
    }

    @Test
    void compressingJedisFailsWhenCreated() {
        ValueCompressor vc = compressor();
        assertUnsupported("CompressingJedis" + JEDIS_REFUSAL, () -> new CompressingJedis(redis.client(), vc));
    }

    @Test
    void theSpringSerializerFailsWhenCreated() {
        ValueCompressor vc = compressor();
        String expected = "CompressingRedisSerializer" + SPRING_REFUSAL;
        assertUnsupported(expected, () -> CompressingRedisSerializer.wrap(RedisSerializer.string(), vc));
        assertUnsupported(expected, () -> CompressingRedisSerializer.wrap(RedisSerializer.string(),
                CompressionConfig.defaults()));
        assertUnsupported(expected, () -> CompressingRedisSerializer.reading(RedisSerializer.string(), vc));
        RedisTemplate<String, String> plain = new RedisTemplate<>();
        plain.setConnectionFactory(factory());
        plain.setValueSerializer(RedisSerializer.string());
        plain.setHashValueSerializer(RedisSerializer.string());
        assertUnsupported(expected, () -> CompressingRedisSerializer.compressValues(plain, vc));
    }

    @Test
    void theSpringTemplatesFailWhenCreated() {
        ValueCompressor vc = compressor();
        // the string template is made of a CompressingRedisTemplate, whose check names it
        String expected = "CompressingRedisTemplate" + SPRING_REFUSAL;
        assertUnsupported(expected, () -> new CompressingRedisTemplate<String, String>(vc));
        assertUnsupported(expected, () -> new CompressingRedisTemplate<String, String>(CompressionConfig.defaults()));
        assertUnsupported(expected, () -> CompressingRedisTemplate.create(factory(), RedisSerializer.string(), vc));
        assertUnsupported(expected, () -> new CompressingStringRedisTemplate(vc));
        assertUnsupported(expected, () -> new CompressingStringRedisTemplate(factory(), vc));
    }

    @Test
    void theSpringDictionaryStoreFailsWhenCreated() {
        String expected = "SpringDictionaryStore" + SPRING_REFUSAL;
        assertUnsupported(expected, () -> new SpringDictionaryStore(factory()));
        assertUnsupported(expected, () -> new SpringDictionaryStore(factory(), "app:dict:{app-dictionaries}:", 1 << 20));
    }

    static void assertUnsupported(String expected, Executable create) {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, create, expected);
        assertEquals(expected, e.getMessage());
    }

    static String jar(Class<?> type) {
        return type.getProtectionDomain().getCodeSource().getLocation().getPath();
    }
}
