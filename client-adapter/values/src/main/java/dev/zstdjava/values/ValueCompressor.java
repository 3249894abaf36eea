package dev.zstdjava.values;

import dev.zstdjava.DecompressionLimitException;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.Arrays;
import java.util.Objects;
import java.util.concurrent.atomic.LongAdder;

/**
 * Compresses and decompresses single values in Valkey GLIDE's format, independent of any client library: use it to
 * build serializers for Jedis, Redisson or Spring Data Redis; the Lettuce adapter ({@code dev.zstdjava.lettuce.CompressingCodec}
 * in {@code zstd-java-lettuce}) uses it too.
 *
 * <h2>Format</h2>
 * A compressed value is a 5-byte header (magic {@code 00 01 02}, version {@code 00}, backend id {@code 01} zstd or
 * {@code 02} lz4) followed by one zstd frame, or by the original length (unsigned 32-bit little-endian) and one raw
 * LZ4 block.
 *
 * <h2>Writing</h2>
 * A value is stored compressed only when compression is {@linkplain CompressionConfig#enabled() enabled}, it is at
 * least {@linkplain CompressionConfig#minCompressionSize() minCompressionSize} bytes, it does not already carry the
 * header of the configured backend, and the result (header included) is strictly smaller than the value. Otherwise,
 * and whenever compression fails for any reason, the value is stored as it is. Compression never throws.
 *
 * <h2>Reading</h2>
 * A value that does not start with the magic bytes, or is shorter than the header, is returned as it is. The
 * version byte is not checked. The backend id picks the decoder, whatever backend is configured. A value with an
 * unknown backend id, or whose payload does not decode, is returned as it is and counted in
 * {@link CompressionStats#decompressionFailures()}: binary data can start with the magic bytes by chance. A value
 * that would decompress to more than {@linkplain CompressionConfig#maxDecompressedSize() maxDecompressedSize}
 * bytes raises {@link DecompressionLimitException}, before any output is allocated when the size is declared
 * (always for lz4; for zstd frames that declare their content size) and as soon as the limit is passed otherwise.
 *
 * <h2>Commands that cannot work on compressed values</h2>
 * The server sees only the stored bytes, so commands that read or change a string value's bytes on the server give
 * wrong results or errors on compressed values: {@code APPEND}, {@code GETRANGE}/{@code SUBSTR}, {@code SETRANGE},
 * {@code STRLEN}, {@code LCS}, {@code INCR}, {@code INCRBY}, {@code INCRBYFLOAT}, {@code DECR}, {@code DECRBY}, and
 * the bit operations {@code GETBIT}, {@code SETBIT}, {@code BITCOUNT}, {@code BITPOS}, {@code BITFIELD},
 * {@code BITFIELD_RO}, {@code BITOP}. Values shorter than the minimum size are never compressed, so small counters
 * keep working, but do not rely on that: keep such keys out of compression (use a separate connection without it).
 *
 * <p><b>Thread safety:</b> thread-safe; one instance serves any number of threads and connections. Native zstd/lz4
 * contexts are kept in a small lock-free pool and reused; they are freed when garbage-collected.
 *
 * <p><b>Allocation:</b> {@link #compress(MemorySegment, MemorySegment)} and {@link #compress(ByteBuffer, ByteBuffer)}
 * allocate nothing once the pool is warm (compressed output goes straight to the destination, and when it would not
 * be smaller the value is copied there instead). The array forms allocate only the returned array (compressing
 * through a reusable scratch array). Decompression allocates the returned value; zstd frames that do not declare
 * their size (GLIDE writes such frames) are decoded through a reusable buffer and copied out once. Apart from that,
 * a call may leave a few small wrapper objects that the JIT does not always remove.
 */
public final class ValueCompressor {
    private final CompressionConfig config;
    private final DictionaryManager dictionaries;
    private final CoderPool pool;
    private final LongAdder valuesCompressed = new LongAdder();
    private final LongAdder valuesDecompressed = new LongAdder();
    private final LongAdder originalBytes = new LongAdder();
    private final LongAdder compressedBytes = new LongAdder();
    private final LongAdder decompressedBytes = new LongAdder();
    private final LongAdder skipped = new LongAdder();
    private final LongAdder decompressionFailures = new LongAdder();
    private final LongAdder sizeLimitErrors = new LongAdder();

    private ValueCompressor(CompressionConfig config, DictionaryManager dictionaries) {
        this.config = Objects.requireNonNull(config, "config");
        this.dictionaries = dictionaries;
        this.pool = new CoderPool(config, dictionaries);
    }

    /** @return a compressor with {@code config}; create one per configuration and share it */
    public static ValueCompressor create(CompressionConfig config) {
        return new ValueCompressor(config, null);
    }

