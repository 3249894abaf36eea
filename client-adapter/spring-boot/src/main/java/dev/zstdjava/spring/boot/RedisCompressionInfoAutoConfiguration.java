package dev.zstdjava.spring.boot;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.ValueCompressor;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.actuate.autoconfigure.info.ConditionalOnEnabledInfoContributor;
import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;

import java.util.Map;

/**
 * The {@code zstd-java} entry of Actuator's info endpoint ({@link CompressionInfoContributor}) when Actuator is on the
 * class path, by Boot's rule for its own info contributors ({@link ConditionalOnEnabledInfoContributor}):
 * {@code management.info.zstd-java.enabled} when set, else {@code management.info.defaults.enabled}, else shown.
 *
 * <p>Note: the condition is in {@code spring-boot-actuator-autoconfigure}, in the same package on Boot 3.5, 4.0 and
 * 4.1; without that jar there is no info endpoint, and no entry ({@link ConditionalOnClass}, so that the condition is
 * never dropped unseen).
 */
@AutoConfiguration(after = RedisCompressionAutoConfiguration.class)
@ConditionalOnClass({InfoContributor.class, ConditionalOnEnabledInfoContributor.class, ValueCompressor.class})
@Conditional(OnCompressionEnabled.class)
@ConditionalOnEnabledInfoContributor(RedisCompressionInfoAutoConfiguration.NAME)
@ConditionalOnBean(ValueCompressor.class)
public final class RedisCompressionInfoAutoConfiguration {
    /** The entry's name in the info endpoint, and in {@code management.info.<name>.enabled}. */
    static final String NAME = "zstd-java";

    /** Made by Spring (the package is open to it). */
    RedisCompressionInfoAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    CompressionInfoContributor zstdJavaInfoContributor(ValueCompressor compressor,
                                                       ObjectProvider<AdaptiveCompressor> adaptive,
                                                       ObjectProvider<RedisCompressionProperties> properties,
                                                       ConfigurableListableBeanFactory beans) {
        AdaptiveCompressor a = adaptive.getIfAvailable();
        Map<String, Long> bounds = RedisCompressionDictionariesConfiguration.bounds(compressor, a,
                properties.getIfAvailable(), beans);
        return a == null ? new CompressionInfoContributor(compressor, bounds)
                : new CompressionInfoContributor(a, bounds);
    }
}
