package dev.zstdjava.values.redisson;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.redisson.client.codec.BaseCodec;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.Codec;
import org.redisson.client.protocol.Decoder;
import org.redisson.client.protocol.Encoder;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A Redisson {@link Codec} that compresses another codec's values in Valkey GLIDE's stored format (see
 * {@link ValueCompressor}), so that Lettuce, Jedis, Spring and GLIDE clients using this format read what Redisson
 * writes, and the reverse. Give it per object, to buckets and maps only (see "Where values are values only"):
 *
 * <pre>{@code
 * Codec values = new CompressingRedissonCodec(StringCodec.INSTANCE, CompressionConfig.defaults());
 * RBucket<String> greeting = redisson.getBucket("greeting", values);
 * RMap<String, String> carts = redisson.getMap("carts", values);
 * }</pre>
 *
 * <p>Values are compressed; map values (hash values) only when
 * {@link CompressionConfig.Builder#compressHashValues hash compression is opted in}, as everywhere in this library
 * (GLIDE's scope leaves hash values plain), and decoded always. <b>Map keys go through the wrapped codec's map-key
 * encoder and decoder untouched</b>, so field names stay readable and lookups by field work from every client. Values written before
 * compression was turned on (no header) are passed to the wrapped codec as they are. Unlike Redisson's own
 * {@code LZ4Codec} and {@code ZStdCodec}, which write a private framing that only Redisson reads, the stored bytes
 * are the shared format, and a stored value never makes the codec allocate more than the configured
 * {@linkplain CompressionConfig#maxDecompressedSize() maximum}: a larger one fails its command with
 * {@link DecompressionLimitException}, which Redisson hands over as the cause of its
 * {@code org.redisson.client.RedisException} (Redisson wraps every decoder failure); the connection stays usable.
 *
 * <p><b>Where values are values only.</b> A Redisson {@code Codec} cannot tell a member from a value: Redisson
 * encodes set members, sorted-set members, list and queue elements, geo members and topic messages with the same value
 * encoder. So this codec cannot follow the {@link dev.zstdjava.values.CommandPolicy command policy}; use it for
 * {@code RBucket}/{@code RBuckets} and {@code RMap} values, and give {@code RSet}, {@code RScoredSortedSet},
 * {@code RList}, {@code RQueue}, {@code RGeo}, {@code RTopic} and scripts the wrapped codec itself. With this codec an
 * {@code RSet} stores compressed members: the same member added by a plain client or by an lz4 codec is another
 * member, and {@code SISMEMBER}/{@code SREM}/{@code LREM} from other clients miss it.
 *
 * <p><b>Compare operations.</b> {@code RBucket.compareAndSet}, {@code RMap.replace(key, old, new)},
 * {@code RMap.remove(key, value)} and {@code RMap.containsValue} compare encoded bytes inside Lua scripts. They hold
 * only while every writer of those keys uses the same backend, level, library build and dictionary; a value written
 * by another configuration (or before a managed dictionary changed) compares "not equal" although it decodes to the
 * same value.
 *
 * <p><b>Which thread.</b> Redisson calls a codec's encoders on the thread that calls the object's method (the value
 * is encoded before the command is queued), so values are compressed on the calling thread. It calls the decoders
 * in its {@code CommandDecoder}, on its Netty threads ({@code redisson-netty-*}), so values are decompressed there,
 * for every connection those threads serve; Redisson 3.52.0 has no setting to decode elsewhere. To decompress on the
 * calling thread instead, give the object Redisson's {@code ByteArrayCodec} and call
 * {@link ValueCompressor#decompress} (and the wrapped codec's decoder, if any) on the bytes it returns.
 *
 * <p><b>Thread safety:</b> thread-safe if the wrapped codec is. <b>Allocation:</b> encoding compresses the wrapped
 * codec's buffer into one buffer from the same allocator (and releases the wrapped codec's); decoding allocates the
 * decompressed array, which the wrapped codec reads through a heap buffer wrapping it (around Redisson's
 * {@code ByteArrayCodec} that array is the value returned, not copied again).
 */
public class CompressingRedissonCodec extends BaseCodec {
    private final Codec inner;
    private final ValueCompressor compressor;
    private final Encoder valueEncoder;
    private final Decoder<Object> valueDecoder;
    private final Encoder mapValueEncoder;
    private final Decoder<Object> mapValueDecoder;

    /**
     * @param inner      the codec that turns values into bytes, for example {@code StringCodec.INSTANCE} or
     *                   Redisson's default {@code Kryo5Codec}
     * @param compressor the compressor to share (its {@link ValueCompressor#stats()} count this codec's values)
     */
    public CompressingRedissonCodec(Codec inner, ValueCompressor compressor) {
        this.inner = Objects.requireNonNull(inner, "inner");
        this.compressor = Objects.requireNonNull(compressor, "compressor");
        this.valueEncoder = encoding(inner.getValueEncoder());
        this.valueDecoder = decoding(inner.getValueDecoder());
        // map values are hash values: compressed only when the policy compresses hash values (opt-in)
        this.mapValueEncoder = compressor.config().commandPolicy().compressesHashValues()
                ? encoding(inner.getMapValueEncoder()) : inner.getMapValueEncoder();
        this.mapValueDecoder = decoding(inner.getMapValueDecoder());
    }

    /** As {@link #CompressingRedissonCodec(Codec, ValueCompressor)} with a new compressor for {@code config}. */
    public CompressingRedissonCodec(Codec inner, CompressionConfig config) {
        this(inner, ValueCompressor.create(config));
    }

    /**
     * The copy Redisson makes for another class loader ({@link BaseCodec#copy}): the wrapped codec is copied, the
     * compressor (and its counters) shared.
     */
    public CompressingRedissonCodec(ClassLoader classLoader, CompressingRedissonCodec codec)
            throws ReflectiveOperationException {
        this(BaseCodec.copy(classLoader, codec.inner), codec.compressor);
    }

    /** @return the wrapped codec */
    public Codec inner() {
        return inner;
    }

    /** @return the compressor doing the work */
    public ValueCompressor compressor() {
        return compressor;
    }

    private Encoder encoding(Encoder plainEncoder) {
        return in -> {
            ByteBuf plain = plainEncoder.encode(in);
            int n = plain.readableBytes();
            if (compressor.storesAsIs(n)) {
                return plain;
            }
            try {
                ByteBuf out = plain.alloc().buffer(n);
                try {
                    long w = compressor.compress(MemorySegment.ofBuffer(plain.nioBuffer()),
                            MemorySegment.ofBuffer(out.nioBuffer(0, n)));
                    out.writerIndex((int) w);
                    return out;
                } catch (RuntimeException | Error e) {
                    out.release();
                    throw e;
                }
            } finally {
                plain.release();
            }
        };
    }

    private Decoder<Object> decoding(Decoder<Object> plainDecoder) {
        // Redisson's ByteArrayCodec returns a new array holding the buffer's bytes: the decompressed array is that
        // already, so it is returned without the copy (on Redisson's Netty threads, where decoding runs)
        boolean asIs = inner.getClass() == ByteArrayCodec.class && plainDecoder == inner.getValueDecoder();
        return (buf, state) -> {
            ByteBuffer stored = buf.nioBuffer();
            ByteBuffer original = compressor.decompress(stored);
            if (original != stored) {
                buf.readerIndex(buf.writerIndex());
                return asIs ? original.array() : plainDecoder.decode(Unpooled.wrappedBuffer(original.array()), state);
            }
            return plainDecoder.decode(buf, state);
        };
    }

    @Override
    public Decoder<Object> getValueDecoder() {
        return valueDecoder;
    }

    @Override
    public Encoder getValueEncoder() {
        return valueEncoder;
    }

    @Override
    public Decoder<Object> getMapValueDecoder() {
        return mapValueDecoder;
    }

    @Override
    public Encoder getMapValueEncoder() {
        return mapValueEncoder;
    }

    /** @return the wrapped codec's map-key decoder, untouched */
    @Override
    public Decoder<Object> getMapKeyDecoder() {
        return inner.getMapKeyDecoder();
    }

    /** @return the wrapped codec's map-key encoder, untouched */
    @Override
    public Encoder getMapKeyEncoder() {
        return inner.getMapKeyEncoder();
    }

    @Override
    public ClassLoader getClassLoader() {
        return inner.getClassLoader();
    }

    @Override
    public String toString() {
        return "CompressingRedissonCodec[" + inner + ", " + compressor.config() + "]";
    }
}
