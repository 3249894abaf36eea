package dev.zstdjava.zstd;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.CallKind;
import dev.zstdjava.internal.Direction;

import java.lang.foreign.MemorySegment;
import java.lang.ref.Reference;
import java.util.Objects;

/**
 * Streaming zstd decompression over {@link MemorySegment}s ({@code ZSTD_decompressStream}): give compressed input
 * in pieces of any size; each call writes what it can. After each call {@link #consumed()} and {@link #produced()}
 * tell how far it got. Concatenated frames, skippable frames and frames without a declared size are decoded in
 * sequence. {@link ZstdInputStream} wraps this class.
 *
 * <p><b>Limit:</b> the output since creation or {@link #reset()} is bounded by
 * {@link Builder#maxDecompressedSize(long)} (default 512 MiB, as {@link ZstdDecompressor}); a call never writes more
 * than one byte past the limit and then throws {@link DecompressionLimitException}. {@link Builder#windowLogMax(int)}
 * caps the window memory a frame may ask for.
 *
 * <p><b>End of input:</b> {@link #isFrameComplete()} tells whether the input so far ended exactly on a frame
 * boundary; input that stops inside a frame is truncated.
 *
 * <p><b>Memory:</b> heap segments are read and written in place through critical downcalls, each on at most
 * {@code zstdjava.criticalHeapLimit} bytes (default 1 MiB) of input and of output so that no call holds off the
 * garbage collector for long (a call on larger heap segments makes partial progress); native segments use regular
 * calls for large work. <b>Thread safety:</b> one call at a time; a concurrent call or a call after
 * {@link #close()} throws {@link IllegalStateException}. <b>Allocation:</b> none per call. Unclosed instances are
 * freed by a {@link java.lang.ref.Cleaner}.
 */
public final class ZstdDecompressStream extends ZstdStream {
    /** {@code ZSTD_DStreamInSize()}: an input piece size that suits zstd (one block plus header). */
    public static final long RECOMMENDED_INPUT_SIZE = ZstdNative.dStreamInSize();
    /** {@code ZSTD_DStreamOutSize()}: an output size that holds one decoded block (128 KiB). */
    public static final long RECOMMENDED_OUTPUT_SIZE = ZstdNative.dStreamOutSize();
    /** ZSTD_FRAMEHEADERSIZE_MAX: a header is always readable from this many bytes. */
    private static final long HEADER_MAX = 18;

    private final long maxDecompressedSize;
    private final ZstdDecompressionDictionary dictionary;
    private long total;
    private boolean frameComplete = true;
    private long frameDict = DictionaryErrors.UNKNOWN;

    private ZstdDecompressStream(ZstdDecompressionParameters p) {
        super(Direction.DECOMPRESS, "ZstdDecompressStream", p::applyTo);
        this.maxDecompressedSize = p.maxDecompressedSize();
        this.dictionary = p.dictionary();
    }

    /** @return a stream with the default limits and no dictionary */
    public static ZstdDecompressStream create() {
        return builder().build();
    }

    /** @return a stream with these limits and dictionary */
    public static ZstdDecompressStream create(ZstdDecompressionParameters parameters) {
        return new ZstdDecompressStream(Objects.requireNonNull(parameters, "parameters"));
    }

    /** @return a builder for a stream with other limits or a dictionary */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the output limit since creation or {@link #reset()}, in bytes */
    public long maxDecompressedSize() {
        return maxDecompressedSize;
    }

    /**
     * Decompresses from {@code src} into {@code dst}.
     *
     * @return 0 when a frame was just completed and fully written out; otherwise a hint of the next input size
     * @throws ZstdException               if the input is malformed or needs another dictionary (the message names
     *                                     the dictionary ids)
     * @throws DecompressionLimitException if the output passes {@link #maxDecompressedSize()}
     */
    public long decompress(MemorySegment src, MemorySegment dst) {
        return step(src, 0, src.byteSize(), dst, 0, dst.byteSize());
    }

    /** @return bytes written since creation or {@link #reset()} (counted against the limit) */
    public long totalProduced() {
        return total;
    }

    /**
     * @return true when no frame is partly decoded: nothing was given yet, or the last frame was completed and
     * written out. False at the end of the input means the input is truncated.
     */
    public boolean isFrameComplete() {
        return frameComplete;
    }

    /** Abandons any frame in progress and restarts the output count; dictionary and limits stay. */
    public void reset() {
        restart();
    }

    @Override
    void restarted() {
        total = 0;
        frameComplete = true;
    }

    /** One ZSTD_decompressStream call on {@code src[srcStart, srcEnd)} into {@code dst[dstStart, dstEnd)}. */
    long step(MemorySegment src, long srcStart, long srcEnd, MemorySegment dst, long dstStart, long dstEnd) {
        Objects.checkFromToIndex(srcStart, srcEnd, src.byteSize());
        Objects.checkFromToIndex(dstStart, dstEnd, dst.byteSize());
        Bounds.writable(dst);
        Bounds.disjoint(src, srcStart, srcEnd - srcStart, dst, dstStart, dstEnd - dstStart);
        guard.enter();
        try {
            long room = maxDecompressedSize - total; // >= 0: passing the limit throws
            if (dstEnd - dstStart > room) {
                dstEnd = dstStart + room + 1; // one byte more tells "over the limit" from "exactly at it"
            }
            if (frameComplete && srcEnd > srcStart) {
                int id = ZstdNative.getDictIdFromFrame(src.asSlice(srcStart, srcEnd - srcStart), srcEnd - srcStart);
                frameDict = id != 0 ? id & 0xFFFFFFFFL : srcEnd - srcStart >= HEADER_MAX ? 0 : DictionaryErrors.UNKNOWN;
            }
            boolean heap = !src.isNative() || !dst.isNative();
            if (heap) { // bound the critical call: at most HEAP_WINDOW bytes in and out
                srcEnd = window(srcStart, srcEnd);
                dstEnd = window(dstStart, dstEnd);
            }
            CallKind kind = heap || (srcEnd - srcStart) + (dstEnd - dstStart) < ZstdNative.CRITICAL_LIMIT
                    ? CallKind.CRITICAL
                    : CallKind.REGULAR;
            positions(dstStart, srcStart);
            long r = ZstdNative.decompressStream(state.cursor, dst, dstEnd, src, srcEnd, kind);
            if (ZstdNative.isError(r)) {
                state.resetSession();
                frameComplete = true;
                throw DictionaryErrors.decodeError(r, "zstd decompress stream",
                        "after " + total + " decompressed bytes", frameDict, dictionary);
            }
            advanced(srcStart, dstStart);
            total += produced;
            if (total > maxDecompressedSize) {
                state.resetSession();
                frameComplete = true;
                throw new DecompressionLimitException("zstd decompress stream", total, maxDecompressedSize);
            }
            if (consumed > 0 || produced > 0) {
                frameComplete = r == 0;
            }
            return r;
        } finally {
            guard.exit();
            Reference.reachabilityFence(this); // the Cleaner must not free the context during the call
        }
    }

    /**
     * Limits and dictionary of a {@link ZstdDecompressStream} (and of a {@link ZstdInputStream}), set one at a time
     * and checked as they are set; each option is described on {@link ZstdDecompressionParameters}.
     */
    public static final class Builder extends DecompressionSetters<Builder> {
        private Builder() {}

        /** @return a new stream with these settings */
        public ZstdDecompressStream build() {
            return new ZstdDecompressStream(parameters);
        }
    }
}
