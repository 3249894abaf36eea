package dev.zstdjava.spring.boot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * With {@code zstd-java.redis.compression.enabled} not true: no bean, and the native library not loaded; only one
 * warning naming the other properties of this library that are set, since none of them takes effect
 * ({@link InertProperties}), and one naming those whose value does not bind, since nothing reads them until
 * compression is switched on ({@link UnboundValues}). Uses only what Boot 3.0 already had, as {@link OnCompressionEnabled} does.
 *
 * <p>Made and used by Spring at startup.
 */
@AutoConfiguration
@Conditional(RedisCompressionOffAutoConfiguration.Off.class)
final class RedisCompressionOffAutoConfiguration {
    /**
     * Made by Spring (the package is open to it); warns once about the properties set without effect, and about those
     * that bind to nothing, and about the values that do not bind.
     */
    RedisCompressionOffAutoConfiguration(Environment environment) {
        UnboundValues.warn(environment);
        InertProperties.warn(environment);
        UnknownProperties.warn(environment);
    }

    /** {@code enabled} is not true; a value that is no boolean does not match ({@link OnCompressionEnabled} fails). */
    static final class Off extends SpringBootCondition {
        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            boolean enabled;
            try {
                enabled = OnCompressionEnabled.enabled(context);
            } catch (RuntimeException e) {
                enabled = true;
            }
            return enabled ? ConditionOutcome.noMatch(OnCompressionEnabled.ENABLED + " is true")
                    : ConditionOutcome.match(OnCompressionEnabled.ENABLED + " is not true");
        }
    }
}
