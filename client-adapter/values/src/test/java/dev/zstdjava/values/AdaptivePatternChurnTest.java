package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Churn of real patterns (patterns evicted from the pattern table, new ones arriving) through an adaptive compressor
 * with {@link PatternDictionaries}: what it keeps stays bounded, every value written with an evicted pattern's
 * dictionary reads back as written, and a pattern that comes back writes with its lineage again.
 */
class AdaptivePatternChurnTest {
    static final int PATTERNS = 1000;
    static final int BOUND = 4;
    /** every this many patterns, one has a dictionary in its store and values written with it */
    static final int WITH_DICTIONARY_EVERY = 50;
    static final long FIRST_ID = 0x1234_0000L;

    /** @return a pattern name of letters g to z only (no digit, no hex run), so its keys fold to {@code name:*} */
    static String name(int i) {
        StringBuilder sb = new StringBuilder("k");
        do {
            sb.append((char) ('g' + i % 20));
            i /= 20;
        } while (i > 0);
        return sb.toString();
    }

    /** @return {@code dictionary} (a zstd dictionary) under another id: its header's id field rewritten */
    static byte[] withId(byte[] dictionary, long id) {
        byte[] d = dictionary.clone();
        for (int b = 0; b < 4; b++) {
            d[4 + b] = (byte) (id >>> (8 * b));
        }
        return d;
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void churnThroughPatternsKeepsLineagesBoundedAndEveryValueReadable() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        Map<String, Long> dictionaryOf = new ConcurrentHashMap<>(); // lineage name -> the id in its store
        for (int i = 0; i < PATTERNS; i += WITH_DICTIONARY_EVERY) {
            dictionaryOf.put(PatternDictionaries.lineageName(name(i) + ":*"), FIRST_ID + i);
        }
        List<byte[][]> written = new ArrayList<>(); // value, stored
        try (PatternDictionaries pd = PatternDictionaries.builder(n -> stores.computeIfAbsent(n, x -> {
                    InMemoryDictionaryStore s = new InMemoryDictionaryStore();
                    Long id = dictionaryOf.get(x);
                    if (id != null) {
                        s.putIfAbsent(id, withId(DictionaryManagerTest.DICT_A, id));
                    }
                    return s;
                })).manager(AdaptivePatternDictionariesTest::quick).maxOpenLineages(BOUND).build()) {
            AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.defaults()).capacity(BOUND)
                    .idleWindow(Duration.ofNanos(1)).sampling(64, 2, 4).window(8, 1).hysteresis(1, 0.01, 0.2)
                    .dictionaries(pd).build();
            for (int i = 0; i < PATTERNS; i++) {
                String pattern = name(i) + ":*";
                int k = 0;
                for (; k < 4; k++) {
                    ac.compress(utf8(name(i) + ":" + k), DictionaryManagerTest.VALUES.get((i + k) % 500));
                }
                if (i % WITH_DICTIONARY_EVERY != 0) {
                    continue;
                }
                long id = FIRST_ID + i;
                DictionaryManager m = awaitHolding(ac, pd, name(i), id, k);
                ValueCompressor withIt = ValueCompressor.create(CompressionConfig.defaults(), m);
                for (int v = 0; v < 3; v++) {
                    byte[] value = DictionaryManagerTest.VALUES.get((i + v) % 500);
                    byte[] stored = withIt.compress(value);
                    assertEquals(id, AdaptiveDictionaryReaderTest.frameId(stored), pattern);
                    written.add(new byte[][]{value, stored});
                }
            }
            // bounded: at most BOUND lineages open and BOUND more kept, the ids of those only, once the lineages'
            // thread has done the openings the writes asked for
            long settle = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            while (pd.lineagesKept() > 2 * BOUND && System.nanoTime() < settle) {
                Thread.sleep(10);
            }
            assertTrue(pd.lineagesKept() <= 2 * BOUND, pd.lineagesKept() + " lineages kept after " + PATTERNS
                    + " patterns, at most " + 2 * BOUND + " allowed");
            assertTrue(pd.idsKnown() <= 2 * BOUND, pd.idsKnown() + " dictionary ids kept after " + PATTERNS
                    + " patterns, at most " + 2 * BOUND + " allowed");
            assertTrue(pd.openPatterns().size() <= BOUND, pd.openPatterns().toString());
            assertTrue(ac.patternsTracked() <= BOUND, ac.patternsTracked() + " patterns tracked");
            assertTrue(ac.snapshot().size() <= BOUND + 1, ac.snapshot().size() + " rows");
            // nothing lost: every value written before its pattern was evicted reads back as written
            assertEquals(3 * PATTERNS / WITH_DICTIONARY_EVERY, written.size());
            AdaptivePatternDictionariesTest.readAll(ac, written);
            // a pattern that comes back writes with its lineage (and its dictionary) again
            DictionaryManager back = awaitHolding(ac, pd, name(WITH_DICTIONARY_EVERY), FIRST_ID + WITH_DICTIONARY_EVERY,
                    1000);
            byte[] value = DictionaryManagerTest.VALUES.get(11);
            byte[] stored = ValueCompressor.create(CompressionConfig.defaults(), back).compress(value);
            assertEquals(FIRST_ID + WITH_DICTIONARY_EVERY, AdaptiveDictionaryReaderTest.frameId(stored));
            assertArrayEquals(value, ac.decompress(stored));
        }
    }

    /**
     * Writes values of pattern {@code name:*} (keys numbered from {@code k}) until its lineage is open and holds
     * dictionary {@code id}.
     *
     * @return the lineage's manager
     */
    static DictionaryManager awaitHolding(AdaptiveCompressor ac, PatternDictionaries pd, String name, long id, int k)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (true) {
            DictionaryManager m = pd.manager(name + ":*");
            if (m != null && m.isLoaded(id) && m.currentId() == id) {
                assertNotNull(m);
                return m;
            }
            if (System.nanoTime() > deadline) {
                fail(name + ":*'s lineage never held dictionary " + id + " (manager " + m + ")");
            }
            ac.compress(utf8(name + ":" + k++), DictionaryManagerTest.VALUES.get(k % 500));
            Thread.sleep(2);
        }
    }
}
