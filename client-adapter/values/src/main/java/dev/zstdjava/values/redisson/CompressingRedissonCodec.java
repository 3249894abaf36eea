package dev.zstdjava.values.redisson;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.redisson.client.codec.BaseCodec;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.Codec;
import org.redisson.client.protocol.Decoder;
import org.redisson.client.protocol.Encoder;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
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
 * <p>Wrap the codec that makes the bytes, not one of Redisson's own compressing codecs ({@code ZStdCodec},
 * {@code LZ4Codec}, {@code LZ4CodecV2}, {@code SnappyCodec}, {@code SnappyCodecV2}): the constructors refuse those
 * with {@link IllegalArgumentException}, since their private framing would still be what is stored.
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
 * same value; in the adaptive mode that includes values the same codec wrote before its pattern's option changed.
 * Likewise {@code RBucket.size()} ({@code STRLEN}) and {@code RMap.valueSize} ({@code HSTRLEN}) return the stored
 * length, compressed or not, not the value's, and {@code RBucket.findCommon}/{@code findCommonLength} ({@code LCS})
 * compare the stored bytes of two buckets, so on compressed values they return what two compressed frames share,
 * not what the values share: a codec cannot refuse them.
 *
 * <p><b>Adaptive mode: one codec per object.</b> A Redisson codec never sees the name of the object it encodes for,
 * so it cannot learn a key's pattern by itself: the application makes the codec with the object's name,
 * {@link #forPattern(Codec, AdaptiveCompressor, String)}, and its values are written by
 * {@link AdaptiveCompressor#compress(byte[], byte[])} with that name as the key (a name is folded into its pattern as
 * any key is; a pattern the compressor lists, such as {@code user:*}, may be given instead):
 *
 * <pre>{@code
 * AdaptiveCompressor adaptive = AdaptiveCompressor.builder(CompressionConfig.defaults()).build();
 * Codec codec = CompressingRedissonCodec.forPattern(StringCodec.INSTANCE, adaptive, name);
 * RBucket<String> session = redisson.getBucket(name, codec);
 * }</pre>
 *
 * A codec shared by several objects, or the client's default codec, writes all of them under the one name it was
 * made with. Reads go through {@link AdaptiveCompressor#reader()}, as in the fixed mode; values a pattern's dictionary
 * option wrote need a reader with that pattern's manager.
 *
 * <p><b>Which thread.</b> Redisson calls a codec's encoders on the thread that calls the object's method (the value
 * is encoded before the command is queued), so values are compressed on the calling thread. It calls the decoders
 * in its {@code CommandDecoder}, on its Netty threads ({@code redisson-netty-*}), so values are decompressed there,
 * for every connection those threads serve; Redisson (to 3.52.0 and 4.7.0) has no setting to decode elsewhere. To
 * decompress on the calling thread instead, give the object Redisson's {@code ByteArrayCodec} and call
 * {@link ValueCompressor#decompress} (and the wrapped codec's decoder, if any) on the bytes it returns.
 *
 * <p><b>Counters.</b> A value is counted in the compressor's statistics when it is encoded, on the calling thread
 * before Redisson queues the command (see {@link dev.zstdjava.values.CompressionStats}): a write the server refuses,
 * or a batch never executed, is counted all the same.
 *
 * <p><b>Equality.</b> Codecs over an equal wrapped codec with the same compressor (in the adaptive mode, the same
 * adaptive compressor and name) are equal: Redisson finds its copy of a codec for the calling thread's class loader
 * by the codec, so a {@link #forPattern} codec made again for the same object reuses the copy made for the first.
 *
 * <p><b>Thread safety:</b> thread-safe if the wrapped codec is. <b>Allocation:</b> encoding compresses the wrapped
 * codec's buffer into one buffer from the same allocator (and releases the wrapped codec's); in the adaptive mode it
 * copies the wrapped codec's bytes into an array and returns the stored form in a heap buffer wrapping the array the
 * adaptive compressor returns (the wrapped codec's buffer itself when the value is stored as it is), and a sampled
 * write allocates each candidate option's stored form; decoding allocates the
 * decompressed array, which the wrapped codec reads through a heap buffer wrapping it (around Redisson's
 * {@code ByteArrayCodec} that array is the value returned, not copied again).
 */
public class CompressingRedissonCodec extends BaseCodec {
    private final Codec inner;
    private final ValueCompressor compressor;
    /** the adaptive compressor and the key it writes under (the object's name, UTF-8), or both null */
    private final AdaptiveCompressor adaptive;
    private final byte[] name;
    private final Encoder valueEncoder;
    private final Decoder<Object> valueDecoder;
    private final Encoder mapValueEncoder;
    private final Decoder<Object> mapValueDecoder;

    /**
     * @param inner      the codec that turns values into bytes, for example {@code StringCodec.INSTANCE} or
     *                   Redisson's default {@code Kryo5Codec}
     * @param compressor the compressor to share (its {@link ValueCompressor#stats()} count this codec's values)
     * @throws IllegalArgumentException if {@code inner} is one of Redisson's own compressing codecs
     *         ({@code ZStdCodec}, {@code LZ4Codec}, {@code LZ4CodecV2}, {@code SnappyCodec}, {@code SnappyCodecV2}, or
     *         a subclass): it would keep writing its private framing (see "Migrating" in {@code docs/values.md})
     */
    public CompressingRedissonCodec(Codec inner, ValueCompressor compressor) {
        this(inner, Objects.requireNonNull(compressor, "compressor"), null, null);
    }

    private CompressingRedissonCodec(Codec inner, ValueCompressor compressor, AdaptiveCompressor adaptive,
                                     byte[] name) {
        this.inner = notRedissonCompressing(Objects.requireNonNull(inner, "inner"));
        this.compressor = compressor;
        this.adaptive = adaptive;
        this.name = name;
        this.valueEncoder = encoding(inner.getValueEncoder());
        this.valueDecoder = decoding(inner.getValueDecoder());
        // map values are hash values: compressed only when the policy compresses hash values (opt-in)
        this.mapValueEncoder = compressor.config().commandPolicy().compressesHashValues()
                ? encoding(inner.getMapValueEncoder()) : inner.getMapValueEncoder();
        this.mapValueDecoder = decoding(inner.getMapValueDecoder());
    }

    /**
     * Redisson's own compressing codecs, by class name (not every line has each, and their libraries are optional).
     * Wrapped, they would go on writing their private framing: this codec stores their output as it is (it does not
     * get smaller), which no other client reads as the value.
     */
    private static final List<String> REDISSON_COMPRESSING = List.of("org.redisson.codec.ZStdCodec",
            "org.redisson.codec.LZ4Codec", "org.redisson.codec.LZ4CodecV2", "org.redisson.codec.SnappyCodec",
            "org.redisson.codec.SnappyCodecV2");

    private static Codec notRedissonCompressing(Codec inner) {
        for (Class<?> c = inner.getClass(); c != null; c = c.getSuperclass()) {
            if (REDISSON_COMPRESSING.contains(c.getName())) {
                throw new IllegalArgumentException("CompressingRedissonCodec cannot wrap Redisson's own compressing "
                        + "codec " + c.getSimpleName() + ": its private framing, not the shared format, would still be "
                        + "what is stored; wrap the codec it wraps instead (values Redisson's ZStdCodec or LZ4Codec wrote are "
                        + "read with CompressionConfig.builder().readLegacy(...): see Migrating in docs/values.md)");
            }
        }
        return inner;
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
        this(BaseCodec.copy(classLoader, codec.inner), codec.compressor, codec.adaptive, codec.name);
    }

    /**
     * The adaptive mode for one object (see the class comment): values written by {@code adaptive} under
     * {@code name}'s pattern, map values only when hash compression is opted in, read through
     * {@link AdaptiveCompressor#reader()}. Cheap: make one per object, next to {@code redisson.getBucket(name, ...)}.
     *
     * @param inner    the codec that turns values into bytes
     * @param adaptive the adaptive compressor, shared by every object and client writing the same keys
     * @param name     the object's name (or a pattern {@code adaptive} lists), the key its values are written under
     */
    public static CompressingRedissonCodec forPattern(Codec inner, AdaptiveCompressor adaptive, String name) {
        Objects.requireNonNull(adaptive, "adaptive");
        return new CompressingRedissonCodec(inner, adaptive.reader(), adaptive,
                Objects.requireNonNull(name, "name").getBytes(StandardCharsets.UTF_8));
    }

    /** @return the wrapped codec */
    public Codec inner() {
        return inner;
    }

    /**
     * @return the compressor doing the work: in the adaptive mode the one the reads decompress with
     *         ({@link AdaptiveCompressor#reader()})
     */
    public ValueCompressor compressor() {
        return compressor;
    }

    /** @return the adaptive compressor writing the values, or null in the fixed mode */
    public AdaptiveCompressor adaptive() {
        return adaptive;
    }

    /** @return the name (or pattern) the values are written under in the adaptive mode, or null in the fixed mode */
    public String pattern() {
        return name == null ? null : new String(name, StandardCharsets.UTF_8);
    }

    private Encoder encoding(Encoder plainEncoder) {
        if (adaptive != null) {
            return adaptiveEncoding(plainEncoder);
        }
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

    // Every value goes through the adaptive compressor, the small ones too: it counts each value it stores under
    // one option (AdaptiveCompressor.writes, the metrics), and stores the small ones as they are.
    private Encoder adaptiveEncoding(Encoder plainEncoder) {
        return in -> {
            ByteBuf plain = plainEncoder.encode(in);
            byte[] value;
            byte[] stored;
            try {
                value = ByteBufUtil.getBytes(plain);
                stored = adaptive.compress(name, value);
            } catch (RuntimeException | Error e) {
                plain.release();
                throw e;
            }
            if (stored == value) {
                return plain;
            }
            plain.release();
            return Unpooled.wrappedBuffer(stored);
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

    /**
     * Equal codecs write and read alike: the same class, an equal wrapped codec, the same compressor (the same
     * counters) and, in the adaptive mode, the same adaptive compressor and name. Redisson keys its copies of a codec
     * for the calling thread's class loader by the codec ({@code useThreadClassLoader}, on by default; at most 200
     * codecs per class loader, the least recently used dropped), so codecs made again for the same object (a
     * {@link #forPattern} per call) share one copy instead of each being copied reflectively.
     */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (o == null || o.getClass() != getClass()) {
            return false;
        }
        CompressingRedissonCodec c = (CompressingRedissonCodec) o;
        return inner.equals(c.inner) && compressor == c.compressor && adaptive == c.adaptive
                && Arrays.equals(name, c.name);
    }

    @Override
    public int hashCode() {
        return (inner.hashCode() * 31 + System.identityHashCode(compressor)) * 31 + Arrays.hashCode(name);
    }

    @Override
    public String toString() {
        return "CompressingRedissonCodec[" + inner + ", " + compressor.config()
                + (adaptive == null ? "" : ", adaptive " + adaptive.goal() + " for " + pattern()) + "]";
    }
}
