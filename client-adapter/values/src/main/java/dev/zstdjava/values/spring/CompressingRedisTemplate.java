package dev.zstdjava.values.spring;

import dev.zstdjava.values.CommandAction;
import dev.zstdjava.values.CommandPolicy;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CommandRule;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.BulkMapper;
import org.springframework.data.redis.core.DeleteSpec;
import org.springframework.data.redis.core.HashOperations;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.SetSpec;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.data.redis.core.query.SortQuery;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link RedisTemplate} that compresses what the {@link CommandPolicy command policy} compresses, and nothing else,
 * in Valkey GLIDE's stored format (see {@link ValueCompressor}):
 *
 * <pre>{@code
 * CompressingRedisTemplate<String, Object> template = CompressingRedisTemplate.create(connectionFactory,
 *         RedisSerializer.json(), ValueCompressor.create(CompressionConfig.defaults()));
 * template.opsForValue().set("user:1", user);     // compressed, as GLIDE compresses SET
 * template.opsForSet().add("tags", "blue");       // plain: the server compares members
 * }</pre>
 *
 * <p><b>What it compresses.</b> Two serializers wrap the same value serializer: a <i>reading</i> one
 * ({@link CompressingRedisSerializer#reading}: writes plain, decodes any value that carries the header) serves every
 * operation, and a <i>compressing</i> one serves only the writes the policy compresses:
 * <ul>
 *   <li>{@link #opsForValue()} and {@link #boundValueOps}: {@code set}, {@code setIfAbsent}, {@code setIfPresent},
 *       {@code setGet}, {@code multiSet}, {@code multiSetIfAbsent} compress (the {@code SET} family, GLIDE's scope);
 *       {@code getAndSet} sends its new value plain, as GLIDE sends {@code GETSET}; every read decodes.</li>
 *   <li>{@link #opsForHash()} and {@link #boundHashOps}: values compressed only when
 *       {@link CompressionConfig.Builder#compressHashValues hash compression is opted in} ({@code put},
 *       {@code putAll}, {@code putIfAbsent}, {@code putAndExpire}); plain otherwise.</li>
 *   <li>{@code opsForSet/ZSet/List/Geo/HyperLogLog}, {@code execute(RedisScript ...)}, {@code convertAndSend},
 *       {@code sort} and everything else: plain, through the reading serializer. {@code opsForStream} writes entries through the
 *       plain hash-value serializer, also when hash values are compressed.</li>
 * </ul>
 *
 * <p><b>What it refuses,</b> with {@link CommandRefusedException} naming the command, before anything is sent:
 * {@code opsForValue().append} ({@code APPEND}), {@code size} ({@code STRLEN}), {@code increment}/{@code decrement}
 * ({@code INCR}, {@code INCRBY}, {@code INCRBYFLOAT}, {@code DECR}, {@code DECRBY}), {@code get(key, start, end)}
 * ({@code GETRANGE}), {@code set(key, value, offset)} ({@code SETRANGE}), {@code setBit}, {@code getBit},
 * {@code bitField}; {@code compareAndSet} and a {@code set}/{@code setGet} whose {@code SetSpec} compares values
 * ({@code SET ... IFEQ}/{@code IFNE}); {@link #compareAndDelete} and a {@link #delete(Object, Consumer)} that compares
 * ({@code DELIFEQ}); and, when hash values are compressed, {@code opsForHash().increment} ({@code HINCRBY},
 * {@code HINCRBYFLOAT}) and {@code lengthOfValue} ({@code HSTRLEN}); {@link #sort(SortQuery)} (all its forms) with
 * a {@code BY} pattern that sorts by stored values ({@code SORT ... BY weight_*}: string values, and hash values
 * {@code BY h_*->field} when they are compressed). The refusal holds for every key of the template, counters
 * included: keep counters, bitmaps and sort weights on a template without compression.
 *
 * <p><b>Scripts</b> ({@code execute(RedisScript ...)}) get their arguments as given, but a script that reads a value
 * this template wrote ({@code redis.call('GET', k)}) gets its compressed bytes; keep such keys on a template without
 * compression.
 *
 * <p><b>Outside the policy:</b> {@code execute(RedisCallback)} and {@code executePipelined(RedisCallback)} hand the
 * connection itself to the callback: what it sends goes out as given (nothing compressed, nothing refused) and what
 * it returns is not decoded unless the callback decodes it. Inside {@code execute(SessionCallback)} and
 * {@code executePipelined(SessionCallback)} the operations of this template keep the policy, and
 * {@code MULTI}/{@code EXEC} and pipeline results are decoded by the reading serializer.
 *
 * <p><b>Configuration:</b> set the connection factory and serializers, then call {@link #afterPropertiesSet()}
 * (Spring does when the template is a bean); serializers changed after that are not seen. A value serializer that
 * is already a {@link CompressingRedisSerializer} is unwrapped first. Keys and hash keys are never compressed.
 *
 * <p><b>Thread safety:</b> thread-safe once initialised, like {@code RedisTemplate}. <b>Allocation:</b> as
 * {@code RedisTemplate}, plus the compressed array on the compressed writes; routing an operation is one map lookup
 * (a {@code SetSpec} or {@code DeleteSpec} consumer is run once more on a probe to see whether it compares values).
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public class CompressingRedisTemplate<K, V> extends RedisTemplate<K, V> {
    private final ValueCompressor compressor;
    private final CommandPolicy policy;
    private final RedisTemplate<K, V> compressing = new RedisTemplate<>();
    private volatile ValueOperations<K, V> valueOps;
    private volatile HashOperations<K, ?, ?> hashOps;

    /**
     * @param compressor the compressor (its configuration's {@link CompressionConfig#commandPolicy()} decides what is
     *                   compressed and refused; its {@link ValueCompressor#stats()} count this template's values)
     */
    public CompressingRedisTemplate(ValueCompressor compressor) {
        this.compressor = Objects.requireNonNull(compressor, "compressor");
        this.policy = compressor.config().commandPolicy();
    }

    /** As {@link #CompressingRedisTemplate(ValueCompressor)} with a new compressor for {@code config}. */
    public CompressingRedisTemplate(CompressionConfig config) {
        this(ValueCompressor.create(config));
    }

    /**
     * A ready template with string keys and hash keys and {@code valueSerializer} for values and hash values.
     * @return the initialised template
     */
    public static <V> CompressingRedisTemplate<String, V> create(RedisConnectionFactory factory,
                                                                 RedisSerializer<V> valueSerializer,
                                                                 ValueCompressor compressor) {
        CompressingRedisTemplate<String, V> t = new CompressingRedisTemplate<>(compressor);
        t.setConnectionFactory(factory);
        t.setKeySerializer(RedisSerializer.string());
        t.setHashKeySerializer(RedisSerializer.string());
        t.setValueSerializer(valueSerializer);
        t.setHashValueSerializer(valueSerializer);
        t.afterPropertiesSet();
        return t;
    }

    /** @return the compressor doing the work */
    public ValueCompressor compressor() {
        return compressor;
    }

    /** @return the policy this template follows */
    public CommandPolicy policy() {
        return policy;
    }

    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    public void afterPropertiesSet() {
        super.afterPropertiesSet(); // resolves the default serializers
        RedisSerializer value = unwrap(getValueSerializer());
        RedisSerializer hashValue = unwrap(getHashValueSerializer());
        setValueSerializer(CompressingRedisSerializer.reading(value, compressor));
        setHashValueSerializer(CompressingRedisSerializer.reading(hashValue, compressor));
        compressing.setConnectionFactory(getRequiredConnectionFactory());
        compressing.setKeySerializer(getKeySerializer());
        compressing.setHashKeySerializer(getHashKeySerializer());
        compressing.setStringSerializer(getStringSerializer());
        compressing.setEnableDefaultSerializer(false);
        compressing.setExposeConnection(isExposeConnection());
        compressing.setValueSerializer(CompressingRedisSerializer.wrap(value, compressor));
        compressing.setHashValueSerializer(policy.compressesHashValues()
                ? CompressingRedisSerializer.wrap(hashValue, compressor)
                : CompressingRedisSerializer.reading(hashValue, compressor));
        compressing.afterPropertiesSet();
        valueOps = route(ValueOperations.class, super.opsForValue(), compressing.opsForValue(), VALUE_COMMANDS);
        hashOps = route(HashOperations.class, super.opsForHash(), compressing.opsForHash(), HASH_COMMANDS);
    }

    @Override
    public void setEnableTransactionSupport(boolean enableTransactionSupport) {
        super.setEnableTransactionSupport(enableTransactionSupport);
        compressing.setEnableTransactionSupport(enableTransactionSupport);
    }

    private static RedisSerializer<?> unwrap(RedisSerializer<?> s) {
        if (s == null) {
            throw new IllegalStateException("the template has no value or hash value serializer and no default"
                    + " serializer; set them first");
        }
        return s instanceof CompressingRedisSerializer<?> c ? c.delegate() : s;
    }

    /**
     * Value operations under the policy: the {@code SET} family compressed, reads decoded, {@code getAndSet} plain,
     * the string edits, counters and bit operations refused by name.
     * @throws IllegalStateException if the template is not initialised ({@link #afterPropertiesSet()})
     */
    @Override
    public ValueOperations<K, V> opsForValue() {
        return initialised(valueOps);
    }

    /**
     * Hash operations under the policy: values compressed only when hash compression is opted in, and then
     * {@code increment} and {@code lengthOfValue} refused; reads decoded.
     * @throws IllegalStateException if the template is not initialised ({@link #afterPropertiesSet()})
     */
    @Override
    @SuppressWarnings("unchecked")
    public <HK, HV> HashOperations<K, HK, HV> opsForHash() {
        return (HashOperations<K, HK, HV>) initialised(hashOps);
    }

    private static <T> T initialised(T ops) {
        if (ops == null) {
            throw new IllegalStateException("call afterPropertiesSet() first");
        }
        return ops;
    }

    /**
     * Refused: {@code DELIFEQ} (and Spring's compare-and-delete) compares the given value with the stored bytes,
     * which are compressed.
     * @throws CommandRefusedException always; nothing is sent
     */
    @Override
    public Boolean compareAndDelete(K key, V value) {
        throw policy.rule("DELIFEQ").refusal(null);
    }

    /**
     * {@code DEL}, or refused when {@code spec} compares values ({@code DELIFEQ}).
     * @throws CommandRefusedException if {@code spec} selects a comparison; nothing is sent
     */
    @Override
    public Boolean delete(K key, Consumer<DeleteSpec<K, V>> spec) {
        if (Probe.compares(DeleteSpec.class, spec) != null) {
            throw policy.rule("DELIFEQ").refusal(null);
        }
        return super.delete(key, spec);
    }

    /**
     * {@code SORT}, or refused when {@code query} sorts {@code BY} a pattern that reads stored values: the weights
     * would be the compressed bytes of the values this template wrote (string values; hash values too when they are
     * compressed). {@code BY nosort} (any pattern without {@code *}) and {@code GET} patterns are sent; the elements
     * come back decoded.
     * @throws CommandRefusedException if the {@code BY} pattern reads compressed values; nothing is sent
     */
    @Override
    public List<V> sort(SortQuery<K> query) {
        checkSort(query);
        return super.sort(query);
    }

    /** As {@link #sort(SortQuery)}. */
    @Override
    public <T> List<T> sort(SortQuery<K> query, RedisSerializer<T> resultSerializer) {
        checkSort(query);
        return super.sort(query, resultSerializer);
    }

    /** As {@link #sort(SortQuery)}. */
    @Override
    public <T> List<T> sort(SortQuery<K> query, BulkMapper<T, V> bulkMapper) {
        checkSort(query);
        return super.sort(query, bulkMapper);
    }

    /** As {@link #sort(SortQuery)}. */
    @Override
    public <T, S> List<T> sort(SortQuery<K> query, BulkMapper<T, S> bulkMapper, RedisSerializer<S> resultSerializer) {
        checkSort(query);
        return super.sort(query, bulkMapper, resultSerializer);
    }

    /** As {@link #sort(SortQuery)}, storing the result under {@code storeKey}. */
    @Override
    public Long sort(SortQuery<K> query, K storeKey) {
        checkSort(query);
        return super.sort(query, storeKey);
    }

    private static final byte[] BY = "BY".getBytes(StandardCharsets.US_ASCII);
    /** the key's position in the arguments: the decision does not read it */
    private static final byte[] ANY_KEY = new byte[0];

    // The policy's decision for SORT key BY pattern (the only option of a SortQuery that can refuse it).
    private void checkSort(SortQuery<K> query) {
        String by = query == null ? null : query.getBy();
        if (by != null) {
            CommandRefusedException refused = policy.rule("SORT").refusalFor(
                    List.of(ANY_KEY, BY, by.getBytes(StandardCharsets.UTF_8)));
            if (refused != null) {
                throw refused;
            }
        }
    }

    // ---- routing

    private enum Kind { PLAIN, POLICY, OPERATIONS, SET_SPEC, COMPARE_AND_SET }

    private record Route(Kind kind, CommandRule rule) {}

    /** Which command each ValueOperations method sends; null: a read or a method without a value (plain). */
    private static String valueCommand(Method m) {
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
            default -> null;
        };
    }

    /** Which command each HashOperations method sends that the policy may compress or refuse. */
    private static String hashCommand(Method m) {
        Class<?>[] p = m.getParameterTypes();
        return switch (m.getName()) {
            case "put" -> "HSET";
            case "putAll" -> "HMSET";
            case "putIfAbsent" -> "HSETNX";
            case "putAndExpire" -> "HSETEX";
            case "increment" -> p[2] == double.class ? "HINCRBYFLOAT" : "HINCRBY";
            case "lengthOfValue" -> "HSTRLEN";
            default -> null;
        };
    }

    private static final java.util.function.Function<Method, String> VALUE_COMMANDS =
            CompressingRedisTemplate::valueCommand;
    private static final java.util.function.Function<Method, String> HASH_COMMANDS =
            CompressingRedisTemplate::hashCommand;

    private <T> T route(Class<T> type, T plain, T compressed, java.util.function.Function<Method, String> commands) {
        Map<Method, Route> routes = new HashMap<>();
        for (Method m : type.getMethods()) {
            if (m.isSynthetic() || java.lang.reflect.Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            Route r;
            String command = commands.apply(m);
            if (m.getName().equals("getOperations") && m.getParameterCount() == 0) {
                r = new Route(Kind.OPERATIONS, null);
            } else if (command == null) {
                r = new Route(Kind.PLAIN, null);
            } else if (m.getName().equals("compareAndSet")) {
                r = new Route(Kind.COMPARE_AND_SET, policy.rule(command));
            } else if (m.getParameterCount() > 0
                    && m.getParameterTypes()[m.getParameterCount() - 1] == Consumer.class) {
                r = new Route(Kind.SET_SPEC, policy.rule(command));
            } else {
                r = new Route(Kind.POLICY, policy.rule(command));
            }
            routes.put(m, r);
        }
        InvocationHandler h = new Router(this, plain, compressed, Map.copyOf(routes));
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, h));
    }

    private record Router(Object operations, Object plain, Object compressed, Map<Method, Route> routes)
            implements InvocationHandler {
        @Override
        public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
            Route r = routes.get(method);
            if (r == null) { // Object's methods
                return switch (method.getName()) {
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "policy-routed " + plain;
                    default -> call(plain, method, args);
                };
            }
            Object target = switch (r.kind()) {
                case PLAIN -> plain;
                case OPERATIONS -> null;
                case COMPARE_AND_SET -> throw r.rule().refusal("IFEQ");
                case SET_SPEC -> {
                    String option = Probe.compares(SetSpec.class, (Consumer<?>) args[args.length - 1]);
                    if (option != null) {
                        throw r.rule().refusal(option);
                    }
                    yield target(r.rule(), plain, compressed);
                }
                case POLICY -> target(r.rule(), plain, compressed);
            };
            return target == null ? operations : call(target, method, args);
        }

        private static Object target(CommandRule rule, Object plain, Object compressed) {
            if (rule.action() == CommandAction.REFUSE) {
                throw rule.refusal(null);
            }
            return rule.action() == CommandAction.COMPRESS ? compressed : plain;
        }

        private static Object call(Object target, Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }

    /** Runs a {@code SetSpec}/{@code DeleteSpec} consumer on a probe to see whether it selects a comparison. */
    private static final class Probe implements InvocationHandler {
        private String option;
        private Object spec;

        @SuppressWarnings({"unchecked", "rawtypes"})
        static String compares(Class<?> specType, Consumer<?> consumer) {
            if (consumer == null) {
                return null;
            }
            Probe p = new Probe();
            p.spec = Proxy.newProxyInstance(specType.getClassLoader(), new Class<?>[] {specType}, p);
            ((Consumer) consumer).accept(p.spec);
            return p.option;
        }

        @Override
        public Object invoke(Object proxy, Method method, Object[] args) {
            switch (method.getName()) {
                case "ifEquals", "ifNotEquals" -> {
                    option = method.getName().equals("ifEquals") ? "IFEQ" : "IFNE";
                    Class<?> comparison = method.getReturnType();
                    return Proxy.newProxyInstance(comparison.getClassLoader(), new Class<?>[] {comparison}, this);
                }
                case "digest" -> {
                    option = "IFEQ".equals(option) ? "IFDEQ" : "IFDNE";
                    return spec;
                }
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
                    return method.getReturnType().isInstance(spec) ? spec : null;
                }
            }
        }
    }
}
