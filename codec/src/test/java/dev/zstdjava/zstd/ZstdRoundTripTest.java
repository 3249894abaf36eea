package dev.zstdjava.zstd;

import dev.zstdjava.TestData;
import dev.zstdjava.TestData.Kind;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
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

/** Every API shape round-trips every size and kind of data at several levels, and agrees with the others. */
class ZstdRoundTripTest {
    enum Shape { SEGMENT_NATIVE, SEGMENT_HEAP, ARRAY_WITH_DESTINATION, ARRAY_TO_NEW_ARRAY, BUFFER_DIRECT, BUFFER_HEAP }

    private static final int[] SIZES = {0, 1, 7, 100, 1024, 4096, 65_536, 1 << 20, 16 << 20};

    private static ZstdDecompressor decompressor;

    @BeforeAll
    static void open() {
        decompressor = ZstdDecompressor.create();
    }

    @AfterAll
    static void close() {
        decompressor.close();
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (int size : SIZES) {
            for (Kind kind : Kind.values()) {
                int[] levels = size >= (1 << 20) ? new int[] {1, 3} : size > 65_536 ? new int[] {-5, 3, 9} : new int[] {-5, 1, 3, 19};
                for (int level : levels) {
                    out.add(Arguments.of(size, kind, level));
                }
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} B {1} level {2}")
    @MethodSource("cases")
    void everyShapeRoundTrips(int size, Kind kind, int level) {
        byte[] data = TestData.generate(kind, size, size * 31L + level);
        try (ZstdCompressor c = ZstdCompressor.create(level)) {
            byte[] reference = null;
            for (Shape shape : Shape.values()) {
                byte[] frame = compress(c, shape, data);
                assertTrue(frame.length <= Zstd.compressBound(size), "frame within compressBound");
                assertEquals(size, ZstdFrame.contentSize(frame, 0, frame.length), "declared content size");
                if (reference == null) {
                    reference = frame;
                } else {
                    assertArrayEquals(reference, frame, "same parameters give the same frame in every shape: " + shape);
                }
                for (Shape back : Shape.values()) {
                    assertArrayEquals(data, decompress(back, frame, size), shape + " -> " + back);
                }
            }
            if (kind == Kind.REPETITIVE && size >= 1024) {
                assertTrue(reference.length < size / 20, "repetitive data compresses: " + reference.length);
            }
        }
    }

    @Test
    void staticApiAtEveryLevelClass() {
        byte[] data = TestData.generate(Kind.TEXT, 200_000, 7);
        for (int level : new int[] {Zstd.minLevel(), -1, 1, 3, 12, Zstd.maxLevel()}) {
            byte[] frame = Zstd.compress(data, level);
            assertArrayEquals(data, Zstd.decompress(frame), "level " + level);
        }
        byte[] fast = Zstd.compress(data, -50);
        byte[] strong = Zstd.compress(data, 19);
        assertTrue(strong.length < fast.length, "level 19 beats level -50: " + strong.length + " vs " + fast.length);
    }

    @Test
    void parametersAreApplied() {
        byte[] data = TestData.generate(Kind.TEXT, 300_000, 11);
        byte[] plain;
        try (ZstdCompressor c = ZstdCompressor.create()) {
            plain = c.compress(data);
        }
        try (ZstdCompressor c = ZstdCompressor.builder().checksum(true).build()) {
            byte[] f = c.compress(data);
            assertEquals(plain.length + 4, f.length, "checksum adds 4 bytes");
            assertEquals(0x04, f[4] & 0x04, "frame header checksum flag");
            assertArrayEquals(data, Zstd.decompress(f));
        }
        try (ZstdCompressor c = ZstdCompressor.builder().contentSize(false).build()) {
            byte[] f = c.compress(data);
            assertEquals(ZstdFrame.UNKNOWN_SIZE, ZstdFrame.contentSize(f, 0, f.length));
            assertArrayEquals(data, Zstd.decompress(f), "frames without content size decode");
            assertTrue(ZstdFrame.decompressBound(f, 0, f.length) >= data.length);
        }
        for (ZstdStrategy s : ZstdStrategy.values()) {
            try (ZstdCompressor c = ZstdCompressor.builder().level(5).strategy(s).windowLog(20)
                    .longDistanceMatching(s == ZstdStrategy.BTULTRA2).build()) {
                assertArrayEquals(data, Zstd.decompress(c.compress(data)), s.name());
            }
        }
        try (ZstdCompressor c = ZstdCompressor.builder().workers(2).level(3).build()) {
            byte[] big = TestData.generate(Kind.TEXT, 8 << 20, 3);
            assertArrayEquals(big, Zstd.decompress(c.compress(big)), "multithreaded compression");
        }
    }

    @Test
    void frameHelpers() {
        byte[] a = TestData.generate(Kind.TEXT, 5000, 1);
        byte[] b = TestData.generate(Kind.TEXT, 7000, 2);
        byte[] fa = Zstd.compress(a);
        byte[] fb = Zstd.compress(b);
        byte[] both = new byte[fa.length + fb.length];
        System.arraycopy(fa, 0, both, 0, fa.length);
        System.arraycopy(fb, 0, both, fa.length, fb.length);
        assertEquals(fa.length, ZstdFrame.compressedSize(both, 0, both.length));
        assertEquals(5000, ZstdFrame.contentSize(both, 0, both.length));
        assertEquals(12000, ZstdFrame.decompressedSize(both, 0, both.length));
        assertTrue(ZstdFrame.decompressBound(both, 0, both.length) >= 12000);
        byte[] joined = new byte[12000];
        System.arraycopy(a, 0, joined, 0, 5000);
        System.arraycopy(b, 0, joined, 5000, 7000);
        assertArrayEquals(joined, Zstd.decompress(both), "concatenated frames decode to the concatenation");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(both.length);
            MemorySegment.copy(both, 0, seg, ValueLayout.JAVA_BYTE, 0, both.length);
            assertEquals(fa.length, ZstdFrame.compressedSize(seg));
            assertEquals(12000, ZstdFrame.decompressedSize(seg));
        }
    }

    static byte[] compress(ZstdCompressor c, Shape shape, byte[] data) {
        int bound = (int) Zstd.compressBound(data.length);
        switch (shape) {
            case SEGMENT_NATIVE -> {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment src = arena.allocate(Math.max(1, data.length)).asSlice(0, data.length);
                    MemorySegment.copy(data, 0, src, ValueLayout.JAVA_BYTE, 0, data.length);
                    MemorySegment dst = arena.allocate(bound);
                    long n = c.compress(src, dst);
                    return dst.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
                }
            }
            case SEGMENT_HEAP -> {
                byte[] dst = new byte[bound + 10];
                long n = c.compress(MemorySegment.ofArray(data), MemorySegment.ofArray(dst).asSlice(10));
                return Arrays.copyOfRange(dst, 10, 10 + (int) n);
            }
            case ARRAY_WITH_DESTINATION -> {
                byte[] src = new byte[data.length + 13];
                System.arraycopy(data, 0, src, 5, data.length);
                byte[] dst = new byte[bound + 9];
                int n = c.compress(src, 5, data.length, dst, 7, bound);
                return Arrays.copyOfRange(dst, 7, 7 + n);
            }
            case ARRAY_TO_NEW_ARRAY -> {
                return c.compress(data);
            }
            case BUFFER_DIRECT, BUFFER_HEAP -> {
                boolean direct = shape == Shape.BUFFER_DIRECT;
                ByteBuffer src = direct ? ByteBuffer.allocateDirect(data.length + 8) : ByteBuffer.allocate(data.length + 8);
                src.position(3);
                src.put(data);
                src.flip().position(3);
                ByteBuffer dst = direct ? ByteBuffer.allocateDirect(bound + 20) : ByteBuffer.allocate(bound + 20).slice(4, bound + 16);
                dst.position(6);
                int n = c.compress(src, dst);
                assertEquals(src.limit(), src.position(), "source consumed");
                assertEquals(6 + n, dst.position(), "destination advanced");
                byte[] out = new byte[n];
                dst.get(6, out);
                return out;
            }
        }
        throw new AssertionError(shape);
    }

