package dev.zstdjava.zstd;

import dev.zstdjava.internal.Direction;

/**
 * A dictionary digested for compression at one level ({@code ZSTD_CDict}), made by
 * {@link ZstdDictionary#forCompression(int)}. Referencing it from a compressor or stream costs no further digesting.
 * With a dictionary, the dictionary's level and parameters apply, not the compressor's level.
 *
 * <p><b>Thread safety:</b> immutable once built; share one instance between any number of threads and
 * compressors. {@link #close()} frees the native tables once no compressor or stream references them any more
 * (they keep it alive until they are closed); unclosed instances are freed by a {@link java.lang.ref.Cleaner}.
 *
 * <p><b>Allocation:</b> native tables sized by the dictionary and level, allocated once at construction.
 */
public final class ZstdCompressionDictionary extends DigestedDictionary {
    private final int level;
    private final boolean attach;

    ZstdCompressionDictionary(ZstdDictionary dict, int level) {
        super(dict, Direction.COMPRESS, content -> ZstdNative.createCDict(content, dict.size(), level, dict.content()),
                "compression at level " + level);
        this.level = level;
        this.attach = ZstdNative.strategyFor(level, dict.size()) == ZstdNative.STRATEGY_DFAST;
    }

    /**
     * Whether a context that references this dictionary should attach its tables at every input size: true where
     * it was digested for zstd's {@code dfast} strategy (levels 3 and 4, the default level among them). For inputs
     * from 16 KiB up to 128 KiB, libzstd otherwise copies a {@code dfast} dictionary's tables into the context on
     * every call, which costs more than compressing such an input does: measured with libzstd 1.5.7, attached took
     * 0.33-0.65x the time on JSON and random bytes and 0.70-0.97x on English text, with frames of the same size to
     * within 0.01% on corpus files (0.25-0.45% larger on generated word noise). At the other strategies the copy
     * pays for itself or the gain is small, so libzstd's choice stays.
     */
    boolean attachesAtAnySize() {
        return attach;
    }

    /** @return the compression level the dictionary was digested for */
    public int level() {
        return level;
    }

    @Override
    public String toString() {
        return "ZstdCompressionDictionary[" + describe() + ", level " + level + "]";
    }
}
