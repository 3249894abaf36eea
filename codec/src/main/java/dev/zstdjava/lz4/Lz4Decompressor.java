package dev.zstdjava.lz4;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.Decompressor;
import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.CallKind;
import dev.zstdjava.internal.Confinement;
import dev.zstdjava.internal.Guard;
import dev.zstdjava.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;

/**
 * An LZ4 block decompressor over lz4's bounds-checked decoders only ({@code LZ4_decompress_safe} and
 * {@code LZ4_decompress_safe_partial}; the unsafe {@code LZ4_decompress_fast} family is never used). A raw block does
 * not record its decompressed size: the caller gives it, exactly or as an upper bound (the destination's size), or
 * the {@code new byte[]} forms of {@link Decompressor} find it by decoding into a growing native buffer, up to
 * {@link #maxDecompressedSize()}. The decoder never writes past the destination and reports malformed input as an
 * {@link Lz4Exception} naming the input offset where decoding stopped.
 *
 * <p><b>Thread safety:</b> one call at a time, as {@link Lz4Compressor}: a concurrent call or a call after
 * {@link #close()} throws {@link IllegalStateException}, and closing never frees memory under a running call. Use one
 * instance per thread, or {@link Lz4}'s static methods, which keep one per thread. One made by
 * {@link Builder#confined()} belongs to the thread that built it (see {@link Lz4Compressor.Builder#confined()}).
 *
 * <p><b>Allocation:</b> the {@link MemorySegment}, caller-destination {@code byte[]} and {@link ByteBuffer} forms
 * allocate nothing on the Java heap, also where the JIT does not inline the call into its caller, for arrays of at
 * most {@code zstdjava.lz4DecompressStagingLimit} bytes (default 512; lz4 decoding is so fast that copying larger
 * arrays costs more than it saves): those are copied through a native buffer of this object, so no view of them
 * exists whatever the JIT decides. The views of larger arrays and of buffers are made next to the native call, where
 * escape analysis removes them when the JIT inlines the call (a call staged through buffers
 * larger than the 1 MiB kept between calls allocates their two segment objects, 160 bytes). Heap arrays are decoded in
 * place through critical downcalls up to
 * {@code zstdjava.criticalHeapLimit} bytes of output (default 1 MiB) and staged through a native buffer of this
 * decompressor above it (kept between calls up to 1 MiB). {@link #decompress(byte[], int, int, int)} and
 * {@link #decompress(byte[], int, int)} allocate exactly the returned array.
 */
public final class Lz4Decompressor implements Decompressor {
    /**
     * LZ4 expands at most 255 times: each input byte yields at most 255 output bytes. A claimed decompressed size
     * above that is refused before any allocation.
     */
    static final int MAX_RATIO = 255;

    private final Scratch scratch;
    private final Guard guard;
    private final long maxDecompressedSize;

    private Lz4Decompressor(long maxDecompressedSize, Confinement confinement) {
        Scratch s = new Scratch(Lz4Native.LIBC);
        this.scratch = s;
        this.maxDecompressedSize = maxDecompressedSize;
        this.guard = new Guard(this, "Lz4Decompressor", s::free, confinement);
    }

    /**
     * @return a decompressor limited to {@link Decompressor#DEFAULT_MAX_DECOMPRESSED_SIZE} (512 MiB) per output of
     *         unknown size; its native memory is the staging buffer of heap arrays, made on first use
     */
    public static Lz4Decompressor create() {
        return builder().build();
    }

