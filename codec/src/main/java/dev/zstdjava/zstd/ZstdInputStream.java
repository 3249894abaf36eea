package dev.zstdjava.zstd;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.Decompressor;
import dev.zstdjava.internal.DecodingInput;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * An {@link InputStream} that decompresses zstd data read from an underlying stream: any number of concatenated
 * frames, skippable frames, frames with or without a declared content size.
 *
 * <p><b>End of input:</b> when the underlying stream ends exactly after a frame, {@code read} returns -1 (an empty
 * underlying stream holds zero frames and reads as empty). When it ends inside a frame, {@code read} throws a
 * {@link ZstdException} saying the input is truncated, so short data is never returned silently. In
 * {@link #continuous(boolean) continuous} mode (for files still being written) it returns -1 instead and a later
 * {@code read} continues where it stopped once more data is there.
 *
 * <p><b>Limit:</b> the total output is bounded by {@link ZstdDecompressStream.Builder#maxDecompressedSize(long)}
 * (default 512 MiB); past it, {@code read} throws {@link DecompressionLimitException}. Reads return at most the limit
 * in total; the read that passes it writes at most one byte past the limit into the caller's array (one byte more
 * tells "over the limit" from "exactly at it") and throws instead of returning.
 *
 * <p><b>Context:</b> built from settings, the stream owns its native context and frees it on {@link #close()}; given
 * a {@link ZstdDecompressStream}, it borrows it (resetting it first) and leaves it open.
 *
 * <p><b>Thread safety:</b> not thread-safe (one reader). <b>Allocation:</b> one input buffer of
 * {@link ZstdDecompressStream#RECOMMENDED_INPUT_SIZE} bytes per stream; output is decoded straight into the caller's
 * array (critical downcalls of at most {@code zstdjava.criticalHeapLimit} bytes, default 1 MiB), so no byte is
 * copied in Java.
 *
 * <p><b>Errors:</b> I/O failures of the underlying stream are {@link IOException}s; malformed, truncated or
 * wrong-dictionary data gives a {@link ZstdException} (unchecked) whose message says what and where. After a failed
 * read the stream stays failed, and after {@link #close()} it is closed: {@code read}, {@code skip} and
 * {@code available} then throw {@link IOException} (as {@code java.util.zip.InflaterInputStream}'s do after close);
 * {@code close()} again does nothing.
 */
public final class ZstdInputStream extends InputStream {
    private final InputStream in;
    /** The checks and the failed-stays-failed rule; calls {@link #decode} and {@link #release}. */
    private final DecodingInput input;
    private final ZstdDecompressStream stream;
    private final Ownership ownership;
    private final byte[] buf;
    private final MemorySegment bufSeg;
    private int inPos;
    private int inLen;
    private long compressedRead;
    private boolean continuous;
    private byte[] lastArray;
    private MemorySegment lastSeg;

    /**
     * Decompresses {@code in} with the default limit ({@link Decompressor#DEFAULT_MAX_DECOMPRESSED_SIZE}, 512 MiB) and
     * no dictionary.
     */
    public ZstdInputStream(InputStream in) {
        this(in, ZstdDecompressStream.builder());
    }

    /** Decompresses {@code in} with these settings (limit, dictionary); owns its context. */
    public ZstdInputStream(InputStream in, ZstdDecompressStream.Builder settings) {
        this(in, settings.build(), Ownership.OWNED);
    }

    /** Decompresses {@code in} with a borrowed context: reset now, left open on {@link #close()}. */
    public ZstdInputStream(InputStream in, ZstdDecompressStream context) {
        this(in, reset(context), Ownership.BORROWED);
    }

    private ZstdInputStream(InputStream in, ZstdDecompressStream stream, Ownership ownership) {
        this.in = in;
        this.input = new DecodingInput(in, "ZstdInputStream", this::decode, this::release);
        this.stream = stream;
        this.ownership = ownership;
        this.buf = new byte[(int) Math.min(ZstdDecompressStream.RECOMMENDED_INPUT_SIZE, 1 << 20)];
        this.bufSeg = MemorySegment.ofArray(buf);
    }

    private static ZstdDecompressStream reset(ZstdDecompressStream s) {
        Objects.requireNonNull(s, "context").reset();
        return s;
    }

    /**
     * Continuous mode, for a file that is still being appended to: at the end of the underlying stream inside a
     * frame, {@code read} returns -1 instead of failing, and later reads pick up new data. Default off.
     *
     * @return this stream
     */
    public ZstdInputStream continuous(boolean continuous) {
        this.continuous = continuous;
        return this;
    }

    /**
     * Reads up to {@code len} decompressed bytes; blocks until at least one is available or the input ends.
     *
     * @return the number of bytes read, or -1 at the end of the last frame
     * @throws IOException                 if the underlying stream fails, this stream is closed, or an earlier read
     *                                     failed (that failure is the cause)
     * @throws ZstdException               if the input is malformed, truncated or needs another dictionary
     * @throws DecompressionLimitException if the output passes the limit
     */
    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        return input.read(b, off, len);
    }

    @Override
    public int read() throws IOException {
        return input.read();
    }

    /**
     * Decodes and drops up to {@code n} bytes.
     *
     * @return the number of bytes skipped, less than {@code n} only at the end of the last frame
     * @throws IOException if this stream is closed or an earlier read failed (also for {@code n <= 0})
     */
    @Override
    public long skip(long n) throws IOException {
        return input.skip(n);
    }

    /**
     * @return 0: how much decodes without blocking is not known before decoding
     * @throws IOException if this stream is closed or an earlier read failed
     */
    @Override
    public int available() throws IOException {
        return input.available();
    }

    /** Closes the underlying stream and the owned context (a borrowed one stays open). Idempotent. */
    @Override
    public void close() throws IOException {
        input.close();
    }

    /** Decodes up to {@code len > 0} bytes into {@code b[off, off+len)}; -1 at the end of the last frame. */
    private int decode(byte[] b, int off, int len) throws IOException {
        MemorySegment dst = segment(b);
        long dstEnd = (long) off + len;
        while (true) {
            stream.step(bufSeg, inPos, inLen, dst, off, dstEnd);
            inPos += (int) stream.consumed();
            int n = (int) stream.produced();
            if (n > 0) {
                return n;
            }
            if (inPos < inLen) {
                if (stream.consumed() == 0) {
                    throw new ZstdException("zstd decompress stream", ZstdException.CORRUPTION_DETECTED,
                            "decoder made no progress", "after " + compressedRead + " compressed bytes");
                }
                continue; // a frame ended, or zstd took a header: go on with the input at hand
            }
            int got = in.read(buf, 0, buf.length);
            if (got < 0) {
                if (stream.isFrameComplete() || continuous) {
                    return -1;
                }
                throw new ZstdException("zstd decompress stream", ZstdException.SRC_SIZE_WRONG,
                        "truncated input: the stream ended inside a frame",
                        "after " + compressedRead + " compressed bytes, " + stream.totalProduced()
                                + " decompressed bytes");
            }
            inPos = 0;
            inLen = got;
            compressedRead += got;
        }
    }

    /** @return decompressed bytes read so far */
    public long decompressedBytes() {
        return stream.totalProduced();
    }

    /** Closes the owned context (a borrowed one stays open). */
    private void release() {
        if (ownership == Ownership.OWNED) {
            stream.close();
        }
    }

    private MemorySegment segment(byte[] b) {
        if (b != lastArray) {
            lastArray = b;
            lastSeg = MemorySegment.ofArray(b);
        }
        return lastSeg;
    }
}
