package dev.zstdjava;

import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.lz4.Lz4FrameCompressor;
import dev.zstdjava.lz4.Lz4FrameDecompressor;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressor;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The zero-copy forms of every one-shot codec (zstd, lz4 block, lz4 frame) over every kind of memory a caller may
 * pass: heap buffers at an offset and slices with a non-zero {@code arrayOffset}, read-only heap and direct buffers,
 * direct slices and duplicates, buffers over an arena's segment, heap segments of other array types; zero-length
 * inputs, destinations one byte too small, corrupt input, one memory on both sides. Each call either gives the
 * reference output with the positions moved as documented or throws the documented exception with no position
 * moved.
 */
class BufferFormsTest {
    private static final byte FILL = (byte) 0xA5;

    private record Codec(String name, Compressor c, Decompressor d) {}

    private static List<Codec> codecs() {
        return List.of(new Codec("zstd", ZstdCompressor.create(), ZstdDecompressor.create()),
                new Codec("lz4 block", Lz4Compressor.create(), Lz4Decompressor.create()),
                new Codec("lz4 frame", Lz4FrameCompressor.create(), Lz4FrameDecompressor.create()));
    }

    private static byte[] data(int n) {
        byte[] d = TestData.generate(TestData.Kind.TEXT, Math.max(n, 1), n);
        return Arrays.copyOf(d, n);
    }

    /** Buffer kinds: each makes a buffer whose remaining bytes are {@code content}, at a position other than 0. */
    private record Kind(String name, boolean writable, Function<byte[], ByteBuffer> make) {}

    private static List<Kind> kinds(int room) {
        List<Kind> k = new ArrayList<>();
        k.add(new Kind("heap wrap", true, c -> {
            byte[] a = new byte[c.length + room + 20];
            Arrays.fill(a, FILL);
            System.arraycopy(c, 0, a, 7, c.length);
            return ByteBuffer.wrap(a, 7, c.length + room);
        }));
        k.add(new Kind("heap slice", true, c -> {
            byte[] a = new byte[c.length + room + 40];
            Arrays.fill(a, FILL);
            System.arraycopy(c, 0, a, 13 + 5, c.length);
            ByteBuffer s = ByteBuffer.wrap(a).position(13).slice(); // arrayOffset 13
            s.limit(5 + c.length + room).position(5);
            return s;
        }));
        k.add(new Kind("heap read-only", false, c -> {
            ByteBuffer b = ByteBuffer.allocate(c.length + room + 10);
            b.position(3).put(c).position(3).limit(3 + c.length + room);
            return b.asReadOnlyBuffer();
        }));
        k.add(new Kind("direct", true, c -> {
            ByteBuffer b = filledDirect(c.length + room + 30);
            b.position(9).put(c).position(9).limit(9 + c.length + room);
            return b;
        }));
        k.add(new Kind("direct slice", true, c -> {
            ByteBuffer s = filledDirect(c.length + room + 50).position(17).slice();
            s.position(4).put(c).position(4).limit(4 + c.length + room);
            return s;
        }));
        k.add(new Kind("direct duplicate", true, c -> {
            ByteBuffer d = filledDirect(c.length + room + 30).duplicate();
            d.position(11).put(c).position(11).limit(11 + c.length + room);
            return d;
        }));
        k.add(new Kind("direct read-only", false, c -> {
            ByteBuffer b = ByteBuffer.allocateDirect(c.length + room + 10);
            b.position(2).put(c).position(2).limit(2 + c.length + room);
            return b.asReadOnlyBuffer();
        }));
        k.add(new Kind("segment buffer", true, c -> {
            MemorySegment m = Arena.ofAuto().allocate(c.length + room + 30);
            m.fill(FILL);
            ByteBuffer b = m.asByteBuffer();
            b.position(6).put(c).position(6).limit(6 + c.length + room);
            return b;
        }));
        return k;
    }

    private static ByteBuffer filledDirect(int capacity) {
        ByteBuffer b = ByteBuffer.allocateDirect(capacity);
        MemorySegment.ofBuffer(b).fill(FILL);
        return b;
    }

    /** Nothing was written before {@code from} or from {@code to} on, up to the capacity (the fill is still there). */
    private static void untouchedOutside(ByteBuffer buffer, int from, int to, String what) {
        ByteBuffer b = buffer.duplicate().clear(); // absolute reads up to the capacity
        for (int i = 0; i < b.capacity(); i++) {
            if ((i < from || i >= to) && b.get(i) != FILL) {
                fail(what + ": byte " + i + " outside [" + from + ", " + to + ") was written");
            }
        }
    }

