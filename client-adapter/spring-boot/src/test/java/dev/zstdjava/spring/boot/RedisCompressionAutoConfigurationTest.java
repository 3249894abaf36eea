package dev.zstdjava.spring.boot;

import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.DictionaryStats;
import dev.zstdjava.values.DictionaryStore;
import dev.zstdjava.values.InMemoryDictionaryStore;
import dev.zstdjava.values.LegacyFormat;
import dev.zstdjava.values.MissingDictionaryException;
import dev.zstdjava.values.PatternDictionaries;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.micrometer.CompressionMetrics;
import dev.zstdjava.values.spring.CompressingRedisTemplate;
import dev.zstdjava.values.spring.CompressingStringRedisTemplate;
import dev.zstdjava.values.spring.SpringDictionaryStore;
import dev.zstdjava.zstd.ZstdDictionary;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.util.unit.DataSize;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Every condition of the auto-configuration, with Boot's own Redis, cache and metrics auto-configurations beside it
 * (those of the Boot generation it runs on: {@link BootLine}). No server: building the beans opens no connection.
 */
class RedisCompressionAutoConfigurationTest {
    private static final String P = RedisCompressionProperties.PREFIX + ".";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RedisCompressionAutoConfiguration.class,
                    RedisCompressionCacheAutoConfiguration.class, RedisCompressionMetricsAutoConfiguration.class,
                    RedisCompressionInfoAutoConfiguration.class, BootLine.redis(), BootLine.cache()))
            .withConfiguration(AutoConfigurations.of(BootLine.metricsWithRegistries()))
            .withUserConfiguration(Caching.class);

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class Caching {
    }

    @Test
    void offByDefault() {
        runner.run(c -> {
            assertThat(c).hasNotFailed().doesNotHaveBean(ValueCompressor.class)
                    .doesNotHaveBean(CacheValueCompression.class).doesNotHaveBean(CompressionMetrics.class)
                    .doesNotHaveBean(CompressionInfoContributor.class);
            assertThat(c.getBean("redisTemplate")).isExactlyInstanceOf(RedisTemplate.class);
            assertThat(c.getBean("stringRedisTemplate")).isExactlyInstanceOf(StringRedisTemplate.class);
        });
        runner.withPropertyValues(P + "enabled=false").run(c -> assertThat(c).doesNotHaveBean(ValueCompressor.class));
    }

    @Test
    void enabledGivesTheCompressorTheTemplateTheCacheCustomizerMetersAndInfo() {
        runner.withPropertyValues(P + "enabled=true").run(c -> {
            assertThat(c).hasNotFailed().hasSingleBean(ValueCompressor.class)
                    .hasSingleBean(CacheValueCompression.class).hasSingleBean(CompressionMetrics.class)
                    .hasSingleBean(CompressionInfoContributor.class).doesNotHaveBean(DictionaryManager.class);
            ValueCompressor compressor = c.getBean(ValueCompressor.class);
            assertThat(compressor.config()).isEqualTo(CompressionConfig.defaults());
            // Boot's name and type: existing RedisTemplate<Object, Object> injection points get it
            Object template = c.getBean("redisTemplate");
            assertThat(template).isInstanceOf(CompressingRedisTemplate.class);
            assertThat(c.getBeanProvider(org.springframework.core.ResolvableType.forClassWithGenerics(
                    RedisTemplate.class, Object.class, Object.class)).getObject()).isSameAs(template);
            assertThat(((CompressingRedisTemplate<?, ?>) template).compressor()).isSameAs(compressor);
            // counters stay on Boot's plain string template
            assertThat(c.getBean("stringRedisTemplate")).isExactlyInstanceOf(StringRedisTemplate.class);
            // the meters are registered in Boot's registry
            assertThat(c.getBean(MeterRegistry.class).find("zstdjava.values.compressed").functionCounter())
                    .isNotNull();
            Info.Builder info = new Info.Builder();
            c.getBean(CompressionInfoContributor.class).contribute(info);
            @SuppressWarnings("unchecked")
            Map<String, Object> details = (Map<String, Object>) info.build().getDetails().get("zstd-java");
            assertThat(details).containsEntry("backend", "zstd").containsEntry("level", 3).containsKey("counters");
            assertThat(details.get("library").toString()).contains("version=" + dev.zstdjava.zstd.Zstd.library()
                    .version());
        });
    }

    @Test
    void aBootWithoutTheCapabilityFailsWhenEnabledNamingTheSupportedRange() {
        // as Boot 3.4, which lacks the condition on a boolean property (the real one: spring-boot-lines/boot-3.4)
        runner.withClassLoader(new FilteredClassLoader(ConditionalOnBooleanProperty.class))
                .withPropertyValues(P + "enabled=true").run(c -> assertThat(c).getFailure().rootCause()
                        .isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining("supports " + BootLines.SUPPORTED));
    }

    @Test
    void keysStayByteIdenticalToBootsTemplate() {
        byte[][] keys = new byte[2][];
        runner.run(c -> keys[0] = serializeKey(c.getBean("redisTemplate", RedisTemplate.class)));
        runner.withPropertyValues(P + "enabled=true")
                .run(c -> keys[1] = serializeKey(c.getBean("redisTemplate", RedisTemplate.class)));
        assertThat(keys[1]).isEqualTo(keys[0]);
        assertThat(keys[0]).isNotEqualTo("user:1".getBytes(StandardCharsets.UTF_8)); // JDK-serialized, as Boot's
    }

    @SuppressWarnings("unchecked")
    private static byte[] serializeKey(RedisTemplate<?, ?> t) {
        return ((RedisSerializer<Object>) t.getKeySerializer()).serialize("user:1");
    }

    @Test
    void propertiesReachTheConfiguration() {
        runner.withPropertyValues(P + "enabled=true", P + "backend=lz4", P + "level=5", P + "min-size=128B",
                P + "max-decompressed-size=16MB", P + "hash-values=true",
                P + "legacy-formats=lettuce-gzip,redisson-zstd").run(c -> {
            CompressionConfig config = c.getBean(ValueCompressor.class).config();
            assertThat(config.backend()).isEqualTo(CompressionBackend.LZ4);
            assertThat(config.level()).isEqualTo(5);
            assertThat(config.minCompressionSize()).isEqualTo(128);
            assertThat(config.maxDecompressedSize()).isEqualTo(16L << 20);
            assertThat(config.compressHashValues()).isTrue();
            assertThat(config.legacyFormats()).containsExactlyInAnyOrder(LegacyFormat.LETTUCE_GZIP,
                    LegacyFormat.REDISSON_ZSTD);
        });
    }

    @Test
    void aWrongValueFailsStartupNamingThePropertyAndTheAllowedValues() {
        runner.withPropertyValues(P + "enabled=true", P + "level=40").run(c -> assertThat(c).getFailure()
                .rootCause().hasMessageContaining(P + "level").hasMessageContaining("-131072..22"));
        runner.withPropertyValues(P + "enabled=true", P + "backend=lz4", P + "level=13").run(c -> assertThat(c)
                .getFailure().rootCause().hasMessageContaining(P + "level").hasMessageContaining("-128..12"));
        runner.withPropertyValues(P + "enabled=true", P + "min-size=2B").run(c -> assertThat(c).getFailure()
                .rootCause().hasMessageContaining(P + "min-size").hasMessageContaining("6B.."));
        runner.withPropertyValues(P + "enabled=true", P + "max-decompressed-size=4GB").run(c -> assertThat(c)
                .getFailure().rootCause().hasMessageContaining(P + "max-decompressed-size"));
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=given").run(c -> assertThat(c)
                .getFailure().rootCause().hasMessageContaining(P + "dictionaries.resources"));
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed",
                P + "dictionaries.store.key-prefix=no-tag:").run(c -> assertThat(c).getFailure().rootCause()
                .hasMessageContaining(P + "dictionaries.store.key-prefix").hasMessageContaining("hash tag"));
        // an unknown enum value: Boot's binder names the property (its failure analysis, which lists the
        // constants, is checked on a real startup in StartupFailureTest)
        runner.withPropertyValues(P + "enabled=true", P + "backend=brotli").run(c -> assertThat(c).getFailure()
                .hasStackTraceContaining("'" + P + "backend'"));
    }

    /**
     * {@code enabled} with a value that is no boolean ({@code maybe}) fails startup naming the property, as a wrong
     * value of any other property does; it failed with Spring's "Error processing condition on
     * RedisCompressionAutoConfiguration" and "Invalid boolean value 'maybe'", which name no property. The values
     * Boot reads as booleans keep their meaning ({@code on} is on, {@code off} and an empty value are off).
     */
    @Test
    void anEnabledValueThatIsNoBooleanFailsStartupNamingIt() {
        for (String value : new String[] {"maybe", "enable", "2"}) {
            runner.withPropertyValues(P + "enabled=" + value).run(c -> assertThat(c).getFailure().rootCause()
                    .isInstanceOf(RedisCompressionException.class)
                    .hasMessageContaining("invalid value " + value + " of " + P + "enabled")
                    .hasMessageContaining("allowed: true, false"));
        }
        runner.withPropertyValues(P + "enabled=on").run(c -> assertThat(c).hasNotFailed()
                .hasSingleBean(ValueCompressor.class));
        for (String value : new String[] {"off", "", "FALSE"}) {
            runner.withPropertyValues(P + "enabled=" + value).run(c -> assertThat(c).hasNotFailed()
                    .doesNotHaveBean(ValueCompressor.class));
        }
    }

    /**
     * The switches that decide which beans exist ({@code adaptive.enabled}, {@code string-template}, {@code caches})
     * take {@code true} or {@code false}: Boot's binder would read {@code on}, {@code yes} or {@code 1} as true while
     * the conditions on them read only {@code true}, so such a value would bind on and leave the feature silently off.
     */
    @Test
    void aSwitchThatIsNotTrueOrFalseFailsStartupNamingIt() {
        for (String property : new String[] {"adaptive.enabled", "string-template", "caches"}) {
            for (String value : new String[] {"on", "yes", "1", "off"}) {
                runner.withPropertyValues(P + "enabled=true", P + property + "=" + value).run(c -> {
                    assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                            .hasMessageContaining("invalid value " + value + " of " + P + property)
                            .hasMessageContaining("allowed: true, false");
                });
            }
        }
        // upper case is Boot's condition's too
        runner.withPropertyValues(P + "enabled=true", P + "string-template=TRUE", P + "adaptive.enabled=True",
                P + "caches=FALSE").run(c -> assertThat(c).hasNotFailed().hasSingleBean(
                dev.zstdjava.values.AdaptiveCompressor.class).doesNotHaveBean(CacheValueCompression.class)
                .getBean(StringRedisTemplate.class).isInstanceOf(CompressingStringRedisTemplate.class));
        // off, nothing is read
        runner.withPropertyValues(P + "adaptive.enabled=on").run(c -> assertThat(c).hasNotFailed()
                .doesNotHaveBean(ValueCompressor.class));
    }

    @Test
    void theApplicationsBeansWin() {
        ValueCompressor own = ValueCompressor.create(CompressionConfig.builder().level(7).build());
        runner.withPropertyValues(P + "enabled=true").withBean(ValueCompressor.class, () -> own).run(c -> {
            assertThat(c.getBean(ValueCompressor.class)).isSameAs(own);
            assertThat(c.getBean("redisTemplate", CompressingRedisTemplate.class).compressor()).isSameAs(own);
        });
        runner.withPropertyValues(P + "enabled=true").withUserConfiguration(OwnTemplates.class).run(c -> {
            assertThat(c.getBean("redisTemplate")).isSameAs(OwnTemplates.TEMPLATE);
            assertThat(c.getBean(StringRedisTemplate.class)).isSameAs(OwnTemplates.STRINGS);
        });
        // the opt-in string template backs off too
        runner.withPropertyValues(P + "enabled=true", P + "string-template=true")
                .withUserConfiguration(OwnTemplates.class)
                .run(c -> assertThat(c.getBean(StringRedisTemplate.class)).isSameAs(OwnTemplates.STRINGS));
        runner.withPropertyValues(P + "enabled=true").withUserConfiguration(OwnCacheManager.class).run(c -> {
            assertThat(c).hasNotFailed().doesNotHaveBean(CacheValueCompression.class);
            assertThat(c.getBean(CacheManager.class)).isInstanceOf(ConcurrentMapCacheManager.class);
        });
        CompressionMetrics ownMetrics = new CompressionMetrics(own);
        runner.withPropertyValues(P + "enabled=true").withBean(CompressionMetrics.class, () -> ownMetrics)
                .run(c -> assertThat(c.getBean(CompressionMetrics.class)).isSameAs(ownMetrics));
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=shared")
                .withBean(DictionaryStore.class, () -> store).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(c.getBean(DictionaryManager.class).store()).isSameAs(store);
                    assertThat(c.getBean(ValueCompressor.class).dictionaries())
                            .isSameAs(c.getBean(DictionaryManager.class));
                });
    }

    /**
     * Server-side dictionaries over the application's own store and template, without any connection factory: the
     * lifecycle that closes the dictionaries before the factory stops needs none.
     */
    @Test
    void sharedDictionariesOverTheApplicationsStoreNeedNoConnectionFactory() {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedisCompressionAutoConfiguration.class))
                .withBean("redisTemplate", String.class, () -> "the application's own template, elsewhere")
                .withBean(DictionaryStore.class, () -> store)
                .withPropertyValues(P + "enabled=true", P + "dictionaries.mode=shared").run(c -> {
                    assertThat(c).hasNotFailed().doesNotHaveBean(RedisConnectionFactory.class);
                    assertThat(c.getBean(DictionaryManager.class).store()).isSameAs(store);
                    assertThat(c.getBean(ValueCompressor.class).dictionaries())
                            .isSameAs(c.getBean(DictionaryManager.class));
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnTemplates {
        static final RedisTemplate<Object, Object> TEMPLATE = new RedisTemplate<>();
        static final StringRedisTemplate STRINGS = new StringRedisTemplate();

        @Bean
        RedisTemplate<Object, Object> redisTemplate(RedisConnectionFactory f) {
            TEMPLATE.setConnectionFactory(f);
            return TEMPLATE;
        }

        @Bean
        StringRedisTemplate myStrings(RedisConnectionFactory f) {
            STRINGS.setConnectionFactory(f);
            return STRINGS;
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnCacheManager {
        @Bean
        CacheManager cacheManager() {
            return new ConcurrentMapCacheManager();
        }
    }

    /** Boot's reactive templates are not touched (docs/spring-boot.md): plain, and they do not decode. */
    @Test
    void bootsReactiveTemplatesStayPlain() throws Exception {
        Class<?> reactive = Class.forName(BootLine.BOOT3
                ? "org.springframework.boot.autoconfigure.data.redis.RedisReactiveAutoConfiguration"
                : "org.springframework.boot.data.redis.autoconfigure.DataRedisReactiveAutoConfiguration");
        runner.withConfiguration(AutoConfigurations.of(reactive)).withPropertyValues(P + "enabled=true").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(c.getBean("reactiveStringRedisTemplate"))
                    .isExactlyInstanceOf(org.springframework.data.redis.core.ReactiveStringRedisTemplate.class);
            Object t = c.getBean("reactiveRedisTemplate");
            assertThat(t).isExactlyInstanceOf(org.springframework.data.redis.core.ReactiveRedisTemplate.class);
            byte[] stored = c.getBean(ValueCompressor.class).compress(RedisSerializer.java().serialize("x".repeat(500)));
            assertThat(stored).startsWith(0, 1, 2, 0, 1); // compressed, as redisTemplate stores it
            assertThatThrownBy(() -> ((org.springframework.data.redis.core.ReactiveRedisTemplate<?, ?>) t)
                    .getSerializationContext().getValueSerializationPair().read(ByteBuffer.wrap(stored)))
                    .isInstanceOf(org.springframework.data.redis.serializer.SerializationException.class);
        });
    }

    @Test
    void theStringTemplateOptIn() {
        runner.withPropertyValues(P + "enabled=true", P + "string-template=true").run(c -> {
            assertThat(c).hasNotFailed().hasSingleBean(StringRedisTemplate.class);
            StringRedisTemplate t = c.getBean("stringRedisTemplate", StringRedisTemplate.class);
            assertThat(t).isInstanceOf(CompressingStringRedisTemplate.class);
            // refused before anything is sent (no server here): counters do not work on it
            assertThatThrownBy(() -> t.opsForValue().increment("visits")).isInstanceOf(CommandRefusedException.class)
                    .hasMessageContaining("INCR");
            assertThatThrownBy(() -> t.opsForValue().append("log", "x")).isInstanceOf(CommandRefusedException.class);
        });
    }

    /**
     * The info entry follows Boot's rule for its own contributors: {@code management.info.zstd-java.enabled} when set,
     * else {@code management.info.defaults.enabled}, else shown.
     */
    @Test
    void theInfoEntryFollowsBootsRuleForInfoContributors() {
        String defaults = "management.info.defaults.enabled=";
        String own = "management.info.zstd-java.enabled=";
        runner.withPropertyValues(P + "enabled=true", defaults + "false")
                .run(c -> assertThat(c).hasNotFailed().doesNotHaveBean(CompressionInfoContributor.class));
        runner.withPropertyValues(P + "enabled=true", defaults + "false", own + "true")
                .run(c -> assertThat(c).hasNotFailed().hasSingleBean(CompressionInfoContributor.class));
        runner.withPropertyValues(P + "enabled=true", defaults + "true", own + "false")
                .run(c -> assertThat(c).hasNotFailed().doesNotHaveBean(CompressionInfoContributor.class));
        runner.withPropertyValues(P + "enabled=true", defaults + "true")
                .run(c -> assertThat(c).hasNotFailed().hasSingleBean(CompressionInfoContributor.class));
        // without Actuator's auto-configuration there is no info endpoint, and no entry
        runner.withPropertyValues(P + "enabled=true").withClassLoader(new FilteredClassLoader(
                        org.springframework.boot.actuate.autoconfigure.info.ConditionalOnEnabledInfoContributor.class))
                .run(c -> assertThat(c).hasNotFailed().hasSingleBean(ValueCompressor.class)
                        .doesNotHaveBean(CompressionInfoContributor.class));
    }

    @Test
    void withoutMicrometerOrActuatorOrBootCacheThoseBeansAreLeftOut() {
        // no Micrometer at all: Boot's metrics auto-configuration backs off, and so do the meters
        runner.withPropertyValues(P + "enabled=true").withClassLoader(new FilteredClassLoader("io.micrometer."))
                .run(c -> assertThat(c).hasNotFailed().hasSingleBean(ValueCompressor.class)
                        .doesNotHaveBean(MeterRegistry.class).doesNotHaveBean(CompressionMetrics.class)
                        .hasSingleBean(CompressionInfoContributor.class));
        runner.withPropertyValues(P + "enabled=true")
                .withClassLoader(new FilteredClassLoader(InfoContributor.class))
                .run(c -> assertThat(c).hasNotFailed().hasSingleBean(CompressionMetrics.class)
                        .doesNotHaveBean(CompressionInfoContributor.class));
        runner.withPropertyValues(P + "enabled=true", "management.info.zstd-java.enabled=false")
                .run(c -> assertThat(c).doesNotHaveBean(CompressionInfoContributor.class));
        runner.withPropertyValues(P + "enabled=true", P + "caches=false")
                .run(c -> assertThat(c).doesNotHaveBean(CacheValueCompression.class));
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedisCompressionAutoConfiguration.class,
                        RedisCompressionCacheAutoConfiguration.class, BootLine.redis()))
                .withClassLoader(new FilteredClassLoader(BootLine.cacheCustomizerType()))
                .withPropertyValues(P + "enabled=true")
                .run(c -> assertThat(c).hasNotFailed().hasSingleBean(ValueCompressor.class)
                        .doesNotHaveBean(CacheValueCompression.class));
    }

    @Test
    void aRegistryWithoutBootsMetricsAutoConfigurationIsBoundToo() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedisCompressionAutoConfiguration.class,
                        RedisCompressionMetricsAutoConfiguration.class, BootLine.redis()))
                .withClassLoader(new FilteredClassLoader(BootLine.metrics()))
                .withBean(MeterRegistry.class, () -> registry)
                .withPropertyValues(P + "enabled=true")
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(registry.find("zstdjava.values.compressed").functionCounter()).isNotNull();
                });
    }

    /**
     * Boot's metrics auto-configuration on the class path but excluded ({@code spring.autoconfigure.exclude}), and the
     * application's own registry: nothing binds {@code MeterBinder} beans then, Boot's own (its JVM meters, as its
     * data-source pool meters) as this library's, which is one too; Boot's cache meters, bound by a registrar of their
     * own, are. With the auto-configuration, all three are bound to that registry.
     */
    @Test
    void withBootsMetricsAutoConfigurationExcludedTheMetersAreLeftUnboundAsBootsOwnMeterBinders() {
        SimpleMeterRegistry excluded = new SimpleMeterRegistry();
        SimpleMeterRegistry included = new SimpleMeterRegistry();
        ApplicationContextRunner app = new ApplicationContextRunner()
                .withUserConfiguration(AutoConfiguredApplication.class)
                .withPropertyValues(P + "enabled=true", "spring.cache.type=redis", "spring.cache.cache-names=a");
        app.withBean(MeterRegistry.class, () -> excluded)
                .withPropertyValues("spring.autoconfigure.exclude=" + BootLine.metrics().getName())
                .run(c -> {
                    // Boot's binders are configured, and its metrics auto-configuration is not
                    assertThat(c).hasNotFailed().hasSingleBean(CompressionMetrics.class)
                            .hasSingleBean(BootLine.jvmMetrics()).hasSingleBean(BootLine.cacheMetrics())
                            .doesNotHaveBean(BootLine.metrics());
                    assertThat(excluded.find("cache.gets").tag("cache", "a").meters()).as("Boot's cache meters")
                            .isNotEmpty();
                    assertThat(excluded.find("jvm.memory.used").meters()).as("Boot's JVM meters").isEmpty();
                    assertThat(excluded.find("zstdjava.values.compressed").meters()).isEmpty();
                });
        app.withBean(MeterRegistry.class, () -> included).run(c -> {
            assertThat(c).hasNotFailed().hasSingleBean(BootLine.metrics());
            assertThat(included.find("cache.gets").tag("cache", "a").meters()).isNotEmpty();
            assertThat(included.find("jvm.memory.used").meters()).isNotEmpty();
            assertThat(included.find("zstdjava.values.compressed").functionCounter()).isNotNull();
        });
    }

    /** An application as Boot starts one: every auto-configuration on the class path, but those excluded. */
    @Configuration(proxyBeanMethods = false)
    @org.springframework.boot.autoconfigure.EnableAutoConfiguration
    @EnableCaching
    static class AutoConfiguredApplication {
    }

    @Test
    void lettuceAndJedisFactories() {
        runner.withPropertyValues(P + "enabled=true").run(c -> assertThat(templateFactory(c))
                .isInstanceOf(LettuceConnectionFactory.class));
        runner.withPropertyValues(P + "enabled=true", "spring.data.redis.client-type=jedis").run(c ->
                assertThat(templateFactory(c)).isInstanceOf(JedisConnectionFactory.class));
        // an application with Jedis only (no Lettuce on the class path): Boot's Jedis factory, compressed as well
        runner.withPropertyValues(P + "enabled=true", P + "string-template=true")
                .withClassLoader(new FilteredClassLoader("io.lettuce.")).run(c -> {
                    assertThat(c).hasNotFailed().hasSingleBean(CacheValueCompression.class);
                    assertThat(templateFactory(c)).isInstanceOf(JedisConnectionFactory.class);
                    assertThat(c.getBean(StringRedisTemplate.class)).isInstanceOf(CompressingStringRedisTemplate.class);
                });
    }

    /**
     * An application with two connection factories of its own, neither primary: Boot's {@code redisTemplate} and
     * {@code stringRedisTemplate} back off (they need a single candidate) and the application starts; with compression
     * on it must start the same, without the templates, rather than fail because the compressing template cannot
     * pick a factory. With one of them primary, the templates are made over it, as Boot's are.
     */
    @Test
    void severalConnectionFactoriesWithoutAPrimaryLeaveTheTemplatesOutAsBootDoes() {
        for (String enabled : new String[] {"false", "true"}) {
            // caches off Redis: Boot's RedisCacheManager fails on two factories as well, with or without this module
            runner.withPropertyValues(P + "enabled=" + enabled, P + "string-template=true", "spring.cache.type=simple")
                    .withUserConfiguration(TwoConnectionFactories.class).run(c -> {
                        assertThat(c).as("enabled=" + enabled).hasNotFailed().doesNotHaveBean("redisTemplate")
                                .doesNotHaveBean("stringRedisTemplate");
                    });
        }
        runner.withPropertyValues(P + "enabled=true", P + "string-template=true")
                .withUserConfiguration(TwoConnectionFactories.class, PrimaryConnectionFactory.class).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(templateFactory(c)).isSameAs(c.getBean("primaryFactory"));
                    assertThat(c.getBean("stringRedisTemplate", CompressingStringRedisTemplate.class)
                            .getConnectionFactory()).isSameAs(c.getBean("primaryFactory"));
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class TwoConnectionFactories {
        @Bean
        LettuceConnectionFactory ordersFactory() {
            return new LettuceConnectionFactory();
        }

        @Bean
        LettuceConnectionFactory sessionsFactory() {
            return new LettuceConnectionFactory();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class PrimaryConnectionFactory {
        @Bean
        @org.springframework.context.annotation.Primary
        LettuceConnectionFactory primaryFactory() {
            return new LettuceConnectionFactory();
        }
    }

    private static RedisConnectionFactory templateFactory(org.springframework.context.ApplicationContext c) {
        CompressingRedisTemplate<?, ?> t = c.getBean("redisTemplate", CompressingRedisTemplate.class);
        assertThat(t.getConnectionFactory()).isSameAs(c.getBean(RedisConnectionFactory.class));
        return t.getConnectionFactory();
    }

    /**
     * A {@link CacheValueCompression} bean of the application's that is not Boot's cache customizer (one it calls
     * itself, for a cache manager of its own) is never called by Boot: Boot's caches stay compressed by this one.
     */
    @Test
    void anApplicationsCacheValueCompressionThatBootDoesNotCallLeavesTheCachesCompressed() {
        ValueCompressor own = ValueCompressor.create(CompressionConfig.defaults());
        runner.withPropertyValues(P + "enabled=true", "spring.cache.type=redis", "spring.cache.cache-names=a")
                .withBean("appCacheValueCompression", CacheValueCompression.class, () -> new CacheValueCompression(own))
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(c.getBeansOfType(BootLine.cacheCustomizerType()).values())
                            .hasAtLeastOneElementOfType(CacheValueCompression.class);
                    ByteBuffer stored = c.getBean(RedisCacheManager.class).getCacheConfigurations().get("a")
                            .getValueSerializationPair().write("a cached value worth compressing; ".repeat(20));
                    assertThat(stored.get(0)).as("GLIDE's header").isEqualTo((byte) 0);
                });
        // one that is Boot's customizer is the one used
        CacheValueCompression customizer = BootLine.cacheValueCompressionCustomizer(own);
        @SuppressWarnings("unchecked")
        Class<CacheValueCompression> type = (Class<CacheValueCompression>) customizer.getClass();
        runner.withPropertyValues(P + "enabled=true", "spring.cache.type=redis")
                .withBean("appCacheValueCompression", type, () -> customizer)
                .run(c -> assertThat(c.getBeansOfType(CacheValueCompression.class))
                        .containsOnlyKeys("appCacheValueCompression"));
    }

    @Test
    void everyCacheIsWrappedAfterTheApplicationsCustomizersAndKeysAreUntouched() {
        runner.withPropertyValues(P + "enabled=true", "spring.cache.type=redis", "spring.cache.cache-names=a,b")
                .withBean("jsonCache", BootLine.cacheCustomizerType(), () -> BootLine.cacheCustomizer(
                        b -> b.withCacheConfiguration("json", RedisCacheConfiguration.defaultCacheConfig()
                                .serializeValuesWith(SerializationPair.fromSerializer(RedisSerializer.json())))))
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    RedisCacheManager m = c.getBean(RedisCacheManager.class);
                    ValueCompressor compressor = c.getBean(ValueCompressor.class);
                    Map<String, RedisCacheConfiguration> configs = m.getCacheConfigurations();
                    assertThat(configs).containsKeys("a", "b", "json");
                    String big = "a cached value worth compressing; ".repeat(20);
                    for (RedisCacheConfiguration config : configs.values()) {
                        ByteBuffer stored = config.getValueSerializationPair().write(big);
                        byte[] bytes = new byte[stored.remaining()];
                        stored.get(bytes);
                        assertThat(bytes).startsWith(new byte[] {0, 1, 2, 0, 1}); // GLIDE's header, zstd
                        assertThat(config.getValueSerializationPair().read(ByteBuffer.wrap(bytes))).isEqualTo(big);
                        // keys: the plain string serialization
                        ByteBuffer key = config.getKeySerializationPair().write("k");
                        assertThat(key.remaining()).isEqualTo(1);
                    }
                    // a cache made at run time gets the wrapped default too
                    ByteBuffer stored = m.getCache("made-later") == null ? null
                            : ((org.springframework.data.redis.cache.RedisCache) m.getCache("made-later"))
                            .getCacheConfiguration().getValueSerializationPair().write(big);
                    assertThat(stored).isNotNull();
                    assertThat(stored.get(0)).isEqualTo((byte) 0);
                    assertThat(compressor.stats().valuesCompressed()).isGreaterThanOrEqualTo(4);
                });
    }

    @Test
    void wrappingIsIdempotentAndReadsValuesStoredPlain() {
        ValueCompressor compressor = ValueCompressor.create(CompressionConfig.defaults());
        CacheValueCompression w = new CacheValueCompression(compressor);
        RedisCacheConfiguration once = w.wrap(RedisCacheConfiguration.defaultCacheConfig());
        assertThat(w.wrap(once)).isSameAs(once);
        byte[] plain = RedisSerializer.java().serialize("written before compression was on");
        assertThat(once.getValueSerializationPair().read(ByteBuffer.wrap(plain)))
                .isEqualTo("written before compression was on");
    }

    /** A {@code dictionaries.*} setting out of the manager's range fails startup naming the property, not the builder's. */
    @Test
    void aDictionarySettingOutOfRangeFailsStartupNamingTheProperty() {
        Map<String, String> wrong = Map.of("dictionaries.load-timeout", "-1s", "dictionaries.refresh-interval", "0s",
                "dictionaries.retrain-interval", "300000d", "dictionaries.min-samples", "9",
                "dictionaries.dictionary-size", "100B");
        wrong.forEach((property, value) -> runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed",
                        P + property + "=" + value)
                .withBean(DictionaryStore.class, InMemoryDictionaryStore::new)
                .run(c -> assertThat(c).getFailure().rootCause().as(property)
                        .isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining(" of " + P + property + "; allowed: ")));
    }

    /**
     * {@code dictionaries.store.max-dictionary-size} bounds the dictionaries the manager accepts and trains, not only
     * the store: raised, a larger dictionary size starts; lowered below the dictionary size, startup fails.
     */
    @Test
    void theMaxDictionarySizeBoundsTheManagerToo() {
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed",
                        P + "dictionaries.store.max-dictionary-size=4MB", P + "dictionaries.dictionary-size=2MB")
                .withBean(DictionaryStore.class, InMemoryDictionaryStore::new)
                .run(c -> assertThat(c).hasNotFailed());
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed",
                        P + "dictionaries.store.max-dictionary-size=8KB")
                .withBean(DictionaryStore.class, InMemoryDictionaryStore::new)
                .run(c -> assertThat(c).getFailure().hasStackTraceContaining("RedisCompressionException: invalid value"
                        + " 16384B of " + P + "dictionaries.dictionary-size").hasStackTraceContaining("dictionarySize 16384"));
        // shared mode trains nothing: a bound below the (managed) dictionary size is fine there
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=shared",
                        P + "dictionaries.store.max-dictionary-size=8KB")
                .withBean(DictionaryStore.class, InMemoryDictionaryStore::new)
                .run(c -> assertThat(c).hasNotFailed());
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed",
                        P + "dictionaries.store.max-dictionary-size=100MB")
                .run(c -> assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining(P + "dictionaries.store.max-dictionary-size"));
    }

    /**
     * {@code dictionaries.max-loaded-bytes} reaches the manager, in both modes with a store: of five dictionaries
     * published (some 48 KiB each as the bound counts them) a bound of 100KB loads the two newest, and a value of an
     * older one reads once it is loaded on demand (the read before fails naming the bound); by default all five load.
     */
    @Test
    void theMaxLoadedBytesBoundsTheDictionariesTheManagerLoads() throws Exception {
        byte[] trained = ZstdDictionary.train(TestValues.jsonRecords(3000, 11), 16 << 10).toByteArray();
        long each = PatternDictionaries.DIGEST_OVERHEAD + trained.length; // as the bound counts one not compressing
        long bound = 100 << 10;
        assertThat(bound / each).as("dictionaries within the bound").isEqualTo(2);
        List<byte[]> published = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            byte[] d = trained.clone();
            ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN).putInt(4, 70_000 + i); // the id in its header
            published.add(d);
        }
        byte[] value = TestValues.json(200).getBytes(StandardCharsets.UTF_8);
        byte[] ofTheOldest;
        try (DictionaryManager given = DictionaryManager.given(published.get(0)).build()) {
            ofTheOldest = ValueCompressor.create(CompressionConfig.defaults(), given).compress(value);
        }
        for (String mode : new String[] {"managed", "shared"}) {
            InMemoryDictionaryStore store = new InMemoryDictionaryStore();
            for (byte[] d : published) {
                store.putIfAbsent(ZstdDictionary.of(d).id(), d);
            }
            runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=" + mode,
                            P + "dictionaries.notifications=false")
                    .withBean(DictionaryStore.class, () -> store).run(c -> {
                        assertThat(c).hasNotFailed();
                        assertThat(c.getBean(DictionaryManager.class).dictionaryStats()).as(mode + ", by default")
                                .hasSize(5);
                    });
            runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=" + mode,
                            P + "dictionaries.notifications=false", P + "dictionaries.max-loaded-bytes=100KB")
                    .withBean(DictionaryStore.class, () -> store).run(c -> {
                        assertThat(c).hasNotFailed();
                        DictionaryManager m = c.getBean(DictionaryManager.class);
                        assertThat(m.dictionaryStats()).as(mode + ", the two newest within the bound")
                                .extracting(DictionaryStats::id).containsExactly(70_003L, 70_004L);
                        ValueCompressor compressor = c.getBean(ValueCompressor.class);
                        assertThatThrownBy(() -> compressor.decompress(ofTheOldest)).as(mode)
                                .isInstanceOf(MissingDictionaryException.class)
                                .hasMessageContaining("bound of " + bound + " bytes");
                        long deadline = System.nanoTime() + 10_000_000_000L;
                        byte[] read = null;
                        while (read == null) {
                            try {
                                read = compressor.decompress(ofTheOldest);
                            } catch (MissingDictionaryException e) {
                                assertThat(System.nanoTime()).as(mode + ": loaded on demand within 10 s: " + e)
                                        .isLessThan(deadline);
                                Thread.sleep(5);
                            }
                        }
                        assertThat(read).isEqualTo(value);
                        assertThat(m.dictionaryStats()).as(mode + ", still within the bound").hasSize(2)
                                .extracting(DictionaryStats::id).contains(70_000L, 70_004L);
                    });
        }
    }

    /** A {@code dictionaries.max-loaded-bytes} below 1B fails startup naming it, in both modes with a store. */
    @Test
    void aMaxLoadedBytesBelowOneByteFailsStartupNamingIt() {
        for (String mode : new String[] {"managed", "shared"}) {
            for (String value : new String[] {"0B", "-1MB"}) {
                runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=" + mode,
                                P + "dictionaries.max-loaded-bytes=" + value)
                        .withBean(DictionaryStore.class, InMemoryDictionaryStore::new)
                        .run(c -> assertThat(c).getFailure().rootCause().as(mode + " " + value)
                                .isInstanceOf(RedisCompressionException.class)
                                .hasMessageContaining("invalid value " + DataSize.parse(value) + " of " + P
                                        + "dictionaries.max-loaded-bytes; allowed: ")
                                .hasMessageContaining("must be positive"));
            }
        }
    }

    /** @return the info entry's {@code dictionaries} map of the context's contributor, or null when it has none */
    @SuppressWarnings("unchecked")
    private static Map<String, Object> dictionariesInfo(org.springframework.context.ApplicationContext c) {
        Info.Builder info = new Info.Builder();
        c.getBean(CompressionInfoContributor.class).contribute(info);
        return (Map<String, Object>) ((Map<String, Object>) info.build().getDetails().get("zstd-java"))
                .get("dictionaries");
    }

    /**
     * The info entry shows {@code dictionaries.max-loaded-bytes}, in bytes, where it applies: in both modes with a
     * store (unset: the manager's default), not in the given mode (no store) nor for the application's own manager,
     * which the property does not reach.
     */
    @Test
    void theInfoEntryShowsTheBoundOnLoadedDictionariesWhereItApplies(@TempDir Path dir) throws IOException {
        for (String mode : new String[] {"managed", "shared"}) {
            runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=" + mode,
                            P + "dictionaries.notifications=false", P + "dictionaries.max-loaded-bytes=100KB")
                    .withBean(DictionaryStore.class, InMemoryDictionaryStore::new).run(c -> {
                        assertThat(c).hasNotFailed();
                        assertThat(dictionariesInfo(c)).as(mode).containsEntry("maxLoadedBytes", 100L << 10)
                                .containsKeys("current", "loaded", "rejected");
                    });
            runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=" + mode,
                            P + "dictionaries.notifications=false")
                    .withBean(DictionaryStore.class, InMemoryDictionaryStore::new)
                    .run(c -> assertThat(dictionariesInfo(c)).as(mode + ", unset")
                            .containsEntry("maxLoadedBytes", DictionaryManager.DEFAULT_MAX_LOADED_BYTES));
        }
        Path dictionary = dir.resolve("a.dict");
        Files.write(dictionary, ZstdDictionary.train(TestValues.jsonRecords(3000, 11), 16 << 10).toByteArray());
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=given",
                        P + "dictionaries.resources=" + dictionary.toUri())
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(dictionariesInfo(c)).as("given").containsKey("current")
                            .doesNotContainKey("maxLoadedBytes");
                });
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed",
                        P + "dictionaries.notifications=false", P + "dictionaries.max-loaded-bytes=100KB")
                .withBean("appDictionaryManager", DictionaryManager.class, () -> DictionaryManager.managed(
                        new InMemoryDictionaryStore()).notifications(false).build())
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(dictionariesInfo(c)).as("the application's manager").containsKey("current")
                            .doesNotContainKey("maxLoadedBytes");
                });
    }

    /**
     * With lazy initialization and the application's own compressor, which uses no dictionaries, reading the info
     * entry does not make the dictionary manager nobody uses; the entry shows no bound.
     */
    @Test
    void theInfoEntryDoesNotMakeALazyDictionaryManager() {
        ValueCompressor own = ValueCompressor.create(CompressionConfig.builder().level(7).build());
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed",
                        P + "dictionaries.notifications=false", P + "dictionaries.max-loaded-bytes=100KB")
                .withInitializer(c -> c.addBeanFactoryPostProcessor(
                        new org.springframework.boot.LazyInitializationBeanFactoryPostProcessor()))
                .withBean(DictionaryStore.class, InMemoryDictionaryStore::new)
                .withBean(ValueCompressor.class, () -> own).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(c.getBeanFactory().containsBeanDefinition(
                            RedisCompressionDictionariesConfiguration.MANAGER)).isTrue();
                    assertThat(dictionariesInfo(c)).isNull();
                    assertThat(c.getBeanFactory().containsSingleton(RedisCompressionDictionariesConfiguration.MANAGER))
                            .as("the manager was made for the info entry").isFalse();
                });
    }

    @Test
    void managedDictionariesUseTheSpringStoreOverBootsFactory() {
        // shared mode would load published dictionaries at startup: a context with a factory but no server fails
        // that load, so the store's wiring is checked without building the manager
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed",
                        P + "dictionaries.store.key-prefix=app:{dicts}:")
                .withBean(DictionaryManager.class, () -> DictionaryManager.managed(new InMemoryDictionaryStore())
                        .build())
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(c.getBean(DictionaryStore.class)).isInstanceOf(SpringDictionaryStore.class);
                    assertThat(((SpringDictionaryStore) c.getBean(DictionaryStore.class)).prefix())
                            .isEqualTo("app:{dicts}:");
                });
        runner.withPropertyValues(P + "enabled=true", P + "backend=lz4", P + "dictionaries.mode=shared")
                .withBean(DictionaryStore.class, InMemoryDictionaryStore::new)
                .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining(P + "backend"));
    }
}
