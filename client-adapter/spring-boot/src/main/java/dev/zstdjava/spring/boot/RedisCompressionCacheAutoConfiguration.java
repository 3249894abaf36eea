package dev.zstdjava.spring.boot;

import dev.zstdjava.values.ValueCompressor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.cache.CacheManager;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.cache.RedisCacheManager;

/**
 * Compressed values for every cache of Boot's {@code RedisCacheManager} ({@link CacheValueCompression}), unless
 * {@code zstd-java.redis.compression.caches=false} or the application defines its own {@link CacheManager} (then Boot
 * builds none and nothing here applies). Before Boot's {@code CacheAutoConfiguration} (Boot 4's
 * {@code spring-boot-cache}, or Boot 3.5's in {@code spring-boot-autoconfigure}), after the compressor's.
 *
 * <p>The customizer bean itself comes from the configuration of the generation present ({@code Boot4Caches} or
 * {@code Boot3Caches}, selected by {@link BootLines.Caches}): without either generation's
 * {@code RedisCacheManagerBuilderCustomizer} (no cache module) nothing is defined.
 *
 * <p>Made and used by Spring at startup.
 */
@AutoConfiguration(after = RedisCompressionAutoConfiguration.class,
        beforeName = {BootLines.BOOT4_CACHE, BootLines.BOOT3_CACHE})
@ConditionalOnClass({RedisCacheManager.class, ValueCompressor.class})
@Conditional(OnCompressionEnabled.class)
@ConditionalOnBooleanProperty(name = RedisCompressionProperties.PREFIX + ".caches", matchIfMissing = true)
@ConditionalOnBean(ValueCompressor.class)
@ConditionalOnMissingBean(CacheManager.class)
@Import(BootLines.Caches.class)
public final class RedisCompressionCacheAutoConfiguration {
    /** Made by Spring (the package is open to it). */
    RedisCompressionCacheAutoConfiguration() {
    }
}
