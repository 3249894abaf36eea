package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.zstdjava.values.AdaptivePatternChurnTest.name;
import static dev.zstdjava.values.AdaptivePatternChurnTest.utf8;
import static dev.zstdjava.values.AdaptivePatternChurnTest.withId;
import static dev.zstdjava.values.DictionaryManagerTest.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link PatternDictionaries} keeps, and what it follows, while lineages are dropped under churn: an id a dropped
 * lineage held that an open one holds too stays readable; the openings waiting for its thread are bounded; a claim
 * is followed only to a name a pattern's lineage has.
 */
class AdaptiveLineageBoundsTest {
    static final long SHARED_ID = 0x2345_0001L;

    /** @return a claim as the {@link PatternDictionaries#ID_CLAIMS} store holds it: content hash, then the name */
    static byte[] claim(byte[] dictionary, String lineage) {
        byte[] name = lineage.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(8 + name.length).putLong(DictionaryOwners.contentHash(dictionary)).put(name).array();
    }

    /**
     * @return stores by lineage name in memory: each of {@code lineages} holds {@code dictionary} under {@code id},
     *         which the claims' store says {@code claimedBy} claimed (as another process's lineage would have)
     */
    static Map<String, InMemoryDictionaryStore> holding(long id, byte[] dictionary, List<String> lineages,
                                                        String claimedBy) {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        for (String n : lineages) {
            stores.computeIfAbsent(n, x -> new InMemoryDictionaryStore()).putIfAbsent(id, dictionary);
        }
        stores.computeIfAbsent(PatternDictionaries.ID_CLAIMS, x -> new InMemoryDictionaryStore())
                .putIfAbsent(id, claim(dictionary, claimedBy));
        return stores;
    }

    /** Opens {@code pattern}'s lineage as a pattern's sampled write does, and waits until it is open. */
    static void open(PatternDictionaries pd, String pattern) throws InterruptedException {
        pd.lineage(pattern, CompressionConfig.defaults()).acquire();
        await(pattern + "'s lineage open", () -> pd.manager(pattern) != null);
    }

    /**
     * Two lineages hold one dictionary, the same bytes under one id (two stores given the same dictionary): the reader
     * knows the id by the one that loaded it first, p. Once p is dropped, the id is still loaded in q, open, which its
     * claim names: a read of it must find it there, not keep failing.
     */
    @Test
    void anIdADroppedLineageHeldIsReadFromTheOpenLineageItsClaimNames() throws Exception {
        byte[] shared = withId(DictionaryManagerTest.DICT_A, SHARED_ID);
        // claimed by q's lineage (another process loaded q first)
        Map<String, InMemoryDictionaryStore> stores = holding(SHARED_ID, shared, List.of("p:*", "q:*"), "q:*");
        try (PatternDictionaries pd = AdaptivePatternDictionariesTest.inMemory(stores).maxOpenLineages(2).build()) {
            AdaptiveCompressor ac = AdaptivePatternDictionariesTest.compressor(pd);
            open(pd, "p:*");
            await("p holding the dictionary", () -> pd.manager("p:*").isLoaded(SHARED_ID));
            open(pd, "q:*");
            DictionaryManager q = pd.manager("q:*");
            await("q holding the dictionary", () -> q.isLoaded(SHARED_ID));
            byte[] value = DictionaryManagerTest.VALUES.get(3);
            byte[] stored = ValueCompressor.create(CompressionConfig.defaults(), q).compress(value);
            assertEquals(SHARED_ID, AdaptiveDictionaryReaderTest.frameId(stored));
            AdaptivePatternDictionariesTest.readAll(ac, List.<byte[][]>of(new byte[][]{value, stored}));
            // three more lineages, q used before each: p, a and b released, p (least recently used) dropped
            for (String n : List.of("a:*", "b:*", "c:*")) {
                pd.lineage("q:*", CompressionConfig.defaults()).acquire();
                Thread.sleep(2);
                open(pd, n);
            }
            await("p dropped", () -> pd.lineagesKept() == 4);
            assertTrue(pd.openPatterns().contains("q:*"), pd.openPatterns().toString());
            assertTrue(q.isLoaded(SHARED_ID));
            AdaptivePatternDictionariesTest.readAll(ac, List.<byte[][]>of(new byte[][]{value, stored}),
                    Duration.ofSeconds(5));
        }
    }

