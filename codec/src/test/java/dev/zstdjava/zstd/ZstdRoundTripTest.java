package dev.zstdjava.zstd;

import dev.zstdjava.AbstractRoundTripTest;
import dev.zstdjava.TestData.Kind;
import dev.zstdjava.TestData;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * zstd in every API shape through {@link AbstractRoundTripTest} (sizes 0 B..16 MiB, levels from fast to strong,
 * streams included), plus what only zstd has: parameters, the level range and frame helpers.
 */
class ZstdRoundTripTest extends AbstractRoundTripTest {
    @Override
    protected int[] sizes() {
        return new int[] {0, 1, 7, 100, 1024, 4096, 65_536, 1 << 20, 16 << 20};
    }

    @Override
    protected int[] levels(int size) {
        return size >= (1 << 20) ? new int[] {1, 3} : size > 65_536 ? new int[] {-5, 3, 9} : new int[] {-5, 1, 3, 19};
    }

    @Override
    protected Set<Shape> shapes(int size) {
        return EnumSet.allOf(Shape.class);
    }

    @Override
    protected int compressesFrom() {
        return 1024;
    }

    @Override
    protected void checkCompressed(byte[] frame, int size) {
        assertEquals(size, ZstdFrame.contentSize(frame, 0, frame.length), "declared content size");
    }

    @Override
    protected Codec open(int level, int size) {
        ZstdCompressor c = ZstdCompressor.create(level);
        ZstdDecompressor d = ZstdDecompressor.create();
        Calls compress = new Calls(c::compress, c::compress, (src, n) -> c.compress(src), c::compress,
                (src, n) -> Zstd.compress(src, level));
        Calls decompress = new Calls(d::decompress, d::decompress, (src, n) -> d.decompress(src), d::decompress,
                (src, n) -> Zstd.decompress(src));
        return new Codec(Zstd::compressBound, compress, decompress, out -> new ZstdOutputStream(out, level),
                ZstdInputStream::new, () -> {
            c.close();
            d.close();
        });
    }

    @Test
    void staticApiAtEveryLevelClass() {
        byte[] data = TestData.generate(Kind.TEXT, 200_000, 7);
        for (int level : new int[] {Zstd.MIN_LEVEL, -1, 1, 3, 12, Zstd.MAX_LEVEL}) {
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
        // the level's own strategy is a named value, not null: the same bytes as a compressor given no strategy
        assertEquals(ZstdStrategy.LEVEL_DEFAULT, ZstdCompressionParameters.defaults().strategy());
        assertEquals(0, ZstdStrategy.LEVEL_DEFAULT.nativeValue());
        assertEquals(1, ZstdStrategy.FAST.nativeValue());
        assertEquals(9, ZstdStrategy.BTULTRA2.nativeValue());
        try (ZstdCompressor unnamed = ZstdCompressor.builder().level(7).build();
             ZstdCompressor named = ZstdCompressor.builder().level(7).strategy(ZstdStrategy.LEVEL_DEFAULT).build()) {
            assertArrayEquals(unnamed.compress(data), named.compress(data));
        }
        NullPointerException npe = assertThrows(NullPointerException.class,
                () -> ZstdCompressionParameters.defaults().withStrategy(null));
        assertTrue(npe.getMessage().contains("LEVEL_DEFAULT"), npe.getMessage());
        try (ZstdCompressor c = ZstdCompressor.builder().workers(2).level(3).build()) {
            byte[] big = TestData.generate(Kind.TEXT, 8 << 20, 3);
            assertArrayEquals(big, Zstd.decompress(c.compress(big)), "multithreaded compression");
        }
    }

    @Test
    void oneParameterSetServesEveryCompressor() throws java.io.IOException {
        byte[] data = TestData.generate(Kind.TEXT, 100_000, 12);
        ZstdCompressionParameters p = ZstdCompressionParameters.defaults().withLevel(7).withChecksum(true);
        assertEquals(ZstdCompressionParameters.defaults().withChecksum(true).withLevel(7), p, "a value");
        byte[] frame;
        try (ZstdCompressor c = ZstdCompressor.create(p);
             ZstdCompressor viaBuilder = ZstdCompressor.builder().parameters(p).build()) {
            frame = c.compress(data);
            assertArrayEquals(frame, viaBuilder.compress(data), "builder and record give the same compressor");
            assertEquals(7, c.level());
        }
        assertEquals(0x04, frame[4] & 0x04, "checksum flag set");
        java.io.ByteArrayOutputStream sink = new java.io.ByteArrayOutputStream();
        try (ZstdOutputStream out = new ZstdOutputStream(sink, ZstdCompressStream.builder().parameters(p))) {
            out.write(data);
        }
        byte[] streamed = sink.toByteArray();
        assertEquals(0x04, streamed[4] & 0x04, "the stream builder applies the same checksum flag");
        ZstdDecompressionParameters limits = ZstdDecompressionParameters.defaults().withMaxDecompressedSize(50_000);
        try (ZstdDecompressor d = ZstdDecompressor.create(limits);
             ZstdDecompressStream s = ZstdDecompressStream.builder().parameters(limits).build()) {
            assertEquals(50_000, d.maxDecompressedSize());
            assertEquals(50_000, s.maxDecompressedSize());
            assertThrows(dev.zstdjava.DecompressionLimitException.class, () -> d.decompress(frame));
        }
        try (ZstdDecompressor d = ZstdDecompressor.create(limits.withMaxDecompressedSize(100_000))) {
            assertArrayEquals(data, d.decompress(streamed));
        }
    }

    @Test
    void parametersAreCheckedWhenSet() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ZstdCompressionParameters.defaults().withWindowLog(5));
        int[] range = ZstdCompressionParameters.windowLogRange();
        assertTrue(e.getMessage().contains("windowLog = 5") && e.getMessage().contains(
                "valid range " + range[0] + ".." + range[1]), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ZstdCompressStream.builder().windowLog(range[1] + 1));
        e = assertThrows(IllegalArgumentException.class, () -> ZstdCompressStream.builder().level(Zstd.MAX_LEVEL + 1));
        assertTrue(e.getMessage().contains(Zstd.MIN_LEVEL + ".." + Zstd.MAX_LEVEL), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ZstdCompressionParameters.defaults().withWorkers(-1));
        e = assertThrows(IllegalArgumentException.class, () -> ZstdDecompressStream.builder().windowLogMax(99));
        assertTrue(e.getMessage().contains("windowLogMax = 99"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ZstdDecompressor.builder().maxDecompressedSize(-1));
        assertThrows(NullPointerException.class, () -> ZstdCompressor.create((ZstdCompressionParameters) null));
    }

