package dev.zstdjava.spring.boot;

import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.UnboundConfigurationPropertiesException;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.origin.Origin;
import org.springframework.boot.origin.PropertySourceOrigin;
import org.springframework.core.env.Environment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import java.util.HashSet;
import java.util.Set;
import java.util.TreeSet;

/**
 * The properties an application sets under {@link RedisCompressionProperties#PREFIX} that bind to nothing (a
 * misspelled name, or one a newer version reads), warned about in one line at startup. Startup does not fail, so that
 * settings written for a newer version do not stop an older one. Which names bind is Spring's own statement: the
 * properties are bound a second time with its {@link NoUnboundElementsBindHandler}, whose
 * {@link UnboundConfigurationPropertiesException} names the rest.
 *
 * <p>Stateless.
 */
final class UnknownProperties {
    private static final System.Logger LOG = System.getLogger(UnknownProperties.class.getName());

    private UnknownProperties() {
    }

    /**
     * @return the properties set in {@code environment} under the prefix that bind to nothing, each as the application
     *         set it (an environment variable as the variable, a list's elements as the list), with the place in a
     *         file where it was set when known, sorted (empty: none); a known property whose value does not bind is
     *         not one (with compression enabled, startup fails on it elsewhere, naming it; with it off
     *         {@link UnboundValues} names it)
     */
    static Set<String> find(Environment environment) {
        Set<String> unknown = new TreeSet<>();
        for (ConfigurationProperty property : unbound(environment)) {
            Origin origin = property.getOrigin();
            if (origin instanceof PropertySourceOrigin source) { // the source's name says nothing more
                // the place in a file, if known; an environment variable is named as the variable already
                origin = source.getPropertySource() instanceof SystemEnvironmentPropertySource ? null
                        : originIn(source);
            }
            String name = InertProperties.asSet(property);
            unknown.add(origin == null ? name : name + " (" + origin + ")");
        }
        return unknown;
    }

    /**
     * @return the names of the properties set in {@code environment} under the prefix that bind to nothing (empty:
     *         none)
     */
    static Set<ConfigurationPropertyName> names(Environment environment) {
        Set<ConfigurationPropertyName> names = new HashSet<>();
        unbound(environment).forEach(p -> names.add(p.getName()));
        return names;
    }

    /**
     * The names Spring's handler reports, less those set to an empty value (a property of ours set to {@code ""}, such
     * as {@code level=${LEVEL:}} with the variable unset, converts to null and keeps its default: the handler counts
     * it as unbound, but its name is right), and those whose value does not bind (the handler counts them unbound
     * too; the rest are bound without them).
     */
    private static Set<ConfigurationProperty> unbound(Environment environment) {
        Set<ConfigurationProperty> unbound;
        UnboundValues.Failures failures = new UnboundValues.Failures(environment); // named there instead
        try {
            Binder.get(environment).bind(RedisCompressionProperties.PREFIX,
                    Bindable.of(RedisCompressionProperties.class), new NoUnboundElementsBindHandler(failures));
            return Set.of();
        } catch (BindException e) {
            if (!(e.getCause() instanceof UnboundConfigurationPropertiesException u)) {
                return Set.of();
            }
            unbound = u.getUnboundProperties();
        } catch (RuntimeException e) {
            return Set.of();
        }
        Set<ConfigurationProperty> named = new HashSet<>();
        for (ConfigurationProperty p : unbound) {
            Object value = p.getValue();
            if (failures.names().contains(p.getName())) {
                continue; // a known property whose value does not bind
            }
            if (!(value instanceof String v) || !environment.resolvePlaceholders(v).isEmpty()) {
                named.add(p);
            }
        }
        return named;
    }

    /** @return where in its source a property was set, or null where not known (or this Boot cannot say) */
    private static Origin originIn(PropertySourceOrigin source) {
        try {
            return source.getOrigin();
        } catch (LinkageError olderBoot) { // this auto-configuration also runs, switched off, on Boot lines before 3.5
            return null;
        }
    }

    /** Logs one warning naming every property {@link #find} finds, if any. */
    static void warn(Environment environment) {
        Set<String> unknown = find(environment);
        if (!unknown.isEmpty()) {
            LOG.log(System.Logger.Level.WARNING, "zstd-java: unknown properties, ignored: " + String.join(", ", unknown)
                    + "; check their spelling against the documented properties, or remove them (a property of a"
                    + " newer version is ignored by this one)");
        }
    }
}
