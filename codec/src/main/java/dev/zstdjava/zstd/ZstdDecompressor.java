package dev.zstdjava.zstd;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.Decompressor;
import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.CallKind;
import dev.zstdjava.internal.Confinement;
import dev.zstdjava.internal.Direction;
import dev.zstdjava.internal.OneShot;
import dev.zstdjava.internal.Scratch;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Objects;

/**
 * A zstd decompressor: one native {@code ZSTD_DCtx}, reused by every call. Input may hold several concatenated
 * frames and skippable frames; frames without a declared content size (written by streaming encoders) are accepted.
 *
 * <p><b>Limits:</b> {@link #decompress(byte[])} refuses, before allocating, output larger than
 * {@link Builder#maxDecompressedSize(long)} (default {@link Decompressor#DEFAULT_MAX_DECOMPRESSED_SIZE}, 512 MiB);
 * for frames that do not declare their size the output grows as it is decoded and the call fails as soon as it would pass the limit. The caller-destination forms are
 * bounded by the destination's size. {@link Builder#windowLogMax(int)} caps the memory a frame may ask for.
 *
 * <p><b>Thread safety:</b> one call at a time, as {@link ZstdCompressor}: a concurrent call or a call after
 * {@link #close()} throws {@link IllegalStateException}, and closing never frees memory under a running call. A
 * decompressor built with {@link Builder#confined()} belongs to the thread that built it (see
 * {@link ZstdCompressor.Builder#confined()}): no atomic instruction per call, any other thread refused.
 *
 * <p><b>Allocation:</b> the {@link MemorySegment}, caller-destination {@code byte[]} and {@link ByteBuffer} forms
 * allocate nothing on the Java heap, also where the JIT does not inline the call into its caller: arrays of at most
 * {@code zstdjava.heapStagingLimit} bytes (default 4 KiB) are copied through a native buffer of this object, so no
 * view of them exists whatever the JIT decides; the views of larger arrays and of buffers are made next to the native
 * call, where escape analysis removes them (a call staged through buffers
 * larger than the 1 MiB kept between calls allocates their two segment objects, 160 bytes). Heap arrays are used in place
 * up to {@code zstdjava.criticalHeapLimit} bytes of output (default 1 MiB) and staged through a native buffer above
 * it (see {@link ZstdCompressor}), except that a decompressor built with a dictionary decodes outputs of up to 128 KiB
 * next to its copy of the dictionary and copies them out (see {@link ZstdDecompressionParameters#dictionary()}; not
 * after {@link #useDictionary}).
 * {@link #decompress(byte[])} allocates exactly the returned array when the frames
 * declare their size; otherwise it decodes into a growing native scratch buffer and copies the result out once.
 */
public final class ZstdDecompressor implements Decompressor {
    /** The context and its calls; a final field of a final class, so each call binds to it directly. */
    private final Core core;

    private ZstdDecompressor(ZstdDecompressionParameters p, Confinement confinement) {
        this.core = new Core(new Native(), p, confinement);
    }

    private static final class Native implements Runnable {
        final MemorySegment dctx = ZstdNative.createDCtx();
        /** Two native size_t: output position, input position (for the streaming fallback). */
        final MemorySegment positions = ZstdNative.LIBC.malloc(16);
        final Scratch scratch = new Scratch(ZstdNative.LIBC);
        final OneShotCalls calls = new OneShotCalls(dctx, scratch, ZstdNative.HEAP_CRITICAL_LIMIT);
        SharedDict dict;
        /** The dictionary's copy with the output area after it; null without a dictionary (or a large one). */
        DictionaryPrefix prefix;

        @Override
        public void run() {
            ZstdNative.freeDCtx(dctx);
            if (prefix != null) {
                prefix.free();
            }
            ZstdNative.LIBC.free(positions);
            scratch.free();
            SharedDict.release(dict);
        }
    }

    /** @return a decompressor with the default limits */
    public static ZstdDecompressor create() {
        return builder().build();
    }

    /** @return a decompressor with these limits */
    public static ZstdDecompressor create(ZstdDecompressionParameters parameters) {
        return new ZstdDecompressor(Objects.requireNonNull(parameters, "parameters"), Confinement.SHARED);
    }

    /** @return a decompressor with the default limits confined to the calling thread (for {@link Zstd}'s own) */
    static ZstdDecompressor confinedToThisThread() {
        return new ZstdDecompressor(ZstdDecompressionParameters.defaults(), Confinement.CONFINED);
    }

