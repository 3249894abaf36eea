package dev.zstdjava;

import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.lz4.Lz4FrameCompressor;
import dev.zstdjava.lz4.Lz4FrameDecompressor;
import dev.zstdjava.zstd.ZstdCompressStream;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressStream;
import dev.zstdjava.zstd.ZstdDecompressor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A source and a destination that share bytes are refused before the native call, in every form of every codec:
 * native code reads its input while it writes its output, so an overlap gave a frame that did not decode back (or a
 * misleading decoding error) without any exception. Ranges that only touch are fine.
 */
class OverlappingRangesTest {
    private static final byte[] DATA = "overlapping source and destination ranges are refused; ".repeat(200)
            .getBytes(StandardCharsets.US_ASCII);
    private static final int N = DATA.length;
    /** The source's offset in the shared memory; the destination starts {@link #SHIFT} bytes later. */
    private static final int AT = 2 * N;
    private static final int SHIFT = 100;
    private static final int SIZE = 5 * N;

    private record Codec(String name, Compressor c, Decompressor d) {}

    private static List<Codec> codecs() {
        return List.of(new Codec("zstd", ZstdCompressor.create(), ZstdDecompressor.create()),
                new Codec("lz4 block", Lz4Compressor.create(), Lz4Decompressor.create()),
                new Codec("lz4 frame", Lz4FrameCompressor.create(), Lz4FrameDecompressor.create()));
    }

