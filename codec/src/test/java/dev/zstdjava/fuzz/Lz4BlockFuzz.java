package dev.zstdjava.fuzz;

import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4Decompressor;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * Fuzz targets for LZ4 raw blocks. Input layout: two bytes (big endian) giving a size, then the block. Only the safe
 * lz4 decoders are bound; a block must decode inside the given bounds or throw {@code Lz4Exception}.
 */
public final class Lz4BlockFuzz {
    private static final Lz4Decompressor D = Lz4Decompressor.create();
    private static final byte[] DST = new byte[(1 << 16) + 16];
    private static final MemorySegment NATIVE_SRC = Arena.global().allocate(1 << 20);
    private static final MemorySegment NATIVE_DST = Arena.global().allocate(1 << 16);

    private Lz4BlockFuzz() {}

    static int size(byte[] data) {
        return ((data[0] & 0xFF) << 8) | (data[1] & 0xFF);
    }

    /** Target: exact size ({@code Lz4.decompress(block, n)}): the block must decode to exactly n bytes. */
    public static final class Exact {
        private Exact() {}

        public static void fuzzerTestOneInput(byte[] data) {
            if (data.length < 2) {
                return;
            }
            int n = size(data);
            byte[] block = Arrays.copyOfRange(data, 2, data.length);
            Outcome exact = Outcome.of(() -> Lz4.decompress(block, n));
            if (exact.ok() && exact.output().length != n) {
                throw new AssertionError("exact form returned " + exact.output().length + " bytes for " + n);
            }
            // the same block at an offset of a larger array through a context
            byte[] padded = new byte[block.length + 5];
            System.arraycopy(block, 0, padded, 4, block.length);
            Outcome.sameWhenBothOk("Lz4 vs Lz4Decompressor at an offset", exact,
                    Outcome.of(() -> D.decompress(padded, 4, block.length, n)));
            // bounded by exactly n: whatever decodes in exact form decodes here too
            if (block.length > 0) {
                Outcome.okIfOk("bounded by n", exact, bounded(block, n));
            }
        }
    }

    /**
     * Target: bounded size (the caller-destination forms decode at most n bytes; {@code decompressPartial} stops at
     * n): every form must stay inside its destination; on a valid block the partial output is its prefix.
     */
    public static final class Bounded {
        private Bounded() {}

        public static void fuzzerTestOneInput(byte[] data) {
            if (data.length < 3) {
                return;
            }
            int n = size(data);
            byte[] block = Arrays.copyOfRange(data, 2, data.length);
            Outcome full = bounded(block, n);
            if (full.ok() && full.output().length > n) {
                throw new AssertionError("bounded form wrote " + full.output().length + " bytes into " + n);
            }
            if (block.length > NATIVE_SRC.byteSize()) {
                return;
            }
            MemorySegment src = NATIVE_SRC.asSlice(0, block.length);
            MemorySegment.copy(block, 0, src, ValueLayout.JAVA_BYTE, 0, block.length);
            MemorySegment dst = NATIVE_DST.asSlice(0, Math.min(n, NATIVE_DST.byteSize()));
            Outcome segment = Outcome.of(() -> dst.asSlice(0, D.decompress(src, dst)).toArray(ValueLayout.JAVA_BYTE));
            Outcome.sameWhenBothOk("byte[] vs native segment", full, segment);
            Outcome buffer = Outcome.of(() -> {
                ByteBuffer in = ByteBuffer.wrap(block);
                ByteBuffer out = ByteBuffer.allocate(n);
                int got = D.decompress(in, out);
                return Arrays.copyOf(out.array(), got);
            });
            Outcome.sameWhenBothOk("byte[] vs heap ByteBuffer", full, buffer);
            Outcome partial = Outcome.ofRange(DST, 3, n, () -> D.decompressPartial(block, 0, block.length, DST, 3, n));
            if (partial.ok() && partial.output().length > n) {
                throw new AssertionError("partial form wrote " + partial.output().length + " bytes into " + n);
            }
            // On malformed blocks the full and the partial decoder may produce different (in-bounds) bytes (the
            // fuzzer's finding-partial-differs-on-malformed-block), so their agreement is checked on a valid block:
            // these bytes compressed, whose partial decoding must be the first n bytes.
            byte[] valid = Lz4.compress(block);
            int want = Math.min(n, block.length);
            Outcome prefix = Outcome.ofRange(DST, 3, want, () -> D.decompressPartial(valid, 0, valid.length, DST, 3, want));
            if (!prefix.ok() || !Arrays.equals(prefix.output(), Arrays.copyOf(block, want))) {
                throw new AssertionError("partial decoding of a valid block is not its first " + want + " bytes",
                        prefix.error());
            }
        }
    }

    /** Decodes into {@code DST[7, 7+n)}: nothing outside it may be written. */
    static Outcome bounded(byte[] block, int n) {
        int len = Math.min(n, DST.length - 7);
        return Outcome.ofRange(DST, 7, len, () -> D.decompress(block, 0, block.length, DST, 7, len));
    }
}
