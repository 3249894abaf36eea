package dev.zstdjava.values;

/**
 * Stored formats of other Java clients' own compression, which a {@link ValueCompressor} can be told to read (opt-in,
 * {@link CompressionConfig.Builder#readLegacy}) so that a team can move to the shared format without rewriting its
 * data: values in these formats are read, new values are always written in the shared format. Decoding is bounded by
 * the same {@linkplain CompressionConfig#maxDecompressedSize() limit} as the shared format.
 *
 * <p>Only the shared format carries a header that cannot be mistaken; these formats are recognised by their own
 * signatures, so enable only the ones your data was written with. A value that matches a signature but does not
 * decode is returned as stored. Immutable and thread-safe.
 *
 * <p>Redisson's {@code ZStdCodec} and {@code LZ4Codec} compress hash field names too (map keys are encoded like
 * values), while {@code CompressingRedissonCodec} leaves map keys to the wrapped codec: the values of such hashes read
 * back, but a lookup by field name misses. Rewrite those hashes (read with the old codec, write with the new one).
 *
 * <p>Each format is read by one package-private class behind the interface {@code ValueBackend} (its signature and
 * its decoding); this enum is their public selector, one line each, and {@link StoredForm} the catalogue of every stored form (label,
 * signature, the order in which they are tried) made from it.
 */
public enum LegacyFormat {
    /**
     * Lettuce's {@code CompressionCodec} with {@code GZIP}: a gzip stream ({@code 1f 8b 08}). A value over the limit
     * fails with {@code DecompressionLimitException} as soon as the limit is passed.
     */
    LETTUCE_GZIP(new LettuceReader(LettuceReader.Type.GZIP, null)),
    /**
     * Lettuce's {@code CompressionCodec} with {@code DEFLATE}: a zlib stream (its two-byte header, method 8). A plain
     * value can start with such a header by chance ({@code "x^"}, {@code "x\u009c"}); one that does not inflate is
     * returned as stored.
     */
    LETTUCE_DEFLATE(new LettuceReader(LettuceReader.Type.DEFLATE, null)),
    /**
     * Redisson's {@code ZStdCodec}: the original length (signed 32-bit big-endian), then one zstd frame. A declared
     * length over the limit fails with {@code DecompressionLimitException} before anything is allocated.
     */
    REDISSON_ZSTD(new RedissonZstdReader(null)),
    /**
     * Redisson's {@code LZ4Codec}: the original length (signed 32-bit big-endian), then one raw LZ4 block, with no
     * signature at all. A value is taken for one only when its length prefix is within the limit and the rest decodes
     * to exactly that many bytes; anything else (including a genuine value declaring more than the limit, which cannot
     * be told from a plain value) is returned as stored. Failed attempts are not counted as decode failures, since
     * most are plain values. A declared length of 0 is taken only in the exact form Redisson writes for an empty
     * value: five zero bytes (the length, then an empty block); any other value declaring 0 bytes is plain.
     */
    REDISSON_LZ4(new RedissonLz4Reader(null));

    private final LegacyReader reader;

    LegacyFormat(LegacyReader reader) {
        this.reader = reader;
    }

    /** @return the format's unbound reader (see {@link ValueBackend}) */
    LegacyReader reader() {
        return reader;
    }
}