    private static void refused(String what, Executable call) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, call, what);
        assertTrue(e.getMessage().startsWith("source and destination overlap: src ["), what + ": " + e.getMessage());
    }

    @Test
    void overlappingArraysSegmentsAndBuffersAreRefused() {
        for (Codec k : codecs()) {
            try (Compressor c = k.c(); Decompressor d = k.d(); Arena arena = Arena.ofConfined()) {
                byte[] frame = c.compress(DATA);
                for (boolean decode : new boolean[] {false, true}) {
                    byte[] in = decode ? frame : DATA;
                    String what = k.name() + (decode ? " decompress" : " compress");
                    byte[] array = new byte[SIZE];
                    System.arraycopy(in, 0, array, AT, in.length);
                    MemorySegment heap = MemorySegment.ofArray(array);
                    MemorySegment memory = arena.allocate(SIZE);
                    MemorySegment.copy(in, 0, memory, ValueLayout.JAVA_BYTE, AT, in.length);
                    ByteBuffer direct = memory.asByteBuffer();
                    for (int shift : new int[] {in.length / 2, -SHIFT, 0}) { // the frames are short
                        int dstOff = AT + shift;
                        int dstLen = 2 * N;
                        String at = what + ", destination shifted " + shift;
                        refused(at + ", arrays", decode
                                ? () -> d.decompress(array, AT, in.length, array, dstOff, dstLen)
                                : () -> c.compress(array, AT, in.length, array, dstOff, dstLen));
                        for (MemorySegment s : List.of(heap, memory)) {
                            MemorySegment src = s.asSlice(AT, in.length);
                            MemorySegment dst = s.asSlice(dstOff, dstLen);
                            refused(at + ", segments " + s, decode ? () -> d.decompress(src, dst)
                                    : () -> c.compress(src, dst));
                        }
                        for (ByteBuffer b : List.of(ByteBuffer.wrap(array), direct)) {
                            ByteBuffer src = b.duplicate().position(AT).limit(AT + in.length);
                            ByteBuffer dst = b.duplicate().position(dstOff).limit(dstOff + dstLen);
                            for (ByteBuffer from : List.of(src, src.asReadOnlyBuffer())) {
                                refused(at + ", buffers " + from, decode ? () -> d.decompress(from, dst)
                                        : () -> c.compress(from, dst));
                                assertEquals(AT, from.position(), "a refused call moves no position");
                                assertEquals(dstOff, dst.position());
                            }
                        }
                    }
                }
            }
        }
    }

    /**
     * One buffer given as both source and destination is an overlap in every form, heap or direct, whatever else is
     * wrong: the lz4 frame compressor checked the destination's size first for direct buffers, so the same buffer
     * (always smaller than a frame's bound of its own content) gave "destination too small" there and the overlap
     * only for heap buffers.
     */
    @Test
    void oneBufferAsSourceAndDestinationIsAnOverlapInEveryForm() {
        for (Codec k : codecs()) {
            try (Compressor c = k.c(); Decompressor d = k.d()) {
                byte[] frame = c.compress(DATA);
                for (boolean decode : new boolean[] {false, true}) {
                    byte[] in = decode ? frame : DATA;
                    for (ByteBuffer b : List.of(ByteBuffer.allocate(in.length + 10), ByteBuffer.allocateDirect(in.length + 10))) {
                        b.position(5).put(in).position(5).limit(5 + in.length);
                        String what = k.name() + (decode ? " decompress " : " compress ") + b;
                        refused(what, decode ? () -> d.decompress(b, b) : () -> c.compress(b, b));
                        assertEquals(5, b.position(), what + ": a refused call moves no position");
                        assertEquals(5 + in.length, b.limit(), what);
                        // with nothing remaining it shares no byte: the codec's own error (no input, or no room)
                        b.limit(5);
                        assertThrows(CompressionException.class, decode ? () -> d.decompress(b, b)
                                : () -> c.compress(b, b), what + ", empty");
                        assertEquals(5, b.position(), what);
                    }
                }
            }
        }
    }

    /** The ranges that only touch: the output right after the input, and the input right after the output. */
    @Test
    void adjacentRangesOfOneArrayOrSegmentRoundTrip() {
        for (Codec k : codecs()) {
            try (Compressor c = k.c(); Decompressor d = k.d(); Arena arena = Arena.ofConfined()) {
                byte[] array = new byte[SIZE];
                System.arraycopy(DATA, 0, array, AT, N);
                int n = c.compress(array, AT, N, array, AT + N, SIZE - AT - N);
                assertEquals(N, d.decompress(array, AT + N, n, array, AT, N), k.name());
                assertArrayEquals(DATA, Arrays.copyOfRange(array, AT, AT + N), k.name());

                MemorySegment memory = arena.allocate(SIZE);
                MemorySegment.copy(DATA, 0, memory, ValueLayout.JAVA_BYTE, AT, N);
                long m = c.compress(memory.asSlice(AT, N), memory.asSlice(0, AT));
                assertEquals(N, d.decompress(memory.asSlice(0, m), memory.asSlice(m, N)), k.name());
                assertArrayEquals(DATA, memory.asSlice(m, N).toArray(ValueLayout.JAVA_BYTE), k.name());
            }
        }
    }

    /** The {@code tryCompress} forms of the block codecs and the streams check the same. */
    @Test
    void tryCompressAndStreamsRefuseOverlaps() {
        try (ZstdCompressor z = ZstdCompressor.create(); Lz4Compressor l = Lz4Compressor.create();
             ZstdCompressStream cs = ZstdCompressStream.create(); ZstdDecompressStream ds = ZstdDecompressStream.create();
             Lz4FrameCompressor fc = Lz4FrameCompressor.create();
             Lz4FrameDecompressor fd = Lz4FrameDecompressor.create(); Arena arena = Arena.ofConfined()) {
            byte[] array = new byte[SIZE];
            System.arraycopy(DATA, 0, array, AT, N);
            MemorySegment memory = arena.allocate(SIZE);
            MemorySegment src = memory.asSlice(AT, N);
            MemorySegment dst = memory.asSlice(AT + SHIFT, 2 * N);
            refused("zstd tryCompress arrays", () -> z.tryCompress(array, AT, N, array, AT + SHIFT, 2 * N));
            refused("zstd tryCompress segments", () -> z.tryCompress(src, dst));
            refused("zstd tryCompress into a range", () -> z.tryCompress(src, memory, AT - SHIFT, 2 * N));
            refused("lz4 tryCompress arrays", () -> l.tryCompress(array, AT, N, array, AT + SHIFT, 2 * N));
            refused("lz4 tryCompress segments", () -> l.tryCompress(src, dst));
            refused("lz4 tryCompress into a range", () -> l.tryCompress(src, memory, AT - SHIFT, 2 * N));
            refused("zstd compress stream", () -> cs.compress(src, dst));
            refused("zstd decompress stream", () -> ds.decompress(src, dst));
            fc.begin(memory.asSlice(0, AT));
            refused("lz4 frame update", () -> fc.update(src, dst));
            refused("lz4 frame decompressor update", () -> fd.update(src, dst));
            // a touching range is fine
            assertTrue(z.tryCompress(src, memory, AT + N, SIZE - AT - N) > 0);
        }
    }

    /**
     * Memory of a closed arena is reported as closed (an {@link IllegalStateException}, as the JDK reports any use of
     * it), not as an overlap: the overlap check compared the addresses the freed memory had, so two ranges of one
     * closed arena, or a closed range at an address another allocation has since reused, gave "source and
     * destination overlap", which sent the caller looking for the wrong bug. Every form that checks for overlap.
     */
    @Test
    void rangesOfAClosedArenaAreClosedNotOverlapping() {
        try (ZstdCompressor z = ZstdCompressor.create(); ZstdDecompressor zd = ZstdDecompressor.create();
             Lz4Compressor l = Lz4Compressor.create(); Lz4Decompressor ld = Lz4Decompressor.create();
             Lz4FrameCompressor fc = Lz4FrameCompressor.create(); Lz4FrameDecompressor fd = Lz4FrameDecompressor.create();
             ZstdCompressStream cs = ZstdCompressStream.create(); ZstdDecompressStream ds = ZstdDecompressStream.create();
             Arena live = Arena.ofConfined()) {
            Arena arena = Arena.ofShared();
            MemorySegment memory = arena.allocate(SIZE);
            MemorySegment src = memory.asSlice(AT, N);
            MemorySegment dst = memory.asSlice(AT + SHIFT, 2 * N);
            ByteBuffer srcBuffer = src.asByteBuffer();
            ByteBuffer dstBuffer = dst.asByteBuffer();
            ByteBuffer both = memory.asByteBuffer();
            fc.begin(live.allocate(AT));
            arena.close();
            for (Codec k : List.of(new Codec("zstd", z, zd), new Codec("lz4 block", l, ld), new Codec("lz4 frame", fc, fd))) {
                closed(k.name() + " compress segments", () -> k.c().compress(src, dst));
                closed(k.name() + " decompress segments", () -> k.d().decompress(src, dst));
                closed(k.name() + " compress direct buffers", () -> k.c().compress(srcBuffer, dstBuffer));
                closed(k.name() + " decompress direct buffers", () -> k.d().decompress(srcBuffer, dstBuffer));
                closed(k.name() + " compress one buffer", () -> k.c().compress(both, both));
                closed(k.name() + " decompress one buffer", () -> k.d().decompress(both, both));
                closed(k.name() + " decompress a read-only buffer", () -> k.d().decompress(srcBuffer.asReadOnlyBuffer(), dstBuffer));
            }
            closed("zstd tryCompress", () -> z.tryCompress(src, dst));
            closed("zstd tryCompress into a range", () -> z.tryCompress(src, memory, AT - SHIFT, 2 * N));
            closed("lz4 tryCompress", () -> l.tryCompress(src, dst));
            closed("lz4 tryCompress into a range", () -> l.tryCompress(src, memory, AT - SHIFT, 2 * N));
            closed("zstd compress stream", () -> cs.compress(src, dst));
            closed("zstd decompress stream", () -> ds.decompress(src, dst));
            closed("lz4 frame update", () -> fc.update(src, dst));
            closed("lz4 frame decompressor update", () -> fd.update(src, dst));
            assertEquals(0, srcBuffer.position(), "a refused call moves no position");
            // the codecs are unharmed: a call on live memory works
            assertArrayEquals(DATA, zd.decompress(z.compress(DATA)));
        }
    }

    private static void closed(String what, Executable call) {
        IllegalStateException e = assertThrows(IllegalStateException.class, call, what);
        assertTrue(e.getMessage().contains("already closed") || e.getMessage().equals("Already closed"),
                what + ": " + e.getMessage());
    }
}
