package dev.zstdjava.zstd;

import dev.zstdjava.JsonRecords;
import dev.zstdjava.soak.NativeMemory;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A decompressor with a dictionary decodes outputs of at most {@link DictionaryPrefix#MAX_AREA} bytes right after its
 * own copy of the dictionary and copies them out: every form reads every size back as written, around the area's
 * limits and as it grows, fails as the in-place decoding fails, and holds the copy and the area only when it uses them.
 */
class ZstdDictionaryPrefixTest {
    /** Output sizes around the smallest area, its doublings and its largest, then past it, up and down again. */
    static final int[] SIZES = {1, 100, 4095, 4096, 4097, 9000, 70_000, 131_071, 131_072, 131_073, 300_000,
            131_072, 5000, 1};

    static ZstdDictionary dictionary;
    static byte[] records;

    @BeforeAll
    static void train() {
        List<byte[]> products = JsonRecords.products(2500, 7);
        dictionary = ZstdDictionary.train(products.subList(0, 700), 16 << 10);
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        products.subList(700, products.size()).forEach(all::writeBytes);
        records = all.toByteArray();
        assertTrue(records.length > 300_000, "enough values for the largest size: " + records.length);
    }

    static byte[] value(int size) {
        return Arrays.copyOf(records, size);
    }

    @Test
    void everyFormReadsEverySizeBackAroundTheAreaAndAsItGrows() {
        try (ZstdCompressionDictionary cd = dictionary.forCompression(3);
             ZstdDecompressionDictionary dd = dictionary.forDecompression();
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build();
             Arena arena = Arena.ofConfined()) {
            for (int size : SIZES) {
                byte[] value = value(size);
                byte[] frame = c.compress(value);
                String at = size + " bytes";
                assertArrayEquals(value, d.decompress(frame), at);
                assertArrayEquals(value, d.decompress(MemorySegment.ofArray(frame)), at);
                MemorySegment nativeFrame = arena.allocate(frame.length);
                MemorySegment.copy(frame, 0, nativeFrame, ValueLayout.JAVA_BYTE, 0, frame.length);
                assertArrayEquals(value, d.decompress(nativeFrame), at);
                assertArrayEquals(value, d.decompress(nativeFrame.asReadOnly()), at);

                byte[] exact = new byte[size];
                assertEquals(size, d.decompress(frame, 0, frame.length, exact, 0, size), at);
                assertArrayEquals(value, exact, at);
                byte[] framed = new byte[frame.length + 7];
                System.arraycopy(frame, 0, framed, 5, frame.length);
                byte[] roomy = new byte[size + 20];
                Arrays.fill(roomy, (byte) 0x5A);
                assertEquals(size, d.decompress(framed, 5, frame.length, roomy, 3, size + 10), at);
                assertArrayEquals(value, Arrays.copyOfRange(roomy, 3, 3 + size), at);
                for (int i : new int[] {0, 1, 2, size + 3, size + 19}) {
                    assertEquals((byte) 0x5A, roomy[i], at + ": byte " + i + " outside the output is untouched");
                }

                MemorySegment nativeOut = arena.allocate(size + 1);
                assertEquals(size, d.decompress(nativeFrame, nativeOut), at);
                assertArrayEquals(value, nativeOut.asSlice(0, size).toArray(ValueLayout.JAVA_BYTE), at);
                byte[] heapOut = new byte[size];
                assertEquals(size, d.decompress(MemorySegment.ofArray(frame), MemorySegment.ofArray(heapOut)), at);
                assertArrayEquals(value, heapOut, at);

                ByteBuffer direct = ByteBuffer.allocateDirect(size);
                ByteBuffer directIn = ByteBuffer.allocateDirect(frame.length).put(frame).flip();
                assertEquals(size, d.decompress(directIn, direct), at);
                assertArrayEquals(value, bytes(direct.flip()), at);
                ByteBuffer heap = ByteBuffer.allocate(size);
                assertEquals(size, d.decompress(ByteBuffer.wrap(frame), heap), at);
                assertArrayEquals(value, heap.array(), at);
                ByteBuffer mixed = ByteBuffer.allocateDirect(size);
                assertEquals(size, d.decompress(ByteBuffer.wrap(frame), mixed), at);
                assertArrayEquals(value, bytes(mixed.flip()), at);
            }
        }
    }

    static byte[] bytes(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.get(a);
        return a;
    }

    @Test
    void concatenatedFramesAndRawContentReadBack() {
        byte[] first = value(20_000);
        byte[] second = Arrays.copyOfRange(records, 50_000, 61_000);
        byte[] both = new byte[first.length + second.length];
        System.arraycopy(first, 0, both, 0, first.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        ZstdDictionary raw = ZstdDictionary.rawContent(Arrays.copyOfRange(records, 200_000, 232_000));
        for (ZstdDictionary dict : List.of(dictionary, raw)) {
            try (ZstdCompressionDictionary cd = dict.forCompression(3);
                 ZstdDecompressionDictionary dd = dict.forDecompression();
                 ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
                 ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
                byte[] a = c.compress(first);
                byte[] b = c.compress(second);
                byte[] frames = new byte[a.length + b.length];
                System.arraycopy(a, 0, frames, 0, a.length);
                System.arraycopy(b, 0, frames, a.length, b.length);
                assertArrayEquals(first, d.decompress(a)); // the next call is the first made next to the copy
                assertArrayEquals(both, d.decompress(frames), dict.toString());
                byte[] out = new byte[both.length];
                assertEquals(both.length, d.decompress(frames, 0, frames.length, out, 0, out.length));
                assertArrayEquals(both, out, dict.toString());
            }
        }
    }

    @Test
    void streamedFramesAndSkippableFramesReadBackOnceTheCopyIsUsed() throws Exception {
        byte[] value = value(40_000);
        try (ZstdCompressionDictionary cd = dictionary.forCompression(3);
             ZstdDecompressionDictionary dd = dictionary.forDecompression();
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).windowLogMax(24).build()) {
            byte[] frame = c.compress(value);
            assertArrayEquals(value, d.decompress(frame));
            assertArrayEquals(value, d.decompress(frame)); // the copy is made and referenced
            ByteArrayOutputStream streamed = new ByteArrayOutputStream();
            try (ZstdOutputStream out = new ZstdOutputStream(streamed, ZstdCompressStream.builder().dictionary(cd))) {
                out.write(value);
            }
            byte[] unknownSize = streamed.toByteArray();
            assertEquals(ZstdFrame.UNKNOWN_SIZE, ZstdFrame.contentSize(unknownSize, 0, unknownSize.length));
            assertArrayEquals(value, d.decompress(unknownSize), "streamed, as windowLogMax asks");
            byte[] skippable = new byte[8 + 300 + frame.length];
            skippable[0] = 0x50;
            skippable[1] = 0x2A;
            skippable[2] = 0x4D;
            skippable[3] = 0x18;
            skippable[4] = (byte) 300;
            skippable[5] = (byte) (300 >> 8);
            System.arraycopy(frame, 0, skippable, 308, frame.length);
            assertArrayEquals(value, d.decompress(skippable));
            byte[] out = new byte[value.length];
            assertEquals(value.length, d.decompress(skippable, 0, skippable.length, out, 0, out.length));
            assertArrayEquals(value, out);
            assertArrayEquals(value, d.decompress(frame), "and frames of known size after them");
        }
    }

    @Test
    void errorsAreThoseOfTheInPlaceDecoding() {
        byte[] value = value(30_000);
        try (ZstdCompressionDictionary cd = dictionary.forCompression(3);
             ZstdDecompressionDictionary dd = dictionary.forDecompression();
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).checksum(true).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
            byte[] frame = c.compress(value);
            assertArrayEquals(value, d.decompress(frame)); // the next call is the first made next to the copy
            byte[] small = new byte[value.length - 1];
            ZstdException tooSmall = assertThrows(ZstdException.class,
                    () -> d.decompress(frame, 0, frame.length, small, 0, small.length));
            assertEquals(ZstdException.DST_SIZE_TOO_SMALL, tooSmall.errorCode(), tooSmall.getMessage());
            ZstdException tooSmallSegment = assertThrows(ZstdException.class,
                    () -> d.decompress(MemorySegment.ofArray(frame), MemorySegment.ofArray(small)));
            assertEquals(ZstdException.DST_SIZE_TOO_SMALL, tooSmallSegment.errorCode());

            byte[] corrupt = frame.clone();
            corrupt[corrupt.length - 2] ^= 0x40; // in the checksum
            byte[] out = new byte[value.length];
            ZstdException wrong = assertThrows(ZstdException.class,
                    () -> d.decompress(corrupt, 0, corrupt.length, out, 0, out.length));
            assertEquals(ZstdException.CHECKSUM_WRONG, wrong.errorCode(), wrong.getMessage());
            assertThrows(ZstdException.class, () -> d.decompress(corrupt));
            // and the decompressor goes on reading good frames
            assertArrayEquals(value, d.decompress(frame));
        }
    }

    @Test
    void theCopyAndTheAreaAreMadeAtTheSecondCallAndGrowOnlyToTheLargestFittingOutput() {
        try (ZstdCompressionDictionary cd = dictionary.forCompression(3);
             ZstdDecompressionDictionary dd = dictionary.forDecompression();
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build();
             ZstdDecompressor plain = ZstdDecompressor.create()) {
            assertEquals(plain.contextSize(), d.contextSize(), "nothing held before the first call");
            byte[] frame = c.compress(value(10_000));
            d.decompress(frame);
            plain.decompress(Zstd.compress(value(10_000))); // libzstd's own buffers, made at a first call
            long before = d.contextSize();
            assertEquals(plain.contextSize(), before, "a decompressor used once makes no copy");
            d.decompress(frame);
            long withSmallArea = d.contextSize() - before;
            assertHolds(withSmallArea, 16 << 10);
            d.decompress(c.compress(value(3000)));
            assertEquals(withSmallArea, d.contextSize() - before, "a smaller output reuses the area");
            d.decompress(c.compress(value(100_000)));
            long withLargestArea = d.contextSize() - before;
            assertHolds(withLargestArea, 128 << 10);
            d.decompress(c.compress(value(300_000)));
            assertEquals(withLargestArea, d.contextSize() - before, "a larger output is decoded in place");
        }
    }

    /**
     * Asserts that {@code held} bytes are the dictionary's copy, an area of {@code area} bytes and the tables of a
     * {@code ZSTD_DDict} that does not hold a copy of its own (about 27 KiB; one by copy would add the dictionary).
     */
    private static void assertHolds(long held, long area) {
        long tables = held - dictionary.size() - area;
        assertTrue(tables > (20 << 10) && tables < (34 << 10),
                held + " bytes held: the dictionary (" + dictionary.size() + "), " + area + " and tables of " + tables);
    }

    @Test
    void theAreaStartsWhereTheCopyTheTablesReferenceEnds() {
        try (ZstdDecompressionDictionary dd = dictionary.forDecompression()) {
            DictionaryPrefix prefix = DictionaryPrefix.of(dd);
            MemorySegment dctx = ZstdNative.createDCtx();
            try {
                assertEquals(null, prefix.area(dctx, 5000), "the first call decodes in place");
                MemorySegment area = prefix.area(dctx, 5000);
                assertEquals(8 << 10, area.byteSize());
                assertEquals(prefix.buffer().address() + dictionary.size(), area.address());
                byte[] copy = prefix.buffer().asSlice(0, dictionary.size()).toArray(ValueLayout.JAVA_BYTE);
                assertArrayEquals(dictionary.toByteArray(), copy);
                // by reference: the shared digest, which holds its own copy, is larger by exactly the dictionary
                assertEquals(ZstdNative.sizeofDDict(dd.shared().acquire()) - dictionary.size(),
                        ZstdNative.sizeofDDict(prefix.ddict()));
                dd.shared().release();
                assertEquals(null, prefix.area(dctx, DictionaryPrefix.MAX_AREA + 1));
                assertEquals(DictionaryPrefix.MAX_AREA, prefix.area(dctx, DictionaryPrefix.MAX_AREA).byteSize());
                assertEquals(prefix.buffer().address() + dictionary.size(), prefix.area(dctx, 1).address());
            } finally {
                ZstdNative.freeDCtx(dctx);
                prefix.free();
            }
        }
    }

    @Test
    void closingDecompressorsFreesTheirCopies() throws InterruptedException {
        byte[] frame;
        try (ZstdCompressionDictionary cd = dictionary.forCompression(3);
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build()) {
            frame = c.compress(value(12_000));
        }
        try (ZstdDecompressionDictionary dd = dictionary.forDecompression()) {
            NativeMemory.settle();
            long before = NativeMemory.inUse();
            long held = 0;
            for (int i = 0; i < 300; i++) {
                try (ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
                    long context = d.contextSize();
                    d.decompress(frame);
                    d.decompress(frame);
                    held = d.contextSize() - context;
                }
            }
            assertHolds(held, 16 << 10);
            long margin = 4L << 20; // 300 copies left behind would be 300 x ~59 KiB, about 17 MiB
            long after = NativeMemory.fallTo(before + margin - 1, Duration.ofSeconds(10));
            assertTrue(after < before + margin, "malloc in use grew from " + before + " to " + after);
        }
    }

    @Test
    void aFailedDecodingOfALargeReadOnlyHeapInputNamesTheFramesDictionary() {
        byte[] noise = new byte[(3 << 20) / 2];
        new java.util.Random(5).nextBytes(noise);
        ZstdDictionary other = ZstdDictionary.train(JsonRecords.statuses(100, 3), 8 << 10);
        byte[] frame;
        try (ZstdCompressionDictionary cd = other.forCompression(3);
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build()) {
            frame = c.compress(noise);
        }
        assertTrue(frame.length > (1 << 20), "a staged input over 1 MiB: " + frame.length);
        // and with an output the area takes: the same frame of a smaller value after a skippable frame of 1.2 MiB
        byte[] smallFrame;
        try (ZstdCompressionDictionary cd = other.forCompression(3);
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build()) {
            smallFrame = c.compress(Arrays.copyOf(noise, 50_000));
        }
        int skip = 1200 << 10;
        byte[] skippedFrame = new byte[8 + skip + smallFrame.length];
        skippedFrame[0] = 0x50;
        skippedFrame[1] = 0x2A;
        skippedFrame[2] = 0x4D;
        skippedFrame[3] = 0x18;
        for (int k = 0; k < 4; k++) {
            skippedFrame[4 + k] = (byte) (skip >> (8 * k));
        }
        System.arraycopy(smallFrame, 0, skippedFrame, 8 + skip, smallFrame.length);
        try (ZstdDecompressionDictionary dd = dictionary.forDecompression();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
            for (byte[] input : List.of(frame, frame, skippedFrame, skippedFrame, frame)) {
                MemorySegment readOnly = MemorySegment.ofArray(input).asReadOnly();
                ZstdException e = assertThrows(ZstdException.class, () -> d.decompress(readOnly));
                assertEquals(ZstdException.DICTIONARY_WRONG, e.errorCode(), e.getMessage());
                assertTrue(e.getMessage().contains("id " + dictionary.id()), e.getMessage());
                // the frame's own id is read from the first frame's header: a skippable frame names none
                assertEquals(input == frame, e.getMessage().contains("dictionary id " + other.id()), e.getMessage());
            }
        }
    }

    @Test
    void aDictionaryOverTheLimitIsNotCopied() {
        ZstdDictionary large = ZstdDictionary.rawContent(Arrays.copyOf(records, DictionaryPrefix.MAX_DICTIONARY + 1));
        byte[] value = Arrays.copyOfRange(records, 1000, 9000);
        try (ZstdCompressionDictionary cd = large.forCompression(3);
             ZstdDecompressionDictionary dd = large.forDecompression();
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
            byte[] frame = c.compress(value);
            assertTrue(frame.length < 100, "the value is found in the dictionary: " + frame.length);
            assertArrayEquals(value, d.decompress(frame));
            long before = d.contextSize();
            assertArrayEquals(value, d.decompress(frame));
            assertEquals(before, d.contextSize());
        }
    }

    @Test
    void aClosedDictionaryStillDecodesThroughTheCopyMadeAfterItsClose() {
        byte[] value = value(12_000);
        byte[] frame;
        try (ZstdCompressionDictionary cd = dictionary.forCompression(3);
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build()) {
            frame = c.compress(value);
        }
        ZstdDecompressionDictionary dd = dictionary.forDecompression();
        try (ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
            dd.close();
            assertArrayEquals(value, d.decompress(frame));
            long before = d.contextSize();
            assertArrayEquals(value, d.decompress(frame));
            assertHolds(d.contextSize() - before, 16 << 10);
        }
    }

    @Test
    void aCopyThatCannotBeMadeLeavesTheDecompressorDecodingInPlace() {
        for (Throwable failure : List.of(new OutOfMemoryError("injected"), new IllegalStateException("injected"))) {
            try (ZstdCompressionDictionary cd = dictionary.forCompression(3);
                 ZstdDecompressionDictionary dd = dictionary.forDecompression();
                 ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
                 ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
                byte[] small = value(6000);
                byte[] frame = c.compress(small);
                assertArrayEquals(small, d.decompress(frame));
                long before = d.contextSize();
                DictionaryPrefix.nextGrowFailure = failure;
                assertArrayEquals(small, d.decompress(frame), failure.toString());
                assertEquals(null, DictionaryPrefix.nextGrowFailure, "the copy was tried");
                byte[] out = new byte[small.length];
                assertEquals(small.length, d.decompress(frame, 0, frame.length, out, 0, out.length));
                assertArrayEquals(small, out);
                assertEquals(before, d.contextSize(), "no copy, and none tried again");
            } finally {
                DictionaryPrefix.nextGrowFailure = null;
            }
        }
        // a copy made before a later, larger one fails is kept, with its area
        try (ZstdCompressionDictionary cd = dictionary.forCompression(3);
             ZstdDecompressionDictionary dd = dictionary.forDecompression();
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
            byte[] small = value(3000);
            byte[] large = value(100_000);
            d.decompress(c.compress(small));
            d.decompress(c.compress(small));
            long held = d.contextSize();
            DictionaryPrefix.nextGrowFailure = new OutOfMemoryError("injected");
            assertArrayEquals(large, d.decompress(c.compress(large)));
            assertArrayEquals(small, d.decompress(c.compress(small)));
            assertEquals(held, d.contextSize());
        } finally {
            DictionaryPrefix.nextGrowFailure = null;
        }
    }
}
