package dev.zstdjava.zstd;

import dev.zstdjava.internal.EncodingOutput;

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
 * {@link ZstdCompressStream#RECOMMENDED_OUTPUT_SIZE} bytes per stream. Arrays passed to {@code write} are compressed
 * in place (critical downcalls on at most {@link ZstdCompressStream#RECOMMENDED_INPUT_SIZE} bytes at a time) and the
 * output buffer is a heap array handed straight to the underlying stream, so no byte is copied in Java.
 *
 * <p><b>Errors:</b> I/O failures of the underlying stream are {@link IOException}s; zstd failures are
 * {@link ZstdException}s (unchecked). After a failed write the stream stays failed: later calls throw
 * {@link IOException} and {@link #close()} does not end the frame (a reader sees it truncated rather than silently
 * short); it closes the underlying stream and throws. After {@link #close()}, {@code write} and {@code flush} throw
 * {@link IOException} (as {@code java.util.zip.DeflaterOutputStream}'s writes do); {@code close()} again does
 * nothing.
 */
public final class ZstdOutputStream extends OutputStream {
    private static final int IN_CHUNK = (int) Math.min(ZstdNative.cStreamInSize(), 1 << 20);

    private final OutputStream out;
    /** The checks and the failed-stays-failed rule; calls {@link #encode} and {@link #release}. */
    private final EncodingOutput output;
    private final ZstdCompressStream stream;
    private final Ownership ownership;
    private final byte[] buf;
    private final MemorySegment bufSeg;
    private byte[] lastArray;
    private MemorySegment lastSeg;

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
        this(out, parameters.build(), Ownership.OWNED);
    }

    /**
     * Compresses into {@code out} with a borrowed context: it is reset now, used for one frame and left open on
     * {@link #close()} for the next stream.
     */
    public ZstdOutputStream(OutputStream out, ZstdCompressStream context) {
        this(out, reset(context), Ownership.BORROWED);
    }

    private ZstdOutputStream(OutputStream out, ZstdCompressStream stream, Ownership ownership) {
        this.out = out;
        this.output = new EncodingOutput(out, "ZstdOutputStream", this::encode, this::release);
        this.stream = stream;
        this.ownership = ownership;
        this.buf = new byte[(int) Math.min(ZstdCompressStream.RECOMMENDED_OUTPUT_SIZE, 1 << 20)];
        this.bufSeg = MemorySegment.ofArray(buf);
    }

    private static ZstdCompressStream reset(ZstdCompressStream s) {
        Objects.requireNonNull(s, "context").reset();
        return s;
    }

    /** Compresses {@code b[off, off+len)}; output reaches the underlying stream as blocks fill up. */
    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        output.write(b, off, len);
    }

    @Override
    public void write(int b) throws IOException {
        output.write(b);
    }

    /**
     * Sync flush ({@code ZSTD_e_flush}): everything written so far becomes decodable by a reader; then flushes the
     * underlying stream.
     */
    @Override
    public void flush() throws IOException {
        output.flush();
    }

    /**
     * Ends the frame ({@code ZSTD_e_end}), writes it out and closes the underlying stream (and the owned context).
     * After a failed write the frame is not ended (that would hide the loss): the underlying stream is closed all the
     * same and the failure is reported. Idempotent.
     *
     * @throws IOException if ending the frame or closing the underlying stream failed, or an earlier write failed
     */
    @Override
    public void close() throws IOException {
        output.close();
    }

    /** One step: compress {@code b[off, off+len)}, flush, or end the frame, writing the output to {@link #out}. */
    private void encode(byte[] b, int off, int len, EncodingOutput.Mode mode) throws IOException {
        if (mode == EncodingOutput.Mode.WRITE) {
            MemorySegment src = segment(b);
            long end = (long) off + len;
            for (long p = off; p < end; p += stream.consumed()) {
                stream.step(src, p, Math.min(end, p + IN_CHUNK), bufSeg, 0, buf.length, ZstdNative.EndDirective.CONTINUE);
                drain();
            }
            return;
        }
        ZstdNative.EndDirective op = mode == EncodingOutput.Mode.FLUSH ? ZstdNative.EndDirective.FLUSH : ZstdNative.EndDirective.END;
        long r;
        do { // flush or end: call until zstd has written out everything
            r = stream.step(bufSeg, 0, 0, bufSeg, 0, buf.length, op);
            drain();
        } while (r != 0);
    }

    private void release() {
        if (ownership == Ownership.OWNED) {
            stream.close();
        }
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
}
