package dev.zstdjava.values;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.lz4.Lz4Exception;

import java.lang.foreign.MemorySegment;

/**
 * The shared format's LZ4 backend (id {@code 0x02}): the payload is the original length (unsigned 32-bit
 * little-endian), then one raw LZ4 block (not an LZ4 frame). Levels above 0 are LZ4 HC, below 0 fast mode with
 * acceleration {@code -level}. Bound instances keep a compressor and a decompressor, made on first use; not
 * thread-safe (see {@link ValueBackend}). Encoding allocates nothing; decoding allocates the returned value.
 */
final class Lz4Backend extends HeaderBackend {
    /** Size of the payload's length prefix. */
    static final int LENGTH_SIZE = 4;

    private Lz4Compressor compressor;
    private Lz4Decompressor decompressor;

    /** @param coder the coder to bind to, or null for the unbound instance (the selector's) */
    Lz4Backend(Coder coder) {
        super("glide-lz4", 0x02, Lz4.MIN_LEVEL, Lz4.MAX_LEVEL, Lz4.DEFAULT_LEVEL, coder);
    }

    @Override
    public Lz4Backend bind(Coder coder) {
        return new Lz4Backend(coder);
    }

    /** Never given a dictionary ({@link #takesDictionaries()} is false). */
    @Override
    long encodePayload(MemorySegment value, MemorySegment dst, long offset, long room, DictionaryManager.Entry dict) {
        if (room - LENGTH_SIZE < 1) {
            return NO_ROOM;
        }
        long n = compressor().tryCompress(value, dst, offset + LENGTH_SIZE, room - LENGTH_SIZE);
        if (n < 0) {
            return NO_ROOM;
        }
        dst.set(ValueFormat.LE_INT, offset, (int) value.byteSize());
        return LENGTH_SIZE + n;
    }

    /** Never given a dictionary ({@link #takesDictionaries()} is false). */
    @Override
    long encodePayload(byte[] value, byte[] dst, int offset, int room, DictionaryManager.Entry dict) {
        if (room - LENGTH_SIZE < 1) {
            return NO_ROOM;
        }
        long n = compressor().tryCompress(value, 0, value.length, dst, offset + LENGTH_SIZE, room - LENGTH_SIZE);
        if (n < 0) {
            return NO_ROOM;
        }
        ValueFormat.LE_INT_IN_ARRAY.set(dst, offset, value.length);
        return LENGTH_SIZE + n;
    }

    /** A length prefix, then a block of at least one byte that could decode to that length. */
    @Override
    boolean couldBePayload(MemorySegment stored) {
        long block = stored.byteSize() - ValueFormat.HEADER_SIZE - LENGTH_SIZE;
        return block >= 1
                && Integer.toUnsignedLong(stored.get(ValueFormat.LE_INT, ValueFormat.HEADER_SIZE)) <= MAX_RATIO * block;
    }

    @Override
    byte[] decodePayload(MemorySegment payload) {
        if (payload.byteSize() < LENGTH_SIZE) {
            throw new Lz4Exception("lz4 decompress", Lz4Exception.DECOMPRESSION_FAILED,
                    "payload of " + payload.byteSize() + " bytes is shorter than its 4-byte length prefix");
        }
        long declared = Integer.toUnsignedLong(payload.get(ValueFormat.LE_INT, 0));
        MemorySegment block = payload.asSlice(LENGTH_SIZE);
        // a length its block could not decode to is checked before the limit: no writer made such a value, it is a
        // plain value that begins with the header (one of a few bytes whose next four, text say, declare gigabytes),
        // and is returned as stored rather than failed as too large
        checkRatio(block, declared);
        long max = coder.config().maxDecompressedSize();
        if (declared > max) {
            throw new DecompressionLimitException("lz4 decompress", declared, max);
        }
        return block(block, declared);
    }

    /** lz4 fails only on the payload: the safe decoder reports malformed input. */
    @Override
    public boolean malformed(RuntimeException e) {
        return e instanceof Lz4Exception;
    }

    /**
     * The most an LZ4 block decodes to per byte: a match's length grows by at most 255 per byte of it, and no other
     * part of a block decodes to more bytes than it takes.
     */
    static final int MAX_RATIO = 255;

    /**
     * Decodes one raw LZ4 block that must decode to exactly {@code declared} bytes (at most the limit: checked by
     * the caller). A length the block could not decode to (over {@value #MAX_RATIO} times its size) is refused before
     * anything is allocated.
     * @throws Lz4Exception if it does not
     */
    byte[] block(MemorySegment block, long declared) {
        checkRatio(block, declared);
        byte[] out = new byte[(int) declared];
        long n = decompressor().decompress(block, MemorySegment.ofArray(out));
        if (n != declared) {
            throw new Lz4Exception("lz4 decompress", Lz4Exception.DECOMPRESSION_FAILED,
                    "block decoded to " + n + " bytes, its length prefix says " + declared);
        }
        return out;
    }

    /** @throws Lz4Exception if {@code block} could not decode to {@code declared} bytes (over {@value #MAX_RATIO} times its size) */
    private static void checkRatio(MemorySegment block, long declared) {
        if (declared > MAX_RATIO * block.byteSize()) {
            throw new Lz4Exception("lz4 decompress", Lz4Exception.DECOMPRESSION_FAILED, "a block of "
                    + block.byteSize() + " bytes decodes to at most " + MAX_RATIO + " times that, its length prefix"
                    + " says " + declared);
        }
    }

    private Lz4Compressor compressor() { // contexts are made on first use: a backend never used loads nothing
        return compressor != null ? compressor : (compressor = Lz4Compressor.create(coder.config().level()));
    }

    private Lz4Decompressor decompressor() {
        return decompressor != null ? decompressor : (decompressor = Lz4Decompressor.create());
    }

    @Override
    public void close() {
        closeAll(compressor, decompressor);
    }
}
