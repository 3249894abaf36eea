package dev.zstdjava.lz4;

import dev.zstdjava.AbstractRoundTripTest;
import dev.zstdjava.TestData.Kind;
import dev.zstdjava.TestData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The frame format in every API shape through {@link AbstractRoundTripTest} (sizes 0 B..16 MiB, fast, default and HC
 * levels, streams included), plus what only frames have: options and their bounds, concatenation, the segment
 * streaming API, streams written in pieces, and allocation.
 */
class Lz4FrameTest extends AbstractRoundTripTest {
    static final int BIG = 16 << 20;

    @Override
    protected int[] sizes() {
        return new int[] {0, 1, 17, 1000, 65_536, 65_537, (1 << 20) + 3, BIG};
    }

    @Override
    protected int[] levels(int size) {
        return size == BIG ? new int[] {0, 3} : new int[] {-5, 0, 9};
    }

    @Override
    protected Set<Shape> shapes(int size) {
        return size == BIG ? EnumSet.of(Shape.SEGMENT_NATIVE, Shape.ARRAY_NEW) : EnumSet.allOf(Shape.class);
    }

    @Override
    protected int compressesFrom() {
        return 65_536;
    }

    @Override
    protected void checkCompressed(byte[] frame, int size) {
        assertEquals(size == 0 ? Lz4Frame.UNKNOWN_SIZE : size, Lz4Frame.contentSize(frame, 0, frame.length),
                "content size declared in the header");
    }

    static Lz4Frame.Options options(int level, int size) {
        return Lz4Frame.Options.DEFAULT.withLevel(level)
                .withBlockSize(size == BIG ? Lz4Frame.BlockSize.MB_4 : Lz4Frame.BlockSize.KB_64);
    }

    @Override
    protected Codec open(int level, int size) {
        Lz4Frame.Options options = options(level, size);
        Lz4FrameCompressor c = Lz4FrameCompressor.create(options);
        Lz4FrameDecompressor d = Lz4FrameDecompressor.create();
        Calls compress = new Calls(c::compress, c::compress, (src, n) -> c.compress(src), c::compress,
                (src, n) -> Lz4Frame.compress(src, options));
        Calls decompress = new Calls(d::decompress, d::decompress, (src, n) -> d.decompress(src), d::decompress,
                (src, n) -> Lz4Frame.decompress(src));
        return new Codec(c::maxCompressedLength, compress, decompress, out -> new Lz4FrameOutputStream(out, options),
                Lz4FrameInputStream::new, () -> {
            c.close();
            d.close();
        });
    }

    static Stream<Lz4Frame.Options> optionVariants() {
        Lz4Frame.Options d = Lz4Frame.Options.DEFAULT;
        List<Lz4Frame.Options> out = new ArrayList<>();
        for (Lz4Frame.BlockSize bs : Lz4Frame.BlockSize.values()) {
            out.add(d.withBlockSize(bs));
            out.add(d.withBlockSize(bs).withBlockIndependent(false).withBlockChecksum(true));
        }
        out.add(d.withContentChecksum(false).withContentSize(false));
        out.add(d.withBlockChecksum(true).withContentChecksum(false).withLevel(12));
        out.add(d.withBlockIndependent(false).withLevel(-128));
        out.add(d.withLevel(1));
        return out.stream();
    }

    @ParameterizedTest
    @MethodSource("optionVariants")
    void optionsRoundTripAndMatchLz4sBounds(Lz4Frame.Options options) {
        byte[] data = TestData.generate(Kind.TEXT, 5_000_000, 11);
        byte[] frame = Lz4Frame.compress(data, options);
        assertArrayEquals(data, Lz4Frame.decompress(frame));
        assertEquals(options.contentSize() ? data.length : Lz4Frame.UNKNOWN_SIZE,
                Lz4Frame.contentSize(frame, 0, frame.length));
        int flg = frame[4] & 0xFF;
        assertEquals(options.blockIndependent() || data.length <= options.blockSize().bytes(), (flg & 0x20) != 0,
                "block independence flag");
        assertEquals(options.blockChecksum(), (flg & 0x10) != 0, "block checksum flag");
        assertEquals(options.contentChecksum(), (flg & 0x04) != 0, "content checksum flag");
        assertEquals(options.blockSize().ordinal() + 4, (frame[5] >> 4) & 7, "block size id");

        // the Java bounds equal liblz4's own for many sizes
        try (Arena a = Arena.ofConfined()) {
            MemorySegment prefs = a.allocate(Lz4Native.PREFERENCES);
            Lz4Native.preferences(prefs, options);
            for (long n : new long[] {0, 1, 65_535, 65_536, 65_537, 262_144, 1 << 20, 4 << 20, (4 << 20) + 1,
                    123_456_789L, 3L << 30}) {
                assertEquals(Lz4Native.compressFrameBound(n, prefs), Lz4Frame.maxCompressedLength(n, options),
                        "LZ4F_compressFrameBound(" + n + ")");
                assertEquals(Lz4Native.compressBound(n, prefs), Lz4Frame.updateBound(n, options),
                        "LZ4F_compressBound(" + n + ")");
            }
        }
    }

