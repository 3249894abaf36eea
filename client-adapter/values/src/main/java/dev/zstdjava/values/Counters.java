package dev.zstdjava.values;

import dev.zstdjava.values.CompressionStats.Counter;

import java.util.concurrent.atomic.LongAdder;

/**
 * The live counters of one {@link ValueCompressor}, one {@link LongAdder} per {@link Counter}; {@link #snapshot()}
 * reads them into a {@link CompressionStats}. Thread-safe; counting allocates nothing.
 */
final class Counters {
    private final LongAdder[] adders = new LongAdder[Counter.values().length];
    private final boolean counting;

    Counters() {
        this(true);
    }

    /** @param counting false: counts nothing, its snapshot is all zeros (for compressors whose counts are kept elsewhere) */
    Counters(boolean counting) {
        this.counting = counting;
        for (int i = 0; i < adders.length; i++) {
            adders[i] = new LongAdder();
        }
    }

    private void add(Counter c, long n) {
        if (counting) {
            adders[c.ordinal()].add(n);
        }
    }

    /** A value stored as it is for {@code reason} (one of the {@code SKIPPED_*} counters or compression failures). */
    void skipped(Counter reason) {
        add(Counter.SKIPPED, 1);
        add(reason, 1);
    }

    /** A value of {@code original} bytes stored compressed in {@code stored} bytes. */
    void compressed(long original, long stored) {
        add(Counter.VALUES_COMPRESSED, 1);
        add(Counter.ORIGINAL_BYTES, original);
        add(Counter.COMPRESSED_BYTES, stored);
    }

    /** A value of {@code size} bytes decompressed, from a read-only form when {@code legacy}. */
    void decompressed(long size, boolean legacy) {
        add(Counter.VALUES_DECOMPRESSED, 1);
        add(Counter.DECOMPRESSED_BYTES, size);
        if (legacy) {
            add(Counter.LEGACY_DECOMPRESSED, 1);
        }
    }

    /** A stored value that does not decode, returned as stored. */
    void decompressionFailed() {
        add(Counter.DECOMPRESSION_FAILURES, 1);
    }

    /** A stored value refused for its size. */
    void sizeLimitError() {
        add(Counter.SIZE_LIMIT_ERRORS, 1);
    }

    CompressionStats snapshot() {
        long[] v = new long[adders.length];
        for (int i = 0; i < v.length; i++) {
            v[i] = adders[i].sum();
        }
        return new CompressionStats(v);
    }
}
