package dev.zstdjava.spring.boot;

import dev.zstdjava.spring.boot.example.Catalog;
import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.spring.CompressingRedisTemplate;
import dev.zstdjava.values.spring.CompressingStringRedisTemplate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redisson Spring Boot starter beside this auto-configuration, on a real server: the starter makes the
 * {@code RedisConnectionFactory} (Redisson's, before Boot's), and our {@code redisTemplate} and cache customizer run
 * over it, compressing what the application writes; the starter's own {@code redisTemplate} backs off, and its
 * {@code stringRedisTemplate} is plain, as Boot's would be. Redisson brings a JCache provider, which Boot's cache
 * auto-configuration prefers to Redis unless {@code spring.cache.type=redis}.
 *
 * <p>Note: run by its own surefire execution (the {@value #TAG} tag: pom.xml, and the Boot 3.5 line's), the only one
 * with the starter (its line for the Boot these tests run on) on the class path; the other tests' applications would
 * otherwise get Redisson's connection factory and JCache.
 */
@Tag(RedissonStarterTest.TAG)
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class RedissonStarterTest {
    /** The tag the surefire executions select by: the default ones leave it out, the starter's runs only it. */
    static final String TAG = "redisson-starter";
    private static final String P = RedisCompressionProperties.PREFIX + ".";
    private static final byte[] HEADER = {0, 1, 2, 0, 1};
    /** The server, and a plain Lettuce connection beside the application's that reads the stored bytes. */
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer();

    private static ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedisCompressionAutoConfiguration.class,
                        RedisCompressionCacheAutoConfiguration.class, BootLine.redissonStarter(),
                        BootLine.redis(), BootLine.cache()))
                .withUserConfiguration(ClientsTest.Caching.class)
                .withBean(Catalog.class)
                .withPropertyValues(P + "enabled=true", "spring.data.redis.host=" + RedisServer.HOST,
                        "spring.data.redis.port=" + redis.server().port());
    }

    @Test
    @SuppressWarnings("unchecked")
    void redissonsConnectionFactoryCarriesTheCompressingTemplateAndCaches() {
        runner().withPropertyValues("spring.cache.type=redis").run(c -> {
            assertThat(c).hasNotFailed();
            RedisConnectionFactory f = c.getBean(RedisConnectionFactory.class);
            assertThat(f.getClass().getName()).isEqualTo(
                    "org.redisson.spring.data.connection.RedissonConnectionFactory");
            RedisTemplate<Object, Object> template = c.getBean("redisTemplate", RedisTemplate.class);
            assertThat(template).isInstanceOf(CompressingRedisTemplate.class);
            assertThat(template.getConnectionFactory()).isSameAs(f);
            assertThat(c.getBean(StringRedisTemplate.class)).isExactlyInstanceOf(StringRedisTemplate.class);
            assertStoredCompressed(template);

            Catalog catalog = c.getBean(Catalog.class);
            String product = catalog.product(7);
            byte[] cached = StoredBytes.await(f, "products::7".getBytes(StandardCharsets.UTF_8));
            assertThat(redis.raw().sync().get("products::7".getBytes(StandardCharsets.UTF_8))).isEqualTo(cached);
            assertThat(cached).startsWith(HEADER);
            assertThat(c.getBean(ValueCompressor.class).decompress(cached))
                    .isEqualTo(RedisSerializer.java().serialize(product));
            assertThat(catalog.product(7)).isEqualTo(product);
            assertThat(catalog.loads()).isEqualTo(1);
        });
    }

    /**
     * An auto-configuration that runs after Redisson's and whose name sorts before this module's takes Redisson's
     * ahead of this module's in Boot's order: only the explicit order ({@code beforeName} Redisson's auto-configuration)
     * keeps the templates this module's, where Redisson's would otherwise be made first and this module's back off.
     */
    @Test
    void anAutoConfigurationAfterRedissonsLeavesTheTemplatesCompressing() {
        runner().withConfiguration(AutoConfigurations.of(AfterRedissonAutoConfiguration.class))
                .withPropertyValues("spring.cache.type=redis", P + "string-template=true").run(c -> {
                    assertThat(c).hasNotFailed().hasSingleBean(AfterRedissonAutoConfiguration.RedissonSeen.class);
                    assertThat(c.getBean("redisTemplate")).isInstanceOf(CompressingRedisTemplate.class);
                    StringRedisTemplate strings = c.getBean(StringRedisTemplate.class);
                    assertThat(strings).isInstanceOf(CompressingStringRedisTemplate.class);
                    @SuppressWarnings("unchecked")
                    RedisTemplate<Object, Object> template = c.getBean("redisTemplate", RedisTemplate.class);
                    assertStoredCompressed(template);
                    String text = "a string template value on Redisson; ".repeat(40);
                    strings.opsForValue().set("text", text);
                    assertThat(redis.raw().sync().get("text".getBytes(StandardCharsets.UTF_8))).startsWith(HEADER);
                    assertThat(strings.opsForValue().get("text")).isEqualTo(text);
                });
    }

    /** A value written through {@code template} is stored compressed (read by a plain client) and reads back. */
    @SuppressWarnings("unchecked")
    private static void assertStoredCompressed(RedisTemplate<Object, Object> template) {
        String value = "hello from a Boot service on Redisson; ".repeat(40);
        template.opsForValue().set("greeting", value);
        byte[] key = ((RedisSerializer<Object>) template.getKeySerializer()).serialize("greeting");
        assertThat(redis.raw().sync().get(key)).startsWith(HEADER);
        assertThat(template.opsForValue().get("greeting")).isEqualTo(value);
    }

    @Test
    void withoutCacheTypeRedisBootPicksRedissonsJCacheProvider() {
        runner().run(c -> assertThat(c.getBean(CacheManager.class).getClass().getName())
                .isEqualTo("org.springframework.cache.jcache.JCacheCacheManager"));
    }
}
