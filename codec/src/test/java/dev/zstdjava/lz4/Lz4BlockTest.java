package dev.zstdjava.lz4;

import dev.zstdjava.AbstractRoundTripTest;
import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.TestData;
import dev.zstdjava.TestData.Kind;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The block format in every API shape through {@link AbstractRoundTripTest} (sizes 0 B..16 MiB, fast, default and
 * HC levels), plus what only blocks have: every level, partial decoding, the bound macro and allocation.
 */
class Lz4BlockTest extends AbstractRoundTripTest {
    static final int BIG = 16 << 20;

    @Override
    protected int[] sizes() {
        return new int[] {0, 1, 17, 1000, 65_536, 65_537, (1 << 20) + 3, BIG};
    }

    /** One level per class (fast, default, HC). */
    @Override
    protected int[] levels(int size) {
        return size == BIG ? new int[] {-1, 0, 3} : new int[] {-5, 0, 9};
    }

    @Override
    protected Set<Shape> shapes(int size) {
        return size == BIG ? EnumSet.of(Shape.SEGMENT_NATIVE, Shape.ARRAY_NEW, Shape.ARRAY_OFFSETS) : super.shapes(size);
    }

    @Override
    protected int compressesFrom() {
        return 65_536;
    }

    @Override
    protected boolean writesOnlyItsOutput() {
        return true;
    }

    @Override
    protected Codec open(int level, int size) {
        Lz4Compressor c = Lz4Compressor.create(level);
        Lz4Decompressor d = Lz4Decompressor.create();
        Calls compress = new Calls(c::compress, c::compress, (src, n) -> c.compress(src), c::compress,
                (src, n) -> Lz4.compress(src, level));
        Calls decompress = new Calls(d::decompress, d::decompress, (src, n) -> d.decompress(src, n), d::decompress,
                (src, n) -> Lz4.decompress(src, n));
        return new Codec(Lz4::maxCompressedLength, compress, decompress, null, null, () -> {
            c.close();
            d.close();
        });
    }

    @Test
    void everyLevelRoundTrips() {
        byte[] data = TestData.generate(Kind.TEXT, 200_000, 7);
        int previousHc = Integer.MAX_VALUE;
        for (int level = Lz4.MIN_LEVEL; level <= Lz4.MAX_LEVEL; level += level < -8 ? 20 : 1) {
            byte[] block = Lz4.compress(data, level);
            assertArrayEquals(data, Lz4.decompress(block, data.length), "level " + level);
            if (level >= 3) {
                assertTrue(block.length <= previousHc * 1.02, "HC level " + level + " is not much worse than the one below");
                previousHc = block.length;
            }
        }
        int fastest = Lz4.compress(data, -128).length;
        int fast = Lz4.compress(data, 0).length;
        int hc = Lz4.compress(data, 12).length;
        assertTrue(fastest > fast && fast > hc, "acceleration trades ratio, HC gains it: " + fastest + " " + fast + " " + hc);
        assertArrayEquals(Lz4.compress(data, -1), Lz4.compress(data, 0), "acceleration 1 is the default compressor");
        assertArrayEquals(Lz4.compress(data, 1), Lz4.compress(data, 2), "HC 1 runs as HC 2 in lz4 1.10");
    }

    @Test
    void instanceReusedAcrossLevelsAndSizes() {
        try (Lz4Compressor c = Lz4Compressor.create(12); Lz4Decompressor d = Lz4Decompressor.create()) {
            assertEquals(12, c.level());
            for (int i = 0; i < 50; i++) {
                byte[] data = TestData.generate(Kind.values()[i % 3], (i * 7919) % 100_000, i);
                assertArrayEquals(data, d.decompress(c.compress(data), data.length));
            }
        }
    }

    @Test
    void partialDecodeStopsAtTheTarget() {
        byte[] data = TestData.generate(Kind.TEXT, 300_000, 3);
        byte[] block = Lz4.compress(data, 0);
        try (Lz4Decompressor d = Lz4Decompressor.create(); Arena a = Arena.ofConfined()) {
            for (int target : new int[] {0, 1, 100, 65_536, 299_999, 300_000}) {
                byte[] out = new byte[target];
                int n = d.decompressPartial(block, 0, block.length, out, 0, target);
                assertEquals(target, n);
                assertArrayEquals(Arrays.copyOf(data, target), out);
                MemorySegment src = a.allocate(block.length);
                MemorySegment.copy(block, 0, src, ValueLayout.JAVA_BYTE, 0, block.length);
                MemorySegment dst = a.allocate(Math.max(1, target)).asSlice(0, target);
                assertEquals(target, d.decompressPartial(src, dst));
                assertArrayEquals(Arrays.copyOf(data, target), dst.toArray(ValueLayout.JAVA_BYTE));
            }
            byte[] big = new byte[400_000];
            assertEquals(300_000, d.decompressPartial(block, 0, block.length, big, 0, big.length),
                    "a target beyond the block yields the whole block");
        }
    }

