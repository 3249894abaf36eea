package dev.zstdjava.lettuce;

/**
 * A snapshot of a {@link ValueCompressor}'s counters since it was created; the first six are the counters Valkey
 * GLIDE keeps. Immutable. Counters are read one by one, so a snapshot taken while other threads compress may mix
 * values from slightly different moments.
 *
 * @param valuesCompressed      values stored compressed
 * @param valuesDecompressed    stored values successfully decompressed
 * @param originalBytes         size of the values that were stored compressed, before compression
 * @param compressedBytes       size of those values as stored (header included)
 * @param decompressedBytes     size of the values produced by decompression
 * @param skipped               values stored as they are: compression disabled, shorter than the minimum size,
 *                              already compressed with this backend, not smaller when compressed, or compression
 *                              failed
 * @param decompressionFailures values that carry the header but have an unknown backend id or a malformed payload
 *                              (corrupt, truncated); they were returned as stored
 * @param sizeLimitErrors       values refused because they would decompress to more than the configured maximum
 * @param compressionFailures   values stored as they are because the backend failed (not counting values that do
 *                              not get smaller); each is also in {@code skipped}, and each kind of failure is logged
 *                              once
 */
public record CompressionStats(long valuesCompressed, long valuesDecompressed, long originalBytes,
        long compressedBytes, long decompressedBytes, long skipped, long decompressionFailures,
        long sizeLimitErrors, long compressionFailures) {
}