    /** @return true when only the thread that built this decompressor may use it ({@link Builder#confined()}) */
    public boolean isConfined() {
        return core.isConfined();
    }

    /** @return a builder for a decompressor with other limits */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the largest output {@link #decompress(byte[])} produces, in bytes */
    @Override
    public long maxDecompressedSize() {
        return core.maxDecompressedSize;
    }

    @Override
    public long decompress(MemorySegment src, MemorySegment dst) {
        return core.segmentCall(src, dst);
    }

    @Override
    public int decompress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen) {
        return core.arrayCall(src, srcOff, srcLen, dst, dstOff, dstLen);
    }

    /** Decompresses {@code src[off, off+len)}; see {@link #decompress(byte[])}. */
    @Override
    public byte[] decompress(byte[] src, int off, int len) {
        return core.decompress(src, off, len, core.maxDecompressedSize);
    }

    /**
     * Decompresses all of {@code src} (one frame or several concatenated) into a new array, as
     * {@link #decompress(byte[])} does for an array: frames that declare their size are decoded straight into the
     * returned array (next to the dictionary and copied, for up to 128 KiB with the one it was built with), the others through a growing
     * buffer bounded by {@link #maxDecompressedSize()}. The frame headers
     * are read once for the size and the output is checked against it; the caller need not ask
     * {@link ZstdFrame#decompressedSize} first. {@code src} may be native or on the heap; it is read in place when
     * native (a read-only heap segment is first copied into native memory).
     *
     * @throws DecompressionLimitException if the output would be larger than {@link #maxDecompressedSize()}
     * @throws ZstdException               if {@code src} is empty, not a sequence of complete frames, or corrupt
     */
    public byte[] decompress(MemorySegment src) {
        return core.decompress(src, core.maxDecompressedSize);
    }

    /** For {@link Zstd#decompress(byte[], long)}: the {@code new byte[]} form with another limit. */
    byte[] decompress(byte[] src, int off, int len, long limit) {
        return core.decompress(src, off, len, limit);
    }

    @Override
    public int decompress(ByteBuffer src, ByteBuffer dst) {
        return core.bufferCall(src, dst);
    }

    /**
     * The bytes of native memory the context holds now ({@code ZSTD_sizeof_DCtx}): the context itself and any
     * buffers it keeps between calls, and, once a dictionary's output has been decoded next to it, the dictionary's
     * copy, its tables and that output area (see {@link ZstdDecompressionParameters#dictionary()}). Not counted: this object's staging
     * buffer (at most 1 MiB kept between calls).
     *
     * @throws IllegalStateException if closed, or used by another thread at the same time
     */
    public long contextSize() {
        return core.contextSize();
    }

    /**
     * Decodes the following calls with {@code dictionary}, or without one when it is null, in place of the dictionary
     * it decodes with now. The context references the dictionary's tables, shared with every decompressor of it, and
     * keeps its own memory, so a switch costs next to nothing where a new decompressor makes a new context (about
     * 94 KiB and 5 µs on x86-64): for a reader of values written with many dictionaries in turn. After a switch it
     * decodes in place: the copy next to the dictionary (see {@link ZstdDecompressionParameters#dictionary()}) is
     * kept by a decompressor built with its dictionary only, and is freed here.
     *
     * @return this decompressor
     * @throws IllegalStateException if this decompressor is closed or used by another thread at the same time (it is
     *                               left as it was), or if {@code dictionary} is closed (it then decodes with no
     *                               dictionary)
     * @throws ZstdException         if libzstd refuses the dictionary (it then decodes with no dictionary)
     */
    public ZstdDecompressor useDictionary(ZstdDecompressionDictionary dictionary) {
        core.useDictionary(dictionary);
        return this;
    }

    /** Frees the native context now, or when the call in progress returns. Idempotent. */
    @Override
    public void close() {
        core.close();
    }

    /** The guarded context, its limits and the native calls of the one-shot forms. */
    private static final class Core extends OneShot {
        private final Native state;
        final long maxDecompressedSize;
        private final int windowLogMax;
        /**
         * The dictionary it decodes with now; written under the guard, read by the error messages, which are made
         * after the guard is left (a switch by another thread in between would be named: the caller's race).
         */
        private volatile ZstdDecompressionDictionary dictionary;

        Core(Native state, ZstdDecompressionParameters p, Confinement confinement) {
            super("ZstdDecompressor", state, state.scratch, confinement);
            this.state = state;
            this.maxDecompressedSize = p.maxDecompressedSize();
            this.windowLogMax = p.windowLogMax();
            this.dictionary = p.dictionary();
            guard.setUp(() -> {
                state.dict = p.applyTo(state.dctx);
                state.prefix = DictionaryPrefix.of(p.dictionary());
            });
        }

