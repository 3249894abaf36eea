package dev.zstdjava.spring.boot;

import dev.zstdjava.spring.boot.RedisCompressionProperties.DictionaryMode;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The properties an application sets (in any property source, not their defaults) that have no effect because a
 * switch leaves them inert, warned about in one line at startup. Startup does not fail, so that settings may be kept
 * while a feature is switched off. Which dictionary mode reads which property is the dictionaries configuration's
 * statement ({@link RedisCompressionDictionariesConfiguration#MODES_READING}), which its beans follow too; the other
 * switches are stated here.
 *
 * <p>Stateless.
 */
final class InertProperties {
    private static final System.Logger LOG = System.getLogger(InertProperties.class.getName());

    /** The info endpoint's switch of this library's entry, read only by an auto-configuration that needs enabled. */
    private static final String INFO = "management.info." + RedisCompressionInfoAutoConfiguration.NAME + ".enabled";

    /** What a rule says of a property set: why it is inert (relative to the prefix), or null when it is not. */
    private interface Rule {
        String inert(ConfigurationPropertyName name, RedisCompressionProperties properties);
    }

    /**
     * @return the rule: the properties under {@code governs} (full names; the prefix itself: every one), but not
     *         {@code except}, are inert while {@code inert} holds
     */
    private static Rule whileSwitch(String because, Predicate<RedisCompressionProperties> inert, List<String> governs,
                                    List<String> except) {
        List<ConfigurationPropertyName> g = governs.stream().map(ConfigurationPropertyName::of).toList();
        List<ConfigurationPropertyName> e = except.stream().map(ConfigurationPropertyName::of).toList();
        return (name, properties) -> g.stream().anyMatch(p -> p.equals(name) || p.isAncestorOf(name))
                && !e.contains(name) && inert.test(properties) ? because : null;
    }

    private static String of(String property) {
        return RedisCompressionProperties.PREFIX + "." + property;
    }

    /** In order: a property several rules leave inert is named under the first. */
    private static final List<Rule> RULES = List.of(
            whileSwitch("enabled is not true: nothing of this library is configured", p -> !p.isEnabled(),
                    List.of(RedisCompressionProperties.PREFIX, INFO), List.of(of("enabled"))),
            whileSwitch("adaptive.enabled is not true", p -> !p.getAdaptive().isEnabled(),
                    List.of(of("adaptive")), List.of(of("adaptive.enabled"))),
            InertProperties::dictionaryMode,
            whileSwitch("adaptive.enabled is true: each option adaptive compression picks has its own algorithm and"
                    + " level", p -> p.getAdaptive().isEnabled(), List.of(of("backend"), of("level")), List.of()));

    private InertProperties() {
    }

    /**
     * A property that a dictionary mode other than the bound one reads: the mode, and (but for off) the modes that read
     * it.
     */
    private static String dictionaryMode(ConfigurationPropertyName name, RedisCompressionProperties properties) {
        Set<DictionaryMode> modes = RedisCompressionDictionariesConfiguration.modesReading(name);
        DictionaryMode mode = properties.getDictionaries().getMode();
        mode = mode == null ? DictionaryMode.OFF : mode; // as the beans' conditions bind it
        if (modes == null || modes.contains(mode)) {
            return null;
        }
        String because = "dictionaries.mode is " + lower(mode);
        return mode == DictionaryMode.OFF ? because : because + ", not "
                + modes.stream().map(InertProperties::lower).collect(Collectors.joining(" or "));
    }

    private static String lower(DictionaryMode mode) {
        return mode.name().toLowerCase(Locale.ROOT);
    }

    /**
     * @return the properties set in {@code environment} without effect, by the reason (empty: none), the reasons in
     *         the order of the rules, but those that bind to nothing ({@link UnknownProperties} names them) and those
     *         whose value does not bind, the others bound without them (with compression enabled, startup fails on
     *         them elsewhere, naming them; with it off {@link UnboundValues} names them)
     */
    static Map<String, Set<String>> find(Environment environment) {
        Bound bound = bind(environment);
        if (bound == null) {
            return Map.of();
        }
        Map<Integer, Map<String, Set<String>>> byRule = new TreeMap<>();
        for (SetProperty set : bound.set()) {
            for (int i = 0; i < RULES.size(); i++) {
                String because = RULES.get(i).inert(set.name(), bound.properties());
                if (because != null) {
                    byRule.computeIfAbsent(i, r -> new TreeMap<>())
                            .computeIfAbsent(because, b -> new TreeSet<>()).add(set.asSet());
                    break;
                }
            }
        }
        Map<String, Set<String>> inert = new LinkedHashMap<>();
        byRule.values().forEach(inert::putAll);
        return inert;
    }

    /** A property set in some source: its name, and the name as the application set it ({@link #asSet}). */
    record SetProperty(ConfigurationPropertyName name, String asSet) {
    }

    /**
     * The properties bound from an environment, and those set there under the prefix (and the info entry's switch),
     * each as often as sources set it, but those that bind to nothing ({@link UnknownProperties} names them) and those
     * whose value does not bind, the others bound without them (with compression enabled, startup fails on them
     * elsewhere, naming them; with it off {@link UnboundValues} names them).
     */
    record Bound(RedisCompressionProperties properties, List<SetProperty> set) {
    }

    /** @return what {@code environment} sets and binds; null when the properties do not bind at all */
    static Bound bind(Environment environment) {
        RedisCompressionProperties properties;
        UnboundValues.Failures failures = new UnboundValues.Failures(environment); // named there instead
        try {
            properties = Binder.get(environment).bind(RedisCompressionProperties.PREFIX,
                    Bindable.of(RedisCompressionProperties.class), failures)
                    .orElseGet(RedisCompressionProperties::new);
        } catch (RuntimeException e) {
            return null;
        }
        List<ConfigurationPropertyName> roots = List.of(ConfigurationPropertyName.of(RedisCompressionProperties.PREFIX),
                ConfigurationPropertyName.of(INFO));
        Set<ConfigurationPropertyName> unknown = UnknownProperties.names(environment); // named as unknown
        List<SetProperty> set = new ArrayList<>();
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            if (!(source instanceof IterableConfigurationPropertySource iterable)) {
                continue;
            }
            iterable.filter(n -> !unknown.contains(n) && !failures.names().contains(n)
                            && roots.stream().anyMatch(r -> r.equals(n) || r.isAncestorOf(n)))
                    .stream()
                    .forEach(name -> set.add(new SetProperty(name, asSet(iterable, name))));
        }
        return new Bound(properties, set);
    }

    /**
     * @return {@code name} as the application set it where Spring maps it from another form: an environment
     *         variable's name (Spring's mapped form, {@code zstdjava.redis...}, is set nowhere); else the property's
     *         own name, without a list index ({@code patterns[0]}, {@code patterns[1]}: {@code patterns})
     */
    private static String asSet(IterableConfigurationPropertySource source, ConfigurationPropertyName name) {
        ConfigurationProperty property = source.getConfigurationProperty(name);
        return asSet(name, property == null ? null : property.getOrigin());
    }

    /** @return {@code property}'s name as the application set it, as the other {@code asSet} says */
    static String asSet(ConfigurationProperty property) {
        return asSet(property.getName(), property.getOrigin());
    }

    private static String asSet(ConfigurationPropertyName name, Origin origin) {
        if (origin instanceof PropertySourceOrigin o
                && o.getPropertySource() instanceof SystemEnvironmentPropertySource) {
            return o.getPropertyName();
        }
        for (int i = 0; i < name.getNumberOfElements(); i++) {
            if (name.isNumericIndex(i)) {
                return name.chop(i).toString();
            }
        }
        return name.toString();
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
}
