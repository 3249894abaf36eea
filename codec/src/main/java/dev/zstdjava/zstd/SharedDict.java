package dev.zstdjava.zstd;

import dev.zstdjava.internal.Direction;
import java.lang.foreign.MemorySegment;

/**
 * The native object of a digested dictionary ({@code ZSTD_CDict} or {@code ZSTD_DDict}), counted by its users: the
 * public dictionary object holds one reference and every context that references the dictionary holds another.
 * The native object is freed when the last reference goes, so closing a dictionary never frees it under a
 * compressor, decompressor or stream that still uses it.
 */
final class SharedDict {
    private final MemorySegment ptr;
    private final Direction direction;
    private final String what;
    private int refs = 1;
    private boolean ownerReleased;

    SharedDict(MemorySegment ptr, Direction direction, String what) {
        this.ptr = ptr;
        this.direction = direction;
        this.what = what;
    }

    /** Takes a reference for a context; throws if the owning dictionary was closed. */
    synchronized MemorySegment acquire() {
        if (ownerReleased) {
            throw new IllegalStateException(what + " is closed");
        }
        refs++;
        return ptr;
    }

    /** Drops a context's reference, if it holds one ({@code dict} may be null). */
    static void release(SharedDict dict) {
        if (dict != null) {
            dict.release();
        }
    }

    /** Drops a context's reference. */
    void release() {
        boolean free;
        synchronized (this) {
            free = --refs == 0;
        }
        if (free) {
            freeNative();
        }
    }

    /** Drops the owner's reference (close or Cleaner); runs once, through {@link dev.zstdjava.internal.Guard}. */
    void releaseOwner() {
        synchronized (this) {
            ownerReleased = true;
        }
        release();
    }

    private void freeNative() {
        if (direction == Direction.COMPRESS) {
            ZstdNative.freeCDict(ptr);
        } else {
            ZstdNative.freeDDict(ptr);
        }
    }
}