        /**
         * @return where to decode an output of at most {@code cap} bytes with the dictionary right before it
         *         ({@link DictionaryPrefix}), or null to decode in place: no dictionary, or a larger output
         */
        private MemorySegment nextToDictionary(long cap) {
            DictionaryPrefix prefix = state.prefix;
            return prefix == null ? null : prefix.area(state.dctx, cap);
        }

        void useDictionary(ZstdDecompressionDictionary next) {
            guard.enter();
            try {
                // a frame left half decoded would make the context refuse another dictionary (the streaming path
                // resets after an exception, not after an Error thrown through it)
                ZstdNative.dctxReset(state.dctx, ZstdNative.ResetDirective.SESSION_ONLY);
                SharedDict referenced = null;
                if (next == null) {
                    unreference();
                } else {
                    try {
                        referenced = Checks.reference(next.shared(), d -> ZstdNative.dctxRefDDict(state.dctx, d), next);
                    } catch (RuntimeException e) { // closed or refused: leave no reference to the tables it had
                        unreference();
                        release(null);
                        throw e;
                    }
                }
                release(next);
                state.dict = referenced;
            } finally {
                guard.exit();
            }
        }

        /**
         * Makes the context reference no dictionary. Should libzstd refuse (it cannot after a reset), it throws before
         * anything is freed: the tables the context may still reference are kept until the decompressor is closed.
         */
        private void unreference() {
            long r = ZstdNative.dctxRefDDict(state.dctx, MemorySegment.NULL);
            if (ZstdNative.isError(r)) {
                throw Checks.error(r, "zstd reference dictionary", "no dictionary");
            }
        }

        /** Drops the tables and copy of the dictionary it had (the context references neither now). */
        private void release(ZstdDecompressionDictionary next) {
            SharedDict.release(state.dict);
            state.dict = null;
            if (state.prefix != null) {
                state.prefix.free();
                state.prefix = null;
            }
            dictionary = next;
        }

        long contextSize() {
            guard.enter();
            try {
                return ZstdNative.sizeofDCtx(state.dctx) + (state.prefix == null ? 0 : state.prefix.size());
            } finally {
                guard.exit();
            }
        }

        /** A decoding error; names the dictionary ids when a wrong or missing dictionary may be the cause. */
        private ZstdException decodeError(long r, String detail, MemorySegment src, long srcLen) {
            int frameDict = ZstdNative.getDictIdFromFrame(src, srcLen);
            return DictionaryErrors.decodeError(r, "zstd decompress", detail, frameDict & 0xFFFFFFFFL, dictionary);
        }

        /** The one decompression call: in place when possible, staged through native memory for large heap arrays. */
        @Override
        protected long segments(MemorySegment src, long srcLen, MemorySegment dst, long dstCap) {
            MemorySegment area = nextToDictionary(dstCap);
            if (area == null) {
                return state.calls.segments(Direction.DECOMPRESS, src, srcLen, dst, dstCap);
            }
            try {
                MemorySegment in = state.scratch.stageInput(src, srcLen);
                long r = ZstdNative.decompressDCtx(state.dctx, area, dstCap, in, srcLen,
                        dstCap < ZstdNative.CRITICAL_LIMIT ? CallKind.CRITICAL : CallKind.REGULAR);
                Scratch.unstage(area, dst, r);
                return r;
            } finally {
                state.scratch.trim();
            }
        }

        /**
         * The decompression call of the {@code byte[]} forms, on arrays and offsets (no view of them crosses a method
         * boundary, so none is allocated): in place up to {@code zstdjava.criticalHeapLimit} bytes of output, staged
         * through native memory above it (and always on JDK 21).
         */
        @Override
        protected long arrays(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, long dstCap) {
            MemorySegment area = nextToDictionary(dstCap);
            if (area == null) {
                return state.calls.arrays(Direction.DECOMPRESS, src, srcOff, srcLen, dst, dstOff, dstCap);
            }
            long r = ZstdNative.staged(Direction.DECOMPRESS, state.dctx, area, dstCap,
                    state.scratch.stage(src, srcOff, srcLen), srcLen);
            Scratch.unstage(area, dst, dstOff, r);
            return r;
        }

