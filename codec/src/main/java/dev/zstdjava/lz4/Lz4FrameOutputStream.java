package dev.zstdjava.lz4;

import dev.zstdjava.internal.EncodingOutput;
import dev.zstdjava.internal.Guard;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Writes one LZ4 frame to an underlying stream ({@code LZ4F_compressUpdate}): the header on the first write, blocks
 * as they fill, and the end mark and checksum on {@link #finish()} or {@link #close()}. {@link #flush()} compresses
 * the buffered data so the reader can decode everything written so far.
 *
 * <p><b>Thread safety:</b> not thread-safe; use from one thread at a time (a concurrent call throws
 * {@link IllegalStateException}).
 *
 * <p><b>Errors:</b> after a failed write or flush the stream stays failed: later calls throw {@link IOException} and
 * {@link #close()} does not end the frame, so a reader sees it truncated rather than silently short. After
 * {@link #close()}, {@code write}, {@code flush} and {@link #finish()} throw {@link IOException} (as
 * {@code java.util.zip.DeflaterOutputStream}'s writes do); {@code close()} again does nothing.
 *
 * <p><b>Allocation:</b> the constructor allocates a native context, a 64 KiB native input buffer, and a native and a
 * heap output buffer of {@link Lz4FrameCompressor#updateBound(long)} bytes (a little over one block); writes then
 * allocate nothing. Close the stream to free them (a {@link java.lang.ref.Cleaner} frees an unclosed stream).
 * Compression errors surface as {@link Lz4Exception}, I/O errors of the underlying stream as {@link IOException}.
 */
public final class Lz4FrameOutputStream extends OutputStream {
    private static final int CHUNK = 64 << 10;

    private final OutputStream out;
    /** The checks and the failed-stays-failed rule; calls {@link #encode} and {@link #release}. */
    private final EncodingOutput output;
    private final Lz4FrameCompressor compressor;
    private final Buffers buffers;
    private final Guard guard;
    private final byte[] heapOut;
    private boolean started;

    private static final class Buffers implements Runnable {
        MemorySegment in = MemorySegment.NULL;
        MemorySegment out = MemorySegment.NULL;

        @Override
        public void run() {
            Lz4Native.LIBC.free(in);
            Lz4Native.LIBC.free(out);
        }
    }

    /** A stream writing a frame with {@link Lz4Frame.Options#DEFAULT} to {@code out}. */
    public Lz4FrameOutputStream(OutputStream out) {
        this(out, Lz4Frame.Options.DEFAULT);
    }

    /** A stream writing a frame with {@code options} (the content size is not declared) to {@code out}. */
    public Lz4FrameOutputStream(OutputStream out, Lz4Frame.Options options) {
        this.out = Objects.requireNonNull(out, "out");
        Objects.requireNonNull(options, "options");
        this.compressor = Lz4FrameCompressor.create(options);
        this.buffers = new Buffers();
        this.guard = new Guard(this, "Lz4FrameOutputStream", buffers);
        try {
            long outSize = Math.max(compressor.updateBound(CHUNK), Lz4Frame.HEADER_SIZE_MAX);
            buffers.in = Lz4Native.LIBC.malloc(CHUNK);
            buffers.out = Lz4Native.LIBC.malloc(outSize);
            this.heapOut = new byte[(int) outSize];
            this.output = new EncodingOutput(out, "Lz4FrameOutputStream", this::encode, this::release);
        } catch (RuntimeException | Error e) {
            guard.close();
            compressor.close();
            throw e;
        }
    }

    /**
     * Completes the frame (end mark, checksum) without closing the underlying stream. Idempotent. Later writes throw
     * {@link IOException}; {@link #flush()} then only flushes the underlying stream.
     *
     * @throws IOException if the stream is closed or an earlier write failed (the frame is then left unended)
     */
    public void finish() throws IOException {
        output.end();
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
     * Compresses the buffered data so a reader can decode everything written so far; then flushes the underlying
     * stream. After {@link #finish()} it only flushes the underlying stream, as {@code DeflaterOutputStream} does.
     */
    @Override
    public void flush() throws IOException {
        output.flush();
    }

    /**
     * Ends the frame (end mark, checksum), writes it out, closes the underlying stream and frees the native memory.
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
        guard.enter();
        try {
            if (!started) {
                if (mode == EncodingOutput.Mode.FLUSH) {
                    return; // nothing written yet: the header waits for the first write or the end
                }
                emit(compressor.begin(buffers.out));
                started = true;
            }
            if (mode == EncodingOutput.Mode.FLUSH) {
                emit(compressor.flush(buffers.out));
            } else if (mode == EncodingOutput.Mode.END) {
                emit(compressor.end(buffers.out));
            }
            for (int n; len > 0; off += n, len -= n) {
                n = Math.min(len, CHUNK);
                MemorySegment.copy(b, off, buffers.in, ValueLayout.JAVA_BYTE, 0, n);
                emit(compressor.update(buffers.in.asSlice(0, n), buffers.out));
            }
        } finally {
            guard.exit();
        }
    }

    private void release() {
        compressor.close();
        guard.close();
    }

    private void emit(long n) throws IOException {
        if (n > 0) {
            MemorySegment.copy(buffers.out, ValueLayout.JAVA_BYTE, 0, heapOut, 0, (int) n);
            out.write(heapOut, 0, (int) n);
        }
    }
}
