package dev.zstdjava.spring.boot;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.ValueCompressor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Boot 4.0 and 4.1: {@link CacheValueCompression} as the customizer of Boot's {@code RedisCacheManager} in
 * {@code spring-boot-cache}. Imported by name ({@link BootLines.Caches}) and loaded only when that interface is present;
 * {@code Boot3Caches} (in {@code src/main/boot3}) is the same for Boot 3.5.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = BootLines.BOOT4_CACHE_CUSTOMIZER)
class Boot4Caches {
    @Bean
    @Conditional(OnNoCacheCustomizer.Boot4.class)
    Customizer zstdJavaCacheValueCompression(ValueCompressor compressor,
                                             ObjectProvider<AdaptiveCompressor> adaptive) {
        return new Customizer(compressor, adaptive.getIfAvailable());
    }

    /** The shared wrapping, as Boot 4's customizer type. Thread-safe, as {@link CacheValueCompression}. */
    static final class Customizer extends CacheValueCompression implements RedisCacheManagerBuilderCustomizer {
        Customizer(ValueCompressor compressor, AdaptiveCompressor adaptive) {
            super(compressor, adaptive);
        }
    }
}
