package dev.zstdjava.values.spring;

import dev.zstdjava.values.CommandPolicy;
import org.springframework.data.redis.core.DeleteSpec;
import org.springframework.data.redis.core.SetSpec;
import org.springframework.data.redis.core.query.SortQuery;
import org.springframework.data.redis.core.types.Expiration;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Translation only: which command each operation of {@link CompressingRedisTemplate} sends, and the argument words
 * it sends with it, for the command catalogue ({@link CommandPolicy}, {@code CommandRule.refusalFor}) to decide.
 * Nothing here compresses, sends plain or refuses; this is the one file of the Spring adapter that spells command
 * names and option words (a source test checks that every one is in the catalogue).
 *
 * <p>Words are the arguments after the command's name as the server receives them, except that keys and values are
 * empty placeholders: what the catalogue decides on are the commands' option words ({@code IFEQ}, {@code BY ...}),
 * and serializing a key or a value only to decide would cost an array per call. Stateless; every method allocates
 * only the list it returns (and, for a {@code SetSpec} or {@code DeleteSpec}, a probe it runs the consumer on).
 */
final class SpringCommands {
    /** The value of an operation that sends no command itself ({@code getOperations}, {@code expiration} views). */
    static final String NO_COMMAND = "";

    /** A key's or a value's place in the words. */
    private static final byte[] PLACEHOLDER = new byte[0];

    private SpringCommands() {
    }

    /**
     * @return the command a {@code ValueOperations} method sends, {@link #NO_COMMAND}, or null for a method this
     *         translation does not know (a newer Spring's)
     */
    static String valueCommand(Method m) {
        Class<?>[] p = m.getParameterTypes();
        return switch (m.getName()) {
            case "set" -> p.length == 3 && p[2] == long.class ? "SETRANGE" : "SET";
            case "setGet", "setIfAbsent", "setIfPresent", "compareAndSet" -> "SET";
            case "multiSet" -> "MSET";
            case "multiSetIfAbsent" -> "MSETNX";
            case "get" -> p.length == 3 ? "GETRANGE" : "GET";
            case "getAndDelete" -> "GETDEL";
            case "getAndExpire", "getAndPersist" -> "GETEX";
            case "getAndSet" -> "GETSET";
            case "multiGet" -> "MGET";
            case "increment" -> p.length == 1 ? "INCR" : p[1] == double.class ? "INCRBYFLOAT" : "INCRBY";
            case "decrement" -> p.length == 1 ? "DECR" : "DECRBY";
            case "append" -> "APPEND";
            case "size" -> "STRLEN";
            case "setBit" -> "SETBIT";
            case "getBit" -> "GETBIT";
            case "bitField" -> "BITFIELD";
            case "getOperations" -> NO_COMMAND;
            default -> null;
        };
    }

    /** @return the command a {@code HashOperations} method sends, {@link #NO_COMMAND}, or null as above */
    static String hashCommand(Method m) {
        Class<?>[] p = m.getParameterTypes();
        return switch (m.getName()) {
            case "put" -> "HSET";
            case "putAll" -> "HMSET";
            case "putIfAbsent" -> "HSETNX";
            case "putAndExpire" -> "HSETEX";
            case "increment" -> p[2] == double.class ? "HINCRBYFLOAT" : "HINCRBY";
            case "lengthOfValue" -> "HSTRLEN";
            case "get" -> "HGET";
            case "multiGet" -> "HMGET";
            case "delete" -> "HDEL";
            case "hasKey" -> "HEXISTS";
            case "keys" -> "HKEYS";
            case "values" -> "HVALS";
            case "entries" -> "HGETALL";
            case "size" -> "HLEN";
            case "randomKey", "randomKeys", "randomEntry", "randomEntries" -> "HRANDFIELD";
            case "scan" -> "HSCAN";
            case "getAndDelete" -> "HGETDEL";
            case "getAndExpire" -> "HGETEX";
            case "expire" -> "HPEXPIRE";
            case "expireAt" -> "HPEXPIREAT";
            case "persist" -> "HPERSIST";
            case "getTimeToLive" -> "HPTTL";
            case "getOperations", "expiration" -> NO_COMMAND; // expiration: a view whose commands go out plain
            default -> null;
        };
    }

    /**
     * The words of a {@code SET} that a {@code ValueOperations} method sends, from its arguments:
     * {@code key value [NX|XX|IFEQ v|IFNE v|IFDEQ d|IFDNE d] [GET] [PX ms|KEEPTTL]}.
     */
    static List<byte[]> setWords(Method m, Object[] args) {
        List<byte[]> words = new ArrayList<>(8);
        words.add(PLACEHOLDER);
        words.add(PLACEHOLDER);
        String name = m.getName();
        switch (name) {
            case "setIfAbsent" -> words.add(word("NX"));
            case "setIfPresent" -> words.add(word("XX"));
            case "compareAndSet" -> {
                words.add(word("IFEQ"));
                words.add(PLACEHOLDER);
            }
            default -> {
                // set, setGet: the spec, if any, below
            }
        }
        Object last = args[args.length - 1];
        Expiration expiration = null;
        if (last instanceof Consumer<?> spec) {
            expiration = probe(SetSpec.class, spec, words);
        }
        if (name.equals("setGet")) {
            words.add(word("GET"));
        }
        if (last instanceof Expiration e) {
            expiration = e;
        } else if (last instanceof Duration d) {
            expiration = Expiration.from(d);
        } else if (last instanceof TimeUnit unit && args[args.length - 2] instanceof Long timeout) {
            expiration = Expiration.from(timeout, unit);
        }
        if (expiration != null && expiration.isKeepTtl()) {
            words.add(word("KEEPTTL"));
        } else if (expiration != null && !expiration.isPersistent()) {
            words.add(word("PX"));
            words.add(word(Long.toString(expiration.getExpirationTimeInMilliseconds())));
        }
        return words;
    }

