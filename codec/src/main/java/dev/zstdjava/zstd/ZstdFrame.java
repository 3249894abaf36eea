package dev.zstdjava.zstd;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Reads zstd frame headers without decompressing. Stateless and thread-safe; allocates nothing (the
 * {@code byte[]} forms read the array in place), except that {@link #decompressedSize} may make a view per frame of
 * input holding a frame without a declared size (it checks that the rest of the input is complete frames).
 */
public final class ZstdFrame {
    /** Returned by {@link #contentSize} when the frame does not declare its size (streaming encoders). */
    public static final long UNKNOWN_SIZE = -1;

    private ZstdFrame() {}

    // zstd.h: ZSTD_getFrameContentSize. Reads only the header of the first frame.
    /**
     * The decompressed size the first frame declares in its header.
     *
     * @return the size in bytes, or {@link #UNKNOWN_SIZE} if the frame does not declare it
     * @throws ZstdException if {@code src} does not start with a complete zstd frame header, or the header declares
     *                       2^63 bytes or more (an unsigned 64-bit field that no real frame fills; a {@code long}
     *                       cannot hold it: {@link ZstdException#CORRUPTION_DETECTED})
     */
    public static long contentSize(MemorySegment src) {
        return declared(ZstdNative.getFrameContentSize(src, src.byteSize()), "zstd frame content size", src.byteSize());
    }

    /** {@link #contentSize(MemorySegment)} of {@code src[off, off+len)}. */
    public static long contentSize(byte[] src, int off, int len) {
        return contentSize(slice(src, off, len));
    }

    // zstd.h: ZSTD_findDecompressedSize. Walks every frame's block headers; no decompression.
    /**
     * The total decompressed size of all frames in {@code src}.
     *
     * @return the size in bytes, or {@link #UNKNOWN_SIZE} if any frame does not declare its size
     * @throws ZstdException if {@code src} is not a sequence of complete frames
     */
    public static long decompressedSize(MemorySegment src) {
        long len = src.byteSize();
        long size = declared(ZstdNative.findDecompressedSize(src, len), "zstd decompressed size", len);
        if (size == UNKNOWN_SIZE) { // libzstd stops at the first frame without a size: check that the rest is frames
            for (long at = 0, n; at < len; at += n) {
                n = ZstdNative.findFrameCompressedSize(src.asSlice(at), len - at);
                if (ZstdNative.isError(n)) {
                    throw notAFrame("zstd decompressed size", len);
                }
            }
        }
        return size;
    }

    /** {@link #decompressedSize(MemorySegment)} of {@code src[off, off+len)}. */
    public static long decompressedSize(byte[] src, int off, int len) {
        return decompressedSize(slice(src, off, len));
    }

    // zstd.h: ZSTD_findFrameCompressedSize. Size of the first frame, skippable frames included.
    /**
     * The compressed size of the first frame in {@code src}: where the next frame, if any, begins.
     *
     * @throws ZstdException if the first frame is malformed or incomplete
     */
    public static long compressedSize(MemorySegment src) {
        long r = ZstdNative.findFrameCompressedSize(src, src.byteSize());
        if (ZstdNative.isError(r)) {
            throw Checks.error(r, "zstd frame compressed size", "input " + src.byteSize() + " bytes");
        }
        return r;
    }

    /** {@link #compressedSize(MemorySegment)} of {@code src[off, off+len)}. */
    public static long compressedSize(byte[] src, int off, int len) {
        return compressedSize(slice(src, off, len));
    }

    // zstd.h: ZSTD_decompressBound. An upper bound valid even for frames without a declared size.
    /**
     * An upper bound of the decompressed size of all frames in {@code src}, also for frames that do not declare
     * their size (then computed from the block count).
     *
     * @throws ZstdException if {@code src} is not a sequence of complete frames
     */
    public static long decompressBound(MemorySegment src) {
        long r = ZstdNative.decompressBound(src, src.byteSize());
        if (r == ZstdNative.CONTENTSIZE_ERROR) {
            throw notAFrame("zstd decompress bound", src.byteSize());
        }
        if (r < 0) {
            throw sizeBeyondLong("zstd decompress bound", r, src.byteSize());
        }
        return r;
    }

    /** {@link #decompressBound(MemorySegment)} of {@code src[off, off+len)}. */
    public static long decompressBound(byte[] src, int off, int len) {
        return decompressBound(slice(src, off, len));
    }

    // zstd.h: ZSTD_getDictID_fromFrame. Reads only the header of the first frame.
    /**
     * The id of the dictionary the first frame was compressed with, as its header records it.
     *
     * @return the id (an unsigned 32-bit value in a long), or 0 if the frame names no dictionary (none was used,
     *         the id was left out, or it is raw content) or the header is incomplete or not a zstd frame
     */
    public static long dictionaryId(MemorySegment src) {
        return ZstdNative.getDictIdFromFrame(src, src.byteSize()) & 0xFFFFFFFFL;
    }

    /** {@link #dictionaryId(MemorySegment)} of {@code src[off, off+len)}. */
    public static long dictionaryId(byte[] src, int off, int len) {
        return dictionaryId(slice(src, off, len));
    }

    private static MemorySegment slice(byte[] src, int off, int len) {
        Objects.checkFromIndexSize(off, len, Objects.requireNonNull(src, "src").length);
        return MemorySegment.ofArray(src).asSlice(off, len);
    }

    /**
     * A size zstd read from frame headers: {@link #UNKNOWN_SIZE}, the size, or an exception for an error or for a
     * declared size of 2^63 bytes or more (an unsigned 64-bit field no real frame fills; as a Java long it would be
     * negative).
     */
    static long declared(long r, String op, long len) {
        if (r == ZstdNative.CONTENTSIZE_ERROR) {
            throw notAFrame(op, len);
        }
        if (r == ZstdNative.CONTENTSIZE_UNKNOWN) {
            return UNKNOWN_SIZE;
        }
        if (r < 0) {
            throw sizeBeyondLong(op, r, len);
        }
        return r;
    }

    static ZstdException sizeBeyondLong(String op, long unsigned, long len) {
        return new ZstdException(op, ZstdException.CORRUPTION_DETECTED, "the frame header declares "
                + Long.toUnsignedString(unsigned) + " decompressed bytes, more than 2^63-1",
                "input " + len + " bytes");
    }

    private static ZstdException notAFrame(String op, long len) {
        return new ZstdException(op, ZstdException.SRC_SIZE_WRONG, "not a complete zstd frame",
                "input " + len + " bytes (bad magic number, truncated frame or trailing garbage)");
    }
}