    @Test
    void concatenatedFramesDecodeAsOne() {
        byte[] a = TestData.generate(Kind.TEXT, 100_000, 1);
        byte[] b = TestData.generate(Kind.INCOMPRESSIBLE, 70_000, 2);
        byte[] both = concat(Lz4Frame.compress(a), Lz4Frame.compress(b, Lz4Frame.Options.DEFAULT.withContentSize(false)));
        assertArrayEquals(concat(a, b), Lz4Frame.decompress(both), "first frame declares a size, more follows");
        byte[] skippable = {0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 9, 9, 9};
        assertArrayEquals(concat(a, b), Lz4Frame.decompress(concat(skippable, both)), "skippable frames are skipped");
        try (Lz4FrameDecompressor d = Lz4FrameDecompressor.create()) {
            byte[] out = new byte[a.length + b.length];
            assertEquals(out.length, d.decompress(both, 0, both.length, out, 0, out.length));
            assertArrayEquals(concat(a, b), out);
        }
    }

    @Test
    void segmentStreamingRoundTripsInPieces() {
        SplittableRandom r = new SplittableRandom(42);
        byte[] data = TestData.generate(Kind.TEXT, 3_000_000, 9);
        for (Lz4Frame.Options options : new Lz4Frame.Options[] {Lz4Frame.Options.DEFAULT,
                Lz4Frame.Options.DEFAULT.withBlockIndependent(false).withBlockSize(Lz4Frame.BlockSize.MB_1).withLevel(9)}) {
            try (Arena arena = Arena.ofConfined(); Lz4FrameCompressor c = Lz4FrameCompressor.create(options);
                 Lz4FrameDecompressor d = Lz4FrameDecompressor.create()) {
                MemorySegment src = arena.allocate(data.length);
                MemorySegment.copy(data, 0, src, ValueLayout.JAVA_BYTE, 0, data.length);
                MemorySegment out = arena.allocate(c.updateBound(200_000));
                ByteArrayOutputStream frame = new ByteArrayOutputStream();
                long n = c.begin(out, data.length);
                frame.write(out.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), 0, (int) n);
                int pos = 0;
                while (pos < data.length) {
                    int piece = Math.min(data.length - pos, r.nextInt(200_000));
                    n = c.update(src.asSlice(pos, piece), out);
                    frame.writeBytes(out.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
                    pos += piece;
                    if (r.nextInt(10) == 0) {
                        n = c.flush(out);
                        frame.writeBytes(out.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
                    }
                }
                n = c.end(out);
                frame.writeBytes(out.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE));
                byte[] f = frame.toByteArray();
                assertEquals(data.length, Lz4Frame.contentSize(f, 0, f.length));
                assertArrayEquals(data, Lz4Frame.decompress(f));

                // decode in pieces: tiny and varied input and output windows
                MemorySegment fs = arena.allocate(f.length);
                MemorySegment.copy(f, 0, fs, ValueLayout.JAVA_BYTE, 0, f.length);
                MemorySegment back = arena.allocate(data.length);
                long in = 0;
                long produced = 0;
                long hint = -1;
                while (hint != 0) {
                    long inPiece = Math.min(f.length - in, 1 + r.nextInt(70_000));
                    long outPiece = Math.min(data.length - produced, r.nextInt(10) == 0 ? 1 : r.nextInt(100_000));
                    hint = d.update(fs.asSlice(in, inPiece), back.asSlice(produced, outPiece));
                    in += d.consumed();
                    produced += d.produced();
                }
                assertEquals(f.length, in);
                assertEquals(data.length, produced);
                assertArrayEquals(data, back.toArray(ValueLayout.JAVA_BYTE));
            }
        }
    }

