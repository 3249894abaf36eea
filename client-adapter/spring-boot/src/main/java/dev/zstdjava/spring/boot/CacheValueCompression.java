package dev.zstdjava.spring.boot;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.spring.CompressingRedisSerializer;
import org.springframework.core.Ordered;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager.RedisCacheManagerBuilder;
import org.springframework.data.redis.serializer.RedisElementReader;
import org.springframework.data.redis.serializer.RedisElementWriter;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Compresses the values of every cache of Boot's {@code RedisCacheManager}: the default cache configuration and every
 * per-cache one get their value {@link SerializationPair} wrapped, whatever serialization the application chose (JDK,
 * JSON, its own); the key serialization is never touched, so cache keys stay as they were. Values are compressed in
 * Valkey GLIDE's stored format like the templates' (below the minimum size or not smaller: stored as they are), and
 * every value read is decoded when it carries the header, so caches written before compression was on still read.
 *
 * <p>Line-neutral: it implements no Boot type. The auto-configuration registers it as the running Boot generation's
 * {@code RedisCacheManagerBuilderCustomizer} through a subclass per generation ({@code Boot4Caches.Customizer},
 * {@code Boot3Caches.Customizer}), whose {@code customize} is {@link #customize}. An application that builds its own
 * {@code RedisCacheManager} calls {@link #customize} on its builder, or {@link #wrap} on each configuration.
 *
 * <p>Runs after the application's own customizers ({@link Ordered#LOWEST_PRECEDENCE}; Boot registers the
 * application's unordered customizers before this one), so the per-cache configurations they add are wrapped too.
 * Wrapping is idempotent, and a configuration whose values already compress is left as it is: one this class
 * wrapped, or one whose pair the application made from a compressing {@link CompressingRedisSerializer}
 * ({@code SerializationPair.fromSerializer}, or {@code SerializationPair.just} of Spring's
 * {@code RedisElementReader.from}/{@code RedisElementWriter.from}): its values are compressed once, by its own
 * serializer, and counted once, by that serializer's compressor. Spring's pair does not expose its serializer; it is
 * read from Spring's writer (a private field); should that fail, the configuration is wrapped and a warning names the
 * cache.
 *
 * <p><b>Adaptive compression</b> ({@link #CacheValueCompression(AdaptiveCompressor)}): the cache's name is the key
 * its values are written under. Each cache configured on the builder by the time {@link #customize} runs (the names
 * of {@code spring.cache.cache-names}, and those the application's customizers configure) writes its values with
 * {@link AdaptiveCompressor#compress} with its name as the key, so the name gets a pattern as a key does: the first
 * listed pattern that matches it, else the name folded ({@link dev.zstdjava.values.KeyFolder}: digit runs, hex ids
 * and UUIDs become {@code *}). Caches whose names differ only there share one pattern and one decision
 * ({@code region1} and {@code region2} are both {@code region*}, {@code orders-v1} and {@code orders-v2} both
 * {@code orders-v*}), as do a cache and the template keys that fold alike. No listed pattern can part them (a
 * listed pattern is matched against the folded name, so one that matches either name matches both); names that
 * differ in other characters get patterns of their own. A value serialization pair does not see the cache it
 * serves, so the caches {@code RedisCacheManager} creates on demand from the defaults share the one pattern
 * {@value #ON_DEMAND_CACHES}: name a cache in {@code spring.cache.cache-names} for a decision of its own. Reads go
 * through {@link AdaptiveCompressor#reader()}.
 *
 * <p><b>Thread safety:</b> thread-safe; the wrapped pairs are immutable. <b>Allocation:</b> per value, the delegate's
 * output copied once into an array, and the compressed or decompressed array (adaptive: a sampled write also each
 * candidate option's stored form).
 */
public class CacheValueCompression implements Ordered {
    /** The name the values of caches created on demand from the defaults are written under, in the adaptive mode. */
    public static final String ON_DEMAND_CACHES = "(caches)";

    private final ValueCompressor compressor;
    /** the adaptive compressor, or null in the fixed mode */
    private final AdaptiveCompressor adaptive;

    /** @param compressor compresses and decodes the cache values; its counters count them */
    public CacheValueCompression(ValueCompressor compressor) {
        this(Objects.requireNonNull(compressor, "compressor"), null);
    }

    /**
     * The adaptive mode: each cache's values written under the pattern of the cache's name (see the class comment).
     *
     * @param adaptive compresses the cache values; its reader decodes them
     */
    public CacheValueCompression(AdaptiveCompressor adaptive) {
        this(Objects.requireNonNull(adaptive, "adaptive").reader(), adaptive);
    }

    /** For the generations' customizers: {@code adaptive} when not null, else {@code compressor}. */
    CacheValueCompression(ValueCompressor compressor, AdaptiveCompressor adaptive) {
        this.compressor = adaptive == null ? Objects.requireNonNull(compressor, "compressor") : adaptive.reader();
        this.adaptive = adaptive;
    }

    /** @return the adaptive compressor writing the values, or null in the fixed mode */
    public final AdaptiveCompressor adaptive() {
        return adaptive;
    }

    /**
     * Wraps the value serialization of the builder's defaults and of every cache configured on it so far.
     *
     * @param builder the builder of a {@code RedisCacheManager} not yet built
     */
    public final void customize(RedisCacheManagerBuilder builder) {
        builder.cacheDefaults(wrap(builder.cacheDefaults()));
        for (String name : List.copyOf(builder.getConfiguredCaches())) {
            builder.getCacheConfigurationFor(name)
                    .ifPresent(c -> builder.withCacheConfiguration(name, wrap(name, c)));
        }
    }

    /**
     * @return {@code config} with its value serialization compressing (unchanged if it compresses already); in the
     *         adaptive mode under {@value #ON_DEMAND_CACHES}
     */
    public final RedisCacheConfiguration wrap(RedisCacheConfiguration config) {
        return wrap(ON_DEMAND_CACHES, config);
    }

    /**
     * @param cacheName the cache {@code config} serves: in the adaptive mode, the key its values are written under
     *                  (folded into a pattern as a key is)
     * @return {@code config} with its value serialization compressing (unchanged if it compresses already under that
     *         name; a pair wrapped under another name is wrapped again under this one)
     */
    public final RedisCacheConfiguration wrap(String cacheName, RedisCacheConfiguration config) {
        SerializationPair<Object> pair = config.getValueSerializationPair();
        byte[] name = adaptive == null ? null : cacheName.getBytes(StandardCharsets.UTF_8);
        if (pair instanceof Compressing c) {
            if (adaptive == null || Arrays.equals(c.name(), name)) {
                return config;
            }
            pair = c.delegate();
        } else if (compressesAlready(cacheName, pair)) {
            return config;
        }
        return config.serializeValuesWith(new Compressing(pair, compressor, adaptive, name));
    }

    /** The class of Spring's writer over a {@code RedisSerializer} ({@code RedisElementWriter.from}). */
    private static final String SPRING_WRITER = "org.springframework.data.redis.serializer.DefaultRedisElementWriter";

    // whether pair writes through a CompressingRedisSerializer that compresses (the application's own compression)
    private static boolean compressesAlready(String cacheName, SerializationPair<Object> pair) {
        RedisElementWriter<Object> writer = pair.getWriter();
        if (writer == null || !writer.getClass().getName().equals(SPRING_WRITER)) {
            return false;
        }
        Object serializer;
        try {
            Field f = writer.getClass().getDeclaredField("serializer");
            if (!f.trySetAccessible()) {
                throw new IllegalAccessException(SPRING_WRITER + ".serializer is not accessible");
            }
            serializer = f.get(writer);
        } catch (ReflectiveOperationException | RuntimeException e) {
            System.getLogger(CacheValueCompression.class.getName()).log(System.Logger.Level.WARNING,
                    "Cannot tell whether the value serializer of " + (ON_DEMAND_CACHES.equals(cacheName)
                    ? "the default cache configuration" : "cache '" + cacheName + "'") + " compresses already ("
                    + e + "); its values are compressed by zstd-java's cache compression, and by that serializer "
                    + "too if it is a CompressingRedisSerializer: give that cache the plain serializer");
            return false;
        }
        return serializer instanceof CompressingRedisSerializer<?> c && c.compresses();
    }

    @Override
    public final int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    /**
     * The application's pair, its bytes compressed on the way out (adaptive: under {@code name}) and decoded on the
     * way in.
     */
    private record Compressing(SerializationPair<Object> delegate, ValueCompressor compressor,
                               AdaptiveCompressor adaptive, byte[] name) implements SerializationPair<Object> {
        @Override
        public RedisElementReader<Object> getReader() {
            RedisElementReader<Object> reader = delegate.getReader();
            return buffer -> reader.read(compressor.decompress(buffer));
        }

        @Override
        public RedisElementWriter<Object> getWriter() {
            RedisElementWriter<Object> writer = delegate.getWriter();
            return value -> {
                ByteBuffer b = writer.write(value);
                byte[] bytes = new byte[b.remaining()];
                b.duplicate().get(bytes);
                return ByteBuffer.wrap(adaptive == null ? compressor.compress(bytes) : adaptive.compress(name, bytes));
            };
        }
    }
}
