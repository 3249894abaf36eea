package dev.zstdjava;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;

/**
 * A one-shot compressor: each call turns one whole input into one self-contained output (a zstd frame, an LZ4
 * frame, or a raw LZ4 block), in four forms that share one contract. Implemented by
 * {@link dev.zstdjava.zstd.ZstdCompressor}, {@link dev.zstdjava.lz4.Lz4Compressor} and
 * {@link dev.zstdjava.lz4.Lz4FrameCompressor}, so code can be written once against any of them.
 *
 * <p><b>Errors:</b> a failure of the codec throws a {@link CompressionException} of the codec's own type
 * ({@link dev.zstdjava.zstd.ZstdException} or {@link dev.zstdjava.lz4.Lz4Exception}) with a stable error code;
 * an array range outside its array throws {@link IndexOutOfBoundsException}, and a source and destination that
 * share bytes (of one array, segment or buffer memory) {@link IllegalArgumentException}, before any native call.
 *
 * <p><b>Thread safety:</b> one call at a time. A call from a second thread while one runs, or any call after
 * {@link #close()}, throws {@link IllegalStateException}; a close during a call waits for the call to end before the
 * native memory is freed. An instance may move between threads between calls (as pools hand them out).
 *
 * <p><b>Allocation:</b> the {@link MemorySegment}, caller-destination {@code byte[]} and {@link ByteBuffer} forms
 * allocate nothing on the Java heap for inputs up to 1 MiB; the {@code byte[] -> new byte[]} forms allocate exactly
 * the returned array. Each implementation's class documentation gives its staging limits.
 */
public interface Compressor extends AutoCloseable {
    /**
     * The result of {@code tryCompress} ({@link dev.zstdjava.zstd.ZstdCompressor#tryCompress} and
     * {@link dev.zstdjava.lz4.Lz4Compressor#tryCompress}) when the output does not fit in the destination: -1, never a
     * size.
     */
    long DOES_NOT_FIT = -1;

    /**
     * The worst-case output size for srcLen input bytes: a destination this large never fails for lack of room.
     * Throws IllegalArgumentException if srcLen is negative or over the codec's input limit.
     */
    long maxCompressedLength(long srcLen);

    /**
     * Compresses all of src into the start of dst (native or heap memory); returns the output size in bytes.
     * Throws CompressionException if dst is too small, IllegalArgumentException if dst is read-only.
     */
    long compress(MemorySegment src, MemorySegment dst);

    /**
     * Compresses src[srcOff, +srcLen) into dst[dstOff, +dstLen), reading and writing the arrays in place.
     * Returns the output size, written at dst[dstOff]; throws CompressionException if the range is too small.
     */
    int compress(byte[] src, int srcOff, int srcLen, byte[] dst, int dstOff, int dstLen);

    /**
     * Compresses src[off, +len) into a new array of exactly the output's size.
     */
    byte[] compress(byte[] src, int off, int len);

    /**
     * Compresses all of src into a new array of exactly the output's size.
     */
    default byte[] compress(byte[] src) {
        return compress(src, 0, src.length);
    }

    /**
     * Compresses the remaining bytes of src into dst at its position; on success src's position moves to its limit
     * and dst's past the output, on failure neither moves. Throws {@link ReadOnlyBufferException} if dst is read-only.
     */
    int compress(ByteBuffer src, ByteBuffer dst);

    /**
     * Frees the native memory, after a call in progress ends; later calls throw IllegalStateException. Idempotent.
     */
    @Override
    void close();
}