    @Test
    void outputStreamToInputStream() throws IOException {
        SplittableRandom r = new SplittableRandom(7);
        for (Kind kind : Kind.values()) {
            byte[] data = TestData.generate(kind, 2_500_000, kind.ordinal());
            ByteArrayOutputStream sink = new ByteArrayOutputStream();
            try (Lz4FrameOutputStream out = new Lz4FrameOutputStream(sink,
                    Lz4Frame.Options.DEFAULT.withBlockSize(Lz4Frame.BlockSize.KB_256).withBlockChecksum(true))) {
                int pos = 0;
                while (pos < data.length) {
                    int n = Math.min(data.length - pos, r.nextInt(5) == 0 ? 1 : r.nextInt(300_000));
                    if (n == 1) {
                        out.write(data[pos]);
                    } else {
                        out.write(data, pos, n);
                    }
                    pos += n;
                    if (r.nextInt(20) == 0) {
                        out.flush();
                    }
                }
            }
            byte[] frame = sink.toByteArray();
            assertArrayEquals(data, Lz4Frame.decompress(frame), kind + ": one-shot decode of the streamed frame");
            try (Lz4FrameInputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(frame))) {
                assertArrayEquals(data, readInPieces(in, r), kind + ": stream decode");
            }
        }
    }

    /**
     * After {@link Lz4FrameOutputStream#finish()}, flush() flushes the underlying stream and writes nothing, as the
     * JDK's DeflaterOutputStream does: a BufferedOutputStream (or any wrapper that flushes on close) on top of a
     * finished stream closes without an error. Writes are still refused.
     */
    @Test
    void flushAfterFinishFlushesTheUnderlyingStreamOnly() throws IOException {
        byte[] data = TestData.generate(Kind.TEXT, 100_000, 3);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        int[] flushes = new int[1];
        OutputStream counting = new java.io.FilterOutputStream(sink) {
            @Override
            public void write(byte[] b, int off, int len) {
                sink.write(b, off, len);
            }

            @Override
            public void flush() {
                flushes[0]++;
            }
        };
        Lz4FrameOutputStream lz4 = new Lz4FrameOutputStream(counting);
        java.io.BufferedOutputStream buffered = new java.io.BufferedOutputStream(lz4);
        buffered.write(data);
        buffered.flush();
        lz4.finish();
        int size = sink.size();
        int before = flushes[0];
        lz4.flush();
        assertEquals(before + 1, flushes[0], "the underlying stream is flushed");
        assertEquals(size, sink.size(), "nothing is written after the end mark");
        IOException e = assertThrows(IOException.class, () -> lz4.write(1));
        assertTrue(e.getMessage().contains("finished"), e.getMessage());
        buffered.close();
        assertEquals(size, sink.size());
        assertArrayEquals(data, Lz4Frame.decompress(sink.toByteArray()));
        assertThrows(IOException.class, lz4::flush, "closed");
    }

    @Test
    void inputStreamReadsConcatenatedFramesAndEmptyInput() throws IOException {
        byte[] a = TestData.generate(Kind.TEXT, 300_000, 1);
        byte[] b = TestData.generate(Kind.REPETITIVE, 200_000, 2);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (Lz4FrameOutputStream out = new Lz4FrameOutputStream(sink)) {
            out.write(a);
        }
        sink.writeBytes(Lz4Frame.compress(b));
        try (Lz4FrameOutputStream out = new Lz4FrameOutputStream(sink)) {
            out.flush(); // an empty frame
        }
        try (InputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(sink.toByteArray()))) {
            assertArrayEquals(concat(a, b), in.readAllBytes());
            assertEquals(-1, in.read());
        }
        try (InputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(new byte[0]))) {
            assertEquals(-1, in.read(), "no frames: empty content");
        }
        ByteArrayOutputStream empty = new ByteArrayOutputStream();
        new Lz4FrameOutputStream(empty).close();
        assertArrayEquals(new byte[0], Lz4Frame.decompress(empty.toByteArray()), "a frame with no content");
    }

    @Test
    void segmentCallsAllocateNothingOnTheHeap() {
        byte[] data = TestData.generate(Kind.TEXT, 4096, 5);
        try (Arena a = Arena.ofConfined(); Lz4FrameCompressor c = Lz4FrameCompressor.create();
             Lz4FrameDecompressor d = Lz4FrameDecompressor.create()) {
            MemorySegment src = a.allocate(data.length);
            MemorySegment.copy(data, 0, src, ValueLayout.JAVA_BYTE, 0, data.length);
            MemorySegment out = a.allocate(c.updateBound(data.length));
            MemorySegment back = a.allocate(data.length);
            MemorySegment frameBuf = a.allocate(c.maxCompressedLength(data.length));
            MemorySegment frame = frameBuf.asSlice(0, c.compress(src, frameBuf));
            long streaming = Lz4Allocation.perCall(() -> {
                c.begin(out);
                c.update(src, out);
                c.flush(out);
                c.end(out);
                d.reset();
                d.update(frame, back);
            }, 30_000);
            assertEquals(0, streaming, "heap bytes per begin/update/flush/end + reset/update");
            long oneShot = Lz4Allocation.perCall(() -> {
                c.compress(src, frameBuf);
                d.decompress(frame, back);
            }, 30_000);
            assertEquals(0, oneShot, "heap bytes per one-shot compress + decompress");
            assertArrayEquals(data, back.toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @Test
    void staticAndInstanceFramesMatchUnderManyThreads() throws Exception {
        byte[] data = TestData.generate(Kind.TEXT, 200_000, 3);
        byte[] expected = Lz4Frame.compress(data);
        List<Thread> threads = new ArrayList<>();
        List<Throwable> errors = java.util.Collections.synchronizedList(new ArrayList<>());
        for (int t = 0; t < 8; t++) {
            Thread.Builder builder = t % 2 == 0 ? Thread.ofPlatform() : Thread.ofVirtual();
            threads.add(builder.start(() -> {
                try {
                    for (int i = 0; i < 30; i++) {
                        assertArrayEquals(expected, Lz4Frame.compress(data));
                        assertArrayEquals(data, Lz4Frame.decompress(expected));
                        assertArrayEquals(data, Lz4.decompress(Lz4.compress(data, i % 3 - 1), data.length));
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }));
        }
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(List.of(), errors);
    }

    @Test
    void levelsMapLikeTheBlockApi() {
        assertEquals(0, Lz4Frame.Options.DEFAULT.withLevel(0).frameLevel());
        assertEquals(0, Lz4Frame.Options.DEFAULT.withLevel(-1).frameLevel(), "acceleration 1");
        assertEquals(-4, Lz4Frame.Options.DEFAULT.withLevel(-5).frameLevel(), "LZ4F acceleration = 1 - level = 5");
        assertEquals(2, Lz4Frame.Options.DEFAULT.withLevel(1).frameLevel(), "HC 1 runs as HC 2");
        assertEquals(12, Lz4Frame.Options.DEFAULT.withLevel(12).frameLevel());
        byte[] data = TestData.generate(Kind.TEXT, 1_000_000, 3);
        int fast = Lz4Frame.compress(data, Lz4Frame.Options.DEFAULT.withLevel(-20)).length;
        int dflt = Lz4Frame.compress(data).length;
        int hc = Lz4Frame.compress(data, Lz4Frame.Options.DEFAULT.withLevel(9)).length;
        assertTrue(fast > dflt && dflt > hc, fast + " " + dflt + " " + hc);
        assertThrows(IllegalArgumentException.class, () -> Lz4Frame.Options.DEFAULT.withLevel(13));
        assertThrows(IllegalArgumentException.class, () -> Lz4Frame.Options.DEFAULT.withLevel(-129));
    }

    static byte[] readInPieces(InputStream in, SplittableRandom r) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[200_000];
        while (true) {
            if (r.nextInt(50) == 0) {
                int b = in.read();
                if (b < 0) {
                    break;
                }
                out.write(b);
                continue;
            }
            int n = in.read(buf, 0, 1 + r.nextInt(buf.length - 1));
            if (n < 0) {
                break;
            }
            out.write(buf, 0, n);
        }
        return out.toByteArray();
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
