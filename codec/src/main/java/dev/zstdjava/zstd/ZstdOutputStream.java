package dev.zstdjava.zstd;

import dev.zstdjava.internal.ZstdNative;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.util.Objects;

/**
 * An {@link OutputStream} that writes one zstd frame to an underlying stream.
 *
 * <ul>
 *   <li>{@link #flush()} is a sync flush ({@code ZSTD_e_flush}): every byte written so far reaches the underlying
 *       stream as complete blocks a reader can decode at once; the frame stays open. Use it for messages on a
 *       network connection.</li>
 *   <li>{@link #close()} ends the frame ({@code ZSTD_e_end}) and closes the underlying stream.</li>
 * </ul>
 *
 * <p>The frame does not declare its content size (it is not known in advance); zstd and {@link ZstdInputStream}
 * read such frames.
 *
 * <p><b>Context:</b> built from parameters, the stream owns a native context and frees it on {@link #close()};
 * given a {@link ZstdCompressStream}, it borrows it (resetting it first) and leaves it open, so one context can
 * serve many streams in turn.
 *
 * <p><b>Thread safety:</b> not thread-safe (one writer). <b>Allocation:</b> one output buffer of
 * {@link ZstdCompressStream#recommendedOutputSize()} bytes per stream. Arrays passed to {@code write} are compressed
 * in place (critical downcalls on at most {@link ZstdCompressStream#recommendedInputSize()} bytes at a time) and the
 * output buffer is a heap array handed straight to the underlying stream, so no byte is copied in Java.
 *
 * <p><b>Errors:</b> I/O failures of the underlying stream are {@link IOException}s; zstd failures are
 * {@link ZstdException}s (unchecked).
 */
public final class ZstdOutputStream extends OutputStream {
    private static final int IN_CHUNK = (int) Math.min(ZstdNative.cStreamInSize(), 1 << 20);

    private final OutputStream out;
    private final ZstdCompressStream stream;
    private final boolean owned;
    private final byte[] buf;
    private final MemorySegment bufSeg;
    private final byte[] one = new byte[1];
    private byte[] lastArray;
    private MemorySegment lastSeg;
    private boolean closed;
    /** Set when a write failed: the frame is broken, so nothing more may be appended to it. */
    private Throwable failure;

    /** Compresses at zstd's default level into {@code out}. */
    public ZstdOutputStream(OutputStream out) {
        this(out, ZstdCompressStream.builder());
    }

    /** Compresses at {@code level} into {@code out}. */
    public ZstdOutputStream(OutputStream out, int level) {
        this(out, ZstdCompressStream.builder().level(level));
    }

    /** Compresses with these parameters (level, checksum, dictionary, ...) into {@code out}; owns its context. */
    public ZstdOutputStream(OutputStream out, ZstdCompressStream.Builder parameters) {
        this(out, parameters.build(), true);
    }

    /**
     * Compresses into {@code out} with a borrowed context: it is reset now, used for one frame and left open on
     * {@link #close()} for the next stream.
     */
    public ZstdOutputStream(OutputStream out, ZstdCompressStream context) {
        this(out, reset(context), false);
    }

    private ZstdOutputStream(OutputStream out, ZstdCompressStream stream, boolean owned) {
        this.out = Objects.requireNonNull(out, "out");
        this.stream = stream;
        this.owned = owned;
        this.buf = new byte[(int) Math.min(ZstdCompressStream.recommendedOutputSize(), 1 << 20)];
        this.bufSeg = MemorySegment.ofArray(buf);
    }

    private static ZstdCompressStream reset(ZstdCompressStream s) {
        Objects.requireNonNull(s, "context").reset();
        return s;
    }

    @Override
    public void write(int b) throws IOException {
        one[0] = (byte) b;
        write(one, 0, 1);
    }

    /** Compresses {@code b[off, off+len)}; output reaches the underlying stream as zstd's blocks fill up. */
    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        ensureOpen();
        MemorySegment src = segment(b);
        long p = off;
        long end = (long) off + len;
        try {
            while (p < end) {
                stream.step(src, p, Math.min(end, p + IN_CHUNK), bufSeg, 0, buf.length, ZstdNative.E_CONTINUE);
                p += stream.consumed();
                drain();
            }
        } catch (IOException | RuntimeException | Error e) {
            failure = e;
            throw e;
        }
    }

    /** Sync flush: everything written so far becomes decodable by a reader; then flushes the underlying stream. */
    @Override
    public void flush() throws IOException {
        ensureOpen();
        try {
            finishBlocks(ZstdNative.E_FLUSH);
        } catch (IOException | RuntimeException | Error e) {
            failure = e;
            throw e;
        }
        out.flush();
    }

    /**
     * Ends the frame, writes it out and closes the underlying stream (and the owned context). After a failed write
     * the frame is not ended (it would hide the loss); the underlying stream is closed all the same. Idempotent.
     */
    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try (OutputStream o = out) {
            if (failure == null) {
                finishBlocks(ZstdNative.E_END);
                o.flush();
            }
        } finally {
            if (owned) {
                stream.close();
            }
        }
    }

    private void finishBlocks(int op) throws IOException {
        long r;
        do {
            r = stream.step(bufSeg, 0, 0, bufSeg, 0, buf.length, op);
            drain();
        } while (r != 0);
    }

    private void drain() throws IOException {
        int n = (int) stream.produced();
        if (n > 0) {
            out.write(buf, 0, n);
        }
    }

    private MemorySegment segment(byte[] b) {
        if (b != lastArray) {
            lastArray = b;
            lastSeg = MemorySegment.ofArray(b);
        }
        return lastSeg;
    }

    private void ensureOpen() throws IOException {
        if (closed) {
            throw new IOException("ZstdOutputStream is closed");
        }
        if (failure != null) {
            throw new IOException("ZstdOutputStream failed earlier, the frame is incomplete: " + failure, failure);
        }
    }
}