    /**
     * A compressor that compresses with the current dictionary of {@code dictionaries} (zstd only) and reads values
     * compressed with any dictionary it has loaded; see {@link DictionaryManager}. The stored form is the same
     * header followed by a standard zstd frame that records the dictionary id. Readers without that dictionary (Valkey
     * GLIDE, earlier versions of this library) cannot decode such values: turn dictionaries on only once every reader
     * runs a version that has them.
     *
     * @throws IllegalArgumentException if the backend is not zstd
     */
    public static ValueCompressor create(CompressionConfig config, DictionaryManager dictionaries) {
        Objects.requireNonNull(dictionaries, "dictionaries");
        if (config.backend() != CompressionBackend.ZSTD) {
            throw new IllegalArgumentException("dictionaries need the zstd backend, not " + config.backend());
        }
        return new ValueCompressor(config, dictionaries);
    }

    /** @return the dictionaries this compressor uses, or null when it uses none */
    public DictionaryManager dictionaries() {
        return dictionaries;
    }

    /** @return the configuration this compressor applies */
    public CompressionConfig config() {
        return config;
    }

    /** @return a snapshot of the counters since this compressor was created */
    public CompressionStats stats() {
        return new CompressionStats(valuesCompressed.sum(), valuesDecompressed.sum(), originalBytes.sum(),
                compressedBytes.sum(), decompressedBytes.sum(), skipped.sum(), decompressionFailures.sum(),
                sizeLimitErrors.sum());
    }

    // ---------------------------------------------------------------------------------------------- compression

