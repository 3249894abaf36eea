package dev.zstdjava.zstd;

import dev.zstdjava.internal.Guard;
import dev.zstdjava.internal.LibC;
import dev.zstdjava.internal.ZstdNative;

import java.lang.foreign.MemorySegment;

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
public final class ZstdCompressionDictionary implements AutoCloseable {
    private final SharedDict shared;
    private final Guard guard;
    private final long id;
    private final int level;
    private final boolean raw;

    ZstdCompressionDictionary(ZstdDictionary dict, int level) {
        MemorySegment content = dict.nativeCopy();
        MemorySegment cdict;
        try {
            cdict = ZstdNative.createCDict(content, dict.size(), level, dict.isRawContent());
        } finally {
            LibC.free(content);
        }
        if (cdict.address() == 0) {
            throw new IllegalArgumentException("zstd could not digest " + dict + " for compression at level " + level
                    + ": not a valid zstd dictionary, or out of memory");
        }
        this.shared = new SharedDict(cdict, true, "ZstdCompressionDictionary");
        this.guard = new Guard(this, "ZstdCompressionDictionary", shared::releaseOwner);
        this.id = dict.id();
        this.level = level;
        this.raw = dict.isRawContent();
    }

    /** @return the dictionary id written into frames (an unsigned 32-bit value), 0 for raw content */
    public long id() {
        return id;
    }

    /** @return the compression level the dictionary was digested for */
    public int level() {
        return level;
    }

    /** @return true for raw content (no zstd dictionary header) */
    public boolean isRawContent() {
        return raw;
    }

    SharedDict shared() {
        return shared;
    }

    /** Releases this handle; the native tables go once no compressor or stream references them. Idempotent. */
    @Override
    public void close() {
        guard.close();
    }

    @Override
    public String toString() {
        return "ZstdCompressionDictionary[" + (raw ? "raw content" : "id " + id)
                + ", level " + level + "]";
    }
}
