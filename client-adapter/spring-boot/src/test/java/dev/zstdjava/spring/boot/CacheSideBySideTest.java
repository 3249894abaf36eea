package dev.zstdjava.spring.boot;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.spring.CompressingRedisSerializer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.Cache;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.RedisElementReader;
import org.springframework.data.redis.serializer.RedisElementWriter;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot's caches with the cache compression on behave as without it ({@code caches=false}), side by side on a real
 * server: only the stored bytes differ (compressed; decoded here before comparing).
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CacheSideBySideTest {
    private static final String P = RedisCompressionProperties.PREFIX + ".";
    private static final String BIG = "a cached value worth compressing; ".repeat(40);
    /** the context being started: the application's cache customizer takes the compressor bean from it */
    private static final AtomicReference<ConfigurableApplicationContext> CONTEXT = new AtomicReference<>();
    /** a server for this class, emptied before each test */
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class Caching {
    }

    /** The application with the cache compression on ({@code caches=true}) or off, over the test's server. */
    private static ApplicationContextRunner runner(String caches) {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedisCompressionAutoConfiguration.class,
                        RedisCompressionCacheAutoConfiguration.class, BootLine.redis(), BootLine.cache()))
                .withUserConfiguration(Caching.class)
                .withInitializer(CONTEXT::set)
                .withPropertyValues("spring.data.redis.host=" + RedisServer.HOST,
                        "spring.data.redis.port=" + redis.server().port(), "spring.cache.type=redis", P + "enabled=true",
                        P + "caches=" + caches);
    }

    /**
     * The cache settings other than the value serialization: the null-value policy (a null cached and read back as
     * a cached null; refused by name with {@code disableCachingNullValues}), a TTL function (each entry's own TTL),
     * Boot's key prefix and a cache's own computed prefix (the same keys), {@code putIfAbsent} and a value loader.
     */
    @Test
    void nullPolicyTtlFunctionAndPrefixesAsOnAnUnwrappedCache() {
        Map<String, Object> seen = new LinkedHashMap<>();
        for (String caches : List.of("false", "true")) {
            runner(caches)
                    .withBean("ownCaches", BootLine.cacheCustomizerType(), () -> BootLine.cacheCustomizer(b -> b
                            .withCacheConfiguration("no-nulls",
                                    RedisCacheConfiguration.defaultCacheConfig().disableCachingNullValues())
                            .withCacheConfiguration("ttl", RedisCacheConfiguration.defaultCacheConfig().entryTtl(
                                    (key, value) -> value instanceof String s && s.startsWith("short")
                                            ? Duration.ofSeconds(50) : Duration.ofSeconds(500)))
                            .withCacheConfiguration("own-prefix", RedisCacheConfiguration.defaultCacheConfig()
                                    .computePrefixWith(name -> "own/" + name + "/"))))
                    .withPropertyValues("spring.cache.cache-names=nulls", "spring.cache.redis.key-prefix=app:",
                            "spring.cache.redis.time-to-live=1000s")
                    .run(c -> {
                        assertThat(c).hasNotFailed();
                        RedisConnectionFactory f = c.getBean(RedisConnectionFactory.class);
                        try (RedisConnection connection = f.getConnection()) {
                            connection.serverCommands().flushAll();
                        }
                        CacheManager m = c.getBean(CacheManager.class);
                        Map<String, Object> results = new LinkedHashMap<>();
                        // cache writes may be sent asynchronously: each read waits for the write before it
                        Cache nulls = m.getCache("nulls");
                        nulls.put("n", null);
                        StoredBytes.await(f, utf8("app:nulls::n"));
                        results.put("nulls: cached null", outcome(() -> nulls.get("n") == null ? "missing"
                                : String.valueOf(nulls.get("n").get())));
                        results.put("nulls: putIfAbsent over the null", outcome(() ->
                                String.valueOf(nulls.putIfAbsent("n", BIG).get())));
                        results.put("nulls: loader", outcome(() -> nulls.get("loaded", () -> BIG)));
                        StoredBytes.await(f, utf8("app:nulls::loaded"));
                        results.put("nulls: loaded again", outcome(() -> nulls.get("loaded", () -> "other")));
                        Cache noNulls = m.getCache("no-nulls");
                        results.put("no-nulls: put null", outcome(() -> {
                            noNulls.put("n", null);
                            return "accepted";
                        }));
                        noNulls.put("v", BIG);
                        StoredBytes.await(f, utf8("no-nulls::v"));
                        results.put("no-nulls: read", outcome(() -> String.valueOf(noNulls.get("v").get())));
                        Cache ttl = m.getCache("ttl");
                        ttl.put("s", "short " + BIG);
                        ttl.put("l", BIG);
                        Cache ownPrefix = m.getCache("own-prefix");
                        ownPrefix.put("k", BIG);
                        StoredBytes.await(f, utf8("own/own-prefix/k"));
                        results.put("own-prefix: read", outcome(() -> String.valueOf(ownPrefix.get("k").get())));
                        Cache later = m.getCache("made-later");
                        later.put("k", BIG);
                        StoredBytes.await(f, utf8("app:made-later::k"));
                        results.put("made later: read", outcome(() -> String.valueOf(later.get("k").get())));
                        ValueCompressor compressor = c.getBean(ValueCompressor.class);
                        Map<String, String> keys = new TreeMap<>();
                        try (RedisConnection connection = f.getConnection()) {
                            for (String name : List.of("app:nulls::n", "app:nulls::loaded", "no-nulls::n",
                                    "no-nulls::v", "ttl::s", "ttl::l", "own/own-prefix/k", "app:made-later::k")) {
                                byte[] key = name.getBytes(StandardCharsets.UTF_8);
                                // cache writes may be sent asynchronously: wait for those that must be there
                                byte[] stored = name.equals("no-nulls::n") ? StoredBytes.get(f, key)
                                        : StoredBytes.await(f, key);
                                Long seconds = connection.keyCommands().ttl(key);
                                keys.put(name, stored == null ? "missing" : "value "
                                        + java.util.HexFormat.of().formatHex(compressor.decompress(stored))
                                        + ", ttl " + (seconds <= 50 ? "<=50" : seconds <= 500 ? "<=500"
                                        : seconds <= 1000 ? "<=1000" : String.valueOf(seconds)));
                            }
                            results.put("key count", connection.serverCommands().dbSize());
                        }
                        results.put("stored", keys);
                        assertThat(StoredBytes.get(f, utf8("ttl::l"))[0]).as("GLIDE's header (JDK: 0xAC)")
                                .isEqualTo(caches.equals("true") ? (byte) 0 : (byte) 0xAC);
                        seen.put("caches=" + caches, results);
                    });
        }
        Map<?, ?> unwrapped = (Map<?, ?>) seen.get("caches=false");
        assertThat(unwrapped.get("no-nulls: put null")).asString().startsWith(IllegalArgumentException.class.getName());
        assertThat(unwrapped.get("nulls: cached null")).isEqualTo("null");
        assertThat(seen.get("caches=true")).as("with the cache compression on, as without it").isEqualTo(unwrapped);
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnCompressingCaches {
        @Bean
        RedisCacheConfiguration cacheConfiguration(ValueCompressor compressor) {
            return RedisCacheConfiguration.defaultCacheConfig().serializeValuesWith(SerializationPair.fromSerializer(
                    CompressingRedisSerializer.wrap(RedisSerializer.json(), compressor)));
        }
    }

    /**
     * Caches whose value serializer the application already made compressing (a {@link CompressingRedisSerializer}
     * over the compressor bean: the default configuration, and a per-cache one of its customizer) are left as they
     * are: every cache stores the same bytes, reads the same values, and the compressor counts the same as with
     * {@code caches=false} (each value compressed once, nothing skipped, each read decoded once).
     */
    @Test
    void aCacheWhoseSerializerCompressesIsNotCompressedAgain() {
        Map<String, Object> seen = new LinkedHashMap<>();
        for (String caches : List.of("false", "true")) {
            runner(caches)
                    .withUserConfiguration(OwnCompressingCaches.class)
                    .withBean("ownCache", BootLine.cacheCustomizerType(), () -> BootLine.cacheCustomizer(b -> {
                        ValueCompressor compressor = CONTEXT.get().getBean(ValueCompressor.class);
                        CompressingRedisSerializer<Object> s = CompressingRedisSerializer.wrap(
                                RedisSerializer.json(), compressor);
                        b.withCacheConfiguration("own", RedisCacheConfiguration.defaultCacheConfig()
                                .serializeValuesWith(SerializationPair.just(RedisElementReader.from(s),
                                        RedisElementWriter.from(s))));
                    }))
                    .withPropertyValues("spring.cache.cache-names=listed")
                    .run(c -> {
                        assertThat(c).hasNotFailed();
                        ValueCompressor compressor = c.getBean(ValueCompressor.class);
                        CacheManager m = c.getBean(CacheManager.class);
                        RedisConnectionFactory f = c.getBean(RedisConnectionFactory.class);
                        Map<String, Object> results = new LinkedHashMap<>();
                        for (String name : List.of("listed", "own", "made-later")) {
                            Cache cache = m.getCache(name);
                            String key = "k-caches-" + caches;
                            cache.put(key, BIG);
                            byte[] stored = StoredBytes.await(f, (name + "::" + key).getBytes(StandardCharsets.UTF_8));
                            results.put(name + " stored", new String(stored, StandardCharsets.ISO_8859_1));
                            results.put(name + " decoded once", new String(compressor.decompress(stored),
                                    StandardCharsets.UTF_8));
                            results.put(name + " read", cache.get(key).get());
                        }
                        results.put("counters", compressor.stats().toString());
                        seen.put("caches=" + caches, results);
                    });
        }
        Map<?, ?> unwrapped = (Map<?, ?>) seen.get("caches=false");
        assertThat(unwrapped.get("listed decoded once")).isEqualTo(
                new String(RedisSerializer.json().serialize(BIG),
                        StandardCharsets.UTF_8));
        assertThat(seen.get("caches=true")).as("with the cache compression on, as without it").isEqualTo(unwrapped);
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String outcome(Callable<Object> call) {
        try {
            return String.valueOf(call.call());
        } catch (Exception e) {
            return e.getClass().getName() + ": " + e.getMessage();
        }
    }
}