    @Test
    void everyPairOfBufferKindsRoundTripsAndMovesPositionsOnlyOnSuccess() {
        List<String> problems = new ArrayList<>();
        for (Codec k : codecs()) {
            try (Compressor c = k.c(); Decompressor d = k.d()) {
                for (int size : new int[] {0, 1, 100, 5000, 70_000}) {
                    byte[] data = data(size);
                    byte[] frame = c.compress(data);
                    int bound = (int) c.maxCompressedLength(size);
                    for (Kind sk : kinds(0)) {
                        for (Kind dk : kinds(bound)) {
                            String at = k.name() + " " + size + " B, compress " + sk.name() + " -> " + dk.name();
                            try {
                                ByteBuffer src = sk.make().apply(data);
                                ByteBuffer dst = dk.make().apply(new byte[0]);
                                int sp = src.position(), sl = src.limit(), dp = dst.position(), dl = dst.limit();
                                if (!dk.writable()) {
                                    assertThrows(ReadOnlyBufferException.class, () -> c.compress(src, dst), at);
                                    assertEquals(sp, src.position(), at);
                                    assertEquals(dp, dst.position(), at);
                                    continue;
                                }
                                int n = c.compress(src, dst);
                                assertEquals(sl, src.position(), at + " src position");
                                assertEquals(sl, src.limit(), at);
                                assertEquals(dp + n, dst.position(), at + " dst position");
                                assertEquals(dl, dst.limit(), at);
                                byte[] out = new byte[n];
                                dst.duplicate().position(dp).get(out);
                                assertArrayEquals(frame, out, at + " output");
                                untouchedOutside(dst, dp, dl, at);
                                // failure: too small (capacity n - 1, or 0)
                                ByteBuffer src2 = sk.make().apply(data);
                                ByteBuffer small = dk.make().apply(new byte[0]);
                                small.limit(small.position() + Math.max(0, n - 1));
                                int p2 = small.position();
                                int l2 = small.limit();
                                try {
                                    c.compress(src2, small);
                                    problems.add(at + ": too small destination succeeded");
                                } catch (CompressionException expected) {
                                    assertEquals(sp, src2.position(), at + " src position after failure");
                                    assertEquals(p2, small.position(), at + " dst position after failure");
                                    assertEquals(l2, small.limit(), at);
                                }
                            } catch (Throwable t) {
                                problems.add(at + ": " + t);
                            }
                            String dat = k.name() + " " + size + " B, decompress " + sk.name() + " -> " + dk.name();
                            try {
                                ByteBuffer src = sk.make().apply(frame);
                                ByteBuffer dst = dk.make().apply(new byte[0]);
                                dst.limit(dst.position() + size);
                                int sp = src.position(), sl = src.limit(), dp = dst.position(), dl = dst.limit();
                                if (!dk.writable()) {
                                    assertThrows(ReadOnlyBufferException.class, () -> d.decompress(src, dst), dat);
                                    assertEquals(sp, src.position(), dat);
                                    continue;
                                }
                                int n = d.decompress(src, dst);
                                assertEquals(size, n, dat);
                                assertEquals(sl, src.position(), dat + " src position");
                                assertEquals(dp + n, dst.position(), dat + " dst position");
                                assertEquals(dl, dst.limit(), dat);
                                byte[] out = new byte[n];
                                dst.duplicate().position(dp).get(out);
                                assertArrayEquals(data, out, dat + " output");
                                untouchedOutside(dst, dp, dl, dat);
                                if (size > 0) {
                                    ByteBuffer src2 = sk.make().apply(frame);
                                    ByteBuffer small = dk.make().apply(new byte[0]);
                                    small.limit(small.position() + size - 1);
                                    int p2 = small.position();
                                    try {
                                        d.decompress(src2, small);
                                        problems.add(dat + ": too small destination succeeded");
                                    } catch (CompressionException expected) {
                                        assertEquals(sp, src2.position(), dat + " src position after failure");
                                        assertEquals(p2, small.position(), dat + " dst position after failure");
                                    }
                                }
                                // empty input
                                ByteBuffer empty = sk.make().apply(new byte[0]);
                                ByteBuffer dst3 = dk.make().apply(new byte[0]);
                                int ep = empty.position();
                                int dp3 = dst3.position();
                                assertThrows(CompressionException.class, () -> d.decompress(empty, dst3), dat + " empty");
                                assertEquals(ep, empty.position(), dat);
                                assertEquals(dp3, dst3.position(), dat);
                            } catch (Throwable t) {
                                problems.add(dat + ": " + t);
                            }
                        }
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            fail(problems.size() + " problems:\n" + String.join("\n", problems.subList(0, Math.min(60, problems.size()))));
        }
    }

    @Test
    void arraysAndSegmentsAtOffsetsReadOnlyEmptyAndClosed() {
        List<String> problems = new ArrayList<>();
        for (Codec k : codecs()) {
            try (Compressor c = k.c(); Decompressor d = k.d(); Arena arena = Arena.ofConfined()) {
                for (int size : new int[] {0, 1, 100, 5000, 70_000}) {
                    byte[] data = data(size);
                    byte[] frame = c.compress(data);
                    int bound = (int) c.maxCompressedLength(size);
                    String at = k.name() + " " + size;
                    try {
                        // arrays at offsets
                        byte[] dst = new byte[bound + 10];
                        int n = c.compress(data, 0, size, dst, 10, bound);
                        assertArrayEquals(frame, Arrays.copyOfRange(dst, 10, 10 + n), at);
                        byte[] back = new byte[size + 5];
                        assertEquals(size, d.decompress(frame, 0, frame.length, back, 5, size), at);
                        assertArrayEquals(data, Arrays.copyOfRange(back, 5, 5 + size), at);
                        assertArrayEquals(data, d.decompress(frame), at);
                        // segments: read-only dst
                        MemorySegment ro = MemorySegment.ofArray(new byte[bound]).asReadOnly();
                        assertThrows(IllegalArgumentException.class, () -> c.compress(MemorySegment.ofArray(data), ro), at);
                        assertThrows(IllegalArgumentException.class, () -> d.decompress(MemorySegment.ofArray(frame), ro), at);
                        // segments: read-only heap src
                        MemorySegment out = MemorySegment.ofArray(new byte[bound]);
                        long m = c.compress(MemorySegment.ofArray(data).asReadOnly(), out);
                        assertArrayEquals(frame, out.asSlice(0, m).toArray(ValueLayout.JAVA_BYTE), at);
                        MemorySegment nout = arena.allocate(Math.max(size, 1)).asSlice(0, size);
                        assertEquals(size, d.decompress(MemorySegment.ofArray(frame).asReadOnly(), nout), at);
                        assertArrayEquals(data, nout.toArray(ValueLayout.JAVA_BYTE), at);
                        // empty inputs
                        assertThrows(CompressionException.class, () -> d.decompress(new byte[0], 0, 0, new byte[10], 0, 10), at);
                        assertThrows(CompressionException.class, () -> d.decompress(MemorySegment.ofArray(new byte[0]), arena.allocate(10)), at);
                        assertThrows(CompressionException.class, () -> d.decompress(new byte[0]), at);
                        assertThrows(CompressionException.class, () -> d.decompress(frame, 0, 0), at);
                        // buffers of a closed arena: refused before any native call (their freed memory may be
                        // another buffer's by now, which the overlap check then reports)
                        Arena shortLived = Arena.ofConfined();
                        ByteBuffer gone = shortLived.allocate(bound + 1).asByteBuffer();
                        ByteBuffer gsrc = shortLived.allocate(Math.max(1, size)).asByteBuffer().limit(size);
                        shortLived.close();
                        ByteBuffer direct = ByteBuffer.allocateDirect(Math.max(1, size)).put(data).flip();
                        closedArena(at + " closed dst", () -> c.compress(direct, gone));
                        closedArena(at + " closed src", () -> c.compress(gsrc, ByteBuffer.allocateDirect(bound)));
                        closedArena(at + " closed src, heap dst", () -> c.compress(gsrc, ByteBuffer.allocate(bound)));
                    } catch (Throwable t) {
                        problems.add(at + ": " + t);
                    }
                }
            }
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems));
        }
    }

    @Test
    void heapSegmentsOfOtherArraysCorruptInputAndTryForms() {
        List<String> problems = new ArrayList<>();
        for (Codec k : codecs()) {
            try (Compressor c = k.c(); Decompressor d = k.d()) {
                for (int size : new int[] {0, 8, 800, 40_000, 2_000_000}) {
                    String at = k.name() + " " + size;
                    try {
                        byte[] data = data(size);
                        byte[] frame = c.compress(data);
                        long[] longs = new long[size / 8 + 2];
                        MemorySegment src = MemorySegment.ofArray(longs).asSlice(8, size);
                        MemorySegment.copy(data, 0, src, ValueLayout.JAVA_BYTE, 0, size);
                        int bound = (int) c.maxCompressedLength(size);
                        MemorySegment dst = MemorySegment.ofArray(new int[bound / 4 + 4]).asSlice(4, bound);
                        long n = c.compress(src, dst);
                        assertArrayEquals(frame, dst.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), at);
                        MemorySegment back = MemorySegment.ofArray(new short[size / 2 + 4]).asSlice(2, size);
                        assertEquals(size, d.decompress(dst.asSlice(0, n), back), at);
                        assertArrayEquals(data, back.toArray(ValueLayout.JAVA_BYTE), at);
                        // corrupt input: positions stay
                        if (frame.length > 20) {
                            byte[] bad = frame.clone();
                            for (int i = frame.length / 3; i < frame.length; i += 7) {
                                bad[i] ^= 0x55;
                            }
                            for (boolean direct : new boolean[] {false, true}) {
                                ByteBuffer bs = direct ? ByteBuffer.allocateDirect(bad.length).put(bad).flip() : ByteBuffer.wrap(bad);
                                ByteBuffer bd = direct ? ByteBuffer.allocateDirect(size + 10) : ByteBuffer.allocate(size + 10);
                                try {
                                    int r = d.decompress(bs, bd);
                                    problems.add(at + " corrupt decoded to " + r + " bytes");
                                } catch (CompressionException e) {
                                    if (bs.position() != 0 || bd.position() != 0) {
                                        problems.add(at + " positions moved on corrupt input");
                                    }
                                }
                            }
                        }
                    } catch (Throwable t) {
                        problems.add(at + ": " + t);
                    }
                }
            }
        }
        try (ZstdCompressor z = ZstdCompressor.create(); Lz4Compressor l = Lz4Compressor.create()) {
            byte[] data = data(5000);
            MemorySegment ro = MemorySegment.ofArray(new byte[10_000]).asReadOnly();
            MemorySegment src = MemorySegment.ofArray(data);
            for (Runnable r : List.<Runnable>of(() -> z.tryCompress(src, ro), () -> z.tryCompress(src, ro, 10, 100),
                    () -> l.tryCompress(src, ro), () -> l.tryCompress(src, ro, 10, 100))) {
                try {
                    r.run();
                    problems.add("tryCompress into read-only succeeded");
                } catch (IllegalArgumentException expected) {
                    // fine
                } catch (Throwable t) {
                    problems.add("tryCompress into read-only: " + t);
                }
            }
        }
        if (!problems.isEmpty()) {
            fail(String.join("\n", problems));
        }
    }

