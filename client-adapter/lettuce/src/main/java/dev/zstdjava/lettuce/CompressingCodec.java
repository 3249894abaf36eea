package dev.zstdjava.lettuce;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.ToByteBufEncoder;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * The Lettuce codec of a compressing connection: values in Valkey GLIDE's compressed format, around any other codec.
 * A compressing connection comes from one call, which makes this codec itself ({@code getCodec()} returns it):
 *
 * <pre>{@code
 * ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults()); // one per application
 * CompressingRedisClient client = CompressingRedisClient.create("redis://localhost:6379");
 * StatefulRedisConnection<String, String> connection = client.connect(StringCodec.UTF8, values);
 * }</pre>
 *
 * <p>A codec sees a value and not its command ({@code encodeValue} gets the same call for a {@code SET} value, an
 * {@code SADD} member and an {@code EVAL} argument), so the client decides: while it encodes a command whose values
 * are compressed (by default GLIDE's scope: {@code SET}, {@code SETNX}, {@code SETEX}, {@code PSETEX}, {@code MSET},
 * {@code MSETNX}; hash values when opted in), it tells the codec so on the encoding thread. Every other value goes
 * out exactly as the delegate encodes it.
 *
 * <p>{@link #wrap} makes one for Lettuce's methods that take a codec ({@code connectPubSub},
 * {@code MasterReplica.connect(client, codec, uri)}, {@code connectAsync}) of a {@link CompressingRedisClient} or
 * {@link CompressingRedisClusterClient}. <b>Anywhere else it fails</b>: until one of those clients has made a
 * connection with it, encoding a key or a value throws {@link IllegalStateException} saying how to connect, so a
 * plain {@code RedisClient} or {@code RedisClusterClient} fails the first command that carries a key or a value
 * (Lettuce then closes and reconnects the connection) and never stores a value uncompressed by mistake. Once a
 * policy client has connected it, the codec cannot tell its connections from others: give it to no other client.
 *
 * <p>Keys pass through the delegate untouched (cluster slots hash the key bytes). A compressed value is stored as
 * {@link ValueCompressor} describes: compressed when that makes it smaller, as it is otherwise; GLIDE clients read
 * what this codec writes, and the reverse. <b>Decoding is lenient:</b> every value in every reply that starts with the
 * header is decompressed, whatever the command, so members, list elements and hash values written compressed by
 * earlier builds still read back as values.
 *
 * <p><b>Adaptive mode</b> (opt-in, {@link #wrap(RedisCodec, AdaptiveCompressor)}): each compressed value is written
 * with the option of its command's key's pattern, decided by an {@link AdaptiveCompressor}; the client tells the codec
 * the key on the encoding thread, as it tells it to compress. Without it, the codec writes as described here.
 *
 * <p>A value that would decompress to more than the configured maximum fails its command with
 * {@link DecompressionLimitException}; the connection stays usable. A value that only looks compressed (unknown
 * backend id, payload that does not decode) is returned as stored.
 *
 * <p><b>Encoding</b> writes the header and the compressed bytes straight into the target {@link ByteBuf} (through
 * its native address or backing array). For {@link ByteArrayCodec} the value array is compressed in place;
 * delegates that are {@link ToByteBufEncoder}s (such as {@code StringCodec}) encode into a buffer borrowed from the
 * target's pooled allocator first; other delegates' {@link ByteBuffer}s are compressed from where they are. No
 * intermediate {@code byte[]} is made (except for composite target buffers, which have no single address). A value
 * sent plain, and a key, cost one read of the per-thread flag and one volatile read on top of the delegate's
 * encoding.
 * <b>Decoding</b> reads the buffer it is handed in place, without keeping it, and allocates only the decompressed
 * value (passed to the delegate as a heap buffer; for {@link ByteArrayCodec} returned directly).
 *
 * <p><b>Which thread does the work:</b> a command's values are compressed on the thread that dispatches it (the
 * client encodes the whole command there, into a heap array the command keeps); replies are decoded by the
 * connection's event loop or the client's decoding threads, and completed in reply order, so completion order,
 * callback threads and completion hooks keep Lettuce's contract ({@link CompressingRedisClient}, "Which thread does
 * the work"). docs/values.md, "Which
 * thread compresses", has the bytes allocated per command.
 *
 * <p><b>Thread safety:</b> thread-safe if the delegate is; one instance serves every connection.
 */
public final class CompressingCodec<K, V> implements RedisCodec<K, V>, ToByteBufEncoder<K, V> {
    private final RedisCodec<K, V> delegate;
    private final ToByteBufEncoder<K, V> byteBufDelegate;
    private final boolean byteArrays;
    private final ValueCompressor compressor;
    /** null in fixed mode */
    private final AdaptiveCompressor adaptive;
    private final boolean plainExact;
    private volatile boolean policyAttached;

    private CompressingCodec(RedisCodec<K, V> delegate, ValueCompressor compressor) {
        this(delegate, compressor, null);
    }

    @SuppressWarnings("unchecked")
    private CompressingCodec(RedisCodec<K, V> delegate, ValueCompressor compressor, AdaptiveCompressor adaptive) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.compressor = Objects.requireNonNull(compressor, "compressor");
        this.adaptive = adaptive;
        this.byteArrays = delegate.getClass() == ByteArrayCodec.class;
        this.byteBufDelegate = delegate instanceof ToByteBufEncoder<?, ?> e ? (ToByteBufEncoder<K, V>) e : null;
        this.plainExact = byteBufDelegate != null && byteBufDelegate.isEstimateExact();
    }

    /**
     * A codec for the policy clients' methods that take one ({@code connectPubSub}, {@code MasterReplica.connect});
     * for a connection, {@code connect(codec, values)} of {@link CompressingRedisClient} or
     * {@link CompressingRedisClusterClient} makes it.
     *
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

    /**
     * An adaptive codec, for the policy clients' methods that take one; for a connection,
     * {@code connect(codec, adaptive)} of {@link CompressingRedisClient} or {@link CompressingRedisClusterClient}
     * makes it. Each value the policy compresses is written with the option its key's pattern has shown to suit the
     * compressor's goal ({@link AdaptiveCompressor}): the pattern key of a value is its command's key (the first key
     * of {@code SET}, {@code SETNX}, {@code SETEX}, {@code PSETEX}; the key just before each value of
     * {@code MSET} and {@code MSETNX}; the hash's key, not the field, of the hash writes when the policy compresses
     * hash values). The command policy, the size limits and the legacy formats are those of
     * {@link AdaptiveCompressor#config()}. A value encoded while no key is known is compressed as in fixed mode, with
     * that configuration's backend and level (the stored form {@link #compressor()} writes). The codec decodes with
     * {@link AdaptiveCompressor#reader()}, so it reads every option's stored form, the values written with
     * {@linkplain AdaptiveCompressor.Builder#dictionaries(dev.zstdjava.values.PatternDictionaries) per-pattern
     * dictionaries} included (a fixed-mode codec and Valkey GLIDE read every option's but the dictionary one's).
     *
     * <p><b>Allocation:</b> as in fixed mode, a value is compressed straight into the target buffer
     * ({@link AdaptiveCompressor#compress(byte[], int, int, java.lang.foreign.MemorySegment,
     * java.lang.foreign.MemorySegment)}), from the value's own array ({@link ByteArrayCodec}), a pooled buffer the
     * delegate encoded into, or the delegate's {@link ByteBuffer}: no copy of the value, but on a sampled write (the
     * pattern's first writes, then about one in 64), which measures every option on a copy. The key is copied into a
     * per-thread array that is kept. Decoding is as in fixed mode. <b>Thread safety:</b> as the fixed-mode codec;
     * the key travels with the encoding thread.
     *
     * @param delegate the codec that turns keys and values into bytes
     * @param adaptive decides and writes the stored form of each value (one per application: its
     *                 {@link AdaptiveCompressor#snapshot()} shows every connection's patterns)
     * @return a codec compressing {@code delegate}'s values by pattern; {@link #adaptive()} returns {@code adaptive}
     */
    public static <K, V> CompressingCodec<K, V> wrap(RedisCodec<K, V> delegate, AdaptiveCompressor adaptive) {
        Objects.requireNonNull(adaptive, "adaptive");
        return new CompressingCodec<>(delegate, adaptive.reader(), adaptive);
    }

    /**
     * @return the compressor that decodes, and in fixed mode encodes; its {@link ValueCompressor#stats()} counts this
     *         codec's values (in adaptive mode it is {@link AdaptiveCompressor#reader()}, shared by every codec of
     *         that compressor: the values they decode, and those written while no key is known)
     */
    public ValueCompressor compressor() {
        return compressor;
    }

    /**
     * @return the adaptive compressor that writes this codec's values (its {@link AdaptiveCompressor#snapshot()}
     *         lists the decisions per key pattern), or null in fixed mode
     */
    public AdaptiveCompressor adaptive() {
        return adaptive;
    }

    /** Marks the codec as used by a connection under the command policy: from now on it encodes. */
    void attachPolicy() {
        policyAttached = true;
    }

    // Before a key or a plain value is encoded: a codec that no policy client has connected is on a connection that
    // would store every value uncompressed, so the command fails (before any of its bytes are written).
    private void requirePolicy() {
        if (!policyAttached) {
            throw new IllegalStateException(MISUSE);
        }
    }

    static final String MISUSE = "CompressingCodec on a connection that CompressingRedisClient or "
            + "CompressingRedisClusterClient did not make: it would store every value uncompressed. Connect in one "
            + "call instead: CompressingRedisClient.create(uri).connect(StringCodec.UTF8, valueCompressor) "
            + "(CompressingRedisClusterClient for a cluster); a cluster pub/sub connection takes the plain codec.";

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
        requirePolicy();
        ByteBuffer encoded = delegate.encodeKey(key);
        if (adaptive != null && encoded != null) {
            PolicyScope scope = PolicyScope.current();
            if (scope.wantsKey()) {
                scope.recordKey(encoded);
            }
        }
        return encoded;
    }

    @Override
    public void encodeKey(K key, ByteBuf target) {
        requirePolicy();
        int at = target.writerIndex();
        if (byteBufDelegate != null) {
            byteBufDelegate.encodeKey(key, target);
        } else {
            target.writeBytes(delegate.encodeKey(key));
        }
        if (adaptive != null) {
            PolicyScope scope = PolicyScope.current();
            if (scope.wantsKey()) {
                scope.recordKey(target, at, target.writerIndex() - at);
            }
        }
    }

    // ---------------------------------------------------------------------------------------------- values

    @Override
    @SuppressWarnings("unchecked")
    public V decodeValue(ByteBuffer bytes) {
        if (bytes != null) {
            ByteBuffer original = compressor.decompress(bytes);
            if (original != bytes) {
                return byteArrays ? (V) original.array() : delegate.decodeValue(original);
            }
        }
        return delegate.decodeValue(bytes);
    }

    @Override
    public ByteBuffer encodeValue(V value) {
        if (!PolicyScope.compressing()) {
            requirePolicy();
            return delegate.encodeValue(value);
        }
        if (adaptive != null) {
            PolicyScope scope = PolicyScope.current();
            if (scope.keyLength >= 0) {
                return ByteBuffer.wrap(adaptive.compress(scope.key, 0, scope.keyLength,
                        plainBytes(value, EncodeBuffers.ALLOCATOR)));
            }
        }
        if (byteArrays) {
            return ByteBuffer.wrap(compressor.compress(value == null ? new byte[0] : (byte[]) value));
        }
        ByteBuffer plain = delegate.encodeValue(value);
        int n = plain.remaining();
        if (compressor.storesAsIs(n)) {
            return plain;
        }
        ByteBuffer out = ByteBuffer.allocate(n);
        compressor.compress(plain, out);
        return out.flip();
    }

    @Override
    public void encodeValue(V value, ByteBuf target) {
        if (!PolicyScope.compressing()) {
            requirePolicy();
            if (byteBufDelegate != null) {
                byteBufDelegate.encodeValue(value, target);
            } else {
                target.writeBytes(delegate.encodeValue(value));
            }
            return;
        }
        if (adaptive != null) {
            PolicyScope scope = PolicyScope.current();
            if (scope.keyLength >= 0) {
                writeAdaptive(scope, value, target);
                return;
            }
        }
        if (byteArrays) {
            byte[] v = value == null ? new byte[0] : (byte[]) value;
            write(MemorySegment.ofArray(v), target);
            return;
        }
        if (byteBufDelegate != null) {
            if (byteBufDelegate.isEstimateExact() && compressor.storesAsIs(byteBufDelegate.estimateSize(value))) {
                byteBufDelegate.encodeValue(value, target);
                return;
            }
            ByteBuf plain = EncodeBuffers.plainBuffer(target.alloc(), byteBufDelegate.estimateSize(value));
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
        // the stored form is never larger than the plain encoding, so the delegate's estimate holds; while a value is
        // compressed, a large estimate is capped: the stored form grows the buffer to what it needs (one step), so
        // Lettuce's scratch buffer for it is not a heap array of the estimate's size (3 bytes a char for a String)
        if (byteBufDelegate != null) {
            int estimate = byteBufDelegate.estimateSize(keyOrValue);
            return estimate > EncodeBuffers.Spares.MAX_KEPT_ARRAY && PolicyScope.compressing()
                    ? EncodeBuffers.Spares.MAX_KEPT_ARRAY : estimate;
        }
        if (keyOrValue instanceof byte[] b) {
            return b.length;
        }
        return 32;
    }

    @Override
    public boolean isEstimateExact() {
        // the compressed size is known only after compressing; a plain value's is the delegate's
        return plainExact && !PolicyScope.compressing();
    }

    // The delegate's encoding of a value as an array: the value itself for ByteArrayCodec, else a copy.
    private byte[] plainBytes(V value, ByteBufAllocator alloc) {
        if (byteArrays) {
            return value == null ? new byte[0] : (byte[]) value;
        }
        if (byteBufDelegate != null) {
            ByteBuf plain = EncodeBuffers.plainBuffer(alloc, byteBufDelegate.estimateSize(value));
            try {
                byteBufDelegate.encodeValue(value, plain);
                return ByteBufUtil.getBytes(plain);
            } finally {
                plain.release();
            }
        }
        ByteBuffer plain = delegate.encodeValue(value);
        if (plain == null) {
            return new byte[0];
        }
        byte[] out = new byte[plain.remaining()];
        plain.get(plain.position(), out);
        return out;
    }

    /**
     * Adaptive mode: writes the stored form of {@code value}, under the key {@code scope} recorded, at {@code target}'s
     * writer index, as {@link #write} does in the fixed mode: the plain encoding in a pooled buffer (the value's own
     * array for byte[] values), compressed straight into {@code target}.
     */
    private void writeAdaptive(PolicyScope scope, V value, ByteBuf target) {
        if (byteArrays) {
            writeAdaptive(scope, MemorySegment.ofArray(value == null ? new byte[0] : (byte[]) value), target);
            return;
        }
        if (byteBufDelegate != null) {
            ByteBuf plain = EncodeBuffers.plainBuffer(target.alloc(), byteBufDelegate.estimateSize(value));
            try {
                byteBufDelegate.encodeValue(value, plain);
                MemorySegment src = readableSegment(plain);
                writeAdaptive(scope, src != null ? src : MemorySegment.ofBuffer(plain.nioBuffer()), target);
            } finally {
                plain.release();
            }
            return;
        }
        ByteBuffer plain = delegate.encodeValue(value);
        writeAdaptive(scope, plain == null ? MemorySegment.ofArray(new byte[0]) : MemorySegment.ofBuffer(plain), target);
    }

    private void writeAdaptive(PolicyScope scope, MemorySegment plain, ByteBuf target) {
        int n = (int) plain.byteSize();
        target.ensureWritable(n);
        int at = target.writerIndex();
        MemorySegment dst = writableSegment(target, at, n);
        if (dst != null) {
            target.writerIndex(at + (int) adaptive.compress(scope.key, 0, scope.keyLength, plain, dst));
            return;
        }
        // a buffer without a single address or array (composite): through arrays
        target.writeBytes(adaptive.compress(scope.key, 0, scope.keyLength, plain.toArray(ValueLayout.JAVA_BYTE)));
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