    /**
     * New patterns arriving while the lineages' thread is busy (here: held in the store function): the lineages
     * waiting to be opened are at most {@code maxOpenLineages}, the patterns beyond them writing without a dictionary
     * (made and opened at a later sampled write); once the thread goes on, a new pattern opens its lineage.
     */
    @Test
    void theOpeningsWaitingForTheThreadAreBounded() throws Exception {
        final int bound = 4;
        CountDownLatch held = new CountDownLatch(1);
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        try (PatternDictionaries pd = PatternDictionaries.builder(n -> {
            if (n.equals(PatternDictionaries.ID_CLAIMS)) {
                try {
                    held.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            return stores.computeIfAbsent(n, x -> new InMemoryDictionaryStore());
        }).manager(AdaptivePatternDictionariesTest::quick).maxOpenLineages(bound).build()) {
            AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.defaults()).capacity(bound)
                    .idleWindow(Duration.ofNanos(1)).sampling(64, 2, 4).window(8, 1).hysteresis(1, 0.01, 0.2)
                    .dictionaries(pd).build();
            for (int i = 0; i < 200; i++) {
                for (int k = 0; k < 4; k++) {
                    byte[] value = DictionaryManagerTest.VALUES.get((i + k) % 500);
                    byte[] stored = ac.compress(utf8(name(i) + ":" + k), value);
                    assertEquals(value.length, ac.decompress(stored).length);
                }
            }
            int kept = pd.lineagesKept();
            held.countDown();
            assertTrue(kept <= bound, kept + " lineages kept (waiting to open) after 200 patterns while the"
                    + " lineages' thread was busy, at most " + bound + " allowed");
            // the thread goes on: what waited opens, and a pattern written now gets its lineage
            String late = name(500);
            int[] k = {0};
            await(late + ":*'s lineage open", () -> {
                ac.compress(utf8(late + ":" + k[0]++), DictionaryManagerTest.VALUES.get(k[0] % 500));
                return pd.manager(late + ":*") != null;
            });
            await("at most " + 2 * bound + " lineages kept", () -> pd.lineagesKept() <= 2 * bound);
        }
    }

    /**
     * A claim whose name is not one {@link PatternDictionaries#lineageName} gives any pattern (here {@code a%41},
     * pattern {@code aA}'s name spelt another way) is not followed: the store function is never asked for it, and the
     * read says why.
     */
    @Test
    void aClaimNamingNoPatternsLineageNameIsNotFollowed() throws Exception {
        long id = 0x2345_0002L;
        byte[] dictionary = withId(DictionaryManagerTest.DICT_A, id);
        Map<String, InMemoryDictionaryStore> stores = holding(id, dictionary, List.of("a%41", "aA"), "a%41");
        Set<String> asked = ConcurrentHashMap.newKeySet();
        byte[] stored;
        try (DictionaryManager writer = DictionaryManager.given(dictionary).build()) {
            stored = ValueCompressor.create(CompressionConfig.defaults(), writer)
                    .compress(DictionaryManagerTest.VALUES.get(5));
        }
        assertEquals(id, AdaptiveDictionaryReaderTest.frameId(stored));
        try (PatternDictionaries pd = PatternDictionaries.builder(n -> {
            asked.add(n);
            return stores.computeIfAbsent(n, x -> new InMemoryDictionaryStore());
        }).manager(AdaptivePatternDictionariesTest::quick).build()) {
            AdaptiveCompressor ac = AdaptivePatternDictionariesTest.compressor(pd);
            String said = null;
            long until = System.nanoTime() + Duration.ofSeconds(20).toNanos(); // the claim's look-up decides
            while (System.nanoTime() < until && (said == null || !said.contains("no lineage's name"))) {
                String m = assertThrows(MissingDictionaryException.class, () -> ac.decompress(stored)).getMessage();
                said = said != null && said.contains("no lineage's name") ? said : m;
                Thread.sleep(20);
            }
            assertNotNull(said);
            assertFalse(asked.contains("a%41"), "the store function was asked for " + asked);
            assertTrue(said.contains("a%41, which is no lineage's name"), said);
            assertTrue(pd.openPatterns().isEmpty(), pd.openPatterns().toString());
        }
    }

    @Test
    void onlyTheNamesLineageNameGivesAreLineageNames() {
        for (String pattern : List.of("user:*", "a b/é:*", "aA", "x".repeat(200), "é".repeat(60), "%41")) {
            String name = PatternDictionaries.lineageName(pattern);
            assertTrue(PatternDictionaries.isLineageName(name), name);
        }
        for (String name : List.of("a%41", "%zz", "%3a", "%", "a%4", "%C3", PatternDictionaries.ID_CLAIMS, "",
                "x".repeat(79) + "~" + "0123456789ABCDEF", "x".repeat(79) + "~" + "0123456789abcde~")) {
            assertFalse(PatternDictionaries.isLineageName(name), name);
        }
    }
}
