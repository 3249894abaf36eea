package dev.zstdjava.spring.boot;

import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.Environment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * The properties an application sets (in any property source, not their defaults) that have no effect because a
 * switch leaves them inert, warned about in one line at startup: the one place that says which property depends on
 * which switch. Startup does not fail, so that settings may be kept while a feature is switched off.
 *
 * <p>Stateless.
 */
final class InertProperties {
    private static final System.Logger LOG = System.getLogger(InertProperties.class.getName());

    /**
     * Properties under {@code governs} (relative to the prefix; empty: every one), but not {@code except}, are inert
     * while {@code inert} holds.
     */
    private record Rule(String because, Predicate<RedisCompressionProperties> inert, List<String> governs,
                        List<String> except) {
        boolean covers(ConfigurationPropertyName name) {
            return governs.stream().anyMatch(g -> matches(g, name))
                    && except.stream().noneMatch(e -> of(e).equals(name));
        }

        private static boolean matches(String property, ConfigurationPropertyName name) {
            ConfigurationPropertyName p = of(property);
            return p.equals(name) || p.isAncestorOf(name);
        }
    }

    /** In order: a property several rules leave inert is named under the first. */
    private static final List<Rule> RULES = List.of(
            new Rule("enabled is not true: nothing of this library is configured", p -> !p.isEnabled(),
                    List.of(""), List.of("enabled")),
            new Rule("adaptive.enabled is not true", p -> !p.getAdaptive().isEnabled(),
                    List.of("adaptive"), List.of("adaptive.enabled")),
            new Rule("dictionaries.mode is off",
                    p -> p.getDictionaries().getMode() == RedisCompressionProperties.DictionaryMode.OFF,
                    List.of("dictionaries", "adaptive.dictionary-memory", "adaptive.dictionary-patterns",
                            "adaptive.dictionary-reopen-delay"), List.of("dictionaries.mode")),
            new Rule("adaptive.enabled is true: each option adaptive compression picks has its own algorithm and"
                    + " level", p -> p.getAdaptive().isEnabled(), List.of("backend", "level"), List.of()));

    private InertProperties() {
    }

    private static ConfigurationPropertyName of(String property) {
        String prefix = RedisCompressionProperties.PREFIX;
        return ConfigurationPropertyName.of(property.isEmpty() ? prefix : prefix + "." + property);
    }

    /**
     * @return the properties set in {@code environment} without effect, by the reason (empty: none); empty too when
     *         the properties do not bind (startup fails on them elsewhere, naming them)
     */
    static Map<String, Set<String>> find(Environment environment) {
        RedisCompressionProperties properties;
        try {
            properties = Binder.get(environment).bindOrCreate(RedisCompressionProperties.PREFIX,
                    RedisCompressionProperties.class);
        } catch (RuntimeException e) {
            return Map.of();
        }
        ConfigurationPropertyName root = ConfigurationPropertyName.of(RedisCompressionProperties.PREFIX);
        Map<String, Set<String>> inert = new LinkedHashMap<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)) {
                continue;
            }
            iterable.filter(root::isAncestorOf).stream().forEach(name -> {
                for (Rule rule : RULES) {
                    if (rule.covers(name) && rule.inert.test(properties)) {
                        inert.computeIfAbsent(rule.because, r -> new TreeSet<>()).add(unindexed(name).toString());
                        return;
                    }
                }
            });
        }
        return inert;
    }

    /** Logs one warning naming every property {@link #find} finds, if any. */
    static void warn(Environment environment) {
        Map<String, Set<String>> inert = find(environment);
        if (inert.isEmpty()) {
            return;
        }
        List<String> parts = new ArrayList<>();
        inert.forEach((because, names) -> parts.add(String.join(", ", names) + " (" + RedisCompressionProperties.PREFIX
                + "." + because + ")"));
        LOG.log(System.Logger.Level.WARNING, "zstd-java: properties set without effect: " + String.join("; ", parts)
                + "; they take effect once that switch allows them, or remove them");
    }

    // patterns[0], patterns[1]: patterns
    private static ConfigurationPropertyName unindexed(ConfigurationPropertyName name) {
        for (int i = 0; i < name.getNumberOfElements(); i++) {
            if (name.isNumericIndex(i)) {
                return name.chop(i);
            }
        }
        return name;
    }
}
