package dev.zstdjava.internal;

import dev.zstdjava.internal.Binder.Fn;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;

import static dev.zstdjava.internal.Binder.PTR;
import static dev.zstdjava.internal.Binder.SIZE_T;
import static dev.zstdjava.internal.Binder.rethrow;

/**
 * {@code malloc}/{@code realloc}/{@code free} for scratch buffers that outlive one call and can grow. An instance is
 * the right to call them: {@link #bind} hands the one instance only to the codec packages' binding classes (as
 * {@link Binder#load} does), since {@code free} and {@code realloc} of a pointer that {@code malloc} did not return
 * corrupt the process. Thread-safe; stateless.
 */
public final class LibC {
    private static final Binder B = Binder.libc();
    private static final MethodHandle MALLOC = B.regular(Fn.of("malloc", PTR, SIZE_T));
    private static final MethodHandle REALLOC = B.regular(Fn.of("realloc", PTR, PTR, SIZE_T));
    private static final MethodHandle FREE = B.regular(Fn.ofVoid("free", PTR));

    /** The one instance, for this package's own use ({@link Scratch}). */
    static final LibC INSTANCE = new LibC();

    private LibC() {}

    /**
     * The instance for the binding class {@code caller} belongs to: a full-privilege lookup of a class in a codec
     * package of this library; anything else gets an {@link IllegalCallerException}.
     */
    public static LibC bind(MethodHandles.Lookup caller) {
        Binder.checkCaller(caller);
        return INSTANCE;
    }

    /** @return {@code size} bytes of native memory; throws {@link OutOfMemoryError} when there are none */
    public MemorySegment malloc(long size) {
        try {
            MemorySegment p = (MemorySegment) MALLOC.invokeExact(Math.max(size, 1L));
            if (p.address() == 0) {
                throw new OutOfMemoryError("malloc(" + size + ") failed");
            }
            return p.reinterpret(size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Grows or shrinks {@code p} keeping its content; the old segment must not be used afterwards. */
    public MemorySegment realloc(MemorySegment p, long size) {
        try {
            MemorySegment q = (MemorySegment) REALLOC.invokeExact(p, Math.max(size, 1L));
            if (q.address() == 0) {
                throw new OutOfMemoryError("realloc(" + size + ") failed");
            }
            return q.reinterpret(size);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }

    /** Frees {@code p}; a NULL segment is ignored. */
    public void free(MemorySegment p) {
        if (p == null || p.address() == 0) {
            return;
        }
        try {
            FREE.invokeExact(p);
        } catch (Throwable t) {
            throw rethrow(t);
        }
    }
}
