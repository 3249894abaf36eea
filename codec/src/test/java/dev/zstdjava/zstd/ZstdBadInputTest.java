package dev.zstdjava.zstd;

import dev.zstdjava.Compressor;
import com.github.luben.zstd.ZstdOutputStream;
import dev.zstdjava.CompressionException;
import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.TestData;
import dev.zstdjava.TestData.Kind;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ReadOnlyBufferException;
import java.util.Arrays;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Malformed input and misuse give the documented exception, and the JVM survives all of it. */
class ZstdBadInputTest {

    /**
     * A frame header declaring 2^63 decompressed bytes (an unsigned 64-bit field, negative as a Java long): refused
     * with a ZstdException, not a NegativeArraySizeException from allocating the output (found by fuzzing).
     */
    @Test
    void declaredSizeBeyondLongIsRefused() {
        byte[] frame = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, (byte) 0xE0, 0, 0, 0, 0, 0, 0, 0, (byte) 0x80, 1, 0, 0};
        ZstdException e = assertThrows(ZstdException.class, () -> Zstd.decompress(frame));
        assertTrue(e.getMessage().contains("9223372036854775808"), e.getMessage());
        assertThrows(ZstdException.class, () -> ZstdFrame.contentSize(frame, 0, frame.length));
        assertThrows(ZstdException.class, () -> ZstdFrame.decompressedSize(frame, 0, frame.length));
        assertThrows(ZstdException.class, () -> ZstdFrame.decompressBound(frame, 0, frame.length));
    }
    private static final byte[] DATA = TestData.generate(Kind.TEXT, 20_000, 42);

    @Test
    void everyTruncationIsAnError() {
        byte[] frame;
        try (ZstdCompressor c = ZstdCompressor.builder().checksum(true).build()) {
            frame = c.compress(DATA);
        }
        try (ZstdDecompressor d = ZstdDecompressor.create()) {
            byte[] dst = new byte[DATA.length];
            for (int n = 0; n < frame.length; n++) {
                int len = n;
                ZstdException e = assertThrows(ZstdException.class, () -> d.decompress(frame, 0, len), "prefix " + n);
                assertTrue(e.getMessage().contains(n == 0 ? "empty" : "input " + n + " bytes"), e.getMessage());
                assertThrows(ZstdException.class, () -> d.decompress(frame, 0, len, dst, 0, dst.length));
            }
            assertArrayEquals(DATA, d.decompress(frame), "the decompressor still works after errors");
        }
    }

    @Test
    void truncatedStreamedFrameIsAnErrorNotShortData() throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ZstdOutputStream zos = new ZstdOutputStream(bos, 3)) {
            zos.write(TestData.generate(Kind.TEXT, 300_000, 5));
        }
        byte[] frame = bos.toByteArray();
        assertEquals(ZstdFrame.UNKNOWN_SIZE, ZstdFrame.contentSize(frame, 0, frame.length));
        for (int cut : new int[] {frame.length - 1, frame.length - 5, frame.length / 2, 20}) {
            ZstdException e = assertThrows(ZstdException.class, () -> Zstd.decompress(Arrays.copyOf(frame, cut)));
            assertTrue(e.getMessage().contains("truncated") || e.errorCode() != 0, e.getMessage());
        }
    }

    /**
     * libzstd's ZSTD_findDecompressedSize stops at the first frame without a declared size and answers "unknown"
     * without looking at the rest: truncated input or trailing garbage must still be an error, as documented.
     */
    @Test
    void decompressedSizeOfBrokenInputIsAnErrorAlsoWhenAFrameHasNoDeclaredSize() throws IOException {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ZstdOutputStream zos = new ZstdOutputStream(bos, 3)) {
            zos.write(DATA);
        }
        byte[] unknown = bos.toByteArray();
        byte[] known = Zstd.compress(DATA);
        assertEquals(ZstdFrame.UNKNOWN_SIZE, ZstdFrame.decompressedSize(unknown, 0, unknown.length));
        byte[] both = concat(known, unknown);
        assertEquals(ZstdFrame.UNKNOWN_SIZE, ZstdFrame.decompressedSize(both, 0, both.length));
        byte[] garbage = Arrays.copyOf(unknown, unknown.length + 10);
        byte[] knownThenTruncated = Arrays.copyOf(both, both.length - 3);
        for (byte[] bad : new byte[][] {Arrays.copyOf(unknown, unknown.length - 3), Arrays.copyOf(unknown, 6), garbage,
                knownThenTruncated}) {
            ZstdException e = assertThrows(ZstdException.class, () -> ZstdFrame.decompressedSize(bad, 0, bad.length),
                    bad.length + " bytes");
            assertTrue(e.getMessage().contains("not a complete zstd frame"), e.getMessage());
            assertThrows(ZstdException.class, () -> ZstdFrame.decompressedSize(MemorySegment.ofArray(bad)));
        }
    }

    private static byte[] concat(byte[] a, byte[] b) {
        byte[] out = Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void bitFlipsAreDetectedOrHarmless() {
        byte[] frame;
        try (ZstdCompressor c = ZstdCompressor.builder().checksum(true).build()) {
            frame = c.compress(DATA);
        }
        SplittableRandom r = new SplittableRandom(1);
        int detected = 0;
        for (int i = 0; i < 3000; i++) {
            byte[] bad = frame.clone();
            bad[r.nextInt(bad.length)] ^= (byte) (1 << r.nextInt(8));
            try {
                byte[] out = Zstd.decompress(bad);
                assertArrayEquals(DATA, out, "a flip that decodes must decode to the original (checksummed frame)");
            } catch (CompressionException e) {
                detected++;
            }
        }
        assertTrue(detected > 2700, "most flips detected: " + detected);
    }

    @Test
    void randomFramesNeverCrash() {
        SplittableRandom r = new SplittableRandom(2);
        byte[] dst = new byte[1 << 16];
        try (ZstdDecompressor d = ZstdDecompressor.builder().maxDecompressedSize(1 << 20).build()) {
            for (int i = 0; i < 5000; i++) {
                byte[] junk = new byte[1 + r.nextInt(300)];
                r.nextBytes(junk);
                if (i % 2 == 0 && junk.length >= 4) { // valid magic number, random rest
                    junk[0] = 0x28; junk[1] = (byte) 0xB5; junk[2] = 0x2F; junk[3] = (byte) 0xFD;
                }
                try {
                    byte[] out = d.decompress(junk);
                    assertTrue(out.length <= 1 << 20);
                } catch (CompressionException expected) {
                    // documented outcome
                }
                try {
                    d.decompress(junk, 0, junk.length, dst, 0, dst.length);
                } catch (CompressionException expected) {
                    // documented outcome
                }
            }
        }
    }

    @Test
    void destinationTooSmall() {
        try (ZstdCompressor c = ZstdCompressor.create(); ZstdDecompressor d = ZstdDecompressor.create()) {
            ZstdException e = assertThrows(ZstdException.class,
                    () -> c.compress(DATA, 0, DATA.length, new byte[100], 0, 100));
            assertEquals(ZstdException.DST_SIZE_TOO_SMALL, e.errorCode());
            assertTrue(e.getMessage().contains("output capacity 100 bytes"), e.getMessage());
            byte[] frame = c.compress(DATA);
            e = assertThrows(ZstdException.class,
                    () -> d.decompress(frame, 0, frame.length, new byte[DATA.length - 1], 0, DATA.length - 1));
            assertEquals(ZstdException.DST_SIZE_TOO_SMALL, e.errorCode());
            ByteBuffer small = ByteBuffer.allocateDirect(10);
            ByteBuffer src = ByteBuffer.wrap(frame);
            assertThrows(ZstdException.class, () -> d.decompress(src, small));
            assertEquals(0, src.position(), "positions unchanged on failure");
            assertEquals(0, small.position());
        }
    }

    @Test
    void tryCompressReportsADestinationTooSmallWithoutThrowing() {
        byte[] random = new byte[4096];
        new SplittableRandom(3).nextBytes(random);
        try (Arena a = Arena.ofConfined(); ZstdCompressor c = ZstdCompressor.create();
             ZstdDecompressor d = ZstdDecompressor.create()) {
            byte[] frame = c.compress(DATA);
            for (boolean nativeMemory : new boolean[] {false, true}) {
                MemorySegment src = nativeMemory ? a.allocate(DATA.length) : MemorySegment.ofArray(DATA.clone());
                MemorySegment.copy(MemorySegment.ofArray(DATA), 0, src, 0, DATA.length);
                // zstd may need a little more room than the frame's final size, so the bound is used to fit
                long bound = Zstd.compressBound(DATA.length);
                MemorySegment dst = nativeMemory ? a.allocate(bound) : MemorySegment.ofArray(new byte[(int) bound]);
                assertEquals(frame.length, c.tryCompress(src, dst));
                assertArrayEquals(frame, dst.asSlice(0, frame.length).toArray(ValueLayout.JAVA_BYTE));
                assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, dst.asSlice(0, frame.length - 1)), "native " + nativeMemory);
                assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, dst.asSlice(0, 0)), "native " + nativeMemory);
                // random data does not fit in fewer bytes than itself
                MemorySegment r = MemorySegment.ofArray(random);
                assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(r, MemorySegment.ofArray(new byte[random.length - 1])));
                // the compressor is usable afterwards and gives the same frame
                assertEquals(frame.length, c.tryCompress(src, dst));
                assertArrayEquals(DATA, d.decompress(dst.asSlice(0, frame.length).toArray(ValueLayout.JAVA_BYTE)));
            }
            assertThrows(IllegalArgumentException.class,
                    () -> c.tryCompress(MemorySegment.ofArray(DATA), MemorySegment.ofArray(new byte[100]).asReadOnly()));
        }
        ZstdCompressor closed = ZstdCompressor.create();
        closed.close();
        assertThrows(IllegalStateException.class,
                () -> closed.tryCompress(MemorySegment.ofArray(DATA), MemorySegment.ofArray(new byte[DATA.length])));
        assertThrows(IllegalStateException.class,
                () -> closed.tryCompress(DATA, 0, DATA.length, new byte[DATA.length], 0, DATA.length));
    }

    /** The {@code byte[]} form of {@code tryCompress}: at offsets, in place and staged, and its ranges checked. */
    @Test
    void tryCompressOfArraysReportsADestinationTooSmallWithoutThrowing() {
        byte[] big = new byte[64 << 10]; // above the heap staging limit: compressed in place where the JDK allows
        for (int i = 0; i < big.length; i++) {
            big[i] = DATA[i % DATA.length];
        }
        byte[] random = new byte[4096];
        new SplittableRandom(4).nextBytes(random);
        try (ZstdCompressor c = ZstdCompressor.create(); ZstdDecompressor d = ZstdDecompressor.create()) {
            for (byte[] data : new byte[][] {DATA, big}) {
                byte[] frame = c.compress(data);
                byte[] src = new byte[data.length + 10];
                System.arraycopy(data, 0, src, 7, data.length);
                byte[] dst = new byte[(int) Zstd.compressBound(data.length) + 20];
                assertEquals(frame.length, c.tryCompress(src, 7, data.length, dst, 11, dst.length - 11));
                assertArrayEquals(frame, Arrays.copyOfRange(dst, 11, 11 + frame.length));
                assertEquals(0, dst[10], "written before its range");
                assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, 7, data.length, dst, 11, frame.length - 1));
                assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, 7, data.length, dst, 11, 0));
                // usable afterwards, same frame, and it decodes
                assertEquals(frame.length, c.tryCompress(src, 7, data.length, dst, 0, dst.length));
                assertArrayEquals(data, d.decompress(Arrays.copyOf(dst, frame.length)));
            }
            assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(random, 0, random.length, new byte[random.length - 1], 0,
                    random.length - 1));
            byte[] dst = new byte[100];
            assertThrows(IndexOutOfBoundsException.class, () -> c.tryCompress(DATA, 1, DATA.length, dst, 0, 100));
            assertThrows(IndexOutOfBoundsException.class, () -> c.tryCompress(DATA, 0, DATA.length, dst, 1, 100));
            assertThrows(IndexOutOfBoundsException.class, () -> c.tryCompress(DATA, -1, 1, dst, 0, 100));
        }
    }

    /**
     * {@code tryCompress} into a segment range: heap and native segments, in place and staged (input above the heap
     * critical limit), nothing written outside the range, the range checked.
     */
    @Test
    void tryCompressIntoASegmentRangeWritesOnlyThere() {
        byte[] big = new byte[(2 << 20) + 17]; // above the heap critical limit: staged
        for (int i = 0; i < big.length; i++) {
            big[i] = DATA[i % DATA.length];
        }
        try (Arena a = Arena.ofConfined(); ZstdCompressor c = ZstdCompressor.create();
             ZstdDecompressor d = ZstdDecompressor.create()) {
            for (byte[] data : new byte[][] {DATA, big}) {
                byte[] frame = c.compress(data);
                for (boolean nativeSrc : new boolean[] {false, true}) {
                    for (boolean nativeDst : new boolean[] {false, true}) {
                        String what = data.length + " bytes, native src " + nativeSrc + ", native dst " + nativeDst;
                        MemorySegment src = nativeSrc ? a.allocate(data.length).copyFrom(MemorySegment.ofArray(data))
                                : MemorySegment.ofArray(data);
                        long size = Zstd.compressBound(data.length) + 20;
                        MemorySegment dst = nativeDst ? a.allocate(size) : MemorySegment.ofArray(new byte[(int) size]);
                        dst.fill((byte) 0x55);
                        assertEquals(frame.length, c.tryCompress(src, dst, 11, size - 20), what);
                        assertArrayEquals(frame, dst.asSlice(11, frame.length).toArray(ValueLayout.JAVA_BYTE), what);
                        assertEquals(0x55, dst.get(ValueLayout.JAVA_BYTE, 10), "written before its range: " + what);
                        assertEquals(0x55, dst.get(ValueLayout.JAVA_BYTE, size - 9), "written after it: " + what);
                        dst.fill((byte) 0x55);
                        assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, dst, 11, frame.length - 1), what);
                        assertEquals(0x55, dst.get(ValueLayout.JAVA_BYTE, 11 + frame.length - 1),
                                "written after a range too small: " + what);
                        assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, dst, 11, 0), what);
                        assertEquals(frame.length, c.tryCompress(src, dst, 0, size), what);
                        assertArrayEquals(data,
                                d.decompress(dst.asSlice(0, frame.length).toArray(ValueLayout.JAVA_BYTE)), what);
                    }
                }
            }
            MemorySegment src = MemorySegment.ofArray(DATA);
            MemorySegment dst = MemorySegment.ofArray(new byte[100]);
            assertThrows(IndexOutOfBoundsException.class, () -> c.tryCompress(src, dst, 1, 100));
            assertThrows(IndexOutOfBoundsException.class, () -> c.tryCompress(src, dst, -1, 10));
            assertThrows(IndexOutOfBoundsException.class, () -> c.tryCompress(src, dst, 0, -1));
            assertThrows(IndexOutOfBoundsException.class, () -> c.tryCompress(src, dst, Long.MAX_VALUE, 2));
            assertThrows(IllegalArgumentException.class, () -> c.tryCompress(src, dst.asReadOnly(), 0, 100));
            assertThrows(NullPointerException.class, () -> c.tryCompress(null, dst, 0, 100));
            assertThrows(NullPointerException.class, () -> c.tryCompress(src, null, 0, 100));
        }
        ZstdCompressor closed = ZstdCompressor.create();
        closed.close();
        assertThrows(IllegalStateException.class, () -> closed.tryCompress(MemorySegment.ofArray(DATA),
                MemorySegment.ofArray(new byte[DATA.length]), 0, DATA.length));
    }

    @Test
    void badOffsetsAndLengths() {
        byte[] buf = new byte[100];
        try (ZstdCompressor c = ZstdCompressor.create(); ZstdDecompressor d = ZstdDecompressor.create()) {
            assertThrows(IndexOutOfBoundsException.class, () -> c.compress(buf, -1, 10, new byte[200], 0, 200));
            assertThrows(IndexOutOfBoundsException.class, () -> c.compress(buf, 0, -1, new byte[200], 0, 200));
            assertThrows(IndexOutOfBoundsException.class, () -> c.compress(buf, 50, 51, new byte[200], 0, 200));
            assertThrows(IndexOutOfBoundsException.class,
                    () -> c.compress(buf, Integer.MAX_VALUE, Integer.MAX_VALUE, new byte[200], 0, 200));
            assertThrows(IndexOutOfBoundsException.class, () -> c.compress(buf, 0, 10, new byte[200], 150, 51));
            assertThrows(IndexOutOfBoundsException.class, () -> c.compress(buf, 1, Integer.MAX_VALUE));
            assertThrows(IndexOutOfBoundsException.class, () -> d.decompress(buf, 90, 20));
            assertThrows(IndexOutOfBoundsException.class, () -> d.decompress(buf, 0, 10, new byte[10], -5, 10));
            assertThrows(IndexOutOfBoundsException.class, () -> ZstdFrame.contentSize(buf, 99, 2));
            assertThrows(NullPointerException.class, () -> c.compress(null, 0, 0, buf, 0, 10));
        }
    }

    @Test
    void readOnlyDestinations() {
        try (ZstdCompressor c = ZstdCompressor.create(); Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(1000).asReadOnly();
            assertThrows(IllegalArgumentException.class, () -> c.compress(MemorySegment.ofArray(DATA), dst));
            assertThrows(ReadOnlyBufferException.class,
                    () -> c.compress(ByteBuffer.wrap(DATA), ByteBuffer.allocate(30_000).asReadOnlyBuffer()));
            // a read-only source is fine
            ByteBuffer out = ByteBuffer.allocate(30_000);
            int n = c.compress(ByteBuffer.wrap(DATA).asReadOnlyBuffer(), out);
            assertArrayEquals(DATA, Zstd.decompress(Arrays.copyOf(out.array(), n)));
        }
    }

    @Test
    void decompressionLimitIsCheckedBeforeAllocating() throws IOException {
        byte[] frame = Zstd.compress(DATA);
        try (ZstdDecompressor d = ZstdDecompressor.builder().maxDecompressedSize(DATA.length - 1).build()) {
            DecompressionLimitException e = assertThrows(DecompressionLimitException.class, () -> d.decompress(frame));
            assertEquals(DATA.length, e.size());
            assertEquals(DATA.length - 1, e.limit());
        }
        assertArrayEquals(DATA, Zstd.decompress(frame, DATA.length), "exactly at the limit is fine");

        // a 17-byte frame that claims 1 TiB: refused from its header, nothing allocated
        byte[] liar = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, (byte) 0xC0, 0x58, 0, 0, 0, 0, 0, 1, 0, 0,
                0x01, 0, 0};
        assertEquals(1L << 40, ZstdFrame.contentSize(liar, 0, liar.length));
        DecompressionLimitException e = assertThrows(DecompressionLimitException.class, () -> Zstd.decompress(liar));
        assertEquals(1L << 40, e.size());
        assertEquals(512L << 20, e.limit());

        // a frame without declared size is stopped as soon as it passes the limit
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ZstdOutputStream zos = new ZstdOutputStream(bos, 3)) {
            zos.write(new byte[5 << 20]);
        }
        byte[] bomb = bos.toByteArray();
        assertTrue(bomb.length < 1000, "5 MiB of zeros is a tiny frame");
        e = assertThrows(DecompressionLimitException.class, () -> Zstd.decompress(bomb, 1 << 20));
        assertEquals(1 << 20, e.limit());
        assertEquals(5 << 20, Zstd.decompress(bomb, 5 << 20).length);
    }

    @Test
    void windowLimit() {
        byte[] big = TestData.generate(Kind.TEXT, 3 << 20, 9);
        byte[] frame;
        try (ZstdCompressor c = ZstdCompressor.builder().windowLog(22).contentSize(false).build()) {
            frame = c.compress(big);
        }
        try (ZstdDecompressor d = ZstdDecompressor.builder().windowLogMax(20).build()) {
            ZstdException e = assertThrows(ZstdException.class, () -> d.decompress(frame));
            assertEquals(16, e.errorCode(), e.getMessage()); // ZSTD_error_frameParameter_windowTooLarge
            assertTrue(e.getMessage().contains("windowLogMax 20"), e.getMessage());
        }
        try (ZstdDecompressor d = ZstdDecompressor.builder().windowLogMax(22).build()) {
            assertArrayEquals(big, d.decompress(frame));
        }
        assertThrows(IllegalArgumentException.class, () -> ZstdDecompressor.builder().windowLogMax(99).build());
    }

    /**
     * A frame of 13 bytes declaring 1,000,000 bytes of content (within the limit) cannot hold them: its one block
     * decodes to at most 128 KiB. It is refused as corrupt before the declared size is allocated; the old code
     * allocated the whole size on every call and then failed to decode.
     */
    @Test
    void aDeclaredSizeTheInputCannotHoldIsRefusedBeforeItIsAllocated() throws Exception {
        byte[] frame = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, (byte) 0xa0, 0x40, 0x42, 0x0f, 0x00, 0x09, 0, 0, 'x'};
        assertEquals(1_000_000, ZstdFrame.contentSize(frame, 0, frame.length));
        Object threads = Class.forName("java.lang.management.ManagementFactory").getMethod("getThreadMXBean")
                .invoke(null);
        var allocatedBytes = Class.forName("com.sun.management.ThreadMXBean")
                .getMethod("getThreadAllocatedBytes", long.class);
        long id = Thread.currentThread().threadId();
        try (ZstdDecompressor d = ZstdDecompressor.create(); Arena a = Arena.ofConfined()) {
            MemorySegment nativeFrame = a.allocate(frame.length);
            MemorySegment.copy(MemorySegment.ofArray(frame), 0, nativeFrame, 0, frame.length);
            Runnable[] forms = {() -> d.decompress(frame), () -> d.decompress(nativeFrame)};
            for (Runnable form : forms) {
                assertThrows(ZstdException.class, form::run);
                long before = (long) allocatedBytes.invoke(threads, id);
                for (int i = 0; i < 10; i++) {
                    assertThrows(ZstdException.class, form::run);
                }
                long perCall = ((long) allocatedBytes.invoke(threads, id) - before) / 10;
                assertTrue(perCall < 64 << 10, "heap bytes per call: " + perCall);
            }
        }
        ZstdException e = assertThrows(ZstdException.class, () -> Zstd.decompress(frame));
        assertTrue(e.getMessage().contains("impossible"), e.getMessage());
    }

    @Test
    void invalidParameters() {
        assertThrows(IllegalArgumentException.class, () -> ZstdCompressor.create(23));
        assertThrows(IllegalArgumentException.class, () -> Zstd.compress(DATA, -200_000));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ZstdCompressor.builder().windowLog(5).build());
        assertTrue(e.getMessage().contains("valid range 10..31"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ZstdCompressor.builder().workers(-1));
        // more workers than zstd allows: refused naming the range, not capped (zstd would run fewer silently)
        e = assertThrows(IllegalArgumentException.class, () -> ZstdCompressor.builder().workers(100_000).build());
        assertTrue(e.getMessage().contains("workers = 100000 is out of range (valid range 0.."), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Zstd.decompress(DATA, -1));
        assertThrows(IllegalArgumentException.class, () -> Zstd.compressBound(-1));
    }

    @Test
    void emptyAndGarbageInput() {
        ZstdException e = assertThrows(ZstdException.class, () -> Zstd.decompress(new byte[0]));
        assertTrue(e.getMessage().contains("empty"), e.getMessage());
        byte[] frame = Zstd.compress(DATA);
        byte[] trailing = Arrays.copyOf(frame, frame.length + 3);
        assertThrows(ZstdException.class, () -> Zstd.decompress(trailing));
        assertThrows(ZstdException.class, () -> ZstdFrame.contentSize(new byte[] {1, 2, 3, 4, 5, 6}, 0, 6));
        assertArrayEquals(new byte[0], Zstd.decompress(Zstd.compress(new byte[0])), "empty data round-trips");
    }

    @Test
    void closedContextsThrow() {
        ZstdCompressor c = ZstdCompressor.create();
        ZstdDecompressor d = ZstdDecompressor.create();
        c.close();
        d.close();
        c.close(); // idempotent
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.compress(DATA));
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> d.decompress(Zstd.compress(DATA)));
        assertThrows(IllegalStateException.class,
                () -> c.compress(MemorySegment.ofArray(DATA), MemorySegment.ofArray(new byte[30_000])));
    }
}
