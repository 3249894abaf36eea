package dev.zstdjava.values;

import dev.zstdjava.lz4.Lz4Exception;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * {@link LegacyFormat#REDISSON_LZ4}: Redisson's {@code LZ4Codec}, the original length (signed 32-bit big-endian),
 * then one raw LZ4 block. No signature: anything of 5 bytes or more is tried (last, after every reader with a
 * signature), and a value is taken only when its length is within the limit and the block decodes to exactly that
 * many bytes; anything else is a plain value ({@link #decode} returns null, not counted as a failure). Decodes with
 * the coder's {@link Lz4Backend}.
 */
final class RedissonLz4Reader extends LegacyReader {
    private final Lz4Backend lz4;

    /** @param coder the coder to bind to, or null for the unbound instance (the selector's) */
    RedissonLz4Reader(Coder coder) {
        super("redisson-lz4", 0, coder);
        this.lz4 = coder == null ? null : (Lz4Backend) coder.shared(CompressionBackend.LZ4);
    }

    @Override
    public RedissonLz4Reader bind(Coder coder) {
        return new RedissonLz4Reader(coder);
    }

    @Override
    public boolean recognises(MemorySegment s) {
        return s.byteSize() >= 5;
    }

    /** @return the value, or null for a plain value (most values tried here are plain) */
    @Override
    public byte[] decode(MemorySegment stored) {
        int declared = stored.get(BE_INT, 0);
        if (declared == 0) {
            // Redisson's empty value is exactly a zero length and an empty block (one zero token): 5 zero bytes. The
            // format has no signature, so nothing looser is taken for an empty value.
            return stored.byteSize() == 5 && stored.get(ValueLayout.JAVA_BYTE, 4) == 0 ? new byte[0] : null;
        }
        if (declared < 0 || declared > coder.config().maxDecompressedSize()) {
            return null;
        }
        try {
            return lz4.block(stored.asSlice(4), declared);
        } catch (Lz4Exception e) { // not counted: most such values are plain
            return null;
        }
    }

    /** A value that does not decode is plain, so {@link #decode} reports none. */
    @Override
    public boolean malformed(RuntimeException e) {
        return false;
    }
}
