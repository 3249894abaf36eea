package dev.zstdjava.spring.boot;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.PatternDictionaries;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.spring.CompressingRedisTemplate;
import dev.zstdjava.values.spring.CompressingStringRedisTemplate;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Compressed Redis values for a Spring Boot application, on when {@code zstd-java.redis.compression.enabled=true}:
 * the {@link ValueCompressor}, and a {@link CompressingRedisTemplate} as Boot's {@code redisTemplate} (same name,
 * same {@code RedisTemplate<Object, Object>} type and JDK serializers as Boot's, so stored keys stay byte-identical).
 * {@code stringRedisTemplate} stays Boot's plain {@link StringRedisTemplate} unless
 * {@code zstd-java.redis.compression.string-template=true}. Every bean backs off when the application defines its own
 * (by type; the templates by Boot's names and types). Runs before Boot's {@code DataRedisAutoConfiguration} (Boot 4)
 * or {@code RedisAutoConfiguration} (Boot 3.5), and before the auto-configuration of Redisson's Spring Boot starter
 * ({@code RedissonAutoConfigurationV4}, {@code RedissonAutoConfigurationV2}), whose templates then back off (the
 * templates here take whichever {@code RedisConnectionFactory} those make). On a Boot older than 3.5 an enabled
 * compression fails startup ({@link OnCompressionEnabled}).
 *
 * <p>With {@code zstd-java.redis.compression.adaptive.enabled=true} it also makes one {@link AdaptiveCompressor}
 * (from the {@code adaptive.*} properties, over the configuration the other properties describe): the templates then
 * write each value under its key's pattern, the caches each value under the pattern of the cache's name, folded as a
 * key is ({@link CacheValueCompression}), and the {@link ValueCompressor} bean is the adaptive compressor's reader
 * ({@link AdaptiveCompressor#reader()}), which reads every stored form. With {@code dictionaries.mode=managed} each
 * pattern trains its own dictionaries ({@link PatternDictionaries}, made by
 * {@link RedisCompressionDictionariesConfiguration}); the other dictionary modes fail startup naming both properties.
 *
 * <p>Made and used by Spring at startup; the beans it makes are thread-safe.
 */
@AutoConfiguration(beforeName = {BootLines.BOOT4_DATA_REDIS, BootLines.BOOT3_DATA_REDIS, BootLines.REDISSON_BOOT4,
        BootLines.REDISSON_BOOT3})
@ConditionalOnClass({RedisOperations.class, ValueCompressor.class})
@Conditional(OnCompressionEnabled.class)
@EnableConfigurationProperties(RedisCompressionProperties.class)
@Import(RedisCompressionDictionariesConfiguration.class)
public final class RedisCompressionAutoConfiguration {
    /**
     * Made by Spring (the package is open to it); warns once about the properties set without effect
     * ({@link InertProperties}) and about those that bind to nothing ({@link UnknownProperties}).
     */
    RedisCompressionAutoConfiguration(Environment environment) {
        InertProperties.warn(environment);
        UnknownProperties.warn(environment);
    }

    /**
     * Warns once, when every singleton is made, about the properties set without effect because the application
     * defines its own bean in place of one made here that reads them ({@link OwnBeanProperties}).
     */
    @Bean
    static SmartInitializingSingleton zstdJavaOwnBeanPropertiesWarning(Environment environment,
                                                                      ConfigurableListableBeanFactory beans) {
        return () -> OwnBeanProperties.warn(environment, beans);
    }

    /** What every startup failure of the native library names: the one line that starts without compression. */
    static final String TURN_OFF = "make the native library loadable (see the places tried above), or set "
            + RedisCompressionProperties.PREFIX + ".enabled=false to start without compression (values already"
            + " stored compressed then read back as stored bytes)";

    /** The name of the {@link ValueCompressor} bean made here (the method's). */
    static final String VALUE_COMPRESSOR = "zstdJavaValueCompressor";

    /** The names of the {@link AdaptiveCompressor} and compressing {@code stringRedisTemplate} beans made here. */
    static final String ADAPTIVE_COMPRESSOR = "zstdJavaAdaptiveCompressor";
    static final String STRING_TEMPLATE = "stringRedisTemplate";

    /**
     * The adaptive compressor, when {@code adaptive.enabled=true}.
     *
     * @throws RedisCompressionException naming the bean when the application defines a {@link DictionaryManager} or
     *                                   a {@link ValueCompressor}: the adaptive compressor writes each pattern with
     *                                   dictionaries of the pattern's own lineage, and the templates and caches write
     *                                   through it and read through its reader, so the bean would go unused (in the
     *                                   fixed mode it is the one used)
     */
    @Bean
    @ConditionalOnMissingBean
    @ConditionalOnBooleanProperty(RedisCompressionProperties.PREFIX + ".adaptive.enabled")
    AdaptiveCompressor zstdJavaAdaptiveCompressor(RedisCompressionProperties properties,
                                                  ObjectProvider<PatternDictionaries> dictionaries,
                                                  ListableBeanFactory beans) {
        refuseUnused(beans, DictionaryManager.class, "writes each key pattern with the dictionaries of the"
                + " pattern's own lineage (with " + RedisCompressionProperties.PREFIX + ".dictionaries.mode=managed)"
                + " or with none", "write with its dictionaries, or define an AdaptiveCompressor bean that uses it"
                + " (AdaptiveCompressor.builder(config).dictionaries(pattern -> a manager for pattern))");
        refuseUnused(beans, ValueCompressor.class, "is what the templates and caches write through, and its reader"
                + " what they read through", "write with it, or define an AdaptiveCompressor bean of your own (and"
                + " the ValueCompressor bean as its reader())");
        RedisCompressionProperties.DictionaryMode mode = properties.getDictionaries().getMode();
        if (mode != RedisCompressionProperties.DictionaryMode.OFF
                && mode != RedisCompressionProperties.DictionaryMode.MANAGED) {
            throw RedisCompressionProperties.invalid("adaptive.enabled", true, "false while "
                    + RedisCompressionProperties.PREFIX + ".dictionaries.mode is " + mode.name().toLowerCase(
                    java.util.Locale.ROOT) + " (adaptive compression trains a dictionary per pattern: dictionaries.mode"
                    + " managed, or off)");
        }
        CompressionConfig config = properties.toConfig();
        try {
            return properties.toAdaptive(config, dictionaries.getIfAvailable());
        } catch (IllegalStateException e) {
            throw new RedisCompressionException(e.getMessage(), TURN_OFF, e);
        }
    }

    /**
     * @throws RedisCompressionException naming the application's beans of {@code type} (any but the one made here),
     *                                   which adaptive compression would leave unused: the adaptive compressor
     *                                   {@code instead}; the action offers {@code adaptive.enabled=false} to
     *                                   {@code fixedMode}
     */
    private static void refuseUnused(ListableBeanFactory beans, Class<?> type, String instead, String fixedMode) {
        String[] own = java.util.Arrays.stream(beans.getBeanNamesForType(type, true, false))
                .filter(name -> !name.equals(VALUE_COMPRESSOR)).toArray(String[]::new);
        if (own.length > 0) {
            String adaptive = RedisCompressionProperties.PREFIX + ".adaptive.enabled";
            throw new RedisCompressionException("the application's " + type.getSimpleName() + " bean"
                    + (own.length == 1 ? " '" : "s '") + String.join("', '", own) + "' would not be used: with "
                    + adaptive + "=true the adaptive compressor " + instead,
                    "remove the bean, or set " + adaptive + "=false to " + fixedMode, null);
        }
    }

    @Bean
    @ConditionalOnMissingBean
    ValueCompressor zstdJavaValueCompressor(RedisCompressionProperties properties,
                                            ObjectProvider<DictionaryManager> dictionaries,
                                            ObjectProvider<AdaptiveCompressor> adaptive) {
        AdaptiveCompressor a = adaptive.getIfAvailable();
        if (a != null) {
            return a.reader();
        }
        CompressionConfig config = properties.toConfig();
        DictionaryManager manager = dictionaries.getIfAvailable();
        if (manager != null && config.backend() != CompressionBackend.ZSTD) {
            throw RedisCompressionProperties.invalid("backend", config.backend(),
                    "zstd while " + RedisCompressionProperties.PREFIX + ".dictionaries.mode is not off (dictionaries"
                            + " are zstd dictionaries)");
        }
        try {
            return manager == null ? ValueCompressor.create(config) : ValueCompressor.create(config, manager);
        } catch (IllegalStateException e) {
            throw new RedisCompressionException(e.getMessage(), TURN_OFF, e);
        }
    }

    /**
     * Boot's {@code redisTemplate}, compressing: the {@code SET} family compressed (adaptive: each value under its
     * key's pattern), counters refused.
     */
    @Bean
    @ConditionalOnMissingBean(name = "redisTemplate")
    @Conditional(OneConnectionFactory.class)
    CompressingRedisTemplate<Object, Object> redisTemplate(RedisConnectionFactory redisConnectionFactory,
                                                           ValueCompressor compressor,
                                                           ObjectProvider<AdaptiveCompressor> adaptive) {
        AdaptiveCompressor a = adaptive.getIfAvailable();
        CompressingRedisTemplate<Object, Object> template = a == null ? new CompressingRedisTemplate<>(compressor)
                : new CompressingRedisTemplate<>(a);
        template.setConnectionFactory(redisConnectionFactory);
        return template;
    }

    /**
     * Opt-in: {@code stringRedisTemplate} compressing too. Its policy refuses {@code INCR}, {@code APPEND},
     * {@code STRLEN} and bit operations for every key, so counters kept there stop working.
     */
    @Bean
    @ConditionalOnMissingBean(StringRedisTemplate.class)
    @Conditional(OneConnectionFactory.class)
    @ConditionalOnBooleanProperty(RedisCompressionProperties.PREFIX + ".string-template")
    CompressingStringRedisTemplate stringRedisTemplate(RedisConnectionFactory redisConnectionFactory,
                                                       ValueCompressor compressor,
                                                       ObjectProvider<AdaptiveCompressor> adaptive) {
        AdaptiveCompressor a = adaptive.getIfAvailable();
        CompressingStringRedisTemplate template = a == null ? new CompressingStringRedisTemplate(compressor)
                : new CompressingStringRedisTemplate(a);
        template.setConnectionFactory(redisConnectionFactory);
        return template;
    }

    /**
     * The templates' condition: the connection factory is a single candidate (one, or one primary among several), as
     * Boot's templates require, or none is defined yet (Boot's, or Redisson's starter's, is defined after this
     * configuration). Several without a primary (an application's own): no template, as Boot makes none then, rather
     * than a startup failure on the ambiguous factory.
     */
    static final class OneConnectionFactory extends AnyNestedCondition {
        OneConnectionFactory() {
            super(ConfigurationPhase.REGISTER_BEAN);
        }

        @ConditionalOnSingleCandidate(RedisConnectionFactory.class)
        static final class Single {
        }

        @ConditionalOnMissingBean(RedisConnectionFactory.class)
        static final class NoneYet {
        }
    }
}
