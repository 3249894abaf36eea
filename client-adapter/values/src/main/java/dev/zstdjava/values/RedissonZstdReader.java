package dev.zstdjava.values;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.zstd.ZstdException;

import java.lang.foreign.MemorySegment;

/**
 * {@link LegacyFormat#REDISSON_ZSTD}: Redisson's {@code ZStdCodec}, the original length (signed 32-bit big-endian),
 * then one zstd frame. Signature: the zstd magic number after the length, at least 8 bytes. Decodes with the
 * coder's {@link ZstdBackend} (its contexts and dictionaries). A declared length over the limit fails before
 * anything is allocated.
 */
final class RedissonZstdReader extends LegacyReader {
    private final ZstdBackend zstd;

    /** @param coder the coder to bind to, or null for the unbound instance (the selector's) */
    RedissonZstdReader(Coder coder) {
        super("redisson-zstd", 4, coder);
        this.zstd = coder == null ? null : (ZstdBackend) coder.shared(CompressionBackend.ZSTD);
    }

    @Override
    public RedissonZstdReader bind(Coder coder) {
        return new RedissonZstdReader(coder);
    }

    @Override
    public boolean recognises(MemorySegment s) {
        return s.byteSize() >= 8 && s.get(ValueFormat.LE_INT, 4) == ZstdBackend.FRAME_MAGIC;
    }

    @Override
    public byte[] decode(MemorySegment stored) {
        long max = coder.config().maxDecompressedSize();
        int declared = stored.get(BE_INT, 0);
        if (declared < 0) {
            throw new ZstdException("zstd decompress", ZstdException.CORRUPTION_DETECTED, "negative length prefix",
                    "declared " + declared);
        }
        if (declared > max) {
            throw new DecompressionLimitException("zstd decompress", declared, max);
        }
        byte[] out = zstd.decodeFrame(stored.asSlice(4));
        if (out.length != declared) {
            throw new ZstdException("zstd decompress", ZstdException.CORRUPTION_DETECTED,
                    "decoded size differs from the length prefix", "declared " + declared + ", decoded " + out.length);
        }
        return out;
    }

    @Override
    public boolean malformed(RuntimeException e) {
        return e instanceof ZstdException z && ZstdBackend.malformed(z);
    }
}
