package dev.zstdjava.values;

import dev.zstdjava.zstd.ZstdDecompressor;
import dev.zstdjava.zstd.ZstdDictionary;
import dev.zstdjava.zstd.ZstdFrame;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static dev.zstdjava.testkit.TestValues.jsonRecords;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/** Dictionaries in the value compressor without a server: given, shared and managed modes on an in-memory store. */
class DictionaryManagerTest {
    static final List<byte[]> TRAIN = jsonRecords(3000, 1);
    static final List<byte[]> VALUES = jsonRecords(500, 2);
    static final byte[] DICT_A = ZstdDictionary.train(TRAIN.subList(0, 1500), 16 << 10).toByteArray();
    static final byte[] DICT_B = ZstdDictionary.train(TRAIN.subList(1500, 3000), 8 << 10).toByteArray();

    static long id(byte[] dict) {
        return ZstdDictionary.of(dict).id();
    }

    static long frameDictId(byte[] stored) {
        return ZstdFrame.dictionaryId(stored, 5, stored.length - 5);
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    @Test
    void givenDictionaryWritesGlideHeaderAndAStandardFrameNamingIt() {
        try (DictionaryManager dicts = DictionaryManager.given(DICT_A).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), dicts);
            ValueCompressor plain = ValueCompressor.create(CompressionConfig.defaults());
            long with = 0;
            long without = 0;
            long original = 0;
            try (ZstdDecompressor standard = ZstdDecompressor.builder()
                    .dictionary(ZstdDictionary.of(DICT_A).forDecompression()).build()) {
                for (byte[] v : VALUES) {
                    byte[] stored = vc.compress(v);
                    assertArrayEquals(new byte[] {0, 1, 2, 0, 1}, Arrays.copyOf(stored, 5));
                    assertEquals(id(DICT_A), frameDictId(stored));
                    // any zstd decoder holding the dictionary reads the payload
                    assertArrayEquals(v, standard.decompress(Arrays.copyOfRange(stored, 5, stored.length)));
                    assertArrayEquals(v, vc.decompress(stored));
                    with += stored.length;
                    without += plain.compress(v).length;
                    original += v.length;
                }
            }
            assertTrue(with < without * 0.7, "with dictionary " + with + " bytes, without " + without);
            DictionaryStats s = dicts.dictionaryStats().get(0);
            assertEquals(id(DICT_A), s.id());
            assertTrue(s.current());
            assertEquals(VALUES.size(), s.valuesWritten());
            assertEquals(original, s.originalBytes());
            assertEquals(original - with, s.bytesSaved());
            assertEquals(VALUES.size(), s.valuesRead());
            assertEquals(VALUES.size(), vc.stats().valuesCompressed());
        }
    }

    @Test
    void aDurationLongerThanTheClockHoldsIsRefusedByName() {
        // "never" as ChronoUnit.FOREVER: the retrain interval was taken, and overflowed the clock on the training
        // thread (ArithmeticException where it schedules its next lease); the load timeout likewise in build()
        Duration forever = java.time.temporal.ChronoUnit.FOREVER.getDuration();
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DictionaryManager.managed(store).retrainInterval(forever).build());
        assertTrue(e.getMessage().startsWith("retrainInterval " + forever + ": positive, at most"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> DictionaryManager.managed(store).loadTimeout(forever).build());
        assertTrue(e.getMessage().startsWith("loadTimeout "), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> DictionaryManager.managed(store).refreshInterval(forever).build());
        // the longest the clock holds is taken
        DictionaryManager.managed(store).retrainInterval(Duration.ofNanos(Long.MAX_VALUE)).build().close();
    }

    @Test
    void valuesBelowTheMinimumAndOtherBackendsAreWrittenAsWithoutDictionaries() {
        try (DictionaryManager dicts = DictionaryManager.given(DICT_A).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), dicts);
            byte[] small = Arrays.copyOf(VALUES.get(0), 63);
            assertSame(small, vc.compress(small));
            assertThrows(IllegalArgumentException.class, () -> ValueCompressor.create(
                    CompressionConfig.builder().backend(CompressionBackend.LZ4).build(), dicts));
            // values without a dictionary (written before, or by GLIDE) still read back
            byte[] old = ValueCompressor.create(CompressionConfig.defaults()).compress(text(1000));
            assertEquals(0, frameDictId(old));
            assertArrayEquals(text(1000), vc.decompress(old));
        }
    }

    @Test
    void theDecompressionLimitHoldsWithDictionaries() {
        try (DictionaryManager m = DictionaryManager.given(DICT_A).build()) {
            byte[] big = text(100_000);
            byte[] stored = ValueCompressor.create(CompressionConfig.defaults(), m).compress(big);
            assertEquals(id(DICT_A), frameDictId(stored));
            ValueCompressor limited = ValueCompressor.create(
                    CompressionConfig.builder().maxDecompressedSize(10_000).build(), m);
            assertThrows(dev.zstdjava.DecompressionLimitException.class, () -> limited.decompress(stored));
            assertEquals(1, limited.stats().sizeLimitErrors());
            assertArrayEquals(VALUES.get(0), limited.decompress(limited.compress(VALUES.get(0))));
        }
    }

    /** The dictionary path applies the same write rule: a value over the limit is stored as it is and reads back. */
    @Test
    void aValueOverTheLimitIsStoredAsItIsWithDictionaries() {
        try (DictionaryManager m = DictionaryManager.given(DICT_A).build()) {
            ValueCompressor limited = ValueCompressor.create(
                    CompressionConfig.builder().maxDecompressedSize(10_000).build(), m);
            byte[] over = text(10_001);
            byte[] stored = limited.compress(over);
            assertArrayEquals(over, limited.decompress(stored), "read back by the configuration that wrote it");
            assertSame(over, stored, "stored as it is");
            byte[] atLimit = text(10_000);
            byte[] compressed = limited.compress(atLimit);
            assertEquals(id(DICT_A), frameDictId(compressed), "a value of exactly the limit: with the dictionary");
            assertArrayEquals(atLimit, limited.decompress(compressed));
            assertEquals(1, limited.stats().skippedTooLarge());
            assertEquals(1, limited.stats().skipped());
        }
    }

    @Test
    void newestGivenCompressesAndAllDecompress() {
        byte[] storedA;
        try (DictionaryManager a = DictionaryManager.given(DICT_A).build()) {
            storedA = ValueCompressor.create(CompressionConfig.defaults(), a).compress(VALUES.get(1));
        }
        try (DictionaryManager ab = DictionaryManager.given(DICT_A, DICT_B).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), ab);
            byte[] storedB = vc.compress(VALUES.get(1));
            assertEquals(id(DICT_B), frameDictId(storedB));
            assertEquals(id(DICT_B), ab.currentId());
            assertArrayEquals(VALUES.get(1), vc.decompress(storedA));
            assertArrayEquals(VALUES.get(1), vc.decompress(storedB));
            assertEquals(List.of(id(DICT_A), id(DICT_B)), ab.published().stream().map(DictionaryInfo::id).toList());
        }
    }

    @Test
    void givenModeWithAStoreReadsPublishedDictionariesButCompressesWithTheGivenOne() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        store.putIfAbsent(id(DICT_A), DICT_A);
        store.putIfAbsent(id(DICT_B), DICT_B);
        byte[] storedB;
        try (DictionaryManager b = DictionaryManager.given(DICT_B).build()) {
            storedB = ValueCompressor.create(CompressionConfig.defaults(), b).compress(VALUES.get(6));
        }
        CountingChecks checked = new CountingChecks(store);
        try (DictionaryManager m = DictionaryManager.given(DICT_A).store(checked)
                .refreshInterval(Duration.ofMillis(20)).build()) {
            checked.awaitMore(3); // a few periodic checks
            assertEquals(id(DICT_A), m.currentId(), "the given dictionary compresses, also when the store lists it");
            assertTrue(m.isLoaded(id(DICT_B)));
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            assertEquals(id(DICT_A), frameDictId(vc.compress(VALUES.get(6))));
            assertArrayEquals(VALUES.get(6), vc.decompress(storedB));
        }
    }

    /**
     * An admission hook that adds a line for each id to {@code seen}: at build (before {@code built} is set), or
     * whether the manager in {@code built} already finds it, or which id it compresses with then.
     */
    private static java.util.function.Consumer<DictionaryManager.Entry> admissionsInto(
            List<String> seen, AtomicReference<DictionaryManager> built) {
        return e -> {
            DictionaryManager b = built.get();
            seen.add("admit " + e.id + (b == null ? " at build"
                    : b.isLoaded(e.id) ? " findable" : " current " + b.currentId()));
        };
    }

    /**
     * The admission hook sees each new id once, those loaded at build included, before the manager finds it or
     * compresses with it and before the listeners; never an entry that replaces one of its id (the given dictionary,
     * listed by the store).
     */
    @Test
    void theAdmissionHookSeesEachNewIdBeforeItIsFindableOrCurrent() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        store.putIfAbsent(id(DICT_A), DICT_A);
        AtomicReference<DictionaryManager> built = new AtomicReference<>();
        List<String> seen = new CopyOnWriteArrayList<>();
        CountingChecks checked = new CountingChecks(store);
        try (DictionaryManager m = DictionaryManager.given(DICT_A).store(checked)
                .refreshInterval(Duration.ofMillis(20)).admit(admissionsInto(seen, built))
                .build()) {
            built.set(m);
            m.onLoaded(id -> seen.add("loaded " + id));
            store.putIfAbsent(id(DICT_B), DICT_B);
            await("B loaded", () -> seen.contains("loaded " + id(DICT_B)));
            checked.awaitMore(3); // a few periodic checks more
            assertEquals(List.of("admit " + id(DICT_A) + " at build", "loaded " + id(DICT_A),
                    "admit " + id(DICT_B) + " current " + id(DICT_A), "loaded " + id(DICT_B)), seen);
        }
        seen.clear();
        built.set(null);
        try (DictionaryManager m = DictionaryManager.shared(store).refreshInterval(Duration.ofMillis(20))
                .admit(admissionsInto(seen, built))
                .build()) {
            built.set(m);
            assertEquals(id(DICT_B), m.currentId());
            byte[] dictC = ZstdDictionary.train(TRAIN.subList(0, 1000), 4 << 10).toByteArray();
            long idC = id(dictC);
            store.putIfAbsent(idC, dictC);
            await("C current", () -> m.currentId() == idC);
            assertEquals(List.of("admit " + id(DICT_A) + " at build", "admit " + id(DICT_B) + " at build",
                    "admit " + idC + " current " + id(DICT_B)), seen);
        }
    }

    @Test
    void aDictionaryFrameIsNeverReturnedAsStored() {
        byte[] stored;
        try (DictionaryManager a = DictionaryManager.given(DICT_A).build()) {
            stored = ValueCompressor.create(CompressionConfig.defaults(), a).compress(VALUES.get(2));
        }
        // a reader without dictionaries
        MissingDictionaryException e = assertThrows(MissingDictionaryException.class,
                () -> ValueCompressor.create(CompressionConfig.defaults()).decompress(stored));
        assertEquals(id(DICT_A), e.dictionaryId());
        assertTrue(e.getMessage().contains(Long.toString(id(DICT_A))), e.getMessage());
        // a reader with other dictionaries and no store
        try (DictionaryManager b = DictionaryManager.given(DICT_B).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), b);
            e = assertThrows(MissingDictionaryException.class, () -> vc.decompress(stored));
            assertTrue(e.getMessage().contains("no store"), e.getMessage());
            assertEquals(0, vc.stats().decompressionFailures());
        }
    }

    /** Records which threads read the store. */
    static final class WatchedStore implements DictionaryStore {
        final InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        final Set<String> threads = ConcurrentHashMap.newKeySet();

        @Override
        public List<DictionaryInfo> list() {
            threads.add(Thread.currentThread().getName());
            return inner.list();
        }

        @Override
        public byte[] get(long id) {
            threads.add(Thread.currentThread().getName());
            return inner.get(id);
        }

        final Set<String> publishers = ConcurrentHashMap.newKeySet();

        @Override
        public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
            publishers.add(Thread.currentThread().getName());
            return inner.putIfAbsent(id, dictionary);
        }

        @Override
        public long version() {
            return inner.version();
        }

        final AtomicInteger leases = new AtomicInteger();

        @Override
        public boolean tryLease(String owner, Duration ttl) {
            leases.incrementAndGet();
            return inner.tryLease(owner, ttl);
        }
    }

    @Test
    void missingDictionaryIsFetchedOnTheManagersThreadAndTheNextReadSucceeds() throws Exception {
        WatchedStore store = new WatchedStore();
        // a long refresh interval: only the missing value can make the reader look again
        try (DictionaryManager reader = DictionaryManager.shared(store).refreshInterval(Duration.ofHours(1)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), reader);
            assertEquals(0, reader.currentId());
            byte[] stored;
            try (DictionaryManager writer = DictionaryManager.given(DICT_A).build()) {
                stored = ValueCompressor.create(CompressionConfig.defaults(), writer).compress(VALUES.get(3));
            }
            store.inner.putIfAbsent(id(DICT_A), DICT_A);
            store.threads.clear();
            MissingDictionaryException e = assertThrows(MissingDictionaryException.class, () -> vc.decompress(stored));
            assertEquals(id(DICT_A), e.dictionaryId());
            await("the dictionary to load", () -> reader.isLoaded(id(DICT_A)));
            assertArrayEquals(VALUES.get(3), vc.decompress(stored));
            assertEquals(Set.of("zstd-java-dictionaries"), store.threads);
            // shared mode: the newest published compresses
            assertEquals(id(DICT_A), reader.currentId());
            assertEquals(id(DICT_A), frameDictId(vc.compress(VALUES.get(4))));
        }
    }

    @Test
    void loadsEverythingPublishedAtCreationAndPicksUpNewOnes() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        store.putIfAbsent(id(DICT_A), DICT_A);
        try (DictionaryManager m = DictionaryManager.shared(store).refreshInterval(Duration.ofMillis(50)).build()) {
            assertTrue(m.isLoaded(id(DICT_A)));
            assertEquals(id(DICT_A), m.currentId());
            DictionaryInfo b = store.putIfAbsent(id(DICT_B), DICT_B);
            assertEquals(2, b.sequence());
            assertEquals(DICT_B.length, b.size());
            await("the newer dictionary to become current", () -> m.currentId() == id(DICT_B));
            // write-once: the same bytes again are fine, other bytes under a taken id are refused
            assertEquals(b, store.putIfAbsent(id(DICT_B), DICT_B));
            byte[] other = DICT_A.clone();
            System.arraycopy(DICT_B, 4, other, 4, 4);
            assertThrows(DictionaryCollisionException.class, () -> store.putIfAbsent(id(DICT_B), other));
            assertArrayEquals(DICT_B, store.get(id(DICT_B)));
        }
    }

    @Test
    void aPublicationAnnouncedByTheStoreArrivesBeforeTheNextCheck() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        AtomicInteger quietSubscriptions = new AtomicInteger();
        DictionaryStore quietStore = new AdaptivePatternDictionariesTest.Forwarding(store) {
            @Override
            public AutoCloseable subscribe(Runnable onPublished) {
                quietSubscriptions.incrementAndGet();
                return store.subscribe(onPublished);
            }
        };
        try (DictionaryManager m = DictionaryManager.shared(store).refreshInterval(Duration.ofHours(1)).build();
             DictionaryManager quiet = DictionaryManager.shared(quietStore).refreshInterval(Duration.ofHours(1))
                     .notifications(false).build()) {
            store.putIfAbsent(id(DICT_A), DICT_A);
            await("the announced dictionary", () -> m.currentId() == id(DICT_A));
            // a manager hears of publications only through a subscription, made while it is built: none here, so
            // only the periodic check (an hour away) would find the dictionary
            assertEquals(0, quietSubscriptions.get(), "subscribed with notifications(false)");
            assertEquals(0, quiet.currentId(), "without notifications only the periodic check would find it");
        }
    }

    /**
     * An index entry that understates its size (listed as 4 KiB, over 1 MiB stored): the store refuses it, as
     * LettuceDictionaryStore does; the manager rejects it once, lists it and never reads it again, while a transient
     * read failure of another entry is retried and not rejected.
     */
    @Test
    void anEntryTheStoreRefusesIsRejectedOnceAndNotReread() throws Exception {
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        inner.putIfAbsent(id(DICT_A), DICT_A);
        long liar = 4242;
        long flaky = id(DICT_B);
        java.util.concurrent.atomic.AtomicInteger liarReads = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicInteger flakyReads = new java.util.concurrent.atomic.AtomicInteger();
        java.util.concurrent.atomic.AtomicLong version = new java.util.concurrent.atomic.AtomicLong(1);
        DictionaryStore store = new DictionaryStore() {
            @Override
            public List<DictionaryInfo> list() {
                List<DictionaryInfo> l = new java.util.ArrayList<>(inner.list());
                l.add(new DictionaryInfo(liar, 10, 4096));
                l.add(new DictionaryInfo(flaky, 11, DICT_B.length));
                return l;
            }

            @Override
            public byte[] get(long id) {
                if (id == liar) {
                    liarReads.incrementAndGet();
                    throw new DictionaryEntryRefusedException(id, "entry holds 1100000 bytes, above the 1048576-byte"
                            + " limit; not read");
                }
                if (id == flaky && flakyReads.incrementAndGet() < 3) {
                    throw new IllegalStateException("connection reset (transient)");
                }
                return id == flaky ? DICT_B : inner.get(id);
            }

            @Override
            public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
                return inner.putIfAbsent(id, dictionary);
            }

            @Override
            public long version() {
                return version.incrementAndGet(); // changes every check: every check lists again
            }
        };
        try (DictionaryManager m = DictionaryManager.shared(store).refreshInterval(Duration.ofMillis(20)).build()) {
            await("the flaky entry to load after its retries", () -> m.isLoaded(flaky));
            assertTrue(flakyReads.get() >= 3, "a transient failure is retried");
            assertFalse(m.rejectedDictionaries().containsKey(flaky), "a transient failure is not a rejection");
            await("several more checks", () -> version.get() > 20);
            assertEquals(1, liarReads.get(), "the refused entry is read once, never again");
            assertTrue(m.rejectedDictionaries().get(liar).contains("1048576-byte limit"),
                    String.valueOf(m.rejectedDictionaries()));
            assertTrue(m.isLoaded(id(DICT_A)));
        }
    }

    @Test
    void corruptEntriesAreRejectedWithoutAffectingOthers() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        store.putIfAbsent(id(DICT_A), DICT_A);
        long badId = 77777;
        byte[] wrongId = DICT_B.clone(); // a real dictionary published under another id
        store.putUnchecked(badId, wrongId);
        store.putUnchecked(88888, "not a dictionary at all".getBytes());
        store.putUnchecked(99999, new byte[2 << 20]); // over the size limit
        try (DictionaryManager m = DictionaryManager.shared(store).build()) {
            assertTrue(m.isLoaded(id(DICT_A)));
            assertEquals(id(DICT_A), m.currentId(), "the newest valid entry compresses");
            assertEquals(Set.of(badId, 88888L, 99999L), m.rejectedDictionaries().keySet());
            assertTrue(m.rejectedDictionaries().get(99999L).contains("maxDictionarySize"));
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            for (byte[] v : VALUES.subList(0, 50)) {
                assertArrayEquals(v, vc.decompress(vc.compress(v)));
            }
        }
    }

    @Test
    void fuzzedDictionariesNeverCrashAndNeverBreakOtherValues() {
        List<byte[]> stored = new ArrayList<>();
        try (DictionaryManager a = DictionaryManager.given(DICT_B).build()) {
            ValueCompressor w = ValueCompressor.create(CompressionConfig.defaults(), a);
            for (byte[] v : VALUES.subList(0, 20)) {
                stored.add(w.compress(v));
            }
        }
        byte[] plainStored = ValueCompressor.create(CompressionConfig.defaults()).compress(text(2000));
        Random r = new Random(42);
        int loaded = 0;
        int refused = 0;
        for (int round = 0; round < 300; round++) {
            byte[] d = DICT_B.clone();
            int edits = 1 + r.nextInt(round % 3 == 0 ? 64 : 4);
            for (int i = 0; i < edits; i++) {
                int at = 8 + r.nextInt(Math.min(d.length - 8, round % 2 == 0 ? 400 : d.length - 8)); // tables first
                d[at] = (byte) r.nextInt(256);
            }
            if (round % 10 == 0) {
                d = Arrays.copyOf(d, 8 + r.nextInt(d.length - 8)); // truncated
            }
            InMemoryDictionaryStore store = new InMemoryDictionaryStore();
            store.putUnchecked(id(DICT_B), d);
            try (DictionaryManager m = DictionaryManager.shared(store).build()) {
                ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
                if (m.isLoaded(id(DICT_B))) {
                    loaded++;
                    for (byte[] s : stored) {
                        try {
                            vc.decompress(s); // garbage, an error, or the value: never a crash
                        } catch (RuntimeException expected) {
                            // a decoding error of this value only
                        }
                    }
                    byte[] v = VALUES.get(round % VALUES.size());
                    assertArrayEquals(v, vc.decompress(vc.compress(v)), "round trip with the mutated dictionary");
                } else {
                    refused++;
                    assertThrows(MissingDictionaryException.class, () -> vc.decompress(stored.get(0)));
                }
                assertArrayEquals(text(2000), vc.decompress(plainStored));
            }
        }
        assertTrue(loaded > 0 && refused > 0, "loaded " + loaded + ", refused " + refused);
    }

    @Test
    void managedModeTrainsChecksPublishesAndASecondClientUsesIt() throws Exception {
        WatchedStore watched = new WatchedStore();
        InMemoryDictionaryStore store = watched.inner;
        try (DictionaryManager m = DictionaryManager.managed(watched).minSamples(300)
                .retrainInterval(Duration.ofMinutes(10)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            List<byte[]> written = new ArrayList<>();
            for (byte[] v : TRAIN) {
                written.add(vc.compress(v));
            }
            // the store's listener can load the dictionary before the trainer records ADOPTED: wait for both
            await("a dictionary to be adopted", () -> m.currentId() != 0 && m.trainingStats().adopted() == 1);
            long id = m.currentId();
            TrainingStats t = m.trainingStats();
            assertEquals(1, t.trained());
            assertEquals(1, t.adopted());
            assertEquals(List.of(TrainingEvent.Kind.TRAINED, TrainingEvent.Kind.ADOPTED),
                    t.recent().stream().map(TrainingEvent::kind).toList());
            TrainingEvent adopted = t.recent().get(1);
            assertTrue(adopted.savedAfter() >= adopted.savedBefore() + 0.05, adopted.toString());
            assertEquals(List.of(id), store.list().stream().map(DictionaryInfo::id).toList());
            assertEquals(Set.of("zstd-java-dictionary-trainer"), watched.publishers, "trained and published off the"
                    + " writing thread");
            for (byte[] v : VALUES) {
                byte[] s = vc.compress(v);
                assertEquals(id, frameDictId(s));
                assertArrayEquals(v, vc.decompress(s));
            }
            for (int i = 0; i < TRAIN.size(); i++) { // written before the dictionary: still readable
                assertArrayEquals(TRAIN.get(i), vc.decompress(written.get(i)));
            }
            DictionaryStats s = m.dictionaryStats().get(0);
            assertEquals(VALUES.size(), s.valuesWritten());
            assertTrue(s.savedFraction() > 0.45, "saved " + s.savedFraction());
            // a second client of the same store loads it at creation and compresses with it
            try (DictionaryManager second = DictionaryManager.shared(store).build()) {
                ValueCompressor vc2 = ValueCompressor.create(CompressionConfig.defaults(), second);
                assertEquals(id, frameDictId(vc2.compress(VALUES.get(0))));
                assertArrayEquals(VALUES.get(0), vc2.decompress(vc.compress(VALUES.get(0))));
            }
        }
    }

    /**
     * Trains a managed manager with {@code settings} on {@link #TRAIN}, expecting its dictionary rejected: nothing
     * published, none in use. @return the rejection
     */
    static TrainingEvent rejectedTraining(java.util.function.UnaryOperator<DictionaryManager.Builder> settings)
            throws InterruptedException {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        try (DictionaryManager m = settings.apply(DictionaryManager.managed(store).minSamples(300)
                .retrainInterval(Duration.ofMinutes(10))).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            TRAIN.forEach(vc::compress);
            await("a training to finish", () -> m.trainingStats().rejected() == 1);
            TrainingEvent e = m.trainingStats().recent().get(1);
            assertEquals(TrainingEvent.Kind.REJECTED, e.kind());
            assertEquals(0, m.currentId());
            assertEquals(0, m.trainingStats().adopted());
            assertTrue(store.list().isEmpty());
            return e;
        }
    }

    @Test
    void aDictionaryThatDoesNotSaveEnoughMoreIsRejectedWithTheReason() throws Exception {
        TrainingEvent e = rejectedTraining(b -> b.minImprovement(0.99));
        assertTrue(e.reason().contains("needs +99.0"), e.reason());
    }

    @Test
    void aDictionaryIsCheckedOnValuesItWasNotTrainedOn() throws Exception {
        // 30 random tokens, each written 10 times: a dictionary holds some of them whole, and a check on copies of
        // its training samples would credit it with saving most of them; on the other tokens it saves nothing
        Random r = new Random(7);
        List<byte[]> tokens = new ArrayList<>();
        for (int i = 0; i < 30; i++) {
            byte[] t = new byte[1000];
            r.nextBytes(t);
            tokens.add(t);
        }
        List<byte[]> writes = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            writes.addAll(tokens);
        }
        java.util.Collections.shuffle(writes, r);
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        try (DictionaryManager m = DictionaryManager.managed(store).minSamples(300)
                .retrainInterval(Duration.ofMinutes(10)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            writes.forEach(vc::compress);
            List<TrainingEvent> t = trainedAndRejected(m);
            TrainingEvent trained = t.get(0);
            assertTrue(trained.reason().endsWith("(30 distinct values in all)"), trained.reason());
            TrainingEvent e = t.get(1);
            assertTrue(e.savedAfter() < 0.01, "saved on tokens it was not trained on: " + e);
            assertTrue(e.reason().contains("needs +5.0"), e.reason());
            assertEquals(0, m.currentId());
            assertTrue(store.list().isEmpty());
        }
    }

    @Test
    void aLongValueIsCheckedWhole() throws Exception {
        // values of 16 KiB sampled 4 KiB each: the same 512 bytes open every value, random bytes follow. A dictionary
        // holding the 512 bytes saves an eighth of each sample, but only a 32nd of each value as stored
        Random r = new Random(11);
        byte[] head = new byte[512];
        r.nextBytes(head);
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        try (DictionaryManager m = DictionaryManager.managed(store).minSamples(200)
                .sampling(400, 4096, 4L << 20, 1L << 30).retrainInterval(Duration.ofMinutes(10)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            for (int i = 0; i < 300; i++) {
                byte[] v = new byte[16 << 10];
                r.nextBytes(v);
                System.arraycopy(head, 0, v, 0, head.length);
                vc.compress(v);
            }
            List<TrainingEvent> t = trainedAndRejected(m);
            TrainingEvent trained = t.get(0);
            assertTrue(trained.reason().contains("are longer than the 4096 bytes sampled of a value, and count whole"),
                    trained.reason());
            TrainingEvent e = t.get(1);
            double gain = e.savedAfter() - e.savedBefore();
            // the head over the whole value: 512 / 16384 = 3.1 points (an eighth, 12.5, on the samples)
            assertTrue(gain > 0.02 && gain < 0.04, "gain over whole values: " + e);
            assertTrue(e.reason().contains("needs +5.0"), e.reason());
            assertEquals(0, m.currentId());
            assertTrue(store.list().isEmpty());
        }
    }

    @Test
    void theRestOfALongValueCompressesAsItsSampleDoes() {
        List<Sampler.Sample> samples = List.of(new Sampler.Sample(new byte[100], 400),
                new Sampler.Sample(new byte[100], 100));
        // the first: 50 bytes before, 30 after, its other 300 bytes counted at the sample's 50 per 100 either way
        double[] saved = Trainer.wholeValueFractions(samples, new long[] {50, 100}, new long[] {30, 40});
        assertEquals(1 - (50 + 150 + 100) / 500.0, saved[0], 1e-12);
        assertEquals(1 - (30 + 150 + 40) / 500.0, saved[1], 1e-12);
        assertArrayEquals(new double[] {0, 0}, Trainer.wholeValueFractions(List.of(), new long[0], new long[0]));
    }

    /** Waits for {@code m}'s first training to end; asserts it was trained and rejected; returns those two events. */
    private static List<TrainingEvent> trainedAndRejected(DictionaryManager m) throws Exception {
        await("a training to finish", () -> m.trainingStats().rejected() + m.trainingStats().adopted()
                + m.trainingStats().failed() == 1);
        List<TrainingEvent> recent = m.trainingStats().recent();
        assertEquals(List.of(TrainingEvent.Kind.TRAINED, TrainingEvent.Kind.REJECTED),
                recent.stream().map(TrainingEvent::kind).toList(), recent.toString());
        return recent;
    }

    @Test
    void theCheckSplitsDistinctValuesNotSamples() {
        Random r = new Random(3);
        List<byte[]> samples = new ArrayList<>();
        for (int v = 0; v < 50; v++) {
            for (int copy = 0; copy <= v % 7; copy++) {
                samples.add(("value " + v).getBytes(StandardCharsets.UTF_8)); // separate arrays, equal contents
            }
        }
        for (int round = 0; round < 20; round++) {
            HeldOut.Split<byte[]> split = HeldOut.split(samples, java.nio.ByteBuffer::wrap, samples.size() / 5,
                    new Random(round));
            assertEquals(50, split.distinct());
            assertEquals(samples.size(), split.heldOut().size() + split.train().size());
            Set<String> held = new java.util.HashSet<>();
            split.heldOut().forEach(b -> held.add(new String(b, StandardCharsets.UTF_8)));
            for (byte[] b : split.train()) {
                assertFalse(held.contains(new String(b, StandardCharsets.UTF_8)), "on both sides: "
                        + new String(b, StandardCharsets.UTF_8));
            }
            // a fifth of the samples, overshooting by less than the copies of one value (at most 7)
            int fifth = samples.size() / 5;
            assertTrue(split.heldOut().size() >= fifth && split.heldOut().size() < fifth + 7,
                    split.heldOut().size() + " of " + samples.size());
        }
        // one distinct value: nothing is left to train on
        List<byte[]> same = java.util.Collections.nCopies(100, new byte[] {1, 2, 3});
        HeldOut.Split<byte[]> one = HeldOut.split(same, java.nio.ByteBuffer::wrap, 20, r);
        assertEquals(1, one.distinct());
        assertEquals(100, one.heldOut().size());
        assertTrue(one.train().isEmpty());
        assertEquals("hold out 0 of 100 items: 1 to 100", assertThrows(IllegalArgumentException.class,
                () -> HeldOut.split(same, java.nio.ByteBuffer::wrap, 0, r)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> HeldOut.split(same, java.nio.ByteBuffer::wrap, 101, r));
    }

    @Test
    void aDictionaryThePublishCheckRefusesIsRejectedWithItsReasonAndNotPublished() throws Exception {
        List<Long> asked = new java.util.concurrent.CopyOnWriteArrayList<>();
        TrainingEvent e = rejectedTraining(b -> b.publishCheck((id, bytes) -> {
            asked.add(ZstdDictionary.of(bytes).id() == id ? id : -1); // -1: not its own bytes
            return "dictionary id " + id + " is held by the test";
        }));
        assertEquals(List.of(e.dictionaryId()), asked, "asked once, for the dictionary it would have adopted");
        assertTrue(e.savedAfter() >= e.savedBefore() + 0.05, "it saved enough to be adopted: " + e);
        assertTrue(e.reason().startsWith("dictionary id " + e.dictionaryId() + " is held by the test; not"
                + " published"), e.reason());
    }

    @Test
    void aClientThatTrainedAsksForTheLeaseAgainOnlyWhenTheIntervalEnds() throws Exception {
        WatchedStore store = new WatchedStore();
        // every dictionary is refused, so the manager samples again at once and has the samples for another training
        // long before the interval (3 s) ends: it must not ask the store for the lease it holds in the meantime
        try (DictionaryManager m = DictionaryManager.managed(store).minSamples(300).minImprovement(0.99)
                .retrainInterval(Duration.ofSeconds(3)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (m.trainingStats().rejected() < 2) {
                assertTrue(System.nanoTime() < deadline, "no second training: " + m.trainingStats());
                TRAIN.subList(0, 300).forEach(vc::compress);
                Thread.sleep(50);
            }
            TrainingStats t = m.trainingStats();
            assertEquals(2, store.leases.get(), "lease requests for two trainings 3 s apart: " + t);
            List<TrainingEvent> trained = t.recent().stream().filter(e -> e.kind() == TrainingEvent.Kind.TRAINED)
                    .toList();
            assertEquals(2, trained.size(), t.toString());
            Duration apart = Duration.between(trained.get(0).time(), trained.get(1).time());
            // the interval runs from the lease, the events are stamped at each training's end: a slow first training
            // brings them closer; asking again at once (the fault) put them about one training apart
            assertTrue(apart.compareTo(Duration.ofMillis(2000)) >= 0, "trainings (their ends) " + apart + " apart");
        }
    }

    @Test
    void oneTrainerAtATimeAcrossClientsOfAStore() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        try (DictionaryManager a = DictionaryManager.managed(store).minSamples(300)
                .refreshInterval(Duration.ofMillis(50)).retrainInterval(Duration.ofMinutes(10)).build();
             DictionaryManager b = DictionaryManager.managed(store).minSamples(300)
                     .refreshInterval(Duration.ofMillis(50)).retrainInterval(Duration.ofMinutes(10)).build()) {
            ValueCompressor va = ValueCompressor.create(CompressionConfig.defaults(), a);
            ValueCompressor vb = ValueCompressor.create(CompressionConfig.defaults(), b);
            for (byte[] v : TRAIN) {
                va.compress(v);
                vb.compress(v);
            }
            await("a dictionary", () -> a.currentId() != 0 && b.currentId() != 0);
            Thread.sleep(500);
            assertEquals(1, a.trainingStats().trained() + b.trainingStats().trained());
            assertEquals(1, store.list().size());
            assertEquals(a.currentId(), b.currentId());
        }
    }

    /**
     * Clients that lost the race for the lease to a client whose dictionary they now use do not train in turn, one
     * per interval, on values that have not drifted (each kept a full reservoir until its turn came); they go back
     * to watching their own drift.
     */
    @Test
    void clientsThatLostTheLeaseDoNotTrainInTurnWithoutDrift() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        List<DictionaryManager> managers = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                managers.add(DictionaryManager.managed(store).minSamples(300).refreshInterval(Duration.ofMillis(50))
                        .retrainInterval(Duration.ofSeconds(3)).build());
            }
            List<ValueCompressor> writers = managers.stream()
                    .map(m -> ValueCompressor.create(CompressionConfig.defaults(), m)).toList();
            // the same values all along: no drift; two intervals, in the second of which a loser's turn at the lease
            // comes. The lease lasts the interval, three times the losers' 1 s wait before they ask again, so that a
            // loser does not take an expired lease while the winner's dictionary is still on its way (a slow machine)
            long end = System.nanoTime() + Duration.ofMillis(6500).toNanos();
            while (System.nanoTime() < end) {
                for (byte[] v : TRAIN.subList(0, 1000)) {
                    writers.forEach(w -> w.compress(v));
                }
                Thread.sleep(50);
            }
            long trained = managers.stream().mapToLong(m -> m.trainingStats().trained()).sum();
            assertEquals(1, trained, "trainings without drift: " + managers.stream()
                    .map(m -> m.trainingStats().recent().toString()).toList());
            assertEquals(1, store.list().size());
            for (DictionaryManager m : managers) {
                assertEquals(store.list().get(0).id(), m.currentId());
                // emptied (a write under way as sampling stopped may leave one sample): no reservoir is kept
                assertTrue(m.trainingStats().samples() < 10, "a reservoir kept: " + m.trainingStats());
            }
        } finally {
            managers.forEach(DictionaryManager::close);
        }
    }

    /**
     * A store entry shorter (or longer) than the store lists it, as a cut-short restore or an overwrite leaves it: such
     * bytes can still be a dictionary that digests and round-trips a probe, yet decode the values of the published
     * one to wrong bytes. It is rejected, naming both sizes; its values fail as missing their dictionary.
     */
    @Test
    void anEntryOfAnotherSizeThanListedIsRejectedNotReadWithWrongBytes() throws Exception {
        long id = id(DICT_A);
        List<byte[]> stored = new ArrayList<>();
        try (DictionaryManager w = DictionaryManager.given(DICT_A).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), w);
            VALUES.subList(0, 50).forEach(v -> stored.add(vc.compress(v)));
        }
        byte[] cut = Arrays.copyOf(DICT_A, DICT_A.length - 3000); // the tables whole, the content cut short
        DictionaryStore store = new DictionaryStore() {
            @Override
            public List<DictionaryInfo> list() {
                return List.of(new DictionaryInfo(id, 1, DICT_A.length));
            }

            @Override
            public byte[] get(long i) {
                return i == id ? cut.clone() : null;
            }

            @Override
            public DictionaryInfo putIfAbsent(long i, byte[] dictionary) {
                throw new UnsupportedOperationException();
            }

            @Override
            public long version() {
                return 1;
            }
        };
        try (DictionaryManager m = DictionaryManager.shared(store).build()) {
            assertFalse(m.isLoaded(id));
            String why = m.rejectedDictionaries().get(id);
            assertNotNull(why, "not rejected: " + m.rejectedDictionaries());
            assertTrue(why.contains("lists it with " + DICT_A.length + " bytes but its entry holds " + cut.length),
                    why);
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            for (int i = 0; i < stored.size(); i++) {
                int at = i;
                MissingDictionaryException e = assertThrows(MissingDictionaryException.class,
                        () -> vc.decompress(stored.get(at)), "value " + i + " read with the cut entry");
                assertEquals(id, e.dictionaryId());
                assertTrue(e.getMessage().contains("rejected"), e.getMessage());
            }
        }
    }

    /** Records of another shape than {@link #TRAIN}'s: what an application writing new data looks like. */
    static List<byte[]> otherRecords(int n, long seed) {
        Random r = new Random(seed);
        List<byte[]> out = new ArrayList<>(n);
        String[] langs = {"en", "fr", "de", "ja", "pt"};
        for (int i = 0; i < n; i++) {
            out.add(("<user login=\"u" + Long.toString(r.nextLong() & 0xffffffffL, 36) + "\" followers=\""
                    + r.nextInt(100000) + "\" lang=\"" + langs[r.nextInt(langs.length)] + "\" verified=\""
                    + r.nextBoolean() + "\"><bio>Writes about " + (r.nextBoolean() ? "databases" : "compilers")
                    + " and " + (r.nextBoolean() ? "cycling" : "gardening") + " since " + (1990 + r.nextInt(35))
                    + "</bio><location>" + (r.nextBoolean() ? "Berlin, Germany" : "Porto, Portugal")
                    + "</location></user>").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        }
        return out;
    }

    @Test
    void driftToOtherValuesRetrainsAfterTheInterval() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        try (DictionaryManager m = DictionaryManager.managed(store).minSamples(300)
                .retrainInterval(Duration.ofMillis(500)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            TRAIN.forEach(vc::compress);
            await("a first dictionary", () -> m.currentId() != 0);
            long first = m.currentId();
            // more of the same values: the baseline window, no drift
            for (int round = 0; round < 3; round++) {
                TRAIN.forEach(vc::compress);
                Thread.sleep(250);
            }
            assertEquals(first, m.currentId());
            assertEquals(1, m.trainingStats().trained());
            // the application now writes other values: the saved fraction falls, a new dictionary is trained
            List<byte[]> other = otherRecords(3000, 9);
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            while (m.currentId() == first) {
                assertTrue(System.nanoTime() < deadline, "no retraining after drift: " + m.trainingStats());
                other.forEach(vc::compress);
                Thread.sleep(100);
            }
            // the new dictionary can be loaded (through the store's notification) before the trainer thread counts
            // its adoption: wait for the count, then check it is exactly the second adoption
            await("the adoption counted", () -> m.trainingStats().adopted() >= 2);
            TrainingStats t = m.trainingStats();
            assertEquals(2, t.adopted(), t.toString());
            TrainingEvent last = t.recent().get(t.recent().size() - 1);
            assertEquals(TrainingEvent.Kind.ADOPTED, last.kind());
            assertEquals(m.currentId(), last.dictionaryId());
            assertTrue(last.savedAfter() >= last.savedBefore() + 0.05, "adopted over the first dictionary: " + last);
            // values of both shapes keep reading back
            byte[] a = TRAIN.get(0);
            byte[] b = other.get(0);
            assertArrayEquals(a, vc.decompress(vc.compress(a)));
            assertArrayEquals(b, vc.decompress(vc.compress(b)));
            assertEquals(2, m.dictionaryStats().size());
        }
    }

    @Test
    void theSamplesStandForTheValuesWhateverTheirSize() {
        // half the values 100 B, half 8 KiB, far more than the byte bound holds: refusing a value too large for what
        // was left of the bound kept mostly the small ones
        Sampler s = new Sampler(4000, 2 << 20, 8192, 1L << 40);
        s.collecting(true);
        byte[] small = text(100);
        byte[] large = text(8192);
        for (int i = 0; i < 40_000; i++) {
            s.offer(java.lang.foreign.MemorySegment.ofArray(i % 2 == 0 ? small : large));
        }
        List<Sampler.Sample> held = s.samples();
        long larges = held.stream().filter(x -> x.length() == 8192).count();
        // about 500 held (2 MiB of samples averaging 4.1 KiB), half of them large: 0.5 +- 0.022 by chance
        assertTrue(held.size() > 300 && held.size() < 800, held.size() + " held");
        assertEquals(held.size(), s.limit(), "the byte bound sets how many are kept");
        assertTrue(s.bytes() <= 2 << 20, s.bytes() + " bytes");
        double share = (double) larges / held.size();
        assertTrue(share > 0.4 && share < 0.6, "share of the large values held: " + share + " of " + held.size());
        s.reset();
        assertEquals(4000, s.limit());
        assertEquals(0, s.size());
    }

    @Test
    void aLongPauseRefillsTheByteBudgetOnce() {
        long mib = 1 << 20;
        long hours3 = java.util.concurrent.TimeUnit.HOURS.toNanos(3);
        // the pause times the rate was past Long.MAX_VALUE: the budget came out some 7 GB in debt, hours to repay
        assertEquals(mib, Sampler.refill(0, hours3, mib));
        assertEquals(mib, Sampler.refill(-5000, hours3, mib));
        assertEquals(mib / 2, Sampler.refill(0, 500_000_000L, mib));
        assertEquals(-4000, Sampler.refill(-5000, 1_000_000L, 1_000_000L));
        assertEquals(Long.MAX_VALUE, Sampler.refill(0, hours3, Long.MAX_VALUE));
        assertEquals(100, Sampler.refill(100, -1, mib), "a clock read out of order refills nothing");
    }

    @Test
    void valuesLongerThanTheBoundAllowsForMinSamplesStillTrain() throws Exception {
        // values of some 20 KiB, sampled 16 KiB each, 1 MiB in all: the reservoir holds 64 of them, never the 1000
        // minSamples asks for, and so never trained; it trains on what its byte bound holds
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        try (DictionaryManager m = DictionaryManager.managed(store).sampling(4000, 16 << 10, 1 << 20, 1L << 30)
                .retrainInterval(Duration.ofMinutes(10)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            for (int i = 0; i < 300; i++) {
                vc.compress(String.join("\n", jsonRecords(100, i).stream()
                        .map(b -> new String(b, StandardCharsets.US_ASCII)).toList()).getBytes(StandardCharsets.US_ASCII));
            }
            await("a training to finish", () -> m.trainingStats().rejected() + m.trainingStats().adopted()
                    + m.trainingStats().failed() == 1);
            TrainingEvent trained = m.trainingStats().recent().get(0);
            assertEquals(TrainingEvent.Kind.TRAINED, trained.kind(), m.trainingStats().recent().toString());
            assertTrue(trained.samples() >= 60 && trained.samples() <= 64, trained.toString());
        }
    }

    @Test
    void samplingIsBoundedInCountBytesAndRate() {
        Sampler s = new Sampler(100, 10_000, 500, 1_000_000_000L);
        s.collecting(true);
        for (int i = 0; i < 10_000; i++) {
            s.offer(java.lang.foreign.MemorySegment.ofArray(text(50 + i % 2000)));
        }
        assertTrue(s.size() <= 100, "held " + s.size());
        assertTrue(s.bytes() <= 10_000, "bytes " + s.bytes());
        assertTrue(s.samples().stream().allMatch(x -> x.bytes().length == Math.min(500, x.length())),
                s.samples().toString());
        // a longer value: its first 500 bytes, with its whole length
        Sampler one = new Sampler(10, 10_000, 500, 1_000_000_000L);
        one.collecting(true);
        byte[] longer = text(2000);
        one.offer(java.lang.foreign.MemorySegment.ofArray(longer));
        assertEquals(1, one.samples().size());
        assertArrayEquals(Arrays.copyOf(longer, 500), one.samples().get(0).bytes());
        assertEquals(2000, one.samples().get(0).length());
        // 1000 bytes per second: a second's worth at first, then what the time passed refills, and at most one
        // sample (100 bytes) of debt; the time is measured, so a slow machine only allows more
        long start = System.nanoTime();
        Sampler slow = new Sampler(1000, 1 << 20, 1000, 1000);
        slow.collecting(true);
        for (int i = 0; i < 1000; i++) {
            slow.offer(java.lang.foreign.MemorySegment.ofArray(text(100)));
        }
        long elapsedMs = java.util.concurrent.TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start) + 1;
        assertTrue(slow.bytes() <= 1100 + elapsedMs, "copied " + slow.bytes() + " bytes of 100,000 offered in "
                + elapsedMs + " ms at 1000 bytes per second");
    }

    /**
     * A store over {@code inner} that counts the calls of {@code version()}: its managers' periodic checks (each asks
     * for the version first) and their refreshes, which ask for it too; it passes the subscriptions on.
     */
    static final class CountingChecks extends AdaptivePatternDictionariesTest.Forwarding {
        final AtomicInteger checks = new AtomicInteger();

        CountingChecks(DictionaryStore inner) {
            super(inner);
        }

        @Override
        public long version() {
            checks.incrementAndGet();
            return super.version();
        }

        @Override
        public AutoCloseable subscribe(Runnable onPublished) {
            return inner.subscribe(onPublished);
        }

        /**
         * Waits until {@code n} more checks or refreshes began: the manager's one io thread runs its checks and
         * refreshes in turn, so every check before the last of them, and what it found, is over (a refresh may also
         * run on the trainer's thread).
         */
        void awaitMore(int n) throws InterruptedException {
            int target = checks.get() + n;
            await(n + " more checks or refreshes of the store", () -> checks.get() >= target);
        }
    }

    /** A store over {@code inner} whose reads can be made to fail, and whose subscription can be made to hang. */
    static class Flaky implements DictionaryStore {
        final InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        final java.util.concurrent.atomic.AtomicBoolean failReads = new java.util.concurrent.atomic.AtomicBoolean();
        /** set once a publication succeeded: reads fail from then on (until cleared) */
        volatile boolean failReadsAfterPublication;
        final AtomicInteger failedReads = new AtomicInteger();

        private void read() {
            if (failReads.get()) {
                failedReads.incrementAndGet();
                throw new IllegalStateException("the store cannot be read (test)");
            }
        }

        @Override
        public List<DictionaryInfo> list() {
            read();
            return inner.list();
        }

        @Override
        public byte[] get(long id) {
            read();
            return inner.get(id);
        }

        @Override
        public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
            DictionaryInfo i = inner.putIfAbsent(id, dictionary);
            if (failReadsAfterPublication) {
                failReads.set(true);
            }
            return i;
        }

        @Override
        public long version() {
            return inner.version();
        }

        @Override
        public boolean tryLease(String owner, Duration ttl) {
            return inner.tryLease(owner, ttl);
        }
    }

    /**
     * The publication succeeds, then loading it back fails (the store cannot be read for a while): the adoption
     * stands, no training is recorded as failed after it, the event says the dictionary is not loaded yet and why,
     * and the store's next check loads it.
     */
    @Test
    void aFailedLoadAfterThePublicationKeepsTheAdoptionAndIsNoFailedTraining() throws Exception {
        Flaky store = new Flaky();
        store.failReadsAfterPublication = true;
        try (DictionaryManager m = DictionaryManager.managed(store).minSamples(300).notifications(false)
                .refreshInterval(Duration.ofMillis(100)).retrainInterval(Duration.ofMinutes(10)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            TRAIN.forEach(vc::compress);
            await("the publication and a failed read after it", () -> !store.inner.list().isEmpty()
                    && store.failedReads.get() > 0 && m.trainingStats().recent().size() >= 2);
            Thread.sleep(300); // an event recorded after the adoption (the old code's FAILED) comes at once
            TrainingStats t = m.trainingStats();
            assertEquals(List.of(TrainingEvent.Kind.TRAINED, TrainingEvent.Kind.ADOPTED),
                    t.recent().stream().map(TrainingEvent::kind).toList(), t.recent().toString());
            assertEquals(0, t.failed(), t.toString());
            TrainingEvent adopted = t.recent().get(1);
            long id = store.inner.list().get(0).id();
            assertEquals(id, adopted.dictionaryId());
            assertTrue(adopted.reason().contains("the store cannot be read (test)")
                    && adopted.reason().contains("next check"), adopted.reason());
            assertEquals(0, m.currentId(), "not loaded while the store cannot be read");
            store.failReads.set(false);
            await("the store's next check to load the published dictionary", () -> m.currentId() == id);
            assertEquals(0, m.trainingStats().failed());
        }
    }

    /**
     * Subscribing to the store's announcements hangs (and ignores interrupts, as a client stuck connecting may):
     * build() still returns (in under 3 s, ten times its load timeout: only a build waiting for the subscription far
     * past that timeout fails), with every published dictionary loaded; once the subscription is made at last, the
     * periodic check finds new ones, and close() ends it.
     */
    @Test
    void buildReturnsWhileSubscribingHangs() throws Exception {
        java.util.concurrent.CountDownLatch hang = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.atomic.AtomicBoolean ended = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean subscribed = new java.util.concurrent.atomic.AtomicBoolean();
        Flaky store = new Flaky() {
            @Override
            public AutoCloseable subscribe(Runnable onPublished) {
                subscribed.set(true);
                while (true) {
                    try {
                        hang.await();
                        return () -> ended.set(true);
                    } catch (InterruptedException e) {
                        // ignored, as a client stuck connecting may
                    }
                }
            }
        };
        store.inner.putIfAbsent(id(DICT_A), DICT_A);
        java.util.concurrent.ExecutorService builder = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            long start = System.nanoTime();
            java.util.concurrent.Future<DictionaryManager> f = builder.submit(() -> DictionaryManager.shared(store)
                    .loadTimeout(Duration.ofMillis(300)).refreshInterval(Duration.ofMillis(50)).build());
            DictionaryManager built;
            try {
                built = f.get(5, java.util.concurrent.TimeUnit.SECONDS);
            } catch (java.util.concurrent.TimeoutException e) {
                fail("build() has not returned 5 s after it began, with a load timeout of 300 ms (subscribing hangs)");
                return;
            }
            Duration took = Duration.ofNanos(System.nanoTime() - start);
            try (DictionaryManager m = built) {
                assertTrue(subscribed.get(), "the test did not make subscribing hang");
                assertTrue(took.compareTo(Duration.ofMillis(3000)) < 0, "build() took " + took
                        + " (load timeout 300 ms)");
                assertEquals(id(DICT_A), m.currentId(), "published dictionaries are loaded when build() returns");
                hang.countDown(); // the subscription is made at last: kept, and ended by close()
                store.inner.putIfAbsent(id(DICT_B), DICT_B);
                await("the periodic check to load a new dictionary", () -> m.currentId() == id(DICT_B));
                assertFalse(ended.get());
            }
            assertTrue(ended.get(), "the subscription made after build() returned is ended by close()");
        } finally {
            hang.countDown();
            builder.shutdownNow();
        }
    }

    /**
     * After close(): its threads (the io thread that read the store, the trainer thread that published) have ended
     * when it returns, a training does not publish, and every method answers or fails with a clear exception, never
     * a NullPointerException or a hang.
     */
    @Test
    void afterCloseItsThreadsHaveEndedAndEveryMethodAnswersOrFailsClearly() throws Exception {
        Set<Thread> used = ConcurrentHashMap.newKeySet();
        Flaky store = new Flaky() {
            @Override
            public List<DictionaryInfo> list() {
                used.add(Thread.currentThread());
                return super.list();
            }

            @Override
            public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
                used.add(Thread.currentThread());
                return super.putIfAbsent(id, dictionary);
            }
        };
        DictionaryManager m = DictionaryManager.managed(store).minSamples(300).refreshInterval(Duration.ofMillis(20))
                .retrainInterval(Duration.ofMinutes(10)).build();
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
        TRAIN.forEach(vc::compress);
        await("a dictionary", () -> m.currentId() != 0 && m.trainingStats().adopted() == 1);
        byte[] stored = vc.compress(VALUES.get(0));
        m.close();
        Set<String> names = new java.util.TreeSet<>();
        for (Thread t : used) {
            names.add(t.getName());
            assertFalse(t.isAlive() && t.getName().startsWith("zstd-java-dictionar"), t + " still runs after close()");
        }
        assertTrue(names.containsAll(Set.of("zstd-java-dictionaries", "zstd-java-dictionary-trainer")), names.toString());
        m.close(); // idempotent
        assertNotNull(m.trainingStats());
        assertNotNull(m.dictionaryStats());
        assertNotNull(m.rejectedDictionaries());
        assertEquals(1, m.published().size(), "the store, which the manager does not own, is still read");
        m.onLoaded(id -> { });
        assertNotNull(m.toString());
        // a compressor over a closed manager must not be used (documented); used anyway, it fails clearly or not at
        // all: a write has no NullPointerException, and a read of a value of its dictionary an IllegalStateException
        assertDoesNotThrow(() -> vc.compress(VALUES.get(1)));
        IllegalStateException read = assertThrows(IllegalStateException.class, () -> vc.decompress(stored));
        assertTrue(read.getMessage().contains("closed"), read.getMessage());
    }
}
