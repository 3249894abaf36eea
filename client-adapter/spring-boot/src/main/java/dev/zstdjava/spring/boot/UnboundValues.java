package dev.zstdjava.spring.boot;

import org.springframework.boot.context.properties.bind.AbstractBindHandler;
import org.springframework.boot.context.properties.bind.BindContext;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.core.ResolvableType;
import org.springframework.core.convert.ConversionException;
import org.springframework.core.env.Environment;

import java.util.Arrays;
import java.util.Collection;
import java.util.HashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Collectors;

/**
 * The properties an application sets under {@link RedisCompressionProperties#PREFIX} whose value does not bind
 * ({@code level=abc}, {@code adaptive.goal=fast}, {@code dictionaries.max-loaded-bytes=lots}), warned about in one line
 * at startup while compression is off ({@link RedisCompressionOffAutoConfiguration}): nothing reads them then, so
 * they would stay unseen until compression is switched on, when startup may fail naming them. Startup does not fail.
 * Which values do not bind, and why, is Spring's own statement: the properties are bound with a handler that records
 * each failure and goes on. They are bound with Spring's default conversions only: an application's
 * {@code @ConfigurationPropertiesBinding} converters and its {@code conversionService} bean, which Boot's own binding
 * uses, are not applied here, so a value one of those converts is named too, and may bind with compression enabled.
 *
 * <p>Stateless.
 */
final class UnboundValues {
    private static final System.Logger LOG = System.getLogger(UnboundValues.class.getName());

    /** The longest reason quoted from Spring's conversion failure; the rest is cut. */
    private static final int MAX_REASON = 160;

    private UnboundValues() {
    }

    /**
     * A bind handler that records each property whose value does not bind and leaves it unbound (its default stays),
     * so that binding goes on. For one binding; not thread-safe.
     */
    static final class Failures extends AbstractBindHandler {
        private final Environment environment;
        /** each failure as the application set it ({@link InertProperties#asSet}, with the value): why */
        private final Map<String, String> reasons = new TreeMap<>();
        private final Set<ConfigurationPropertyName> names = new HashSet<>();

        Failures(Environment environment) {
            this.environment = environment;
        }

        @Override
        public Object onFailure(ConfigurationPropertyName name, Bindable<?> target, BindContext context,
                                Exception error) {
            ConfigurationProperty property = context.getConfigurationProperty();
            String set = property == null ? name.toString() : InertProperties.asSet(property) + "="
                    + environment.resolvePlaceholders(String.valueOf(property.getValue()));
            reasons.put(set, reason(target, error));
            names.add(name);
            return null; // unbound: the default stays, and binding goes on
        }

        /** @return the names of the properties whose value did not bind (empty: none) */
        Set<ConfigurationPropertyName> names() {
            return names;
        }
    }

    /**
     * @return each property set in {@code environment} under the prefix whose value does not bind, as the application
     *         set it ({@link InertProperties#asSet}) with its value, mapped to why it does not bind, sorted (empty:
     *         none)
     */
    static Map<String, String> find(Environment environment) {
        Failures failures = new Failures(environment);
        try {
            Binder.get(environment).bind(RedisCompressionProperties.PREFIX,
                    Bindable.of(RedisCompressionProperties.class), failures);
        } catch (BindException e) { // a failure outside any one property's value: not this warning's to name
        }
        return failures.reasons;
    }

    /**
     * @return why a value does not bind: for an enum or a collection or array of one, its constants as a property
     *         writes them (lower case, {@code -} for {@code _}); else the message of the first cause that is not
     *         Spring's generic wrapper ("Failed to convert from type ..."), cut to {@link #MAX_REASON} characters
     */
    private static String reason(Bindable<?> target, Exception error) {
        ResolvableType type = target.getType();
        Class<?> resolved = type.resolve();
        if (resolved != null && (resolved.isArray() || Collection.class.isAssignableFrom(resolved))) {
            type = resolved.isArray() ? type.getComponentType() : type.asCollection().getGeneric(0);
            resolved = type.resolve(); // a collection's elements: each is one of the constants
        }
        if (resolved != null && resolved.isEnum()) {
            return "not one of " + Arrays.stream(resolved.getEnumConstants())
                    .map(c -> ((Enum<?>) c).name().toLowerCase(Locale.ROOT).replace('_', '-'))
                    .collect(Collectors.joining(", "));
        }
        Throwable t = error;
        while ((t instanceof ConversionException || t instanceof BindException) && t.getCause() != null) {
            t = t.getCause();
        }
        String message = t.getMessage() == null ? t.getClass().getSimpleName() : t.getMessage().strip();
        int line = message.indexOf('\n');
        message = line < 0 ? message : message.substring(0, line).strip();
        return message.length() <= MAX_REASON ? message : message.substring(0, MAX_REASON) + "...";
    }

    /** Logs one warning naming every property {@link #find} finds, if any. */
    static void warn(Environment environment) {
        Map<String, String> failures = find(environment);
        if (failures.isEmpty()) {
            return;
        }
        LOG.log(System.Logger.Level.WARNING, "zstd-java: properties whose value does not bind, unread while "
                + OnCompressionEnabled.ENABLED + " is not true: " + failures.entrySet().stream()
                .map(e -> e.getKey() + " (" + e.getValue() + ")").collect(Collectors.joining(", "))
                + "; correct them: with compression enabled, startup may fail on them");
    }
}
