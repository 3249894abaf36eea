package dev.zstdjava.spring.boot;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.DictionaryStore;
import dev.zstdjava.values.InMemoryDictionaryStore;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.spring.CompressingRedisTemplate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.support.DefaultListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.CacheManager;
import org.springframework.cache.concurrent.ConcurrentMapCacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Lazy;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.lang.reflect.AnnotatedElement;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Properties set without effect because the application defines its own bean in place of one of the
 * auto-configuration's that reads them are named in one warning at startup, with the bean's name and type; unset, or
 * without such a bean, nothing is named. No server: building the beans opens no connection.
 */
class OwnBeanPropertiesTest {
    private static final String P = RedisCompressionProperties.PREFIX + ".";
    private static final String START = "zstd-java: properties set without effect, for the application's own beans: ";
    private static final String END = "; configure those beans accordingly, or remove them to have the properties"
            + " applied";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RedisCompressionAutoConfiguration.class,
                    RedisCompressionCacheAutoConfiguration.class, RedisCompressionOffAutoConfiguration.class,
                    BootLine.redis(), BootLine.cache()));

    private final Logger logger = Logger.getLogger("dev.zstdjava.spring.boot.InertProperties"); // documented
    private final List<LogRecord> records = new CopyOnWriteArrayList<>();
    private final Handler handler = InertPropertiesTest.capturing(records);

    @BeforeEach
    void capture() {
        logger.addHandler(handler);
    }

    @AfterEach
    void release() {
        logger.removeHandler(handler);
    }

    /** @return the own-bean warnings logged (the switch warnings aside) */
    private List<String> ownBeanWarnings() {
        return records.stream().map(LogRecord::getMessage).filter(m -> m.startsWith(START)).toList();
    }

    /** @return the one own-bean warning, checked to be the only one */
    private String theWarning() {
        assertThat(ownBeanWarnings()).hasSize(1);
        return ownBeanWarnings().get(0);
    }

    private static String warning(String... groups) {
        return START + String.join("; ", groups) + END;
    }

    @Test
    void theStoresKeyPrefixIsNamedForTheApplicationsDictionaryStore() {
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed",
                        P + "dictionaries.store.key-prefix=app:{dict}:", P + "dictionaries.load-timeout=3s",
                        P + "dictionaries.store.max-dictionary-size=64KB")
                .withBean("myStore", DictionaryStore.class, InMemoryDictionaryStore::new).run(c -> {
                    assertThat(c).hasNotFailed();
                    // the manager made here reads the others
                    assertThat(theWarning()).isEqualTo(warning(P + "dictionaries.store.key-prefix (the"
                            + " application's 'myStore' (" + InMemoryDictionaryStore.class.getName() + ") in place"
                            + " of the auto-configuration's DictionaryStore)"));
                });
    }

    @Test
    void theManagersSettingsAreNamedForTheApplicationsDictionaryManager() {
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed",
                        P + "dictionaries.load-timeout=3s", P + "dictionaries.retrain-interval=2h",
                        P + "dictionaries.notifications=false", P + "dictionaries.store.key-prefix=app:{dict}:")
                .withBean("myManager", DictionaryManager.class,
                        () -> DictionaryManager.managed(new InMemoryDictionaryStore()).build(),
                        d -> d.setDestroyMethodName("close"))
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(theWarning()).isEqualTo(warning(P + "dictionaries.load-timeout, "
                            + P + "dictionaries.notifications, " + P + "dictionaries.retrain-interval (the"
                            + " application's 'myManager' (" + c.getBean(DictionaryManager.class).getClass().getName()
                            + ") in place of the auto-configuration's DictionaryManager)"));
                });
    }

    @Test
    void theCompressionSettingsAreNamedForTheApplicationsValueCompressor() {
        runner.withPropertyValues(P + "enabled=true", P + "level=9", P + "min-size=128B", P + "hash-values=true",
                        P + "caches=true")
                .withBean("myCompressor", ValueCompressor.class, () -> ValueCompressor.create(
                        CompressionConfig.defaults())).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(c.getBean(CompressingRedisTemplate.class)).isNotNull();
                    assertThat(theWarning()).isEqualTo(warning(P + "hash-values, " + P + "level, " + P + "min-size"
                            + " (the application's 'myCompressor' (" + ValueCompressor.class.getName() + ") in place"
                            + " of the auto-configuration's ValueCompressor, which the templates and caches would"
                            + " write through)"));
                });
    }

    /** backend is inert under adaptive compression anyway: named in that warning, not again here. */
    @Test
    void theAdaptiveAndCompressionSettingsAreNamedForTheApplicationsAdaptiveCompressor() {
        runner.withPropertyValues(P + "enabled=true", P + "adaptive.enabled=true", P + "adaptive.goal=speed",
                        P + "adaptive.patterns[0]=user:*", P + "min-size=128B", P + "backend=lz4",
                        P + "dictionaries.mode=managed", P + "dictionaries.retrain-interval=2h",
                        P + "adaptive.dictionary-patterns=8")
                .withBean("myAdaptive", AdaptiveCompressor.class,
                        () -> AdaptiveCompressor.builder(CompressionConfig.defaults()).build()).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(theWarning()).isEqualTo(warning(P + "adaptive.dictionary-patterns, "
                            + P + "adaptive.goal, " + P + "adaptive.patterns, " + P + "dictionaries.mode, "
                            + P + "dictionaries.retrain-interval, " + P + "min-size (the application's 'myAdaptive'"
                            + " (" + AdaptiveCompressor.class.getName() + ") in place of the auto-configuration's"
                            + " AdaptiveCompressor, which the templates and caches would write through)"));
                    assertThat(records).anyMatch(r -> r.getMessage().contains(P + "backend (" + P
                            + "adaptive.enabled is true"));
                });
        records.clear();
        // named as inert while dictionaries.mode is off, not again here
        runner.withPropertyValues(P + "enabled=true", P + "adaptive.enabled=true", P + "adaptive.goal=speed",
                        P + "dictionaries.retrain-interval=2h")
                .withBean("myAdaptive", AdaptiveCompressor.class,
                        () -> AdaptiveCompressor.builder(CompressionConfig.defaults()).build()).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(theWarning()).isEqualTo(warning(P + "adaptive.goal (the application's 'myAdaptive' ("
                            + AdaptiveCompressor.class.getName() + ") in place of the auto-configuration's"
                            + " AdaptiveCompressor, which the templates and caches would write through)"));
                    assertThat(records).anyMatch(r -> r.getMessage().contains(P + "dictionaries.retrain-interval ("
                            + P + "dictionaries.mode is off)"));
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class Strings {
        @Bean
        StringRedisTemplate myStrings(RedisConnectionFactory factory) {
            return new StringRedisTemplate(factory);
        }
    }

    @Test
    void theTemplateAndCacheSwitchesAreNamedForTheApplicationsTemplateAndCacheManager() {
        runner.withPropertyValues(P + "enabled=true", P + "string-template=true", P + "caches=true")
                .withUserConfiguration(Strings.class)
                .withBean("myCaches", CacheManager.class, ConcurrentMapCacheManager::new).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(c).hasSingleBean(StringRedisTemplate.class);
                    assertThat(theWarning()).isEqualTo(warning(
                            P + "string-template (the application's 'myStrings' ("
                                    + StringRedisTemplate.class.getName() + ") in place of the auto-configuration's"
                                    + " compressing stringRedisTemplate)",
                            P + "caches (the application's 'myCaches' (" + ConcurrentMapCacheManager.class.getName()
                                    + ") in place of Boot's RedisCacheManager, whose caches the auto-configuration"
                                    + " compresses)"));
                });
    }

    /** The application's beans with none of the properties they make inert set, or the properties without them. */
    @Test
    void nothingIsNamedWhenNoSetPropertyIsInert() {
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed", P + "string-template=false")
                .withUserConfiguration(Strings.class)
                .withBean("myStore", DictionaryStore.class, InMemoryDictionaryStore::new)
                .withBean("myCompressor", ValueCompressor.class, () -> ValueCompressor.create(
                        CompressionConfig.defaults()))
                .withBean("myCaches", CacheManager.class, ConcurrentMapCacheManager::new).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(records).extracting(LogRecord::getMessage).isEmpty();
                });
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed", P + "string-template=true",
                P + "caches=true", P + "level=9", P + "min-size=128B", P + "dictionaries.store.key-prefix=app:{dict}:",
                P + "dictionaries.load-timeout=3s").withBean(DictionaryStore.class, InMemoryDictionaryStore::new)
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    // the application's store only: the rest take effect
                    assertThat(c).hasSingleBean(DictionaryStore.class);
                    assertThat(theWarning()).isEqualTo(warning(P + "dictionaries.store.key-prefix (the application's '"
                            + c.getBeanNamesForType(DictionaryStore.class)[0] + "' ("
                            + InMemoryDictionaryStore.class.getName() + ") in place of the auto-configuration's"
                            + " DictionaryStore)"));
                });
        records.clear();
        runner.withPropertyValues(P + "enabled=true", P + "string-template=true", P + "caches=true", P + "level=9",
                P + "min-size=128B").run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(records).extracting(LogRecord::getMessage).isEmpty();
                });
    }

    /** {@code configuration}'s ValueCompressor, made from the properties (level=9 set), is not named. */
    private void assertCompressorFromThePropertiesIsNotNamed(Class<?> configuration) {
        runner.withPropertyValues(P + "enabled=true", P + "level=9", P + "min-size=128B")
                .withUserConfiguration(configuration).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(c.getBean(ValueCompressor.class).config().level()).isEqualTo(9);
                    assertThat(records).extracting(LogRecord::getMessage).isEmpty();
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class FromProperties {
        @Bean
        ValueCompressor myCompressor(RedisCompressionProperties properties) {
            return ValueCompressor.create(properties.toConfig());
        }
    }

    /** An application's bean made from the properties bean may apply them: it is not named. */
    @Test
    void aBeanOfTheApplicationsMadeFromThePropertiesIsNotNamed() {
        assertCompressorFromThePropertiesIsNotNamed(FromProperties.class);
    }

    @Configuration(proxyBeanMethods = false)
    static class ConstructedWithProperties {
        private final RedisCompressionProperties properties;

        ConstructedWithProperties(RedisCompressionProperties properties) {
            this.properties = properties;
        }

        @Bean
        ValueCompressor myCompressor() {
            return ValueCompressor.create(properties.toConfig());
        }
    }

    /** Made by a configuration built with the properties: the bean depends only on its configuration. */
    @Test
    void aBeanOfAConfigurationConstructedWithThePropertiesIsNotNamed() {
        assertCompressorFromThePropertiesIsNotNamed(ConstructedWithProperties.class);
    }

    @Configuration(proxyBeanMethods = false)
    static class FromProvidedProperties {
        @Bean
        ValueCompressor myCompressor(ObjectProvider<RedisCompressionProperties> properties) {
            return ValueCompressor.create(properties.getObject().toConfig());
        }
    }

    /** A provider of the properties leaves no dependency recorded: the method's parameter is what tells. */
    @Test
    void aBeanOfTheApplicationsMadeFromAProviderOfThePropertiesIsNotNamed() {
        assertCompressorFromThePropertiesIsNotNamed(FromProvidedProperties.class);
    }

    @Configuration(proxyBeanMethods = false)
    static class LazyStrings {
        @Bean
        @Lazy
        StringRedisTemplate myStrings(RedisConnectionFactory factory) {
            return new StringRedisTemplate(factory);
        }
    }

    /** A bean not created yet has no dependencies recorded: what it reads is unknown, and it is not named. */
    @Test
    void aBeanNotCreatedYetIsNotNamed() {
        runner.withPropertyValues(P + "enabled=true", P + "string-template=true")
                .withUserConfiguration(LazyStrings.class).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(c.getBeanFactory().containsSingleton("myStrings")).isFalse();
                    assertThat(records).extracting(LogRecord::getMessage).isEmpty();
                });
    }

    @Configuration(proxyBeanMethods = false)
    static class StringsOverTheCompressor {
        @Bean
        StringRedisTemplate myStrings(RedisConnectionFactory factory, ValueCompressor compressor) {
            return new StringRedisTemplate(factory);
        }
    }

    /** string-template is a switch only the auto-configuration reads: a bean made here carries nothing of it. */
    @Test
    void aTemplateOfTheApplicationsOverTheCompressorMadeHereIsStillNamed() {
        runner.withPropertyValues(P + "enabled=true", P + "string-template=true")
                .withUserConfiguration(StringsOverTheCompressor.class).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(c.getBeanFactory().getDependenciesForBean("myStrings"))
                            .contains(RedisCompressionAutoConfiguration.VALUE_COMPRESSOR);
                    assertThat(theWarning()).isEqualTo(warning(P + "string-template (the application's 'myStrings' ("
                            + StringRedisTemplate.class.getName() + ") in place of the auto-configuration's"
                            + " compressing stringRedisTemplate)"));
                });
    }

    /**
     * Each row's source in Boot's report is a method or a class carrying {@code @ConditionalOnMissingBean}: a renamed
     * or moved bean fails here instead of turning its row off.
     */
    @Test
    void everyRowsSourceIsAConditionOnAMissingBean() throws ClassNotFoundException {
        assertThat(OwnBeanProperties.BEANS).isNotEmpty();
        for (OwnBeanProperties.Bean bean : OwnBeanProperties.BEANS) {
            String[] source = bean.source().split("#", -1);
            Class<?> type = Class.forName(source[0]);
            AnnotatedElement element = type;
            if (source.length == 2) {
                element = Arrays.stream(type.getDeclaredMethods()).filter(m -> m.getName().equals(source[1]))
                        .findFirst().orElse(null);
            }
            assertThat(element).as(bean.source()).isNotNull();
            assertThat(element.isAnnotationPresent(ConditionalOnMissingBean.class)).as(bean.source()).isTrue();
        }
    }

    private static StandardEnvironment environment(String... properties) {
        StandardEnvironment environment = new StandardEnvironment();
        Map<String, Object> map = new HashMap<>();
        for (String p : properties) {
            map.put(p.substring(0, p.indexOf('=')), p.substring(p.indexOf('=') + 1));
        }
        environment.getPropertySources().addFirst(new MapPropertySource("test", map));
        return environment;
    }

    /** With no set property any row covers, Boot's report is not looked at (looking makes it, if missing). */
    @Test
    void theReportIsNotLookedAtWhenNoSetPropertyCouldBeNamed() {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory();
        assertThat(OwnBeanProperties.find(environment(P + "enabled=true"), beans)).isEmpty();
        assertThat(beans.getSingletonNames()).isEmpty();
        // one it could name: the report is looked at (and made here, for want of one)
        assertThat(OwnBeanProperties.find(environment(P + "enabled=true", P + "level=9"), beans)).isEmpty();
        assertThat(beans.getSingletonNames()).isNotEmpty();
    }

    /** A failure to find the properties never fails the started context: the warning is left out. */
    @Test
    void aFailureToFindThemFailsNothing() {
        DefaultListableBeanFactory beans = new DefaultListableBeanFactory() {
            @Override
            public boolean containsSingleton(String name) {
                throw new IllegalStateException("broken for the test");
            }
        };
        StandardEnvironment environment = environment(P + "enabled=true", P + "level=9");
        assertThatThrownBy(() -> OwnBeanProperties.find(environment, beans)).hasMessage("broken for the test");
        assertThatCode(() -> OwnBeanProperties.warn(environment, beans)).doesNotThrowAnyException();
        assertThat(ownBeanWarnings()).isEmpty();
    }
}
