package dev.zstdjava.lettuce;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.ToByteBufEncoder;
import io.netty.buffer.ByteBuf;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A Lettuce codec that compresses values transparently in Valkey GLIDE's format, around any other codec:
 *
 * <pre>{@code
 * RedisCodec<String, String> codec = CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.defaults());
 * StatefulRedisConnection<String, String> connection = client.connect(codec);
 * }</pre>
 *
 * <p>Keys pass through the delegate untouched (cluster slots hash the key bytes). Values are encoded by the delegate
 * and then stored as {@link ValueCompressor} describes: compressed when that makes them smaller, as they are
 * otherwise; values written by other clients without compression read back unchanged, and GLIDE clients read what
 * this codec writes (and the reverse). Every value the codec decodes goes through it, so compressed values are
 * returned decompressed by all commands: strings, hashes, lists, sets, sorted sets, streams, scripts.
 *
 * <p>A value that would decompress to more than the configured maximum fails its command with
 * {@link DecompressionLimitException}; the connection stays usable. A value that only looks compressed (unknown
 * backend id, payload that does not decode) is returned as stored.
 *
 * <p><b>Commands that cannot work on compressed values:</b> {@code APPEND}, {@code GETRANGE}, {@code SETRANGE},
 * {@code STRLEN}, {@code LCS}, {@code INCR} and family ({@code INCRBY}, {@code INCRBYFLOAT}, {@code DECR},
 * {@code DECRBY}), and the bit operations ({@code GETBIT}, {@code SETBIT}, {@code BITCOUNT}, {@code BITPOS},
 * {@code BITFIELD}, {@code BITFIELD_RO}, {@code BITOP}) act on the stored bytes on the server; see
 * {@link ValueCompressor}. Keys and arguments that are not values (field names, scores, patterns) are never
 * compressed.
 *
 * <p><b>Encoding</b> writes the header and the compressed bytes straight into Lettuce's target {@link ByteBuf}
 * (through its native address or backing array). For {@link ByteArrayCodec} the value array is compressed in place;
 * delegates that are {@link ToByteBufEncoder}s (such as {@code StringCodec}) encode into a buffer borrowed from the
 * target's pooled allocator first; other delegates' {@link ByteBuffer}s are compressed from where they are. No
 * intermediate {@code byte[]} is made (except for composite target buffers, which have no single address).
 * <b>Decoding</b> reads the buffer Lettuce hands over in place, without keeping it, and allocates only the
 * decompressed value (passed to the delegate as a heap buffer; for {@link ByteArrayCodec} returned directly).
 *
 * <p><b>Which thread does the work:</b> Lettuce runs codecs on the connection's event-loop thread, so every value of
 * a connection is compressed and decompressed on that one thread. When many threads share a connection and that
 * thread is the bottleneck, compress on the calling threads instead: Lettuce's {@link ByteArrayCodec} plus one shared
 * {@link ValueCompressor} ({@code compress} before the command, {@code decompress} after it). The stored bytes are
 * the same either way, so the two read each other's values.
 *
 * <p><b>Thread safety:</b> thread-safe if the delegate is; one instance serves every connection.
 */
public final class CompressingCodec<K, V> implements RedisCodec<K, V>, ToByteBufEncoder<K, V> {
    private final RedisCodec<K, V> delegate;
    private final ToByteBufEncoder<K, V> byteBufDelegate;
    private final boolean byteArrays;
    private final ValueCompressor compressor;