    @Test
    void levelConstantsAreTheLibrarysOwn() {
        assertEquals(ZstdNative.minCLevel(), Zstd.MIN_LEVEL, "ZSTD_minCLevel()");
        assertEquals(ZstdNative.maxCLevel(), Zstd.MAX_LEVEL, "ZSTD_maxCLevel()");
        assertEquals(ZstdNative.defaultCLevel(), Zstd.DEFAULT_LEVEL, "ZSTD_defaultCLevel()");
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

    @Test
    void aSegmentDecodesIntoANewArrayFromNativeOrHeapMemory() {
        byte[] a = TestData.generate(Kind.TEXT, 5000, 1);
        byte[] sized = Zstd.compress(a);
        byte[] unsized;
        try (ZstdCompressor c = ZstdCompressor.builder().contentSize(false).build()) {
            unsized = c.compress(a);
        }
        byte[] twice = new byte[2 * sized.length];
        System.arraycopy(sized, 0, twice, 0, sized.length);
        System.arraycopy(sized, 0, twice, sized.length, sized.length);
        byte[] aa = new byte[10000];
        System.arraycopy(a, 0, aa, 0, 5000);
        System.arraycopy(a, 0, aa, 5000, 5000);
        try (ZstdDecompressor d = ZstdDecompressor.create();
             ZstdDecompressor small = ZstdDecompressor.builder().maxDecompressedSize(4999).build();
             Arena arena = Arena.ofConfined()) {
            for (byte[] frame : new byte[][] {sized, unsized, twice}) {
                byte[] want = frame == twice ? aa : a;
                MemorySegment nat = arena.allocate(frame.length);
                MemorySegment.copy(frame, 0, nat, ValueLayout.JAVA_BYTE, 0, frame.length);
                byte[] padded = new byte[frame.length + 7];
                System.arraycopy(frame, 0, padded, 3, frame.length);
                MemorySegment heap = MemorySegment.ofArray(padded).asSlice(3, frame.length);
                assertArrayEquals(want, d.decompress(nat), "native");
                assertArrayEquals(want, d.decompress(heap), "heap slice");
                assertArrayEquals(want, d.decompress(heap.asReadOnly()), "read-only heap");
                assertThrows(dev.zstdjava.DecompressionLimitException.class, () -> small.decompress(nat));
                assertThrows(dev.zstdjava.DecompressionLimitException.class, () -> small.decompress(heap.asReadOnly()));
                assertThrows(ZstdException.class, () -> d.decompress(nat.asSlice(0, frame.length - 3)), "truncated");
            }
            assertThrows(ZstdException.class, () -> d.decompress(arena.allocate(0)), "empty");
        }
    }
}