    /**
     * Writes the stored form of all of {@code value} (compressed, or the value itself) to the start of {@code dst}.
     * The stored form is never longer than the value, so {@code dst} needs {@code value.byteSize()} bytes.
     *
     * @return the number of bytes written to {@code dst}
     * @throws IllegalArgumentException if {@code dst} is read-only or shorter than {@code value}
     */
    public long compress(MemorySegment value, MemorySegment dst) {
        long n = value.byteSize();
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("destination segment is read-only");
        }
        if (dst.byteSize() < n) {
            throw new IllegalArgumentException("destination holds " + dst.byteSize() + " bytes, the value needs up to "
                    + n + " bytes");
        }
        long r = tryCompress(value, dst);
        if (r >= 0) {
            return r;
        }
        MemorySegment.copy(value, 0, dst, 0, n);
        return n;
    }

    /**
     * Writes the stored form of {@code src}'s remaining bytes into {@code dst} at its position. On return
     * {@code src}'s position is at its limit and {@code dst}'s position is past the written bytes.
     *
     * @return the number of bytes written; at most {@code src.remaining()}
     * @throws IllegalArgumentException if {@code dst} has fewer than {@code src.remaining()} bytes remaining
     * @throws ReadOnlyBufferException  if {@code dst} is read-only
     */
    public int compress(ByteBuffer src, ByteBuffer dst) {
        if (dst.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        int n = src.remaining();
        if (dst.remaining() < n) {
            throw new IllegalArgumentException("destination has " + dst.remaining()
                    + " bytes remaining, the value needs up to " + n + " bytes");
        }
        int w = (int) compress(MemorySegment.ofBuffer(src), MemorySegment.ofBuffer(dst).asSlice(0, n));
        src.position(src.limit());
        dst.position(dst.position() + w);
        return w;
    }

    /**
     * @return the stored form of {@code value}: a new array holding the compressed value, or {@code value} itself
     *         when it is stored as it is (see the class comment for when)
     */
    public byte[] compress(byte[] value) {
        Objects.requireNonNull(value, "value");
        if (!wantsCompression(value.length)) {
            skipped.increment();
            return value;
        }
        Coder c = pool.acquire();
        try {
            byte[] scratch = c.scratch(value.length);
            long r = tryCompress(c, MemorySegment.ofArray(value), MemorySegment.ofArray(scratch).asSlice(0, value.length));
            byte[] out = r < 0 ? value : Arrays.copyOf(scratch, (int) r);
            c.trimScratch();
            return out;
        } finally {
            pool.release(c);
        }
    }

    /**
     * Counts a value that the caller stores as it is without passing it through {@code compress}, so that
     * {@link #stats()} stays complete: for adapters that check {@link CompressionConfig#enabled()} and
     * {@link CompressionConfig#minCompressionSize()} themselves before encoding a value. Allocates nothing.
     */
    public void countSkipped() {
        skipped.increment();
    }

    private boolean wantsCompression(long n) {
        return config.enabled() && n >= config.minCompressionSize();
    }

    /** @return the stored size written to {@code dst} (capacity at least the value's size), or -1: store as is */
    long tryCompress(MemorySegment value, MemorySegment dst) {
        if (!wantsCompression(value.byteSize())) {
            skipped.increment();
            return -1;
        }
        Coder c = pool.acquire();
        try {
            return tryCompress(c, value, dst);
        } finally {
            pool.release(c);
        }
    }

    private long tryCompress(Coder c, MemorySegment value, MemorySegment dst) {
        long n = value.byteSize();
        CompressionBackend backend = config.backend();
        if (!wantsCompression(n) || (ValueFormat.hasHeader(value)
                && value.get(ValueLayout.JAVA_BYTE, ValueFormat.BACKEND_OFFSET) == backend.id())) {
            skipped.increment();
            return -1;
        }
        int prefix = ValueFormat.prefixSize(backend);
        long room = n - 1 - prefix; // the stored form must be strictly smaller than the value
        if (room < 1) {
            skipped.increment();
            return -1;
        }
        DictionaryManager.Entry dict = null;
        if (dictionaries != null) {
            dictionaries.sample(value);
            dict = dictionaries.current();
        }
        long payload;
        try {
            payload = dict == null ? c.compressPayload(value, dst.asSlice(prefix, room))
                    : c.compressPayload(dict, value, dst.asSlice(prefix, room));
        } catch (RuntimeException | LinkageError | OutOfMemoryError e) {
            payload = -1; // the backend failed: store as is
        }
        if (payload < 0) { // also when it does not fit in fewer bytes than the value (incompressible)
            skipped.increment();
            if (dict != null) {
                dict.countWrite(n, n, false);
            }
            return -1;
        }
        ValueFormat.writeHeader(dst, backend);
        if (backend == CompressionBackend.LZ4) {
            dst.set(ValueFormat.LE_INT, ValueFormat.HEADER_SIZE, (int) n);
        }
        long stored = prefix + payload;
        if (dict != null) {
            dict.countWrite(n, stored, true);
        }
        valuesCompressed.increment();
        originalBytes.add(n);
        compressedBytes.add(stored);
        return stored;
    }

    // -------------------------------------------------------------------------------------------- decompression

    /**
     * @return the original value of a stored value: a new array when {@code stored} is compressed, otherwise
     *         {@code stored} itself (plain values, unknown backends, payloads that do not decode)
     * @throws DecompressionLimitException if the value would decompress to more than the configured maximum
     */
    public byte[] decompress(byte[] stored) {
        Objects.requireNonNull(stored, "stored");
        byte[] out = decompressOrNull(MemorySegment.ofArray(stored));
        return out == null ? stored : out;
    }

    /**
     * Decodes the remaining bytes of {@code stored} without moving its position or keeping a reference to it.
     *
     * @return a new heap buffer with the original value when {@code stored} is compressed, otherwise {@code stored}
     *         itself, unchanged (copy it if you keep it beyond the buffer's lifetime)
     * @throws DecompressionLimitException if the value would decompress to more than the configured maximum
     */
    public ByteBuffer decompress(ByteBuffer stored) {
        if (!ValueFormat.hasHeader(stored)) {
            return stored;
        }
        byte[] out = decompressOrNull(MemorySegment.ofBuffer(stored));
        return out == null ? stored : ByteBuffer.wrap(out);
    }

    /**
     * @return the original value of the stored value in {@code stored}, always as a new array
     * @throws DecompressionLimitException if the value would decompress to more than the configured maximum
     */
    public byte[] decompress(MemorySegment stored) {
        byte[] out = decompressOrNull(stored);
        return out != null ? out : stored.toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * Decodes {@code stored} in place without keeping a reference to it: for adapters that read the client's own
     * buffers (wrap them with {@link MemorySegment#ofBuffer} or {@link MemorySegment#ofArray}).
     *
     * @return a new array with the original value, or {@code null} when {@code stored} is to be returned as it is
     *         (no header, or a payload counted in {@link CompressionStats#decompressionFailures()})
     * @throws DecompressionLimitException if the value would decompress to more than the configured maximum
     */
    public byte[] decompressOrNull(MemorySegment stored) {
        if (!ValueFormat.hasHeader(stored)) {
            return null;
        }
        CompressionBackend backend = CompressionBackend.ofId(stored.get(ValueLayout.JAVA_BYTE, ValueFormat.BACKEND_OFFSET));
        if (backend == null) {
            decompressionFailures.increment();
            return null;
        }
        Coder c = pool.acquire();
        try {
            byte[] out = c.decompressPayload(backend, stored.asSlice(ValueFormat.HEADER_SIZE));
            valuesDecompressed.increment();
            decompressedBytes.add(out.length);
            return out;
        } catch (DecompressionLimitException e) {
            sizeLimitErrors.increment();
            throw e;
        } catch (MissingDictionaryException e) {
            throw e; // never return a dictionary frame as stored bytes
        } catch (RuntimeException | LinkageError e) {
            decompressionFailures.increment();
            return null;
        } finally {
            pool.release(c);
        }
    }
}
