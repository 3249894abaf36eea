package dev.zstdjava.zstd;

import dev.zstdjava.JsonRecords;
import dev.zstdjava.soak.NativeMemory;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

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
 * {@link ZstdDecompressor#useDictionary}: one context reads values of several dictionaries in turn, each with the
 * dictionary it switched to last, in every form; a frame of another dictionary fails naming both; the copy next to the
 * dictionary a decompressor was built with is freed; a closed dictionary is refused and leaves no reference behind.
 */
class ZstdUseDictionaryTest {
    static ZstdDictionary statuses;
    static ZstdDictionary products;
    static byte[] status;
    static byte[] product;
    static byte[] plainValue;

    @BeforeAll
    static void train() {
        List<byte[]> s = JsonRecords.statuses(1200, 11);
        List<byte[]> p = JsonRecords.products(1200, 12);
        statuses = ZstdDictionary.train(s.subList(0, 1000), 8 << 10);
        products = ZstdDictionary.train(p.subList(0, 1000), 8 << 10);
        status = s.get(1100);
        product = p.get(1100);
        plainValue = JsonRecords.document(20_000, 13);
    }

    static byte[] compress(ZstdDictionary dictionary, byte[] value) {
        if (dictionary == null) {
            return Zstd.compress(value, 3);
        }
        try (ZstdCompressionDictionary cd = dictionary.forCompression(3);
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build()) {
            return c.compress(value);
        }
    }

    /** Reads {@code frame} in every form and checks each reads {@code value}. */
    static void readsInEveryForm(ZstdDecompressor d, byte[] frame, byte[] value, String at) {
        assertArrayEquals(value, d.decompress(frame), at);
        assertArrayEquals(value, d.decompress(MemorySegment.ofArray(frame)), at);
        byte[] out = new byte[value.length + 3];
        assertEquals(value.length, d.decompress(frame, 0, frame.length, out, 2, value.length + 1), at);
        assertArrayEquals(value, Arrays.copyOfRange(out, 2, 2 + value.length), at);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment src = arena.allocate(frame.length);
            MemorySegment.copy(frame, 0, src, ValueLayout.JAVA_BYTE, 0, frame.length);
            MemorySegment dst = arena.allocate(value.length);
            assertEquals(value.length, d.decompress(src, dst), at);
            assertArrayEquals(value, dst.toArray(ValueLayout.JAVA_BYTE), at);
        }
        ByteBuffer dst = ByteBuffer.allocateDirect(value.length);
        assertEquals(value.length, d.decompress(ByteBuffer.wrap(frame), dst), at);
        byte[] got = new byte[value.length];
        dst.flip().get(got);
        assertArrayEquals(value, got, at);
    }

    @Test
    void oneContextReadsTheValuesOfSeveralDictionariesInTurn() {
        byte[] statusFrame = compress(statuses, status);
        byte[] productFrame = compress(products, product);
        byte[] plainFrame = compress(null, plainValue);
        try (ZstdDecompressionDictionary sd = statuses.forDecompression();
             ZstdDecompressionDictionary pd = products.forDecompression();
             ZstdDecompressor d = ZstdDecompressor.create()) {
            for (int round = 0; round < 3; round++) {
                assertTrue(d.useDictionary(sd) == d, "returns itself");
                readsInEveryForm(d, statusFrame, status, "statuses, round " + round);
                d.useDictionary(pd);
                readsInEveryForm(d, productFrame, product, "products, round " + round);
                d.useDictionary(null);
                readsInEveryForm(d, plainFrame, plainValue, "no dictionary, round " + round);
            }
            // a dictionary's decompressor reads frames written without one too, as libzstd does
            d.useDictionary(sd);
            assertArrayEquals(plainValue, d.decompress(plainFrame));
        }
    }

    @Test
    void aFrameOfAnotherDictionaryFailsNamingBoth() {
        byte[] statusFrame = compress(statuses, status);
        try (ZstdDecompressionDictionary sd = statuses.forDecompression();
             ZstdDecompressionDictionary pd = products.forDecompression();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(sd).build()) {
            assertArrayEquals(status, d.decompress(statusFrame));
            d.useDictionary(pd);
            ZstdException wrong = assertThrows(ZstdException.class, () -> d.decompress(statusFrame));
            assertEquals(ZstdException.DICTIONARY_WRONG, wrong.errorCode(), wrong.getMessage());
            assertTrue(wrong.getMessage().contains("id " + products.id()), wrong.getMessage());
            assertTrue(wrong.getMessage().contains("id " + statuses.id()), wrong.getMessage());
            d.useDictionary(null);
            ZstdException missing = assertThrows(ZstdException.class, () -> d.decompress(statusFrame));
            assertTrue(missing.getMessage().contains("id " + statuses.id()), missing.getMessage());
            d.useDictionary(sd);
            byte[] tooSmall = new byte[status.length - 1];
            assertThrows(ZstdException.class, () -> d.decompress(statusFrame, 0, statusFrame.length, tooSmall, 0,
                    tooSmall.length));
            d.useDictionary(pd).useDictionary(sd);
            assertArrayEquals(status, d.decompress(statusFrame));
        }
    }

    @Test
    void aSwitchAfterAStreamStoppedByTheLimitWorks() throws Exception {
        byte[] large = JsonRecords.document(300_000, 14);
        java.io.ByteArrayOutputStream streamed = new java.io.ByteArrayOutputStream();
        try (ZstdOutputStream out = new ZstdOutputStream(streamed, ZstdCompressStream.builder())) {
            out.write(large);
        }
        byte[] unknownSize = streamed.toByteArray();
        byte[] statusFrame = compress(statuses, status);
        try (ZstdDecompressionDictionary sd = statuses.forDecompression();
             ZstdDecompressor d = ZstdDecompressor.builder().windowLogMax(24).maxDecompressedSize(100_000).build()) {
            // a frame of unknown size is streamed, and the limit stops it in the middle of the frame
            assertThrows(dev.zstdjava.DecompressionLimitException.class, () -> d.decompress(unknownSize));
            d.useDictionary(sd);
            assertArrayEquals(status, d.decompress(statusFrame));
        }
    }

    /** @return the references to {@code digest}'s native tables: its own and the contexts' that use it (0: freed) */
    static int references(ZstdDecompressionDictionary digest) throws ReflectiveOperationException {
        SharedDict shared = digest.shared();
        java.lang.reflect.Field refs = SharedDict.class.getDeclaredField("refs");
        refs.setAccessible(true);
        synchronized (shared) {
            return refs.getInt(shared);
        }
    }

    @Test
    void aSwitchHoldsOneReferenceAndARefusedOneNone() throws Exception {
        byte[] statusFrame = compress(statuses, status);
        byte[] productFrame = compress(products, product);
        try (ZstdDecompressionDictionary sd = statuses.forDecompression();
             ZstdDecompressionDictionary pd = products.forDecompression();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(pd).build()) {
            assertEquals(2, references(pd), "its own and the decompressor's");
            d.decompress(productFrame);
            d.decompress(productFrame); // the copy next to the dictionary, which the context references now
            d.useDictionary(sd);
            assertEquals(1, references(pd), "the switch dropped it");
            assertEquals(2, references(sd));
            d.useDictionary(sd);
            assertEquals(2, references(sd), "a switch to the same dictionary holds it once");
            d.useDictionary(pd);
            d.decompress(productFrame);
            assertEquals(1, references(sd));
            assertEquals(2, references(pd));

            ZstdDecompressionDictionary closed = statuses.forDecompression();
            closed.close();
            assertThrows(IllegalStateException.class, () -> d.useDictionary(closed));
            assertEquals(1, references(pd), "a refused switch drops the dictionary it had too");
            ZstdException missing = assertThrows(ZstdException.class, () -> d.decompress(statusFrame));
            assertTrue(missing.getMessage().contains("no dictionary was given"), missing.getMessage());
        }
    }

    @Test
    void aSwitchFreesTheCopyNextToTheDictionaryItWasBuiltWith() {
        byte[] productFrame = compress(products, product);
        byte[] statusFrame = compress(statuses, status);
        try (ZstdDecompressionDictionary pd = products.forDecompression();
             ZstdDecompressionDictionary sd = statuses.forDecompression();
             ZstdDecompressor plain = ZstdDecompressor.create();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(pd).build()) {
            d.decompress(productFrame);
            d.decompress(productFrame);
            assertTrue(d.contextSize() > plain.contextSize() + (8 << 10), "a copy after the second read: "
                    + d.contextSize() + " against " + plain.contextSize());
            d.useDictionary(sd);
            assertEquals(plain.contextSize(), d.contextSize(), "the copy is freed at the switch");
            for (int i = 0; i < 3; i++) {
                assertArrayEquals(status, d.decompress(statusFrame));
            }
            assertEquals(plain.contextSize(), d.contextSize(), "after a switch it decodes in place, making no copy");
            d.useDictionary(pd);
            assertArrayEquals(product, d.decompress(productFrame));
            assertArrayEquals(product, d.decompress(productFrame));
            assertEquals(plain.contextSize(), d.contextSize(), "nor back on the dictionary it was built with");
        }
    }

    @Test
    void theDictionaryCanBeClosedWhileInUseAndAClosedOneIsRefused() {
        byte[] statusFrame = compress(statuses, status);
        byte[] plainFrame = compress(null, plainValue);
        try (ZstdDecompressor d = ZstdDecompressor.create()) {
            ZstdDecompressionDictionary sd = statuses.forDecompression();
            d.useDictionary(sd);
            sd.close(); // the decompressor holds its own reference: its tables are not freed under it
            assertArrayEquals(status, d.decompress(statusFrame));
            assertArrayEquals(status, d.decompress(statusFrame));

            ZstdDecompressionDictionary closed = products.forDecompression();
            closed.close();
            IllegalStateException refused = assertThrows(IllegalStateException.class, () -> d.useDictionary(closed));
            assertTrue(refused.getMessage().contains("closed"), refused.getMessage());
            // refused: it decodes with no dictionary now, and holds none
            assertArrayEquals(plainValue, d.decompress(plainFrame));
            assertThrows(ZstdException.class, () -> d.decompress(statusFrame));
        }
        ZstdDecompressor closedOne = ZstdDecompressor.create();
        closedOne.close();
        try (ZstdDecompressionDictionary sd = statuses.forDecompression()) {
            assertThrows(IllegalStateException.class, () -> closedOne.useDictionary(sd));
        }
    }

    @Test
    void switchingFreesWhatItNoLongerReferences() throws InterruptedException {
        byte[] statusFrame = compress(statuses, status);
        byte[] productFrame = compress(products, product);
        try (ZstdDecompressor d = ZstdDecompressor.create()) {
            d.useDictionary(null); // nothing to free: a no-op
            NativeMemory.settle();
            long before = NativeMemory.inUse();
            for (int i = 0; i < 300; i++) {
                // each dictionary's tables (about 30 KiB) are freed once closed and no longer referenced
                ZstdDecompressionDictionary sd = statuses.forDecompression();
                ZstdDecompressionDictionary pd = products.forDecompression();
                d.useDictionary(sd);
                sd.close();
                assertArrayEquals(status, d.decompress(statusFrame));
                d.useDictionary(pd);
                pd.close();
                assertArrayEquals(product, d.decompress(productFrame));
            }
            d.useDictionary(null);
            long margin = 2L << 20; // 600 tables left behind would be about 18 MiB
            long after = NativeMemory.fallTo(before + margin - 1, Duration.ofSeconds(10));
            assertTrue(after < before + margin, "malloc in use grew from " + before + " to " + after);
        }
    }
}
