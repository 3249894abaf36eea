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
import java.util.concurrent.atomic.LongAdder;

/**
 * A Lettuce codec for values in Valkey GLIDE's compressed format, around any other codec. It compresses only for a
 * connection made by {@link CompressingRedisClient} or {@link CompressingRedisClusterClient}, and there only the
 * values of the commands their command policy compresses (GLIDE's scope: {@code SET}, {@code SETNX}, {@code SETEX},
 * {@code PSETEX}, {@code MSET}, {@code MSETNX}; hash values when opted in):
 *
 * <pre>{@code
 * RedisClient client = CompressingRedisClient.create("redis://localhost:6379");
 * StatefulRedisConnection<String, String> connection =
 *         client.connect(CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.defaults()));
 * }</pre>
 *
 * <p>A codec sees a value and not its command ({@code encodeValue} gets the same call for a {@code SET} value, an
 * {@code SADD} member and an {@code EVAL} argument), so the client decides: while it encodes a command whose values
 * are compressed, it tells the codec so on the encoding thread. Every other value, and every value on a connection
 * of a plain {@link io.lettuce.core.RedisClient}, goes out exactly as the delegate encodes it: <b>with a plain
 * {@code RedisClient} this codec compresses nothing</b>; it still reads compressed values, and counts the values it
 * sent plain for lack of the policy client ({@link #valuesSentWithoutPolicy()}, logged once at {@code WARNING}).
 *
 * <p>Keys pass through the delegate untouched (cluster slots hash the key bytes). A compressed value is stored as
 * {@link ValueCompressor} describes: compressed when that makes it smaller, as it is otherwise; GLIDE clients read
 * what this codec writes, and the reverse. <b>Decoding is lenient:</b> every value in every reply that starts with the
 * header is decompressed, whatever the command, so members, list elements and hash values written compressed by
 * earlier builds still read back as values.
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
 * sent plain costs one read of the per-thread flag on top of the delegate's encoding.
 * <b>Decoding</b> reads the buffer it is handed in place, without keeping it, and allocates only the decompressed
 * value (passed to the delegate as a heap buffer; for {@link ByteArrayCodec} returned directly).
 *
 * <p><b>Which thread does the work:</b> with the policy clients, the application's threads, never the connection's
 * event loop. A command's values are compressed on the thread that dispatches it (the caller of the sync and async
 * APIs, the subscribing thread for reactive): the client encodes the whole command there, into a heap array the
 * command keeps, so a cluster redirect or a replay after a reconnect sends the same bytes without compressing again.
 * A reply whose values start with the stored form's header is copied once by the event loop and decoded elsewhere:
 * by the sync API's caller (always), by a thread waiting in the future's {@code get()}/{@code join()}, or else by the
 * client's computation executor ({@code ClientResources#eventExecutorGroup()}, sized to the cores); {@code EXEC}'s
 * reply, which carries the queued commands' values, likewise. Replies without a compressed value are decoded on the
 * loop as Lettuce does. Futures of one connection may therefore complete out of dispatch order (the commands still
 * reach the server in order). On a plain {@link io.lettuce.core.RedisClient}, and on pub/sub connections, Lettuce
 * runs the codec on the event loop. docs/values.md, "Which thread compresses", has the details and the bytes
 * allocated per command.
 *
 * <p><b>Thread safety:</b> thread-safe if the delegate is; one instance serves every connection.
 */
public final class CompressingCodec<K, V> implements RedisCodec<K, V>, ToByteBufEncoder<K, V> {
    private static final System.Logger LOG = System.getLogger(CompressingCodec.class.getName());

    private final RedisCodec<K, V> delegate;
    private final ToByteBufEncoder<K, V> byteBufDelegate;
    private final boolean byteArrays;
    private final ValueCompressor compressor;
    private final boolean plainExact;
    private final LongAdder withoutPolicy = new LongAdder();
    private volatile boolean policyAttached;
    private volatile boolean warned;

    @SuppressWarnings("unchecked")
    private CompressingCodec(RedisCodec<K, V> delegate, ValueCompressor compressor) {
        this.delegate = Objects.requireNonNull(delegate, "delegate");
        this.compressor = Objects.requireNonNull(compressor, "compressor");
        this.byteArrays = delegate.getClass() == ByteArrayCodec.class;
        this.byteBufDelegate = delegate instanceof ToByteBufEncoder<?, ?> e ? (ToByteBufEncoder<K, V>) e : null;
        this.plainExact = byteBufDelegate != null && byteBufDelegate.isEstimateExact();
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

    /**
     * Values this codec encoded plain because no connection of {@link CompressingRedisClient} or
     * {@link CompressingRedisClusterClient} had used it yet (a connection of a plain {@code RedisClient}).
     * @return the count since the codec was made
     */
    public long valuesSentWithoutPolicy() {
        return withoutPolicy.sum();
    }

    /** Marks the codec as used by a connection under the command policy (no warning, no count after this). */
    void attachPolicy() {
        policyAttached = true;
    }

    // Counts (and warns once about) a value sent plain by a codec no policy connection uses.
    private void plainWithoutPolicy() {
        if (policyAttached) {
            return;
        }
        withoutPolicy.increment();
        if (!warned) {
            warned = true;
            LOG.log(System.Logger.Level.WARNING, "CompressingCodec sends values uncompressed: its connection was not "
                    + "made by CompressingRedisClient or CompressingRedisClusterClient, which compress the values of "
                    + "the commands GLIDE compresses (SET, MSET, ...). It still reads compressed values.");
        }
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
            plainWithoutPolicy();
            return delegate.encodeValue(value);
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
            plainWithoutPolicy();
            if (byteBufDelegate != null) {
                byteBufDelegate.encodeValue(value, target);
            } else {
                target.writeBytes(delegate.encodeValue(value));
            }
            return;
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
        // the compressed size is known only after compressing; a plain value's is the delegate's
        return plainExact && !PolicyScope.compressing();
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
