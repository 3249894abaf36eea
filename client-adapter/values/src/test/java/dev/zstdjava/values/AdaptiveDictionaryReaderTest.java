package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;

import static dev.zstdjava.values.AdaptivePatternDictionariesTest.RECORDS;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.compressor;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.inMemory;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.utf8;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.writeUntil;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.writeUntilOnDictionaries;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link AdaptiveCompressor#reader()} with {@link PatternDictionaries}: the reader every adapter uses fails, in every
 * form, for a dictionary no open lineage loaded, naming it; never decodes with a released lineage's dictionaries;
 * and writes as a plain {@link ValueCompressor}. (Reading per-pattern values in every form, and a released lineage
 * read once reopened: {@link AdaptivePatternDictionariesTest}.)
 */
class AdaptiveDictionaryReaderTest {
    static long frameId(byte[] stored) {
        return DictionaryManagerTest.frameDictId(stored);
    }

    /** The first value of {@code values} written with a dictionary. */
    static byte[][] withDictionary(List<byte[][]> values) {
        for (byte[][] vs : values) {
            if (vs[1].length > ValueFormat.HEADER_SIZE && vs[1][0] == 0 && frameId(vs[1]) != 0) {
                return vs;
            }
        }
        throw new AssertionError("no value written with a dictionary");
    }

