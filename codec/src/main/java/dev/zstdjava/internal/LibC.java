package dev.zstdjava.internal;

import dev.zstdjava.internal.Binder.Fn;

import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

import static dev.zstdjava.internal.Binder.PTR;
import static dev.zstdjava.internal.Binder.SIZE_T;
import static dev.zstdjava.internal.Binder.rethrow;

/** {@code malloc}/{@code realloc}/{@code free} for scratch buffers that outlive one call and can grow. */
public final class LibC {
    private static final Binder B = Binder.libc();
    private static final MethodHandle MALLOC = B.regular(Fn.of("malloc", PTR, SIZE_T));
    private static final MethodHandle REALLOC = B.regular(Fn.of("realloc", PTR, PTR, SIZE_T));
    private static final MethodHandle FREE = B.regular(Fn.ofVoid("free", PTR));

    private LibC() {}

    /** @return {@code size} bytes of native memory; throws {@link OutOfMemoryError} when there are none */
    public static MemorySegment malloc(long size) {
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
    public static MemorySegment realloc(MemorySegment p, long size) {
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
    public static void free(MemorySegment p) {
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
