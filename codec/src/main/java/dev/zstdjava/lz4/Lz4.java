package dev.zstdjava.lz4;

import dev.zstdjava.NativeLibrary;
import dev.zstdjava.internal.Lz4Native;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Static LZ4 block-format convenience: one-shot {@code byte[]} compression and decompression, bounds, and library
 * facts. For frames (self-describing, checksummed, streamable) see {@link Lz4Frame}.
 *
 * <p><b>Thread safety:</b> every method is thread-safe. Calls reuse native states: a platform thread keeps its own
 * compressor and decompressor; virtual threads borrow from a small shared pool.
 *
 * <p><b>Allocation:</b> {@link #compress(byte[], int)} and {@link #decompress(byte[], int)} allocate only the
 * returned array (see {@link Lz4Compressor#compress(byte[])} and
 * {@link Lz4Decompressor#decompress(byte[], int, int, int)}); the bounds are computed in Java.
 */
public final class Lz4 {
    /** {@code LZ4_MAX_INPUT_SIZE}: the largest input one LZ4 block holds, 0x7E000000 bytes. */
    public static final int MAX_INPUT_SIZE = Lz4Native.MAX_INPUT_SIZE;

    private Lz4() {}

    /** @return which liblz4 this library runs on, its version and where it was loaded from */
    public static NativeLibrary library() {
        return Lz4Native.LIBRARY;
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
        return compress(src, Lz4Compressor.DEFAULT_LEVEL);
    }

    /**
     * Compresses {@code src} at {@code level} into a new array holding one raw block.
     *
     * @param level {@code 0} default, {@code -1..-128} fast with acceleration {@code -level}, {@code 1..12} HC
     * @throws IllegalArgumentException if {@code level} is outside {@code -128..12}
     */
    public static byte[] compress(byte[] src, int level) {
        Lz4Compressor.checkLevel(level);
        Lz4Compressor c = Contexts.compressor();
        try {
            c.level(level);
            return c.compress(src, 0, src.length);
        } finally {
            Contexts.release(c);
        }
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
        Lz4Decompressor d = Contexts.decompressor();
        try {
            return d.decompress(src, off, len, decompressedLength);
        } finally {
            Contexts.release(d);
        }
    }

    /** Per-thread compressors for platform threads, a bounded shared pool for virtual threads. */
    private static final class Contexts {
        private static final int POOL_LIMIT = 4 * Runtime.getRuntime().availableProcessors();
        private static final ThreadLocal<Lz4Compressor> COMPRESSOR = new ThreadLocal<>();
        private static final ConcurrentLinkedQueue<Lz4Compressor> POOL = new ConcurrentLinkedQueue<>();
        private static final AtomicInteger POOLED = new AtomicInteger();
        private static final ThreadLocal<Lz4Decompressor> DECOMPRESSOR = new ThreadLocal<>();
        private static final ConcurrentLinkedQueue<Lz4Decompressor> D_POOL = new ConcurrentLinkedQueue<>();
        private static final AtomicInteger D_POOLED = new AtomicInteger();

        static Lz4Decompressor decompressor() {
            if (!Thread.currentThread().isVirtual()) {
                Lz4Decompressor d = DECOMPRESSOR.get();
                if (d == null) {
                    d = Lz4Decompressor.create();
                    DECOMPRESSOR.set(d);
                }
                return d;
            }
            Lz4Decompressor d = D_POOL.poll();
            if (d == null) {
                return Lz4Decompressor.create();
            }
            D_POOLED.decrementAndGet();
            return d;
        }

        static void release(Lz4Decompressor d) {
            if (Thread.currentThread().isVirtual()) {
                if (D_POOLED.incrementAndGet() <= POOL_LIMIT) {
                    D_POOL.offer(d);
                } else {
                    D_POOLED.decrementAndGet();
                    d.close();
                }
            }
        }

        static Lz4Compressor compressor() {
            if (!Thread.currentThread().isVirtual()) {
                Lz4Compressor c = COMPRESSOR.get();
                if (c == null) {
                    c = Lz4Compressor.create();
                    COMPRESSOR.set(c);
                }
                return c;
            }
            Lz4Compressor c = POOL.poll();
            if (c == null) {
                return Lz4Compressor.create();
            }
            POOLED.decrementAndGet();
            return c;
        }

        static void release(Lz4Compressor c) {
            if (Thread.currentThread().isVirtual()) {
                if (POOLED.incrementAndGet() <= POOL_LIMIT) {
                    POOL.offer(c);
                } else {
                    POOLED.decrementAndGet();
                    c.close();
                }
            }
        }
    }
}
