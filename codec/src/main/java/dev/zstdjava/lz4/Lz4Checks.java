package dev.zstdjava.lz4;

import dev.zstdjava.internal.Lz4Native;

import java.lang.foreign.MemorySegment;
import java.util.Objects;

/** Argument checks and error translation shared by the lz4 classes. */
final class Lz4Checks {
    private Lz4Checks() {}

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

    /** lz4's block API takes {@code int} capacities: a larger destination is used up to {@code INT_MAX}. */
    static int capacity(long cap) {
        return (int) Math.min(cap, Integer.MAX_VALUE);
    }

    static Lz4Exception frameError(long code, String operation, String detail) {
        return new Lz4Exception(operation, Lz4Native.errorCode(code),
                Lz4Native.errorName(code) + " (LZ4F error " + Lz4Native.errorCode(code) + ")"
                        + (detail.isEmpty() ? "" : "; " + detail));
    }

    static String sizes(long srcLen, long dstCap) {
        return "input " + srcLen + " bytes, output capacity " + dstCap + " bytes";
    }
}
