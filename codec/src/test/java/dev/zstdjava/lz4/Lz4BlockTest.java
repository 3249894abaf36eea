package dev.zstdjava.lz4;

import dev.zstdjava.TestData;
import dev.zstdjava.TestData.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Block format round trips: sizes 0 B..16 MiB, data kinds, level classes, every API shape. */
class Lz4BlockTest {
    static final int[] SIZES = {0, 1, 17, 1000, 65_536, 65_537, (1 << 20) + 3};
    static final int BIG = 16 << 20;
    /** One level per class (fast, default, HC) plus the extremes. */
    static final int[] LEVELS = {-5, 0, 9};

    enum Shape { SEGMENT_NATIVE, SEGMENT_HEAP, ARRAY_OFFSETS, ARRAY_NEW, BUFFER_DIRECT, BUFFER_HEAP, STATIC }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Kind kind : Kind.values()) {
            for (int size : SIZES) {
                for (int level : LEVELS) {
                    out.add(Arguments.of(kind, size, level));
                }
            }
            out.add(Arguments.of(kind, BIG, -1));
            out.add(Arguments.of(kind, BIG, 0));
            out.add(Arguments.of(kind, BIG, 3));
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1} B level {2}")
    @MethodSource("cases")
    void roundTripsInEveryShape(Kind kind, int size, int level) {
        byte[] data = TestData.generate(kind, size, size * 31L + level);
        Shape[] shapes = size == BIG ? new Shape[] {Shape.SEGMENT_NATIVE, Shape.ARRAY_NEW, Shape.ARRAY_OFFSETS}
                : Shape.values();
        try (Lz4Compressor c = Lz4Compressor.create(level); Lz4Decompressor d = Lz4Decompressor.create()) {
            byte[] reference = null;
            for (Shape shape : shapes) {
                byte[] block = compress(c, level, shape, data);
                assertTrue(block.length <= Lz4.maxCompressedLength(size), "within the bound");
                if (reference == null) {
                    reference = block;
                } else {
                    assertArrayEquals(reference, block, "the same block in every shape (" + shape + ")");
                }
                assertArrayEquals(data, decompress(d, shape, block, size), "round trip through " + shape);
            }
            if (kind == Kind.REPETITIVE && size >= 65_536) {
                assertTrue(reference.length < size / 20, "repetitive data compresses: " + reference.length);
            }
        }
    }

    static byte[] compress(Lz4Compressor c, int level, Shape shape, byte[] data) {
        int bound = Lz4.maxCompressedLength(data.length);
        switch (shape) {
            case SEGMENT_NATIVE -> {
                try (Arena a = Arena.ofConfined()) {
                    MemorySegment src = a.allocate(Math.max(1, data.length)).asSlice(0, data.length);
                    MemorySegment.copy(data, 0, src, ValueLayout.JAVA_BYTE, 0, data.length);
                    MemorySegment dst = a.allocate(bound);
                    long n = c.compress(src, dst);
                    return dst.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
                }
            }
            case SEGMENT_HEAP -> {
                byte[] out = new byte[bound];
                long n = c.compress(MemorySegment.ofArray(data), MemorySegment.ofArray(out));
                return Arrays.copyOf(out, (int) n);
            }
            case ARRAY_OFFSETS -> {
                byte[] src = new byte[data.length + 7];
                System.arraycopy(data, 0, src, 5, data.length);
                byte[] out = new byte[bound + 11];
                Arrays.fill(out, (byte) 0x5A);
                int n = c.compress(src, 5, data.length, out, 3, bound);
                assertEquals(0x5A, out[2] & 0xFF, "nothing written before the destination range");
                for (int i = 3 + n; i < out.length; i++) {
                    assertEquals(0x5A, out[i] & 0xFF, "nothing written after the block");
                }
                return Arrays.copyOfRange(out, 3, 3 + n);
            }
            case ARRAY_NEW -> {
                return c.compress(data);
            }
            case BUFFER_DIRECT, BUFFER_HEAP -> {
                boolean direct = shape == Shape.BUFFER_DIRECT;
                ByteBuffer src = direct ? ByteBuffer.allocateDirect(data.length + 4) : ByteBuffer.allocate(data.length + 4);
                src.position(2);
                src.put(data).flip().position(2);
                ByteBuffer dst = direct ? ByteBuffer.allocateDirect(bound + 5) : ByteBuffer.allocate(bound + 5);
                dst.position(5);
                int n = c.compress(src, dst);
                assertEquals(src.limit(), src.position(), "src consumed");
                assertEquals(5 + n, dst.position(), "dst advanced");
                byte[] out = new byte[n];
                dst.flip().position(5);
                dst.get(out);
                return out;
            }
            case STATIC -> {
                return Lz4.compress(data, level);
            }
            default -> throw new AssertionError(shape);
        }
    }

    static byte[] decompress(Lz4Decompressor d, Shape shape, byte[] block, int size) {
        switch (shape) {
            case SEGMENT_NATIVE -> {
                try (Arena a = Arena.ofConfined()) {
                    MemorySegment src = a.allocate(block.length);
                    MemorySegment.copy(block, 0, src, ValueLayout.JAVA_BYTE, 0, block.length);
                    MemorySegment dst = a.allocate(size + 100L); // an upper bound is enough
                    long n = d.decompress(src, dst);
                    return dst.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
                }
            }
            case SEGMENT_HEAP -> {
                byte[] out = new byte[size];
                long n = d.decompress(MemorySegment.ofArray(block), MemorySegment.ofArray(out));
                assertEquals(size, n);
                return out;
            }
            case ARRAY_OFFSETS -> {
                byte[] src = new byte[block.length + 9];
                System.arraycopy(block, 0, src, 4, block.length);
                byte[] out = new byte[size + 10];
                int n = d.decompress(src, 4, block.length, out, 6, size + 4);
                return Arrays.copyOfRange(out, 6, 6 + n);
            }
            case ARRAY_NEW -> {
                return d.decompress(block, size);
            }
            case BUFFER_DIRECT, BUFFER_HEAP -> {
                boolean direct = shape == Shape.BUFFER_DIRECT;
                ByteBuffer src = direct ? ByteBuffer.allocateDirect(block.length) : ByteBuffer.allocate(block.length);
                src.put(block).flip();
                ByteBuffer dst = direct ? ByteBuffer.allocateDirect(size + 3) : ByteBuffer.allocate(size + 3);
                dst.position(3);
                int n = d.decompress(src, dst);
                assertEquals(size, n);
                assertEquals(size + 3, dst.position());
                byte[] out = new byte[n];
                dst.flip().position(3);
                dst.get(out);
                return out;
            }
            case STATIC -> {
                return Lz4.decompress(block, size);
            }
            default -> throw new AssertionError(shape);
        }
    }

    @Test
    void everyLevelRoundTrips() {
        byte[] data = TestData.generate(Kind.TEXT, 200_000, 7);
        int previousHc = Integer.MAX_VALUE;
        for (int level = Lz4Compressor.MIN_LEVEL; level <= Lz4Compressor.MAX_LEVEL; level += level < -8 ? 20 : 1) {
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
