package dev.zstdjava.lettuce;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.lz4.Lz4Exception;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressor;
import dev.zstdjava.zstd.ZstdException;
import dev.zstdjava.zstd.ZstdFrame;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The native contexts and scratch memory one thread uses for one call of a {@link ValueCompressor}. Not
 * thread-safe: {@link CoderPool} lends each instance to one thread at a time. Contexts are created on first use.
 */
final class Coder implements AutoCloseable {
    /** Scratch arrays up to this size are kept between calls. */
    static final int KEEP_SCRATCH = 1 << 20;

    private final CompressionConfig config;
    private ZstdCompressor zstdCompressor;
    private ZstdDecompressor zstdDecompressor;
    private Lz4Compressor lz4Compressor;
    private Lz4Decompressor lz4Decompressor;
    private byte[] scratch = new byte[0];

    Coder(CompressionConfig config) {
        this.config = config;
    }

    /** @return a heap array of at least {@code size} bytes, reused between calls */
    byte[] scratch(int size) {
        if (scratch.length < size) {
            scratch = new byte[size];
        }
        return scratch;
    }

    void trimScratch() {
        if (scratch.length > KEEP_SCRATCH) {
            scratch = new byte[0];
        }
    }

    /**
     * Compresses {@code src} into {@code dst} as the configured backend's payload (without the header).
     *
     * @return the payload size, or -1 when it does not fit in {@code dst}; throws if the backend fails
     */
    long compressPayload(MemorySegment src, MemorySegment dst) {
        return switch (config.backend()) {
            case ZSTD -> zstdCompressor().tryCompress(src, dst);
            case LZ4 -> lz4Compressor().tryCompress(src, dst);
        };
    }

    /**
     * Decodes one payload.
     *
     * @param backend the backend named by the header
     * @param payload the bytes after the header
     * @return the original value
     * @throws DecompressionLimitException if it would be larger than the configured maximum
     * @throws MissingDictionaryException  if it is a zstd frame that declares a dictionary
     * @throws RuntimeException            if the payload does not decode
     */
    byte[] decompressPayload(CompressionBackend backend, MemorySegment payload) {
        return switch (backend) {
            case ZSTD -> decompressZstd(payload);
            case LZ4 -> decompressLz4(payload);
        };
    }

    private byte[] decompressZstd(MemorySegment payload) {
        long dictionaryId = ZstdFrame.dictionaryId(payload);
        if (dictionaryId != 0) {
            throw new MissingDictionaryException(dictionaryId);
        }
        long max = config.maxDecompressedSize();
        long size = ZstdFrame.decompressedSize(payload);
        if (size == ZstdFrame.UNKNOWN_SIZE) {
            // Frames without a declared size (streaming writers such as GLIDE's core): stream with a growing,
            // bounded buffer. The decompressor takes arrays, so the compressed bytes go through the scratch array.
            int len = (int) payload.byteSize();
            byte[] in = scratch(len);
            MemorySegment.copy(payload, ValueLayout.JAVA_BYTE, 0, in, 0, len);
            try {
                return zstdDecompressor().decompress(in, 0, len);
            } finally {
                trimScratch();
            }
        }
        if (size > max) {
            throw new DecompressionLimitException("zstd decompress", size, max);
        }
        byte[] out = new byte[(int) size];
        long n = size == 0 ? decodeEmpty(payload) : zstdDecompressor().decompress(payload, MemorySegment.ofArray(out));
        if (n != size) {
            throw new ZstdException("zstd decompress", ZstdException.CORRUPTION_DETECTED,
                    "decoded size differs from the declared content size", "declared " + size + ", decoded " + n);
        }
        return out;
    }

    /** The payload is the original length (unsigned 32-bit little-endian), then one raw LZ4 block. */
    private byte[] decompressLz4(MemorySegment payload) {
        if (payload.byteSize() < ValueFormat.LZ4_LENGTH_SIZE) {
            throw new Lz4Exception("lz4 decompress", Lz4Exception.DECOMPRESSION_FAILED,
                    "payload of " + payload.byteSize() + " bytes is shorter than its 4-byte length prefix");
        }
        long declared = Integer.toUnsignedLong(payload.get(ValueFormat.LE_INT, 0));
        long max = config.maxDecompressedSize();
        if (declared > max) {
            throw new DecompressionLimitException("lz4 decompress", declared, max);
        }
        byte[] out = new byte[(int) declared];
        long n = lz4Decompressor().decompress(payload.asSlice(ValueFormat.LZ4_LENGTH_SIZE), MemorySegment.ofArray(out));
        if (n != declared) {
            throw new Lz4Exception("lz4 decompress", Lz4Exception.DECOMPRESSION_FAILED,
                    "block decoded to " + n + " bytes, its length prefix says " + declared);
        }
        return out;
    }

    /** Frames declaring size 0 still have to be valid frames. */
    private long decodeEmpty(MemorySegment payload) {
        return zstdDecompressor().decompress(payload, MemorySegment.ofArray(scratch(1)).asSlice(0, 1));
    }

    private ZstdCompressor zstdCompressor() {
        if (zstdCompressor == null) {
            zstdCompressor = ZstdCompressor.create(config.level());
        }
        return zstdCompressor;
    }

    private Lz4Compressor lz4Compressor() {
        if (lz4Compressor == null) {
            lz4Compressor = Lz4Compressor.create(config.level());
        }
        return lz4Compressor;
    }

    private Lz4Decompressor lz4Decompressor() {
        if (lz4Decompressor == null) {
            lz4Decompressor = Lz4Decompressor.create();
        }
        return lz4Decompressor;
    }

    private ZstdDecompressor zstdDecompressor() {
        if (zstdDecompressor == null) {
            zstdDecompressor = ZstdDecompressor.builder().maxDecompressedSize(config.maxDecompressedSize()).build();
        }
        return zstdDecompressor;
    }

    @Override
    public void close() {
        if (zstdCompressor != null) {
            zstdCompressor.close();
        }
        if (zstdDecompressor != null) {
            zstdDecompressor.close();
        }
        if (lz4Compressor != null) {
            lz4Compressor.close();
        }
        if (lz4Decompressor != null) {
            lz4Decompressor.close();
        }
    }
}