    /** Reads {@code stored} through every form of {@code reader}. */
    static void assertReadsInEveryForm(ValueCompressor reader, byte[] value, byte[] stored) {
        assertArrayEquals(value, reader.decompress(stored), "byte[]");
        ByteBuffer heap = ByteBuffer.wrap(stored);
        assertEquals(ByteBuffer.wrap(value), reader.decompress(heap), "heap ByteBuffer");
        assertEquals(0, heap.position());
        ByteBuffer direct = ByteBuffer.allocateDirect(stored.length).put(stored).flip();
        assertEquals(ByteBuffer.wrap(value), reader.decompress(direct), "direct ByteBuffer");
        assertArrayEquals(value, reader.decompress(MemorySegment.ofArray(stored)), "heap MemorySegment");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment nat = arena.allocate(stored.length);
            MemorySegment.copy(MemorySegment.ofArray(stored), 0, nat, 0, stored.length);
            assertArrayEquals(value, reader.decompress(nat), "native MemorySegment");
        }
    }

    /** Writes {@code event:*} values through {@code pd} until they go on its dictionary; @return one such value */
    static byte[][] eventOnItsDictionary(PatternDictionaries pd) throws Exception {
        Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
        writeUntilOnDictionaries(compressor(pd), List.of("event"), written);
        return withDictionary(written.get("event"));
    }

    @Test
    void aReaderThatHasNotOpenedThePatternFailsNamingTheDictionaryUntilItDoes() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        byte[][] v;
        try (PatternDictionaries pd = inMemory(stores).build()) {
            v = eventOnItsDictionary(pd);
        }
        long id = frameId(v[1]);
        // another process over the same stores, which has not written the pattern
        try (PatternDictionaries other = inMemory(stores).build()) {
            AdaptiveCompressor ac = compressor(other);
            for (Runnable read : List.<Runnable>of(() -> ac.reader().decompress(v[1]),
                    () -> ac.reader().decompress(ByteBuffer.wrap(v[1])),
                    () -> ac.reader().decompress(MemorySegment.ofArray(v[1])), () -> ac.decompress(v[1]))) {
                MissingDictionaryException x = assertThrows(MissingDictionaryException.class, read::run);
                assertEquals(id, x.dictionaryId());
                assertTrue(x.getMessage().contains("dictionary " + id) && x.getMessage().contains("no dictionary"
                        + " lineage of this process has loaded it"), x.getMessage());
            }
            assertNull(other.manager("event:*"), "a read does not open a pattern");
            // writing the pattern opens its lineage, which loads what the store holds: then the reader reads
            writeUntil(ac, List.of("event"), new ConcurrentHashMap<>(), "event's lineage open here",
                    () -> other.manager("event:*") != null && other.manager("event:*").isLoaded(id));
            assertReadsInEveryForm(ac.reader(), v[0], v[1]);
        }
    }

    /**
     * A read of a per-pattern dictionary value allocates what the fixed mode's read of it does: the id's lineage is
     * found without boxing the id (a boxed look-up measured 312 bytes against 288).
     */
    @Test
    void aDictionaryReadAllocatesAsTheFixedModeDoes() throws Exception {
        try (PatternDictionaries pd = inMemory(new ConcurrentHashMap<>()).build()) {
            byte[][] v = eventOnItsDictionary(pd);
            ValueCompressor reader = compressor(pd).reader();
            assertArrayEquals(v[0], reader.decompress(v[1]));
            // side by side: the same value read by a compressor over the pattern's own manager (the fixed mode)
            ValueCompressor fixed = ValueCompressor.create(CompressionConfig.defaults(), pd.manager("event:*"));
            assertArrayEquals(v[0], fixed.decompress(v[1]));
            long perFixed = 0;
            long per = 0;
            for (int round = 0; round < 3; round++) {
                perFixed = dev.zstdjava.testkit.Allocations.bytesPerCall(20_000, () -> fixed.decompress(v[1]).length);
                per = dev.zstdjava.testkit.Allocations.bytesPerCall(20_000, () -> reader.decompress(v[1]).length);
            }
            assertTrue(per < perFixed + 16, "bytes per read of a " + v[0].length + "-byte value with a dictionary: "
                    + per + " through the adaptive reader, " + perFixed + " with the pattern's manager");
        }
    }

    /**
     * The race a lineage's release leaves: a look-up that gave a dictionary just before its manager closed. A coder
     * that holds a decompressor over that dictionary does not decode with it (nor makes a new one): the read fails
     * as the lookup says; a new entry of the same id (the lineage reopened) then reads.
     */
    @Test
    void aReleasedDictionaryIsNeverDecodedWithEvenWhenACoderHoldsIt() {
        byte[] value = DictionaryManagerTest.VALUES.get(3);
        long id = DictionaryManagerTest.id(DictionaryManagerTest.DICT_A);
        DictionaryManager first = DictionaryManager.given(DictionaryManagerTest.DICT_A).build();
        AtomicReference<DictionaryManager> open = new AtomicReference<>(first);
        DictionaryLookup lookup = new DictionaryLookup() {
            @Override
            public DictionaryManager.Entry find(long dictId) {
                return open.get().find(dictId);
            }

            @Override
            public MissingDictionaryException missing(long dictId) {
                return new MissingDictionaryException(dictId, "not found");
            }

            @Override
            public RuntimeException released(long dictId, IllegalStateException closed) {
                return new MissingDictionaryException(dictId, "released under the read");
            }
        };
        ValueCompressor reader = ValueCompressor.reading(CompressionConfig.defaults(), lookup);
        byte[] stored = ValueCompressor.create(CompressionConfig.defaults(), first).compress(value);
        assertEquals(id, frameId(stored));
        assertArrayEquals(value, reader.decompress(stored));
        first.close();
        MissingDictionaryException x = assertThrows(MissingDictionaryException.class, () -> reader.decompress(stored));
        assertTrue(x.getMessage().contains("released under the read"), x.getMessage());
        try (DictionaryManager second = DictionaryManager.given(DictionaryManagerTest.DICT_A).build()) {
            open.set(second);
            assertArrayEquals(value, reader.decompress(stored));
            assertEquals(1, second.dictionaryStats(id).valuesRead());
        }
    }

    @Test
    void theReaderWritesAsAPlainValueCompressor() throws Exception {
        CompressionConfig config = CompressionConfig.defaults();
        ValueCompressor plain = ValueCompressor.create(config);
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        try (PatternDictionaries pd = inMemory(stores).build()) {
            AdaptiveCompressor ac = compressor(pd);
            writeUntilOnDictionaries(ac, List.of("event"), new ConcurrentHashMap<>());
            assertNotNull(pd.manager("event:*"));
            ValueCompressor reader = ac.reader();
            assertSame(reader, ac.reader());
            List<byte[]> values = new ArrayList<>(RECORDS.subList(0, 50));
            values.add(new byte[10]);
            for (byte[] v : values) {
                byte[] mine = reader.compress(v);
                assertArrayEquals(plain.compress(v), mine);
                assertTrue(mine.length <= ValueFormat.HEADER_SIZE || frameId(mine) == 0, "no dictionary");
                ByteBuffer dst = ByteBuffer.allocate(v.length);
                ByteBuffer plainDst = ByteBuffer.allocate(v.length);
                reader.compress(ByteBuffer.wrap(v), dst);
                plain.compress(ByteBuffer.wrap(v), plainDst);
                assertEquals(plainDst.flip(), dst.flip());
            }
        }
    }
}
