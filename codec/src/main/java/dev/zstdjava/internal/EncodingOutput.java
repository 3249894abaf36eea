package dev.zstdjava.internal;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;

/**
 * What the compressing output streams ({@code ZstdOutputStream}, {@code Lz4FrameOutputStream}) share, held by each in
 * a final field (composition: the public streams extend {@link OutputStream} only): one frame written to the
 * underlying stream, and the rule that a stream whose write failed stays failed: the frame has a hole, so nothing
 * more is appended and {@link #close()} does not end it (that would hide the loss), but closes the underlying stream
 * and reports the failure. The stream compresses in its {@link Encoder} and frees its encoder in its {@code release}
 * action. Not thread-safe (one writer).
 */
public final class EncodingOutput {
    /** What one {@link Encoder#encode} call does. */
    public enum Mode {
        /** Compress the given bytes; output reaches the underlying stream as blocks fill up. */
        WRITE,
        /** Write out everything given so far as complete blocks; the frame stays open. */
        FLUSH,
        /** Write out everything given so far and end the frame. */
        END
    }

    /** A stream's compression step. */
    @FunctionalInterface
    public interface Encoder {
        /**
         * Compresses {@code b[off, off+len)} ({@link Mode#WRITE}), or, with no input, flushes ({@link Mode#FLUSH}) or
         * ends the frame ({@link Mode#END}), writing what it produces to the underlying stream.
         */
        void encode(byte[] b, int off, int len, Mode mode) throws IOException;
    }

    private final OutputStream out;
    private final String what;
    private final Encoder encoder;
    private final Runnable release;
    private final byte[] one = new byte[1];
    private boolean ended;
    private boolean closed;
    private Throwable failure;

    /**
     * @param out     the underlying stream, flushed by {@link #flush()} and closed by {@link #close()}
     * @param what    how to name the stream in errors, for example {@code "ZstdOutputStream"}
     * @param encoder the stream's compression step
     * @param release frees the encoder (or leaves a borrowed one open); run once, on {@link #close()}
     */
    public EncodingOutput(OutputStream out, String what, Encoder encoder, Runnable release) {
        this.out = Objects.requireNonNull(out, "out");
        this.what = what;
        this.encoder = encoder;
        this.release = release;
    }

    /** {@link OutputStream#write(int)}: compresses one byte. */
    public void write(int b) throws IOException {
        one[0] = (byte) b;
        write(one, 0, 1);
    }

    /** Compresses {@code b[off, off+len)}; output reaches the underlying stream as blocks fill up. */
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureWritable();
        run(b, off, len, Mode.WRITE);
    }

    /**
     * Sync flush: everything written so far becomes decodable by a reader; then flushes the underlying stream. After
     * {@link #end()} only the underlying stream is flushed (as {@code java.util.zip.DeflaterOutputStream} does after
     * {@code finish()}).
     */
    public void flush() throws IOException {
        ensureOpen();
        if (!ended) {
            run(null, 0, 0, Mode.FLUSH);
        }
        out.flush();
    }

    /**
     * Ends the frame without closing the underlying stream; later writes are refused. Idempotent.
     *
     * @throws IOException if the stream is closed or an earlier write failed (the frame is then left unended)
     */
    public void end() throws IOException {
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
            release.run();
        }
        if (failure != null) {
            throw failedEarlier();
        }
    }

    private void run(byte[] b, int off, int len, Mode mode) throws IOException {
        try {
            encoder.encode(b, off, len, mode);
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
