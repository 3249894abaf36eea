package dev.zstdjava.internal;

import java.lang.foreign.MemorySegment;

/**
 * A growable native buffer owned by one context: output of {@code byte[] -> byte[]} calls, and staging for large
 * heap arrays. Not thread-safe (its owner's {@link Guard} serialises use). Buffers above {@link #KEEP} bytes are
 * released after each call so idle contexts stay small.
 */
public final class Scratch {
    /** Largest buffer kept between calls. */
    public static final long KEEP = 1 << 20;

    private MemorySegment buffer = MemorySegment.NULL;

    /** @return at least {@code size} bytes; contents are undefined */
    public MemorySegment get(long size) {
        if (buffer.byteSize() < size) {
            free();
            buffer = LibC.malloc(size);
        }
        return buffer;
    }

    /** Grows to {@code size} bytes keeping the content. */
    public MemorySegment grow(long size) {
        buffer = buffer.address() == 0 ? LibC.malloc(size) : LibC.realloc(buffer, size);
        return buffer;
    }

    /** @return the current buffer (possibly NULL) */
    public MemorySegment current() {
        return buffer;
    }

    /** Releases the buffer if it is larger than {@link #KEEP}. */
    public void trim() {
        if (buffer.byteSize() > KEEP) {
            free();
        }
    }

    /** Releases the buffer. */
    public void free() {
        MemorySegment b = buffer;
        buffer = MemorySegment.NULL;
        LibC.free(b);
    }
}
