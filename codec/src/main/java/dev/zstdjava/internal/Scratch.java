package dev.zstdjava.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * A growable native buffer owned by one context: output of {@code byte[] -> byte[]} calls, and staging for large
 * heap arrays. Not thread-safe (its owner's {@link Guard} serialises use). Buffers above {@link #KEEP} bytes are
 * released after each call so idle contexts stay small.
 */
public final class Scratch {
    /** Largest buffer kept between calls. */
    public static final long KEEP = 1 << 20;

    private MemorySegment buffer = MemorySegment.NULL;

    /** @return at least {@code size} bytes; contents are undefined */
    public MemorySegment get(long size) {
        if (buffer.byteSize() < size) {
            free();
            buffer = LibC.malloc(size);
        }
        return buffer;
    }

    /**
     * Prepares a {@code byte[] -> new byte[]} call: room for {@code outBytes} of output at the start of the buffer
     * ({@link #current()}), and the input: {@code src[off, off+len)} in place, or, when {@code stage} (a heap array
     * too large for a critical call), a copy of it in the buffer after the output.
     *
     * @return the input to pass to the native call
     */
    public MemorySegment input(byte[] src, int off, int len, long outBytes, boolean stage) {
        MemorySegment buf = get(outBytes + (stage ? len : 0));
        if (!stage) {
            return MemorySegment.ofArray(src).asSlice(off, len);
        }
        MemorySegment in = buf.asSlice(outBytes, len);
        MemorySegment.copy(src, off, in, ValueLayout.JAVA_BYTE, 0, len);
        return in;
    }

    /** @return a new array holding the first {@code n} bytes of the buffer: the result of a {@code byte[]} call */
    public byte[] copyOut(int n) {
        byte[] a = new byte[n];
        MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, a, 0, n);
        return a;
    }

    /**
     * Stages the heap side(s) of a segment call that is too large to be critical: a heap {@code src} is copied into
     * the buffer, and a heap {@code dst} gets {@code outCap} bytes of room after it. Native sides are used as they
     * are. Call {@link #stagedOutput} next for the output, and {@link #unstage} after the call.
     *
     * @return the input to pass to the regular (non-critical) call
     */
    public MemorySegment stageInput(MemorySegment src, long srcLen, MemorySegment dst, long outCap) {
        long inSize = src.isNative() ? 0 : srcLen;
        MemorySegment buf = get(inSize + (dst.isNative() ? 0 : outCap));
        if (inSize == 0) {
            return src;
        }
        MemorySegment in = buf.asSlice(0, srcLen);
        MemorySegment.copy(src, 0, in, 0, srcLen);
        return in;
    }

    /** @return where a call staged by {@link #stageInput} writes: {@code dst} itself when native, else the buffer */
    public MemorySegment stagedOutput(MemorySegment src, long srcLen, MemorySegment dst, long outCap) {
        return dst.isNative() ? dst : buffer.asSlice(src.isNative() ? 0 : srcLen, outCap);
    }

    /** After a staged call that wrote {@code n} bytes ({@code <= 0}: none) to {@code out}: copies them to {@code dst}. */
    public static void unstage(MemorySegment out, MemorySegment dst, long n) {
        if (n > 0 && out != dst) {
            MemorySegment.copy(out, 0, dst, 0, n);
        }
    }

    /** Grows to {@code size} bytes keeping the content. */
    public MemorySegment grow(long size) {
        buffer = buffer.address() == 0 ? LibC.malloc(size) : LibC.realloc(buffer, size);
        return buffer;
    }

    /** @return the current buffer (possibly NULL) */
    public MemorySegment current() {
        return buffer;
    }

    /** Releases the buffer if it is larger than {@link #KEEP}. */
    public void trim() {
        if (buffer.byteSize() > KEEP) {
            free();
        }
    }

    /** Releases the buffer. */
    public void free() {
        MemorySegment b = buffer;
        buffer = MemorySegment.NULL;
        LibC.free(b);
    }
}
