package dev.zstdjava.spring.boot;

import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.micrometer.CompressionMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The compressor's Micrometer meters ({@link CompressionMetrics}: {@code zstdjava.values.*}) when a
 * {@link MeterRegistry} bean is present. Boot's metrics auto-configuration binds the {@code MeterBinder} to its
 * registries; without it (a registry the application defines itself), the binder is bound here to every registry.
 */
@AutoConfiguration(after = RedisCompressionAutoConfiguration.class, afterName = {
        "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration",
        "org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration"})
@ConditionalOnClass({MeterRegistry.class, CompressionMetrics.class, ValueCompressor.class})
@ConditionalOnBooleanProperty(RedisCompressionProperties.PREFIX + ".enabled")
@ConditionalOnBean({ValueCompressor.class, MeterRegistry.class})
public final class RedisCompressionMetricsAutoConfiguration {
    /** Made by Spring (the package is open to it). */
    RedisCompressionMetricsAutoConfiguration() {
    }

    static final String BOOT_METRICS =
            "org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration";

    @Bean
    @ConditionalOnMissingBean
    CompressionMetrics zstdJavaCompressionMetrics(ValueCompressor compressor) {
        return new CompressionMetrics(compressor);
    }

    /** Without Boot's metrics auto-configuration nothing binds {@code MeterBinder} beans: bind this one here. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass(BOOT_METRICS)
    static class Binding {
        @Bean
        SmartInitializingSingleton zstdJavaCompressionMetricsBinding(ObjectProvider<MeterRegistry> registries,
                                                                    ObjectProvider<CompressionMetrics> metrics) {
            return () -> metrics.ifAvailable(m -> registries.orderedStream().forEach(m::bindTo));
        }
    }
}
