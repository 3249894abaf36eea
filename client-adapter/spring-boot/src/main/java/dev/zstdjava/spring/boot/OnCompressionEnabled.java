package dev.zstdjava.spring.boot;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The condition of every auto-configuration here: {@code zstd-java.redis.compression.enabled=true}, on a supported
 * Boot. Off, nothing applies, on any Boot, but for {@link RedisCompressionOffAutoConfiguration}'s warning. On, a
 * Boot older than 3.5 fails startup naming the supported range ({@link BootLines#requireSupported}) before any bean
 * is defined, rather than running with the conditions it cannot
 * read dropped. It uses only what Boot 3.0 already had, so that older Boots evaluate it. On, a switch that other
 * conditions read ({@code adaptive.enabled}, {@code string-template}, {@code caches}) with a value other than
 * {@code true} or {@code false} fails startup naming it; so does {@code enabled} with a value that is no boolean.
 *
 * <p>Stateless.
 */
final class OnCompressionEnabled extends SpringBootCondition {
    static final String ENABLED = RedisCompressionProperties.PREFIX + ".enabled";

    /**
     * The switches that conditions read (Boot's {@code ConditionalOnBooleanProperty}, which matches {@code true} or
     * {@code false} only) and that are bound too (where Boot's conversion also reads {@code on}, {@code yes} or
     * {@code 1} as true): any other value would bind one way and leave the beans the other, unseen, so it fails
     * startup naming the property.
     */
    private static final String[] SWITCHES = {"adaptive.enabled", "string-template", "caches"};

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        if (!enabled(context)) {
            return ConditionOutcome.noMatch(ENABLED + " is not true");
        }
        BootLines.requireSupported(context.getClassLoader());
        for (String name : SWITCHES) {
            String value = context.getEnvironment().getProperty(RedisCompressionProperties.PREFIX + "." + name);
            if (value != null && !"true".equalsIgnoreCase(value) && !"false".equalsIgnoreCase(value)) {
                throw RedisCompressionProperties.invalid(name, value, "true, false");
            }
        }
        return ConditionOutcome.match(ENABLED + " is true");
    }

    // as Boot binds it (on, yes and 1 are true, an empty value false); a value that is no boolean fails naming the
    // property, which Spring's conversion error, thrown from here, would not
    static boolean enabled(ConditionContext context) {
        try {
            return context.getEnvironment().getProperty(ENABLED, Boolean.class, false);
        } catch (RuntimeException e) {
            throw RedisCompressionProperties.invalid("enabled", context.getEnvironment().getProperty(ENABLED),
                    "true, false");
        }
    }
}