    /** @return a builder for a decompressor with another limit, or confined to the calling thread */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a default decompressor confined to the calling thread (for {@link Lz4}'s own) */
    static Lz4Decompressor confinedToThisThread() {
        return new Lz4Decompressor(DEFAULT_MAX_DECOMPRESSED_SIZE, Confinement.CONFINED);
    }

    /** @return true when only the thread that built this decompressor may use it ({@link Builder#confined()}) */
    public boolean isConfined() {
        return guard.isConfined();
    }

    /**
     * @return the largest output of {@link #decompress(byte[])} and {@link #decompress(byte[], int, int)}, which
     *         find the size by decoding, in bytes (the forms given {@code decompressedLength} allocate that many)
     */
    @Override
    public long maxDecompressedSize() {
        return maxDecompressedSize;
    }

    /**
     * Decompresses one raw LZ4 block, all of {@code src}, into the start of {@code dst}.
     *
     * @param dst at least as large as the decompressed size (exact size or an upper bound)
     * @return the number of bytes written
     * @throws Lz4Exception             if the block is malformed or truncated, or {@code dst} too small
     * @throws IllegalArgumentException if {@code dst} is read-only
     */
    @Override
    public long decompress(MemorySegment src, MemorySegment dst) {
        Bounds.writable(dst);
        Bounds.disjoint(src, dst);
        long srcLen = src.byteSize();
        long dstCap = dst.byteSize();
        checkInput(srcLen, dstCap, "lz4 decompress");
        int r = decompress0(src, (int) srcLen, dst, Lz4Checks.capacity(dstCap), Lz4Native.BlockDecoder.SAFE);
        if (r < 0) {
            throw malformed("lz4 decompress", r, srcLen, dstCap);
        }
        return r;
    }

    /**
     * Decompresses the block {@code src[srcOff, srcOff+srcLen)} into {@code dst[dstOff, dstOff+dstLen)}, in place.
     *
     * @return the number of bytes written at {@code dst[dstOff]}
     * @throws IndexOutOfBoundsException if a range lies outside its array
     * @throws Lz4Exception              if the block is malformed or the destination range too small
     */
    @Override
    public int decompress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen) {
        Bounds.range(src, srcOff, srcLen, "src");
        Bounds.range(dst, dstOff, dstLen, "dst");
        Bounds.disjoint(src, srcOff, srcLen, dst, dstOff, dstLen);
        checkInput(srcLen, dstLen, "lz4 decompress");
        int r = decompressArrays(src, srcOff, srcLen, dst, dstOff, dstLen, Lz4Native.BlockDecoder.SAFE);
        if (r < 0) {
            throw malformed("lz4 decompress", r, srcLen, dstLen);
        }
        return r;
    }

    /**
     * Decompresses the block {@code src} whose decompressed size is exactly {@code decompressedLength}.
     *
     * @return a new array of {@code decompressedLength} bytes
     * @throws Lz4Exception if the block is malformed or does not decode to exactly that many bytes
     */
    public byte[] decompress(byte[] src, int decompressedLength) {
        return decompress(src, 0, src.length, decompressedLength);
    }

    /**
     * Decompresses the block {@code src[off, off+len)} whose decompressed size is exactly {@code decompressedLength}.
     * A length that no valid block of {@code len} bytes can produce (over 255 times {@code len}) is refused before
     * allocating.
     *
     * @return a new array of {@code decompressedLength} bytes
     * @throws Lz4Exception if the block is malformed or does not decode to exactly that many bytes
     */
    public byte[] decompress(byte[] src, int off, int len, int decompressedLength) {
        Bounds.range(src, off, len, "src");
        if (decompressedLength < 0 || decompressedLength > Bounds.MAX_ARRAY) {
            throw new IllegalArgumentException("decompressedLength must be 0.." + Bounds.MAX_ARRAY + ", got "
                    + decompressedLength);
        }
        checkInput(len, decompressedLength, "lz4 decompress");
        if ((long) decompressedLength > (long) MAX_RATIO * len) {
            throw new Lz4Exception("lz4 decompress", Lz4Exception.NO_FRAME_CODE, "declared decompressed size " + decompressedLength
                    + " bytes is impossible for a block of " + len + " bytes (lz4 expands at most " + MAX_RATIO
                    + "x, so at most " + (long) MAX_RATIO * len + " bytes)");
        }
        byte[] out = new byte[decompressedLength];
        int r = decompressArrays(src, off, len, out, 0, decompressedLength, Lz4Native.BlockDecoder.SAFE);
        if (r < 0) {
            throw malformed("lz4 decompress", r, len, decompressedLength);
        }
        if (r != decompressedLength) {
            throw new Lz4Exception("lz4 decompress", Lz4Exception.NO_FRAME_CODE, "block decoded to " + r + " bytes, but the declared"
                    + " decompressed size is " + decompressedLength + " bytes (input " + len + " bytes)");
        }
        return out;
    }

