package dev.zstdjava.zstd;

import dev.zstdjava.internal.Guard;
import dev.zstdjava.internal.LibC;
import dev.zstdjava.internal.ZstdNative;

import java.lang.foreign.MemorySegment;

/**
 * A dictionary digested for decompression ({@code ZSTD_DDict}), made by {@link ZstdDictionary#forDecompression()}.
 *
 * <p><b>Thread safety:</b> immutable once built; share one instance between any number of threads and
 * decompressors. {@link #close()} frees the native tables once no decompressor or stream references them any more;
 * unclosed instances are freed by a {@link java.lang.ref.Cleaner}.
 *
 * <p><b>Allocation:</b> native tables of about the dictionary's size, allocated once at construction.
 */
public final class ZstdDecompressionDictionary implements AutoCloseable {
    private final SharedDict shared;
    private final Guard guard;
    private final long id;
    private final boolean raw;

    ZstdDecompressionDictionary(ZstdDictionary dict) {
        MemorySegment content = dict.nativeCopy();
        MemorySegment ddict;
        try {
            ddict = ZstdNative.createDDict(content, dict.size(), dict.isRawContent());
        } finally {
            LibC.free(content);
        }
        if (ddict.address() == 0) {
            throw new IllegalArgumentException("zstd could not digest " + dict
                    + " for decompression: not a valid zstd dictionary, or out of memory");
        }
        this.shared = new SharedDict(ddict, false, "ZstdDecompressionDictionary");
        this.guard = new Guard(this, "ZstdDecompressionDictionary", shared::releaseOwner);
        this.id = dict.id();
        this.raw = dict.isRawContent();
    }

    /** @return the dictionary id frames name when compressed with it (an unsigned 32-bit value), 0 for raw content */
    public long id() {
        return id;
    }

    /** @return true for raw content (no zstd dictionary header) */
    public boolean isRawContent() {
        return raw;
    }

    SharedDict shared() {
        return shared;
    }

    /** Releases this handle; the native tables go once no decompressor or stream references them. Idempotent. */
    @Override
    public void close() {
        guard.close();
    }

    @Override
    public String toString() {
        return "ZstdDecompressionDictionary[" + (raw ? "raw content" : "id " + id) + "]";
    }
}