    static byte[] decompress(Shape shape, byte[] frame, int size) {
        ZstdDecompressor d = decompressor;
        switch (shape) {
            case SEGMENT_NATIVE -> {
                try (Arena arena = Arena.ofConfined()) {
                    MemorySegment src = arena.allocate(frame.length);
                    MemorySegment.copy(frame, 0, src, ValueLayout.JAVA_BYTE, 0, frame.length);
                    MemorySegment dst = arena.allocate(Math.max(1, size));
                    long n = d.decompress(src, dst);
                    return dst.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE);
                }
            }
            case SEGMENT_HEAP -> {
                byte[] dst = new byte[size + 3];
                long n = d.decompress(MemorySegment.ofArray(frame), MemorySegment.ofArray(dst).asSlice(3));
                return Arrays.copyOfRange(dst, 3, 3 + (int) n);
            }
            case ARRAY_WITH_DESTINATION -> {
                byte[] src = new byte[frame.length + 4];
                System.arraycopy(frame, 0, src, 2, frame.length);
                byte[] dst = new byte[size + 5];
                int n = d.decompress(src, 2, frame.length, dst, 1, size);
                return Arrays.copyOfRange(dst, 1, 1 + n);
            }
            case ARRAY_TO_NEW_ARRAY -> {
                return d.decompress(frame);
            }
            case BUFFER_DIRECT, BUFFER_HEAP -> {
                boolean direct = shape == Shape.BUFFER_DIRECT;
                ByteBuffer src = direct ? ByteBuffer.allocateDirect(frame.length) : ByteBuffer.wrap(frame);
                if (direct) {
                    src.put(frame).flip();
                }
                ByteBuffer dst = direct ? ByteBuffer.allocateDirect(size + 2) : ByteBuffer.allocate(size + 2);
                dst.position(2);
                int n = d.decompress(src, dst);
                assertEquals(0, src.remaining());
                byte[] out = new byte[n];
                dst.get(2, out);
                return out;
            }
        }
        throw new AssertionError(shape);
    }
}