    /**
     * Decompresses the block {@code src[off, off+len)}, whose size is not given, into a new array of exactly the
     * decompressed size. The block is decoded into a native buffer that grows (the first try holds 4 times the input,
     * at least 64 KiB; a valid block holds at most 255 times its size), then copied out once; a block whose output
     * would pass {@link #maxDecompressedSize()} is refused when its first {@code maxDecompressedSize() + 1} bytes
     * decode. Where the size is known, {@link #decompress(byte[], int, int, int)} decodes once, straight into the
     * returned array.
     *
     * @return a new array holding the block's content
     * @throws Lz4Exception                if the block is malformed or truncated
     * @throws DecompressionLimitException if the content is larger than {@link #maxDecompressedSize()}
     */
    @Override
    public byte[] decompress(byte[] src, int off, int len) {
        Bounds.range(src, off, len, "src");
        checkInput(len, 0, "lz4 decompress");
        long limit = Math.min(maxDecompressedSize, Bounds.MAX_ARRAY);
        // no valid block of len bytes decodes to more than MAX_RATIO * len; one byte past the limit proves it passed
        int ceiling = (int) Math.min((long) MAX_RATIO * len, limit + 1);
        int cap = (int) Math.min(Math.max((long) len * 4, 64 << 10), ceiling);
        guard.enter();
        try {
            MemorySegment in = scratch.stage(src, off, len); // staged once: no view of the array, native calls only
            while (true) {
                MemorySegment out = scratch.get(cap);
                CallKind kind = cap < Lz4Native.CRITICAL_LIMIT ? CallKind.CRITICAL : CallKind.REGULAR;
                int r = decode(in, len, out, cap, Lz4Native.BlockDecoder.SAFE, kind);
                if (r >= 0 && r <= limit) {
                    return scratch.copyOut(r);
                }
                // the safe decoder does not say whether it ran out of room: a partial decode to cap tells
                int p = r >= 0 ? r : decode(in, len, out, cap, Lz4Native.BlockDecoder.PARTIAL, kind);
                if (p < cap) {
                    throw malformed("lz4 decompress", r, len, cap);
                }
                if (cap == ceiling) { // cap bytes decode and more follow: past the limit (or past 255 x len)
                    if (ceiling > limit) {
                        throw new DecompressionLimitException("lz4 decompress", ceiling, limit);
                    }
                    throw malformed("lz4 decompress", r, len, cap);
                }
                cap = (int) Math.min(cap * 2L, ceiling);
            }
        } finally {
            scratch.trim();
            guard.exit();
        }
    }

    /**
     * Decompresses the remaining bytes of {@code src} (one block) into {@code dst} at its position. On success
     * {@code src}'s position moves to its limit and {@code dst}'s position past the output; on failure neither moves.
     *
     * @return the number of bytes written
     * @throws ReadOnlyBufferException if {@code dst} is read-only
     */
    @Override
    public int decompress(ByteBuffer src, ByteBuffer dst) {
        if (Bounds.arrays(src, dst)) { // heap buffers: the array form, which makes no view that could escape
            return Bounds.advance(src, dst, decompress(src.array(), Bounds.start(src), src.remaining(), dst.array(),
                    Bounds.start(dst), dst.remaining()));
        }
        if (Bounds.direct(src, dst)) { // direct buffers: the views are made next to the native call
            int srcLen = src.remaining();
            int dstCap = dst.remaining();
            checkInput(srcLen, dstCap, "lz4 decompress");
            int r;
            guard.enter();
            try {
                r = Lz4Native.decompress(src, dst);
            } finally {
                guard.exit();
            }
            if (r < 0) {
                throw malformed("lz4 decompress", r, srcLen, dstCap);
            }
            return Bounds.advance(src, dst, r);
        }
        return Bounds.advance(src, dst, decompress(MemorySegment.ofBuffer(src), Bounds.writable(dst)));
    }

    /**
     * Decodes only the first {@code dst.byteSize()} bytes of the block {@code src} (or the whole block if it is
     * shorter), stopping early: cheaper than a full decode when only a prefix is needed.
     * {@code src} must be exactly one whole block; given trailing bytes after the block, lz4 may produce wrong
     * (never out-of-bounds) output.
     *
     * @return the number of bytes written, at most {@code dst.byteSize()}
     * @throws Lz4Exception if the block is malformed
     */
    public long decompressPartial(MemorySegment src, MemorySegment dst) {
        Bounds.writable(dst);
        Bounds.disjoint(src, dst);
        long srcLen = src.byteSize();
        long dstCap = dst.byteSize();
        checkInput(srcLen, dstCap, "lz4 decompress partial");
        int r = decompress0(src, (int) srcLen, dst, Lz4Checks.capacity(dstCap), Lz4Native.BlockDecoder.PARTIAL);
        if (r < 0) {
            throw malformed("lz4 decompress partial", r, srcLen, dstCap);
        }
        return r;
    }

    /**
     * {@link #decompressPartial(MemorySegment, MemorySegment)} from the block {@code src[srcOff, srcOff+srcLen)}
     * into {@code dst[dstOff, dstOff+dstLen)}, in place: decodes at most {@code dstLen} bytes.
     *
     * @return the number of bytes written at {@code dst[dstOff]}
     */
    public int decompressPartial(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen) {
        Bounds.range(src, srcOff, srcLen, "src");
        Bounds.range(dst, dstOff, dstLen, "dst");
        Bounds.disjoint(src, srcOff, srcLen, dst, dstOff, dstLen);
        checkInput(srcLen, dstLen, "lz4 decompress partial");
        int r = decompressArrays(src, srcOff, srcLen, dst, dstOff, dstLen, Lz4Native.BlockDecoder.PARTIAL);
        if (r < 0) {
            throw malformed("lz4 decompress partial", r, srcLen, dstLen);
        }
        return r;
    }

