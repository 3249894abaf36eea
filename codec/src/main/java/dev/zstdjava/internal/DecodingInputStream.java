package dev.zstdjava.internal;

import java.io.IOException;
import java.io.InputStream;
import java.util.Objects;

/**
 * What the decompressing input streams ({@code ZstdInputStream}, {@code Lz4FrameInputStream}) share: the underlying
 * stream, argument and state checks, and the rule that a stream whose read failed stays failed (the decoder lost its
 * place, so later reads must not make up data). A subclass decodes in {@link #decode} and frees its decoder in
 * {@link #release}. Not thread-safe (one reader).
 */
public abstract class DecodingInputStream extends InputStream {
    /** The compressed input. */
    protected final InputStream in;
    private final String what;
    private final byte[] one = new byte[1];
    private boolean closed;
    private Throwable failure;

    /**
     * @param in   the compressed input
     * @param what how to name the stream in errors, for example {@code "ZstdInputStream"}
     */
    protected DecodingInputStream(InputStream in, String what) {
        this.in = Objects.requireNonNull(in, "in");
        this.what = what;
    }

    /**
     * Decodes up to {@code len > 0} bytes into {@code b[off, off+len)}, blocking until at least one is available.
     *
     * @return the number of bytes decoded (at least 1), or -1 at the end of the input
     */
    protected abstract int decode(byte[] b, int off, int len) throws IOException;

    /** Frees the decoder (or leaves a borrowed one open); called once, on {@link #close()}. */
    protected abstract void release();

    @Override
    public int read() throws IOException {
        int n;
        do {
            n = read(one, 0, 1);
        } while (n == 0);
        return n < 0 ? -1 : one[0] & 0xFF;
    }

    /**
     * Reads up to {@code len} decompressed bytes; blocks until at least one is available or the input ends.
     *
     * @return the number of bytes read, or -1 at the end of the last frame
     * @throws IOException if the underlying stream fails, this stream is closed, or an earlier read failed (that
     *                     failure is the cause)
     */
    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (closed) {
            throw new IOException(what + " is closed");
        }
        if (failure != null) {
            throw new IOException(what + " failed earlier: " + failure, failure);
        }
        if (len == 0) {
            return 0;
        }
        try {
            return decode(b, off, len);
        } catch (IOException | RuntimeException | Error e) {
            failure = e;
            throw e;
        }
    }

    /** Closes the underlying stream and releases the decoder. Idempotent. */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            in.close();
        } finally {
            release();
        }
    }
}
