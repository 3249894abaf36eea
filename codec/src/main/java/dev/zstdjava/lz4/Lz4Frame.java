package dev.zstdjava.lz4;

import dev.zstdjava.Decompressor;
import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.ContextCache;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Static LZ4 frame-format ({@code LZ4F}) convenience: one-shot {@code byte[]} compression and decompression,
 * bounds, header inspection, and the frame {@link Options}. Frames are the interchange format of the {@code lz4}
 * command-line tool and of other lz4 libraries: self-describing (magic number, block size, optional content size and
 * checksums) and streamable. For reusable contexts and the allocation-free segment API see
 * {@link Lz4FrameCompressor} and {@link Lz4FrameDecompressor}; for streams, {@link Lz4FrameOutputStream} and
 * {@link Lz4FrameInputStream}.
 *
 * <p><b>Thread safety:</b> every method is thread-safe. Calls reuse native contexts: a platform thread keeps its own
 * pair; virtual threads borrow from a small shared pool.
 *
 * <p><b>Allocation:</b> {@link #compress(byte[], Options)} and {@link #decompress(byte[])} allocate only the returned
 * array when the frame declares its content size (see {@link Lz4FrameCompressor#compress(byte[])} and
 * {@link Lz4FrameDecompressor#decompress(byte[])}); {@link #maxCompressedLength} and {@link #contentSize} are pure
 * Java.
 */
public final class Lz4Frame {
    private static final ContextCache<Lz4FrameCompressor> COMPRESSORS = new ContextCache<>(
            Lz4FrameCompressor::confinedToThisThread, Lz4FrameCompressor::create, Lz4FrameCompressor::close);
    private static final ContextCache<Lz4FrameDecompressor> DECOMPRESSORS = new ContextCache<>(
            Lz4FrameDecompressor::confinedToThisThread, Lz4FrameDecompressor::create, Lz4FrameDecompressor::close);

    /** Returned by {@link #contentSize} when the frame does not declare its size. */
    public static final long UNKNOWN_SIZE = -1;
    /** The LZ4 frame magic number, {@code 0x184D2204}, stored little-endian. */
    public static final int MAGIC = 0x184D2204;

    static final int HEADER_SIZE_MAX = 19;
    private static final int BLOCK_HEADER = 4;
    private static final int CHECKSUM = 4;

    private Lz4Frame() {}

    /** The largest block of a frame: larger blocks compress slightly better and need more memory on both sides. */
    public enum BlockSize {
        /** 64 KiB ({@code LZ4F_max64KB}). */
        KB_64(4),
        /** 256 KiB ({@code LZ4F_max256KB}). */
        KB_256(5),
        /** 1 MiB ({@code LZ4F_max1MB}). */
        MB_1(6),
        /** 4 MiB ({@code LZ4F_max4MB}). */
        MB_4(7);

        private final int id;

        BlockSize(int id) {
            this.id = id;
        }

        /** @return the block size in bytes */
        public int bytes() {
            return 1 << (8 + 2 * id);
        }

        /** @return lz4's {@code LZ4F_blockSizeID_t} value, 4..7 */
        int id() {
            return id;
        }
    }

    /**
     * How frames are written. Immutable; change one setting with the {@code with...} methods, starting from
     * {@link #DEFAULT}.
     *
     * @param level            as {@link Lz4Compressor}: {@code 0} default, {@code -1..-128} fast with acceleration
     *                         {@code -level}, {@code 1..12} HC (the frame API runs HC 1 as HC 2, the same algorithm)
     * @param blockSize        the largest block
     * @param blockIndependent blocks do not reference earlier blocks: slightly larger output, readable by decoders
     *                         that only support independent blocks (lz4-java's frame stream); the lz4 CLI default
     * @param blockChecksum    append an XXH32 checksum of each compressed block
     * @param contentChecksum  append an XXH32 checksum of the whole content (the lz4 CLI default)
     * @param contentSize      declare the content size in the header (one-shot compression, where it is known)
     */
    public record Options(int level, BlockSize blockSize, boolean blockIndependent, boolean blockChecksum,
                          boolean contentChecksum, boolean contentSize) {
        /** Level 0, 64 KiB independent blocks, content checksum and content size on, block checksums off. */
        public static final Options DEFAULT = new Options(0, BlockSize.KB_64, true, false, true, true);

        /**
         * @throws IllegalArgumentException if {@code level} is outside {@code -128..12}
         */
        public Options {
            Lz4.checkLevel(level);
            Objects.requireNonNull(blockSize, "blockSize");
        }

        /** @return these options at {@code level} */
        public Options withLevel(int level) {
            return new Copy(this).level(level).make();
        }

        /** @return these options with {@code blockSize} */
        public Options withBlockSize(BlockSize blockSize) {
            return new Copy(this).blockSize(blockSize).make();
        }

        /** @return these options with independent (true) or linked (false) blocks */
        public Options withBlockIndependent(boolean blockIndependent) {
            return new Copy(this).blockIndependent(blockIndependent).make();
        }

        /** @return these options with block checksums on or off */
        public Options withBlockChecksum(boolean blockChecksum) {
            return new Copy(this).blockChecksum(blockChecksum).make();
        }

        /** @return these options with the content checksum on or off */
        public Options withContentChecksum(boolean contentChecksum) {
            return new Copy(this).contentChecksum(contentChecksum).make();
        }

        /** @return these options with the content size declared or not */
        public Options withContentSize(boolean contentSize) {
            return new Copy(this).contentSize(contentSize).make();
        }

        /** A copy to change one component of: the one place that lists every component to make a value. */
        private static final class Copy {
            private int level;
            private BlockSize blockSize;
            private boolean blockIndependent;
            private boolean blockChecksum;
            private boolean contentChecksum;
            private boolean contentSize;

            Copy(Options o) {
                level = o.level;
                blockSize = o.blockSize;
                blockIndependent = o.blockIndependent;
                blockChecksum = o.blockChecksum;
                contentChecksum = o.contentChecksum;
                contentSize = o.contentSize;
            }

            Copy level(int level) {
                this.level = level;
                return this;
            }

            Copy blockSize(BlockSize blockSize) {
                this.blockSize = blockSize;
                return this;
            }

            Copy blockIndependent(boolean blockIndependent) {
                this.blockIndependent = blockIndependent;
                return this;
            }

            Copy blockChecksum(boolean blockChecksum) {
                this.blockChecksum = blockChecksum;
                return this;
            }

            Copy contentChecksum(boolean contentChecksum) {
                this.contentChecksum = contentChecksum;
                return this;
            }

            Copy contentSize(boolean contentSize) {
                this.contentSize = contentSize;
                return this;
            }

            Options make() {
                return new Options(level, blockSize, blockIndependent, blockChecksum, contentChecksum, contentSize);
            }
        }

        /** @return the {@code compressionLevel} of {@code LZ4F_preferences_t} for {@link #level()} */
        int frameLevel() {
            if (level > 0) {
                return Math.max(level, 2); // LZ4F runs levels below 2 with the fast compressor; HC 1 == HC 2
            }
            return level < 0 ? level + 1 : 0; // LZ4F acceleration = 1 - level
        }
    }

    // lz4frame.c: LZ4F_compressFrameBound = max header + LZ4F_compressBound_internal(srcSize, prefs, autoFlush, 0)
    /**
     * The largest frame {@link Lz4FrameCompressor#compress} writes for {@code srcLen} bytes with {@code options};
     * the destination of a one-shot compression must be at least this large.
     *
     * @throws IllegalArgumentException if {@code srcLen} is negative
     */
    public static long maxCompressedLength(long srcLen, Options options) {
        if (srcLen < 0) {
            throw new IllegalArgumentException("srcLen must be >= 0, got " + srcLen);
        }
        long blockSize = options.blockSize().bytes();
        long fullBlocks = srcLen / blockSize;
        long lastBlock = srcLen % blockSize;
        long blocks = fullBlocks + (lastBlock > 0 ? 1 : 0);
        long blockOverhead = BLOCK_HEADER + (options.blockChecksum() ? CHECKSUM : 0);
        return HEADER_SIZE_MAX + blockOverhead * blocks + srcLen + BLOCK_HEADER
                + (options.contentChecksum() ? CHECKSUM : 0);
    }

    // lz4frame.c: LZ4F_compressBound with autoFlush off: up to blockSize-1 bytes may already be buffered
    /** The destination {@link Lz4FrameCompressor#update} needs for {@code srcLen} input bytes with {@code options}. */
    static long updateBound(long srcLen, Options options) {
        long blockSize = options.blockSize().bytes();
        long maxSrc = srcLen + blockSize - 1;
        long fullBlocks = maxSrc / blockSize;
        long lastBlock = srcLen == 0 ? maxSrc % blockSize : 0;
        long blocks = fullBlocks + (lastBlock > 0 ? 1 : 0);
        long blockOverhead = BLOCK_HEADER + (options.blockChecksum() ? CHECKSUM : 0);
        return blockOverhead * blocks + blockSize * fullBlocks + lastBlock + BLOCK_HEADER
                + (options.contentChecksum() ? CHECKSUM : 0);
    }

    /** Compresses {@code src} with {@link Options#DEFAULT} into a new array holding one frame. */
    public static byte[] compress(byte[] src) {
        return compress(src, 0, src.length, Options.DEFAULT);
    }

    /** Compresses {@code src} with {@code options} into a new array holding one frame. */
    public static byte[] compress(byte[] src, Options options) {
        return compress(src, 0, src.length, options);
    }

    /** Compresses {@code src[off, off+len)} with {@code options} into a new array holding one frame. */
    public static byte[] compress(byte[] src, int off, int len, Options options) {
        Objects.requireNonNull(options, "options");
        Lz4FrameCompressor c = COMPRESSORS.acquire();
        try {
            c.options(options);
            return c.compress(src, off, len);
        } finally {
            COMPRESSORS.release(c);
        }
    }

    /**
     * Decompresses all frames in {@code src}, refusing output over
     * {@link Decompressor#DEFAULT_MAX_DECOMPRESSED_SIZE} (512 MiB).
     *
     * @throws dev.zstdjava.DecompressionLimitException if the output would exceed 512 MiB
     * @throws Lz4Exception                             if the input is malformed or truncated
     */
    public static byte[] decompress(byte[] src) {
        return decompress(src, 0, src.length, Decompressor.DEFAULT_MAX_DECOMPRESSED_SIZE);
    }

    /** Decompresses all frames in {@code src}, refusing output over {@code maxDecompressedSize} bytes. */
    public static byte[] decompress(byte[] src, long maxDecompressedSize) {
        return decompress(src, 0, src.length, maxDecompressedSize);
    }

    /** Decompresses all frames in {@code src[off, off+len)}, refusing output over {@code maxDecompressedSize} bytes. */
    public static byte[] decompress(byte[] src, int off, int len, long maxDecompressedSize) {
        Bounds.maxDecompressedSize(maxDecompressedSize);
        return DECOMPRESSORS.run(Lz4FrameDecompressor::decompress, src, off, len, maxDecompressedSize);
    }

    /**
     * The content size the frame at the start of {@code src} declares in its header. The header checksum is not
     * verified here (decompression does verify it).
     *
     * @return the size in bytes, or {@link #UNKNOWN_SIZE} if the frame does not declare it
     * @throws Lz4Exception if {@code src} does not start with an LZ4 frame header, or the header declares 2^63 bytes
     *                      or more (an unsigned 64-bit field that no real frame fills; a {@code long} cannot hold it:
     *                      {@link Lz4Exception#FRAME_SIZE_WRONG}), as {@link dev.zstdjava.zstd.ZstdFrame#contentSize}
     *                      does
     */
    public static long contentSize(MemorySegment src) {
        long len = src.byteSize();
        if (len < 7) {
            throw notAFrame(len, "shorter than the smallest frame header (7 bytes)");
        }
        int magic = src.get(ValueLayout.JAVA_INT_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), 0);
        if (magic != MAGIC) {
            throw notAFrame(len, String.format("bad magic number 0x%08X (an LZ4 frame starts with 0x%08X)", magic, MAGIC));
        }
        int flg = src.get(ValueLayout.JAVA_BYTE, 4) & 0xFF;
        if ((flg >>> 6) != 1) {
            throw notAFrame(len, "unsupported frame version " + (flg >>> 6));
        }
        if ((flg & 0x08) == 0) {
            return UNKNOWN_SIZE;
        }
        if (len < 15) {
            throw notAFrame(len, "truncated header: the content size field needs 15 bytes");
        }
        long size = src.get(ValueLayout.JAVA_LONG_UNALIGNED.withOrder(java.nio.ByteOrder.LITTLE_ENDIAN), 6);
        if (size < 0) {
            throw sizeBeyondLong("lz4 frame content size", size, len);
        }
        return size;
    }

    /** A frame header declaring {@code unsigned} (2^63 or more, negative as a {@code long}) bytes of content. */
    static Lz4Exception sizeBeyondLong(String op, long unsigned, long len) {
        return new Lz4Exception(op, Lz4Exception.FRAME_SIZE_WRONG, "the frame header declares "
                + Long.toUnsignedString(unsigned) + " bytes of content, more than 2^63-1; input " + len + " bytes");
    }

    /** {@link #contentSize(MemorySegment)} of {@code src[off, off+len)}. */
    public static long contentSize(byte[] src, int off, int len) {
        Bounds.range(src, off, len, "src");
        return contentSize(MemorySegment.ofArray(src).asSlice(off, len));
    }

    private static Lz4Exception notAFrame(long len, String why) {
        return new Lz4Exception("lz4 frame content size", Lz4Exception.FRAME_TYPE_UNKNOWN,
                "not an LZ4 frame header: " + why + "; input " + len + " bytes");
    }
}
