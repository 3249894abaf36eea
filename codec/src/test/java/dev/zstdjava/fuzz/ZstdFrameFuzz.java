package dev.zstdjava.fuzz;

import dev.zstdjava.CompressionException;
import dev.zstdjava.zstd.ZstdFrame;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.function.LongSupplier;

/**
 * Fuzz target: every {@link ZstdFrame} inspection function on arbitrary bytes, through the {@code byte[]} form (at an
 * offset inside a larger array) and the native {@link MemorySegment} form, which must agree.
 */
public final class ZstdFrameFuzz {
    private static final MemorySegment NATIVE = Arena.global().allocate(1 << 20);

    private ZstdFrameFuzz() {}

    public static void fuzzerTestOneInput(byte[] data) {
        if (data.length > NATIVE.byteSize()) {
            return;
        }
        byte[] padded = new byte[data.length + 4];
        System.arraycopy(data, 0, padded, 2, data.length);
        MemorySegment seg = NATIVE.asSlice(0, data.length);
        MemorySegment.copy(data, 0, seg, ValueLayout.JAVA_BYTE, 0, data.length);
        int n = data.length;
        same("contentSize", () -> ZstdFrame.contentSize(padded, 2, n), () -> ZstdFrame.contentSize(seg));
        same("decompressedSize", () -> ZstdFrame.decompressedSize(padded, 2, n), () -> ZstdFrame.decompressedSize(seg));
        same("compressedSize", () -> ZstdFrame.compressedSize(padded, 2, n), () -> ZstdFrame.compressedSize(seg));
        same("decompressBound", () -> ZstdFrame.decompressBound(padded, 2, n), () -> ZstdFrame.decompressBound(seg));
        same("dictionaryId", () -> ZstdFrame.dictionaryId(padded, 2, n), () -> ZstdFrame.dictionaryId(seg));
        long compressed = call(() -> ZstdFrame.compressedSize(seg));
        if (compressed != FAILED && (compressed < 0 || compressed > n)) {
            throw new AssertionError("compressedSize " + compressed + " outside the " + n + " input bytes");
        }
    }

    private static final long FAILED = Long.MIN_VALUE;

    private static long call(LongSupplier f) {
        try {
            return f.getAsLong();
        } catch (CompressionException e) {
            return FAILED;
        }
    }

    private static void same(String what, LongSupplier array, LongSupplier segment) {
        long a = call(array);
        long s = call(segment);
        if (a != s) {
            throw new AssertionError(what + ": byte[] form " + a + ", segment form " + s);
        }
    }
}
