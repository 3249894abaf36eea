package dev.zstdjava.spring.boot;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.ValueCompressor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

/**
 * The {@code zstd-java} entry of Actuator's info endpoint ({@link CompressionInfoContributor}) when Actuator is on the
 * class path; {@code management.info.zstd-java.enabled=false} leaves it out.
 */
@AutoConfiguration(after = RedisCompressionAutoConfiguration.class)
@ConditionalOnClass({InfoContributor.class, ValueCompressor.class})
@Conditional(OnCompressionEnabled.class)
@ConditionalOnBooleanProperty(name = "management.info.zstd-java.enabled", matchIfMissing = true)
@ConditionalOnBean(ValueCompressor.class)
public final class RedisCompressionInfoAutoConfiguration {
    /** Made by Spring (the package is open to it). */
    RedisCompressionInfoAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    CompressionInfoContributor zstdJavaInfoContributor(ValueCompressor compressor,
                                                       ObjectProvider<AdaptiveCompressor> adaptive) {
        AdaptiveCompressor a = adaptive.getIfAvailable();
        return a == null ? new CompressionInfoContributor(compressor) : new CompressionInfoContributor(a);
    }
}
