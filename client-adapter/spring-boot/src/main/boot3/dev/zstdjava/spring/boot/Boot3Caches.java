package dev.zstdjava.spring.boot;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.ValueCompressor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.cache.RedisCacheManagerBuilderCustomizer;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * Boot 3.5: {@link CacheValueCompression} as the customizer of Boot's {@code RedisCacheManager} in
 * {@code spring-boot-autoconfigure}. Imported by name ({@link BootLines.Caches}) and loaded only when that interface is
 * present; {@link Boot4Caches} is the same for Boot 4.
 *
 * <p>The one source file compiled against Boot 3.5 ({@code src/main/boot3}, see this module's pom) into the same jar.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = BootLines.BOOT3_CACHE_CUSTOMIZER)
class Boot3Caches {
    @Bean
    @Conditional(OnNoCacheCustomizer.Boot3.class)
    Customizer zstdJavaCacheValueCompression(ValueCompressor compressor,
                                             ObjectProvider<AdaptiveCompressor> adaptive) {
        return new Customizer(compressor, adaptive.getIfAvailable());
    }

    /** The shared wrapping, as Boot 3.5's customizer type. Thread-safe, as {@link CacheValueCompression}. */
    static final class Customizer extends CacheValueCompression implements RedisCacheManagerBuilderCustomizer {
        Customizer(ValueCompressor compressor, AdaptiveCompressor adaptive) {
            super(compressor, adaptive);
        }
    }
}
