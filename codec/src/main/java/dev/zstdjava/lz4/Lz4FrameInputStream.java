package dev.zstdjava.lz4;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.Decompressor;
import dev.zstdjava.internal.Bounds;
import dev.zstdjava.internal.DecodingInput;

import java.io.IOException;
import java.io.InputStream;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * Reads the content of LZ4 frames from an underlying stream ({@code LZ4F_decompress}). Concatenated frames are read
 * one after another and skippable frames are skipped; checksums are verified when present. A stream that ends inside
 * a frame, or malformed data, raises {@link Lz4Exception}; output past the limit raises
 * {@link DecompressionLimitException} (both unchecked, as elsewhere in this library); an empty underlying stream
 * reads as empty.
 *
 * <p><b>Limit:</b> as {@link dev.zstdjava.zstd.ZstdInputStream}: reads return at most the limit in total; the read
 * that passes it writes at most one byte past the limit into the caller's array (one byte more tells "over the
 * limit" from "exactly at it") and throws instead of returning.
 *
 * <p><b>Thread safety:</b> not thread-safe; use from one thread at a time.
 *
 * <p>After a failed read the stream stays failed: later reads throw {@link IOException} (with the first failure as
 * cause) instead of decoding from a lost position. After {@link #close()}, {@code read}, {@code skip} and
 * {@code available} throw {@link IOException} (as {@code java.util.zip.InflaterInputStream}'s do after close);
 * {@code close()} again does nothing.
 *
 * <p><b>Allocation:</b> the constructor allocates a native context and a 64 KiB heap input buffer; reads then decode
 * straight into the caller's array (at most 64 KiB per native call) and allocate nothing. Close the stream to free
 * the context (a {@link java.lang.ref.Cleaner} frees an unclosed stream).
 */
public final class Lz4FrameInputStream extends InputStream {
    private static final int CHUNK = 64 << 10;

    private final InputStream in;
    /** The checks and the failed-stays-failed rule; calls {@link #decode} and {@link #release}. */
    private final DecodingInput input;
    private final Lz4FrameDecompressor decompressor;
    private final long maxDecompressedSize;
    private final byte[] buf = new byte[CHUNK];
    private int bufPos;
    private int bufLen;
    private boolean eof;
    private boolean inFrame;
    private long total;

    /**
     * Reads frames from {@code in}, refusing more than {@link Decompressor#DEFAULT_MAX_DECOMPRESSED_SIZE} (512 MiB) of
     * content in total.
     */
    public Lz4FrameInputStream(InputStream in) {
        this(in, Decompressor.DEFAULT_MAX_DECOMPRESSED_SIZE);
    }

    /** Reads frames from {@code in}, refusing more than {@code maxDecompressedSize} bytes of content in total. */
    public Lz4FrameInputStream(InputStream in, long maxDecompressedSize) {
        this.in = in;
        this.input = new DecodingInput(in, "Lz4FrameInputStream", this::decode, this::release);
        Bounds.maxDecompressedSize(maxDecompressedSize);
        this.maxDecompressedSize = maxDecompressedSize;
        this.decompressor = Lz4FrameDecompressor.unlimited();
    }

    /**
     * Reads up to {@code len} decompressed bytes; blocks until at least one is available or the input ends.
     *
     * @return the number of bytes read, or -1 at the end of the last frame
     * @throws IOException                 if the underlying stream fails, this stream is closed, or an earlier read
     *                                     failed (that failure is the cause)
     * @throws Lz4Exception                if the input is malformed or ends inside a frame
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

    /** Closes the underlying stream and frees the native context. Idempotent. */
    @Override
    public void close() throws IOException {
        input.close();
    }

    /** Decodes up to {@code len > 0} bytes into {@code b[off, off+len)}; -1 at the end of the last frame. */
    private int decode(byte[] b, int off, int len) throws IOException {
        while (true) {
            if (bufPos == bufLen && !eof) {
                int n = in.read(buf, 0, buf.length);
                if (n < 0) {
                    eof = true;
                } else {
                    bufPos = 0;
                    bufLen = n;
                }
            }
            boolean noInput = bufPos == bufLen;
            if (noInput && eof && !inFrame) {
                return -1;
            }
            int want = Math.min(len, CHUNK);
            long room = maxDecompressedSize - total; // >= 0: passing the limit throws
            if (want > room) {
                want = (int) room + 1; // one byte more tells "over the limit" from "exactly at it"
            }
            long hint = decompressor.update(MemorySegment.ofArray(buf).asSlice(bufPos, bufLen - bufPos),
                    MemorySegment.ofArray(b).asSlice(off, want));
            int read = (int) decompressor.consumed();
            int wrote = (int) decompressor.produced();
            bufPos += read;
            inFrame = hint != 0;
            if (wrote > 0) {
                total += wrote;
                if (total > maxDecompressedSize) {
                    throw new DecompressionLimitException("lz4 frame input stream", total, maxDecompressedSize);
                }
                return wrote;
            }
            if (noInput && eof && read == 0) {
                throw new Lz4Exception("lz4 frame input stream", Lz4Exception.FRAME_SIZE_WRONG,
                        "truncated input: the stream ended inside a frame after " + total + " decoded bytes");
            }
        }
    }

    /** Frees the native context. */
    private void release() {
        decompressor.close();
    }
}
