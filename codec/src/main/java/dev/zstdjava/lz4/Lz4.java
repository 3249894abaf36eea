package dev.zstdjava.lz4;

import dev.zstdjava.NativeLibrary;
import dev.zstdjava.internal.ContextCache;


/**
 * Static LZ4 block-format convenience: one-shot {@code byte[]} compression and decompression, bounds, and library
 * facts. For frames (self-describing, checksummed, streamable) see {@link Lz4Frame}.
 *
 * <p><b>Thread safety:</b> every method is thread-safe. Calls reuse native states: a platform thread keeps its own
 * compressor and decompressor, confined to it (no atomic instruction per call); virtual threads borrow shared ones
 * from a small pool.
 *
 * <p><b>Allocation:</b> {@link #compress(byte[], int)} and {@link #decompress(byte[], int)} allocate only the
 * returned array (see {@link Lz4Compressor#compress(byte[])} and
 * {@link Lz4Decompressor#decompress(byte[], int, int, int)}); the bounds are computed in Java.
 */
public final class Lz4 {
    /** The fastest level: the fast compressor with acceleration 128. A compile-time constant. */
    public static final int MIN_LEVEL = -128;
    /** The strongest level: HC level 12. A compile-time constant. */
    public static final int MAX_LEVEL = 12;
    /** lz4's default compressor ({@code LZ4_compress_default}, acceleration 1). A compile-time constant. */
    public static final int DEFAULT_LEVEL = 0;

    private static final ContextCache<Lz4Compressor> COMPRESSORS = new ContextCache<>(
            Lz4Compressor::confinedToThisThread, Lz4Compressor::create, Lz4Compressor::close);
    private static final ContextCache<Lz4Decompressor> DECOMPRESSORS = new ContextCache<>(
            Lz4Decompressor::confinedToThisThread, Lz4Decompressor::create, Lz4Decompressor::close);

    /** {@code LZ4_MAX_INPUT_SIZE}: the largest input one LZ4 block holds, 0x7E000000 bytes. */
    public static final int MAX_INPUT_SIZE = Lz4Native.MAX_INPUT_SIZE;

    private Lz4() {}

    /**
     * @return which liblz4 this library runs on, its version, the platform it was picked for
     *         ({@code linux-aarch64-musl}, ...) and where it was loaded from
     */
    public static NativeLibrary library() {
        return Lz4Native.LIBRARY;
    }

    /** @return {@code level}, checked: an {@link IllegalArgumentException} naming the range unless lz4 accepts it */
    static int checkLevel(int level) {
        if (level < MIN_LEVEL || level > MAX_LEVEL) {
            throw new IllegalArgumentException("lz4 level " + level + " is out of range " + MIN_LEVEL + ".." + MAX_LEVEL
                    + " (0 = default, negative = fast with that acceleration, 1..12 = HC)");
        }
        return level;
    }

    // lz4.h: LZ4_COMPRESSBOUND(isize) = isize + isize/255 + 16
    /**
     * @param srcLen input size in bytes, {@code 0..}{@link #MAX_INPUT_SIZE}
     * @return the largest block lz4 can produce for that input; a destination this large never fails
     * @throws IllegalArgumentException if {@code srcLen} is negative or over {@link #MAX_INPUT_SIZE}
     */
    public static int maxCompressedLength(int srcLen) {
        if (srcLen < 0 || srcLen > MAX_INPUT_SIZE) {
            throw new IllegalArgumentException("srcLen must be 0.." + MAX_INPUT_SIZE + " (LZ4_MAX_INPUT_SIZE), got "
                    + srcLen);
        }
        return srcLen + srcLen / 255 + 16;
    }

    /** Compresses {@code src} with lz4's default compressor into a new array holding one raw block. */
    public static byte[] compress(byte[] src) {
        return compress(src, DEFAULT_LEVEL);
    }

    /**
     * Compresses {@code src} at {@code level} into a new array holding one raw block.
     *
     * @param level {@code 0} default, {@code -1..-128} fast with acceleration {@code -level}, {@code 1..12} HC
     * @throws IllegalArgumentException if {@code level} is outside {@link #MIN_LEVEL}..{@link #MAX_LEVEL}
     */
    public static byte[] compress(byte[] src, int level) {
        checkLevel(level);
        return COMPRESSORS.run(Lz4::compressAt, src, 0, src.length, level);
    }

    private static byte[] compressAt(Lz4Compressor c, byte[] src, int off, int len, long level) {
        c.level((int) level);
        return c.compress(src, off, len);
    }

    /**
     * Decompresses the raw block {@code src} whose decompressed size is exactly {@code decompressedLength}.
     *
     * @throws Lz4Exception if the block is malformed or does not decode to exactly that many bytes
     */
    public static byte[] decompress(byte[] src, int decompressedLength) {
        return decompress(src, 0, src.length, decompressedLength);
    }

    /** {@link #decompress(byte[], int)} of the block {@code src[off, off+len)}. */
    public static byte[] decompress(byte[] src, int off, int len, int decompressedLength) {
        return DECOMPRESSORS.run((d, s, o, n, size) -> d.decompress(s, o, n, (int) size), src, off, len,
                decompressedLength);
    }
}
