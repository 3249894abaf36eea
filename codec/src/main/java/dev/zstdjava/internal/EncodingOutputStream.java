package dev.zstdjava.internal;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * What the compressing output streams ({@code ZstdOutputStream}, {@code Lz4FrameOutputStream}) share: one frame
 * written to the underlying stream, and the rule that a stream whose write failed stays failed: the frame has a hole,
 * so nothing more is appended and {@link #close()} does not end it (that would hide the loss), but closes the
 * underlying stream and reports the failure. A subclass compresses in {@link #encode} and frees its encoder in
 * {@link #release}. Not thread-safe (one writer).
 */
public abstract class EncodingOutputStream extends FilterOutputStream {
    /** What one {@link #encode} call does. */
    protected enum Mode {
        /** Compress the given bytes; output reaches the underlying stream as blocks fill up. */
        WRITE,
        /** Write out everything given so far as complete blocks; the frame stays open. */
        FLUSH,
        /** Write out everything given so far and end the frame. */
        END
    }

    private final String what;
    private final byte[] one = new byte[1];
    private boolean ended;
    private boolean closed;
    private Throwable failure;

    /**
     * @param out  the underlying stream
     * @param what how to name the stream in errors, for example {@code "ZstdOutputStream"}
     */
    protected EncodingOutputStream(OutputStream out, String what) {
        super(Objects.requireNonNull(out, "out"));
        this.what = what;
    }

    /**
     * Compresses {@code b[off, off+len)} ({@link Mode#WRITE}), or, with no input, flushes ({@link Mode#FLUSH}) or
     * ends the frame ({@link Mode#END}), writing what it produces to {@link #out}.
     */
    protected abstract void encode(byte[] b, int off, int len, Mode mode) throws IOException;

    /** Frees the encoder (or leaves a borrowed one open); called once, on {@link #close()}. */
    protected abstract void release();

    @Override
    public void write(int b) throws IOException {
        one[0] = (byte) b;
        write(one, 0, 1);
    }

    /** Compresses {@code b[off, off+len)}; output reaches the underlying stream as blocks fill up. */
    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureWritable();
        run(b, off, len, Mode.WRITE);
    }

    /** Sync flush: everything written so far becomes decodable by a reader; then flushes the underlying stream. */
    @Override
    public void flush() throws IOException {
        ensureWritable();
        run(null, 0, 0, Mode.FLUSH);
        out.flush();
    }

    /**
     * Ends the frame without closing the underlying stream; later writes are refused. Idempotent.
     *
     * @throws IOException if the stream is closed or an earlier write failed (the frame is then left unended)
     */
    protected final void end() throws IOException {
        ensureOpen();
        if (!ended) {
            run(null, 0, 0, Mode.END);
            ended = true;
        }
    }

    /**
     * Ends the frame, writes it out and closes the underlying stream (and releases the encoder). After a failed write
     * the frame is not ended (that would hide the loss): the underlying stream is closed all the same and the
     * failure is reported. Idempotent.
     *
     * @throws IOException if ending the frame or closing the underlying stream failed, or an earlier write failed
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        try (OutputStream o = out) {
            if (failure == null) {
                end();
                o.flush();
            }
        } finally {
            closed = true;
            release();
        }
        if (failure != null) {
            throw failedEarlier();
        }
    }

    private void run(byte[] b, int off, int len, Mode mode) throws IOException {
        try {
            encode(b, off, len, mode);
        } catch (IOException | RuntimeException | Error e) {
            failure = e;
            throw e;
        }
    }

    private void ensureWritable() throws IOException {
        ensureOpen();
        if (ended) {
            throw new IOException(what + ": the frame is finished, no more writes");
        }
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException(what + " is closed");
        }
        if (failure != null) {
            throw failedEarlier();
        }
    }

    private IOException failedEarlier() {
        return new IOException(what + " failed earlier, the frame is incomplete: " + failure, failure);
    }
}
