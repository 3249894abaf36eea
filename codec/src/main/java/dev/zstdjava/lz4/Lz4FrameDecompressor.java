package dev.zstdjava.lz4;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.Decompressor;
import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.Confinement;
import dev.zstdjava.internal.Guard;
import dev.zstdjava.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.ReadOnlyBufferException;

/**
 * An LZ4 frame decompressor: one native {@code LZ4F_dctx}, reused by every call. Input may hold several
 * concatenated frames and skippable frames; header, block and content checksums are verified when present.
 * <ul>
 *   <li>one-shot: {@code decompress(...)} decodes every frame of the input (four API shapes);</li>
 *   <li>streaming over memory segments: {@link #update} decodes as much as the given input and output allow and
 *       reports {@link #consumed()} and {@link #produced()}; call it again with the rest.</li>
 * </ul>
 *
 * <p><b>Limits:</b> {@link #decompress(byte[])} refuses output larger than {@link #maxDecompressedSize()} (default
 * {@link Decompressor#DEFAULT_MAX_DECOMPRESSED_SIZE}, 512 MiB) before allocating when the frame declares its size,
 * and as soon as it passes the limit otherwise. A
 * declared size is trusted only after lz4 has verified the header checksum, and only if the input could hold it
 * (lz4 expands at most 255 times), so a short forged header cannot make it allocate a large array. The
 * caller-destination forms are bounded by the destination. {@link #update} refuses a frame whose output passes the
 * limit: as {@link dev.zstdjava.zstd.ZstdDecompressStream}, a call never writes more than one byte of the frame past
 * the limit and then throws {@link DecompressionLimitException}.
 *
 * <p><b>Thread safety:</b> one call at a time. A call from a second thread while one runs, or any call after
 * {@link #close()}, throws {@link IllegalStateException}; memory is never freed under a running call. One made by
 * {@link Builder#confined()} belongs to the thread that built it (see {@link Lz4Compressor.Builder#confined()}).
 *
 * <p><b>Allocation:</b> the {@link MemorySegment}, caller-destination {@code byte[]} and {@code ByteBuffer} forms and
 * {@link #update} allocate nothing (lz4 sizes its internal buffers on first use and keeps them). Arrays of at most
 * {@code zstdjava.lz4DecompressStagingLimit} bytes (default 512) in and out are copied through a native buffer of
 * this decompressor, so no view of them exists whatever the JIT inlines; larger heap memory is decoded in place, at most
 * {@code zstdjava.criticalHeapLimit} bytes (default 1 MiB) of input and of output per critical downcall, so no call
 * holds off safepoints for long, through views made next to the native call. {@link #decompress(byte[])} allocates
 * exactly the returned array when the first frame declares its content size; otherwise it decodes into a growing
 * native scratch buffer and copies the result out once.
 */
