package dev.zstdjava.spring.boot;

import java.util.Objects;

/**
 * Why compressed Redis values could not be configured: a property with a value outside its allowed values, or a
 * native library that does not work here. The message names the property (or the library and every place tried);
 * {@link #action()} says what to change, and Boot's failure analysis prints the two apart
 * ({@code RedisCompressionFailureAnalyzer}).
 *
 * <p>Immutable.
 */
public final class RedisCompressionException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String action;

    RedisCompressionException(String problem, String action, Throwable cause) {
        super(problem + "; " + action, cause);
        this.action = Objects.requireNonNull(action, "action");
    }

    /** A property with a value outside the allowed ones. */
    static RedisCompressionException invalid(String property, Object value, String allowed) {
        String name = RedisCompressionProperties.PREFIX + "." + property;
        return new RedisCompressionException("invalid value " + value + " of " + name, "allowed: " + allowed, null);
    }

    /** What to change, apart from the description of the problem. */
    public String action() {
        return action;
    }

    /** @return the message without the action */
    String problem() {
        String m = getMessage();
        return m.substring(0, m.length() - action.length() - 2);
    }
}
