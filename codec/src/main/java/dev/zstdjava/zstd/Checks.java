package dev.zstdjava.zstd;

import dev.zstdjava.internal.ZstdNative;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/** Argument checks and error translation shared by the zstd classes. */
final class Checks {
    private Checks() {}

    /** Largest {@code byte[]} the JVM reliably allocates. */
    static final int MAX_ARRAY = Integer.MAX_VALUE - 8;

    static void range(byte[] a, int off, int len, String name) {
        Objects.requireNonNull(a, name);
        Objects.checkFromIndexSize(off, len, a.length);
    }

    static void writable(MemorySegment dst) {
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("destination segment is read-only");
        }
    }

    static ZstdException error(long code, String operation, String detail) {
        return new ZstdException(operation, ZstdNative.errorCode(code), ZstdNative.errorName(code), detail);
    }

    static String sizes(long srcLen, long dstCap) {
        return "input " + srcLen + " bytes, output capacity " + dstCap + " bytes";
    }
}
