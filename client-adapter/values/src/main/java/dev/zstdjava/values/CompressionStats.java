package dev.zstdjava.values;

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
 * @param skipped               values stored as they are, for any of the reasons below: the sum of
 *                              {@code skippedDisabled}, {@code skippedTooSmall}, {@code skippedAlreadyCompressed},
 *                              {@code skippedNotSmaller} and {@code compressionFailures}
 * @param decompressionFailures values that carry the header but have an unknown backend id or a malformed payload
 *                              (corrupt, truncated); they were returned as stored
 * @param sizeLimitErrors       values refused because they would decompress to more than the configured maximum
 * @param compressionFailures   values stored as they are because the backend failed (not counting values that do
 *                              not get smaller); each is also in {@code skipped}, and each kind of failure is logged
 *                              once
 * @param skippedDisabled          values stored as they are because compression is disabled
 * @param skippedTooSmall          values stored as they are because they are shorter than the minimum size
 * @param skippedAlreadyCompressed values stored as they are because they already carry this backend's header
 * @param skippedNotSmaller        values stored as they are because compressing them would not make them smaller
 * @param legacyDecompressed       values read in one of the configured {@link LegacyFormat}s (also counted in
 *                                 {@code valuesDecompressed} and {@code decompressedBytes})
 */
public record CompressionStats(long valuesCompressed, long valuesDecompressed, long originalBytes,
        long compressedBytes, long decompressedBytes, long skipped, long decompressionFailures,
        long sizeLimitErrors, long compressionFailures, long skippedDisabled, long skippedTooSmall,
        long skippedAlreadyCompressed, long skippedNotSmaller, long legacyDecompressed) {
}
