package dev.zstdjava.fuzz;

import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdDecompressor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Fuzz target: zstd one-shot decompression of arbitrary bytes in every form ({@code byte[]} to a new array, to a
 * caller range at an offset, native and heap {@link MemorySegment}s, heap and direct {@link ByteBuffer}s). Each form
 * must either decode or throw a {@code CompressionException}, and all forms that decode must agree.
 */
public final class ZstdOneShotFuzz {
    static final int LIMIT = 128 << 10;
    private static final ZstdDecompressor D = ZstdDecompressor.builder().maxDecompressedSize(LIMIT).build();
    private static final byte[] DST = new byte[LIMIT + 11];
    private static final MemorySegment NATIVE_SRC = Arena.global().allocate(1 << 20);
    private static final MemorySegment NATIVE_DST = Arena.global().allocate(LIMIT + 1);

    private ZstdOneShotFuzz() {}

    public static void fuzzerTestOneInput(byte[] data) {
        Outcome array = Outcome.of(() -> Zstd.decompress(data, LIMIT));
        Outcome ctx = Outcome.of(() -> D.decompress(data));
        Outcome.sameWhenBothOk("Zstd.decompress vs ZstdDecompressor.decompress", array, ctx);
        if (data.length == 0) {
            return; // the caller-destination forms refuse empty input the same way; nothing more to compare
        }
        // the same bytes at an offset inside a larger array, into a range at an offset of a destination array
        byte[] src = new byte[data.length + 7];
        System.arraycopy(data, 0, src, 3, data.length);
        Outcome range = Outcome.ofRange(DST, 5, LIMIT, () -> D.decompress(src, 3, data.length, DST, 5, LIMIT));
        // Every form decodes with libzstd's one-shot decoder (frames without a content size too, unless a
        // windowLogMax is set), but only the new-array forms report output over the limit as a limit error (the
        // caller-destination forms as a destination too small). So they must agree on bytes when both decode, and
        // the caller-destination forms must agree with each other exactly.
        Outcome.sameWhenBothOk("byte[] range form", array, range);
        if (data.length > NATIVE_SRC.byteSize()) {
            return;
        }
        MemorySegment nsrc = NATIVE_SRC.asSlice(0, data.length);
        MemorySegment.copy(data, 0, nsrc, ValueLayout.JAVA_BYTE, 0, data.length);
        Outcome segment = Outcome.of(() -> NATIVE_DST.asSlice(0, D.decompress(nsrc, NATIVE_DST))
                .toArray(ValueLayout.JAVA_BYTE));
        Outcome.okIfOk("native segment form", range, segment);
        Outcome heapSeg = Outcome.of(() -> Arrays.copyOf(DST,
                (int) D.decompress(MemorySegment.ofArray(data), MemorySegment.ofArray(DST).asSlice(0, LIMIT))));
        Outcome.okIfOk("heap segment form", range, heapSeg);
        Outcome direct = Outcome.of(() -> {
            ByteBuffer in = NATIVE_SRC.asSlice(0, data.length).asByteBuffer();
            ByteBuffer out = NATIVE_DST.asByteBuffer().position(1);
            int n = D.decompress(in, out);
            if (out.position() != 1 + n || in.hasRemaining()) {
                throw new AssertionError("ByteBuffer positions: out at " + out.position() + " after " + n
                        + " bytes from 1, input " + in.remaining() + " bytes left");
            }
            byte[] b = new byte[n];
            out.flip().position(1).get(b);
            return b;
        });
        Outcome.okIfOk("direct ByteBuffer form", range, direct);
    }
}
