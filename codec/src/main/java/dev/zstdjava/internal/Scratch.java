package dev.zstdjava.internal;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Objects;

/**
 * Growable native buffers owned by one context: the output buffer (output of {@code byte[] -> byte[]} calls, and
 * staging of large heap outputs) and the input buffer (staging of large heap inputs). Not thread-safe (its owner's
 * {@link Guard} serialises use). Buffers above {@link #KEEP} bytes are released after each call so idle contexts
 * stay small.
 *
 * <p>Both buffers are passed to native code whole, with explicit lengths: no slice of them is made per call, so a
 * staged call allocates nothing on the Java heap whether or not the JIT inlines it.
 */
public final class Scratch {
    /** Largest buffer kept between calls. */
    public static final long KEEP = 1 << 20;

    private final LibC libc;
    private MemorySegment buffer = MemorySegment.NULL;
    private MemorySegment in = MemorySegment.NULL;

    /**
     * Empty buffers that grow through {@code libc}: a {@link LibC} only the codec packages can obtain, so only they
     * make the buffers their native calls write into.
     */
    public Scratch(LibC libc) {
        this.libc = Objects.requireNonNull(libc, "libc");
    }

    /** @return the output buffer, at least {@code size} bytes; contents are undefined */
    public MemorySegment get(long size) {
        if (buffer.byteSize() < size) {
            buffer = replace(buffer, size);
        }
        return buffer;
    }

    /** @return the input buffer holding a copy of {@code src[off, off+len)} (at its start) */
    public MemorySegment stage(byte[] src, int off, int len) {
        MemorySegment.copy(src, off, input(len), ValueLayout.JAVA_BYTE, 0, len);
        return in;
    }

    /** @return the input buffer, at least {@code size} bytes */
    private MemorySegment input(long size) {
        if (in.byteSize() < size) {
            in = replace(in, size);
        }
        return in;
    }

    /**
     * @return a new buffer of {@code size} bytes; {@code old} is freed once it is made (if the allocation fails,
     *         {@code old} stays, so the field holding it never refers to freed memory)
     */
    private MemorySegment replace(MemorySegment old, long size) {
        MemorySegment b = libc.malloc(size);
        libc.free(old);
        return b;
    }

    /** @return a new array holding the first {@code n} bytes of the output buffer: the result of a {@code byte[]} call */
    public byte[] copyOut(int n) {
        byte[] a = new byte[n];
        MemorySegment.copy(buffer, ValueLayout.JAVA_BYTE, 0, a, 0, n);
        return a;
    }

    /**
     * Stages the heap side(s) of a segment call that is too large to be critical: a heap {@code src} is copied into
     * the input buffer, and a heap {@code dst} gets {@code outCap} bytes of the output buffer. Native sides are used
     * as they are. Call {@link #stagedOutput} next for the output, and {@link #unstage} after the call.
     *
     * @return the input to pass to the regular (non-critical) call
     */
    public MemorySegment stageInput(MemorySegment src, long srcLen) {
        if (src.isNative()) {
            return src;
        }
        MemorySegment.copy(src, 0, input(srcLen), 0, srcLen);
        return in;
    }

    /** @return where a staged call writes: {@code dst} itself when native, else the output buffer */
    public MemorySegment stagedOutput(MemorySegment dst, long outCap) {
        return dst.isNative() ? dst : get(outCap);
    }

    /** After a staged call that wrote {@code n} bytes ({@code <= 0}: none) to {@code out}: copies them to {@code dst}. */
    public static void unstage(MemorySegment out, MemorySegment dst, long n) {
        if (n > 0 && out != dst) {
            MemorySegment.copy(out, 0, dst, 0, n);
        }
    }

    /**
     * After a staged call that wrote {@code n} bytes ({@code <= 0}: none) to {@code out}: copies them to {@code dst}
     * at {@code off} (no view of {@code dst}).
     */
    public static void unstage(MemorySegment out, MemorySegment dst, long off, long n) {
        if (n > 0) {
            MemorySegment.copy(out, 0, dst, off, n);
        }
    }

    /** After a staged call that wrote {@code n} bytes ({@code <= 0}: none) to {@code out}: copies them to {@code dst[off]}. */
    public static void unstage(MemorySegment out, byte[] dst, int off, long n) {
        if (n > 0) {
            MemorySegment.copy(out, ValueLayout.JAVA_BYTE, 0, dst, off, (int) n);
        }
    }

    /** Grows the output buffer to {@code size} bytes keeping the content. */
    public MemorySegment grow(long size) {
        buffer = buffer.address() == 0 ? libc.malloc(size) : libc.realloc(buffer, size);
        return buffer;
    }

    /** @return the current output buffer (possibly NULL) */
    public MemorySegment current() {
        return buffer;
    }

    /** Releases each buffer that is larger than {@link #KEEP}. */
    public void trim() {
        if (buffer.byteSize() > KEEP || in.byteSize() > KEEP) {
            free();
        }
    }

    /** Releases both buffers. */
    public void free() {
        MemorySegment b = buffer;
        MemorySegment i = in;
        buffer = MemorySegment.NULL;
        in = MemorySegment.NULL;
        libc.free(b);
        libc.free(i);
    }
}
