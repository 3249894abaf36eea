package dev.zstdjava;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;

/**
 * A one-shot decompressor: each call decodes one whole input (every frame of it, or one raw LZ4 block), in four
 * forms that share one contract. Implemented by {@link dev.zstdjava.zstd.ZstdDecompressor},
 * {@link dev.zstdjava.lz4.Lz4FrameDecompressor} and {@link dev.zstdjava.lz4.Lz4Decompressor} (a raw LZ4 block does
 * not record its size: its {@code new byte[]} forms find it by decoding into a growing buffer, and it has forms that
 * take the size too).
 *
 * <p><b>Bounded:</b> no call writes past its destination, and the {@code new byte[]} forms refuse an output over
 * {@link #maxDecompressedSize()} (default {@link #DEFAULT_MAX_DECOMPRESSED_SIZE}) with
 * {@link DecompressionLimitException} before allocating it.
 *
 * <p><b>Errors:</b> malformed, truncated or corrupted input and a destination that is too small throw a
 * {@link CompressionException} of the codec's own type ({@link dev.zstdjava.zstd.ZstdException} or
 * {@link dev.zstdjava.lz4.Lz4Exception}) with a stable error code; an empty input is malformed. An array range
 * outside its array throws {@link IndexOutOfBoundsException}, and a source and destination that share bytes
 * {@link IllegalArgumentException}, before any native call.
 *
 * <p><b>Thread safety:</b> one call at a time, as {@link Compressor}: a concurrent call or a call after
 * {@link #close()} throws {@link IllegalStateException}, and a close during a call is deferred until it ends.
 *
 * <p><b>Allocation:</b> the {@link MemorySegment}, caller-destination {@code byte[]} and {@link ByteBuffer} forms
 * allocate nothing on the Java heap for outputs up to 1 MiB; the {@code new byte[]} forms allocate the returned
 * array (and, for frames that do not declare their size, the buffer they grow). Each implementation's class
 * documentation gives its staging limits.
 */
public interface Decompressor extends AutoCloseable {
    /**
     * The default of {@link #maxDecompressedSize()}, 512 MiB, for every decompressor and decompressing stream of this
     * library (zstd and LZ4, one-shot and streaming) and for the static one-liners that take no limit.
     */
    long DEFAULT_MAX_DECOMPRESSED_SIZE = 512L << 20;

    /**
     * The largest output of the {@code new byte[]} forms, in bytes, fixed when the decompressor is made.
     * Larger outputs throw {@link DecompressionLimitException}.
     */
    long maxDecompressedSize();

    /**
     * Decompresses all frames in src into the start of dst (native or heap memory); returns the bytes written.
     * Throws CompressionException if src is malformed or dst too small, IllegalArgumentException if dst is read-only.
     */
    long decompress(MemorySegment src, MemorySegment dst);

    /**
     * Decompresses all frames in src[srcOff, +srcLen) into dst[dstOff, +dstLen), reading and writing in place.
     * Returns the bytes written at dst[dstOff]; throws CompressionException if src is malformed or dst too small.
     */
    int decompress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen);

    /**
     * Decompresses all frames in src[off, +len) into a new array of exactly the decompressed size.
     * Throws DecompressionLimitException if that is over {@link #maxDecompressedSize()}.
     */
    byte[] decompress(byte[] src, int off, int len);

    /**
     * Decompresses all frames in src into a new array of exactly the decompressed size.
     * Throws DecompressionLimitException if that is over {@link #maxDecompressedSize()}.
     */
    default byte[] decompress(byte[] src) {
        return decompress(src, 0, src.length);
    }

    /**
     * Decompresses the remaining bytes of src into dst at its position; on success src's position moves to its
     * limit and dst's past the output, on failure neither moves. Throws {@link ReadOnlyBufferException} if dst is
     * read-only.
     */
    int decompress(ByteBuffer src, ByteBuffer dst);

    /**
     * Frees the native memory, after a call in progress ends; later calls throw IllegalStateException. Idempotent.
     */
    @Override
    void close();
}
