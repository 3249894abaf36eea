package dev.zstdjava.values;

/**
 * A snapshot of a {@link ValueCompressor}'s counters since it was created, read by name; the first six accessors are
 * the counters Valkey GLIDE keeps. Immutable and thread-safe. Counters are read one by one, so a snapshot taken while
 * other threads compress may mix values from slightly different moments. Instances are made by
 * {@link ValueCompressor#stats()} only, so a counter can be added without changing any caller.
 *
 * <p><b>What "stored" means here.</b> A value is counted when the compressor writes its stored form (compressed, or
 * the value as it is) for a write, which the adapters do before the command is sent, once per command: a write the
 * server then refuses ({@code WRONGTYPE}, {@code OOM}, {@code READONLY}), one that never reaches it (a broken
 * connection, a batch never executed) and a {@code SET ... NX} the server does not apply are counted all the same.
 * A command refused before its values are compressed (the command policy's refusals, a client's own argument
 * checks, a Jedis in {@code MULTI} or a pipeline through {@code CompressingJedis}) is not counted. A read is counted
 * when its reply is decoded.
 */
public final class CompressionStats {
    /** The counters, in {@link Counter}'s order. */
    private final long[] values;

    CompressionStats(long[] values) {
        this.values = values;
    }

    /** The counters, in the order {@link CompressionStats#toString()} prints them (package-private). */
    enum Counter {
        VALUES_COMPRESSED, VALUES_DECOMPRESSED, ORIGINAL_BYTES, COMPRESSED_BYTES, DECOMPRESSED_BYTES, SKIPPED,
        DECOMPRESSION_FAILURES, SIZE_LIMIT_ERRORS, COMPRESSION_FAILURES, SKIPPED_DISABLED, SKIPPED_TOO_SMALL,
        SKIPPED_TOO_LARGE, SKIPPED_ALREADY_COMPRESSED, SKIPPED_NOT_SMALLER, LEGACY_DECOMPRESSED
    }

    private long get(Counter c) {
        return values[c.ordinal()];
    }

    /** @return values stored compressed */
    public long valuesCompressed() {
        return get(Counter.VALUES_COMPRESSED);
    }

    /** @return stored values successfully decompressed */
    public long valuesDecompressed() {
        return get(Counter.VALUES_DECOMPRESSED);
    }

    /** @return size of the values that were stored compressed, before compression */
    public long originalBytes() {
        return get(Counter.ORIGINAL_BYTES);
    }

    /** @return size of those values as stored (header included) */
    public long compressedBytes() {
        return get(Counter.COMPRESSED_BYTES);
    }

    /** @return size of the values produced by decompression */
    public long decompressedBytes() {
        return get(Counter.DECOMPRESSED_BYTES);
    }

    /**
     * @return values stored as they are, for any reason: the sum of {@link #skippedDisabled()},
     *         {@link #skippedTooSmall()}, {@link #skippedTooLarge()}, {@link #skippedAlreadyCompressed()},
     *         {@link #skippedNotSmaller()} and {@link #compressionFailures()}
     */
    public long skipped() {
        return get(Counter.SKIPPED);
    }

    /**
     * @return values that carry the header but have an unknown backend id or a malformed payload (corrupt,
     *         truncated); they were returned as stored
     */
    public long decompressionFailures() {
        return get(Counter.DECOMPRESSION_FAILURES);
    }

    /** @return values refused because they would decompress to more than the configured maximum */
    public long sizeLimitErrors() {
        return get(Counter.SIZE_LIMIT_ERRORS);
    }

    /**
     * @return values stored as they are because the backend failed (not counting values that do not get smaller);
     *         each is also in {@link #skipped()}, and each kind of failure is logged once
     */
    public long compressionFailures() {
        return get(Counter.COMPRESSION_FAILURES);
    }

    /** @return values stored as they are because compression is disabled */
    public long skippedDisabled() {
        return get(Counter.SKIPPED_DISABLED);
    }

    /** @return values stored as they are because they are shorter than the minimum size */
    public long skippedTooSmall() {
        return get(Counter.SKIPPED_TOO_SMALL);
    }

    /**
     * @return values stored as they are because they are longer than
     *         {@linkplain CompressionConfig#maxDecompressedSize() maxDecompressedSize}, so that a reader with the same
     *         limit reads them back
     */
    public long skippedTooLarge() {
        return get(Counter.SKIPPED_TOO_LARGE);
    }

    /** @return values stored as they are because they already carry this backend's header */
    public long skippedAlreadyCompressed() {
        return get(Counter.SKIPPED_ALREADY_COMPRESSED);
    }

    /** @return values stored as they are because compressing them would not make them smaller */
    public long skippedNotSmaller() {
        return get(Counter.SKIPPED_NOT_SMALLER);
    }

    /**
     * @return values read in one of the configured {@link LegacyFormat}s (also counted in
     *         {@link #valuesDecompressed()} and {@link #decompressedBytes()})
     */
    public long legacyDecompressed() {
        return get(Counter.LEGACY_DECOMPRESSED);
    }

    @Override
    public String toString() {
        StringBuilder b = new StringBuilder("CompressionStats[");
        for (Counter c : Counter.values()) {
            b.append(c.ordinal() == 0 ? "" : ", ").append(c.name().toLowerCase(java.util.Locale.ROOT)).append('=')
                    .append(values[c.ordinal()]);
        }
        return b.append(']').toString();
    }
}
