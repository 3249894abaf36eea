package dev.zstdjava.values.spring;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CommandPolicy;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.ValueCompressor;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.BulkMapper;
import org.springframework.data.redis.core.DeleteSpec;
import org.springframework.data.redis.core.HashOperations;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StreamOperations;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.data.redis.core.query.SortQuery;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.hash.HashMapper;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A {@link StringRedisTemplate} under the {@link CommandPolicy command policy}: the same routing as
 * {@link CompressingRedisTemplate} (the {@code SET} family compressed, members, elements, scripts and messages plain,
 * every read decoded), for code and frameworks that ask for a {@code StringRedisTemplate} by type.
 *
 * <p><b>Counters stop working on it.</b> The policy refuses {@code INCR}, {@code DECR}, {@code APPEND},
 * {@code STRLEN}, {@code GETRANGE}/{@code SETRANGE} and the bit operations for <i>every</i> key of a compressing
 * template ({@link CommandRefusedException}, nothing sent), because the server would run them on compressed bytes.
 * String templates are where applications usually keep counters: keep a plain {@code StringRedisTemplate} for them.
 * {@link #sort(SortQuery)} (all its forms) with a {@code BY} pattern that sorts by stored values is refused as on
 * {@link CompressingRedisTemplate#sort(SortQuery)}; so are {@link #compareAndDelete} and a comparing
 * {@link #delete(String, Consumer)}.
 *
 * <p>Keys and hash keys are written with the string serializer, byte for byte as a plain
 * {@code StringRedisTemplate} writes them. {@link #opsForValue()} and {@link #opsForHash()} (and the bound
 * operations built on them) come from an inner {@code CompressingRedisTemplate} over the same connection factory and
 * serializers; their {@code getOperations()} returns this template, as a {@code StringRedisTemplate}'s do.
 * Everything else runs on this template with the reading serializer (plain writes, decoded reads), as in
 * {@code CompressingRedisTemplate}.
 *
 * <p><b>Configuration:</b> set the connection factory, then call {@link #afterPropertiesSet()} (Spring does when the
 * template is a bean); a connection factory, serializer or {@code exposeConnection} set after that wires the template
 * again, so that every operation sees it, as on a plain {@code StringRedisTemplate}. A result serializer the
 * application hands over ({@code executePipelined}, {@code exec}, {@code execute(RedisScript ...)}, {@code sort})
 * decodes, as on {@link CompressingRedisTemplate}.
 *
 * <p><b>Thread safety:</b> thread-safe once initialised. <b>Allocation:</b> as {@link CompressingRedisTemplate}.
 */
public class CompressingStringRedisTemplate extends StringRedisTemplate {
    private final CompressingRedisTemplate<String, String> policyTemplate;
    /** afterPropertiesSet has run: a property set after it wires the policy's operations again */
    private boolean initialised;
    /** afterPropertiesSet is setting the properties */
    private boolean wiring;
    /**
     * The value and hash value serializers as last set through the setters (StringRedisTemplate's constructor sets
     * them; null: unset), which Spring's fields hold wrapped once wired: afterPropertiesSet resolves the defaults
     * from these, as StringRedisTemplate's does from its fields (no initialiser: the constructor's values stay)
     */
    private RedisSerializer<?> valueSerializerSet;
    private RedisSerializer<?> hashValueSerializerSet;

    /** @param compressor the compressor; its configuration's command policy decides what is compressed and refused */
    public CompressingStringRedisTemplate(ValueCompressor compressor) {
        this.policyTemplate = new CompressingRedisTemplate<>(Objects.requireNonNull(compressor, "compressor"));
    }

    /**
     * The adaptive mode, as {@link CompressingRedisTemplate#CompressingRedisTemplate(AdaptiveCompressor)}: each value
     * the policy compresses written with the option of its own key's pattern.
     *
     * @param adaptive the adaptive compressor; its configuration's command policy decides what is compressed and
     *                 refused
     */
    public CompressingStringRedisTemplate(AdaptiveCompressor adaptive) {
        this.policyTemplate = new CompressingRedisTemplate<>(Objects.requireNonNull(adaptive, "adaptive"));
    }

    /** A ready template over {@code factory}. */
    public CompressingStringRedisTemplate(RedisConnectionFactory factory, ValueCompressor compressor) {
        this(compressor);
        setConnectionFactory(factory);
        afterPropertiesSet();
    }

    /** A ready template over {@code factory}, in the adaptive mode. */
    public CompressingStringRedisTemplate(RedisConnectionFactory factory, AdaptiveCompressor adaptive) {
        this(adaptive);
        setConnectionFactory(factory);
        afterPropertiesSet();
    }

    /**
     * Wires the policy's operations to this template's properties; a property set after this
     * ({@code setConnectionFactory}, a serializer, {@code setExposeConnection}) wires them again, so that every
     * operation sees it, as every operation of a plain {@code StringRedisTemplate} does.
     */
    @Override
    public void afterPropertiesSet() {
        wire(true);
    }

    // resolveDefaults: false when a property set after initialisation wires the operations again, as a plain
    // StringRedisTemplate's setters leave a serializer set to null unset
    private void wire(boolean resolveDefaults) {
        boolean outer = wiring;
        wiring = true;
        try {
            if (resolveDefaults) {
                // the serializers as set, not as wired before: one set to null gets the default
                super.setValueSerializer(valueSerializerSet);
                super.setHashValueSerializer(hashValueSerializerSet);
                super.afterPropertiesSet();
            }
            policyTemplate.operationsOf(this);
            policyTemplate.copyIn(() -> {
                policyTemplate.setConnectionFactory(getRequiredConnectionFactory());
                policyTemplate.setEnableDefaultSerializer(isEnableDefaultSerializer());
                policyTemplate.setKeySerializer(getKeySerializer());
                policyTemplate.setHashKeySerializer(getHashKeySerializer());
                policyTemplate.setStringSerializer(getStringSerializer());
                policyTemplate.setValueSerializer(getValueSerializer());
                policyTemplate.setHashValueSerializer(getHashValueSerializer());
                policyTemplate.setExposeConnection(isExposeConnection());
            });
            policyTemplate.wire(resolveDefaults);
            // the rest of this template's operations read through the same decoding serializers
            super.setValueSerializer(policyTemplate.getValueSerializer());
            super.setHashValueSerializer(policyTemplate.getHashValueSerializer());
        } finally {
            wiring = outer;
        }
        initialised = true;
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

    @Override
    public void setEnableTransactionSupport(boolean enableTransactionSupport) {
        super.setEnableTransactionSupport(enableTransactionSupport);
        policyTemplate.setEnableTransactionSupport(enableTransactionSupport);
    }

    /** @return the compressor doing the work, as {@link CompressingRedisTemplate#compressor()} */
    public ValueCompressor compressor() {
        return policyTemplate.compressor();
    }

    /** @return the adaptive compressor writing the values, or null in the fixed mode */
    public AdaptiveCompressor adaptive() {
        return policyTemplate.adaptive();
    }

    /** @return the policy this template follows */
    public CommandPolicy policy() {
        return policyTemplate.policy();
    }

    /** Value operations under the policy, as {@link CompressingRedisTemplate#opsForValue()}. */
    @Override
    public ValueOperations<String, String> opsForValue() {
        return policyTemplate.opsForValue();
    }

    /** Hash operations under the policy, as {@link CompressingRedisTemplate#opsForHash()}. */
    @Override
    public <HK, HV> HashOperations<String, HK, HV> opsForHash() {
        return policyTemplate.opsForHash();
    }

    /** As {@link CompressingRedisTemplate#opsForStream()}. */
    @Override
    public <HK, HV> StreamOperations<String, HK, HV> opsForStream() {
        RedisTemplate<String, String> t = policyTemplate.streams();
        return t == policyTemplate ? super.opsForStream() : t.opsForStream();
    }

    /** As {@link CompressingRedisTemplate#opsForStream(HashMapper)}. */
    @Override
    public <HK, HV> StreamOperations<String, HK, HV> opsForStream(
            HashMapper<? super String, ? super HK, ? super HV> hashMapper) {
        RedisTemplate<String, String> t = policyTemplate.streams();
        return t == policyTemplate ? super.opsForStream(hashMapper) : t.opsForStream(hashMapper);
    }

    /** Refused, as {@link CompressingRedisTemplate#compareAndDelete}. */
    @Override
    public Boolean compareAndDelete(String key, String value) {
        return policyTemplate.compareAndDelete(key, value);
    }

    /**
     * {@code SORT}, or refused when {@code query} sorts {@code BY} a pattern that reads stored values, as
     * {@link CompressingRedisTemplate#sort(SortQuery)}.
     * @throws CommandRefusedException if the {@code BY} pattern reads compressed values; nothing is sent
     */
    @Override
    public List<String> sort(SortQuery<String> query) {
        policyTemplate.checkSort(query, false);
        return super.sort(query);
    }

    /** As {@link #sort(SortQuery)}; {@code resultSerializer} reads the elements decoded. */
    @Override
    public <T> List<T> sort(SortQuery<String> query, RedisSerializer<T> resultSerializer) {
        policyTemplate.checkSort(query, false);
        return super.sort(query, policyTemplate.decoding(resultSerializer));
    }

    /** As {@link #sort(SortQuery)}. */
    @Override
    public <T> List<T> sort(SortQuery<String> query, BulkMapper<T, String> bulkMapper) {
        policyTemplate.checkSort(query, false);
        return super.sort(query, bulkMapper);
    }

    /** As {@link #sort(SortQuery)}; {@code resultSerializer} reads the elements decoded. */
    @Override
    public <T, S> List<T> sort(SortQuery<String> query, BulkMapper<T, S> bulkMapper,
                               RedisSerializer<S> resultSerializer) {
        policyTemplate.checkSort(query, false);
        return super.sort(query, bulkMapper, policyTemplate.decoding(resultSerializer));
    }

    /**
     * As {@code StringRedisTemplate}'s; {@code resultSerializer} reads the results decoded, as
     * {@link CompressingRedisTemplate#executePipelined(SessionCallback, RedisSerializer)}.
     */
    @Override
    public List<Object> executePipelined(SessionCallback<?> session, RedisSerializer<?> resultSerializer) {
        return super.executePipelined(session, policyTemplate.decoding(resultSerializer));
    }

    /** As {@link #executePipelined(SessionCallback, RedisSerializer)}. */
    @Override
    public List<Object> executePipelined(RedisCallback<?> action, RedisSerializer<?> resultSerializer) {
        return super.executePipelined(action, policyTemplate.decoding(resultSerializer));
    }

    /** As {@link CompressingRedisTemplate#execute(RedisScript, RedisSerializer, RedisSerializer, List, Object...)}. */
    @Override
    public <T> T execute(RedisScript<T> script, RedisSerializer<?> argsSerializer, RedisSerializer<T> resultSerializer,
                         List<String> keys, Object... args) {
        return super.execute(script, argsSerializer, policyTemplate.decoding(resultSerializer), keys, args);
    }

    /** As {@link CompressingRedisTemplate#exec(RedisSerializer)}. */
    @Override
    public List<Object> exec(RedisSerializer<?> valueSerializer) {
        return super.exec(policyTemplate.decoding(valueSerializer));
    }

    /** As {@link #sort(SortQuery)}, storing the result under {@code storeKey}. */
    @Override
    public Long sort(SortQuery<String> query, String storeKey) {
        policyTemplate.checkSort(query, true);
        return super.sort(query, storeKey);
    }

    /** {@code DEL}, or refused when {@code spec} compares values, as {@link CompressingRedisTemplate#delete(Object, Consumer)}. */
    @Override
    public Boolean delete(String key, Consumer<DeleteSpec<String, String>> spec) {
        return policyTemplate.delete(key, spec);
    }
}
