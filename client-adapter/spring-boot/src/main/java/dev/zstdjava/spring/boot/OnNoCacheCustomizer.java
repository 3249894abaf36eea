package dev.zstdjava.spring.boot;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.ClassUtils;

/**
 * The condition of each generation's cache customizer bean: it backs off for a {@link CacheValueCompression} bean of
 * the application's only when that bean is the running generation's {@code RedisCacheManagerBuilderCustomizer} too,
 * the one Boot calls. A plain {@code CacheValueCompression} bean (one the application calls itself, for a cache
 * manager of its own) is never called by Boot: backing off for it would leave Boot's caches uncompressed, unseen.
 * The bean's type is its declared one (a factory method's return type): declare the customizer's.
 *
 * <p>Stateless.
 */
abstract class OnNoCacheCustomizer extends SpringBootCondition implements ConfigurationCondition {
    private final String customizer;

    OnNoCacheCustomizer(String customizer) {
        this.customizer = customizer;
    }

    @Override
    public ConfigurationPhase getConfigurationPhase() {
        return ConfigurationPhase.REGISTER_BEAN;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        ConfigurableListableBeanFactory beans = context.getBeanFactory();
        Class<?> type = ClassUtils.resolveClassName(customizer, context.getClassLoader());
        for (String name : beans.getBeanNamesForType(CacheValueCompression.class, true, false)) {
            Class<?> bean = beans.getType(name, false);
            if (bean != null && type.isAssignableFrom(bean)) {
                return ConditionOutcome.noMatch("the application's CacheValueCompression '" + name + "' is a "
                        + customizer);
            }
        }
        return ConditionOutcome.match("no CacheValueCompression bean is a " + customizer);
    }

    /** Boot 4.0 and 4.1's customizer ({@code Boot4Caches}). */
    static final class Boot4 extends OnNoCacheCustomizer {
        Boot4() {
            super(BootLines.BOOT4_CACHE_CUSTOMIZER);
        }
    }

    /** Boot 3.5's customizer ({@code Boot3Caches}). */
    static final class Boot3 extends OnNoCacheCustomizer {
        Boot3() {
            super(BootLines.BOOT3_CACHE_CUSTOMIZER);
        }
    }
}