    private static void closedArena(String what, org.junit.jupiter.api.function.Executable call) {
        RuntimeException e = assertThrows(RuntimeException.class, call, what);
        assertTrue(e instanceof IllegalStateException || e instanceof IllegalArgumentException, what + ": " + e);
    }

    @Test
    void adjacentBufferRangesOfOneMemoryRoundTrip() {
        for (Codec k : codecs()) {
            try (Compressor c = k.c(); Decompressor d = k.d()) {
                byte[] data = data(5000);
                for (ByteBuffer whole : new ByteBuffer[] {ByteBuffer.allocate(30_000), ByteBuffer.allocateDirect(30_000)}) {
                    whole.put(100, data);
                    ByteBuffer src = whole.duplicate().position(100).limit(5100);
                    ByteBuffer dst = whole.duplicate().position(5100).limit(20_000);
                    int n = c.compress(src, dst);
                    ByteBuffer fsrc = whole.duplicate().position(5100).limit(5100 + n);
                    ByteBuffer out = whole.duplicate().position(5100 + n).limit(5100 + n + 5000);
                    assertEquals(5000, d.decompress(fsrc, out), k.name());
                    byte[] back = new byte[5000];
                    whole.get(5100 + n, back);
                    assertArrayEquals(data, back, k.name());
                }
            }
        }
    }
}
