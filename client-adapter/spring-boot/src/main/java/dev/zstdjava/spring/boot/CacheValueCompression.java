package dev.zstdjava.spring.boot;

import dev.zstdjava.values.ValueCompressor;
import org.springframework.core.Ordered;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager.RedisCacheManagerBuilder;
import org.springframework.data.redis.serializer.RedisElementReader;
import org.springframework.data.redis.serializer.RedisElementWriter;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

import java.nio.ByteBuffer;
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
 * Wrapping is idempotent.
 *
 * <p><b>Thread safety:</b> thread-safe; the wrapped pairs are immutable. <b>Allocation:</b> per value, the delegate's
 * output copied once into an array, and the compressed or decompressed array.
 */
public class CacheValueCompression implements Ordered {
    private final ValueCompressor compressor;

    /** @param compressor compresses and decodes the cache values; its counters count them */
    public CacheValueCompression(ValueCompressor compressor) {
        this.compressor = Objects.requireNonNull(compressor, "compressor");
    }

    /**
     * Wraps the value serialization of the builder's defaults and of every cache configured on it so far.
     *
     * @param builder the builder of a {@code RedisCacheManager} not yet built
     */
    public final void customize(RedisCacheManagerBuilder builder) {
        builder.cacheDefaults(wrap(builder.cacheDefaults()));
        for (String name : List.copyOf(builder.getConfiguredCaches())) {
            builder.getCacheConfigurationFor(name).ifPresent(c -> builder.withCacheConfiguration(name, wrap(c)));
        }
    }

    /** @return {@code config} with its value serialization compressing (unchanged if it compresses already) */
    public final RedisCacheConfiguration wrap(RedisCacheConfiguration config) {
        SerializationPair<Object> pair = config.getValueSerializationPair();
        if (pair instanceof Compressing) {
            return config;
        }
        return config.serializeValuesWith(new Compressing(pair, compressor));
    }

    @Override
    public final int getOrder() {
        return Ordered.LOWEST_PRECEDENCE;
    }

    /** The application's pair, its bytes compressed on the way out and decoded on the way in. */
    private record Compressing(SerializationPair<Object> delegate, ValueCompressor compressor)
            implements SerializationPair<Object> {
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
                return ByteBuffer.wrap(compressor.compress(bytes));
            };
        }
    }
}