    /** {@code compareAndDelete(key, value)} sends {@code DELEX key IFEQ value}. */
    static final String COMPARE_AND_DELETE = "DELEX";

    /** @return the words of {@code compareAndDelete(key, value)}'s {@code DELEX} */
    static List<byte[]> compareAndDeleteWords() {
        return List.of(PLACEHOLDER, word("IFEQ"), PLACEHOLDER);
    }

    /**
     * The command {@code delete(key, spec)} sends: {@code DELEX} when the spec selects a comparison, {@code DEL}
     * otherwise (as Spring does).
     */
    static String deleteCommand(List<byte[]> words) {
        return words.size() > 1 ? "DELEX" : "DEL";
    }

    /** @return the words of {@code delete(key, spec)}: {@code key [IFEQ v|IFNE v|IFDEQ d|IFDNE d]} */
    static List<byte[]> deleteWords(Consumer<?> spec) {
        List<byte[]> words = new ArrayList<>(3);
        words.add(PLACEHOLDER);
        probe(DeleteSpec.class, spec, words);
        return words;
    }

    /** The command of the template's {@code sort} methods. */
    static final String SORT = "SORT";

    /**
     * @return the words of a {@code SortQuery}'s {@code SORT}:
     *         {@code key [BY pattern] [LIMIT offset count] [GET pattern ...] [ASC|DESC] [ALPHA] [STORE destination]}
     */
    static List<byte[]> sortWords(SortQuery<?> query, boolean store) {
        List<byte[]> words = new ArrayList<>();
        words.add(PLACEHOLDER);
        if (query.getBy() != null) {
            words.add(word("BY"));
            words.add(query.getBy().getBytes(StandardCharsets.UTF_8));
        }
        if (query.getLimit() != null) {
            words.add(word("LIMIT"));
            words.add(word(Long.toString(query.getLimit().getStart())));
            words.add(word(Long.toString(query.getLimit().getCount())));
        }
        if (query.getGetPattern() != null) {
            for (String pattern : query.getGetPattern()) {
                words.add(word("GET"));
                words.add(pattern.getBytes(StandardCharsets.UTF_8));
            }
        }
        if (query.getOrder() != null) {
            words.add(word(query.getOrder().name()));
        }
        if (Boolean.TRUE.equals(query.isAlphabetic())) {
            words.add(word("ALPHA"));
        }
        if (store) {
            words.add(word("STORE"));
            words.add(PLACEHOLDER);
        }
        return words;
    }

    private static byte[] word(String w) {
        return w.getBytes(StandardCharsets.US_ASCII);
    }

    // Runs a SetSpec/DeleteSpec consumer on a probe and adds the words of what it selects (a condition; for a
    // SetSpec also NX/XX); returns the SetSpec's expiration, or null.
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Expiration probe(Class<?> specType, Consumer<?> consumer, List<byte[]> words) {
        if (consumer == null) {
            return null;
        }
        Probe p = new Probe(words);
        p.spec = Proxy.newProxyInstance(specType.getClassLoader(), new Class<?>[] {specType}, p);
        ((Consumer) consumer).accept(p.spec);
        return p.expiration;
    }

    /** A {@code SetSpec}/{@code DeleteSpec} (and its comparison step) that records the words of what is selected. */
    private static final class Probe implements InvocationHandler {
        private final List<byte[]> words;
        private Object spec;
        private boolean equal; // ifEquals() or ifNotEquals(), until value() or digest() says what is compared
        private Expiration expiration;

        Probe(List<byte[]> words) {
            this.words = words;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            switch (method.getName()) {
                case "ifEquals", "ifNotEquals" -> {
                    equal = method.getName().equals("ifEquals");
                    Class<?> step = method.getReturnType();
                    return Proxy.newProxyInstance(step.getClassLoader(), new Class<?>[] {step}, this);
                }
                case "value" -> {
                    words.add(word(equal ? "IFEQ" : "IFNE"));
                    words.add(PLACEHOLDER);
                    return spec;
                }
                case "digest" -> {
                    words.add(word(equal ? "IFDEQ" : "IFDNE"));
                    words.add(word(String.valueOf(args[0])));
                    return spec;
                }
                case "ifAbsent" -> words.add(word("NX"));
                case "ifPresent" -> words.add(word("XX"));
                case "keepTtl" -> expiration = Expiration.keepTtl();
                case "expiration" -> expiration = (Expiration) args[0];
                case "expire" -> expiration = Expiration.from((Duration) args[0]);
                case "equals" -> {
                    return proxy == args[0];
                }
                case "hashCode" -> {
                    return System.identityHashCode(proxy);
                }
                case "toString" -> {
                    return "probe";
                }
                default -> {
                    // always(): nothing to add
                }
            }
            return method.getReturnType().isInstance(spec) ? spec : null;
        }
    }
}
