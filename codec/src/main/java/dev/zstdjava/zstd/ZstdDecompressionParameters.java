package dev.zstdjava.zstd;

import dev.zstdjava.Decompressor;
import dev.zstdjava.internal.Bounds;

import java.lang.foreign.MemorySegment;

/**
 * One set of zstd decompression limits, checked once when it is made and applied to a native context by the
 * decompressors that take it. {@link ZstdDecompressor.Builder} and {@link ZstdDecompressStream.Builder} (and so
 * {@link ZstdInputStream}) hold one of these; each option is described here, once.
 *
 * <p>Every {@code with...} method returns a new value and throws {@link IllegalArgumentException}, naming the
 * option, the value and the valid range, for a value zstd would refuse.
 *
 * <p><b>Thread safety:</b> immutable; safe to share. <b>Allocation:</b> each {@code with...} call makes one small
 * object; applying it to a context allocates nothing on the Java heap.
 *
 * @param maxDecompressedSize the most output, in bytes, {@code >= 0}; default
 *                            {@link Decompressor#DEFAULT_MAX_DECOMPRESSED_SIZE} (512 MiB). For
 *                            {@link ZstdDecompressor} it bounds one {@code decompress(byte[])} result (which is at
 *                            most {@code 2^31-9} bytes in any case) and is checked before the array is allocated;
 *                            for {@link ZstdDecompressStream} it bounds the total output since creation or reset
 *                            ({@link Long#MAX_VALUE} for no limit). Forms that write into the caller's destination
 *                            are bounded by its size instead.
 * @param windowLogMax        refuse frames whose window is larger than {@code 2^windowLogMax} bytes, which caps the
 *                            memory a frame may make the decoder allocate; {@link #windowLogMaxRange()} (10..31 on
 *                            64-bit), or 0 for zstd's default (27, 128 MiB). Streams decode within their window. A
 *                            {@link ZstdDecompressor} with 0 decodes frames without a content size in one call into
 *                            at most {@code maxDecompressedSize} bytes, whatever their window, and allocates none;
 *                            with a value, it streams them so that a larger window is refused.
 * @param dictionary          a digested dictionary to decompress with; the decompressor keeps it alive until it is
 *                            closed. A frame that names another dictionary id fails with a message naming both ids.
 *                            Null (default): none. From its second call, a {@link ZstdDecompressor} decodes
 *                            outputs of at most 128 KiB (the destination's size, or the declared size of a new
 *                            array) right after its own native copy of a dictionary of at most 256 KiB, and copies
 *                            them out: libzstd copies matches into a dictionary that ends where the output starts as
 *                            it copies matches within the output, and 10-50 KiB of HTML read in about 0.85x the
 *                            time so. This costs the decompressor the dictionary's size, its tables (about 27 KiB)
 *                            and an area of 4-128 KiB (the largest such output so far), counted by
 *                            {@code contextSize()}. A pair of direct {@code ByteBuffer}s and a new array from frames
 *                            of unknown size are decoded in place (with the dictionary, not next to it).
 */
public record ZstdDecompressionParameters(long maxDecompressedSize, int windowLogMax,
                                          ZstdDecompressionDictionary dictionary) {
    /** zstd's range for {@code windowLogMax}, asked once: {lower, upper}. */
    private static final int[] WINDOW_LOG_MAX =
            Checks.bounds(ZstdNative.dParamBounds(ZstdNative.D_WINDOW_LOG_MAX), 10, 31);

    /** Checks every value; see the class description for the ranges. */
    public ZstdDecompressionParameters {
        Bounds.maxDecompressedSize(maxDecompressedSize);
        if (windowLogMax != 0) {
            Checks.inRange("zstd windowLogMax", windowLogMax, WINDOW_LOG_MAX);
        }
    }

    /** @return the defaults: 512 MiB, zstd's window limit, no dictionary */
    public static ZstdDecompressionParameters defaults() {
        return new ZstdDecompressionParameters(Decompressor.DEFAULT_MAX_DECOMPRESSED_SIZE, 0, null);
    }

    /** @return the {@code windowLogMax} values other than 0 that this libzstd accepts, {lower, upper} */
    public static int[] windowLogMaxRange() {
        return WINDOW_LOG_MAX.clone();
    }

    /** @return these limits with {@link #maxDecompressedSize()} set */
    public ZstdDecompressionParameters withMaxDecompressedSize(long maxDecompressedSize) {
        return new ZstdDecompressionParameters(maxDecompressedSize, windowLogMax, dictionary);
    }

    /** @return these limits with {@link #windowLogMax()} set */
    public ZstdDecompressionParameters withWindowLogMax(int windowLogMax) {
        return new ZstdDecompressionParameters(maxDecompressedSize, windowLogMax, dictionary);
    }

    /** @return these limits with {@link #dictionary()} set */
    public ZstdDecompressionParameters withDictionary(ZstdDecompressionDictionary dictionary) {
        return new ZstdDecompressionParameters(maxDecompressedSize, windowLogMax, dictionary);
    }

    /**
     * Sets the window limit on a fresh {@code ZSTD_DCtx} and references the dictionary.
     *
     * @return the dictionary's shared handle, acquired for the context (the caller releases it when it frees the
     *         context), or null when there is none
     */
    SharedDict applyTo(MemorySegment dctx) {
        if (windowLogMax != 0) {
            long r = ZstdNative.dctxSetParameter(dctx, ZstdNative.D_WINDOW_LOG_MAX, windowLogMax);
            if (ZstdNative.isError(r)) {
                throw Checks.rejected("zstd windowLogMax", windowLogMax, r, WINDOW_LOG_MAX);
            }
        }
        return dictionary == null ? null
                : Checks.reference(dictionary.shared(), dict -> ZstdNative.dctxRefDDict(dctx, dict), dictionary);
    }
}
