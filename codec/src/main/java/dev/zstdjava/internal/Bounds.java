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
     * On JDK 21, whose downcalls refuse heap segments, it is 0 whatever the property says: heap arrays are always
     * staged.
     */
    public static final long HEAP_CRITICAL_LIMIT = heapCriticalLimit();

    /**
     * Most heap bytes one critical call reads or writes where a long operation on heap memory is cut into pieces
     * (streams, frames of unknown size): {@code zstdjava.criticalHeapLimit}, at least 4 KiB, on every JDK.
     */
    public static final long HEAP_WINDOW = Math.max(propertyLimit(), 4096);

    /**
     * Heap arrays whose input and output both fit in this many bytes (system property
     * {@code zstdjava.heapStagingLimit}, default 4 KiB; 0 never stages, so small arrays are used in place) are copied
     * through the context's native buffers ({@link Scratch}) instead of being passed to native code as array views.
     * A view of an array is a new {@code MemorySegment} (and its session object) per call, removed only where C2
     * inlines the JDK's {@code MemorySegment.ofArray} and {@code asSlice} into the method that makes the native
     * call, which depends on what the JIT compiled before; a copy into memory that already exists allocates nothing
     * whatever the JIT decides. Above the limit the copies would cost more than the views (the crossover is measured
     * by the benchmark module's {@code HeapStagingBench}); the views are used there.
     */
    public static final long STAGING_LIMIT = Math.max(0, Long.getLong("zstdjava.heapStagingLimit", 4096));

    /**
     * The staging limit of lz4 decompression (block and frame), lower than {@link #STAGING_LIMIT}: its native call is
     * so short that the two copies cost more than the views above a few hundred bytes (measured by the benchmark
     * module's {@code HeapStagingBench}). System property {@code zstdjava.lz4DecompressStagingLimit}, default
     * {@value #LZ4_DECOMPRESS_STAGING_DEFAULT} bytes, never above {@link #STAGING_LIMIT}.
     */
    public static final long LZ4_DECOMPRESS_STAGING_LIMIT = Math.min(STAGING_LIMIT,
            Math.max(0, Long.getLong("zstdjava.lz4DecompressStagingLimit", Bounds.LZ4_DECOMPRESS_STAGING_DEFAULT)));

    /** Default of {@link #LZ4_DECOMPRESS_STAGING_LIMIT}: the largest measured size at which staging is not slower. */
    public static final long LZ4_DECOMPRESS_STAGING_DEFAULT = 512;

    /** @return true when a heap call of {@code srcLen} bytes in and at most {@code outCap} out is staged (see {@link #STAGING_LIMIT}) */
    public static boolean small(long srcLen, long outCap) {
        return srcLen <= STAGING_LIMIT && outCap <= STAGING_LIMIT;
    }

    /** @return true when an lz4 decompression of {@code srcLen} bytes into at most {@code outCap} is staged (see {@link #LZ4_DECOMPRESS_STAGING_LIMIT}) */
    public static boolean smallLz4Decompression(long srcLen, long outCap) {
        return srcLen <= LZ4_DECOMPRESS_STAGING_LIMIT && outCap <= LZ4_DECOMPRESS_STAGING_LIMIT;
    }

    private static long heapCriticalLimit() {
        return Ffm.HEAP_IN_DOWNCALLS ? propertyLimit() : 0;
    }

    private static long propertyLimit() {
        long v = Long.getLong("zstdjava.criticalHeapLimit", 1L << 20);
        return v < 0 ? Long.MAX_VALUE : v;
    }

    /** Largest {@code byte[]} the JVM reliably allocates. */
    public static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    /** @return {@code bytes}, a decompression limit, checked: an {@link IllegalArgumentException} if negative */
    public static long maxDecompressedSize(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("maxDecompressedSize must be >= 0, got " + bytes);
        }
        return bytes;
    }

    /** {@code a[off, off+len)} lies inside {@code a}; otherwise {@link IndexOutOfBoundsException} (or NPE naming it). */
    public static void range(byte[] a, int off, int len, String name) {
        Objects.requireNonNull(a, name);
        Objects.checkFromIndexSize(off, len, a.length);
    }

    /** Checks {@code [off, off+len)} is inside {@code s} (an {@link IndexOutOfBoundsException} naming it otherwise). */
    public static void range(MemorySegment s, long off, long len, String name) {
        Objects.requireNonNull(s, name);
        Objects.checkFromIndexSize(off, len, s.byteSize());
    }

    /**
     * {@code src[srcOff, +srcLen)} and {@code dst[dstOff, +dstLen)} share no byte: native code reads its input while
     * it writes its output, so an overlap would silently give a wrong result. Call after {@link #range}.
     *
     * @throws IllegalArgumentException naming both ranges if they are of the same array and overlap
     */
    public static void disjoint(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen) {
        if (src == dst && overlap(srcOff, srcLen, dstOff, dstLen)) {
            throw overlapping(srcOff, srcLen, dstOff, dstLen, "of the same array");
        }
    }

    /** All of {@code src} and all of {@code dst} share no byte; see {@link #disjoint(MemorySegment, long, long, MemorySegment, long, long)}. */
    public static void disjoint(MemorySegment src, MemorySegment dst) {
        disjoint(src, 0, src.byteSize(), dst, 0, dst.byteSize());
    }

    /**
     * {@code src[srcOff, +srcLen)} and {@code dst[dstOff, +dstLen)} share no byte, as for the arrays above (the
     * ranges checked before; allocates nothing unless they overlap).
     *
     * @throws IllegalStateException    if either segment's arena is closed (checked first: the address of freed
     *                                  memory may have been reused, so an overlap found there would be meaningless)
     * @throws IllegalArgumentException naming both ranges (native addresses, or offsets in one array) if they overlap
     */
    public static void disjoint(MemorySegment src, long srcOff, long srcLen, MemorySegment dst, long dstOff,
                                long dstLen) {
        alive(src.scope(), "src");
        alive(dst.scope(), "dst");
        boolean inNative = src.isNative();
        if (inNative != dst.isNative()) {
            return;
        }
        long s = src.address() + srcOff; // of a heap segment: the offset in its array
        long d = dst.address() + dstOff;
        if (inNative) {
            disjointNative(s, srcLen, d, dstLen);
        } else if (overlap(s, srcLen, d, dstLen) && src.asOverlappingSlice(dst).isPresent()) {
            throw overlapping(s, srcLen, d, dstLen, "of the same array");
        }
    }

    /**
     * Native memory at address {@code src} ({@code srcLen} bytes) and at {@code dst} ({@code dstLen} bytes) share no
     * byte, as for the segments above. It takes addresses so that the direct-buffer helpers keep the views they make
     * next to the native call inside their own method, where the JIT removes them.
     *
     * @throws IllegalArgumentException naming both ranges if they overlap
     */
    public static void disjointNative(long src, long srcLen, long dst, long dstLen) {
        if (overlap(src, srcLen, dst, dstLen)) {
            throw overlapping(src, srcLen, dst, dstLen, "in native memory");
        }
    }

    /**
     * As {@link #disjointNative(long, long, long, long)} for the views of two direct buffers made next to a native
     * call, given with their scopes: a buffer of a closed arena is an {@link IllegalStateException} first (see
     * {@link #alive}), never an overlap found at the address its freed memory had.
     */
    public static void disjointNative(MemorySegment.Scope srcScope, long src, long srcLen, MemorySegment.Scope dstScope,
                                      long dst, long dstLen) {
        alive(srcScope, "src");
        alive(dstScope, "dst");
        disjointNative(src, srcLen, dst, dstLen);
    }

    /**
     * The memory of a segment (or of a direct buffer, through the segment {@link MemorySegment#ofBuffer} gives) is
     * still there: its arena is not closed. Called before anything reads the segment's address (the overlap checks),
     * so that a closed segment is reported as closed, as the JDK reports it, whatever address its freed memory had.
     * Takes the scope, an object the segment already holds, so a view made next to a native call does not escape.
     *
     * @throws IllegalStateException naming the argument if the arena is closed
     */
    public static void alive(MemorySegment.Scope scope, String name) {
        if (!scope.isAlive()) {
            throw new IllegalStateException(name + ": the segment's arena is already closed (its memory was freed)");
        }
    }

    private static boolean overlap(long a, long aLen, long b, long bLen) {
        return aLen > 0 && bLen > 0 && a < b + bLen && b < a + aLen;
    }

    private static IllegalArgumentException overlapping(long s, long srcLen, long d, long dstLen, String where) {
        return new IllegalArgumentException("source and destination overlap: src [" + s + ", " + (s + srcLen)
                + ") and dst [" + d + ", " + (d + dstLen) + ") " + where
                + "; native code reads the input while it writes the output");
    }

    /** Native code may write to {@code dst}: a read-only segment is an {@link IllegalArgumentException}. */
    public static void writable(MemorySegment dst) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("destination segment is read-only");
        }
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
     * @return true when both buffers are writable heap buffers: the {@code ByteBuffer} form then runs as the
     *         {@code byte[]} form over {@code array()} from {@link #start}
     */
    public static boolean arrays(ByteBuffer src, ByteBuffer dst) {
        return src.hasArray() && dst.hasArray();
    }

    /**
     * @return true when both buffers are direct and {@code dst} is writable: the {@code ByteBuffer} form then makes
     *         its views next to the native call (ZstdNative.direct, Lz4Native.direct)
     */
    public static boolean direct(ByteBuffer src, ByteBuffer dst) {
        return src.isDirect() && dst.isDirect() && !dst.isReadOnly();
    }

    /** @return the index in {@code b.array()} of {@code b}'s position */
    public static int start(ByteBuffer b) {
        return b.arrayOffset() + b.position();
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
