package dev.zstdjava.values;

import dev.zstdjava.zstd.ZstdDecompressionDictionary;
import dev.zstdjava.zstd.ZstdDictionary;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

import static dev.zstdjava.testkit.TestValues.jsonRecords;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A coder reading values of more dictionaries than it keeps decompressors for ({@link ZstdBackend#DICT_DECOMPRESSORS}),
 * in turn, as a reader of per-pattern dictionaries does: it builds one per slot and reads the others with its one
 * switching decompressor, never a new context per read; a slot goes to another dictionary only once it is cold; and
 * released dictionaries are dropped by the switching decompressor too.
 */
class DictionaryDecompressorsTest {
    static final int DICTIONARIES = 7;
    static final List<byte[]> VALUES = jsonRecords(DICTIONARIES * 40, 31);
    static final List<DictionaryManager> managers = new ArrayList<>();
    static final List<MemorySegment> frames = new ArrayList<>();
    static DictionaryLookup lookup;

    @BeforeAll
    static void dictionaries() {
        List<byte[]> train = jsonRecords(DICTIONARIES * 300, 32);
        for (int i = 0; i < DICTIONARIES; i++) {
            byte[] dict = ZstdDictionary.train(train.subList(i * 300, (i + 1) * 300), 4 << 10).toByteArray();
            DictionaryManager m = DictionaryManager.given(dict).build();
            managers.add(m);
            ids.add(DictionaryManagerTest.id(dict));
            byte[] stored = ValueCompressor.create(CompressionConfig.defaults(), m).compress(VALUES.get(i));
            frames.add(MemorySegment.ofArray(stored).asSlice(ValueFormat.HEADER_SIZE));
        }
        lookup = new DictionaryLookup() {
            @Override
            public DictionaryManager.Entry find(long dictId) {
                for (DictionaryManager m : managers) {
                    DictionaryManager.Entry e = m.find(dictId);
                    if (e != null) {
                        return e;
                    }
                }
                return null;
            }

            @Override
            public MissingDictionaryException missing(long dictId) {
                return new MissingDictionaryException(dictId, "not found");
            }
        };
    }

    @AfterAll
    static void close() {
        managers.forEach(DictionaryManager::close);
    }

    static final List<Long> ids = new ArrayList<>();

    static ZstdDecompressionDictionary digest(int i) {
        return managers.get(i).find(ids.get(i)).digests.decompression;
    }

    /** @return the references to each dictionary's tables beyond its own: the decompressors that hold it */
    static int held(int i) {
        return AdaptivePatternDictionariesTest.references(digest(i)) - 1;
    }

    @Test
    void valuesOfMoreDictionariesThanSlotsReadInTurnBuildOneDecompressorPerSlot() {
        CoderPool pool = new CoderPool(CompressionConfig.defaults(), lookup);
        try {
            Coder coder = pool.acquire();
            ZstdBackend zstd = (ZstdBackend) coder.shared(CompressionBackend.ZSTD);
            for (int round = 0; round < 30; round++) {
                for (int i = 0; i < DICTIONARIES; i++) {
                    assertArrayEquals(VALUES.get(i), zstd.decodeFrame(frames.get(i)), "dictionary " + i);
                }
            }
            assertEquals(ZstdBackend.DICT_DECOMPRESSORS, zstd.built, "one built per slot, none per read");
            int holders = 0;
            for (int i = 0; i < DICTIONARIES; i++) {
                assertTrue(held(i) <= 1, "dictionary " + i + " held once at most: " + held(i));
                holders += held(i);
            }
            assertEquals(ZstdBackend.DICT_DECOMPRESSORS + 1, holders, "the slots and the switching decompressor");
            pool.release(coder);
        } finally {
            pool.close();
        }
        for (int i = 0; i < DICTIONARIES; i++) {
            assertEquals(0, held(i), "closing the pool frees every decompressor of dictionary " + i);
        }
    }

    @Test
    void aSlotGoesToAnotherDictionaryOnlyOnceItIsCold() {
        CoderPool pool = new CoderPool(CompressionConfig.defaults(), lookup);
        try {
            Coder coder = pool.acquire();
            ZstdBackend zstd = (ZstdBackend) coder.shared(CompressionBackend.ZSTD);
            for (int i = 0; i < ZstdBackend.DICT_DECOMPRESSORS; i++) { // the first four fill the slots
                assertArrayEquals(VALUES.get(i), zstd.decodeFrame(frames.get(i)));
            }
            int other = ZstdBackend.DICT_DECOMPRESSORS;
            // then only the fifth, on the switching one, until the first slot has seen COLD_AFTER reads since its own
            // (the other three slots' first reads count)
            for (int n = 0; n < ZstdBackend.COLD_AFTER - (ZstdBackend.DICT_DECOMPRESSORS - 1); n++) {
                assertArrayEquals(VALUES.get(other), zstd.decodeFrame(frames.get(other)));
                assertEquals(ZstdBackend.DICT_DECOMPRESSORS, zstd.built, "read " + n + ": no slot is cold yet");
            }
            assertArrayEquals(VALUES.get(other), zstd.decodeFrame(frames.get(other)));
            assertEquals(ZstdBackend.DICT_DECOMPRESSORS + 1, zstd.built, "the least recently read slot, cold, goes");
            assertEquals(0, held(0), "the first dictionary's decompressor is closed");
            for (int n = 0; n < 10; n++) {
                assertArrayEquals(VALUES.get(other), zstd.decodeFrame(frames.get(other)));
            }
            assertEquals(ZstdBackend.DICT_DECOMPRESSORS + 1, zstd.built, "then it reads with its own");
            pool.release(coder);
        } finally {
            pool.close();
        }
    }

    /**
     * One more dictionary, of its own manager, with a value written with it, and a pool whose look-up finds it and the
     * class's (a look-up that gave a closed manager's entry, as a read racing its release, reports "released").
     */
    static final class Extra {
        final DictionaryManager manager;
        final byte[] value;
        final MemorySegment frame;
        final ZstdDecompressionDictionary digest;
        final CoderPool pool;
        final Coder coder;
        final ZstdBackend zstd;

        Extra(long seed) {
            byte[] dict = ZstdDictionary.train(jsonRecords(300, seed), 4 << 10).toByteArray();
            manager = DictionaryManager.given(dict).build();
            value = VALUES.get((int) (seed % VALUES.size()));
            frame = MemorySegment.ofArray(ValueCompressor.create(CompressionConfig.defaults(), manager)
                    .compress(value)).asSlice(ValueFormat.HEADER_SIZE);
            long id = DictionaryManagerTest.id(dict);
            digest = manager.find(id).digests.decompression;
            pool = new CoderPool(CompressionConfig.defaults(), new DictionaryLookup() {
                @Override
                public DictionaryManager.Entry find(long dictId) {
                    return dictId == id ? manager.find(dictId) : lookup.find(dictId);
                }

                @Override
                public MissingDictionaryException missing(long dictId) {
                    return lookup.missing(dictId);
                }

                @Override
                public RuntimeException released(long dictId, IllegalStateException closed) {
                    return new MissingDictionaryException(dictId, "released under the read");
                }
            });
            coder = pool.acquire();
            zstd = (ZstdBackend) coder.shared(CompressionBackend.ZSTD);
            for (int i = 0; i < ZstdBackend.DICT_DECOMPRESSORS; i++) { // the slots go to four of the class's
                assertArrayEquals(VALUES.get(i), zstd.decodeFrame(frames.get(i)));
            }
            assertArrayEquals(value, zstd.decodeFrame(frame));
            assertEquals(ZstdBackend.DICT_DECOMPRESSORS, zstd.built, "read by the switching decompressor");
        }
    }

    /**
     * As {@code AdaptiveDictionaryReaderTest.aReleasedDictionaryIsNeverDecodedWithEvenWhenACoderHoldsIt}, for the
     * switching decompressor: a look-up that gave a dictionary just before its manager closed does not decode with it,
     * though the switching decompressor still references its tables.
     */
    @Test
    void theSwitchingDecompressorNeverDecodesWithAReleasedDictionary() {
        Extra extra = new Extra(34);
        try {
            extra.manager.close(); // the coder is lent: nothing frees its decompressors now
            MissingDictionaryException x = assertThrows(MissingDictionaryException.class,
                    () -> extra.zstd.decodeFrame(extra.frame));
            assertTrue(x.getMessage().contains("released under the read"), x.getMessage());
            assertArrayEquals(VALUES.get(6), extra.zstd.decodeFrame(frames.get(6)), "the next dictionary reads");
            extra.pool.release(extra.coder);
        } finally {
            extra.pool.close();
        }
    }

    @Test
    void theSwitchingDecompressorDropsAReleasedDictionary() {
        Extra extra = new Extra(33);
        try {
            assertEquals(2, AdaptivePatternDictionariesTest.references(extra.digest), "its own and the switching one's");
            extra.pool.release(extra.coder);
            extra.manager.close();
            extra.pool.freeReleasedDictionaries();
            assertEquals(0, AdaptivePatternDictionariesTest.references(extra.digest), "freed: no decompressor holds it");
            Coder again = extra.pool.acquire();
            assertTrue(again == extra.coder, "the pool lends the same coder again");
            assertArrayEquals(VALUES.get(5), extra.zstd.decodeFrame(frames.get(5)), "and it switches on");
            assertEquals(ZstdBackend.DICT_DECOMPRESSORS, extra.zstd.built, "on the switching decompressor");
            extra.pool.release(again);
        } finally {
            extra.pool.close();
        }
    }
}