    /**
     * The {@code Decompressor} form without a size: it finds the size by decoding into a growing buffer (the first try
     * holds 4 times the input, at least 64 KiB, so the zeros below grow it several times), up to the limit.
     */
    @Test
    void blocksOfUnknownSizeDecodeIntoAGrowingBufferUpToTheLimit() {
        byte[] zeros = new byte[10 << 20]; // a block of about 41 KiB
        byte[] text = TestData.generate(Kind.TEXT, 300_000, 11);
        byte[] random = TestData.generate(Kind.INCOMPRESSIBLE, 70_000, 12);
        try (Lz4Decompressor d = Lz4Decompressor.create()) {
            for (byte[] data : new byte[][] {new byte[0], {42}, text, random, zeros}) {
                byte[] block = Lz4.compress(data);
                assertArrayEquals(data, d.decompress(block), data.length + " bytes");
                byte[] padded = new byte[block.length + 9];
                System.arraycopy(block, 0, padded, 5, block.length);
                assertArrayEquals(data, d.decompress(padded, 5, block.length), data.length + " bytes at an offset");
            }
            byte[] block = Lz4.compress(text);
            byte[] truncated = Arrays.copyOf(block, block.length - 1);
            assertThrows(Lz4Exception.class, () -> d.decompress(truncated));
            byte[] trailing = Arrays.copyOf(block, block.length + 3);
            assertThrows(Lz4Exception.class, () -> d.decompress(trailing), "bytes after the block are malformed input");
            assertThrows(Lz4Exception.class, () -> d.decompress(new byte[0]), "an empty input is not a block");
            assertThrows(Lz4Exception.class, () -> d.decompress(new byte[] {(byte) 0xF0, 1, 2}));
            assertArrayEquals(text, d.decompress(block), "usable after the failures");
        }
        byte[] zerosBlock = Lz4.compress(zeros);
        try (Lz4Decompressor exact = Lz4Decompressor.builder().maxDecompressedSize(zeros.length).build();
             Lz4Decompressor under = Lz4Decompressor.builder().maxDecompressedSize(zeros.length - 1).build();
             Lz4Decompressor none = Lz4Decompressor.builder().maxDecompressedSize(0).build()) {
            assertEquals(zeros.length, exact.maxDecompressedSize());
            assertArrayEquals(zeros, exact.decompress(zerosBlock), "a limit of exactly the size admits it");
            DecompressionLimitException e = assertThrows(DecompressionLimitException.class,
                    () -> under.decompress(zerosBlock));
            assertEquals(zeros.length - 1, e.limit());
            assertThrows(DecompressionLimitException.class, () -> none.decompress(Lz4.compress(new byte[] {1})));
            assertArrayEquals(new byte[0], none.decompress(Lz4.compress(new byte[0])));
            assertArrayEquals(zeros, under.decompress(zerosBlock, zeros.length),
                    "a size the caller gives is not bounded by the limit, which is for sizes the data decides");
        }
        assertThrows(IllegalArgumentException.class, () -> Lz4Decompressor.builder().maxDecompressedSize(-1));
    }

    @Test
    void boundMatchesTheLz4Macro() {
        assertEquals(16, Lz4.maxCompressedLength(0));
        assertEquals(1 + 16, Lz4.maxCompressedLength(1));
        assertEquals(255 + 1 + 16, Lz4.maxCompressedLength(255));
        assertEquals(Lz4.MAX_INPUT_SIZE + Lz4.MAX_INPUT_SIZE / 255 + 16, Lz4.maxCompressedLength(Lz4.MAX_INPUT_SIZE));
        byte[] random = TestData.generate(Kind.INCOMPRESSIBLE, 100_000, 1);
        byte[] exact = new byte[Lz4.maxCompressedLength(random.length)];
        try (Lz4Compressor c = Lz4Compressor.create(0)) {
            assertTrue(c.compress(random, 0, random.length, exact, 0, exact.length) > random.length,
                    "incompressible data grows but fits the bound");
        }
    }

    @Test
    void segmentCallsAllocateNothingOnTheHeap() {
        byte[] data = TestData.generate(Kind.TEXT, 4096, 5);
        try (Arena a = Arena.ofConfined(); Lz4Compressor c = Lz4Compressor.create(0);
             Lz4Compressor hc = Lz4Compressor.create(9); Lz4Decompressor d = Lz4Decompressor.create()) {
            MemorySegment src = a.allocate(data.length);
            MemorySegment.copy(data, 0, src, ValueLayout.JAVA_BYTE, 0, data.length);
            MemorySegment blockBuf = a.allocate(Lz4.maxCompressedLength(data.length));
            MemorySegment block = blockBuf.asSlice(0, c.compress(src, blockBuf));
            MemorySegment back = a.allocate(data.length);
            MemorySegment prefix = back.asSlice(0, 100);
            assertEquals(0, Lz4Allocation.perCall(() -> c.compress(src, blockBuf), 30_000), "fast compress");
            MemorySegment hcBuf = a.allocate(blockBuf.byteSize());
            assertEquals(0, Lz4Allocation.perCall(() -> hc.compress(src, hcBuf), 3_000), "HC compress");
            assertEquals(0, Lz4Allocation.perCall(() -> d.decompress(block, back), 30_000), "decompress");
            assertEquals(0, Lz4Allocation.perCall(() -> d.decompressPartial(block, prefix), 30_000), "partial");
            assertArrayEquals(data, back.toArray(ValueLayout.JAVA_BYTE));
        }
    }
}