    @SuppressWarnings("unchecked")
    private CompressingCodec(RedisCodec<K, V> delegate, ValueCompressor compressor) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.compressor = Objects.requireNonNull(compressor, "compressor");
        this.byteArrays = delegate.getClass() == ByteArrayCodec.class;
        this.byteBufDelegate = delegate instanceof ToByteBufEncoder<?, ?> e ? (ToByteBufEncoder<K, V>) e : null;
    }

    /**
     * @param delegate the codec that turns keys and values into bytes, for example {@code StringCodec.UTF8} or
     *                 {@code ByteArrayCodec.INSTANCE}
     * @param config   how to compress
     * @return a codec compressing {@code delegate}'s values; implements {@link ToByteBufEncoder}
     */
    public static <K, V> CompressingCodec<K, V> wrap(RedisCodec<K, V> delegate, CompressionConfig config) {
        return new CompressingCodec<>(delegate, ValueCompressor.create(config));
    }

    /** As {@link #wrap(RedisCodec, CompressionConfig)}, sharing {@code compressor} (and its counters). */
    public static <K, V> CompressingCodec<K, V> wrap(RedisCodec<K, V> delegate, ValueCompressor compressor) {
        return new CompressingCodec<>(delegate, compressor);
    }

    /** @return the compressor doing the work; its {@link ValueCompressor#stats()} counts this codec's values */
    public ValueCompressor compressor() {
        return compressor;
    }

    /** @return the wrapped codec */
    public RedisCodec<K, V> delegate() {
        return delegate;
    }

    // ------------------------------------------------------------------------------------------------ keys

    @Override
    public K decodeKey(ByteBuffer bytes) {
        return delegate.decodeKey(bytes);
    }

    @Override
    public ByteBuffer encodeKey(K key) {
        return delegate.encodeKey(key);
    }

    @Override
    public void encodeKey(K key, ByteBuf target) {
        if (byteBufDelegate != null) {
            byteBufDelegate.encodeKey(key, target);
        } else {
            target.writeBytes(delegate.encodeKey(key));
        }
    }

    // ---------------------------------------------------------------------------------------------- values

    @Override
    @SuppressWarnings("unchecked")
    public V decodeValue(ByteBuffer bytes) {
        if (bytes != null && compressor.mayDecode(bytes)) {
            byte[] original = compressor.decompressOrNull(MemorySegment.ofBuffer(bytes));
            if (original != null) {
                return byteArrays ? (V) original : delegate.decodeValue(ByteBuffer.wrap(original));
            }
        }
        return delegate.decodeValue(bytes);
    }

    @Override
    public ByteBuffer encodeValue(V value) {
        if (byteArrays) {
            return ByteBuffer.wrap(compressor.compress(value == null ? new byte[0] : (byte[]) value));
        }
        ByteBuffer plain = delegate.encodeValue(value);
        int n = plain.remaining();
        if (n < compressor.config().minCompressionSize() || !compressor.config().enabled()) {
            compressor.countSkipped();
            return plain;
        }
        ByteBuffer out = ByteBuffer.allocate(n);
        compressor.compress(plain, out);
        return out.flip();
    }

    @Override
    public void encodeValue(V value, ByteBuf target) {
        if (byteArrays) {
            byte[] v = value == null ? new byte[0] : (byte[]) value;
            write(MemorySegment.ofArray(v), target);
            return;
        }
        if (byteBufDelegate != null) {
            CompressionConfig config = compressor.config();
            if (byteBufDelegate.isEstimateExact()
                    && (!config.enabled() || byteBufDelegate.estimateSize(value) < config.minCompressionSize())) {
                compressor.countSkipped();
                byteBufDelegate.encodeValue(value, target);
                return;
            }
            ByteBuf plain = target.alloc().buffer(Math.max(16, byteBufDelegate.estimateSize(value)));
            try {
                byteBufDelegate.encodeValue(value, plain);
                MemorySegment src = readableSegment(plain);
                if (src != null) {
                    write(src, target);
                } else {
                    ByteBuffer nio = plain.nioBuffer();
                    write(MemorySegment.ofBuffer(nio), target);
                }
            } finally {
                plain.release();
            }
            return;
        }
        write(MemorySegment.ofBuffer(delegate.encodeValue(value)), target);
    }

    @Override
    public int estimateSize(Object keyOrValue) {
        // the stored form is never larger than the plain encoding, so the delegate's estimate holds
        if (byteBufDelegate != null) {
            return byteBufDelegate.estimateSize(keyOrValue);
        }
        if (keyOrValue instanceof byte[] b) {
            return b.length;
        }
        return 32;
    }

    @Override
    public boolean isEstimateExact() {
        return false; // the compressed size is known only after compressing
    }

    /** Writes the stored form of {@code plain} at {@code target}'s writer index, advancing it. */
    private void write(MemorySegment plain, ByteBuf target) {
        int n = (int) plain.byteSize();
        target.ensureWritable(n);
        int at = target.writerIndex();
        MemorySegment dst = writableSegment(target, at, n);
        if (dst != null) {
            target.writerIndex(at + (int) compressor.compress(plain, dst));
            return;
        }
        // a buffer without a single address or array (composite): compress into a scratch array, then copy
        byte[] stored = compressor.compress(plain.toArray(ValueLayout.JAVA_BYTE));
        target.writeBytes(stored);
    }

    private static MemorySegment writableSegment(ByteBuf b, int index, int length) {
        if (b.hasMemoryAddress()) {
            return MemorySegment.ofAddress(b.memoryAddress() + index).reinterpret(length);
        }
        if (b.hasArray()) {
            return MemorySegment.ofArray(b.array()).asSlice(b.arrayOffset() + index, length);
        }
        if (b.nioBufferCount() == 1) {
            return MemorySegment.ofBuffer(b.nioBuffer(index, length));
        }
        return null;
    }

    private static MemorySegment readableSegment(ByteBuf b) {
        int index = b.readerIndex();
        int length = b.readableBytes();
        if (b.hasMemoryAddress()) {
            return MemorySegment.ofAddress(b.memoryAddress() + index).reinterpret(length);
        }
        if (b.hasArray()) {
            return MemorySegment.ofArray(b.array()).asSlice(b.arrayOffset() + index, length);
        }
        return null;
    }
}
