package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Function;

import static dev.zstdjava.values.AdaptiveDictionaryReaderTest.assertReadsInEveryForm;
import static dev.zstdjava.values.AdaptiveDictionaryReaderTest.eventOnItsDictionary;
import static dev.zstdjava.values.AdaptiveDictionaryReaderTest.frameId;
import static dev.zstdjava.values.AdaptiveDictionaryReaderTest.noRefresh;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.compressor;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.dictionaryValues;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.inMemory;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.readAll;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.utf8;
import static dev.zstdjava.values.AdaptivePatternDictionariesTest.writeUntil;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link PatternDictionaries} under a compressor whose goal never writes with a dictionary ({@code SPEED}: lz4 or
 * plain): its lineages are read-only. They sample, train, take a lease and publish nothing, hold no dictionary that
 * compresses, and still load what other writers published, so the reader reads those values (loaded when the lineage
 * opens, or fetched on a read's miss). A {@code PatternDictionaries} serves compressors of one kind only.
 */
class AdaptiveReadOnlyLineagesTest {
    /** As {@link AdaptivePatternDictionariesTest#compressor}, with the goal {@code SPEED}. */
    static AdaptiveCompressor speed(PatternDictionaries dictionaries) {
        return AdaptiveCompressor.builder(CompressionConfig.defaults()).goal(CompressionGoal.speed())
                .sampling(64, 2, 4).window(8, 4).hysteresis(1, 0.01, 0.2).dictionaries(dictionaries).build();
    }

    /** Stores from {@code stores}, each write to them (a publication, a claim, a lease) noted in {@code writes}. */
    static Function<String, DictionaryStore> recording(Map<String, InMemoryDictionaryStore> stores,
                                                       List<String> writes) {
        return n -> new AdaptivePatternDictionariesTest.Forwarding(
                stores.computeIfAbsent(n, x -> new InMemoryDictionaryStore())) {
            @Override
            public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
                writes.add(n + ": put " + id);
                return inner.putIfAbsent(id, dictionary);
            }

            @Override
            public boolean tryLease(String owner, Duration ttl) {
                writes.add(n + ": lease");
                return inner.tryLease(owner, ttl);
            }
        };
    }

    /** Asserts that {@code pattern}'s lineage is open, read-only: nothing sampled or trained, none compressing. */
    static void assertReadOnly(PatternDictionaries pd, String pattern) {
        DictionaryManager m = pd.manager(pattern);
        assertNotNull(m, pattern + "'s lineage open, for reading");
        TrainingStats t = m.trainingStats();
        assertEquals(0, t.samples(), "values sampled into the lineage's training reservoir: " + t);
        assertEquals(0, t.trained() + t.failed(), "trainings: " + t);
        assertEquals(0, m.currentId(), "a read-only lineage holds no dictionary that compresses (nor its digest)");
    }

    /** Asserts that {@code ac} has written nothing with a dictionary, nor claims it does. */
    static void assertNoDictionaryOption(AdaptiveCompressor ac, Map<String, List<byte[][]>> written) {
        for (PatternDecision d : ac.snapshot()) {
            assertTrue(d.option() == CompressionOption.LZ4 || d.option() == CompressionOption.PLAIN, d.toString());
        }
        assertEquals(0, ac.writes(CompressionOption.ZSTD_3_DICTIONARY).values());
        for (List<byte[][]> vs : written.values()) {
            assertEquals(0, dictionaryValues(vs), "values written with a dictionary");
        }
    }

    @Test
    void aSpeedCompressorsLineagesSampleTrainAndPublishNothing() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        List<String> writes = new CopyOnWriteArrayList<>();
        try (PatternDictionaries pd = PatternDictionaries.builder(recording(stores, writes))
                .manager(AdaptivePatternDictionariesTest::quick).build()) {
            AdaptiveCompressor ac = speed(pd);
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            writeUntil(ac, List.of("event"), written, "event's lineage open", () -> pd.manager("event:*") != null);
            // a writing compressor's lineage trains on 50 samples (quick): this is some 200 times as many sampled
            // writes, well compressible JSON records
            for (int i = 0; i < 20_000; i++) {
                byte[] v = AdaptivePatternDictionariesTest.RECORDS.get(i % AdaptivePatternDictionariesTest.RECORDS.size());
                written.get("event").add(new byte[][]{v, ac.compress(utf8("event:" + i), v)});
            }
            Thread.sleep(500); // a training the writes started would be done
            assertEquals(List.of(), writes, "writes to the stores: a lease, a dictionary or a claim");
            assertEquals(List.of(), stores.get("event:*").list(), "dictionaries published");
            assertReadOnly(pd, "event:*");
            assertNoDictionaryOption(ac, written);
            readAll(ac, written.get("event"));
        }
    }

    /**
     * Another compressor (BALANCED) trains and writes with {@code event:*}'s dictionary over the same stores: a SPEED
     * compressor whose lineage was open before the dictionary was published reads the value (its read misses once,
     * the id's claim leads to the lineage, which fetches it), and so does one whose lineage opens after (it loads it),
     * in every form; neither writes with it or holds it to compress.
     */
    @Test
    void aSpeedCompressorReadsValuesAnotherCompressorWroteWithAPatternsDictionary() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        List<String> writes = new CopyOnWriteArrayList<>();
        try (PatternDictionaries here = PatternDictionaries.builder(recording(stores, writes))
                .manager(b -> AdaptivePatternDictionariesTest.quick(b).refreshInterval(Duration.ofHours(1))).build()) {
            AdaptiveCompressor ac = speed(here);
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            writeUntil(ac, List.of("event"), written, "event open here", () -> here.manager("event:*") != null);
            byte[][] v;
            try (PatternDictionaries there = inMemory(stores).build()) {
                v = eventOnItsDictionary(there); // a BALANCED compressor's value, written with event's dictionary
            }
            assertEquals(List.of(), writes.stream().filter(w -> !w.startsWith(PatternDictionaries.ID_CLAIMS)).toList(),
                    "a lease or a dictionary written by the SPEED compressor's lineage");
            long id = frameId(v[1]);
            MissingDictionaryException x = assertThrows(MissingDictionaryException.class, () -> ac.decompress(v[1]));
            assertEquals(id, x.dictionaryId());
            readAll(ac, List.<byte[][]>of(v), Duration.ofSeconds(5));
            assertReadsInEveryForm(ac.reader(), v[0], v[1]);
            assertTrue(here.manager("event:*").isLoaded(id));
            writeUntil(ac, List.of("event"), written, "more writes of event", () -> written.get("event").size() > 2000);
            assertReadOnly(here, "event:*");
            assertNoDictionaryOption(ac, written);
            assertEquals(List.of(), writes.stream().filter(w -> !w.startsWith(PatternDictionaries.ID_CLAIMS)).toList(),
                    "a lease or a dictionary written by the SPEED compressor's lineage");

            // another SPEED process, whose lineage opens after the dictionary was published, loads it when it opens
            try (PatternDictionaries later = noRefresh(stores).build()) {
                AdaptiveCompressor speed = speed(later);
                Map<String, List<byte[][]>> laterWritten = new ConcurrentHashMap<>();
                writeUntil(speed, List.of("event"), laterWritten, "event open later",
                        () -> later.manager("event:*") != null);
                assertReadsInEveryForm(speed.reader(), v[0], v[1]);
                assertReadOnly(later, "event:*");
                assertNoDictionaryOption(speed, laterWritten);
            }
        }
    }

    /**
     * Whether a {@code PatternDictionaries}' lineages train follows the goal of the compressors it serves, which is
     * fixed when each is built: compressors of both kinds cannot share one (each gets its own, over the same stores),
     * compressors of one kind can.
     */
    @Test
    void compressorsThatWriteWithDictionariesAndSpeedCompressorsDoNotShareLineages() throws Exception {
        try (PatternDictionaries writing = inMemory(new ConcurrentHashMap<>()).build();
             PatternDictionaries reading = inMemory(new ConcurrentHashMap<>()).build()) {
            AdaptiveCompressor balanced = compressor(writing);
            compressor(writing); // a second one of the same kind
            AdaptiveCompressor.Builder memory = AdaptiveCompressor.builder(CompressionConfig.defaults())
                    .goal(CompressionGoal.memory(20)).dictionaries(writing);
            assertSame(CompressionGoal.Kind.MEMORY, memory.build().goal().kind());
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class, () -> speed(writing));
            assertEquals("dictionaries: this PatternDictionaries serves a compressor of goal BALANCED, whose lineages"
                    + " train and publish; one of goal SPEED never writes with a dictionary and opens its lineages"
                    + " read-only: give it a PatternDictionaries of its own (over the same stores, it reads what the"
                    + " others publish)", x.getMessage());

            speed(reading);
            speed(reading);
            x = assertThrows(IllegalArgumentException.class, () -> compressor(reading));
            assertEquals("dictionaries: this PatternDictionaries serves a compressor of goal SPEED, whose lineages are"
                    + " read-only; one of goal BALANCED writes with the dictionaries its lineages train: give it a"
                    + " PatternDictionaries of its own (over the same stores)", x.getMessage());
            assertEquals(CompressionGoal.Kind.BALANCED, balanced.goal().kind());
        }
    }

    /**
     * Only a compressor built decides the kind: one whose build fails (here on its listed patterns) serves nothing, so
     * a compressor of the other kind built next with the same {@code PatternDictionaries} is not refused.
     */
    @Test
    void aCompressorWhoseBuildFailsDoesNotDecideTheKind() throws Exception {
        try (PatternDictionaries pd = inMemory(new ConcurrentHashMap<>()).build()) {
            AdaptiveCompressor.Builder speed = AdaptiveCompressor.builder(CompressionConfig.defaults())
                    .goal(CompressionGoal.speed()).patterns(List.of("user:1", "user:2")).dictionaries(pd);
            IllegalArgumentException x = assertThrows(IllegalArgumentException.class, speed::build);
            assertEquals("listed patterns user:1 and user:2 fold alike, to user:*", x.getMessage());
            AdaptiveCompressor balanced = compressor(pd); // the failed SPEED build decided nothing
            assertEquals(CompressionGoal.Kind.BALANCED, balanced.goal().kind());
            assertThrows(IllegalArgumentException.class, () -> speed(pd), "the BALANCED one decided");
        }
    }
}
