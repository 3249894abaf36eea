package dev.zstdjava.spring.boot;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.micrometer.CompressionMetrics;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingClass;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;

/**
 * The compressor's Micrometer meters ({@link CompressionMetrics}: {@code zstdjava.values.*}) when a
 * {@link MeterRegistry} bean is present. Boot's metrics auto-configuration binds the {@code MeterBinder} to its
 * registries; without it on the class path (a registry the application defines itself), the binder is bound here to
 * every registry. With it on the class path but excluded, nothing binds it, as nothing binds Boot's own
 * {@code MeterBinder} beans then (JVM, data-source pools): the application binds what it wants.
 * Runs after Boot's metrics auto-configurations of either generation (Boot 4's {@code spring-boot-micrometer-metrics},
 * Boot 3.5's {@code spring-boot-actuator-autoconfigure}), so that their registry exists when its condition is tested.
 *
 * <p>With adaptive compression the meters are the adaptive compressor's ({@link CompressionMetrics}'s
 * {@code zstdjava.values.adaptive.patterns}, one series per option).
 *
 * <p>Made and used by Spring at startup; {@link CompressionMetrics} is thread-safe.
 */
@AutoConfiguration(after = RedisCompressionAutoConfiguration.class, afterName = {
        BootLines.BOOT4_METRICS, BootLines.BOOT4_COMPOSITE_REGISTRY, BootLines.BOOT4_SIMPLE_REGISTRY,
        BootLines.BOOT3_METRICS, BootLines.BOOT3_COMPOSITE_REGISTRY, BootLines.BOOT3_SIMPLE_REGISTRY})
@ConditionalOnClass({MeterRegistry.class, CompressionMetrics.class, ValueCompressor.class})
@Conditional(OnCompressionEnabled.class)
@ConditionalOnBean({ValueCompressor.class, MeterRegistry.class})
public final class RedisCompressionMetricsAutoConfiguration {
    /** Made by Spring (the package is open to it). */
    RedisCompressionMetricsAutoConfiguration() {
    }

    @Bean
    @ConditionalOnMissingBean
    CompressionMetrics zstdJavaCompressionMetrics(ValueCompressor compressor,
                                                  ObjectProvider<AdaptiveCompressor> adaptive) {
        AdaptiveCompressor a = adaptive.getIfAvailable();
        return a == null ? new CompressionMetrics(compressor) : new CompressionMetrics(a, Tags.empty());
    }

    /** Without Boot's metrics auto-configuration nothing binds {@code MeterBinder} beans: bind this one here. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnMissingClass({BootLines.BOOT4_METRICS, BootLines.BOOT3_METRICS})
    static class Binding {
        @Bean
        SmartInitializingSingleton zstdJavaCompressionMetricsBinding(ObjectProvider<MeterRegistry> registries,
                                                                    ObjectProvider<CompressionMetrics> metrics) {
            return () -> metrics.ifAvailable(m -> registries.orderedStream().forEach(m::bindTo));
        }
    }
}
