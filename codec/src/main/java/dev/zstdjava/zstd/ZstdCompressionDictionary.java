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

    ZstdCompressionDictionary(ZstdDictionary dict, int level) {
        super(dict, Direction.COMPRESS, content -> ZstdNative.createCDict(content, dict.size(), level, dict.content()),
                "compression at level " + level);
        this.level = level;
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