        /** The {@code new byte[]} form, refusing output over {@code limit}: see {@link ZstdDecompressor}'s. */
        byte[] decompress(byte[] src, int off, int len, long limit) {
            Bounds.range(src, off, len, "src");
            if (len == 0) {
                throw emptyInput();
            }
            limit = Math.min(limit, Bounds.MAX_ARRAY);
            guard.enter();
            try {
                // a small input (or any on JDK 21) is staged once, for the size query and the decoding: no array view
                MemorySegment in = Bounds.small(len, 0) || ZstdNative.HEAP_CRITICAL_LIMIT == 0
                        ? state.scratch.stage(src, off, len) : null;
                long size = in != null ? ZstdNative.findDecompressedSizeStaged(in, len)
                        : ZstdNative.findDecompressedSize(src, off, len);
                if (declaredSize(size, len, limit) == ZstdNative.CONTENTSIZE_UNKNOWN) {
                    return decompressUnknownSize(in != null ? in : MemorySegment.ofArray(src).asSlice(off, len), len, limit);
                }
                MemorySegment area = nextToDictionary(size);
                if (area != null) { // staged, decoded next to the dictionary, then copied into the new array
                    long r = ZstdNative.staged(Direction.DECOMPRESS, state.dctx, area, size,
                            in != null ? in : state.scratch.stage(src, off, len), len);
                    checkDecoded(r, size, src, off, len);
                    byte[] out = new byte[(int) size];
                    MemorySegment.copy(area, ValueLayout.JAVA_BYTE, 0, out, 0, out.length);
                    return out;
                }
                if (in != null && (Bounds.small(len, size) || size > ZstdNative.HEAP_CRITICAL_LIMIT)) {
                    // staged: decode into the output buffer, then one copy into the new array (allocates only that)
                    long r = ZstdNative.staged(Direction.DECOMPRESS, state.dctx, state.scratch.get(size), size, in, len);
                    checkDecoded(r, size, src, off, len);
                    return state.scratch.copyOut((int) size);
                }
                byte[] out = new byte[(int) size];
                long r = state.calls.arrays(Direction.DECOMPRESS, src, off, len, out, 0, size);
                checkDecoded(r, size, src, off, len);
                return out;
            } finally {
                state.scratch.trim();
                guard.exit();
            }
        }

        /**
         * Checks what ZSTD_findDecompressedSize returned for {@code len} bytes of input.
         * @return {@code size}, or {@link ZstdNative#CONTENTSIZE_UNKNOWN}; throws for an error, a size of 2^63 or more
         *         (found by fuzzing: it reached {@code new byte[(int) size]}) and a size over {@code limit}
         */
        private static long declaredSize(long size, long len, long limit) {
            if (size == ZstdNative.CONTENTSIZE_ERROR) {
                throw new ZstdException("zstd decompress", ZstdException.SRC_SIZE_WRONG,
                        "input is not a sequence of complete zstd frames",
                        "input " + len + " bytes (bad magic number, truncated frame or trailing garbage)");
            }
            if (size == ZstdNative.CONTENTSIZE_UNKNOWN) {
                return size;
            }
            if (size < 0) {
                throw ZstdFrame.sizeBeyondLong("zstd decompress", size, len);
            }
            if (size > limit) {
                throw new DecompressionLimitException("zstd decompress", size, limit);
            }
            // each block of a frame takes at least its 3-byte header and decodes to at most BLOCK_SIZE_MAX bytes: a
            // larger declared size is corrupt, and refused before it is allocated (a 20-byte frame declaring 500 MiB)
            if (size > 0 && len / 3 < (size - 1) / BLOCK_SIZE_MAX + 1) {
                throw new ZstdException("zstd decompress", ZstdException.CORRUPTION_DETECTED,
                        "declared content size impossible for the input's length", "declared " + size
                        + " bytes in " + len + " bytes of input (each block at most " + BLOCK_SIZE_MAX
                        + " bytes and at least 3 bytes long)");
            }
            return size;
        }

        /** zstd's largest block, ZSTD_BLOCKSIZE_MAX: no block decodes to more. */
        private static final long BLOCK_SIZE_MAX = 128 << 10;

