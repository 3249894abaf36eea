package dev.zstdjava.spring.boot;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The condition of every auto-configuration here: {@code zstd-java.redis.compression.enabled=true}, on a supported
 * Boot. Off, nothing applies, on any Boot. On, a Boot older than 3.5 fails startup naming the supported range
 * ({@link BootLines#requireSupported}) before any bean is defined, rather than running with the conditions it cannot
 * read dropped. It uses only what Boot 3.0 already had, so that older Boots evaluate it.
 *
 * <p>Stateless.
 */
final class OnCompressionEnabled extends SpringBootCondition {
    static final String ENABLED = RedisCompressionProperties.PREFIX + ".enabled";

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        if (!context.getEnvironment().getProperty(ENABLED, Boolean.class, false)) {
            return ConditionOutcome.noMatch(ENABLED + " is not true");
        }
        BootLines.requireSupported(context.getClassLoader());
        return ConditionOutcome.match(ENABLED + " is true");
    }
}
