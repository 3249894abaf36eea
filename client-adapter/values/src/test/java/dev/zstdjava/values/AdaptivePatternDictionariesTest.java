package dev.zstdjava.values;

import dev.zstdjava.testkit.TestValues;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BooleanSupplier;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@link PatternDictionaries} with {@link AdaptiveCompressor}: a lineage per pattern (its own store, dictionaries and
 * training lease), the bound on the dictionaries' native memory with every value still read back, and patterns whose
 * dictionary cannot be had staying on their best option without one. Stores are in memory, one per lineage, as the
 * application's function gives them.
 */
class AdaptivePatternDictionariesTest {
    static final List<byte[]> RECORDS = TestValues.jsonRecords(2000, 5);

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Small dictionaries, trained after few samples, so that a test trains in well under a second. */
    static DictionaryManager.Builder quick(DictionaryManager.Builder b) {
        return b.minSamples(50).sampling(400, 4096, 1 << 20, 64L << 20).dictionarySize(4096)
                .loadTimeout(Duration.ofMillis(500)).refreshInterval(Duration.ofMillis(200)).notifications(false);
    }

    static AdaptiveCompressor compressor(PatternDictionaries dictionaries) {
        return AdaptiveCompressor.builder(CompressionConfig.defaults()).sampling(64, 2, 4).window(8, 4)
                .hysteresis(1, 0.01, 0.2).dictionaries(dictionaries).build();
    }

    /** Lineages over in-memory stores (one per lineage name, kept in {@code stores}), trained quickly. */
    static PatternDictionaries.Builder inMemory(Map<String, InMemoryDictionaryStore> stores) {
        return PatternDictionaries.builder(n -> stores.computeIfAbsent(n, x -> new InMemoryDictionaryStore()))
                .manager(AdaptivePatternDictionariesTest::quick);
    }

    /** Writes values of each pattern until every one of them writes with its own dictionary. */
    static void writeUntilOnDictionaries(AdaptiveCompressor ac, List<String> names,
                                         Map<String, List<byte[][]>> written) throws InterruptedException {
        writeUntil(ac, names, written, names + " writing with their own dictionary", () -> names.stream()
                .allMatch(n -> ac.state(utf8(n + ":1")).current() == CompressionOption.ZSTD_3_DICTIONARY));
    }

    /** Writes values of each pattern (keys {@code <name>:<i>}) until {@code done}, keeping what was stored. */
    static void writeUntil(AdaptiveCompressor ac, List<String> names, Map<String, List<byte[][]>> written,
                                   String what, BooleanSupplier done) throws InterruptedException {
        writeUntil(ac, names, n -> utf8(n + ":"), written, what, done);
    }