        /** The {@code new byte[]} form of a segment: a writable heap array in place, native memory in place. */
        byte[] decompress(MemorySegment src, long limit) {
            long len = src.byteSize();
            if (!src.isNative() && !src.isReadOnly() && src.heapBase().orElse(null) instanceof byte[] array
                    && len <= Integer.MAX_VALUE) {
                return decompress(array, (int) src.address(), (int) len, limit);
            }
            if (len == 0) {
                throw emptyInput();
            }
            limit = Math.min(limit, Bounds.MAX_ARRAY);
            guard.enter();
            try {
                MemorySegment in = state.scratch.stageInput(src, len);
                long size = ZstdNative.findDecompressedSize(in, len);
                if (declaredSize(size, len, limit) == ZstdNative.CONTENTSIZE_UNKNOWN) {
                    return decompressUnknownSize(in, len, limit);
                }
                byte[] out = new byte[(int) size];
                long r = segments(in, len, MemorySegment.ofArray(out), size);
                if (ZstdNative.isError(r)) {
                    // a staged copy of a heap src may have been freed by the call (trimmed): name the frame's
                    // dictionary from a new copy
                    throw decodeError(r, Bounds.sizes(len, size), state.scratch.stageInput(src, len), len);
                }
                checkSize(r, size);
                return out;
            } finally {
                state.scratch.trim();
                guard.exit();
            }
        }

        /** Throws unless the one-shot decoding of a frame of declared {@code size} ended with result {@code r == size}. */
        private void checkDecoded(long r, long size, byte[] src, int off, int len) {
            if (ZstdNative.isError(r)) {
                throw decodeError(r, Bounds.sizes(len, size), MemorySegment.ofArray(src).asSlice(off, len), len);
            }
            checkSize(r, size);
        }

        private static void checkSize(long r, long size) {
            if (r != size) {
                throw new ZstdException("zstd decompress", ZstdException.CORRUPTION_DETECTED,
                        "decoded size differs from the declared content size", "declared " + size + ", decoded " + r);
            }
        }

        /**
         * Decodes frames of unknown size. Without a {@link Builder#windowLogMax(int) windowLogMax}, in one call
         * ({@code ZSTD_decompressDCtx}) into the scratch buffer: the output is the window, so the context allocates
         * and keeps no window buffer (streaming would allocate the frame's whole window, 128 MiB for a frame written
         * at level 22, and keep it in the context for later calls). With one, the frames are streamed, so that a
         * frame asking for a larger window is refused as the caller asked.
         */
        private byte[] decompressUnknownSize(MemorySegment in, long len, long limit) {
            return windowLogMax == 0 ? decodeWithoutWindow(in, len, limit) : stream(in, len, limit);
        }

        /**
         * One {@code ZSTD_decompressDCtx} call into the scratch buffer, sized by {@code ZSTD_decompressBound} (a
         * frame's blocks each decode to at most its block size) and at most {@code limit + 1} bytes; grown and called
         * again when zstd finds it too small. Output that does not fit {@code limit + 1} bytes is over the limit.
         */
        private byte[] decodeWithoutWindow(MemorySegment in, long len, long limit) {
            in = state.scratch.stageInput(in, len); // native input: the call may be long, and regular
            long cap = Math.min(initialCapacity(in, len), limit + 1);
            while (true) {
                long r = ZstdNative.decompressDCtx(state.dctx, state.scratch.get(cap), cap, in, len,
                        cap < ZstdNative.CRITICAL_LIMIT ? CallKind.CRITICAL : CallKind.REGULAR);
                if (!ZstdNative.isError(r)) {
                    if (r > limit) {
                        throw new DecompressionLimitException("zstd decompress", r, limit);
                    }
                    return state.scratch.copyOut((int) r);
                }
                if (ZstdNative.errorCode(r) != ZstdException.DST_SIZE_TOO_SMALL) {
                    throw decodeError(r, "input " + len + " bytes, output buffer " + cap + " bytes", in, len);
                }
                if (cap > limit) {
                    throw new DecompressionLimitException("zstd decompress", cap, limit);
                }
                cap = Math.min(cap * 2, limit + 1);
            }
        }

        /** {@code ZSTD_decompressBound}, or, where the library lacks it or refuses the input, a guess to grow from. */
        private static long initialCapacity(MemorySegment in, long len) {
            long guess = Math.max(len * 4, 64 << 10);
            try {
                long bound = ZstdNative.decompressBound(in, len);
                return bound >= 0 ? Math.max(bound, 1) : guess; // CONTENTSIZE_ERROR is negative
            } catch (UnsupportedOperationException absent) {
                return guess;
            }
        }

