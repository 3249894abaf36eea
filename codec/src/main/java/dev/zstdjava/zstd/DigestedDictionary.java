package dev.zstdjava.zstd;

import dev.zstdjava.internal.Direction;
import dev.zstdjava.internal.Guard;

import java.lang.foreign.MemorySegment;
import java.util.function.UnaryOperator;

/**
 * What {@link ZstdCompressionDictionary} and {@link ZstdDecompressionDictionary} share: digesting the dictionary's
 * content into a native {@code ZSTD_CDict} or {@code ZSTD_DDict}, the reference-counted handle ({@link SharedDict})
 * that contexts take, the {@link Guard} that drops the owner's reference, and the id.
 */
abstract sealed class DigestedDictionary implements AutoCloseable
        permits ZstdCompressionDictionary, ZstdDecompressionDictionary {
    private final SharedDict shared;
    private final Guard guard;
    private final long id;
    private final boolean raw;

    /**
     * @param digest  makes the native dictionary from a native copy of the content (freed afterwards); NULL when
     *                zstd refuses it
     * @param purpose what it is digested for, in the error message ("compression at level 3")
     */
    DigestedDictionary(ZstdDictionary dict, Direction direction, UnaryOperator<MemorySegment> digest, String purpose) {
        MemorySegment content = dict.nativeCopy();
        MemorySegment ptr;
        try {
            ptr = digest.apply(content);
        } finally {
            ZstdNative.LIBC.free(content);
        }
        if (ptr.address() == 0) {
            throw new IllegalArgumentException("zstd could not digest " + dict + " for " + purpose
                    + ": not a valid zstd dictionary, or out of memory");
        }
        String what = getClass().getSimpleName();
        this.shared = new SharedDict(ptr, direction, what);
        this.guard = new Guard(this, what, shared::releaseOwner);
        this.id = dict.id();
        this.raw = dict.isRawContent();
    }

    /** @return the dictionary id that frames compressed with it name (an unsigned 32-bit value), 0 for raw content */
    public final long id() {
        return id;
    }

    /** @return true for raw content (no zstd dictionary header) */
    public final boolean isRawContent() {
        return raw;
    }

    final SharedDict shared() {
        return shared;
    }

    /** Releases this handle; the native tables go once no context (or stream) references them. Idempotent. */
    @Override
    public final void close() {
        guard.close();
    }

    /** @return "raw content" or "id N", for {@code toString} */
    final String describe() {
        return raw ? "raw content" : "id " + id;
    }
}
