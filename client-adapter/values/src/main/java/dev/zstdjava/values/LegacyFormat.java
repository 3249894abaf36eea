package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Set;

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
 */
public enum LegacyFormat {
    /**
     * Lettuce's {@code CompressionCodec} with {@code GZIP}: a gzip stream ({@code 1f 8b 08}). A value over the limit
     * fails with {@code DecompressionLimitException} as soon as the limit is passed.
     */
    LETTUCE_GZIP,
    /**
     * Lettuce's {@code CompressionCodec} with {@code DEFLATE}: a zlib stream (its two-byte header, method 8). A plain
     * value can start with such a header by chance ({@code "x^"}, {@code "x\u009c"}); one that does not inflate is
     * returned as stored.
     */
    LETTUCE_DEFLATE,
    /**
     * Redisson's {@code ZStdCodec}: the original length (signed 32-bit big-endian), then one zstd frame. A declared
     * length over the limit fails with {@code DecompressionLimitException} before anything is allocated.
     */
    REDISSON_ZSTD,
    /**
     * Redisson's {@code LZ4Codec}: the original length (signed 32-bit big-endian), then one raw LZ4 block, with no
     * signature at all. A value is taken for one only when its length prefix is within the limit and the rest decodes
     * to exactly that many bytes; anything else (including a genuine value declaring more than the limit, which cannot
     * be told from a plain value) is returned as stored. Failed attempts are not counted as decode failures, since
     * most are plain values. A declared length of 0 is taken only in the exact form Redisson writes for an empty
     * value: five zero bytes (the length, then an empty block); any other value declaring 0 bytes is plain.
     */
    REDISSON_LZ4;

    /** Redisson's zstd frames start after the length prefix: the zstd magic number, read little-endian. */
    private static final int ZSTD_MAGIC = 0xFD2FB528;

    /**
     * @return the first of {@code formats} whose signature {@code s} carries (checked in the order: Redisson zstd,
     *         gzip, zlib, Redisson lz4), or {@code null}
     */
    static LegacyFormat recognise(Set<LegacyFormat> formats, MemorySegment s) {
        long n = s.byteSize();
        if (n < 5) {
            return null;
        }
        int b0 = s.get(ValueLayout.JAVA_BYTE, 0) & 0xff;
        int b1 = s.get(ValueLayout.JAVA_BYTE, 1) & 0xff;
        if (formats.contains(REDISSON_ZSTD) && n >= 8 && s.get(ValueFormat.LE_INT, 4) == ZSTD_MAGIC) {
            return REDISSON_ZSTD;
        }
        if (formats.contains(LETTUCE_GZIP) && n >= 18 && b0 == 0x1f && b1 == 0x8b
                && s.get(ValueLayout.JAVA_BYTE, 2) == 8) {
            return LETTUCE_GZIP;
        }
        // zlib: method 8, window at most 32 KiB, no preset dictionary, header check multiple of 31
        if (formats.contains(LETTUCE_DEFLATE) && (b0 & 0x0f) == 8 && (b0 >>> 4) <= 7 && (b1 & 0x20) == 0
                && ((b0 << 8) | b1) % 31 == 0) {
            return LETTUCE_DEFLATE;
        }
        if (formats.contains(REDISSON_LZ4)) {
            return REDISSON_LZ4;
        }
        return null;
    }
}
