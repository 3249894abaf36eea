package dev.zstdjava.lz4;

import dev.zstdjava.Compressor;
import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.TestData;
import dev.zstdjava.TestData.Kind;
import net.jpountz.xxhash.XXHashFactory;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
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

/** Malformed blocks and frames, lying sizes, small destinations, limits and misuse: clear exceptions, no crash. */
class Lz4BadInputTest {
    static final byte[] DATA = TestData.generate(Kind.TEXT, 50_000, 99);

    // ---- blocks --------------------------------------------------------------------------------------------------

    /**
     * An empty destination at the top of the address space (made without restricted methods): liblz4's end pointer
     * would wrap past it and it would write there; the compressor refuses before calling it. Found by the API fuzzer.
     */
    @Test
    void anEmptyDestinationAtTheTopOfTheAddressSpaceIsRefusedWithoutANativeCall() {
        MemorySegment top = MemorySegment.ofAddress(-8);
        try (Lz4Compressor c = Lz4Compressor.create()) {
            for (MemorySegment src : new MemorySegment[] {MemorySegment.ofArray(new byte[100]).asReadOnly(),
                    Arena.ofAuto().allocate(100), MemorySegment.ofArray(new byte[0])}) {
                assertThrows(Lz4Exception.class, () -> c.compress(src, top), src.toString());
                assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, top), src.toString());
                assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, top, 0, 0), src.toString());
            }
        }
    }


    @Test
    void truncatedBlocksAreRejected() {
        byte[] block = Lz4.compress(DATA, 0);
        try (Lz4Decompressor d = Lz4Decompressor.create()) {
            for (int len = 1; len < block.length; len += len < 64 ? 1 : 97) {
                int l = len;
                Lz4Exception e = assertThrows(Lz4Exception.class, () -> d.decompress(block, 0, l, DATA.length),
                        "prefix of " + len + " bytes");
                assertTrue(e.getMessage().contains("lz4 decompress"), e.getMessage());
            }
            Lz4Exception e = assertThrows(Lz4Exception.class, () -> d.decompress(block, 0, 0, 10));
            assertTrue(e.getMessage().contains("empty"), e.getMessage());
        }
    }

    @Test
    void corruptBlocksNeverWritePastTheDestination() {
        byte[] block = Lz4.compress(DATA, 0);
        SplittableRandom r = new SplittableRandom(5);
        int failures = 0;
        try (Lz4Decompressor d = Lz4Decompressor.create(); Arena a = Arena.ofConfined()) {
            MemorySegment src = a.allocate(block.length);
            MemorySegment guarded = a.allocate(DATA.length + 4096);
            for (int trial = 0; trial < 3000; trial++) {
                byte[] bad = block.clone();
                for (int k = 1 + r.nextInt(4); k > 0; k--) {
                    bad[r.nextInt(bad.length)] ^= (byte) (1 + r.nextInt(255));
                }
                MemorySegment.copy(bad, 0, src, ValueLayout.JAVA_BYTE, 0, bad.length);
                guarded.fill((byte) 0x5A);
                int cap = trial % 2 == 0 ? DATA.length : DATA.length / 2;
                try {
                    long n = d.decompress(src, guarded.asSlice(0, cap));
                    assertTrue(n <= cap);
                } catch (Lz4Exception e) {
                    failures++;
                    assertTrue(e.getMessage().contains("input offset"), e.getMessage());
                }
                for (long i = cap; i < guarded.byteSize(); i++) {
                    assertEquals(0x5A, guarded.get(ValueLayout.JAVA_BYTE, i) & 0xFF, "byte past the destination");
                }
                // the exact-size form must fail or give exactly the declared size
                try {
                    assertEquals(DATA.length, d.decompress(bad, DATA.length).length);
                } catch (Lz4Exception expected) {
                    // fine: corruption detected
                }
            }
        }
        assertTrue(failures > 1000, "most corruptions are detected by the decoder: " + failures);
    }

    @Test
    void lyingSizesAreRejected() {
        byte[] block = Lz4.compress(DATA, 9);
        try (Lz4Decompressor d = Lz4Decompressor.create()) {
            Lz4Exception small = assertThrows(Lz4Exception.class, () -> d.decompress(block, DATA.length - 1));
            assertTrue(small.getMessage().contains("output capacity " + (DATA.length - 1)), small.getMessage());
            Lz4Exception big = assertThrows(Lz4Exception.class, () -> d.decompress(block, DATA.length + 1));
            assertTrue(big.getMessage().contains("decoded to " + DATA.length), big.getMessage());
            // impossible for any block of that size: refused before allocating 2 GiB
            Lz4Exception absurd = assertThrows(Lz4Exception.class, () -> d.decompress(new byte[] {0x10, 'a'},
                    Integer.MAX_VALUE - 8));
            assertTrue(absurd.getMessage().contains("at most 255x") || absurd.getMessage().contains("255"),
                    absurd.getMessage());
            assertThrows(IllegalArgumentException.class, () -> d.decompress(block, -1));
            byte[] out = new byte[100];
            assertThrows(Lz4Exception.class, () -> d.decompress(block, 0, block.length, out, 0, out.length),
                    "destination smaller than the content");
        }
    }

    @Test
    void tooSmallCompressionDestinationsAndLimits() {
        try (Lz4Compressor c = Lz4Compressor.create(0); Lz4Compressor hc = Lz4Compressor.create(9)) {
            byte[] random = TestData.generate(Kind.INCOMPRESSIBLE, 10_000, 1);
            for (Lz4Compressor x : new Lz4Compressor[] {c, hc}) {
                byte[] dst = new byte[random.length];
                Lz4Exception e = assertThrows(Lz4Exception.class,
                        () -> x.compress(random, 0, random.length, dst, 0, dst.length));
                assertTrue(e.getMessage().contains("maxCompressedLength(10000) = " + Lz4.maxCompressedLength(10_000)),
                        e.getMessage());
                assertThrows(Lz4Exception.class, () -> x.compress(MemorySegment.ofArray(random), MemorySegment.ofArray(new byte[0])));
                try (Lz4Compressor fresh = Lz4Compressor.create(x.level())) {
                    assertArrayEquals(fresh.compress(DATA), x.compress(DATA), "the same output after a failed call");
                }
            }
            // lz4's int limits are checked in Java, before any native call (this segment has no real memory)
            MemorySegment huge = MemorySegment.NULL.reinterpret(Lz4.MAX_INPUT_SIZE + 1L);
            Lz4Exception e = assertThrows(Lz4Exception.class, () -> c.compress(huge, MemorySegment.ofArray(new byte[64])));
            assertTrue(e.getMessage().contains("LZ4_MAX_INPUT_SIZE"), e.getMessage());
            try (Lz4Decompressor d = Lz4Decompressor.create()) {
                MemorySegment tooLong = MemorySegment.NULL.reinterpret(Integer.MAX_VALUE + 1L);
                assertThrows(Lz4Exception.class, () -> d.decompress(tooLong, MemorySegment.ofArray(new byte[64])));
            }
            assertThrows(IllegalArgumentException.class, () -> Lz4.maxCompressedLength(-1));
            assertThrows(IllegalArgumentException.class, () -> Lz4.maxCompressedLength(Lz4.MAX_INPUT_SIZE + 1));
        }
    }

    @Test
    void tryCompressReportsADestinationTooSmallWithoutThrowing() {
        byte[] random = new byte[4096];
        new SplittableRandom(5).nextBytes(random);
        for (int level : new int[] {0, -5, 9}) {
            try (Arena a = Arena.ofConfined(); Lz4Compressor c = Lz4Compressor.create(level);
                 Lz4Decompressor d = Lz4Decompressor.create()) {
                byte[] block = c.compress(DATA);
                for (boolean nativeMemory : new boolean[] {false, true}) {
                    MemorySegment src = nativeMemory ? a.allocate(DATA.length) : MemorySegment.ofArray(DATA.clone());
                    MemorySegment.copy(MemorySegment.ofArray(DATA), 0, src, 0, DATA.length);
                    MemorySegment exact = nativeMemory ? a.allocate(block.length) : MemorySegment.ofArray(new byte[block.length]);
                    assertEquals(block.length, c.tryCompress(src, exact), "level " + level);
                    assertArrayEquals(block, exact.toArray(ValueLayout.JAVA_BYTE));
                    assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, exact.asSlice(0, block.length - 1)), "level " + level);
                    assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(MemorySegment.ofArray(random),
                            MemorySegment.ofArray(new byte[random.length - 1])));
                    // usable afterwards, same block, and it decodes
                    assertEquals(block.length, c.tryCompress(src, exact));
                    assertArrayEquals(block, exact.toArray(ValueLayout.JAVA_BYTE));
                    assertArrayEquals(DATA, d.decompress(block, DATA.length));
                }
                assertThrows(IllegalArgumentException.class, () -> c.tryCompress(MemorySegment.ofArray(DATA),
                        MemorySegment.ofArray(new byte[100]).asReadOnly()));
            }
        }
        Lz4Compressor closed = Lz4Compressor.create(0);
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
        new SplittableRandom(6).nextBytes(random);
        for (int level : new int[] {0, -5, 9}) {
            try (Lz4Compressor c = Lz4Compressor.create(level); Lz4Decompressor d = Lz4Decompressor.create()) {
                for (byte[] data : new byte[][] {DATA, big}) {
                    byte[] block = c.compress(data);
                    byte[] src = new byte[data.length + 10];
                    System.arraycopy(data, 0, src, 7, data.length);
                    byte[] dst = new byte[block.length + 20];
                    assertEquals(block.length, c.tryCompress(src, 7, data.length, dst, 11, block.length), "level " + level);
                    assertArrayEquals(block, Arrays.copyOfRange(dst, 11, 11 + block.length));
                    assertEquals(0, dst[10], "written before its range");
                    assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, 7, data.length, dst, 11, block.length - 1),
                            "level " + level);
                    assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, 7, data.length, dst, 11, 0));
                    // usable afterwards, same block, and it decodes
                    assertEquals(block.length, c.tryCompress(src, 7, data.length, dst, 0, dst.length));
                    assertArrayEquals(data, d.decompress(Arrays.copyOf(dst, block.length), data.length));
                }
                assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(random, 0, random.length,
                        new byte[random.length - 1], 0, random.length - 1));
                byte[] dst = new byte[100];
                assertThrows(IndexOutOfBoundsException.class, () -> c.tryCompress(DATA, 1, DATA.length, dst, 0, 100));
                assertThrows(IndexOutOfBoundsException.class, () -> c.tryCompress(DATA, 0, DATA.length, dst, 1, 100));
            }
        }
    }

    /**
     * {@code tryCompress} into a segment range: heap and native segments, in place and staged (input above the heap
     * critical limit), at each kind of level, nothing written outside the range, the range checked.
     */
    @Test
    void tryCompressIntoASegmentRangeWritesOnlyThere() {
        byte[] big = new byte[(2 << 20) + 17]; // above the heap critical limit: staged
        for (int i = 0; i < big.length; i++) {
            big[i] = DATA[i % DATA.length];
        }
        for (int level : new int[] {0, -5, 9}) {
            try (Arena a = Arena.ofConfined(); Lz4Compressor c = Lz4Compressor.create(level);
                 Lz4Decompressor d = Lz4Decompressor.create()) {
                for (byte[] data : new byte[][] {DATA, big}) {
                    byte[] block = c.compress(data);
                    for (boolean nativeSrc : new boolean[] {false, true}) {
                        for (boolean nativeDst : new boolean[] {false, true}) {
                            String what = "level " + level + ", " + data.length + " bytes, native src " + nativeSrc
                                    + ", native dst " + nativeDst;
                            MemorySegment src = nativeSrc
                                    ? a.allocate(data.length).copyFrom(MemorySegment.ofArray(data))
                                    : MemorySegment.ofArray(data);
                            long size = block.length + 20;
                            MemorySegment dst = nativeDst ? a.allocate(size)
                                    : MemorySegment.ofArray(new byte[(int) size]);
                            dst.fill((byte) 0x55);
                            assertEquals(block.length, c.tryCompress(src, dst, 11, block.length), what);
                            assertArrayEquals(block, dst.asSlice(11, block.length).toArray(ValueLayout.JAVA_BYTE),
                                    what);
                            assertEquals(0x55, dst.get(ValueLayout.JAVA_BYTE, 10), "written before its range: " + what);
                            assertEquals(0x55, dst.get(ValueLayout.JAVA_BYTE, 11 + block.length),
                                    "written after it: " + what);
                            dst.fill((byte) 0x55);
                            assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, dst, 11, block.length - 1), what);
                            assertEquals(0x55, dst.get(ValueLayout.JAVA_BYTE, 11 + block.length - 1),
                                    "written after a range too small: " + what);
                            assertEquals(Compressor.DOES_NOT_FIT, c.tryCompress(src, dst, 11, 0), what);
                            // usable afterwards, same block, and it decodes
                            assertEquals(block.length, c.tryCompress(src, dst, 0, size), what);
                            assertArrayEquals(data, d.decompress(
                                    dst.asSlice(0, block.length).toArray(ValueLayout.JAVA_BYTE), data.length), what);
                        }
                    }
                }
                MemorySegment src = MemorySegment.ofArray(DATA);
                MemorySegment dst = MemorySegment.ofArray(new byte[100]);
                assertThrows(IndexOutOfBoundsException.class, () -> c.tryCompress(src, dst, 1, 100));
                assertThrows(IndexOutOfBoundsException.class, () -> c.tryCompress(src, dst, -1, 10));
                assertThrows(IndexOutOfBoundsException.class, () -> c.tryCompress(src, dst, 0, -1));
                assertThrows(IllegalArgumentException.class, () -> c.tryCompress(src, dst.asReadOnly(), 0, 100));
                assertThrows(NullPointerException.class, () -> c.tryCompress(null, dst, 0, 100));
            }
        }
        Lz4Compressor closed = Lz4Compressor.create(0);
        closed.close();
        assertThrows(IllegalStateException.class, () -> closed.tryCompress(MemorySegment.ofArray(DATA),
                MemorySegment.ofArray(new byte[DATA.length]), 0, DATA.length));
    }

    @Test
    void misuseGivesClearErrors() {
        assertThrows(IllegalArgumentException.class, () -> Lz4Compressor.create(13));
        assertThrows(IllegalArgumentException.class, () -> Lz4Compressor.create(-129));
        assertThrows(IllegalArgumentException.class, () -> Lz4.compress(DATA, 99));
        Lz4Compressor c = Lz4Compressor.create(5);
        c.close();
        c.close();
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> c.compress(DATA));
        assertTrue(closed.getMessage().contains("closed"));
        Lz4Decompressor d = Lz4Decompressor.create();
        d.close();
        assertThrows(IllegalStateException.class, () -> d.decompress(Lz4.compress(DATA), DATA.length));
        try (Lz4Compressor open = Lz4Compressor.create()) {
            MemorySegment ro = MemorySegment.ofArray(new byte[100_000]).asReadOnly();
            assertThrows(IllegalArgumentException.class, () -> open.compress(MemorySegment.ofArray(DATA), ro));
            assertThrows(ReadOnlyBufferException.class,
                    () -> open.compress(ByteBuffer.wrap(DATA), ByteBuffer.allocate(100_000).asReadOnlyBuffer()));
            assertThrows(IndexOutOfBoundsException.class, () -> open.compress(DATA, 10, DATA.length, new byte[10], 0, 10));
        }
    }

    // ---- frames --------------------------------------------------------------------------------------------------

    static final Lz4Frame.Options CHECKED = Lz4Frame.Options.DEFAULT.withBlockChecksum(true);

    @Test
    void everyTruncationOfAFrameIsRejected() throws IOException {
        byte[] data = Arrays.copyOf(DATA, 5000);
        byte[] frame = Lz4Frame.compress(data, CHECKED.withContentSize(false));
        try (Lz4FrameDecompressor d = Lz4FrameDecompressor.create()) {
            for (int len = 0; len < frame.length; len++) {
                int l = len;
                Lz4Exception e = assertThrows(Lz4Exception.class, () -> d.decompress(frame, 0, l), "prefix " + len);
                assertTrue(e.getMessage().startsWith("lz4 frame decompress"), e.getMessage());
                byte[] out = new byte[data.length];
                assertThrows(Lz4Exception.class, () -> d.decompress(frame, 0, l, out, 0, out.length), "prefix " + len);
                if (len > 0 && len % 7 == 0) {
                    try (InputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(frame, 0, len))) {
                        assertThrows(Lz4Exception.class, in::readAllBytes, "stream prefix " + len);
                    }
                }
            }
            assertArrayEquals(data, d.decompress(frame), "the decompressor still works afterwards");
        }
    }

    @Test
    void everyCorruptionOfAFrameIsDetected() {
        byte[] data = Arrays.copyOf(DATA, 3000);
        byte[] frame = Lz4Frame.compress(data, CHECKED);
        try (Lz4FrameDecompressor d = Lz4FrameDecompressor.create()) {
            for (int i = 0; i < frame.length; i++) {
                for (int bit = 0; bit < 8; bit += 3) {
                    byte[] bad = frame.clone();
                    bad[i] ^= (byte) (1 << bit);
                    try {
                        byte[] out = d.decompress(bad);
                        assertArrayEquals(data, out, "a corruption at byte " + i + " went unnoticed");
                    } catch (Lz4Exception e) {
                        assertTrue(e.getMessage().contains("LZ4F error") || e.getMessage().contains("truncated"),
                                e.getMessage());
                    } catch (DecompressionLimitException e) {
                        // the 1-byte header checksum let a flipped content-size bit through: the huge size is
                        // refused before anything is allocated
                        assertTrue(i >= 6 && i < 14, "only the content size field can claim a huge size: " + i);
                    }
                }
            }
        }
    }

    @Test
    void lyingContentSizesAreRejected() {
        byte[] data = Arrays.copyOf(DATA, 20_000);
        byte[] frame = Lz4Frame.compress(data);
        assertEquals(data.length, Lz4Frame.contentSize(frame, 0, frame.length));
        try (Lz4FrameDecompressor d = Lz4FrameDecompressor.create()) {
            for (long lie : new long[] {data.length - 1, data.length + 1, 1}) {
                byte[] bad = withContentSize(frame, lie);
                Lz4Exception e = assertThrows(Lz4Exception.class, () -> d.decompress(bad), "declared " + lie);
                assertTrue(e.getMessage().contains("LZ4F error"), e.getMessage());
            }
            // a declared size over the limit is refused before anything is allocated or decoded
            byte[] huge = withContentSize(frame, 1L << 40);
            DecompressionLimitException limit = assertThrows(DecompressionLimitException.class, () -> d.decompress(huge));
            assertEquals(1L << 40, limit.size());
            assertEquals(dev.zstdjava.Decompressor.DEFAULT_MAX_DECOMPRESSED_SIZE, limit.limit());
            // under the limit but impossible for this input: refused without allocating the claimed 400 MB
            byte[] forged = withContentSize(frame, 400_000_000);
            long allocated = Lz4Allocation.currentThreadAllocatedBytes();
            Lz4Exception e = assertThrows(Lz4Exception.class, () -> d.decompress(forged));
            assertTrue(Lz4Allocation.currentThreadAllocatedBytes() - allocated < 1 << 20, "no large allocation");
            assertTrue(e.getMessage().contains("impossible"), e.getMessage());
        }
    }

    /**
     * A header declaring 2^63 bytes or more (an unsigned 64-bit field, negative as a Java long): refused with an
     * {@link Lz4Exception} (frame size wrong) as zstd refuses it with a {@code ZstdException}; {@code contentSize}
     * returned {@code Long.MAX_VALUE} and {@code decompress} reported a limit passed by "9223372036854775807 bytes".
     */
    @Test
    void aDeclaredContentSizeBeyondLongIsRefused() {
        byte[] frame = Lz4Frame.compress(Arrays.copyOf(DATA, 1000));
        for (long size : new long[] {Long.MIN_VALUE, -1}) {
            byte[] bad = withContentSize(frame, size);
            String unsigned = Long.toUnsignedString(size);
            Lz4Exception e = assertThrows(Lz4Exception.class, () -> Lz4Frame.contentSize(bad, 0, bad.length), unsigned);
            assertEquals(Lz4Exception.FRAME_SIZE_WRONG, e.errorCode(), e.getMessage());
            assertTrue(e.getMessage().contains(unsigned), e.getMessage());
            Lz4Exception d = assertThrows(Lz4Exception.class, () -> Lz4Frame.decompress(bad), unsigned);
            assertEquals(Lz4Exception.FRAME_SIZE_WRONG, d.errorCode(), d.getMessage());
            assertTrue(d.getMessage().contains(unsigned), d.getMessage());
        }
        // zstd, side by side: the same header field, the same kind of refusal
        byte[] zstd = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, (byte) 0xE0, 0, 0, 0, 0, 0, 0, 0, (byte) 0x80, 1, 0, 0};
        assertThrows(dev.zstdjava.zstd.ZstdException.class, () -> dev.zstdjava.zstd.ZstdFrame.contentSize(zstd, 0,
                zstd.length));
        assertEquals(Long.MAX_VALUE, Lz4Frame.contentSize(withContentSize(frame, Long.MAX_VALUE), 0, frame.length),
                "2^63-1 is a size a long holds");
    }

    /**
     * {@code update} with a destination larger than the limit writes at most one byte past the limit before it
     * throws, as {@code ZstdDecompressStream} does: it wrote a whole block (up to 64 KiB) past it.
     */
    @Test
    void updateWritesAtMostOneBytePastTheLimit() {
        byte[] data = new byte[200_000]; // lower-case ASCII: never the 0xFF the destination is filled with
        for (int i = 0; i < data.length; i++) {
            data[i] = (byte) ('a' + (i / 7 + i % 13) % 26);
        }
        byte[] frame = Lz4Frame.compress(data);
        for (long limit : new long[] {0, 1000, 70_000}) {
            try (Lz4FrameDecompressor d = Lz4FrameDecompressor.builder().maxDecompressedSize(limit).build();
                 Arena a = Arena.ofConfined()) {
                MemorySegment src = a.allocate(frame.length);
                MemorySegment.copy(frame, 0, src, ValueLayout.JAVA_BYTE, 0, frame.length);
                MemorySegment out = a.allocate(data.length);
                out.fill((byte) 0xFF);
                long[] at = {0, 0};
                assertThrows(DecompressionLimitException.class, () -> {
                    while (true) {
                        d.update(src.asSlice(at[0]), out.asSlice(at[1]));
                        at[0] += d.consumed();
                        at[1] += d.produced();
                    }
                }, "limit " + limit);
                long written = 0;
                while (written < out.byteSize() && out.get(ValueLayout.JAVA_BYTE, written) != (byte) 0xFF) {
                    written++;
                }
                assertTrue(written <= limit + 1, "limit " + limit + ": " + written + " bytes written");
                for (long i = written; i < out.byteSize(); i++) {
                    assertEquals((byte) 0xFF, out.get(ValueLayout.JAVA_BYTE, i), "byte " + i + " past the limit");
                }
                d.reset();
            }
        }
        try (Lz4FrameDecompressor d = Lz4FrameDecompressor.builder().maxDecompressedSize(data.length).build();
             Arena a = Arena.ofConfined()) {
            MemorySegment out = a.allocate(data.length + 1000);
            MemorySegment src = MemorySegment.ofArray(frame);
            long in = 0;
            long n = 0;
            long r;
            do {
                r = d.update(src.asSlice(in), out.asSlice(n));
                in += d.consumed();
                n += d.produced();
            } while (r != 0);
            assertArrayEquals(data, out.asSlice(0, n).toArray(ValueLayout.JAVA_BYTE), "exactly at the limit");
        }
    }

    /** Rewrites the content size field and the header checksum (XXH32 of the descriptor, second byte). */
    static byte[] withContentSize(byte[] frame, long size) {
        byte[] bad = frame.clone();
        assertEquals(0x08, bad[4] & 0x08, "frame declares its size");
        ByteBuffer.wrap(bad, 6, 8).order(java.nio.ByteOrder.LITTLE_ENDIAN).putLong(size);
        int hash = XXHashFactory.fastestJavaInstance().hash32().hash(bad, 4, 10, 0);
        bad[14] = (byte) (hash >>> 8);
        return bad;
    }

    @Test
    void decompressionIsBoundedByTheLimit() throws IOException {
        byte[] data = TestData.generate(Kind.REPETITIVE, 3_000_000, 1);
        byte[] declared = Lz4Frame.compress(data);
        byte[] undeclared = Lz4Frame.compress(data, Lz4Frame.Options.DEFAULT.withContentSize(false));
        for (byte[] frame : new byte[][] {declared, undeclared}) {
            DecompressionLimitException e = assertThrows(DecompressionLimitException.class,
                    () -> Lz4Frame.decompress(frame, 1_000_000));
            assertEquals(1_000_000, e.limit());
            assertArrayEquals(data, Lz4Frame.decompress(frame, data.length), "exactly at the limit is fine");
            try (InputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(frame), 2_000_000)) {
                assertThrows(DecompressionLimitException.class, in::readAllBytes);
            }
            try (Lz4FrameDecompressor d = Lz4FrameDecompressor.builder().maxDecompressedSize(100_000).build(); Arena a = Arena.ofConfined()) {
                MemorySegment src = a.allocate(frame.length);
                MemorySegment.copy(frame, 0, src, ValueLayout.JAVA_BYTE, 0, frame.length);
                MemorySegment out = a.allocate(64 << 10);
                assertThrows(DecompressionLimitException.class, () -> {
                    long in = 0;
                    while (true) {
                        d.update(src.asSlice(in), out);
                        in += d.consumed();
                    }
                });
                assertThrows(DecompressionLimitException.class, () -> d.decompress(frame));
            }
        }
        assertThrows(IllegalArgumentException.class, () -> Lz4Frame.decompress(declared, -1));
    }

    @Test
    void notFramesAndTrailingGarbage() throws IOException {
        byte[] frame = Lz4Frame.compress(Arrays.copyOf(DATA, 1000));
        byte[] zstdLike = {0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, 0, 0, 0, 0, 0, 0};
        Lz4Exception e = assertThrows(Lz4Exception.class, () -> Lz4Frame.decompress(zstdLike));
        assertEquals(Lz4Exception.FRAME_TYPE_UNKNOWN, e.errorCode(), e.getMessage());
        assertThrows(Lz4Exception.class, () -> Lz4Frame.contentSize(zstdLike, 0, zstdLike.length));
        assertThrows(Lz4Exception.class, () -> Lz4Frame.decompress(new byte[0]));
        byte[] trailing = Lz4FrameTest.concat(frame, new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        assertThrows(Lz4Exception.class, () -> Lz4Frame.decompress(trailing));
        try (InputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(trailing))) {
            assertThrows(Lz4Exception.class, in::readAllBytes);
        }
        try (InputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(zstdLike))) {
            assertThrows(Lz4Exception.class, in::read);
        }
    }

    @Test
    void tooSmallFrameDestinations() {
        byte[] data = TestData.generate(Kind.TEXT, 200_000, 4);
        try (Lz4FrameCompressor c = Lz4FrameCompressor.create(); Lz4FrameDecompressor d = Lz4FrameDecompressor.create();
             Arena a = Arena.ofConfined()) {
            byte[] small = new byte[(int) c.maxCompressedLength(data.length) - 1];
            Lz4Exception e = assertThrows(Lz4Exception.class, () -> c.compress(data, 0, data.length, small, 0, small.length));
            assertEquals(Lz4Exception.DST_MAX_SIZE_TOO_SMALL, e.errorCode());
            byte[] frame = c.compress(data);
            byte[] out = new byte[data.length - 1];
            e = assertThrows(Lz4Exception.class, () -> d.decompress(frame, 0, frame.length, out, 0, out.length));
            assertTrue(e.getMessage().contains("destination too small"), e.getMessage());
            assertArrayEquals(data, d.decompress(frame), "usable after the failure");

            // streaming: a too-small step is refused before lz4 sees it, and the frame continues
            MemorySegment src = MemorySegment.ofArray(data);
            MemorySegment dst = a.allocate(c.updateBound(data.length));
            assertThrows(IllegalStateException.class, () -> c.update(src, dst), "update before begin");
            ByteArrayOutputStream f = new ByteArrayOutputStream();
            f.writeBytes(dst.asSlice(0, c.begin(dst)).toArray(ValueLayout.JAVA_BYTE));
            assertThrows(Lz4Exception.class, () -> c.update(src, dst.asSlice(0, 1000)));
            assertThrows(Lz4Exception.class, () -> c.begin(dst.asSlice(0, 18)));
            f.writeBytes(dst.asSlice(0, c.update(src, dst)).toArray(ValueLayout.JAVA_BYTE));
            f.writeBytes(dst.asSlice(0, c.end(dst)).toArray(ValueLayout.JAVA_BYTE));
            assertArrayEquals(data, Lz4Frame.decompress(f.toByteArray()));
            assertThrows(IllegalStateException.class, () -> c.end(dst), "no frame in progress after end");

            // a declared content size is enforced at the end
            c.begin(dst, 10);
            c.update(MemorySegment.ofArray(new byte[9]), dst);
            Lz4Exception wrong = assertThrows(Lz4Exception.class, () -> c.end(dst));
            assertEquals(Lz4Exception.FRAME_SIZE_WRONG, wrong.errorCode(), wrong.getMessage());

            // so is a declared size of 0, which an LZ4F header cannot hold (lz4 reads 0 as "not declared")
            c.begin(dst, 0);
            c.update(MemorySegment.ofArray(new byte[10]), dst);
            Lz4Exception notEmpty = assertThrows(Lz4Exception.class, () -> c.end(dst));
            assertEquals(Lz4Exception.FRAME_SIZE_WRONG, notEmpty.errorCode(), notEmpty.getMessage());
            assertThrows(IllegalStateException.class, () -> c.end(dst), "the frame was abandoned");
            long header = c.begin(dst, 0);
            long end = c.end(dst.asSlice(header));
            byte[] empty = dst.asSlice(0, header + end).toArray(ValueLayout.JAVA_BYTE);
            assertArrayEquals(new byte[0], Lz4Frame.decompress(empty), "an empty frame begun declaring 0 bytes");
        }
    }

    @Test
    void closedFrameObjectsRefuseWork() throws IOException {
        Lz4FrameCompressor c = Lz4FrameCompressor.create();
        c.close();
        assertThrows(IllegalStateException.class, () -> c.compress(DATA));
        Lz4FrameDecompressor d = Lz4FrameDecompressor.create();
        d.close();
        assertThrows(IllegalStateException.class, () -> d.decompress(Lz4Frame.compress(DATA)));
        Lz4FrameOutputStream out = new Lz4FrameOutputStream(new ByteArrayOutputStream());
        out.write(DATA);
        out.close();
        out.close();
        assertThrows(IOException.class, () -> out.write(1));
        Lz4FrameInputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(Lz4Frame.compress(DATA)));
        in.close();
        assertThrows(IOException.class, in::read);
    }

    @Test
    void streamsStayFailedAfterAnError() throws IOException {
        ByteArrayOutputStream sink = new ByteArrayOutputStream();
        java.io.OutputStream flaky = new java.io.OutputStream() {
            int writes;

            @Override
            public void write(int b) {
                sink.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                if (++writes == 3) {
                    throw new IOException("disk full");
                }
                sink.write(b, off, len);
            }
        };
        byte[] data = TestData.generate(Kind.TEXT, 1_000_000, 3);
        Lz4FrameOutputStream out = new Lz4FrameOutputStream(flaky);
        assertThrows(IOException.class, () -> out.write(data));
        IOException again = assertThrows(IOException.class, () -> out.write(1));
        assertTrue(again.getMessage().contains("disk full"), again.getMessage());
        assertThrows(IOException.class, out::flush);
        assertThrows(IOException.class, out::close, "close reports the incomplete frame");
        Lz4Exception truncated = assertThrows(Lz4Exception.class, () -> Lz4Frame.decompress(sink.toByteArray()));
        assertTrue(truncated.getMessage().contains("truncated"), "the frame was left unended: " + truncated);

        byte[] frame = Lz4Frame.compress(data);
        byte[] corrupt = frame.clone();
        corrupt[corrupt.length / 2] ^= 0x40;
        try (InputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(corrupt))) {
            assertThrows(Lz4Exception.class, in::readAllBytes);
            IOException later = assertThrows(IOException.class, in::read);
            assertTrue(later.getCause() instanceof Lz4Exception, later.toString());
            assertThrows(IOException.class, in::available, "a failed stream stays failed");
            assertThrows(IOException.class, () -> in.skip(1));
        }
    }
}
