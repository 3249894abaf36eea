package dev.zstdjava.values;

import java.util.concurrent.atomic.LongAdder;

/**
 * The values an adaptive compressor stored with each option, and their bytes before and after: one set of adders per
 * option, shared by every pattern. Thread-safe; {@link #count} allocates nothing once the adders' cells exist.
 */
final class OptionCounters {
    private final LongAdder[] values = adders();
    private final LongAdder[] original = adders();
    private final LongAdder[] stored = adders();

    private static LongAdder[] adders() {
        LongAdder[] a = new LongAdder[CompressionOption.ALL.length];
        for (int i = 0; i < a.length; i++) {
            a[i] = new LongAdder();
        }
        return a;
    }

    /** Counts one value of {@code originalLength} bytes stored with {@code option} as {@code storedLength} bytes. */
    void count(CompressionOption option, long originalLength, long storedLength) {
        int i = option.ordinal();
        values[i].increment();
        original[i].add(originalLength);
        stored[i].add(storedLength);
    }

    OptionWrites get(CompressionOption option) {
        int i = option.ordinal();
        return new OptionWrites(option, values[i].sum(), original[i].sum(), stored[i].sum());
    }
}
