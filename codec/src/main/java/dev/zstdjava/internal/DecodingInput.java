package dev.zstdjava.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * What the decompressing input streams ({@code ZstdInputStream}, {@code Lz4FrameInputStream}) share, held by each in a
 * final field (composition: the public streams extend {@link InputStream} only): the underlying stream, argument and
 * state checks, and the rule that a stream whose read failed stays failed (the decoder lost its place, so later reads
 * must not make up data). The stream decodes in its {@link Decoder} and frees its decoder in its {@code release}
 * action. After {@link #close()}, and after a failed read, every operation ({@code read}, {@code skip},
 * {@code available}) throws {@link IOException}, as {@code java.util.zip.InflaterInputStream}'s do after close; only
 * {@code close()} stays allowed (idempotent). Not thread-safe (one reader).
 */
public final class DecodingInput {
    /** A stream's decoding step. */
    @FunctionalInterface
    public interface Decoder {
        /**
         * Decodes up to {@code len > 0} bytes into {@code b[off, off+len)}, blocking until at least one is available.
         *
         * @return the number of bytes decoded (at least 1), or -1 at the end of the input
         */
        int decode(byte[] b, int off, int len) throws IOException;
    }

    private final InputStream in;
    private final String what;
    private final Decoder decoder;
    private final Runnable release;
    /** Most bytes one {@link #skip} decodes per read (as {@code InputStream.skip}'s buffer). */
    private static final int SKIP_BUFFER = 2048;

    private final byte[] one = new byte[1];
    private boolean closed;
    private Throwable failure;

    /**
     * @param in      the compressed input, closed by {@link #close()}
     * @param what    how to name the stream in errors, for example {@code "ZstdInputStream"}
     * @param decoder the stream's decoding step
     * @param release frees the decoder (or leaves a borrowed one open); run once, on {@link #close()}
     */
    public DecodingInput(InputStream in, String what, Decoder decoder, Runnable release) {
        this.in = Objects.requireNonNull(in, "in");
        this.what = what;
        this.decoder = decoder;
        this.release = release;
    }

    /** {@link InputStream#read()}: one byte, or -1 at the end of the last frame. */
    public int read() throws IOException {
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
    }

    /**
     * Reads up to {@code len} decompressed bytes; blocks until at least one is available or the input ends.
     *
     * @return the number of bytes read, or -1 at the end of the last frame
     * @throws IOException if the underlying stream fails, the stream is closed, or an earlier read failed (that
     *                     failure is the cause)
     */
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        if (len == 0) {
            return 0;
        }
        int n;
        try {
            n = decoder.decode(b, off, len);
        } catch (IOException | RuntimeException | Error e) {
            failure = e;
            throw e;
        }
        if (n == 0 || n < -1 || n > len) { // a broken decoder: a read must not return 0 (callers would spin)
            IllegalStateException e = new IllegalStateException(what + ": the decoder returned " + n + " for " + len
                    + " bytes (expected 1.." + len + " or -1)");
            failure = e;
            throw e;
        }
        return n;
    }

    /**
     * {@link InputStream#skip(long)}: decodes and drops up to {@code n} bytes ({@code n <= 0}: none).
     *
     * @return the number of bytes skipped, less than {@code n} only at the end of the last frame
     * @throws IOException if the stream is closed or an earlier read failed, also for {@code n <= 0}
     */
    public long skip(long n) throws IOException {
        ensureOpen();
        if (n <= 0) {
            return 0;
        }
        byte[] drop = new byte[(int) Math.min(n, SKIP_BUFFER)];
        long left = n;
        for (int got; left > 0; left -= got) {
            got = read(drop, 0, (int) Math.min(left, drop.length));
            if (got < 0) {
                break;
            }
        }
        return n - left;
    }

    /**
     * {@link InputStream#available()}: 0 (how much decodes without blocking is not known before decoding).
     *
     * @throws IOException if the stream is closed or an earlier read failed
     */
    public int available() throws IOException {
        ensureOpen();
        return 0;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException(what + " is closed");
        }
        if (failure != null) {
            throw new IOException(what + " failed earlier: " + failure, failure);
        }
    }

    /** Closes the underlying stream and releases the decoder. Idempotent. */
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            in.close();
        } finally {
            release.run();
        }
    }
}
