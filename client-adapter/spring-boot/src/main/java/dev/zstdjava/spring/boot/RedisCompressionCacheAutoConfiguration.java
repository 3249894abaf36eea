package dev.zstdjava.spring.boot;

import dev.zstdjava.values.ValueCompressor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.cache.CacheManager;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.cache.RedisCacheManager;

/**
 * Compressed values for every cache of Boot's {@code RedisCacheManager} ({@link CacheValueCompression}), unless
 * {@code zstd-java.redis.compression.caches=false} or the application defines its own {@link CacheManager} (then Boot
 * builds none and nothing here applies). Before Boot's {@code CacheAutoConfiguration}, after the compressor's.
 */
@AutoConfiguration(after = RedisCompressionAutoConfiguration.class,
        beforeName = "org.springframework.boot.cache.autoconfigure.CacheAutoConfiguration")
@ConditionalOnClass({RedisCacheManager.class, RedisCacheManagerBuilderCustomizer.class, ValueCompressor.class})
@ConditionalOnBooleanProperty(RedisCompressionProperties.PREFIX + ".enabled")
@ConditionalOnBooleanProperty(name = RedisCompressionProperties.PREFIX + ".caches", matchIfMissing = true)
@ConditionalOnBean(ValueCompressor.class)
@ConditionalOnMissingBean(CacheManager.class)
public final class RedisCompressionCacheAutoConfiguration {
    /** Made by Spring (the package is open to it). */
    RedisCompressionCacheAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    CacheValueCompression zstdJavaCacheValueCompression(ValueCompressor compressor) {
        return new CacheValueCompression(compressor);
    }
}
