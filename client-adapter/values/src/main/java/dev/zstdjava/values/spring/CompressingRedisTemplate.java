package dev.zstdjava.values.spring;

import dev.zstdjava.values.AdaptiveCompressor;
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
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StreamOperations;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.data.redis.core.query.SortQuery;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.hash.HashMapper;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Proxy;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

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
 * ({@code DELEX ... IFEQ} and the other conditions: Spring sends {@code DELEX}); and, when hash values are compressed, {@code opsForHash().increment} ({@code HINCRBY},
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
 * it reads on the connection is not decoded unless the callback decodes it (the results list
 * {@code executePipelined(RedisCallback)} returns goes through this template's value serializer, so values read in
 * the pipeline come back decoded, as Spring deserializes them). Inside {@code execute(SessionCallback)} and
 * {@code executePipelined(SessionCallback)} the operations of this template keep the policy (a refused one throws;
 * in a pipeline the operations queued before it are still sent, as Spring closes the pipeline), and
 * {@code MULTI}/{@code EXEC} and pipeline results are decoded by the reading serializer. A result serializer the
 * application hands over ({@code executePipelined}, {@code exec}, {@code execute(RedisScript ...)}, {@code sort})
 * decodes too, wrapped as the reading serializer wraps the value serializer, so it reads the values the application
 * stored, as on a plain template; a null one (raw replies) gives the stored bytes.
 *
 * <p><b>Configuration:</b> set the connection factory and serializers, then call {@link #afterPropertiesSet()}
 * (Spring does when the template is a bean); a connection factory, serializer or {@code exposeConnection} set after
 * that (on a template {@link #create} made, say) wires the template again, so that every operation sees it, as on a
 * plain {@code RedisTemplate}; wiring again resolves no default serializer, as that template's setters do not (a
 * serializer set to null stays unset until another {@code afterPropertiesSet()}, which resolves the default serializer
 * for it, as {@code RedisTemplate}'s does). A value serializer that
 * is already a {@link CompressingRedisSerializer} is unwrapped first. A template without value serializers (the
 * default serializer turned off) reads and writes {@code byte[]} values as they are, as {@code RedisTemplate} does.
 * Keys and hash keys are never compressed.
 *
 * <p><b>Adaptive compression.</b> Made with an {@link AdaptiveCompressor}
 * ({@link #CompressingRedisTemplate(AdaptiveCompressor)}), the template writes each value the policy compresses with
 * the option of its own key's pattern: {@code set}, {@code setIfAbsent}, {@code setIfPresent}, {@code setGet} under
 * their key, {@code multiSet} and {@code multiSetIfAbsent} each value under its entry's key (the map's entries read
 * once, each {@code getKey()} and {@code getValue()} called once as Spring calls them, so a map that computes its
 * values, or holds equal keys as distinct objects, is written as a plain {@code RedisTemplate} writes it), the hash
 * operations every value under the hash's key. What is compressed, sent plain or refused is the policy's, as in the
 * fixed mode (the policy is {@code adaptive.config().commandPolicy()}); reads decode every stored form
 * ({@link AdaptiveCompressor#reader()}). A {@code String} key is folded as its UTF-8 bytes, whatever the key
 * serializer (with Boot's JDK-serialized keys too). The template knows the key only inside its own operations: its
 * serializers handed elsewhere (its {@code getValueSerializer()} reads and writes plain) never compress adaptively,
 * and {@link CompressingRedisSerializer#forPattern} writes a serializer's values under one name.
 * {@link #adaptive()}{@code .snapshot()} shows the decisions.
 *
 * <p><b>Spring Data Redis lines</b> ({@code docs/support.md}): 3.5, 4.0 and 4.1. The {@code SetSpec} forms of
 * {@code set}/{@code setGet}, {@code compareAndSet}, {@link #compareAndDelete} and {@link #delete(Object, Consumer)}
 * exist on 4.1 only; {@code compareAndDelete} is refused on every line (the template declares it), and the
 * operations of the older lines ({@code setGet} with a {@code Duration}, ...) route as on 4.1. On an older Spring Data
 * Redis the constructor fails with {@link UnsupportedOperationException} naming the range.
 *
 * <p><b>Thread safety:</b> thread-safe once initialised, like {@code RedisTemplate}. <b>Allocation:</b> as
 * {@code RedisTemplate}, plus the compressed array on the compressed writes (in the adaptive mode also the key as
 * the compressor folds it, a {@code String} key's UTF-8 bytes, a sampled write's candidate stored forms, and a
 * {@code multiSet}'s map read once into a copy Spring is given instead), and a small serializer wrapping a result
 * serializer the application hands over, per call; routing
 * an operation is one map lookup of the command it sends and its catalogue rule; a {@code SET} form, {@code delete}
 * with a spec and {@code sort} also lay out their option words in a small list for the rule
 * ({@code CommandRule.refusalFor}), a {@code SetSpec} or {@code DeleteSpec} consumer being run once more on a probe
 * for that.
 *
 * <p><b>The catalogue decides.</b> This class only translates Spring's calls into commands and their argument
 * words; what is compressed, sent plain or refused, and the refusal's message, come from the policy's
 * {@link CommandRule} for that command.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public class CompressingRedisTemplate<K, V> extends RedisTemplate<K, V> {
    private final ValueCompressor compressor;
    private final CommandPolicy policy;
    /** the adaptive compressor, or null in the fixed mode */
    private final AdaptiveCompressor adaptive;
    private final RedisTemplate<K, V> compressing = new RedisTemplate<>();
    private volatile ValueOperations<K, V> valueOps;
    private volatile HashOperations<K, ?, ?> hashOps;
    /** what the value and hash operations' {@code getOperations()} return: this template, or the one wrapping it */
    private RedisOperations<K, V> operations = this;
    /** afterPropertiesSet has run: a property set after it wires the operations again */
    private boolean initialised;
    /** afterPropertiesSet (or CompressingStringRedisTemplate copying its properties in) is setting the properties */
    private boolean wiring;
    /**
     * The value and hash value serializers as last set through the setters (null: unset), which Spring's fields
     * hold wrapped once wired: afterPropertiesSet resolves the defaults from these, as RedisTemplate's does from its
     * fields, so a serializer set to null gets the default serializer again there
     */
    private RedisSerializer<?> valueSerializerSet;
    private RedisSerializer<?> hashValueSerializerSet;
    /**
     * With no hash value serializer (the default serializer off): a plain template over the same properties, whose
     * stream operations convert simple objects to bytes as Spring does without that serializer (the reading
     * serializer over {@code byte[]} would refuse them); null otherwise
     */
    private volatile RedisTemplate<K, V> withoutHashValueSerializer;
    private boolean transactionSupport;

    /**
     * @param compressor the compressor (its configuration's {@link CompressionConfig#commandPolicy()} decides what is
     *                   compressed and refused; its {@link ValueCompressor#stats()} count this template's values)
     * @throws UnsupportedOperationException on a Spring Data Redis older than the supported range
     */
    public CompressingRedisTemplate(ValueCompressor compressor) {
        this(Objects.requireNonNull(compressor, "compressor"), null);
    }

    /**
     * The adaptive mode: each value the policy compresses is written with the option of its key's pattern (see the
     * class comment); the policy is {@code adaptive.config().commandPolicy()}.
     *
     * @param adaptive the adaptive compressor, shared with every other writer of the same keys
     * @throws UnsupportedOperationException on a Spring Data Redis older than the supported range
     */
    public CompressingRedisTemplate(AdaptiveCompressor adaptive) {
        this(Objects.requireNonNull(adaptive, "adaptive").reader(), adaptive);
    }

    private CompressingRedisTemplate(ValueCompressor compressor, AdaptiveCompressor adaptive) {
        SpringLine.require("CompressingRedisTemplate");
        this.compressor = compressor;
        this.adaptive = adaptive;
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
        return init(new CompressingRedisTemplate<>(compressor), factory, valueSerializer);
    }

    /**
     * As {@link #create(RedisConnectionFactory, RedisSerializer, ValueCompressor)}, in the adaptive mode.
     * @return the initialised template
     */
    public static <V> CompressingRedisTemplate<String, V> create(RedisConnectionFactory factory,
                                                                 RedisSerializer<V> valueSerializer,
                                                                 AdaptiveCompressor adaptive) {
        return init(new CompressingRedisTemplate<>(adaptive), factory, valueSerializer);
    }

    private static <V> CompressingRedisTemplate<String, V> init(CompressingRedisTemplate<String, V> t,
                                                                RedisConnectionFactory factory,
                                                                RedisSerializer<V> valueSerializer) {
        t.setConnectionFactory(factory);
        t.setKeySerializer(RedisSerializer.string());
        t.setHashKeySerializer(RedisSerializer.string());
        t.setValueSerializer(valueSerializer);
        t.setHashValueSerializer(valueSerializer);
        t.afterPropertiesSet();
        return t;
    }

    /**
     * @return the compressor doing the work: in the adaptive mode the one the reads decompress with
     *         ({@link AdaptiveCompressor#reader()})
     */
    public ValueCompressor compressor() {
        return compressor;
    }

    /**
     * @return the adaptive compressor writing the values (its {@code snapshot()} lists the decisions), or null in the
     *         fixed mode
     */
    public AdaptiveCompressor adaptive() {
        return adaptive;
    }

    /** @return the policy this template follows */
    public CommandPolicy policy() {
        return policy;
    }

    /**
     * Wires the policy's operations to this template's properties; a property set after this
     * ({@code setConnectionFactory}, a serializer, {@code setExposeConnection}) wires them again, so that every
     * operation sees it, as every operation of a plain {@code RedisTemplate} does.
     */
    @Override
    public void afterPropertiesSet() {
        wire(true);
    }

    // resolveDefaults: RedisTemplate's own afterPropertiesSet runs first (a serializer left unset gets the default
    // one); false when a property set after initialisation wires the operations again, as a plain RedisTemplate's
    // setters leave an unset serializer unset (its operations then take byte[] as they are)
    void wire(boolean resolveDefaults) {
        boolean outer = wiring;
        wiring = true;
        try {
            wire0(resolveDefaults);
        } finally {
            wiring = outer;
        }
        initialised = true;
    }

    // CompressingStringRedisTemplate: sets this template's properties from its own without wiring on each setter;
    // it calls afterPropertiesSet after
    void copyIn(Runnable setters) {
        boolean outer = wiring;
        wiring = true;
        try {
            setters.run();
        } finally {
            wiring = outer;
        }
    }

    // a property that the policy's operations copy, set after afterPropertiesSet: wired again
    private void rewire() {
        if (initialised && !wiring) {
            wire(false);
        }
    }

    @Override
    public void setConnectionFactory(RedisConnectionFactory connectionFactory) {
        super.setConnectionFactory(connectionFactory);
        rewire();
    }

    @Override
    public void setExposeConnection(boolean exposeConnection) {
        super.setExposeConnection(exposeConnection);
        rewire();
    }

    @Override
    public void setKeySerializer(RedisSerializer<?> serializer) {
        super.setKeySerializer(serializer);
        rewire();
    }

    @Override
    public void setValueSerializer(RedisSerializer<?> serializer) {
        super.setValueSerializer(serializer);
        valueSerializerSet = serializer;
        rewire();
    }

    @Override
    public void setHashKeySerializer(RedisSerializer<?> serializer) {
        super.setHashKeySerializer(serializer);
        rewire();
    }

    @Override
    public void setHashValueSerializer(RedisSerializer<?> serializer) {
        super.setHashValueSerializer(serializer);
        hashValueSerializerSet = serializer;
        rewire();
    }

    @Override
    public void setStringSerializer(RedisSerializer<String> serializer) {
        super.setStringSerializer(serializer);
        rewire();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private void wire0(boolean resolveDefaults) {
        if (resolveDefaults) {
            // the serializers as set, not as wired before: one set to null is unset again, so that it gets the default
            super.setValueSerializer(valueSerializerSet);
            super.setHashValueSerializer(hashValueSerializerSet);
            super.afterPropertiesSet(); // resolves the default serializers
        }
        withoutHashValueSerializer = getHashValueSerializer() == null ? plainCopy() : null;
        RedisSerializer value = unwrap(getValueSerializer());
        RedisSerializer hashValue = unwrap(getHashValueSerializer());
        // Spring's fields hold the reading serializers; the ones set stay as they were set
        super.setValueSerializer(CompressingRedisSerializer.reading(value, compressor));
        super.setHashValueSerializer(CompressingRedisSerializer.reading(hashValue, compressor));
        compressing.setConnectionFactory(getRequiredConnectionFactory());
        compressing.setKeySerializer(getKeySerializer());
        compressing.setHashKeySerializer(getHashKeySerializer());
        compressing.setStringSerializer(getStringSerializer());
        compressing.setEnableDefaultSerializer(false);
        compressing.setExposeConnection(isExposeConnection());
        TemplateKeys keys = adaptive == null ? null : new TemplateKeys(getKeySerializer());
        compressing.setValueSerializer(writing(value, keys));
        compressing.setHashValueSerializer(policy.compressesHashValues() ? writing(hashValue, keys)
                : CompressingRedisSerializer.reading(hashValue, compressor));
        compressing.afterPropertiesSet();
        valueOps = route(ValueOperations.class, super.opsForValue(), compressing.opsForValue(),
                SpringCommands::valueCommand, keys);
        hashOps = route(HashOperations.class, super.opsForHash(), compressing.opsForHash(),
                SpringCommands::hashCommand, keys);
    }

    // a plain template with this one's properties as they are now (before wrapping its value serializers)
    private RedisTemplate<K, V> plainCopy() {
        RedisTemplate<K, V> t = new RedisTemplate<>();
        t.setConnectionFactory(getRequiredConnectionFactory());
        t.setEnableDefaultSerializer(false);
        t.setKeySerializer(getKeySerializer());
        t.setValueSerializer(getValueSerializer());
        t.setHashKeySerializer(getHashKeySerializer());
        t.setStringSerializer(getStringSerializer());
        t.setExposeConnection(isExposeConnection());
        t.setEnableTransactionSupport(transactionSupport);
        t.afterPropertiesSet();
        return t;
    }

    // the template whose stream operations these are: this one, or without a hash value serializer the plain copy
    RedisTemplate<K, V> streams() {
        RedisTemplate<K, V> t = withoutHashValueSerializer;
        return t == null ? this : t;
    }

    /**
     * As {@code RedisTemplate}'s (stream entries are written plain); without a hash value serializer (the default
     * serializer off) the operations of a plain template over the same properties, which convert simple objects of
     * an {@code ObjectRecord} to bytes as Spring does without that serializer.
     */
    @Override
    public <HK, HV> StreamOperations<K, HK, HV> opsForStream() {
        RedisTemplate<K, V> t = streams();
        return t == this ? super.opsForStream() : t.opsForStream();
    }

    /** As {@link #opsForStream()}, with {@code hashMapper}. */
    @Override
    public <HK, HV> StreamOperations<K, HK, HV> opsForStream(HashMapper<? super K, ? super HK, ? super HV> hashMapper) {
        RedisTemplate<K, V> t = streams();
        return t == this ? super.opsForStream(hashMapper) : t.opsForStream(hashMapper);
    }

    // CompressingStringRedisTemplate, before afterPropertiesSet: the template the value and hash operations name as
    // theirs (getOperations), the StringRedisTemplate the application holds rather than this inner one
    void operationsOf(RedisOperations<K, V> template) {
        this.operations = Objects.requireNonNull(template, "template");
    }

    // The compressing serializer: the fixed compressor's, or the adaptive one's under the key the router binds.
    private <T> RedisSerializer<T> writing(RedisSerializer<T> delegate, TemplateKeys keys) {
        return keys == null ? CompressingRedisSerializer.wrap(delegate, compressor)
                : CompressingRedisSerializer.keyed(delegate, adaptive, keys);
    }

    @Override
    public void setEnableTransactionSupport(boolean enableTransactionSupport) {
        super.setEnableTransactionSupport(enableTransactionSupport);
        compressing.setEnableTransactionSupport(enableTransactionSupport);
        transactionSupport = enableTransactionSupport;
        RedisTemplate<K, V> plain = withoutHashValueSerializer;
        if (plain != null) {
            plain.setEnableTransactionSupport(enableTransactionSupport);
        }
    }

    // the serializer to wrap: a compressing one's delegate; none (the default serializer off) is byte[] as it is,
    // as RedisTemplate reads and writes values without a serializer
    private static RedisSerializer<?> unwrap(RedisSerializer<?> s) {
        if (s == null) {
            return RedisSerializer.byteArray();
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
     * Refused: Spring sends {@code DELEX key IFEQ value}, which compares the given value with the stored bytes,
     * which are compressed.
     * @throws CommandRefusedException always (the catalogue's refusal of {@code DELEX ... IFEQ}); nothing is sent
     */
    @Override
    public Boolean compareAndDelete(K key, V value) {
        decide(policy.rule(SpringCommands.COMPARE_AND_DELETE), SpringCommands.compareAndDeleteWords());
        return super.compareAndDelete(key, value);
    }

    /**
     * {@code DEL}, or {@code DELEX} when {@code spec} compares values, refused then ({@code DELEX ... IFEQ} and the
     * other conditions).
     * @throws CommandRefusedException if {@code spec} selects a comparison; nothing is sent
     * @throws UnsupportedOperationException on a Spring Data Redis without {@code DeleteSpec} (older than 4.1)
     */
    @Override
    public Boolean delete(K key, Consumer<DeleteSpec<K, V>> spec) {
        SpringLine.requireSpecs("delete(key, DeleteSpec)");
        List<byte[]> words = SpringCommands.deleteWords(spec);
        decide(policy.rule(SpringCommands.deleteCommand(words)), words);
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
        checkSort(query, false);
        return super.sort(query);
    }

    /** As {@link #sort(SortQuery)}; {@code resultSerializer} reads the elements decoded (as the class comment says). */
    @Override
    public <T> List<T> sort(SortQuery<K> query, RedisSerializer<T> resultSerializer) {
        checkSort(query, false);
        return super.sort(query, decoding(resultSerializer));
    }

    /** As {@link #sort(SortQuery)}. */
    @Override
    public <T> List<T> sort(SortQuery<K> query, BulkMapper<T, V> bulkMapper) {
        checkSort(query, false);
        return super.sort(query, bulkMapper);
    }

    /** As {@link #sort(SortQuery)}; {@code resultSerializer} reads the elements decoded (as the class comment says). */
    @Override
    public <T, S> List<T> sort(SortQuery<K> query, BulkMapper<T, S> bulkMapper, RedisSerializer<S> resultSerializer) {
        checkSort(query, false);
        return super.sort(query, bulkMapper, decoding(resultSerializer));
    }

    /** As {@link #sort(SortQuery)}, storing the result under {@code storeKey}. */
    @Override
    public Long sort(SortQuery<K> query, K storeKey) {
        checkSort(query, true);
        return super.sort(query, storeKey);
    }

    /**
     * As {@code RedisTemplate}'s; {@code resultSerializer} reads the results decoded, as the template's own value
     * serializer does (as the class comment says).
     */
    @Override
    public List<Object> executePipelined(SessionCallback<?> session, RedisSerializer<?> resultSerializer) {
        return super.executePipelined(session, decoding(resultSerializer));
    }

    /** As {@link #executePipelined(SessionCallback, RedisSerializer)}. */
    @Override
    public List<Object> executePipelined(RedisCallback<?> action, RedisSerializer<?> resultSerializer) {
        return super.executePipelined(action, decoding(resultSerializer));
    }

    /**
     * As {@code RedisTemplate}'s: the arguments as {@code argsSerializer} writes them (plain); the script's result
     * read by {@code resultSerializer} decoded (as the class comment says).
     */
    @Override
    public <T> T execute(RedisScript<T> script, RedisSerializer<?> argsSerializer, RedisSerializer<T> resultSerializer,
                         List<K> keys, Object... args) {
        return super.execute(script, argsSerializer, decoding(resultSerializer), keys, args);
    }

    /** As {@code RedisTemplate}'s; {@code valueSerializer} reads the results decoded (as the class comment says). */
    @Override
    public List<Object> exec(RedisSerializer<?> valueSerializer) {
        return super.exec(decoding(valueSerializer));
    }

    /**
     * A result serializer the application hands an operation ({@code executePipelined}, {@code exec},
     * {@code execute(RedisScript ...)}, {@code sort}) reads what this template's own value serializer reads: values
     * that carry the header decoded, as a plain template's would read what the application stored. Null (Spring
     * then returns the raw replies) stays null: the stored bytes, compressed ones as stored.
     */
    <T> RedisSerializer<T> decoding(RedisSerializer<T> resultSerializer) {
        return resultSerializer == null || resultSerializer instanceof CompressingRedisSerializer<?> ? resultSerializer
                : CompressingRedisSerializer.reading(resultSerializer, compressor);
    }

    // also CompressingStringRedisTemplate's sort methods (the refusal of its inner template's policy)
    void checkSort(SortQuery<K> query, boolean store) {
        if (query != null) {
            decide(policy.rule(SpringCommands.SORT), SpringCommands.sortWords(query, store));
        }
    }

    // The catalogue's decision for a command with these words: throws its refusal; otherwise whether it compresses.
    private static boolean decide(CommandRule rule, List<byte[]> words) {
        CommandRefusedException refused = rule.refusalFor(words);
        if (refused != null) {
            throw refused;
        }
        return rule.action() == CommandAction.COMPRESS;
    }

    // ---- routing: each operation to the plain or the compressing operations, as the catalogue decides for the
    // command it sends (SpringCommands translates)

    // entries: the first argument is a multiSet map (each value under its entry's key), not a key
    private record Route(CommandRule rule, boolean setWords, boolean entries) {}

    private <T> T route(Class<T> type, T plain, T compressed, Function<Method, String> commands, TemplateKeys keys) {
        Map<Method, Route> routes = new HashMap<>();
        for (Method m : type.getMethods()) {
            if (m.isSynthetic() || Modifier.isStatic(m.getModifiers())) {
                continue;
            }
            String command = commands.apply(m);
            if (command == null) {
                // a method of a newer Spring that the translation does not know: sent plain, through the reading
                // serializer (SpringCommandsTest lists every method of this Spring)
                command = SpringCommands.NO_COMMAND;
            }
            CommandRule rule = command.equals(SpringCommands.NO_COMMAND) ? null : policy.rule(command);
            boolean entries = m.getParameterCount() > 0 && m.getParameterTypes()[0] == Map.class;
            routes.put(m, new Route(rule, rule != null && rule.checksArguments(), entries));
        }
        InvocationHandler h = new Router(operations, plain, compressed, Map.copyOf(routes), keys);
        return type.cast(Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, h));
    }

    // keys: in the adaptive mode, where the compressed operations find the key of each value (bound around the call;
    // a multiSet's map is read into TemplateKeys.Entries, which the operation is given in its place)
    private record Router(Object operations, Object plain, Object compressed, Map<Method, Route> routes,
                          TemplateKeys keys) implements InvocationHandler {
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
            if (r.rule() == null) {
                return method.getName().equals("getOperations") && method.getParameterCount() == 0 ? operations
                        : call(plain, method, args);
            }
            List<byte[]> words = r.setWords() ? SpringCommands.setWords(method, args) : List.of();
            if (!decide(r.rule(), words)) {
                return call(plain, method, args);
            }
            if (keys == null) {
                return call(compressed, method, args);
            }
            Object[] given = args;
            if (r.entries() && args[0] instanceof Map<?, ?> map) {
                // the map read once; Spring is given the copy, so each value it serializes is the one the map gave
                given = args.clone();
                given[0] = new TemplateKeys.Entries(map);
            }
            Object previous = keys.bind(given[0]);
            try {
                return call(compressed, method, given);
            } finally {
                keys.restore(previous);
            }
        }

        private static Object call(Object target, Method method, Object[] args) throws Throwable {
            try {
                return method.invoke(target, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        }
    }
}
