package dev.zstdjava.internal;

import dev.zstdjava.CompressionException;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * The steps that the one-shot forms of {@code ZstdCompressor}, {@code ZstdDecompressor}, {@code Lz4Compressor} and
 * {@code Lz4FrameCompressor} share: the range and size checks, the {@link Guard} around the native call, the check
 * of its result, and the routing of a {@code ByteBuffer} form (two heap buffers to the {@code byte[]} form, two
 * direct ones to a call that makes its views next to the native call, any other pair to the {@code MemorySegment}
 * form). A codec supplies its calls and its errors in a private final subclass that its public class holds in a
 * final field (composition: no public class extends this one), and the public class's {@code Compressor} or
 * {@code Decompressor} methods call {@link #arrayCall}, {@link #bufferCall}, {@link #segmentCall} and
 * {@link Encoder#newArrayCall} directly. The field's declared type is that final subclass, so the JIT binds the
 * hooks below without a type check, and a call is as deep as when the public classes extended this one (the public
 * method takes the place of the inherited one): nothing more to inline.
 *
 * <p><b>Allocation:</b> the {@code byte[]} and {@code ByteBuffer} steps pass arrays, offsets and buffers to the
 * subclass, never a {@link MemorySegment} view of them (a view exists only on the failure path, for the error
 * message), so they allocate nothing on the Java heap also where the JIT compiles them without inlining: the views
 * are made in {@link ZstdNative}'s and {@link Lz4Native}'s helpers, next to the downcall.
 *
 * <p><b>Thread safety:</b> as the codec: its {@link #guard} admits one call at a time, or, for a confined
 * object, only its owner thread.
 */
public abstract class OneShot implements AutoCloseable {
    /** Admits one call at a time and frees the native memory. */
    protected final Guard guard;
    /** The subclass's staging buffers, trimmed after each {@code byte[]} call. */
    final Scratch scratch;

    /**
     * @param what    how to name the object in errors
     * @param free    releases the native memory (must not reference the object)
     * @param scratch the staging buffers that {@code free} releases
     * @param confinement {@link Confinement#CONFINED}: only the calling thread may use and close the object (see {@link Guard})
     */
    protected OneShot(String what, Runnable free, Scratch scratch, Confinement confinement) {
        this.guard = new Guard(this, what, free, confinement);
        this.scratch = scratch;
    }

    /** @return true when only the thread that made this object may use it */
    public final boolean isConfined() {
        return guard.isConfined();
    }

    /** Frees the native memory now, or when the call in progress returns. Idempotent. */
    @Override
    public final void close() {
        guard.close();
    }

    /** The {@code byte[]} form with a destination: {@code src[srcOff, +srcLen)} into {@code dst[dstOff, +dstLen)}. */
    public final int arrayCall(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen) {
        long r = arrayResult(src, srcOff, srcLen, dst, dstOff, dstLen);
        if (failed(r)) {
            throw error(r, MemorySegment.ofArray(src).asSlice(srcOff, srcLen), dstLen);
        }
        return (int) r;
    }

    /**
     * As {@link #arrayCall}, but the native result is returned as it is, a failure included, for the caller to read
     * (the {@code tryCompress} forms): the arguments are checked and the call guarded as there.
     */
    public final long arrayResult(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen) {
        Bounds.range(src, srcOff, srcLen, "src");
        Bounds.range(dst, dstOff, dstLen, "dst");
        Bounds.disjoint(src, srcOff, srcLen, dst, dstOff, dstLen);
        checkSizes(srcLen, dstLen);
        guard.enter();
        try {
            return arrays(src, srcOff, srcLen, dst, dstOff, dstLen);
        } finally {
            scratch.trim();
            guard.exit();
        }
    }

    /**
     * The {@code ByteBuffer} form: from the remaining bytes of {@code src} into those of {@code dst}; on success
     * {@code src}'s position moves to its limit and {@code dst}'s past the output, on failure neither moves.
     */
    public final int bufferCall(ByteBuffer src, ByteBuffer dst) {
        if (Bounds.arrays(src, dst)) { // heap buffers: the array form, which makes no view that could escape
            return Bounds.advance(src, dst, arrayCall(src.array(), Bounds.start(src), src.remaining(), dst.array(),
                    Bounds.start(dst), dst.remaining()));
        }
        if (Bounds.direct(src, dst)) { // direct buffers: the views are made next to the native call
            return Bounds.advance(src, dst, call(src, dst, null, src.remaining(), null, dst.remaining()));
        }
        return Bounds.advance(src, dst, segmentCall(MemorySegment.ofBuffer(src), Bounds.writable(dst)));
    }

    /** The {@code MemorySegment} form: all of {@code src} into the start of {@code dst}. */
    public final long segmentCall(MemorySegment src, MemorySegment dst) {
        Bounds.writable(dst);
        Bounds.disjoint(src, dst);
        return call(null, null, src, src.byteSize(), dst, dst.byteSize());
    }

    /**
     * One checked and guarded call: of the direct buffers {@code buffer} and {@code out} when they are given (the
     * segments are null then), else of the segments {@code src} and {@code dst}.
     */
    private long call(ByteBuffer buffer, ByteBuffer out, MemorySegment src, long srcLen, MemorySegment dst,
                      long dstCap) {
        try {
            checkSizes(srcLen, dstCap);
        } catch (RuntimeException e) {
            if (buffer != null) { // direct buffers are checked for overlap next to the native call: an overlap first
                Bounds.disjoint(MemorySegment.ofBuffer(buffer), MemorySegment.ofBuffer(out));
            }
            throw e;
        }
        long r;
        guard.enter();
        try {
            r = buffer != null ? direct(buffer, out) : segments(src, srcLen, dst, dstCap);
        } finally {
            guard.exit();
        }
        if (failed(r)) {
            throw error(r, buffer != null ? MemorySegment.ofBuffer(buffer) : src, dstCap);
        }
        return r;
    }

    /** Checks the sizes of a call before it is admitted (throws the codec's exception). */
    protected abstract void checkSizes(long srcLen, long dstCap);

    /**
     * The native call of the {@code byte[]} forms, on arrays and offsets, under the guard. {@code dst} is null for
     * a compressor's {@code byte[] -> new byte[]} form: the output goes to the start of the output scratch buffer.
     *
     * @return the native result
     */
    protected abstract long arrays(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, long dstCap);

    /** The native call of two direct buffers (their remaining bytes; {@code dst} writable), under the guard. */
    protected abstract long direct(ByteBuffer src, ByteBuffer dst);

    /** The native call of two segments, under the guard. */
    protected abstract long segments(MemorySegment src, long srcLen, MemorySegment dst, long dstCap);

    /**
     * @return true when the native result {@code r} is a failure: negative, as zstd's and lz4 frame errors read as a
     *         signed {@code long} (a codec whose results differ overrides this)
     */
    protected boolean failed(long r) {
        return r < 0;
    }

    /** @return the exception for the failed result {@code r} of a call on {@code src} */
    protected abstract RuntimeException error(long r, MemorySegment src, long dstCap);

    /**
     * A compressor's steps: those of {@link OneShot} and the {@code byte[] -> new byte[]} form through the output
     * scratch buffer.
     */
    public abstract static class Encoder extends OneShot {
        /** See {@link OneShot#OneShot}. */
        protected Encoder(String what, Runnable free, Scratch scratch, Confinement confinement) {
            super(what, free, scratch, confinement);
        }

        /** The {@code byte[] -> new byte[]} form: {@code src[off, off+len)} into a new array of exactly the output. */
        public final byte[] newArrayCall(byte[] src, int off, int len) {
            Bounds.range(src, off, len, "src");
            long bound = capacity(len);
            guard.enter();
            try {
                long r = arrays(src, off, len, null, 0, bound);
                if (failed(r)) {
                    throw error(r, MemorySegment.ofArray(src).asSlice(off, len), bound);
                }
                if (r > Bounds.MAX_ARRAY) { // only near 2 GiB of incompressible input
                    throw new CompressionException(guard.what(), "output of " + r
                            + " bytes is larger than the largest byte[]; use a MemorySegment destination");
                }
                return scratch.copyOut((int) r);
            } finally {
                scratch.trim();
                guard.exit();
            }
        }

        /** Checks the input size of a {@code byte[] -> new byte[]} call; @return the output room it needs */
        protected abstract long capacity(int srcLen);
    }
}