    /**
     * The one decoding call: in place when possible, staged through native memory for large heap arrays.
     *
     * @return bytes written, or lz4's negative error result
     */
    private int decompress0(MemorySegment src, int srcLen, MemorySegment dst, int dstCap,
                            Lz4Native.BlockDecoder decoder) {
        guard.enter();
        try {
            if (src.isNative() && dst.isNative()) {
                return decode(src, srcLen, dst, dstCap, decoder,
                        dstCap < Lz4Native.CRITICAL_LIMIT ? CallKind.CRITICAL : CallKind.REGULAR);
            }
            if (dstCap <= Lz4Native.HEAP_CRITICAL_LIMIT) {
                return decode(src, srcLen, dst, dstCap, decoder, CallKind.CRITICAL);
            }
            try {
                MemorySegment in = scratch.stageInput(src, srcLen);
                MemorySegment out = scratch.stagedOutput(dst, dstCap);
                int r = decode(in, srcLen, out, dstCap, decoder, CallKind.REGULAR);
                Scratch.unstage(out, dst, r);
                return r;
            } finally {
                scratch.trim();
            }
        } finally {
            guard.exit();
        }
    }

    /**
     * The decoding call of the {@code byte[]} forms, on arrays and offsets (no view of them crosses a method
     * boundary, so none is allocated): in place up to {@code zstdjava.criticalHeapLimit} bytes of output, staged
     * through native memory above it (and always on JDK 21).
     *
     * @return bytes written, or lz4's negative error result
     */
    private int decompressArrays(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstCap,
                                 Lz4Native.BlockDecoder decoder) {
        guard.enter();
        try {
            if (dstCap <= Lz4Native.HEAP_CRITICAL_LIMIT && !Bounds.smallLz4Decompression(srcLen, dstCap)) { // small ones are staged
                return Lz4Native.decompress(src, srcOff, dst, dstOff, srcLen, dstCap, decoder);
            }
            try {
                MemorySegment out = scratch.get(dstCap);
                int r = Lz4Native.decompressStaged(scratch.stage(src, srcOff, srcLen), out, srcLen, dstCap, decoder);
                Scratch.unstage(out, dst, dstOff, r);
                return r;
            } finally {
                scratch.trim();
            }
        } finally {
            guard.exit();
        }
    }

    private static int decode(MemorySegment src, int srcLen, MemorySegment dst, int dstCap,
                              Lz4Native.BlockDecoder decoder, CallKind kind) {
        return decoder == Lz4Native.BlockDecoder.PARTIAL
                ? Lz4Native.decompressPartial(src, dst, srcLen, dstCap, dstCap, kind)
                : Lz4Native.decompressSafe(src, dst, srcLen, dstCap, kind);
    }

    private static void checkInput(long srcLen, long dstCap, String op) {
        if (srcLen == 0) {
            throw new Lz4Exception(op, Lz4Exception.NO_FRAME_CODE, "input is empty (an lz4 block is at least 1 byte); output capacity "
                    + dstCap + " bytes");
        }
        if (srcLen > Integer.MAX_VALUE) {
            throw new Lz4Exception(op, Lz4Exception.NO_FRAME_CODE, "input of " + srcLen + " bytes exceeds the lz4 block limit of "
                    + Integer.MAX_VALUE + " bytes");
        }
    }

    private static Lz4Exception malformed(String op, int r, long srcLen, long dstCap) {
        long at = -(long) r - 1;
        return new Lz4Exception(op, Lz4Exception.NO_FRAME_CODE, "malformed or truncated block, or destination too small: decoding stopped at"
                + " input offset " + at + " of " + srcLen + " input bytes, output capacity " + dstCap + " bytes");
    }

    /** Frees the staging buffer now, or when the call in progress returns. Idempotent. */
    @Override
    public void close() {
        guard.close();
    }

    /** The limit and confinement of an {@link Lz4Decompressor}, as {@link Lz4Compressor.Builder}. */
    public static final class Builder extends ContextSettings.Limit<Builder> {
        private Builder() {}

        /** @return a new decompressor (confined to the calling thread after {@link #confined()}) */
        public Lz4Decompressor build() {
            return new Lz4Decompressor(maxDecompressedSize, confinement);
        }
    }
}
