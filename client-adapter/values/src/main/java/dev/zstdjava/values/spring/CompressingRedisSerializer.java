package dev.zstdjava.values.spring;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.springframework.data.redis.serializer.SerializationException;

import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * A Spring Data Redis {@link RedisSerializer} that compresses another serializer's output in Valkey GLIDE's stored
 * format (see {@link ValueCompressor}), so that Lettuce, Jedis, Redisson and GLIDE clients using this format read
 * the values Spring writes, and the reverse:
 *
 * <pre>{@code
 * RedisTemplate<String, Object> template = new RedisTemplate<>();
 * template.setConnectionFactory(connectionFactory);
 * template.setKeySerializer(RedisSerializer.string());
 * template.setValueSerializer(CompressingRedisSerializer.wrap(RedisSerializer.json(), CompressionConfig.defaults()));
 * template.afterPropertiesSet();
 * }</pre>
 *
 * <p><b>Prefer {@link CompressingRedisTemplate}.</b> A {@code RedisTemplate} uses its value serializer for much more
 * than string values: set and sorted-set members, list elements, geo members, {@code execute(RedisScript ...)}
 * arguments and {@code convertAndSend} messages. Set as a template's value serializer, this serializer compresses
 * all of them, and the server then compares, orders and hands to scripts compressed bytes: the same member written
 * by a plain client is a second member, {@code ZRANGEBYLEX} orders the compressed bytes, scripts see compressed
 * arguments, and {@code opsForValue().append/increment/size} run on compressed bytes. {@link CompressingRedisTemplate}
 * compresses only what the {@link dev.zstdjava.values.CommandPolicy command policy} compresses and refuses the rest
 * by name. This serializer stays right where Spring serializes whole values only, such as
 * {@code RedisCacheConfiguration.serializeValuesWith(SerializationPair.fromSerializer(...))}.
 *
 * <p><b>For values and hash values only, never for keys</b> (or hash keys): a compressed key is a different key to
 * every client that does not compress it, and pattern and cluster-slot logic see only the stored bytes.
 * {@link #compressValues(RedisTemplate, ValueCompressor)} wraps a template's value and hash value serializers and
 * leaves its key serializers alone (with the limits above: members are compressed too).
 *
 * <p>Values shorter than the configured minimum, or that do not get smaller, are stored as the delegate wrote them.
 * Plain values written before compression was turned on are passed to the delegate unchanged, as are values that
 * only look compressed (counted in the compressor's stats). A value that would decompress past the configured
 * maximum fails with {@link DecompressionLimitException} (not wrapped: the same exception every reader of this
 * library throws); {@code null} stays {@code null}.
 *
 * <p><b>Adaptive compression.</b> {@link #forPattern(RedisSerializer, AdaptiveCompressor, String)} compresses with
 * an {@link AdaptiveCompressor}. A serializer sees values, never keys, so every value it writes is written under the
 * one name it was made with (folded into its pattern as a key is; a pattern the compressor lists, such as
 * {@code user:*}, may be given instead): as a plain {@code RedisTemplate}'s value serializer, all keys share one
 * decision. {@link CompressingRedisTemplate#CompressingRedisTemplate(AdaptiveCompressor)} knows each key and writes
 * each value under its own; a cache's name is the natural name for a cache's values. Reads go through
 * {@link AdaptiveCompressor#reader()} and read every stored form.
 *
 * <p><b>Thread safety:</b> thread-safe if the delegate is. <b>Allocation:</b> serializing allocates the delegate's
 * array and the compressed array (none when the value is stored as it is; an adaptive sampled write also each
 * candidate option's stored form); deserializing allocates the decompressed array, then whatever the delegate
 * allocates.
 *
 * @param <T> the type the delegate serializes
 */
public final class CompressingRedisSerializer<T> implements RedisSerializer<T> {
    private final RedisSerializer<T> delegate;
    private final ValueCompressor compressor;
    private final boolean compressing;
    /** the adaptive compressor, or null in the fixed mode */
    private final AdaptiveCompressor adaptive;
    /** adaptive: the key every value is written under (UTF-8), or null when {@link #keys} gives each value's */
    private final byte[] name;
    /** adaptive within a template: the key of each value, bound by the template around its operations */
    private final TemplateKeys keys;

    private CompressingRedisSerializer(RedisSerializer<T> delegate, ValueCompressor compressor, boolean compressing) {
        this(delegate, compressor, compressing, null, null, null);
    }

    private CompressingRedisSerializer(RedisSerializer<T> delegate, ValueCompressor compressor, boolean compressing,
                                       AdaptiveCompressor adaptive, byte[] name, TemplateKeys keys) {
        SpringLine.require("CompressingRedisSerializer");
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.compressor = Objects.requireNonNull(compressor, "compressor");
        this.compressing = compressing;
        this.adaptive = adaptive;
        this.name = name;
        this.keys = keys;
    }

    /**
     * A serializer that compresses every value with {@code adaptive} under {@code name}, and reads every stored form
     * ({@link AdaptiveCompressor#reader()}). It does not see keys: every value shares the decision of
     * {@code name}'s pattern, wherever it is used (see the class comment).
     *
     * @param delegate the serializer that turns values into bytes
     * @param adaptive the adaptive compressor, shared with every other writer of the same keys
     * @param name     the key (or listed pattern) every value is written under, for example a cache's name
     * @return a serializer compressing {@code delegate}'s output under {@code name}
     */
    public static <T> CompressingRedisSerializer<T> forPattern(RedisSerializer<T> delegate,
                                                               AdaptiveCompressor adaptive, String name) {
        return new CompressingRedisSerializer<>(delegate, Objects.requireNonNull(adaptive, "adaptive").reader(), true,
                adaptive, Objects.requireNonNull(name, "name").getBytes(StandardCharsets.UTF_8), null);
    }

    /** An adaptive template's compressing serializer: each value under the key {@code keys} has bound for it. */
    static <T> CompressingRedisSerializer<T> keyed(RedisSerializer<T> delegate, AdaptiveCompressor adaptive,
                                                   TemplateKeys keys) {
        return new CompressingRedisSerializer<>(delegate, adaptive.reader(), true, adaptive, null,
                Objects.requireNonNull(keys, "keys"));
    }

    /**
     * A serializer that writes {@code delegate}'s bytes plain and reads like {@link #wrap}: any value that carries the
     * header is decoded, whatever wrote it. {@link CompressingRedisTemplate} uses it for everything it does not
     * compress (members, list elements, script arguments, messages, stream entries, hash values unless opted in).
     *
     * @param delegate the serializer that turns values into bytes
     * @param compressor the compressor that decodes (its {@link ValueCompressor#stats()} count this serializer's reads)
     * @return a serializer that never compresses and always decodes
     */
    public static <T> CompressingRedisSerializer<T> reading(RedisSerializer<T> delegate, ValueCompressor compressor) {
        return new CompressingRedisSerializer<>(delegate, compressor, false);
    }

    /** @return whether {@link #serialize} compresses (false for a {@link #reading} serializer) */
    public boolean compresses() {
        return compressing;
    }

    /**
     * @param delegate the serializer that turns values into bytes, for example {@code RedisSerializer.json()}
     * @param compressor the compressor to share (its {@link ValueCompressor#stats()} count this serializer's values)
     * @return a serializer compressing {@code delegate}'s output
     */
    public static <T> CompressingRedisSerializer<T> wrap(RedisSerializer<T> delegate, ValueCompressor compressor) {
        return new CompressingRedisSerializer<>(delegate, compressor, true);
    }

    /** As {@link #wrap(RedisSerializer, ValueCompressor)} with a new compressor for {@code config}. */
    public static <T> CompressingRedisSerializer<T> wrap(RedisSerializer<T> delegate, CompressionConfig config) {
        return new CompressingRedisSerializer<>(delegate, ValueCompressor.create(config), true);
    }

    /**
     * Wraps {@code template}'s value serializer and hash value serializer, leaving its key and hash key serializers
     * untouched. The template then compresses every value its value serializer writes, members and script
     * arguments included (see the class comment); {@link CompressingRedisTemplate} is the safe way. Hash values (and
     * stream entries, which Spring writes with the hash value serializer) are compressed only when
     * {@link CompressionConfig#compressHashValues() hash compression is opted in}, and decoded always. Call it after setting the serializers and before {@link RedisTemplate#afterPropertiesSet()};
     * a serializer left unset is taken to be the template's default serializer (JDK serialization unless set), or,
     * with the default serializer turned off, {@code byte[]} values as they are ({@link RedisSerializer#byteArray()}),
     * as such a template reads and writes them.
     *
     * @return {@code template}
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    public static <K, V> RedisTemplate<K, V> compressValues(RedisTemplate<K, V> template, ValueCompressor compressor) {
        RedisSerializer<?> fallback = template.getDefaultSerializer() != null ? template.getDefaultSerializer()
                : template.isEnableDefaultSerializer() ? RedisSerializer.java(template.getClass().getClassLoader())
                : RedisSerializer.byteArray();
        RedisSerializer<?> value = template.getValueSerializer() != null ? template.getValueSerializer() : fallback;
        RedisSerializer<?> hashValue = template.getHashValueSerializer() != null ? template.getHashValueSerializer()
                : fallback;
        template.setValueSerializer(wrap((RedisSerializer) value, compressor));
        template.setHashValueSerializer(compressor.config().compressHashValues()
                ? wrap((RedisSerializer) hashValue, compressor) : reading((RedisSerializer) hashValue, compressor));
        return template;
    }

    /**
     * @return the compressor doing the work: with an {@link #adaptive()} compressor the one the reads decompress with
     *         ({@link AdaptiveCompressor#reader()})
     */
    public ValueCompressor compressor() {
        return compressor;
    }

    /** @return the adaptive compressor writing the values, or null in the fixed mode and for a reading serializer */
    public AdaptiveCompressor adaptive() {
        return adaptive;
    }

    /** @return the wrapped serializer */
    public RedisSerializer<T> delegate() {
        return delegate;
    }

    @Override
    public byte[] serialize(T value) throws SerializationException {
        byte[] plain = delegate.serialize(value);
        if (!compressing) {
            return plain;
        }
        if (adaptive == null) {
            return plain == null ? null : compressor.compress(plain);
        }
        // the key is taken for a null value too, so that a multiSet's entries stay in step (TemplateKeys)
        byte[] key = keys == null ? name : keys.keyOf(value);
        return plain == null ? null : adaptive.compress(key, plain);
    }

    /**
     * @throws DecompressionLimitException if the value would decompress to more than the configured maximum
     */
    @Override
    public T deserialize(byte[] bytes) throws SerializationException {
        return delegate.deserialize(bytes == null ? null : compressor.decompress(bytes));
    }

    /**
     * Spring Data Redis 4.1's typed read: the value decoded as {@link #deserialize(byte[])} decodes it, then read into
     * {@code type} by the wrapped serializer's own typed read (a JSON serializer reads a document without type
     * information into {@code type}), as the unwrapped serializer reads it.
     *
     * @throws DecompressionLimitException if the value would decompress to more than the configured maximum
     * @throws UnsupportedOperationException on a Spring Data Redis older than 4.1, which has no typed read
     */
    @Override
    public <U> U deserialize(byte[] bytes, Class<U> type) throws SerializationException {
        SpringLine.requireTypedReads("CompressingRedisSerializer.deserialize(bytes, type)");
        return delegate.deserialize(bytes == null ? null : compressor.decompress(bytes), type);
    }

    @Override
    public boolean canSerialize(Class<?> type) {
        return delegate.canSerialize(type);
    }

    @Override
    public Class<?> getTargetType() {
        return delegate.getTargetType();
    }
}
