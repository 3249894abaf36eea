package dev.zstdjava.zstd;

import dev.zstdjava.DecompressionLimitException;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;

import static dev.zstdjava.zstd.StreamTestData.data;
import static dev.zstdjava.zstd.StreamTestData.readAll;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ZstdStreamTest {

    static byte[] compress(byte[] data, int writeChunk, ZstdCompressStream.Builder params) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZstdOutputStream out = new ZstdOutputStream(bytes, params)) {
            for (int i = 0; i < data.length; i += writeChunk) {
                int n = Math.min(writeChunk, data.length - i);
                if (n == 1) {
                    out.write(data[i]);
                } else {
                    out.write(data, i, n);
                }
            }
        }
        return bytes.toByteArray();
    }

    static byte[] decompress(byte[] frame, int readChunk) throws IOException {
        try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(frame))) {
            if (readChunk == 1) {
                ByteArrayOutputStream out = new ByteArrayOutputStream();
                int b;
                while ((b = in.read()) >= 0) {
                    out.write(b);
                }
                return out.toByteArray();
            }
            return readAll(in, readChunk);
        }
    }

    @ParameterizedTest(name = "size {0}, write {1}, read {2}, level {3}")
    @CsvSource({
            "0, 1, 1, 3",
            "1, 1, 1, 3",
            "1000, 1, 1, 3",
            "100003, 1, 13, 1",
            "100003, 13, 1, 19",
            "1048573, 7, 8191, 3",
            "1048573, 65537, 7, -5",
            "3000017, 131071, 131072, 3",
            "3000017, 1048573, 65521, 9",
            "9000011, 4093, 1000003, 3",
    })
    @Timeout(value = 15, unit = TimeUnit.MINUTES) // 7 s here, 191 s for the 7-byte writes under Wine; runs under qemu
    void roundTripWithOddChunks(int size, int writeChunk, int readChunk, int level) throws IOException {
        byte[] data = data(size, size + level);
        byte[] frame = compress(data, writeChunk, ZstdCompressStream.builder().level(level).checksum(true));
        if (size > 0) { // an empty stream is ended in its first call, so zstd knows (and writes) size 0
            assertEquals(ZstdFrame.UNKNOWN_SIZE, ZstdFrame.contentSize(frame, 0, frame.length));
        }
        assertArrayEquals(data, decompress(frame, readChunk));
        assertArrayEquals(data, Zstd.decompress(frame), "one-shot decoder reads the streamed frame");
    }

    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES) // 42 s on JDK 21 on a loaded machine; runs under qemu
    void roundTrip64MiB() throws IOException {
        byte[] data = data(64 << 20, 64);
        byte[] frame = compress(data, 1048573, ZstdCompressStream.builder().level(1));
        assertTrue(frame.length < data.length * 3L / 4, "compressed " + frame.length);
        try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(frame))) {
            byte[] b = new byte[65521];
            long at = 0;
            int n;
            while ((n = in.read(b)) >= 0) {
                assertEquals(-1, Arrays.mismatch(data, (int) at, (int) at + n, b, 0, n), "at offset " + at);
                at += n;
            }
            assertEquals(data.length, at);
            assertEquals(data.length, in.decompressedBytes());
        }
    }

    @Test
    void flushMakesEverythingWrittenDecodable() throws IOException {
        byte[] data = data(300_000, 5);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        int[] cuts = {1, 17, 1000, 70_000, 299_000, 300_000};
        try (ZstdOutputStream out = new ZstdOutputStream(sink, 19)) {
            int from = 0;
            for (int cut : cuts) {
                out.write(data, from, cut - from);
                out.flush();
                from = cut;
                byte[] soFar = sink.toByteArray();
                // an independent decoder (zstd-jni) reads exactly what was written, with the frame still open
                try (var jni = new com.github.luben.zstd.ZstdInputStream(new ByteArrayInputStream(soFar))) {
                    jni.setContinuous(true);
                    assertArrayEquals(Arrays.copyOf(data, cut), readAll(jni, 4096), "after flush at " + cut);
                }
                // and so does ours; the frame is not complete yet
                try (ZstdDecompressStream d = ZstdDecompressStream.create(); Arena a = Arena.ofConfined()) {
                    MemorySegment dst = a.allocate(cut + 1);
                    d.decompress(MemorySegment.ofArray(soFar), dst);
                    assertEquals(soFar.length, d.consumed());
                    assertEquals(cut, d.produced());
                    assertFalse(d.isFrameComplete());
                    assertEquals(-1, MemorySegment.mismatch(dst, 0, cut, MemorySegment.ofArray(data), 0, cut));
                }
            }
        }
        assertArrayEquals(data, Zstd.decompress(sink.toByteArray()));
    }

    @Test
    void concatenatedAndSkippableFramesWithAndWithoutContentSize() throws IOException {
        byte[] a = data(100_000, 1);
        byte[] b = data(5, 2);
        byte[] c = data(250_000, 3);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        all.write(compress(a, 4096, ZstdCompressStream.builder()));          // no content size
        all.write(Zstd.compress(b));                                           // content size
        all.write(new byte[] {0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 9, 9, 9});  // skippable frame, 3 bytes
        all.write(Zstd.compress(new byte[0]));                                 // empty frame
        all.write(compress(c, 1000, ZstdCompressStream.builder().checksum(true)));
        byte[] expected = new byte[a.length + b.length + c.length];
        System.arraycopy(a, 0, expected, 0, a.length);
        System.arraycopy(b, 0, expected, a.length, b.length);
        System.arraycopy(c, 0, expected, a.length + b.length, c.length);
        for (int chunk : new int[] {1, 7, 65536}) {
            assertArrayEquals(expected, decompress(all.toByteArray(), chunk), "read chunk " + chunk);
        }
        // the same input fed to the segment API one byte at a time
        assertArrayEquals(expected, segmentDecode(all.toByteArray(), 1, 999));
    }

    @Test
    void emptyInputIsZeroFrames() throws IOException {
        assertEquals(-1, new ZstdInputStream(new ByteArrayInputStream(new byte[0])).read());
    }

    @Test
    void truncatedStreamFailsAtTheEnd() throws IOException {
        byte[] data = data(200_000, 9);
        byte[] frame = compress(data, 10_000, ZstdCompressStream.builder());
        for (int cut : new int[] {1, 4, 6, 20, frame.length / 2, frame.length - 1}) {
            byte[] part = Arrays.copyOf(frame, cut);
            ZstdException e = assertThrows(ZstdException.class, () -> decompress(part, 4096), "cut at " + cut);
            assertTrue(e.getMessage().contains("truncated"), e.getMessage());
        }
        // after the error the stream stays failed instead of decoding from a lost position
        try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(Arrays.copyOf(frame, 100)))) {
            assertThrows(ZstdException.class, () -> readAll(in, 4096));
            IOException again = assertThrows(IOException.class, in::read);
            assertTrue(again.getCause() instanceof ZstdException, again.toString());
        }
        // a complete frame followed by a truncated one
        byte[] two = Arrays.copyOf(frame, frame.length * 2 - 3);
        System.arraycopy(frame, 0, two, frame.length, frame.length - 3);
        assertThrows(ZstdException.class, () -> decompress(two, 4096));
    }

    @Test
    void garbageAfterFramesIsAnError() throws IOException {
        byte[] frame = compress(data(1000, 1), 100, ZstdCompressStream.builder());
        byte[] bad = Arrays.copyOf(frame, frame.length + 8);
        Arrays.fill(bad, frame.length, bad.length, (byte) 0x41);
        ZstdException e = assertThrows(ZstdException.class, () -> decompress(bad, 4096));
        assertTrue(e.getMessage().contains("zstd decompress stream"), e.getMessage());
    }

    @Test
    void checksumCatchesCorruption() throws IOException {
        byte[] data = data(50_000, 4);
        byte[] frame = compress(data, 50_000, ZstdCompressStream.builder().checksum(true));
        frame[frame.length - 2] ^= 1;
        ZstdException e = assertThrows(ZstdException.class, () -> decompress(frame, 4096));
        assertEquals(ZstdException.CHECKSUM_WRONG, e.errorCode(), e.getMessage());
    }

    @Test
    void continuousModeReadsAGrowingFile(@TempDir Path dir) throws IOException {
        byte[] data = data(400_000, 11);
        byte[] frame = compress(data, 400_000, ZstdCompressStream.builder());
        Path file = dir.resolve("growing.zst");
        Files.write(file, Arrays.copyOf(frame, frame.length / 3));
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (ZstdInputStream in = new ZstdInputStream(Files.newInputStream(file)).continuous(true)) {
            got.write(readAll(in, 5000));
            assertTrue(got.size() < data.length);
            try (OutputStream append = Files.newOutputStream(file, java.nio.file.StandardOpenOption.APPEND)) {
                append.write(frame, frame.length / 3, frame.length - frame.length / 3);
            }
            got.write(readAll(in, 5000));
        }
        assertArrayEquals(data, got.toByteArray());
    }

    @Test
    void outputIsBoundedByTheLimit() throws IOException {
        byte[] data = new byte[10_000_000];
        byte[] frame = compress(data, 1 << 20, ZstdCompressStream.builder());
        try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(frame),
                ZstdDecompressStream.builder().maxDecompressedSize(1_000_000))) {
            DecompressionLimitException e = assertThrows(DecompressionLimitException.class, () -> readAll(in, 65536));
            assertEquals(1_000_000, e.limit());
            assertTrue(e.size() > 1_000_000 && e.size() <= 1_000_001, "reached " + e.size());
        }
        // exactly at the limit is fine
        try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(frame),
                ZstdDecompressStream.builder().maxDecompressedSize(data.length))) {
            assertEquals(data.length, readAll(in, 1 << 20).length);
        }
        try (ZstdDecompressStream d = ZstdDecompressStream.create()) {
            assertEquals(dev.zstdjava.Decompressor.DEFAULT_MAX_DECOMPRESSED_SIZE, d.maxDecompressedSize());
        }
    }

    @Test
    void borrowedContextsServeManyStreams() throws IOException {
        try (ZstdCompressStream c = ZstdCompressStream.builder().level(5).checksum(true).build();
             ZstdDecompressStream d = ZstdDecompressStream.create()) {
            for (int i = 0; i < 5; i++) {
                byte[] data = data(10_000 * i + 1, i);
                ByteArrayOutputStream bytes = new ByteArrayOutputStream();
                try (ZstdOutputStream out = new ZstdOutputStream(bytes, c)) {
                    out.write(data);
                    if (i == 3) {
                        continue; // closed by try: frame ends normally
                    }
                }
                try (ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(bytes.toByteArray()), d)) {
                    assertArrayEquals(data, readAll(in, 3333));
                }
            }
            // a half-written frame on a borrowed context is abandoned by the next stream
            ZstdOutputStream abandoned = new ZstdOutputStream(new ByteArrayOutputStream(), c);
            abandoned.write(data(100_000, 1));
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (ZstdOutputStream out = new ZstdOutputStream(bytes, c)) {
                out.write(new byte[] {1, 2, 3});
            }
            assertArrayEquals(new byte[] {1, 2, 3}, Zstd.decompress(bytes.toByteArray()));
        }
    }

    @Test
    void failedWriteLeavesTheFrameUnended() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        OutputStream flaky = new OutputStream() {
            int writes;

            @Override
            public void write(int b) {
                sink.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (++writes == 2) {
                    throw new IOException("disk full");
                }
                sink.write(b, off, len);
            }
        };
        ZstdOutputStream out = new ZstdOutputStream(flaky, 1);
        byte[] data = data(2_000_000, 3);
        assertThrows(IOException.class, () -> out.write(data));
        IOException again = assertThrows(IOException.class, () -> out.write(1));
        assertTrue(again.getMessage().contains("disk full"), again.getMessage());
        assertThrows(IOException.class, out::close, "close reports the incomplete frame");
        // what reached the sink is a frame with a hole: never a clean, complete-looking frame
        assertThrows(ZstdException.class, () -> decompress(sink.toByteArray(), 65536));
    }

    @Test
    void closedStreamsRefuseWork() throws IOException {
        ZstdOutputStream out = new ZstdOutputStream(new ByteArrayOutputStream());
        out.close();
        out.close();
        assertThrows(IOException.class, () -> out.write(1));
        ZstdInputStream in = new ZstdInputStream(new ByteArrayInputStream(new byte[0]));
        in.close();
        assertThrows(IOException.class, in::read);
        ZstdCompressStream c = ZstdCompressStream.create();
        c.close();
        assertThrows(IllegalStateException.class, () -> c.compress(MemorySegment.ofArray(new byte[1]),
                MemorySegment.ofArray(new byte[100])));
    }

    // ---- segment API ---------------------------------------------------------------------------------------------

    /** Compresses with the segment API, input fed in {@code inChunk} pieces, output space {@code outChunk}. */
    static byte[] segmentEncode(ZstdCompressStream c, MemorySegment src, int inChunk, int outChunk, Arena arena,
                                boolean nativeOut) {
        MemorySegment out = nativeOut ? arena.allocate(outChunk) : MemorySegment.ofArray(new byte[outChunk]);
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        long at = 0;
        while (at < src.byteSize()) {
            MemorySegment piece = src.asSlice(at, Math.min(inChunk, src.byteSize() - at));
            long taken = 0;
            while (taken < piece.byteSize()) {
                c.compress(piece.asSlice(taken), out);
                taken += c.consumed();
                frame.writeBytes(out.asSlice(0, c.produced()).toArray(ValueLayout.JAVA_BYTE));
            }
            at += taken;
        }
        long left;
        do {
            left = c.end(MemorySegment.ofArray(new byte[0]), out);
            frame.writeBytes(out.asSlice(0, c.produced()).toArray(ValueLayout.JAVA_BYTE));
        } while (left != 0);
        return frame.toByteArray();
    }

    static byte[] segmentDecode(byte[] frame, int inChunk, int outChunk) {
        try (ZstdDecompressStream d = ZstdDecompressStream.create(); Arena a = Arena.ofConfined()) {
            MemorySegment src = a.allocate(frame.length);
            MemorySegment.copy(frame, 0, src, ValueLayout.JAVA_BYTE, 0, frame.length);
            MemorySegment out = a.allocate(outChunk);
            ByteArrayOutputStream got = new ByteArrayOutputStream();
            long at = 0;
            while (true) {
                MemorySegment piece = src.asSlice(at, Math.min(inChunk, frame.length - at));
                d.decompress(piece, out);
                at += d.consumed();
                got.writeBytes(out.asSlice(0, d.produced()).toArray(ValueLayout.JAVA_BYTE));
                if (at == frame.length && d.produced() < outChunk) {
                    break;
                }
            }
            assertTrue(d.isFrameComplete());
            return got.toByteArray();
        }
    }

    @ParameterizedTest(name = "workers {0}, heap {1}")
    @CsvSource({"0, true", "0, false", "2, true", "2, false"})
    void segmentApiRoundTrip(int workers, boolean heap) throws IOException {
        byte[] data = data(3_000_000, workers);
        try (ZstdCompressStream c = ZstdCompressStream.builder().workers(workers).level(3).build();
             Arena a = Arena.ofConfined()) {
            MemorySegment src;
            if (heap) {
                src = MemorySegment.ofArray(data);
            } else {
                src = a.allocate(data.length);
                MemorySegment.copy(data, 0, src, ValueLayout.JAVA_BYTE, 0, data.length);
            }
            byte[] frame = segmentEncode(c, src, 100_003, 4099, a, !heap);
            assertArrayEquals(data, Zstd.decompress(frame));
            assertArrayEquals(data, segmentDecode(frame, 9973, 65536));
            // the context is reusable for the next frame
            byte[] again = segmentEncode(c, src, 1 << 20, 1 << 16, a, !heap);
            assertArrayEquals(data, Zstd.decompress(again));
        }
    }

    /**
     * With workers, a heap source larger than the staging buffer is taken in pieces: {@code end} and {@code flush}
     * must not end or flush the frame on the first piece and report it done (the rest of the input was lost).
     */
    @ParameterizedTest(name = "workers {0}, end {1}")
    @CsvSource({"0, true", "0, false", "2, true", "2, false"})
    void endAndFlushOnALargeHeapSourceTakeAllOfIt(int workers, boolean end) throws IOException {
        byte[] data = data(1_000_000, 7);
        byte[] out = new byte[(int) Zstd.compressBound(data.length) + 1024];
        long in = 0;
        long at = 0;
        try (ZstdCompressStream c = ZstdCompressStream.builder().workers(workers).build()) {
            long left;
            int calls = 0;
            do { // the documented loop: call again until 0
                MemorySegment src = MemorySegment.ofArray(data).asSlice(in);
                MemorySegment dst = MemorySegment.ofArray(out).asSlice(at);
                left = end ? c.end(src, dst) : c.flush(src, dst);
                in += c.consumed();
                at += c.produced();
                assertTrue(++calls < 10_000, "no progress");
            } while (left != 0);
            assertEquals(data.length, in, "input taken when " + (end ? "end" : "flush") + " returned 0");
            if (!end) { // the flushed frame is still open: end it
                do {
                    left = c.end(MemorySegment.ofArray(new byte[0]), MemorySegment.ofArray(out).asSlice(at));
                    at += c.produced();
                } while (left != 0);
            }
        }
        byte[] frame = Arrays.copyOf(out, (int) at);
        assertEquals(at, ZstdFrame.compressedSize(frame, 0, frame.length), "one frame");
        assertArrayEquals(data, Zstd.decompress(frame));
    }

    @Test
    void outputStreamWithWorkersStagesHeapArraysAndFlushes() throws IOException {
        byte[] data = data(5_000_000, 77);
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        try (ZstdOutputStream out = new ZstdOutputStream(sink, ZstdCompressStream.builder().workers(2).checksum(true))) {
            out.write(data, 0, 1_000_003);
            out.flush();
            try (var jni = new com.github.luben.zstd.ZstdInputStream(new ByteArrayInputStream(sink.toByteArray()))) {
                jni.setContinuous(true);
                assertArrayEquals(Arrays.copyOf(data, 1_000_003), readAll(jni, 65536));
            }
            for (int i = 1_000_003; i < data.length; i += 333_331) {
                out.write(data, i, Math.min(333_331, data.length - i));
            }
        }
        assertArrayEquals(data, decompress(sink.toByteArray(), 100_000));
    }

    @Test
    void largeHeapSegmentsProgressInBoundedStepsAndEndOneFrame() throws IOException {
        byte[] data = data(5_000_000, 99);
        byte[] out = new byte[(int) Zstd.compressBound(data.length)];
        int calls = 0;
        long in = 0;
        long at = 0;
        try (ZstdCompressStream c = ZstdCompressStream.create(1)) {
            long left;
            do {
                left = c.end(MemorySegment.ofArray(data).asSlice(in), MemorySegment.ofArray(out).asSlice(at));
                assertTrue(c.consumed() <= ZstdCompressStream.HEAP_WINDOW && c.produced() <= ZstdCompressStream.HEAP_WINDOW);
                in += c.consumed();
                at += c.produced();
                calls++;
            } while (left != 0);
        }
        assertEquals(data.length, in);
        assertTrue(calls > data.length / ZstdCompressStream.HEAP_WINDOW, calls + " calls");
        byte[] frame = Arrays.copyOf(out, (int) at);
        assertEquals(at, ZstdFrame.compressedSize(frame, 0, frame.length), "one frame");
        byte[] back = new byte[data.length];
        long got = 0;
        long used = 0;
        try (ZstdDecompressStream d = ZstdDecompressStream.create()) {
            while (used < frame.length || !d.isFrameComplete()) {
                d.decompress(MemorySegment.ofArray(frame).asSlice(used), MemorySegment.ofArray(back).asSlice(got));
                assertTrue(d.produced() <= ZstdCompressStream.HEAP_WINDOW);
                used += d.consumed();
                got += d.produced();
            }
        }
        assertEquals(data.length, got);
        assertArrayEquals(data, back);
    }

    @Test
    void segmentCallsAllocateNothing() throws ReflectiveOperationException {
        // through reflection: the test sources are compiled as part of the module, which does not read
        // java.management; the tests run on the class path
        Object threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                .invoke(null);
        var allocatedBytes = Class.forName("com.sun.management.ThreadMXBean")
                .getMethod("getThreadAllocatedBytes", long.class);
        long id = Thread.currentThread().threadId();
        try (ZstdCompressStream c = ZstdCompressStream.create(1); ZstdDecompressStream d = ZstdDecompressStream.create();
             Arena a = Arena.ofConfined()) {
            byte[] heapIn = new byte[64];
            MemorySegment[] srcs = {a.allocate(64), MemorySegment.ofArray(heapIn)};
            MemorySegment[] dsts = {a.allocate(4096), MemorySegment.ofArray(new byte[4096])};
            MemorySegment back = a.allocate(4096);
            for (int kind = 0; kind < 2; kind++) {
                MemorySegment src = srcs[kind];
                MemorySegment dst = dsts[kind];
                MemorySegment empty = dst.asSlice(0, 0);
                for (int i = 0; i < 50_000; i++) {
                    c.flush(src, dst);
                    d.decompress(empty, back);
                }
                // the least of three rounds of 10,000: a per-call allocation shows in every round (at least 160 KB),
                // a one-off of the JIT (a late compile or deoptimization) in one only
                long allocated = Long.MAX_VALUE;
                for (int round = 0; round < 3; round++) {
                    long before = (long) allocatedBytes.invoke(threads, id);
                    for (int i = 0; i < 10_000; i++) {
                        c.flush(src, dst);
                        d.decompress(empty, back);
                    }
                    allocated = Math.min(allocated, (long) allocatedBytes.invoke(threads, id) - before);
                }
                System.out.println("segment stream calls, " + (kind == 0 ? "native" : "heap") + " memory: "
                        + allocated + " bytes allocated in 20,000 calls (least of three rounds)");
                if (kind == 1 && Runtime.version().feature() < 22) {
                    // JDK 21 refuses heap memory in downcalls: each flush copies its heap arguments through a
                    // native arena made for the call (docs/platforms.md, JDK 21), a few hundred bytes of objects per call
                    assertTrue(allocated < 10_000 * 2048L, "heap on JDK 21: " + allocated + " bytes");
                    continue;
                }
                // 10,000 x (flush + decompress): nothing but the measuring call's own boxing
                assertTrue(allocated < 1024, (kind == 0 ? "native" : "heap") + ": " + allocated + " bytes");
            }
        }
    }

    @Test
    void segmentFlushReturnsZeroWhenDone() {
        byte[] data = new byte[100_000];
        Arrays.fill(data, (byte) 'x');
        try (ZstdCompressStream c = ZstdCompressStream.create(); Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(ZstdCompressStream.RECOMMENDED_OUTPUT_SIZE);
            long r = c.flush(MemorySegment.ofArray(data), out);
            assertEquals(0, r);
            assertEquals(data.length, c.consumed());
            assertTrue(c.produced() > 0);
            byte[] partial = out.asSlice(0, c.produced()).toArray(ValueLayout.JAVA_BYTE);
            try (ZstdDecompressStream d = ZstdDecompressStream.create()) {
                MemorySegment dst = a.allocate(data.length);
                d.decompress(MemorySegment.ofArray(partial), dst);
                assertEquals(data.length, d.produced());
            }
        }
    }

    // ---- cross-implementation ------------------------------------------------------------------------------------

    @Test
    void zstdJniReadsOursAndWeReadZstdJni() throws IOException {
        byte[] data = data(2_500_000, 21);
        byte[] ours = compress(data, 7919, ZstdCompressStream.builder().level(6).checksum(true));
        try (var in = new com.github.luben.zstd.ZstdInputStream(new ByteArrayInputStream(ours))) {
            assertArrayEquals(data, readAll(in, 8192));
        }
        ByteArrayOutputStream theirs = new ByteArrayOutputStream();
        try (var out = new com.github.luben.zstd.ZstdOutputStream(theirs, 6)) {
            out.setChecksum(true);
            for (int i = 0; i < data.length; i += 65537) {
                out.write(data, i, Math.min(65537, data.length - i));
            }
        }
        assertArrayEquals(data, decompress(theirs.toByteArray(), 12345));
    }

    @DisabledIfSystemProperty(named = "zstdjava.skipCliTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipCliTests=true")
    @Test
    void zstdCliReadsOursAndWeReadTheCli(@TempDir Path dir) throws Exception {
        byte[] data = data(1_500_000, 33);
        Files.write(dir.resolve("ours.zst"), compress(data, 4093, ZstdCompressStream.builder().level(7)
                .checksum(true)));
        assertArrayEquals(data, StreamTestData.zstd(dir, "-d", "-c", "ours.zst"));
        Files.write(dir.resolve("plain"), data);
        StreamTestData.zstd(dir, "-q", "-12", "--no-content-size", "plain", "-o", "cli.zst");
        // the CLI writes frames without content size when reading a pipe; from a file with --no-content-size too
        byte[] cli = Files.readAllBytes(dir.resolve("cli.zst"));
        assertEquals(ZstdFrame.UNKNOWN_SIZE, ZstdFrame.contentSize(cli, 0, cli.length));
        try (InputStream in = new ZstdInputStream(Files.newInputStream(dir.resolve("cli.zst")))) {
            assertArrayEquals(data, readAll(in, 777));
        }
    }
}
