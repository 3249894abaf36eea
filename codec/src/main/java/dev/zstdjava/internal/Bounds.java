package dev.zstdjava.internal;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.Objects;

/** Argument checks every codec makes before a native call. */
public final class Bounds {
    private Bounds() {}

    /**
     * Heap arrays above this many bytes are staged through native memory instead of being passed to a critical
     * downcall (system property {@code zstdjava.criticalHeapLimit}, default 1 MiB; a negative value never stages).
     */
    public static final long HEAP_CRITICAL_LIMIT = heapCriticalLimit();

    private static long heapCriticalLimit() {
        long v = Long.getLong("zstdjava.criticalHeapLimit", 1L << 20);
        return v < 0 ? Long.MAX_VALUE : v;
    }

    /** Largest {@code byte[]} the JVM reliably allocates. */
    public static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    /** {@code a[off, off+len)} lies inside {@code a}; otherwise {@link IndexOutOfBoundsException} (or NPE naming it). */
    public static void range(byte[] a, int off, int len, String name) {
        Objects.requireNonNull(a, name);
        Objects.checkFromIndexSize(off, len, a.length);
    }

    /** Native code may write to {@code dst}: a read-only segment is an {@link IllegalArgumentException}. */
    public static void writable(MemorySegment dst) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("destination segment is read-only");
        }
    }

    /**
     * A heap segment starting at {@code a[off]}, for passing to native code together with an explicit length (the
     * range must have been checked with {@link #range}). Offset 0, the common case, makes one view instead of two,
     * which keeps the call small enough for escape analysis to remove it.
     */
    public static MemorySegment at(byte[] a, int off) {
        MemorySegment whole = MemorySegment.ofArray(a);
        return off == 0 ? whole : whole.asSlice(off);
    }

    /**
     * The destination of a {@code ByteBuffer} form, as a segment over its remaining bytes.
     *
     * @throws ReadOnlyBufferException if {@code dst} is read-only
     */
    public static MemorySegment writable(ByteBuffer dst) {
        if (dst.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        return MemorySegment.ofBuffer(dst);
    }

    /**
     * Ends a successful {@code ByteBuffer} call: {@code src}'s position moves to its limit and {@code dst}'s past the
     * {@code written} bytes (on failure the call throws before this, so neither moves).
     *
     * @return {@code written}
     */
    public static int advance(ByteBuffer src, ByteBuffer dst, long written) {
        int n = (int) written;
        src.position(src.limit());
        dst.position(dst.position() + n);
        return n;
    }

    /** The sizes part of an error message. */
    public static String sizes(long srcLen, long dstCap) {
        return "input " + srcLen + " bytes, output capacity " + dstCap + " bytes";
    }
}
