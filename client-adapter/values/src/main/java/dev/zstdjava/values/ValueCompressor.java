package dev.zstdjava.values;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.values.CompressionStats.Counter;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.Arrays;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Compresses and decompresses single values in Valkey GLIDE's format, independent of any client library: use it to
 * build serializers for Jedis, Redisson or Spring Data Redis; Lettuce's policy clients ({@code CompressingRedisClient} in
 * {@code zstd-java-lettuce}, which pairs it with a {@code CompressingCodec} in one call) use it too.
 *
 * <h2>Format</h2>
 * A compressed value is a 5-byte header (magic {@code 00 01 02}, version {@code 00}, backend id {@code 01} zstd or
 * {@code 02} lz4) followed by one zstd frame, or by the original length (unsigned 32-bit little-endian) and one raw
 * LZ4 block.
 *
 * <h2>Writing</h2>
 * A value is stored compressed only when compression is {@linkplain CompressionConfig#enabled() enabled}, it is at
 * least {@linkplain CompressionConfig#minCompressionSize() minCompressionSize} and at most
 * {@linkplain CompressionConfig#maxDecompressedSize() maxDecompressedSize} bytes (so that a reader with the same limit
 * reads every value written), it does not already carry the header of the configured backend followed by what could
 * be that backend's payload (a zstd frame's magic; an lz4 length its block could decode to), and the result (header
 * included) is strictly smaller than the value. Otherwise the value is stored as it is, and counted by reason in
 * {@link CompressionStats}. Compression never throws (Lettuce closes the connection when encoding throws): when
 * the backend fails, the value is stored as it is, which is always correct data, the failure is counted in
 * {@link CompressionStats#compressionFailures()} and each kind of failure is logged once (logger
 * {@code dev.zstdjava.values.ValueCompressor}, level WARNING), so a broken setup is visible. The rule is applied here
 * only: adapters call {@link #storesAsIs(long)} and the {@code compress} forms, never the configuration's settings.
 *
 * <h2>Reading</h2>
 * The stored form is recognised through the catalogue of stored forms, {@link StoredForm#recognise}, and decoded by
 * that form's coder. A value that does not start with the magic bytes, or is shorter than the header, is returned as
 * it is. The version byte is not checked. The backend id picks the decoder, whatever backend is configured. Only a value the
 * codec rejects as malformed is returned as it is and counted in {@link CompressionStats#decompressionFailures()}:
 * an unknown backend id, a corrupt or truncated payload (binary data can start with the magic bytes by chance).
 * Everything else fails the read with its exception, because returning the stored bytes would hand the caller
 * compressed data as if it were the value:
 * <ul>
 *   <li>a value that would decompress to more than
 *       {@linkplain CompressionConfig#maxDecompressedSize() maxDecompressedSize} bytes raises
 *       {@link DecompressionLimitException}, before any output is allocated when the size is declared (always for
 *       lz4; for zstd frames that declare their content size) and as soon as the limit is passed otherwise;</li>
 *   <li>a zstd frame that declares a dictionary ID raises {@link MissingDictionaryException}, unless this
 *       compressor was made with a {@link DictionaryManager} that has that dictionary loaded (then it is decoded with
 *       it; the manager fetches a missing one on its own thread), or is the {@linkplain AdaptiveCompressor#reader()
 *       reader of an adaptive compressor} whose {@link PatternDictionaries} has it loaded in an open lineage; such a
 *       frame that does not decode with its dictionary fails with a {@link dev.zstdjava.CompressionException} too,
 *       never returned as stored;</li>
 *   <li>a library that cannot be loaded ({@link LinkageError}), a misused context ({@link IllegalStateException}),
 *       a zstd error that is not about the payload (memory, parameters) and anything unexpected propagate.</li>
 * </ul>
 *
 * <h2>Dictionaries (opt-in)</h2>
 * A compressor made with {@link #create(CompressionConfig, DictionaryManager)} compresses with the manager's current
 * dictionary: the same header, then a standard zstd frame that records the dictionary ID. Without a manager, values
 * are written exactly as without this feature. See {@link DictionaryManager} for the modes, and what readers that
 * lack the dictionary (GLIDE, earlier versions of this library) see. Once the manager is closed, a write stores the
 * value as it is (a compression failure) and a read of a value written with one of its dictionaries fails with
 * {@link IllegalStateException} naming the manager.
 *
 * <h2>Migrating from other clients' compression</h2>
 * With {@link CompressionConfig.Builder#readLegacy} a compressor also reads values that Lettuce's
 * {@code CompressionCodec} (gzip, deflate) or Redisson's {@code ZStdCodec}/{@code LZ4Codec} wrote, bounded by the same
 * limit and counted in {@link CompressionStats#legacyDecompressed()}; see {@link LegacyFormat} for how each is
 * recognised. Values are still written in the shared format only.
 *
 * <h2>Creation</h2>
 * {@link #create} checks that the configured backend works (its library loads and a small value makes the round
 * trip) and throws {@link IllegalStateException} naming every library location tried if not.
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
 * be smaller the value is copied there instead; the payload goes after the header through the codecs'
 * {@code tryCompress} into a segment range, which makes no view of the destination, whatever the JIT inlines).
 * {@link #compress(byte[])} allocates the returned array only (it compresses through a reusable scratch array with
 * the codecs' array forms, which make no views of values up to
 * {@code zstdjava.heapStagingLimit}, 4 KiB by default, whatever the JIT inlines; see the codecs' allocation notes for
 * larger ones), and while a dictionary manager collects training samples, their copies. Decompression allocates the returned value; zstd
 * frames that do not declare their size (GLIDE writes such frames) are decoded through a reusable buffer and copied
 * out once, and may leave views as the segment forms do.
 */
public final class ValueCompressor {
    private final CompressionConfig config;
    private final DictionaryManager dictionaries;
    private final CoderPool pool;
    private final Counters counters;
    /**
     * whether each value compressed is offered to {@link #dictionaries}' training reservoir; false only for a
     * {@link PatternDictionaries} lineage's writer, which also writes without a dictionary once its manager is closed
     * (the lineage released), where any other compressor stores the value as is and counts a failure
     */
    private final boolean sampling;
    private static final System.Logger LOG = System.getLogger(ValueCompressor.class.getName());
    /** Kinds of compression failure already logged (by exception class), so each is logged once per compressor. */
    private final Set<Class<?>> loggedFailures = ConcurrentHashMap.newKeySet();

    /**
     * @param dictionaries the manager whose current dictionary compresses, or null to compress without one
     * @param lookup       where reads find the dictionaries frames name, or null to read none
     */
    private ValueCompressor(CompressionConfig config, DictionaryManager dictionaries, DictionaryLookup lookup) {
        this(config, dictionaries, lookup, new Counters(), true);
    }

    private ValueCompressor(CompressionConfig config, DictionaryManager dictionaries, DictionaryLookup lookup,
                            Counters counters, boolean sampling) {
        this.config = Objects.requireNonNull(config, "config");
        this.dictionaries = dictionaries;
        this.pool = new CoderPool(config, lookup);
        this.counters = counters;
        this.sampling = sampling;
    }

    /**
     * Makes a compressor with {@code config} after checking that its backend works: the native library loads and a
     * small value compresses and decompresses. Create one per configuration and share it.
     *
     * @throws IllegalStateException if the backend does not work; the message names the reason and, when the
     *                               library does not load, every location tried
     */
    public static ValueCompressor create(CompressionConfig config) {
        return reading(config, null);
    }

    /**
     * A compressor that compresses with the current dictionary of {@code dictionaries} (zstd only) and reads values
     * compressed with any dictionary it has loaded; see {@link DictionaryManager}. The stored form is the same
     * header followed by a standard zstd frame that records the dictionary id. Readers without that dictionary (Valkey
     * GLIDE, earlier versions of this library) cannot decode such values: turn dictionaries on only once every reader
     * runs a version that has them.
     *
     * @throws IllegalArgumentException if the backend is not zstd
     * @throws IllegalStateException    if the backend does not work, as {@link #create(CompressionConfig)}
     */
    public static ValueCompressor create(CompressionConfig config, DictionaryManager dictionaries) {
        Objects.requireNonNull(dictionaries, "dictionaries");
        if (!config.backend().backend().takesDictionaries()) {
            throw new IllegalArgumentException("dictionaries need the zstd backend, not " + config.backend());
        }
        if (dictionaries.isClosed()) {
            throw dictionaries.closedUse(null);
        }
        ValueCompressor vc = new ValueCompressor(config, dictionaries, dictionaries.lookup());
        BackendCheck.run(config, dictionaries.lookup(), vc.pool);
        return vc;
    }

    /**
     * As {@link #create(CompressionConfig, DictionaryManager)}, but offering none of the values it writes to the
     * manager's training reservoir: the writer of a {@link PatternDictionaries} lineage, whose pattern offers the
     * lineage each of its sampled values itself, once ({@link PatternDictionary#sampled}).
     */
    static ValueCompressor notSampling(CompressionConfig config, DictionaryManager dictionaries) {
        ValueCompressor vc = new ValueCompressor(config, dictionaries, dictionaries.lookup(), new Counters(), false);
        BackendCheck.run(config, dictionaries.lookup(), vc.pool);
        return vc;
    }

    /**
     * A compressor that writes as {@link #create(CompressionConfig)} does (without a dictionary, whatever
     * {@code lookup} holds) and reads values compressed with any dictionary {@code lookup} finds, failing as
     * {@code lookup} says for the others: the adaptive compressor's reader over its {@link PatternDictionaries}.
     *
     * @param lookup where reads find dictionaries, or null for none ({@link #create(CompressionConfig)})
     * @throws IllegalStateException if the backend does not work, as {@link #create(CompressionConfig)}
     */
    /**
     * As {@link #create(CompressionConfig)}, counting nothing ({@link #stats()} stays all zeros): a writer whose
     * values are counted by its owner (the adaptive compressor's per-option writers, counted per option), so a write
     * does not pay for counters nobody reads.
     *
     * @throws IllegalStateException if the backend does not work, as {@link #create(CompressionConfig)}
     */
    static ValueCompressor uncounted(CompressionConfig config) {
        ValueCompressor vc = new ValueCompressor(config, null, null, new Counters(false), true);
        BackendCheck.run(config, null, vc.pool);
        return vc;
    }

    static ValueCompressor reading(CompressionConfig config, DictionaryLookup lookup) {
        ValueCompressor vc = new ValueCompressor(config, null, lookup);
        BackendCheck.run(config, lookup, vc.pool);
        return vc;
    }

    /**
     * Frees the native contexts of the coders this compressor keeps, for one whose manager was closed (a released
     * lineage of {@link PatternDictionaries}): they no longer keep its dictionaries' digests allocated. A call in
     * flight finishes with its own, freed on its return; a later call still works, making (and freeing) a context of
     * its own. Thread-safe; idempotent.
     */
    void closeCoders() {
        pool.close();
    }

    /**
     * Frees the decompressors its coders hold of dictionaries whose digests were released, for a reader of
     * {@link PatternDictionaries} when one of its lineages is released: an idle coder's now, one in use on its return
     * (a call in flight finishes with its own). Its other coders' contexts are kept. Thread-safe.
     */
    void freeReleasedDictionaries() {
        pool.freeReleasedDictionaries();
    }

    /**
     * @return the manager this compressor compresses and reads with, or null when it has none (an
     *         {@linkplain AdaptiveCompressor#reader() adaptive compressor's reader} has none: it reads the
     *         dictionaries of its pattern lineages and compresses without one)
     */
    public DictionaryManager dictionaries() {
        return dictionaries;
    }

    /** @return the configuration this compressor applies */
    public CompressionConfig config() {
        return config;
    }

    /** @return a snapshot of the counters since this compressor was created */
    public CompressionStats stats() {
        return counters.snapshot();
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
        if (r != STORE_AS_IS) {
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
        if (storesAsIs(value.length)) {
            return value;
        }
        Coder c = pool.acquire();
        try {
            byte[] scratch = c.scratch(value.length);
            long r = tryCompress(c, null, null, value, scratch);
            byte[] out = r == STORE_AS_IS ? value : Arrays.copyOf(scratch, (int) r);
            c.trimScratch();
            return out;
        } finally {
            pool.release(c);
        }
    }

    /**
     * The write rule's first test, for adapters that would otherwise prepare a buffer for {@code compress}: whether a
     * value of {@code size} bytes is stored as it is whatever its bytes, because compression is
     * {@linkplain CompressionConfig#enabled() disabled}, the value is shorter than
     * {@linkplain CompressionConfig#minCompressionSize() minCompressionSize}, or it is longer than
     * {@linkplain CompressionConfig#maxDecompressedSize() maxDecompressedSize} (a reader with the same limit could not
     * read it back compressed). When it says so the value is counted in {@link CompressionStats#skipped()} and by its
     * reason: store it as it is, without calling {@code compress} for it. When it does not, call {@code compress},
     * which applies the rest of the rule (and counts the value). Allocates nothing.
     *
     * @return whether the value is stored as it is
     */
    public boolean storesAsIs(long size) {
        if (config.mayCompress(size)) {
            return false;
        }
        counters.skipped(!config.enabled() ? Counter.SKIPPED_DISABLED
                : size < config.minCompressionSize() ? Counter.SKIPPED_TOO_SMALL : Counter.SKIPPED_TOO_LARGE);
        return true;
    }

    /** {@code tryCompress}'s result when the value is to be stored as it is (the reason is counted). */
    static final long STORE_AS_IS = -1;

    /** @return the stored size written to {@code dst} (capacity at least the value's size), or {@link #STORE_AS_IS} */
    long tryCompress(MemorySegment value, MemorySegment dst) {
        if (storesAsIs(value.byteSize())) {
            return STORE_AS_IS;
        }
        Coder c = pool.acquire();
        try {
            return tryCompress(c, value, dst, null, null);
        } finally {
            pool.release(c);
        }
    }

    /**
     * The rest of the write rule, after {@link #storesAsIs}: from the segment {@code value} into {@code dst}, or from
     * the array {@code array} into the start of {@code arrayDst} (at least as long; no view of the arrays is made).
     */
    private long tryCompress(Coder c, MemorySegment value, MemorySegment dst, byte[] array, byte[] arrayDst) {
        long n = array != null ? array.length : value.byteSize();
        HeaderBackend writer = c.writer();
        if ((array != null ? writer.recognises(array) : writer.recognises(value))
                && writer.couldBePayload(array != null ? MemorySegment.ofArray(array) : value)) {
            counters.skipped(Counter.SKIPPED_ALREADY_COMPRESSED);
            return STORE_AS_IS;
        }
        DictionaryManager.Entry dict = null;
        if (dictionaries != null) {
            if (dictionaries.isClosed()) { // its digests are released: none is used
                if (sampling) { // a misuse: stored as is, counted, logged naming the manager
                    compressionFailed(dictionaries.closedUse(null), DictionaryManager.class);
                    return STORE_AS_IS;
                }
                // a lineage's writer, its lineage released meanwhile: writes without it, as released lineages do
            } else {
                if (sampling) { // a lineage's writer is not: its pattern offers the lineage its sampled values itself
                    if (array != null) {
                        dictionaries.sample(array);
                    } else {
                        dictionaries.sample(value);
                    }
                }
                dict = dictionaries.current();
            }
        }
        long stored = ValueBackend.NO_ROOM;
        try { // the stored form must be strictly smaller than the value
            stored = encode(writer, value, dst, array, arrayDst, n, dict);
        } catch (IllegalStateException e) {
            DictionaryManager.Entry now;
            if (dict != null && !dictionaries.isClosed() && dict.digests.isClosed()
                    && (now = dictionaries.current()) != dict) {
                // it stopped compressing and was evicted (maxLoadedBytes) between the pick and the encoding: the one
                // compressing now encodes the value, which is not stored as is for that race
                dict = now;
                try {
                    stored = encode(writer, value, dst, array, arrayDst, n, now);
                } catch (IllegalStateException again) {
                    if (dictionaries.isClosed()) { // closed meanwhile: said as for any use after close
                        compressionFailed(dictionaries.closedUse(again), DictionaryManager.class);
                    } else {
                        compressionFailed(again);
                    }
                } catch (RuntimeException | LinkageError | OutOfMemoryError again) {
                    compressionFailed(again);
                }
            } else if (dict == null || !dictionaries.isClosed()) {
                compressionFailed(e); // store as is: always correct data
            } else if (sampling) {
                compressionFailed(dictionaries.closedUse(e), DictionaryManager.class); // closed during the call
            } else {
                dict = null; // a lineage released during the call: written without its dictionary
                try {
                    stored = encode(writer, value, dst, array, arrayDst, n, null);
                } catch (RuntimeException | LinkageError | OutOfMemoryError again) {
                    compressionFailed(again);
                }
            }
        } catch (RuntimeException | LinkageError | OutOfMemoryError e) {
            compressionFailed(e); // store as is: always correct data
        }
        boolean compressed = stored != ValueBackend.NO_ROOM;
        if (dict != null) {
            dict.countWrite(n, compressed ? stored : n, compressed);
        }
        if (!compressed) {
            return STORE_AS_IS;
        }
        counters.compressed(n, stored);
        return stored;
    }

    /** Encodes into fewer bytes than the value, or returns {@link ValueBackend#NO_ROOM} (counted as not smaller). */
    private long encode(HeaderBackend writer, MemorySegment value, MemorySegment dst, byte[] array, byte[] arrayDst,
                        long n, DictionaryManager.Entry dict) {
        long stored = array != null ? writer.encode(array, arrayDst, array.length - 1, dict)
                : writer.encode(value, dst, n - 1, dict);
        if (stored == ValueBackend.NO_ROOM) { // it does not fit in fewer bytes than the value (incompressible)
            counters.skipped(Counter.SKIPPED_NOT_SMALLER);
        }
        return stored;
    }

    /** Counts a failed compression and logs the first failure of each kind. */
    private void compressionFailed(Throwable e) {
        compressionFailed(e, e.getClass());
    }

    /** As {@link #compressionFailed(Throwable)}, logging the first failure of {@code kind}. */
    private void compressionFailed(Throwable e, Class<?> kind) {
        counters.skipped(Counter.COMPRESSION_FAILURES);
        if (loggedFailures.add(kind)) {
            LOG.log(System.Logger.Level.WARNING, "compression with " + config.backend() + " failed; values are stored "
                    + "uncompressed while this lasts (logged once per kind of failure)", e);
        }
    }

    // -------------------------------------------------------------------------------------------- decompression

    /**
     * @return the original value of a stored value: a new array when {@code stored} is compressed, otherwise
     *         {@code stored} itself (plain values, unknown backends, payloads that do not decode)
     * @throws DecompressionLimitException if the value would decompress to more than the configured maximum
     */
    public byte[] decompress(byte[] stored) {
        Objects.requireNonNull(stored, "stored");
        byte[] out = decode(MemorySegment.ofArray(stored));
        return out == null ? stored : out;
    }

    /**
     * Decodes the remaining bytes of {@code stored} without moving its position or keeping a reference to it: for
     * adapters that read the client's own buffers. A result other than {@code stored} itself is a decoded value.
     *
     * @return a new heap buffer (array-backed, position 0) with the original value when {@code stored} is compressed,
     *         otherwise {@code stored} itself, unchanged (copy it if you keep it beyond the buffer's lifetime)
     * @throws DecompressionLimitException if the value would decompress to more than the configured maximum
     * @throws MissingDictionaryException  if the value is a zstd frame that needs a dictionary
     */
    public ByteBuffer decompress(ByteBuffer stored) {
        if (!StoredForm.mayBeCoded(stored, config.legacyFormats())) {
            return stored;
        }
        byte[] out = decode(MemorySegment.ofBuffer(stored));
        return out == null ? stored : ByteBuffer.wrap(out);
    }

    /**
     * @return the original value of the stored value in {@code stored}, always as a new array
     * @throws DecompressionLimitException if the value would decompress to more than the configured maximum
     */
    public byte[] decompress(MemorySegment stored) {
        byte[] out = decode(stored);
        return out != null ? out : stored.toArray(ValueLayout.JAVA_BYTE);
    }

    /**
     * The read rule: the form {@code stored} is in ({@link StoredForm#recognise}), decoded by that form's coder.
     * @return a new array with the original value, or null when {@code stored} is to be returned as it is (plain, or
     *         a malformed payload, counted in {@link CompressionStats#decompressionFailures()})
     */
    private byte[] decode(MemorySegment stored) {
        StoredForm form = StoredForm.recognise(stored, config.legacyFormats());
        if (form == StoredForm.PLAIN) {
            return null;
        }
        if (form == StoredForm.UNKNOWN_HEADER) {
            counters.decompressionFailed();
            return null;
        }
        Coder c = pool.acquire();
        ValueBackend coder = c.bound(form);
        try {
            byte[] out = coder.decode(stored);
            if (out != null) { // null: a form without a signature said it is a plain value
                counters.decompressed(out.length, form.legacyFormat() != null);
            }
            return out;
        } catch (DecompressionLimitException e) {
            counters.sizeLimitError();
            throw e;
        } catch (RuntimeException e) {
            if (!coder.malformed(e)) {
                throw e;
            }
            counters.decompressionFailed();
            return null;
        } finally {
            pool.release(c);
        }
    }
}