public final class Lz4FrameDecompressor implements Decompressor {
    private static final long KEEP_SCRATCH = 1 << 20;
    /** {@link #step} result when the destination filled up before the input was decoded. */
    private static final long FULL = -1;
    private static final VarHandle LE_INT = MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);

    private final Native state;
    private final Guard guard;
    private final long maxDecompressedSize;
    private long consumed;
    private long produced;
    private long frameOutput;
    /** Positions of the one-shot loop, kept across {@link #step} calls. */
    private long inPos;
    /** Input bytes before the memory {@link #step} decodes (a staged header), added to the offsets errors report. */
    private long inBase;
    private long outPos;

    /** Which memory the one-shot loop ({@link #step}) reads and writes: the fields below that are set for it. */
    private enum Io {
        /** {@link #srcSegment} into {@link #dstSegment}. */
        SEGMENTS,
        /** {@link #srcSegment} into {@link #dstSegment}, both the context's staging buffers. */
        STAGED,
        /** {@link #srcArray} into {@link #dstArray}. */
        ARRAYS,
        /** {@link #srcArray} into {@link #dstSegment} (the growing scratch buffer). */
        ARRAY_INTO_SEGMENT,
        /** {@link #srcBuffer} into {@link #dstBuffer}. */
        BUFFERS
    }

    /*
     * The memory of the one-shot decode in progress, set by use(...) and cleared by unuse() (so no caller memory is
     * kept reachable after the call); typed fields rather than views, so the views are made next to each native call.
     */
    private Io io;
    private MemorySegment srcSegment;
    private MemorySegment dstSegment;
    private byte[] srcArray;
    private byte[] dstArray;
    private ByteBuffer srcBuffer;
    private ByteBuffer dstBuffer;

    private static final class Native implements Runnable {
        final MemorySegment dctx;
        /** Two native size_t: destination size (offset 0), source size (offset 8), in and out of LZ4F_decompress. */
        final MemorySegment sizes;
        final MemorySegment dstSize;
        final MemorySegment srcSize;
        /** An {@code LZ4F_frameInfo_t} for {@code LZ4F_getFrameInfo}. */
        final MemorySegment info;
        final Lz4Native.FrameDecompression frames;
        MemorySegment scratch = MemorySegment.NULL;
        /** Copies of small heap arrays (input and output), so their calls make no array view. */
        final Scratch staging = new Scratch(Lz4Native.LIBC);

        Native() {
            MemorySegment s = Lz4Native.LIBC.malloc(16 + Lz4Native.FRAME_INFO.byteSize());
            try {
                dctx = Lz4Native.createDecompressionContext();
            } catch (RuntimeException | Error e) {
                Lz4Native.LIBC.free(s);
                throw e;
            }
            sizes = s;
            dstSize = s.asSlice(0, 8);
            srcSize = s.asSlice(8, 8);
            info = s.asSlice(16, Lz4Native.FRAME_INFO.byteSize());
            frames = new Lz4Native.FrameDecompression(dctx, dstSize, srcSize);
        }

        @Override
        public void run() {
            Lz4Native.freeDecompressionContext(dctx);
            Lz4Native.LIBC.free(sizes);
            Lz4Native.LIBC.free(scratch);
            staging.free();
        }
    }

    private Lz4FrameDecompressor(long maxDecompressedSize, Confinement confinement) {
        this.maxDecompressedSize = maxDecompressedSize;
        this.state = new Native();
        this.guard = new Guard(this, "Lz4FrameDecompressor", state, confinement);
    }

    /** @return a decompressor limited to {@link Decompressor#DEFAULT_MAX_DECOMPRESSED_SIZE} (512 MiB) per output */
    public static Lz4FrameDecompressor create() {
        return builder().build();
    }

    /** @return a builder for a decompressor with another limit, or confined to the calling thread */
    public static Builder builder() {
        return new Builder();
    }

    /** @return true when only the thread that built this decompressor may use it ({@link Builder#confined()}) */
    public boolean isConfined() {
        return guard.isConfined();
    }

    /** @return a default decompressor confined to the calling thread (for {@link Lz4Frame}'s own) */
    static Lz4FrameDecompressor confinedToThisThread() {
        return new Lz4FrameDecompressor(DEFAULT_MAX_DECOMPRESSED_SIZE, Confinement.CONFINED);
    }

    /** @return a decompressor without a limit of its own (for {@link Lz4FrameInputStream}, which limits its total) */
    static Lz4FrameDecompressor unlimited() {
        return new Lz4FrameDecompressor(Long.MAX_VALUE, Confinement.SHARED);
    }

    /** @return the largest output of {@link #decompress(byte[])} and of one frame through {@link #update}, in bytes */
    @Override
    public long maxDecompressedSize() {
        return maxDecompressedSize;
    }

    // ---- one-shot ------------------------------------------------------------------------------------------------

    /**
     * Decompresses all frames in {@code src} into the start of {@code dst}.
     *
     * @return the number of bytes written
     * @throws Lz4Exception             if the input is malformed or truncated, or {@code dst} is too small
     * @throws IllegalArgumentException if {@code dst} is read-only
     * @throws IllegalStateException    if this decompressor is closed or in use by another thread
     */
    @Override
    public long decompress(MemorySegment src, MemorySegment dst) {
        Bounds.writable(dst);
        Bounds.disjoint(src, dst);
        long srcLen = src.byteSize();
        long dstCap = dst.byteSize();
        checkInput(srcLen);
        guard.enter();
        try {
            use(Io.SEGMENTS, src, dst);
            return decodeInto(0, srcLen, 0, dstCap);
        } finally {
            unuse();
            guard.exit();
        }
    }

    /**
     * Decompresses all frames in {@code src[srcOff, srcOff+srcLen)} into {@code dst[dstOff, dstOff+dstLen)}, in
     * place.
     *
     * @return the number of bytes written at {@code dst[dstOff]}
     * @throws Lz4Exception if the input is malformed or the destination range too small
     */
    @Override
    public int decompress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen) {
        Bounds.range(src, srcOff, srcLen, "src");
        Bounds.range(dst, dstOff, dstLen, "dst");
        Bounds.disjoint(src, srcOff, srcLen, dst, dstOff, dstLen);
        checkInput(srcLen);
        guard.enter();
        try {
            if (Bounds.smallLz4Decompression(srcLen, dstLen)) { // staged: no array view, so nothing allocated whatever the JIT does
                MemorySegment out = state.staging.get(dstLen);
                use(Io.STAGED, state.staging.stage(src, srcOff, srcLen), out);
                long n = decodeInto(0, srcLen, 0, dstLen);
                Scratch.unstage(out, dst, dstOff, n);
                return (int) n;
            }
            use(src, dst);
            return (int) decodeInto(srcOff, srcLen, dstOff, dstLen);
        } finally {
            unuse();
            state.staging.trim();
            guard.exit();
        }
    }

    /** Decompresses all frames in {@code src[off, off+len)}; see {@link #decompress(byte[])}. */
    @Override
    public byte[] decompress(byte[] src, int off, int len) {
        return decompress(src, off, len, maxDecompressedSize);
    }

    byte[] decompress(byte[] src, int off, int len, long limit) {
        Bounds.range(src, off, len, "src");
        checkInput(len);
        limit = Math.min(limit, Bounds.MAX_ARRAY);
        guard.enter();
        try {
            start();
            long declared = declaredSize(src, off, len);
            if (declared > limit) {
                Lz4Native.resetDecompressionContext(state.dctx);
                throw new DecompressionLimitException("lz4 frame decompress", declared, limit);
            }
            if (declared > (long) Lz4Decompressor.MAX_RATIO * len) {
                Lz4Native.resetDecompressionContext(state.dctx);
                throw new Lz4Exception("lz4 frame decompress", Lz4Exception.FRAME_SIZE_WRONG, "the frame declares "
                        + declared + " bytes of content, impossible for " + len + " input bytes (lz4 expands at most "
                        + Lz4Decompressor.MAX_RATIO + "x); refused before allocating");
            }
            if (declared > 0 && Bounds.smallLz4Decompression(len, declared)) { // staged: the rest of the input after the header
                long header = inPos;
                inPos = 0;
                inBase = header;
                MemorySegment out = state.staging.get(declared);
                use(Io.STAGED, state.staging.stage(src, off + (int) header, len - (int) header), out);
                long n = step(0, len - header, 0, declared);
                if (n == declared) {
                    return state.staging.copyOut((int) declared);
                }
                // more output than the first frame declares: concatenated frames; decode them all below
            } else if (declared > 0) { // the header is consumed: decoding continues after it
                byte[] out = new byte[(int) declared];
                use(src, out);
                long n = step(off, len, 0, declared);
                if (n == declared) {
                    return out;
                }
                // more output than the first frame declares: concatenated frames; decode them all below
            }
            return decodeGrowing(src, off, len, limit);
        } finally {
            unuse();
            state.staging.trim();
            guard.exit();
        }
    }

    /**
     * The content size the first frame declares, read by lz4 itself so the header checksum is verified before the
     * size is trusted. On success the header is consumed ({@link #inPos} moves past it).
     *
     * @return the declared size, or 0 when unknown (or the input does not start with a regular frame)
     */
    private long declaredSize(byte[] in, int off, int len) {
        if (len < 7 || (int) LE_INT.get(in, off) != Lz4Frame.MAGIC) {
            return 0; // a skippable frame or garbage: the decoder reports it
        }
        int headerLen = Math.min(len, Lz4Frame.HEADER_SIZE_MAX); // staged (a copy of at most 19 bytes): no view
        long r = Lz4Native.getFrameInfo(state.frames, state.info, state.staging.stage(in, off, headerLen), headerLen);
        if (Lz4Native.isError(r)) {
            Lz4Native.resetDecompressionContext(state.dctx);
            throw Lz4Checks.frameError(r, "lz4 frame decompress", "bad frame header; input " + len + " bytes");
        }
        long size = Lz4Native.frameInfoContentSize(state.info);
        if (size < 0) {
            Lz4Native.resetDecompressionContext(state.dctx);
            throw Lz4Frame.sizeBeyondLong("lz4 frame decompress", size, len);
        }
        inPos = state.srcSize.get(ValueLayout.JAVA_LONG, 0);
        return size;
    }

    /**
     * Decompresses the remaining bytes of {@code src} into {@code dst} at its position. On success {@code src}'s
     * position moves to its limit and {@code dst}'s position past the output; on failure neither moves.
     *
     * @return the number of bytes written
     */
    @Override
    public int decompress(ByteBuffer src, ByteBuffer dst) {
        if (dst.isReadOnly()) {
            throw new ReadOnlyBufferException();
        }
        if (Bounds.arrays(src, dst)) { // heap buffers: the array form
            return Bounds.advance(src, dst, decompress(src.array(), Bounds.start(src), src.remaining(), dst.array(),
                    Bounds.start(dst), dst.remaining()));
        }
        int srcLen = src.remaining();
        checkInput(srcLen);
        guard.enter();
        try { // the buffers go down as they are: Lz4Native makes their views next to the native call
            if (src.isDirect() && dst.isDirect()) { // one call decodes a whole frame that fits: its own helper
                start();
                long r = Lz4Native.decompressFrame(state.frames, dst, src);
                long read = state.srcSize.get(ValueLayout.JAVA_LONG, 0);
                if (r == 0 && read == srcLen) {
                    return Bounds.advance(src, dst, state.dstSize.get(ValueLayout.JAVA_LONG, 0));
                }
                // an error, more frames or a full destination: decode again from the start, step by step
            }
            use(src, dst);
            return Bounds.advance(src, dst, decodeInto(0, srcLen, 0, dst.remaining()));
        } finally {
            unuse();
            guard.exit();
        }
    }

    private static void checkInput(long srcLen) {
        if (srcLen == 0) {
            throw new Lz4Exception("lz4 frame decompress", Lz4Exception.FRAME_TYPE_UNKNOWN,
                    "input is empty (an LZ4 frame is at least 7 bytes)");
        }
    }

    private void start() {
        Lz4Native.resetDecompressionContext(state.dctx);
        inPos = 0;
        inBase = 0;
        outPos = 0;
    }

    /** Sets the memory of the next one-shot decode: two segments ({@link Io#SEGMENTS} or {@link Io#STAGED}). */
    private void use(Io kind, MemorySegment src, MemorySegment dst) {
        io = kind;
        srcSegment = src;
        dstSegment = dst;
    }

    private void use(byte[] src, byte[] dst) {
        io = Io.ARRAYS;
        srcArray = src;
        dstArray = dst;
    }

    private void use(byte[] src, MemorySegment dst) {
        io = Io.ARRAY_INTO_SEGMENT;
        srcArray = src;
        dstSegment = dst;
    }

    private void use(ByteBuffer src, ByteBuffer dst) {
        io = Io.BUFFERS;
        srcBuffer = src;
        dstBuffer = dst;
    }

    /** Drops the references {@code use} set. */
    private void unuse() {
        srcSegment = null;
        dstSegment = null;
        srcArray = null;
        dstArray = null;
        srcBuffer = null;
        dstBuffer = null;
    }

    /** @return true when the memory in use includes heap memory (its critical calls are then bounded) */
    private boolean heap() {
        return switch (io) {
            case SEGMENTS -> !srcSegment.isNative() || !dstSegment.isNative();
            case STAGED -> false;
            case ARRAYS, ARRAY_INTO_SEGMENT -> true;
            case BUFFERS -> !srcBuffer.isDirect() || !dstBuffer.isDirect();
        };
    }

    /** One {@code LZ4F_decompress} call on the memory in use ({@link Io}), at these offsets and lengths. */
    private long decode(long dstOff, long dstLen, long srcOff, long srcLen) {
        Lz4Native.FrameDecompression f = state.frames;
        return switch (io) {
            case SEGMENTS -> Lz4Native.decompress(f, dstSegment, dstOff, dstLen, srcSegment, srcOff, srcLen);
            case STAGED -> Lz4Native.decompressStaged(f, dstSegment, dstOff, dstLen, srcSegment, srcOff, srcLen);
            case ARRAYS -> Lz4Native.decompress(f, dstArray, dstOff, dstLen, srcArray, srcOff, srcLen);
            case ARRAY_INTO_SEGMENT -> Lz4Native.decompress(f, dstSegment, dstOff, dstLen, srcArray, srcOff, srcLen);
            case BUFFERS -> Lz4Native.decompress(f, dstBuffer, dstOff, dstLen, srcBuffer, srcOff, srcLen);
        };
    }

    /** Decodes every frame of the input in use, {@code [srcOff, +srcLen)}, into its output {@code [dstOff, +dstCap)}. */
    private long decodeInto(long srcOff, long srcLen, long dstOff, long dstCap) {
        start();
        long n = step(srcOff, srcLen, dstOff, dstCap);
        if (n == FULL) {
            Lz4Native.resetDecompressionContext(state.dctx);
            throw new Lz4Exception("lz4 frame decompress", Lz4Exception.DST_MAX_SIZE_TOO_SMALL,
                    "destination too small: " + Bounds.sizes(srcLen, dstCap) + "; filled it after reading "
                            + inPos + " input bytes and more output follows");
        }
        return n;
    }

    /** Decodes into a native scratch buffer that grows up to {@code limit + 1} bytes, then copies out once. */
    private byte[] decodeGrowing(byte[] in, int off, int len, long limit) {
        long cap = Math.min(Math.max(len * 4, 64 << 10), limit + 1);
        if (state.scratch.byteSize() < cap) {
            Lz4Native.LIBC.free(state.scratch);
            state.scratch = MemorySegment.NULL;
            state.scratch = Lz4Native.LIBC.malloc(cap);
        } else {
            cap = Math.min(state.scratch.byteSize(), limit + 1);
        }
        try {
            start();
            while (true) {
                use(in, state.scratch); // the scratch buffer moves as it grows
                long n = step(off, len, 0, cap);
                if (n != FULL) {
                    byte[] out = new byte[(int) n];
                    MemorySegment.copy(state.scratch, ValueLayout.JAVA_BYTE, 0, out, 0, out.length);
                    return out;
                }
                if (cap > limit) {
                    Lz4Native.resetDecompressionContext(state.dctx);
                    throw new DecompressionLimitException("lz4 frame decompress", outPos, limit);
                }
                cap = Math.min(cap * 2, limit + 1);
                state.scratch = Lz4Native.LIBC.realloc(state.scratch, cap);
            }
        } finally {
            if (state.scratch.byteSize() > KEEP_SCRATCH) {
                Lz4Native.LIBC.free(state.scratch);
                state.scratch = MemorySegment.NULL;
            }
        }
    }

    /**
     * Runs LZ4F_decompress from {@link #inPos}/{@link #outPos} until every frame of the input is decoded.
     *
     * @return the total output size, or {@link #FULL} if {@code dst} filled up first (positions kept for a retry
     *         with a larger, content-preserving destination)
     */
    private long step(long srcOff, long srcLen, long dstOff, long dstCap) {
        boolean heap = heap();
        boolean frameDone = false;
        while (true) {
            if (inPos == srcLen && frameDone) {
                return outPos;
            }
            long inAvail = srcLen - inPos;
            long outAvail = dstCap - outPos;
            if (heap) { // bound each critical call: heap memory is decoded in pieces
                inAvail = Math.min(inAvail, Lz4Native.HEAP_WINDOW);
                outAvail = Math.min(outAvail, Lz4Native.HEAP_WINDOW);
            }
            // heap pieces are exact slices: on JDK 21 each heap argument of a critical call is copied for the call
            long r = decode(dstOff + outPos, outAvail, srcOff + inPos, inAvail);
            long wrote = state.dstSize.get(ValueLayout.JAVA_LONG, 0);
            long read = state.srcSize.get(ValueLayout.JAVA_LONG, 0);
            if (Lz4Native.isError(r)) {
                Lz4Native.resetDecompressionContext(state.dctx);
                throw Lz4Checks.frameError(r, "lz4 frame decompress", "input " + (inBase + srcLen) + " bytes, error"
                        + " near input offset " + (inBase + inPos + read) + ", " + (outPos + wrote) + " bytes decoded,"
                        + " output capacity " + dstCap + " bytes");
            }
            inPos += read;
            outPos += wrote;
            frameDone = r == 0;
            if (frameDone) {
                continue;
            }
            if (inPos == srcLen) {
                Lz4Native.resetDecompressionContext(state.dctx);
                throw new Lz4Exception("lz4 frame decompress", Lz4Exception.FRAME_SIZE_WRONG,
                        "truncated input: the last frame is incomplete after " + (inBase + srcLen) + " input bytes ("
                                + outPos + " bytes decoded; the decoder expects " + r + " more input bytes)");
            }
            if (read == 0 && wrote == 0) {
                if (outPos == dstCap) {
                    return FULL;
                }
                Lz4Native.resetDecompressionContext(state.dctx);
                throw new Lz4Exception("lz4 frame decompress", Lz4Exception.NO_FRAME_CODE, "decoder made no progress at input offset "
                        + (inBase + inPos) + " of " + (inBase + srcLen) + " bytes");
            }
        }
    }

    // ---- streaming -----------------------------------------------------------------------------------------------

    /**
     * Decodes from {@code src} into {@code dst} as far as both allow, continuing the frame in progress; concatenated
     * frames follow one another. Afterwards {@link #consumed()} bytes of {@code src} were read and {@link #produced()}
     * bytes written at the start of {@code dst}; give the unread input again in the next call.
     *
     * @return 0 when a frame has just been completed (the next byte starts a new frame), otherwise a hint of how many
     *         input bytes the decoder would like next
     * @throws Lz4Exception                if the input is malformed (the frame is abandoned; see {@link #reset()})
     * @throws DecompressionLimitException if the current frame's output passes {@link #maxDecompressedSize()}
     */
    public long update(MemorySegment src, MemorySegment dst) {
        Bounds.writable(dst);
        Bounds.disjoint(src, dst);
        long srcLen = src.byteSize();
        long dstCap = dst.byteSize();
        boolean heap = !src.isNative() || !dst.isNative();
        guard.enter();
        try {
            consumed = 0;
            produced = 0;
            long room = maxDecompressedSize - frameOutput; // >= 0: passing the limit throws
            if (dstCap > room) {
                dstCap = room + 1; // one byte more tells "over the limit" from "exactly at it"
            }
            // heap memory: bound the critical call; the caller loops on consumed()/produced() anyway
            long r = Lz4Native.decompress(state.frames, dst, 0, heap ? Math.min(dstCap, Lz4Native.HEAP_WINDOW) : dstCap,
                    src, 0, heap ? Math.min(srcLen, Lz4Native.HEAP_WINDOW) : srcLen);
            long wrote = state.dstSize.get(ValueLayout.JAVA_LONG, 0);
            long read = state.srcSize.get(ValueLayout.JAVA_LONG, 0);
            if (Lz4Native.isError(r)) {
                Lz4Native.resetDecompressionContext(state.dctx);
                frameOutput = 0;
                throw Lz4Checks.frameError(r, "lz4 frame decompress", "error within the " + srcLen
                        + " input bytes of this step, output capacity " + dstCap + " bytes");
            }
            consumed = read;
            produced = wrote;
            frameOutput += wrote;
            if (frameOutput > maxDecompressedSize) {
                long reached = frameOutput;
                Lz4Native.resetDecompressionContext(state.dctx);
                frameOutput = 0;
                throw new DecompressionLimitException("lz4 frame decompress", reached, maxDecompressedSize);
            }
            if (r == 0) {
                frameOutput = 0;
            }
            return r;
        } finally {
            guard.exit();
        }
    }

    /** @return the input bytes the last {@link #update} read */
    public long consumed() {
        return consumed;
    }

    /** @return the output bytes the last {@link #update} wrote */
    public long produced() {
        return produced;
    }

    /** Abandons the frame in progress: the next {@link #update} expects the start of a frame. */
    public void reset() {
        guard.enter();
        try {
            Lz4Native.resetDecompressionContext(state.dctx);
            frameOutput = 0;
            consumed = 0;
            produced = 0;
        } finally {
            guard.exit();
        }
    }

    /** Frees the native context now, or when the call in progress returns. Idempotent. */
    @Override
    public void close() {
        guard.close();
    }

    /** The limit and confinement of an {@link Lz4FrameDecompressor}, as {@link Lz4Compressor.Builder}. */
    public static final class Builder extends ContextSettings.Limit<Builder> {
        private Builder() {}

        /** @return a new decompressor (confined to the calling thread after {@link #confined()}) */
        public Lz4FrameDecompressor build() {
            return new Lz4FrameDecompressor(maxDecompressedSize, confinement);
        }
    }
}
