package dev.zstdjava.zstd;

import dev.zstdjava.Decompressor;
import dev.zstdjava.NativeLibrary;
import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.ContextCache;


/**
 * Static zstd convenience: one-shot {@code byte[]} compression and decompression, and library facts.
 *
 * <p><b>Thread safety:</b> every method is thread-safe. Calls reuse native contexts: a platform thread keeps its own
 * pair, confined to it (no other thread can reach them, so a call needs no atomic instruction to admit it); virtual
 * threads borrow shared contexts from a small pool (so a million virtual threads do not make a million contexts)
 * and never block while holding one.
 *
 * <p><b>Allocation:</b> {@link #compress(byte[], int)} and {@link #decompress(byte[])} allocate only the returned
 * array (see {@link ZstdCompressor#compress(byte[])} and {@link ZstdDecompressor#decompress(byte[])}).
 */
public final class Zstd {
    /**
     * The fastest (negative) level, {@code ZSTD_minCLevel()}: -131072 in every libzstd this library loads (1.4.0 and
     * later). A compile-time constant, so reading it does not load the native library.
     */
    public static final int MIN_LEVEL = -131072;
    /** The strongest level, {@code ZSTD_maxCLevel()}: 22. A compile-time constant, as {@link #MIN_LEVEL}. */
    public static final int MAX_LEVEL = 22;
    /** zstd's default level, {@code ZSTD_CLEVEL_DEFAULT}: 3. A compile-time constant, as {@link #MIN_LEVEL}. */
    public static final int DEFAULT_LEVEL = 3;
    private static final ContextCache<ZstdCompressor> COMPRESSORS =
            new ContextCache<>(ZstdCompressor::confinedToThisThread, ZstdCompressor::create, ZstdCompressor::close);
    private static final ContextCache<ZstdDecompressor> DECOMPRESSORS =
            new ContextCache<>(ZstdDecompressor::confinedToThisThread, ZstdDecompressor::create,
                    ZstdDecompressor::close);

    private Zstd() {}

    /**
     * @return which libzstd this library runs on, its version, the platform it was picked for
     *         ({@code linux-aarch64-musl}, ...) and where it was loaded from
     */
    public static NativeLibrary library() {
        return ZstdNative.LIBRARY;
    }

    /** Throws an {@link IllegalArgumentException} naming the range unless {@code level} is a level zstd accepts. */
    static void checkLevel(int level) {
        if (level < MIN_LEVEL || level > MAX_LEVEL) {
            throw new IllegalArgumentException("zstd level " + level + " is out of range " + MIN_LEVEL + ".." + MAX_LEVEL);
        }
    }

    // zstd.h: ZSTD_COMPRESSBOUND. Worst-case frame size for srcSize input bytes (single-pass compression).
    /**
     * @param srcSize input size in bytes, {@code >= 0}
     * @return the largest frame zstd can produce for that input; a destination this large never fails
     */
    public static long compressBound(long srcSize) {
        if (srcSize < 0) {
            throw new IllegalArgumentException("srcSize must be >= 0, got " + srcSize);
        }
        long margin = srcSize < (128 << 10) ? ((128 << 10) - srcSize) >> 11 : 0;
        return srcSize + (srcSize >>> 8) + margin;
    }

    /** Compresses {@code src} at the default level into a new array holding one frame. */
    public static byte[] compress(byte[] src) {
        return compress(src, DEFAULT_LEVEL);
    }

    /**
     * Compresses {@code src} at {@code level} into a new array holding one frame.
     *
     * @throws IllegalArgumentException if {@code level} is outside {@link #MIN_LEVEL}..{@link #MAX_LEVEL}
     */
    public static byte[] compress(byte[] src, int level) {
        checkLevel(level);
        return COMPRESSORS.run(Zstd::compressAt, src, 0, src.length, level);
    }

    private static byte[] compressAt(ZstdCompressor c, byte[] src, int off, int len, long level) {
        c.level((int) level);
        return c.compress(src, off, len);
    }

    /**
     * Decompresses all frames in {@code src}, refusing output over
     * {@link dev.zstdjava.Decompressor#DEFAULT_MAX_DECOMPRESSED_SIZE} (512 MiB).
     *
     * @throws dev.zstdjava.DecompressionLimitException if the output would exceed 512 MiB
     * @throws ZstdException                            if the input is malformed or truncated
     */
    public static byte[] decompress(byte[] src) {
        return decompress(src, Decompressor.DEFAULT_MAX_DECOMPRESSED_SIZE);
    }

    /**
     * Decompresses all frames in {@code src}, refusing output over {@code maxDecompressedSize} bytes before
     * allocating it.
     */
    public static byte[] decompress(byte[] src, long maxDecompressedSize) {
        Bounds.maxDecompressedSize(maxDecompressedSize);
        return DECOMPRESSORS.run(ZstdDecompressor::decompress, src, 0, src.length, maxDecompressedSize);
    }
}