    /** As above, the keys of name {@code n} being {@code prefix(n)} and a number. */
    static void writeUntil(AdaptiveCompressor ac, List<String> names, Function<String, byte[]> prefix,
                           Map<String, List<byte[][]>> written, String what, BooleanSupplier done)
            throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        int i = 0;
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting for " + what);
            }
            for (int k = 0; k < 200; k++, i++) {
                for (String n : names) {
                    byte[] v = RECORDS.get((i * 7 + n.length()) % RECORDS.size());
                    byte[] stored = ac.compress(key(prefix.apply(n), i), v);
                    written.computeIfAbsent(n, x -> new ArrayList<>()).add(new byte[][]{v, stored});
                }
            }
            Thread.sleep(5);
        }
    }

    /** @return {@code prefix} followed by {@code i} in decimal */
    static byte[] key(byte[] prefix, int i) {
        byte[] n = utf8(Integer.toString(i));
        byte[] key = java.util.Arrays.copyOf(prefix, prefix.length + n.length);
        System.arraycopy(n, 0, key, prefix.length, n.length);
        return key;
    }

    /** Writes values of each pattern until its lineage is open and has loaded dictionary {@code id}. */
    static void writeUntilHolding(AdaptiveCompressor ac, PatternDictionaries pd, List<String> names, long id)
            throws InterruptedException {
        writeUntil(ac, names, new ConcurrentHashMap<>(), names + " holding " + id, () -> names.stream()
                .allMatch(n -> pd.manager(n + ":*") != null && pd.manager(n + ":*").isLoaded(id)));
    }

    /** Reads every value back, retrying a read whose lineage is being reopened. */
    static void readAll(AdaptiveCompressor ac, List<byte[][]> values) throws InterruptedException {
        readAll(ac, values, Duration.ofSeconds(10));
    }

    /** Reads every value back, retrying a read that misses its dictionary for at most {@code within} each. */
    static void readAll(AdaptiveCompressor ac, List<byte[][]> values, Duration within) throws InterruptedException {
        for (byte[][] vs : values) {
            long deadline = System.nanoTime() + within.toNanos();
            while (true) {
                try {
                    assertArrayEquals(vs[0], ac.decompress(vs[1]));
                    break;
                } catch (MissingDictionaryException e) {
                    if (System.nanoTime() > deadline) {
                        throw e;
                    }
                    Thread.sleep(10);
                }
            }
        }
    }

    static long dictionaryValues(List<byte[][]> values) {
        return values.stream().filter(vs -> vs[1].length > ValueFormat.HEADER_SIZE && vs[1][0] == 0
                && dev.zstdjava.zstd.ZstdFrame.dictionaryId(vs[1], ValueFormat.HEADER_SIZE,
                vs[1].length - ValueFormat.HEADER_SIZE) != 0).count();
    }

    @Test
    void eachPatternHasItsOwnLineageStoreAndDictionaries() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        try (PatternDictionaries pd = inMemory(stores).build()) {
            AdaptiveCompressor ac = compressor(pd);
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            List<String> names = List.of("event", "order");
            writeUntilOnDictionaries(ac, names, written);
            assertEquals(Set.of("event:*", "order:*", PatternDictionaries.ID_CLAIMS), stores.keySet(),
                    "one store per lineage, by lineage name, and the id claims");
            long event = pd.manager("event:*").currentId();
            long order = pd.manager("order:*").currentId();
            assertNotEquals(event, order);
            assertTrue(stores.get("event:*").list().stream().anyMatch(i -> i.id() == event));
            assertTrue(stores.get("order:*").list().stream().noneMatch(i -> i.id() == event),
                    "a pattern's dictionary is published in its own lineage only");
            assertTrue(stores.get("order:*").list().stream().anyMatch(i -> i.id() == order));
            assertTrue(dictionaryValues(written.get("event")) > 0);
            for (List<byte[][]> vs : written.values()) {
                readAll(ac, vs);
            }
            // the reader every adapter reads with reads them too, in every form, and compresses with no dictionary
            ValueCompressor reader = ac.reader();
            assertNull(reader.dictionaries());
            long read = reader.stats().valuesDecompressed();
            for (List<byte[][]> vs : written.values()) {
                for (byte[][] v : vs) {
                    AdaptiveDictionaryReaderTest.assertReadsInEveryForm(reader, v[0], v[1]);
                }
            }
            assertTrue(reader.stats().valuesDecompressed() > read, "counted in the reader's counters");
            assertTrue(pd.manager("event:*").dictionaryStats(event).valuesRead() > 0, "and the dictionary's");
            assertTrue(pd.nativeBytes() > 0 && pd.nativeBytes() <= pd.maxNativeBytes());
        }
    }

    /**
     * Two patterns that differ only in a byte that is not UTF-8 ({@code a:\xFF:*} and {@code a:\xFE:*}, the fold
     * keeping such bytes) have a lineage each, by names of their own: their own store, training and dictionaries,
     * not one lineage written and trained by both.
     */
    @Test
    void patternsThatDifferOnlyInInvalidUtf8BytesHaveALineageEach() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        try (PatternDictionaries pd = inMemory(stores).build()) {
            AdaptiveCompressor ac = compressor(pd);
            List<String> bytes = List.of("FF", "FE");
            Function<String, byte[]> prefix = b -> new byte[] {'a', ':', (byte) Integer.parseInt(b, 16), ':'};
            writeUntil(ac, bytes, prefix, new ConcurrentHashMap<>(), "both writing with a dictionary",
                    () -> bytes.stream().allMatch(b -> ac.state(key(prefix.apply(b), 1)).current()
                            == CompressionOption.ZSTD_3_DICTIONARY));
            assertEquals(Set.of(PatternDictionaries.lineageName("a:\\xFF:*"),
                    PatternDictionaries.lineageName("a:\\xFE:*"), PatternDictionaries.ID_CLAIMS), stores.keySet(),
                    "one store per pattern's lineage, and the id claims");
            assertNotEquals(pd.manager("a:\\xFF:*").currentId(), pd.manager("a:\\xFE:*").currentId());
            assertEquals(Set.of("a:\\xFF:*", "a:\\xFE:*"), Set.copyOf(pd.openPatterns()));
        }
    }

    @Test
    void aLineageTrainsForTheLevelItWritesAtWhateverTheSettingsSay() throws Exception {
        // Spring Boot hands every lineage the fixed mode's settings, its level among them (zstd 19 here): a lineage
        // trained, checked and digested its dictionaries at that level, and digested them again for zstd 3 to write
        try (PatternDictionaries pd = inMemory(new ConcurrentHashMap<>()).manager(b -> quick(b).level(19)).build()) {
            AdaptiveCompressor ac = compressor(pd);
            writeUntilOnDictionaries(ac, List.of("event"), new ConcurrentHashMap<>());
            assertEquals(CompressionOption.ZSTD_3_DICTIONARY.level(), pd.manager("event:*").level());
        }
    }

    /** One lineage's estimate with the 4 KiB dictionary it writes with, and 4 KiB to spare; two do not fit. */
    static final long ONE_LINEAGE_FITS = PatternDictionaries.estimatedNativeBytes(4096, true) + 4096;

    /** Lineages in memory within {@link #ONE_LINEAGE_FITS}, neither retraining nor reopened for writing. */
    static PatternDictionaries oneLineageFits() {
        return inMemory(new ConcurrentHashMap<>()).manager(b -> quick(b).retrainInterval(Duration.ofHours(1)))
                .maxNativeBytes(ONE_LINEAGE_FITS).reopenDelay(Duration.ofHours(1)).build();
    }

    /**
     * Pattern a writing with its own dictionary under {@link #oneLineageFits()}: the lineages, the compressor and the
     * values written (by pattern name). Closing it closes the lineages.
     */
    record AOnItsDictionary(PatternDictionaries pd, AdaptiveCompressor ac, Map<String, List<byte[][]>> written)
            implements AutoCloseable {
        static AOnItsDictionary start() throws InterruptedException {
            PatternDictionaries pd = oneLineageFits();
            try {
                AdaptiveCompressor ac = compressor(pd);
                Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
                writeUntilOnDictionaries(ac, List.of("a"), written);
                return new AOnItsDictionary(pd, ac, written);
            } catch (RuntimeException | Error | InterruptedException e) {
                pd.close();
                throw e;
            }
        }

        /** Writes values of pattern b until a's lineage is released (only one fits). */
        void writeBUntilAReleased() throws InterruptedException {
            writeUntil(ac, List.of("b"), written, "a released", () -> pd.manager("a:*") == null);
        }

        @Override
        public void close() {
            pd.close();
        }
    }

    @Test
    void theNativeMemoryBoundHoldsAndReleasedPatternsStillReadBack() throws Exception {
        long bound = ONE_LINEAGE_FITS;
        try (PatternDictionaries pd = oneLineageFits()) {
            AdaptiveCompressor ac = compressor(pd);
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            writeUntilOnDictionaries(ac, List.of("a"), written);
            byte[][] early = AdaptiveDictionaryReaderTest.withDictionary(written.get("a"));
            long id = AdaptiveDictionaryReaderTest.frameId(early[1]);
            DictionaryManager first = pd.manager("a:*");
            assertArrayEquals(early[0], ac.reader().decompress(early[1])); // a coder keeps a decompressor over it
            writeUntil(ac, List.of("b"), written, "b's dictionary loaded, a released",
                    () -> pd.manager("b:*") != null && pd.manager("b:*").currentId() != 0
                            && pd.manager("a:*") == null);
            assertTrue(pd.nativeBytes() <= bound, pd.nativeBytes() + " native bytes, bound " + bound);
            // a, released, writes without a dictionary from its next sampled write on, and is not reopened for it
            List<byte[][]> after = new ArrayList<>();
            for (int i = 0; i < 50; i++) {
                byte[] v = RECORDS.get(i);
                after.add(new byte[][]{v, ac.compress(utf8("a:" + (1_000_000 + i)), v)});
            }
            assertNotEquals(CompressionOption.ZSTD_3_DICTIONARY, ac.state(utf8("a:1")).current());
            assertEquals(0, dictionaryValues(after.subList(2, after.size())));
            assertNull(pd.manager("a:*"));
            assertTrue(dictionaryValues(written.get("a")) > 0);
            // the reader every adapter reads with: the first read fails (and reopens a), a retry reads
            MissingDictionaryException x = assertThrows(MissingDictionaryException.class,
                    () -> ac.reader().decompress(java.nio.ByteBuffer.wrap(early[1])));
            assertEquals(id, x.dictionaryId());
            assertTrue(x.getMessage().contains("pattern a:*'s dictionaries were released")
                    && x.getMessage().contains("retry the read"), x.getMessage());
            DictionaryManagerTest.await("a reopened", () -> pd.manager("a:*") != null
                    && pd.manager("a:*").isLoaded(id));
            DictionaryManager reopened = pd.manager("a:*");
            assertNotSame(first, reopened);
            AdaptiveDictionaryReaderTest.assertReadsInEveryForm(ac.reader(), early[0], early[1]);
            assertTrue(reopened.dictionaryStats(id).valuesRead() > 0, "read with the reopened lineage's dictionary");
            readAll(ac, written.get("a")); // reopens a for reading, which releases b
            readAll(ac, after);
            assertNotNull(pd.manager("a:*"));
            DictionaryManagerTest.await("b released", () -> pd.manager("b:*") == null);
            readAll(ac, written.get("b"));
            DictionaryManagerTest.await("within the bound", () -> pd.nativeBytes() <= bound);
            assertEquals(1, pd.openPatterns().size(), pd.openPatterns().toString());
        }
    }

    /**
     * Once a pattern's lineage is released, its writes up to its next sampled one still have the dictionary option,
     * and are written with zstd 3 without a dictionary: they are counted under zstd 3, as they were written
     * ({@link AdaptiveCompressor#writes}, the meters), never under the dictionary option. Before, they were counted
     * under "zstd 3 + dictionary" with no dictionary in them.
     */
    @Test
    void writesOfAReleasedPatternAreCountedUnderTheOptionThatWroteThem() throws Exception {
        try (PatternDictionaries pd = oneLineageFits()) {
            int every = 64;
            AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.defaults()).sampling(64, every, every)
                    .window(8, 4).hysteresis(1, 0.01, 0.2).dictionaries(pd).build();
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            writeUntilOnDictionaries(ac, List.of("a"), written);
            byte[] a = utf8("a:1");
            if (ac.state(a).writes() % every == 0) { // the next write of a would be sampled: not the one to watch
                ac.compress(utf8("a:0"), RECORDS.get(0));
            }
            writeUntil(ac, List.of("b"), written, "a released", () -> pd.manager("a:*") == null);
            assertEquals(CompressionOption.ZSTD_3_DICTIONARY, ac.state(a).current(), "not sampled since");
            long dictionary = ac.writes(CompressionOption.ZSTD_3_DICTIONARY).values();
            long zstd3 = ac.writes(CompressionOption.ZSTD_3).values();
            List<byte[][]> after = new ArrayList<>();
            long ordinary = every - ac.state(a).writes() % every; // written with the option in use, unsampled
            for (int i = 0; i < ordinary; i++) {
                byte[] v = RECORDS.get(i);
                after.add(new byte[][]{v, ac.compress(utf8("a:" + (1_000_000 + i)), v)});
            }
            assertEquals(0, dictionaryValues(after), "written without the released dictionary");
            assertEquals(CompressionOption.ZSTD_3_DICTIONARY, ac.state(a).current(), "no sample yet");
            assertEquals(dictionary, ac.writes(CompressionOption.ZSTD_3_DICTIONARY).values(),
                    "values without a dictionary counted under the dictionary option");
            assertEquals(zstd3 + ordinary, ac.writes(CompressionOption.ZSTD_3).values());
            readAll(ac, after);
        }
    }

    /**
     * A released lineage frees its dictionaries' native memory, which the bound then counts as none: no compressor of
     * the writer it wrote the pattern with keeps its compression digest allocated.
     */
    @Test
    void aReleasedLineageKeepsNoDigestAllocated() throws Exception {
        try (AOnItsDictionary f = AOnItsDictionary.start()) {
            ValueCompressor writer = f.pd().lineage("a:*", null).writer(); // held here, so never garbage-collected
            assertNotNull(writer);
            dev.zstdjava.zstd.ZstdCompressionDictionary digest =
                    f.pd().manager("a:*").current().compressionDictionary(3);
            assertTrue(references(digest) > 1, "a's writer compresses with " + digest);
            f.writeBUntilAReleased();
            DictionaryManagerTest.await("a's compression digest freed", () -> references(digest) == 0);
        }
    }

    /**
     * The reader side of the same: the adaptive compressor's reader, which every adapter reads with, keeps a
     * decompressor over the dictionary of each value it read; a released lineage's are freed with it, not kept (with
     * the native memory of its dictionaries' decompression digests, which the bound no longer counts) until their
     * coder's slot is reused.
     */
    @Test
    void aReleasedLineageLeavesNoDecompressorOfItsDictionariesInTheReader() throws Exception {
        try (AOnItsDictionary f = AOnItsDictionary.start()) {
            PatternDictionaries pd = f.pd();
            byte[][] v = AdaptiveDictionaryReaderTest.withDictionary(f.written().get("a"));
            long id = AdaptiveDictionaryReaderTest.frameId(v[1]);
            dev.zstdjava.zstd.ZstdDecompressionDictionary digest = pd.manager("a:*").find(id).digests.decompression;
            AdaptiveDictionaryReaderTest.assertReadsInEveryForm(f.ac().reader(), v[0], v[1]);
            assertTrue(references(digest) > 1, "the reader decompresses with " + digest);
            f.writeBUntilAReleased();
            DictionaryManagerTest.await("a's decompression digest freed", () -> references(digest) == 0);
            DictionaryManagerTest.await("b open with its dictionary", () -> pd.manager("b:*") != null
                    && pd.manager("b:*").currentId() != 0);
            readAll(f.ac(), f.written().get("b")); // the reader still reads, b's values with b's dictionary
        }
    }

    /**
     * A write with a lineage's dictionary is a use of it, sampled or not: under a bound that holds two lineages, a
     * pattern written on and on with its dictionary, none of those writes sampled, outlives one idle since a write
     * sampled after the first's last sampled one, when a third lineage's dictionary loads.
     */
    @Test
    void aPatternWrittenWithItsDictionaryOutlivesAnIdleOneUnderTheBound() throws Exception {
        long twoFit = 2 * PatternDictionaries.estimatedNativeBytes(4096, true) + 4096;
        int firstWrites = 20_000; // every write sampled until then, then none (one in 2^30)
        try (PatternDictionaries pd = inMemory(new ConcurrentHashMap<>())
                .manager(b -> quick(b).retrainInterval(Duration.ofHours(1)))
                .maxNativeBytes(twoFit).reopenDelay(Duration.ofHours(1)).build()) {
            AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.defaults())
                    .sampling(firstWrites, 1 << 30, 1 << 30).window(8, 4).hysteresis(1, 0.01, 0.2)
                    .dictionaries(pd).build();
            byte[] hotKey = utf8("hot:1");
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int i = 0;
            // few writes, slowly, until both patterns write with their own dictionaries
            while (ac.state(hotKey).current() != CompressionOption.ZSTD_3_DICTIONARY
                    || ac.state(utf8("idle:1")).current() != CompressionOption.ZSTD_3_DICTIONARY) {
                assertTrue(System.nanoTime() < deadline, "timed out waiting for both patterns on their dictionaries");
                for (int k = 0; k < 10; k++, i++) {
                    ac.compress(utf8("hot:" + i), RECORDS.get(i % RECORDS.size()));
                    ac.compress(utf8("idle:" + i), RECORDS.get((i + 7) % RECORDS.size()));
                }
                Thread.sleep(10);
            }
            assertTrue(ac.state(hotKey).writes() < firstWrites, ac.state(hotKey).writes() + " writes sampled");
            while (ac.state(hotKey).writes() < firstWrites) { // hot's last sampled writes
                ac.compress(utf8("hot:" + i), RECORDS.get(i++ % RECORDS.size()));
            }
            Thread.sleep(5);
            for (int k = 0; k < 20; k++, i++) { // idle's last writes, sampled after hot's last sampled one
                ac.compress(utf8("idle:" + i), RECORDS.get(i % RECORDS.size()));
            }
            assertTrue(ac.state(utf8("idle:1")).writes() < firstWrites);
            // from now on hot writes with its dictionary, never sampled, and idle is idle; a third pattern comes
            Map<String, List<byte[][]>> hot = new ConcurrentHashMap<>();
            writeUntil(ac, List.of("hot", "third"), hot, "third's dictionary loaded and a lineage released",
                    () -> pd.manager("third:*") != null && pd.manager("third:*").currentId() != 0
                            && (pd.manager("hot:*") == null || pd.manager("idle:*") == null));
            assertTrue(dictionaryValues(hot.get("hot")) > 0, "hot wrote with its dictionary");
            assertTrue(ac.state(hotKey).writes() < 1 << 30, "none of hot's writes sampled");
            assertNotNull(pd.manager("hot:*"), "the pattern written on and on was released; open: "
                    + pd.openPatterns());
            assertNull(pd.manager("idle:*"), "the idle pattern stayed open; open: " + pd.openPatterns());
        }
    }

    /**
     * A pattern's lineage trains on the pattern's sampled values, each offered to its manager's reservoir once: not
     * again by the compressor that writes with the lineage's dictionary (when the value is measured with that
     * option, or written with it), nor for the writes that are not sampled.
     */
    @Test
    void eachSampledValueIsOfferedToItsLineageOnce() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        byte[] dict = DictionaryManagerTest.DICT_A; // published before the lineage opens: it writes with it at once
        stores.computeIfAbsent("event:*", x -> new InMemoryDictionaryStore())
                .putIfAbsent(DictionaryManagerTest.id(dict), dict);
        // a reservoir that keeps every value offered (well within its count, bytes and rate) and never trains
        try (PatternDictionaries pd = inMemory(stores).manager(b -> quick(b).minSamples(100_000)
                .sampling(100_000, 1 << 16, 1L << 32, 1L << 40)).build()) {
            AtomicLong sampled = new AtomicLong();
            AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.defaults()).sampling(64, 2, 4)
                    .window(8, 4).hysteresis(1, 0.01, 0.2).dictionaries(pd)
                    .build(w -> new ForwardingOptionWriter(w) {
                        @Override
                        public void sampled(byte[] value) {
                            sampled.incrementAndGet();
                            inner.sampled(value);
                        }
                    }, System::nanoTime);
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            writeUntilOnDictionaries(ac, List.of("event"), written);
            DictionaryManager m = pd.manager("event:*");
            assertEquals(DictionaryManagerTest.id(dict), m.currentId());
            int held = m.trainingStats().samples();
            long offered = sampled.get();
            int before = written.get("event").size();
            for (int i = 0; i < 2000; i++) {
                byte[] v = RECORDS.get(i % RECORDS.size());
                written.get("event").add(new byte[][]{v, ac.compress(utf8("event:" + (1_000_000 + i)), v)});
            }
            assertTrue(dictionaryValues(written.get("event").subList(before, written.get("event").size())) > 1000,
                    "written with the lineage's dictionary");
            assertTrue(sampled.get() - offered > 10, (sampled.get() - offered) + " sampled");
            assertEquals(sampled.get() - offered, m.trainingStats().samples() - held,
                    "values held in the reservoir, for " + (sampled.get() - offered) + " sampled writes");
        }
    }

    /** @return the references to {@code digest}'s native tables (its own and its compressors'; 0: freed) */
    static int references(dev.zstdjava.zstd.ZstdDecompressionDictionary digest) {
        return references((Object) digest);
    }

    /** @return the references to {@code digest}'s native tables (its own and its compressors'; 0: freed) */
    static int references(dev.zstdjava.zstd.ZstdCompressionDictionary digest) {
        return references((Object) digest);
    }

    private static int references(Object digest) {
        try {
            java.lang.reflect.Field shared = Class.forName("dev.zstdjava.zstd.DigestedDictionary")
                    .getDeclaredField("shared");
            shared.setAccessible(true);
            Object native_ = shared.get(digest);
            java.lang.reflect.Field refs = native_.getClass().getDeclaredField("refs");
            refs.setAccessible(true);
            synchronized (native_) {
                return refs.getInt(native_);
            }
        } catch (ReflectiveOperationException e) {
            throw new AssertionError(e);
        }
    }

    /**
     * The CPU of each option, in microseconds per KiB, by ordinal, as {@link #bestOf} and the compressor of
     * {@link #aPatternWhoseDictionaryFailsStaysOnItsBestOptionWithoutOne} time them: zstd 9 the cheapest, every other
     * option (the dictionary one too) ten times dearer. So without a dictionary {@code BALANCED} takes zstd 9, neither
     * the default option nor the first in cost order, while a dictionary that saves more than 2 points over it wins
     * all the same.
     */
    static final double[] FAILING_COSTS = {0, 10, 10, 10, 10, 10, 10, 1};

    /**
     * @return the option {@code goal} takes ({@link CompressionGoal#decide}, the rule {@code zstd-values advise}
     *         follows) on {@code values}, measured by {@link OptionMeasurements} with {@link #FAILING_COSTS} and,
     *         when {@code dictionary} is given, its current dictionary
     */
    static CompressionOption bestOf(List<byte[]> values, DictionaryManager dictionary, CompressionGoal goal) {
        AtomicLong clock = new AtomicLong();
        OptionMeasurements m = OptionMeasurements.create(CompressionConfig.defaults(), dictionary, values.size(),
                AdaptiveCompressorTest.timedBy(clock, FAILING_COSTS, 0, 0), clock::get);
        for (byte[] v : values) {
            assertTrue(m.add(v, true));
        }
        return m.decide(goal);
    }

    /**
     * Patterns whose store cannot be made, cannot be read or cannot be published in never write with a dictionary
     * and end on the option the goal's rule takes on their latest sampled values without one, while a pattern
     * whose lineage works takes its dictionary. The options are timed by a clock of the test ({@link #FAILING_COSTS})
     * and the decisions have no hysteresis (no margins, a switch after one evaluation), so the expected option is
     * exact: the pattern's last window of sampled values is known (each value written twice in a row, one of the two
     * sampled), and measured again here.
     */
    /**
     * A lineage whose store cannot be had is tried again after each reopen delay, as long as its pattern writes: the
     * first failure is a warning, the next ones are not (a store down for an hour under 256 patterns logged a warning
     * per pattern every 10 seconds, some 90,000), and its opening, once the store is back, says how many attempts
     * failed. Before, every attempt logged the same warning again.
     */
    @Test
    void aLineageThatKeepsFailingToOpenWarnsOnceUntilItOpens() throws Exception {
        java.util.concurrent.atomic.AtomicInteger asked = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicBoolean down = new java.util.concurrent.atomic.AtomicBoolean(true);
        Function<String, DictionaryStore> stores = name -> {
            if (name.equals(PatternDictionaries.lineageName("down:*"))) {
                asked.incrementAndGet();
                if (down.get()) {
                    throw new IllegalStateException("the store is down");
                }
            }
            return new InMemoryDictionaryStore();
        };
        try (AdaptiveLog log = new AdaptiveLog(r -> r.getMessage() != null
                && r.getMessage().contains("pattern down:*"));
             PatternDictionaries pd = PatternDictionaries.builder(stores)
                     .manager(AdaptivePatternDictionariesTest::quick).reopenDelay(Duration.ofMillis(1)).build()) {
            List<java.util.logging.LogRecord> logged = log.records();
            AdaptiveCompressor ac = compressor(pd);
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            writeUntil(ac, List.of("down"), written, "five attempts to open the lineage", () -> asked.get() >= 5);
            assertNull(pd.manager("down:*"));
            // each attempt runs on the lineages' one thread once the one before it has logged its failure
            List<java.util.logging.LogRecord> warnings = logged.stream()
                    .filter(r -> r.getLevel() == java.util.logging.Level.WARNING).toList();
            assertEquals(1, warnings.size(), asked.get() + " attempts failed, warned: "
                    + warnings.stream().map(java.util.logging.LogRecord::getMessage).toList());
            down.set(false);
            writeUntil(ac, List.of("down"), written, "the lineage open", () -> pd.manager("down:*") != null);
            DictionaryManagerTest.await("its opening logged", () -> logged.stream().anyMatch(r -> r.getMessage()
                    .contains("opened, after")));
            assertEquals(1, logged.stream().filter(r -> r.getLevel() == java.util.logging.Level.WARNING).count());
            readAll(ac, written.get("down"));
        }
    }

    @Test
    void aPatternWhoseDictionaryFailsStaysOnItsBestOptionWithoutOne() throws Exception {
        Function<String, DictionaryStore> stores = name -> switch (name) {
            case "nostore:*" -> throw new IllegalStateException("no store for this pattern");
            case "unreadable:*" -> new Failing(true);
            case "unpublishable:*" -> new Failing(false);
            default -> new InMemoryDictionaryStore();
        };
        int window = 8;
        try (PatternDictionaries pd = PatternDictionaries.builder(stores)
                .manager(AdaptivePatternDictionariesTest::quick)
                .reopenDelay(Duration.ofMillis(100)).build()) {
            AtomicLong clock = new AtomicLong();
            // one write in 2 sampled, no margins: after each sample the pattern takes what the goal's rule takes
            AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.defaults()).sampling(64, 2, 4)
                    .window(window, 4).hysteresis(1, 0, 0).dictionaries(pd)
                    .build(AdaptiveCompressorTest.timedBy(clock, FAILING_COSTS, 0, 0), clock::get);
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            List<String> failing = List.of("nostore", "unreadable", "unpublishable");
            List<String> names = List.of("nostore", "unreadable", "unpublishable", "fine");
            writeUntil(ac, names, written, "the working pattern on its dictionary", () ->
                    ac.state(utf8("fine:1")).current() == CompressionOption.ZSTD_3_DICTIONARY);
            writeUntil(ac, names, written, "a training that could not publish", () -> {
                DictionaryManager m = pd.manager("unpublishable:*");
                return m != null && m.trainingStats().failed() + m.trainingStats().rejected() > 0;
            });
            List<byte[]> last = RECORDS.subList(1000, 1000 + window);
            CompressionOption best = bestOf(last, null, ac.goal());
            assertNotEquals(CompressionOption.ZSTD_3, best, "the best option without a dictionary is the default one:"
                    + " the test could not tell a pattern that stays on its default");
            DictionaryManager fine = pd.manager("fine:*");
            assertNotNull(fine);
            assertEquals(CompressionOption.ZSTD_3_DICTIONARY, bestOf(last, fine, ac.goal()),
                    "the same values, with a working dictionary, go on it");
            for (String n : failing) {
                // past its first writes, a pattern that compresses samples one write in 2: one of each pair, so its
                // window ends with these values
                for (int i = 0; i < 2 * window; i++) {
                    byte[] v = last.get(i / 2);
                    written.get(n).add(new byte[][]{v, ac.compress(utf8(n + ":" + (1_000_000 + i)), v)});
                }
                assertEquals(best, ac.state(utf8(n + ":1")).current(), n + ": the best option without a dictionary");
                assertEquals(0, dictionaryValues(written.get(n)), n);
            }
            assertNull(pd.manager("nostore:*"));
            assertNull(pd.manager("unreadable:*"));
            for (List<byte[][]> vs : written.values()) {
                readAll(ac, vs);
            }
        }
    }

    @Test
    void aPatternsHeldLeaseDoesNotStarveTheOthers() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        Function<String, DictionaryStore> factory = n -> stores.computeIfAbsent(n, x -> {
            InMemoryDictionaryStore s = new InMemoryDictionaryStore();
            if (x.equals("busy:*")) {
                assertTrue(s.tryLease("another client training busy:*", Duration.ofHours(1)));
            }
            return s;
        });
        try (PatternDictionaries pd = PatternDictionaries.builder(factory)
                .manager(AdaptivePatternDictionariesTest::quick)
                .build()) {
            AdaptiveCompressor ac = compressor(pd);
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            List<String> names = List.of("busy", "alpha", "beta", "gamma");
            writeUntil(ac, names, written, "every pattern but the busy one with a dictionary", () -> {
                for (String n : names.subList(1, names.size())) {
                    DictionaryManager m = pd.manager(n + ":*");
                    if (m == null || m.currentId() == 0) {
                        return false;
                    }
                }
                return true;
            });
            Set<Long> ids = new HashSet<>();
            for (String n : names.subList(1, names.size())) {
                ids.add(pd.manager(n + ":*").currentId());
            }
            assertEquals(3, ids.size(), "three lineages, three dictionaries");
            assertEquals(0, pd.manager("busy:*").currentId(), "its lease is held elsewhere");
            assertFalse(ac.state(utf8("busy:1")).current().dictionary());
            for (List<byte[][]> vs : written.values()) {
                readAll(ac, vs);
            }
        }
    }

    /**
     * A keyspace of random keys (every key its own pattern, the table churning) makes no lineage and asks for no store
     * for them: a lineage is made once its pattern has had the samples it needs to leave its default option, which a
     * pattern seen once never has. A pattern written on and on still gets its own.
     */
    @Test
    void randomKeysOpenNoLineage() throws Exception {
        Set<String> asked = ConcurrentHashMap.newKeySet();
        try (PatternDictionaries pd = PatternDictionaries.builder(n -> {
            asked.add(n);
            return new InMemoryDictionaryStore();
        }).manager(AdaptivePatternDictionariesTest::quick).build()) {
            AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.defaults()).sampling(64, 2, 4)
                    .window(8, 4).hysteresis(1, 0.01, 0.2).capacity(16).idleWindow(Duration.ofMillis(1))
                    .patterns(List.of("event:*")).dictionaries(pd).build();
            java.util.SplittableRandom r = new java.util.SplittableRandom(11);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int i = 0;
            while (ac.state(utf8("event:1")).current() != CompressionOption.ZSTD_3_DICTIONARY) {
                if (System.nanoTime() > deadline) {
                    fail("timed out waiting for event:* on its dictionary");
                }
                for (int k = 0; k < 200; k++, i++) {
                    StringBuilder key = new StringBuilder("k-");
                    for (int j = 0; j < 12; j++) {
                        key.append((char) ('g' + r.nextInt(20))); // not hex: every key its own pattern
                    }
                    byte[] v = RECORDS.get(i % RECORDS.size());
                    assertArrayEquals(v, ac.decompress(ac.compress(utf8(key.toString()), v)));
                    ac.compress(utf8("event:" + i), v);
                }
                Thread.sleep(5);
            }
            // the lineages' thread runs openings in turn: once it has asked for the store of a lineage opened after
            // the writes, it has run every opening the writes asked for
            String sentinel = "sentinel:*";
            long sentinelDeadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (!asked.contains(PatternDictionaries.lineageName(sentinel))) {
                if (System.nanoTime() > sentinelDeadline) {
                    fail("timed out waiting for the lineages' thread to open " + sentinel);
                }
                PatternDictionaries.Lineage l = pd.lineage(sentinel, CompressionConfig.defaults());
                if (l != null) {
                    l.open(true);
                }
                Thread.sleep(5);
            }
            asked.remove(PatternDictionaries.lineageName(sentinel));
            asked.remove(PatternDictionaries.ID_CLAIMS);
            // keys that found the table full share "other", a pattern written on and on
            asked.remove(PatternDictionaries.lineageName(PatternTable.OTHER));
            assertEquals(Set.of("event:*"), asked, i + " random keys written");
            assertTrue(pd.openPatterns().stream().filter(p -> !p.equals(sentinel)).count() <= 2,
                    pd.openPatterns().toString());
        }
    }

    @Test
    void atMostTheAllowedLineagesAreOpen() throws Exception {
        try (PatternDictionaries pd = PatternDictionaries.builder(n -> new InMemoryDictionaryStore())
                .manager(AdaptivePatternDictionariesTest::quick).maxOpenLineages(2).build()) {
            AdaptiveCompressor ac = compressor(pd);
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            List<String> names = List.of("red", "green", "blue");
            writeUntil(ac, names, written, "lineages opened", () -> pd.manager("red:*") != null
                    || pd.manager("green:*") != null || pd.manager("blue:*") != null);
            writeUntil(ac, names, written, "three lineages asked for, two open", () -> {
                int n = 0;
                for (String x : names) {
                    n += written.get(x).size() > 1000 ? 1 : 0;
                }
                return n == 3 && pd.openPatterns().size() <= 2;
            });
            for (int i = 0; i < 20; i++) {
                assertTrue(pd.openPatterns().size() <= 2, pd.openPatterns().toString());
                Thread.sleep(10);
            }
            for (List<byte[][]> vs : written.values()) {
                readAll(ac, vs);
            }
        }
    }

    /**
     * zstd's dictionary ids are hashes of the content, so two lineages can hold one id: a lineage never publishes an
     * id another lineage claimed, in this process or another one (the check its manager asks before publishing), and
     * every id a lineage publishes or loads is claimed in the store of the claims.
     */
    @Test
    void aLineageDoesNotPublishAnIdAnotherLineageClaimed() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        try (PatternDictionaries pd = inMemory(stores).build()) {
            writeUntilOnDictionaries(compressor(pd), List.of("event", "order"), new ConcurrentHashMap<>());
            DictionaryManager event = pd.manager("event:*");
            DictionaryManager order = pd.manager("order:*");
            long id = event.currentId();
            InMemoryDictionaryStore claims = stores.get(PatternDictionaries.ID_CLAIMS);
            assertEquals(Set.of(id, order.currentId()), claims.list().stream().map(DictionaryInfo::id)
                    .collect(java.util.stream.Collectors.toSet()), "each lineage's dictionary claimed");
            byte[] other = foreign(id);
            String claimed = "dictionary id " + id + " is claimed by lineage event:* (its claim in the "
                    + PatternDictionaries.ID_CLAIMS + " store (" + claims.entryLocation(id) + ")) with different bytes";
            assertEquals(claimed, order.publishCheck().refusal(id, other));
            assertNull(event.publishCheck().refusal(id, event.find(id).dictionary.toByteArray()), "its own");
            long fresh = 40_000;
            while (fresh == id || fresh == order.currentId()) {
                fresh++;
            }
            assertNull(order.publishCheck().refusal(fresh, foreign(fresh)), "a free id: order's now");
            assertTrue(event.publishCheck().refusal(fresh, other).startsWith("dictionary id " + fresh
                    + " is claimed by lineage order:*"));
            // another process, which has not opened event's lineage, is refused the same way
            try (PatternDictionaries elsewhere = inMemory(stores).build()) {
                writeUntil(compressor(elsewhere), List.of("order"), new ConcurrentHashMap<>(), "order's lineage open",
                        () -> elsewhere.manager("order:*") != null);
                assertNull(elsewhere.manager("event:*"));
                assertEquals(claimed, elsewhere.manager("order:*").publishCheck().refusal(id, other));
            }
        }
    }

    /**
     * A claim is written once and never replaced, so each id is claimed once: not again when the dictionary the
     * lineage published loads, nor when the lineage reopens after a release (the store of the claims is a server's,
     * shared by every process).
     */
    @Test
    void eachIdIsClaimedOnceNotAgainOnAReopen() throws Exception {
        long bound = ONE_LINEAGE_FITS; // one lineage's dictionary fits, two do not
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        java.util.concurrent.atomic.AtomicInteger claimWrites = new java.util.concurrent.atomic.AtomicInteger();
        Function<String, DictionaryStore> counting = n -> {
            InMemoryDictionaryStore s = stores.computeIfAbsent(n, x -> new InMemoryDictionaryStore());
            return !n.equals(PatternDictionaries.ID_CLAIMS) ? s : new Forwarding(s) {
                @Override
                public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
                    claimWrites.incrementAndGet();
                    return inner.putIfAbsent(id, dictionary);
                }
            };
        };
        try (PatternDictionaries pd = PatternDictionaries.builder(counting)
                .manager(b -> quick(b).retrainInterval(Duration.ofHours(1)))
                .maxNativeBytes(bound).reopenDelay(Duration.ofHours(1)).build()) {
            AdaptiveCompressor ac = compressor(pd);
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            writeUntilOnDictionaries(ac, List.of("a"), written);
            writeUntil(ac, List.of("b"), written, "b writing with its dictionary, a released",
                    () -> dictionaryValues(written.getOrDefault("b", List.of())) > 0 && pd.manager("a:*") == null);
            InMemoryDictionaryStore claims = stores.get(PatternDictionaries.ID_CLAIMS);
            int claimed = claims.list().size();
            assertTrue(claimed >= 2, claims.list().toString());
            int beforeReopen = claimWrites.get();
            assertEquals(claimed, beforeReopen, "each id claimed once, when published");
            // a read of a's value reopens a (releasing b), one of b's then reopens b: a's claims, if checked again,
            // are checked on the lineages' thread before b opens
            readAll(ac, written.get("a"));
            readAll(ac, written.get("b"));
            assertNotNull(pd.manager("b:*"));
            assertEquals(beforeReopen, claimWrites.get(), "a reopened lineage claims its ids again");
            assertEquals(claimed, claims.list().size());
        }
    }

    /**
     * A process that has opened only one of two lineages holding one id with different bytes: the id claims tell
     * it, and it reads neither's values with it (before claims, it decoded the other lineage's values with its own
     * dictionary: wrong bytes for some, with no error).
     */
    @Test
    void aProcessThatOpenedOneOfTwoLineagesOfAnIdReadsWithNeither() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        byte[][] v = eventWithAForeignDictionaryOfItsIdInOrders(stores);
        long id = AdaptiveDictionaryReaderTest.frameId(v[1]);
        try (PatternDictionaries pd = inMemory(stores).build()) {
            AdaptiveCompressor ac = compressor(pd);
            writeUntil(ac, List.of("order"), new ConcurrentHashMap<>(), "order's lineage holding " + id,
                    () -> pd.manager("order:*") != null && pd.manager("order:*").isLoaded(id));
            assertNull(pd.manager("event:*"), "event's lineage not opened here");
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (pd.lookup().find(id) != null) { // the claim is checked on the lineages' thread, after the load
                assertTrue(System.nanoTime() < deadline, "the claim of " + id + " not checked");
                Thread.sleep(10);
            }
            MissingDictionaryException x = assertThrows(MissingDictionaryException.class, () -> ac.decompress(v[1]),
                    "event's value decoded with order's dictionary");
            assertEquals(id, x.dictionaryId());
            assertTrue(x.getMessage().contains("held by pattern order:*'s lineage (" + stores.get("order:*")
                    .entryLocation(id) + ") and lineage event:* (its claim in"
                    + " the " + PatternDictionaries.ID_CLAIMS + " store (" + stores.get(PatternDictionaries.ID_CLAIMS)
                    .entryLocation(id) + ")) with different bytes"), x.getMessage());
            Map<String, List<byte[][]>> after = new ConcurrentHashMap<>();
            writeUntil(ac, List.of("order"), after, "1000 more values",
                    () -> after.getOrDefault("order", List.of()).size() >= 1000);
            assertNotWrittenWithAndReadBack(ac, after.get("order"), id);
        }
    }

    /**
     * An id two lineages hold with different bytes (published by processes that did not see each other's) is read
     * with neither, naming both patterns, rather than decoded with the wrong one (the frames carry no checksum); and
     * neither pattern writes with it any more.
     */
    @Test
    void anIdTwoLineagesHoldIsReadWithNeitherAndWrittenByNeither() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        byte[][] v = eventWithAForeignDictionaryOfItsIdInOrders(stores);
        long id = AdaptiveDictionaryReaderTest.frameId(v[1]);
        try (PatternDictionaries pd = inMemory(stores).build()) {
            AdaptiveCompressor ac = compressor(pd);
            writeUntil(ac, List.of("event", "order"), new ConcurrentHashMap<>(), "both lineages holding " + id,
                    () -> pd.manager("event:*") != null && pd.manager("event:*").isLoaded(id)
                            && pd.manager("order:*") != null && pd.manager("order:*").isLoaded(id));
            for (Runnable read : List.<Runnable>of(() -> ac.decompress(v[1]), () -> ac.reader().decompress(v[1]),
                    () -> ac.reader().decompress(java.nio.ByteBuffer.wrap(v[1])))) {
                MissingDictionaryException x = assertThrows(MissingDictionaryException.class, read::run);
                assertEquals(id, x.dictionaryId());
                String m = x.getMessage(); // which lineage loaded it first, here or in the claims, varies
                assertTrue(m.contains("order:*") && m.contains("event:*") && m.contains("with different bytes")
                        && m.contains("neither reads it"), m);
            }
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            writeUntil(ac, List.of("event", "order"), written, "2000 values of each",
                    () -> written.getOrDefault("event", List.of()).size() >= 2000);
            for (List<byte[][]> vs : written.values()) {
                assertNotWrittenWithAndReadBack(ac, vs, id);
            }
        }
    }

    /**
     * A lineage with two ids that other lineages hold with other bytes writes with neither: its current dictionary's
     * id, made ambiguous first, stays unwritten when an older id of the lineage becomes ambiguous too (values written
     * with it would fail to read for good).
     */
    @Test
    void aLineageWritesWithNoneOfItsAmbiguousIds() throws Exception {
        long older = 1_000_001;
        long current = 1_000_002;
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        InMemoryDictionaryStore a = stores.computeIfAbsent("a:*", n -> new InMemoryDictionaryStore());
        a.putIfAbsent(older, dev.zstdjava.zstd.ZstdDictionary.trainer(4096).dictionaryId(older).train(RECORDS)
                .toByteArray());
        a.putIfAbsent(current, dev.zstdjava.zstd.ZstdDictionary.trainer(4096).dictionaryId(current).train(RECORDS)
                .toByteArray());
        stores.computeIfAbsent("b:*", n -> new InMemoryDictionaryStore()).putIfAbsent(current, foreign(current));
        stores.computeIfAbsent("c:*", n -> new InMemoryDictionaryStore()).putIfAbsent(older, foreign(older));
        try (PatternDictionaries pd = inMemory(stores).manager(b -> quick(b).minImprovement(1)).build()) {
            AdaptiveCompressor ac = compressor(pd);
            writeUntilHolding(ac, pd, List.of("a", "b"), current);
            assertEquals(current, pd.manager("a:*").currentId());
            writeUntilHolding(ac, pd, List.of("c"), older);
            DictionaryManagerTest.await(older + " ambiguous", () -> pd.lookup().find(older) == null);
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            writeUntil(ac, List.of("a"), written, "3000 values of a",
                    () -> written.getOrDefault("a", List.of()).size() >= 3000);
            assertEquals(current, pd.manager("a:*").currentId());
            assertNotWrittenWithAndReadBack(ac, written.get("a"), current);
        }
    }

    /**
     * A lineage that loads an id two other lineages already hold with different bytes does not write with it either,
     * though its bytes are one of theirs (values written with it would fail to read for good).
     */
    @Test
    void aLineageDoesNotWriteWithAnIdAlreadyAmbiguous() throws Exception {
        long id = 1_000_003;
        byte[] dictionary = dev.zstdjava.zstd.ZstdDictionary.trainer(4096).dictionaryId(id).train(RECORDS)
                .toByteArray();
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        stores.computeIfAbsent("a:*", n -> new InMemoryDictionaryStore()).putIfAbsent(id, dictionary);
        stores.computeIfAbsent("b:*", n -> new InMemoryDictionaryStore()).putIfAbsent(id, dictionary);
        stores.computeIfAbsent("c:*", n -> new InMemoryDictionaryStore()).putIfAbsent(id, foreign(id));
        try (PatternDictionaries pd = inMemory(stores).manager(b -> quick(b).minImprovement(1)).build()) {
            AdaptiveCompressor ac = compressor(pd);
            writeUntilHolding(ac, pd, List.of("a", "c"), id);
            DictionaryManagerTest.await(id + " ambiguous", () -> pd.lookup().find(id) == null);
            Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
            writeUntil(ac, List.of("b"), written, "b holding " + id + " and 3000 values of b",
                    () -> pd.manager("b:*") != null && pd.manager("b:*").isLoaded(id)
                            && written.getOrDefault("b", List.of()).size() >= 3000);
            assertEquals(id, pd.manager("b:*").currentId());
            assertNotWrittenWithAndReadBack(ac, written.get("b"), id);
        }
    }

    /**
     * Writes event values through one process until they go on event's dictionary; then, as a writer that claims
     * nothing (another process, or an older version), publishes a dictionary of other values under the same id in
     * order's lineage. @return an event value written with the id
     */
    static byte[][] eventWithAForeignDictionaryOfItsIdInOrders(Map<String, InMemoryDictionaryStore> stores)
            throws Exception {
        byte[][] v;
        try (PatternDictionaries pd = inMemory(stores).build()) {
            v = AdaptiveDictionaryReaderTest.eventOnItsDictionary(pd);
        }
        long id = AdaptiveDictionaryReaderTest.frameId(v[1]);
        stores.computeIfAbsent("order:*", n -> new InMemoryDictionaryStore()).putIfAbsent(id, foreign(id));
        return v;
    }

    /** Asserts that no value of {@code written} went on dictionary {@code id}, and that every one reads back. */
    static void assertNotWrittenWithAndReadBack(AdaptiveCompressor ac, List<byte[][]> written, long id)
            throws InterruptedException {
        for (byte[][] w : written) {
            if (dictionaryValues(List.<byte[][]>of(w)) == 1) {
                assertNotEquals(id, AdaptiveDictionaryReaderTest.frameId(w[1]), "written with " + id);
            }
        }
        readAll(ac, written);
    }

    /** A dictionary of other values than {@link #RECORDS}', under {@code id}. */
    static byte[] foreign(long id) {
        return dev.zstdjava.zstd.ZstdDictionary.trainer(4096).dictionaryId(id)
                .train(TestValues.jsonRecords(400, 77)).toByteArray();
    }

    @Test
    void aReaderThatOpensNoLineageReadsWithEveryClaimedDictionaryAndWithNoAmbiguousOne() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
        long event;
        long order;
        try (PatternDictionaries pd = inMemory(stores).build()) {
            writeUntilOnDictionaries(compressor(pd), List.of("event", "order"), written);
            event = pd.manager("event:*").currentId();
            order = pd.manager("order:*").currentId();
        }
        // each store asked for once and closed after its use, one open at a time
        java.util.concurrent.atomic.AtomicInteger open = new java.util.concurrent.atomic.AtomicInteger();
        List<String> asked = new ArrayList<>();
        PatternDictionaries.Published found = PatternDictionaries.published(n -> {
            asked.add(n);
            assertEquals(1, open.incrementAndGet(), "another store still open when " + n + " was asked for");
            return new Closing(stores.get(n), open);
        });
        assertEquals(0, open.get(), "every store closed");
        assertEquals(List.of(PatternDictionaries.ID_CLAIMS, "event:*", "order:*"), asked);
        Set<Long> published = new java.util.TreeSet<>();
        for (String lineage : List.of("event:*", "order:*")) {
            stores.get(lineage).list().forEach(i -> published.add(i.id()));
        }
        assertEquals(published, found.dictionaries().keySet(), "every lineage's dictionaries, found by the claims");
        assertTrue(found.leftOut().isEmpty(), found.leftOut().toString());
        ValueCompressor reader = ValueCompressor.create(CompressionConfig.defaults(),
                DictionaryManager.given(new ArrayList<>(found.dictionaries().values())).build());
        for (String n : List.of("event", "order")) {
            assertTrue(dictionaryValues(written.get(n)) > 0, n);
            for (byte[][] v : written.get(n)) {
                assertArrayEquals(v[0], reader.decompress(v[1]));
            }
        }
        // a writer that claims nothing publishes other bytes under event's id in order's lineage
        stores.get("order:*").putIfAbsent(event, foreign(event));
        found = PatternDictionaries.published(stores::get);
        assertEquals(Set.of(event), found.leftOut().keySet());
        String why = found.leftOut().get(event);
        assertTrue(why.contains("lineage event:*") && why.contains("lineage order:*"), why);
        // each holder named with its entry's location (a server store's key)
        assertTrue(why.contains("lineage event:* (" + stores.get("event:*").entryLocation(event) + ")")
                && why.contains("lineage order:* (" + stores.get("order:*").entryLocation(event) + ")"), why);
        assertFalse(found.dictionaries().containsKey(event), "read with neither");
        assertTrue(found.dictionaries().containsKey(order));
        ValueCompressor withoutIt = ValueCompressor.create(CompressionConfig.defaults(),
                DictionaryManager.given(new ArrayList<>(found.dictionaries().values())).build());
        byte[][] onEvent = written.get("event").stream().filter(v -> dictionaryValues(List.<byte[][]>of(v)) == 1
                && AdaptiveDictionaryReaderTest.frameId(v[1]) == event).findFirst().orElseThrow();
        assertThrows(MissingDictionaryException.class, () -> withoutIt.decompress(onEvent[1]));
        // an entry its store refuses is left out too, with the store's reason
        found = PatternDictionaries.published(n -> !n.equals("order:*") ? stores.get(n)
                : new Forwarding(stores.get(n)) {
                    @Override
                    public byte[] get(long id) {
                        if (id == order) {
                            throw new DictionaryEntryRefusedException(id, "larger than this store accepts");
                        }
                        return inner.get(id);
                    }
                });
        assertFalse(found.dictionaries().containsKey(order));
        assertTrue(found.leftOut().get(order).contains("lineage order:*'s store refuses its entry, "
                + stores.get("order:*").entryLocation(order) + ": ")
                && found.leftOut().get(order).contains("larger than this store accepts"), found.leftOut().toString());
        // and so is an entry cut short (a partial restore): it may still be a dictionary, of other content
        int listed = stores.get("order:*").get(order).length;
        found = PatternDictionaries.published(n -> !n.equals("order:*") ? stores.get(n)
                : new Forwarding(stores.get(n)) {
                    @Override
                    public byte[] get(long id) {
                        byte[] d = inner.get(id);
                        return id == order ? java.util.Arrays.copyOf(d, d.length - 1000) : d;
                    }
                });
        assertFalse(found.dictionaries().containsKey(order), "read with the cut entry");
        assertTrue(found.leftOut().get(order).contains("lists it with " + listed + " bytes but its entry, "
                + stores.get("order:*").entryLocation(order) + ", holds " + (listed - 1000)),
                found.leftOut().toString());
    }

    @Test
    void aReopenDelayLongerThanTheClockHoldsIsRefusedByName() {
        PatternDictionaries.Builder b = PatternDictionaries.builder(name -> new InMemoryDictionaryStore());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> b.reopenDelay(java.time.temporal.ChronoUnit.FOREVER.getDuration()));
        assertTrue(e.getMessage().startsWith("reopenDelay PT") && e.getMessage().contains("Long.MAX_VALUE ns"),
                e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> b.reopenDelay(Duration.ofSeconds(-1)));
        b.reopenDelay(DictionaryManager.LONGEST_DURATION).build().close(); // the longest is taken, and builds
    }

    @Test
    void onlyKeysUnderALineagesPrefixAreLineageKeys() {
        for (String name : List.of("event:*", PatternDictionaries.ID_CLAIMS, PatternDictionaries.lineageName("a{b}"))) {
            String prefix = PatternDictionaries.prefix(name);
            for (String key : List.of(prefix + "dict:7", prefix + "index", prefix + "seq")) {
                assertTrue(PatternDictionaries.isLineageKey(utf8(key)), key);
            }
        }
        for (String key : List.of(ServerDictionaryLayout.DEFAULT_PREFIX + "dict:7", "event:1",
                "zstd-java:dict:{zstd-java-dictionaries:event", "zstd-java:dict:{zstd-java-dictionaries:}", "")) {
            assertFalse(PatternDictionaries.isLineageKey(utf8(key)), key);
        }
    }

    @Test
    void lineageNamesAreSafeDistinctAndBounded() {
        assertEquals("user:*:cart", PatternDictionaries.lineageName("user:*:cart"));
        assertEquals("a%7Bb%7D%20%25", PatternDictionaries.lineageName("a{b} %"));
        assertNotEquals(PatternDictionaries.lineageName("a b"), PatternDictionaries.lineageName("a_b"));
        String longer = "x".repeat(300);
        String name = PatternDictionaries.lineageName(longer);
        assertEquals(PatternDictionaries.MAX_NAME_LENGTH, name.length());
        assertNotEquals(name, PatternDictionaries.lineageName(longer + "y"));
        String prefix = PatternDictionaries.prefix(PatternDictionaries.lineageName("user:{1}:*"));
        assertEquals(prefix, ServerDictionaryLayout.checkPrefix(prefix));
        assertEquals("zstd-java:dict:{zstd-java-dictionaries:user:%7B1%7D:*}:", prefix);
    }

    /**
     * close() while a lineage is being opened, its store function slow (a store connecting) and deaf to interrupts:
     * close waits for the opening, which then builds nothing, so no store of the lineage is used, no manager runs
     * and no lineage is open once close has returned.
     */
    @Test
    void closeWaitsForALineageBeingOpenedWhichThenUsesNothing() throws Exception {
        java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch proceed = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean closeReturned = new java.util.concurrent.atomic.AtomicBoolean();
        List<String> usedAfterClose = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.concurrent.atomic.AtomicReference<Thread> opener = new java.util.concurrent.atomic.AtomicReference<>();
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        PatternDictionaries pd = PatternDictionaries.builder(n -> {
            InMemoryDictionaryStore inner = stores.computeIfAbsent(n, x -> new InMemoryDictionaryStore());
            if (n.equals(PatternDictionaries.ID_CLAIMS)) {
                return inner;
            }
            opener.set(Thread.currentThread());
            asked.countDown();
            boolean done = false;
            while (!done) {
                try {
                    proceed.await();
                    done = true;
                } catch (InterruptedException e) {
                    // swallowed, as a client connecting may
                }
            }
            return new Forwarding(inner) {
                private void use(String call) {
                    if (closeReturned.get()) {
                        usedAfterClose.add(call + " on " + Thread.currentThread().getName());
                    }
                }

                @Override
                public List<DictionaryInfo> list() {
                    use("list");
                    return super.list();
                }

                @Override
                public byte[] get(long id) {
                    use("get");
                    return super.get(id);
                }

                @Override
                public long version() {
                    use("version");
                    return super.version();
                }

                @Override
                public AutoCloseable subscribe(Runnable onPublished) {
                    use("subscribe");
                    return inner.subscribe(onPublished);
                }

                @Override
                public boolean tryLease(String owner, Duration ttl) {
                    use("tryLease");
                    return inner.tryLease(owner, ttl);
                }
            };
        }).manager(b -> quick(b).notifications(true)).build();
        Thread closer = new Thread(() -> {
            pd.close();
            closeReturned.set(true);
        });
        boolean returnedWhileOpening;
        try {
            AdaptiveCompressor ac = compressor(pd);
            long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
            for (int i = 0; asked.getCount() > 0; i++) {
                assertTrue(System.nanoTime() < deadline, "the lineage was not opened");
                ac.compress(utf8("opening:" + i), RECORDS.get(i % RECORDS.size()));
            }
            closer.start();
            closer.join(300);
            returnedWhileOpening = closeReturned.get();
        } finally {
            proceed.countDown();
        }
        closer.join(10_000);
        assertFalse(closer.isAlive(), "close() did not return once the opening could end");
        assertFalse(opener.get().isAlive() && closeReturned.get(), opener.get() + " still runs after close()");
        // the opening's thread (the pattern dictionaries' own, which close() stopped) ends once the opening is over:
        // a manager that opening built would have read the store while being built
        opener.get().join(10_000);
        assertFalse(opener.get().isAlive(), opener.get() + " still runs after close() and the store function returned");
        assertEquals(List.of(), usedAfterClose, "the lineage's store used after close() returned");
        assertFalse(returnedWhileOpening, "close() returned while a lineage was still being opened");
        assertEquals(List.of(), pd.openPatterns());
        assertNull(pd.manager("opening:*"));
    }

    /** A store that passes every call to {@code inner}. */
    static class Forwarding implements DictionaryStore {
        final DictionaryStore inner;

        Forwarding(DictionaryStore inner) {
            this.inner = inner;
        }

        @Override
        public List<DictionaryInfo> list() {
            return inner.list();
        }

        @Override
        public byte[] get(long id) {
            return inner.get(id);
        }

        @Override
        public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
            return inner.putIfAbsent(id, dictionary);
        }

        @Override
        public long version() {
            return inner.version();
        }

        @Override
        public String entryLocation(long id) {
            return inner.entryLocation(id);
        }
    }

    /** A store that counts itself closed in {@code open}. */
    private static final class Closing extends Forwarding implements AutoCloseable {
        private final java.util.concurrent.atomic.AtomicInteger open;

        Closing(DictionaryStore inner, java.util.concurrent.atomic.AtomicInteger open) {
            super(inner);
            this.open = open;
        }

        @Override
        public void close() {
            open.decrementAndGet();
        }
    }

    /** A store in memory that cannot be listed ({@code unreadable}) or cannot be published in. */
    private static final class Failing extends Forwarding {
        private final boolean unreadable;

        Failing(boolean unreadable) {
            super(new InMemoryDictionaryStore());
            this.unreadable = unreadable;
        }

        @Override
        public List<DictionaryInfo> list() {
            if (unreadable) {
                throw new IllegalStateException("store down");
            }
            return inner.list();
        }

        @Override
        public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
            throw new IllegalStateException("store read-only");
        }
    }
}
