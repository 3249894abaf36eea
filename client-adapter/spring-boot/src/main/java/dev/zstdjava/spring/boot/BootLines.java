package dev.zstdjava.spring.boot;

import org.springframework.boot.SpringBootVersion;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.type.AnnotationMetadata;
import org.springframework.util.ClassUtils;

/**
 * The Spring Boot generations this module runs on, by the names of their classes: Boot 3.5 keeps Redis, caching and
 * metrics in {@code spring-boot-autoconfigure} and {@code spring-boot-actuator-autoconfigure}, Boot 4.0 and 4.1 in
 * modules of their own under new names. The auto-configurations order themselves by both generations' names and test
 * them by name, so no class of the generation that is absent is ever loaded; the one type that differs and must be
 * implemented, the cache customizer, is implemented once per generation ({@code Boot4Caches} here,
 * {@code Boot3Caches} in {@code src/main/boot3}, compiled against Boot 3.5), each loaded only when its generation is
 * present ({@link Caches}).
 *
 * <p>Stateless; the names are constants (annotation values need them so).
 */
final class BootLines {
    private BootLines() {}

    /** The supported range, as every message names it. */
    static final String SUPPORTED = "Spring Boot 3.5 to 4.1";

    /**
     * The capability this module needs of Boot and that Boot 3.4 lacks: the condition on a boolean property (added in
     * Boot 3.5), which every auto-configuration here uses. Without it Spring would skip those conditions unseen.
     */
    static final String CAPABILITY = "org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty";

    static final String BOOT4_DATA_REDIS = "org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration";
    static final String BOOT3_DATA_REDIS = "org.springframework.boot.autoconfigure.data.redis.RedisAutoConfiguration";

    /**
     * The auto-configurations of Redisson's Spring Boot starter ({@code org.redisson:redisson-spring-boot-starter}) as
     * its {@code AutoConfiguration.imports} lists them: for Boot 4 (4.x starters) and for Boot 3 (3.x starters, and
     * the 4.x starters when Boot 3 is present). Each makes a {@code redisTemplate} and a {@code stringRedisTemplate}
     * that back off when one exists, as Boot's do, so the main auto-configuration runs before them too.
     */
    static final String REDISSON_BOOT4 = "org.redisson.spring.starter.RedissonAutoConfigurationV4";
    static final String REDISSON_BOOT3 = "org.redisson.spring.starter.RedissonAutoConfigurationV2";

    static final String BOOT4_CACHE = "org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration";
    static final String BOOT3_CACHE = "org.springframework.boot.autoconfigure.cache.CacheAutoConfiguration";
    static final String BOOT4_CACHE_CUSTOMIZER =
            "org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer";
    static final String BOOT3_CACHE_CUSTOMIZER =
            "org.springframework.boot.autoconfigure.cache.RedisCacheManagerBuilderCustomizer";

    private static final String BOOT4_METRICS_PACKAGE = "org.springframework.boot.micrometer.metrics.autoconfigure.";
    private static final String BOOT3_METRICS_PACKAGE = "org.springframework.boot.actuate.autoconfigure.metrics.";
    static final String BOOT4_METRICS = BOOT4_METRICS_PACKAGE + "MetricsAutoConfiguration";
    static final String BOOT4_COMPOSITE_REGISTRY = BOOT4_METRICS_PACKAGE + "CompositeMeterRegistryAutoConfiguration";
    static final String BOOT4_SIMPLE_REGISTRY = BOOT4_METRICS_PACKAGE
            + "export.simple.SimpleMetricsExportAutoConfiguration";
    static final String BOOT3_METRICS = BOOT3_METRICS_PACKAGE + "MetricsAutoConfiguration";
    static final String BOOT3_COMPOSITE_REGISTRY = BOOT3_METRICS_PACKAGE + "CompositeMeterRegistryAutoConfiguration";
    static final String BOOT3_SIMPLE_REGISTRY = BOOT3_METRICS_PACKAGE
            + "export.simple.SimpleMetricsExportAutoConfiguration";

    /**
     * Fails unless the running Boot has {@link #CAPABILITY}: a Boot older than 3.5 would otherwise apply these
     * auto-configurations with some of their conditions silently dropped.
     *
     * @throws RedisCompressionException naming the supported range and the Boot found
     */
    static void requireSupported(ClassLoader classLoader) {
        if (!ClassUtils.isPresent(CAPABILITY, classLoader)) {
            String found = SpringBootVersion.getVersion();
            throw new RedisCompressionException("zstd-java-spring-boot supports " + SUPPORTED + "; this application"
                    + " runs Spring Boot " + (found == null ? "(version unknown)" : found) + ", which lacks "
                    + CAPABILITY + " (added in Boot 3.5)", "upgrade to Spring Boot 3.5.x, 4.0.x or 4.1.x, or remove"
                    + " zstd-java-spring-boot (" + RedisCompressionProperties.PREFIX + ".enabled=false also starts"
                    + " without it)", null);
        }
    }

    /**
     * The cache customizer of each generation, by name: each is a configuration conditional on its generation's
     * {@code RedisCacheManagerBuilderCustomizer}, so only the present one is loaded.
     */
    static final class Caches implements ImportSelector {
        @Override
        public String[] selectImports(AnnotationMetadata importingClassMetadata) {
            return new String[] {"dev.zstdjava.spring.boot.Boot4Caches", "dev.zstdjava.spring.boot.Boot3Caches"};
        }
    }
}