        /**
         * Streams frames of unknown size into the scratch buffer, growing it up to {@code limit}, then copies out.
         * Each native call produces at most {@link ZstdNative#HEAP_WINDOW} bytes, so a critical call on the
         * heap input stays short.
         */
        private byte[] stream(MemorySegment in, long len, long limit) {
            MemorySegment pos = state.positions;
            ZstdNative.StreamCursor cursor = new ZstdNative.StreamCursor(state.dctx, pos, pos.asSlice(8));
            ZstdNative.dctxReset(state.dctx, ZstdNative.ResetDirective.SESSION_ONLY);
            long cap = Math.min(Math.max(len * 4, 64 << 10), limit + 1);
            state.scratch.get(cap);
            cap = Math.min(state.scratch.current().byteSize(), limit + 1);
            pos.set(ValueLayout.JAVA_LONG, 0, 0L);
            pos.set(ValueLayout.JAVA_LONG, 8, 0L);
            try {
                long lastIn = -1;
                long lastOut = -1;
                while (true) {
                    long outPos = pos.get(ValueLayout.JAVA_LONG, 0);
                    long window = Math.min(cap, outPos + ZstdNative.HEAP_WINDOW);
                    long r = ZstdNative.decompressStream(cursor, state.scratch.current(), window, in, len,
                            CallKind.CRITICAL);
                    if (ZstdNative.isError(r)) {
                        throw decodeError(r, "input " + len + " bytes, decoded "
                                + pos.get(ValueLayout.JAVA_LONG, 0) + " bytes so far"
                                + (windowLogMax == 0 ? "" : ", windowLogMax " + windowLogMax), in, len);
                    }
                    outPos = pos.get(ValueLayout.JAVA_LONG, 0);
                    long inPos = pos.get(ValueLayout.JAVA_LONG, 8);
                    if (outPos > limit) {
                        throw new DecompressionLimitException("zstd decompress", outPos, limit);
                    }
                    if (r == 0 && inPos == len) {
                        byte[] out = new byte[(int) outPos];
                        MemorySegment.copy(state.scratch.current(), ValueLayout.JAVA_BYTE, 0, out, 0, out.length);
                        return out;
                    }
                    if (outPos == lastOut && inPos == lastIn) {
                        throw new ZstdException("zstd decompress", ZstdException.CORRUPTION_DETECTED,
                                "decoder made no progress", "input " + len + " bytes, at input byte " + inPos);
                    }
                    lastOut = outPos;
                    lastIn = inPos;
                    if (outPos == cap) {
                        cap = Math.min(cap * 2, limit + 1);
                        state.scratch.grow(cap);
                    } else if (inPos == len && outPos < window) {
                        throw new ZstdException("zstd decompress", ZstdException.SRC_SIZE_WRONG,
                                "truncated input: the last frame is incomplete",
                                "input " + len + " bytes, decoded " + outPos + " bytes");
                    }
                }
            } catch (RuntimeException e) {
                ZstdNative.dctxReset(state.dctx, ZstdNative.ResetDirective.SESSION_ONLY);
                throw e;
            } finally {
                state.scratch.trim();
            }
        }

        @Override
        protected void checkSizes(long srcLen, long dstCap) {
            if (srcLen == 0) {
                throw emptyInput();
            }
        }

        @Override
        protected long direct(ByteBuffer src, ByteBuffer dst) {
            return ZstdNative.decompressDirect(state.dctx, dst, src);
        }

        @Override
        protected RuntimeException error(long r, MemorySegment src, long dstCap) {
            return decodeError(r, Bounds.sizes(src.byteSize(), dstCap), src, src.byteSize());
        }

        private static ZstdException emptyInput() {
            return new ZstdException("zstd decompress", ZstdException.SRC_SIZE_WRONG, "input is empty",
                    "a zstd frame is at least 9 bytes");
        }
    }

    /**
     * Limits and dictionary of a {@link ZstdDecompressor}, set one at a time and checked as they are set; each
     * option is described on {@link ZstdDecompressionParameters}.
     */
    public static final class Builder extends DecompressionSetters<Builder> {
        private Confinement confinement = Confinement.SHARED;

        private Builder() {}

        /**
         * The decompressor will belong to the thread that calls {@link #build()}: only that thread may call it and
         * close it, without the atomic instruction per call; any other thread is refused with
         * {@link IllegalStateException} (as {@link ZstdCompressor.Builder#confined()}).
         *
         * @return this builder
         */
        public Builder confined() {
            this.confinement = Confinement.CONFINED;
            return this;
        }

        /** @return a new decompressor with these limits (confined to the calling thread after {@link #confined()}) */
        public ZstdDecompressor build() {
            return new ZstdDecompressor(parameters, confinement);
        }
    }
}
