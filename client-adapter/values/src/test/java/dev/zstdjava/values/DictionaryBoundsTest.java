package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.zstdjava.values.DictionaryManagerTest.DICT_A;
import static dev.zstdjava.values.DictionaryManagerTest.DICT_B;
import static dev.zstdjava.values.DictionaryManagerTest.TRAIN;
import static dev.zstdjava.values.DictionaryManagerTest.VALUES;
import static dev.zstdjava.values.DictionaryManagerTest.frameDictId;
import static dev.zstdjava.values.DictionaryManagerTest.id;
import static org.junit.jupiter.api.Assertions.*;

/**
 * A manager's bounds against a store that lists more dictionaries than it should load, and its listeners' failures.
 */
class DictionaryBoundsTest {
    /** {@code DICT_B} with content appended to {@code size} bytes: still a zstd dictionary, of its id. */
    static byte[] grown(int size) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(size);
        out.writeBytes(DICT_B);
        for (int i = 0; out.size() < size; i++) {
            out.writeBytes(TRAIN.get(i % TRAIN.size()));
        }
        return java.util.Arrays.copyOf(out.toByteArray(), size);
    }

    /** {@code dictionary} with {@code id} in its header. */
    static byte[] withId(byte[] dictionary, long id) {
        byte[] d = dictionary.clone();
        MemorySegment.ofArray(d).set(ValueFormat.LE_INT, 4, (int) id);
        return d;
    }

    /** @return {@code n} copies of {@code dictionary} with ids from {@code firstId} on, each published in {@code store} */
    static List<byte[]> publish(InMemoryDictionaryStore store, byte[] dictionary, long firstId, int n) {
        List<byte[]> published = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            byte[] d = withId(dictionary, firstId + i);
            store.putIfAbsent(id(d), d);
            published.add(d);
        }
        return published;
    }

    /**
     * A store in memory that counts the entries read from it, and its listings and version reads; its entries can be
     * replaced for reads ({@link #replace}).
     */
    static final class CountingStore extends AdaptivePatternDictionariesTest.Forwarding {
        final AtomicInteger gets = new AtomicInteger();
        final AtomicInteger lists = new AtomicInteger();
        final AtomicInteger versions = new AtomicInteger();
        final java.util.Map<Long, AtomicInteger> getsById = new java.util.concurrent.ConcurrentHashMap<>();
        private final java.util.Map<Long, byte[]> replaced = new java.util.concurrent.ConcurrentHashMap<>();

        CountingStore(InMemoryDictionaryStore inner) {
            super(inner);
        }

        @Override
        public byte[] get(long id) {
            gets.incrementAndGet();
            getsById.computeIfAbsent(id, x -> new AtomicInteger()).incrementAndGet();
            byte[] r = replaced.get(id);
            return r != null ? r.clone() : super.get(id);
        }

        @Override
        public List<DictionaryInfo> list() {
            lists.incrementAndGet();
            return super.list();
        }

        @Override
        public long version() {
            versions.incrementAndGet();
            return super.version();
        }

        /** Reads of entry {@code id} give {@code bytes} from now on (an entry overwritten in the store). */
        void replace(long id, byte[] bytes) {
            replaced.put(id, bytes);
        }

        /** @return the calls so far: lists, version reads, entry reads */
        List<Integer> calls() {
            return List.of(lists.get(), versions.get(), gets.get());
        }
    }

    /** @return {@code value} compressed with {@code dictionary} (its frame names the dictionary) */
    static byte[] writtenWith(byte[] dictionary, byte[] value) {
        try (DictionaryManager m = DictionaryManager.given(dictionary).build()) {
            byte[] w = ValueCompressor.create(CompressionConfig.defaults(), m).compress(value);
            assertEquals(id(dictionary), frameDictId(w));
            return w;
        }
    }

    @Test
    void byDefaultAStoreListingMoreThan64MiBOfDictionariesLoadsOnlyTheNewestWithinIt() throws Exception {
        byte[] big = grown(256 << 10);
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        int listed = (int) (DictionaryManager.DEFAULT_MAX_LOADED_BYTES / each) + 8; // more than 64 MiB of them
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        List<byte[]> published = new ArrayList<>();
        for (int i = 0; i < listed; i++) {
            byte[] d = withId(big, 100_000 + i);
            inner.putIfAbsent(id(d), d);
            published.add(d);
        }
        CountingStore store = new CountingStore(inner);
        try (DictionaryManager m = DictionaryManager.shared(store).notifications(false).build()) {
            int loaded = m.dictionaryStats().size();
            assertTrue((long) loaded * each <= DictionaryManager.DEFAULT_MAX_LOADED_BYTES,
                    loaded + " dictionaries of an estimated " + each + " native bytes loaded, above the default"
                            + " bound of " + DictionaryManager.DEFAULT_MAX_LOADED_BYTES);
            assertEquals(DictionaryManager.DEFAULT_MAX_LOADED_BYTES / each, loaded, "as many as fit");
            assertEquals(loaded, store.gets.get(), "an entry beyond the bound is not even read");
            byte[] newest = published.get(listed - 1);
            assertEquals(id(newest), m.currentId(), "the newest compresses");
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            assertArrayEquals(VALUES.get(3), vc.decompress(writtenWith(newest, VALUES.get(3))));
            assertArrayEquals(VALUES.get(4), vc.decompress(writtenWith(published.get(listed - loaded),
                    VALUES.get(4))), "the oldest one within the bound reads");
            byte[] oldest = writtenWith(published.get(0), VALUES.get(5));
            MissingDictionaryException e = assertThrows(MissingDictionaryException.class, () -> vc.decompress(oldest));
            assertTrue(e.getMessage().contains("DictionaryManager.Builder.maxLoadedBytes")
                    && e.getMessage().contains("bound of " + DictionaryManager.DEFAULT_MAX_LOADED_BYTES + " bytes")
                    && e.getMessage().contains("loading it on the manager's thread") && e.getMessage().contains("retry the read")
                    && !e.getMessage().contains("does not help"), e.getMessage());
            assertArrayEquals(VALUES.get(5), readRetrying(vc, oldest), "a value beyond the bound reads when retried");
            assertTrue((long) m.dictionaryStats().size() * each <= DictionaryManager.DEFAULT_MAX_LOADED_BYTES,
                    "loading it evicted another: still within the bound");
        }
    }

    /**
     * @return {@code stored} read back, retried while the read fails with {@link MissingDictionaryException} saying
     *         to retry (the manager is loading its dictionary), for at most 10 s
     */
    static byte[] readRetrying(ValueCompressor vc, byte[] stored) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (true) {
            try {
                return vc.decompress(stored);
            } catch (MissingDictionaryException e) {
                if (!e.getMessage().contains("retry the read") || System.nanoTime() > deadline) {
                    throw e;
                }
                Thread.sleep(5);
            }
        }
    }

    @Test
    void withABoundOfTwoEveryValueOfSixPublishedDictionariesReadsBackAndEvictedOnesAreFreed() throws Exception {
        byte[] big = grown(64 << 10);
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        List<byte[]> published = new ArrayList<>();
        List<List<byte[]>> written = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            byte[] d = withId(big, 500_000 + i);
            inner.putIfAbsent(id(d), d);
            published.add(d);
            List<byte[]> values = new ArrayList<>();
            for (int v = 0; v < 3; v++) {
                values.add(writtenWith(d, VALUES.get(10 * i + v)));
            }
            written.add(values);
        }
        CountingStore store = new CountingStore(inner);
        long bound = 2 * each + 1;
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(bound)
                .refreshInterval(java.time.Duration.ofMillis(20)).build()) {
            assertEquals(List.of(id(published.get(4)), id(published.get(5))),
                    m.dictionaryStats().stream().map(DictionaryStats::id).toList(), "the two newest at build");
            AtomicInteger mostLoaded = new AtomicInteger();
            java.util.concurrent.atomic.AtomicBoolean done = new java.util.concurrent.atomic.AtomicBoolean();
            Thread watch = new Thread(() -> { // the loaded set, sampled all along
                while (!done.get()) {
                    mostLoaded.accumulateAndGet(m.dictionaryStats().size(), Math::max);
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000);
                }
            });
            watch.start();
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            java.util.Map<Long, dev.zstdjava.zstd.ZstdDecompressionDictionary> handles = new java.util.HashMap<>();
            java.util.Map<Long, java.lang.ref.WeakReference<DictionaryDigests>> digests = new java.util.HashMap<>();
            try {
                // the first read of the oldest, by eight threads at once: they share one load
                java.util.concurrent.ExecutorService readers = java.util.concurrent.Executors.newFixedThreadPool(8);
                try {
                    List<java.util.concurrent.Future<byte[]>> reads = new ArrayList<>();
                    for (int t = 0; t < 8; t++) {
                        reads.add(readers.submit(() -> readRetrying(vc, written.get(0).get(0))));
                    }
                    for (java.util.concurrent.Future<byte[]> f : reads) {
                        assertArrayEquals(VALUES.get(0), f.get());
                    }
                } finally {
                    readers.shutdown();
                }
                assertEquals(1, store.getsById.get(id(published.get(0))).get(), "eight concurrent reads, one load");
                for (int round = 0; round < 2; round++) {
                    for (int i = 0; i < 6; i++) {
                        for (int v = 0; v < 3; v++) {
                            assertArrayEquals(VALUES.get(10 * i + v), readRetrying(vc, written.get(i).get(v)),
                                    "round " + round + ", dictionary " + i + ", value " + v);
                            DictionaryManager.Entry e = m.find(id(published.get(i)));
                            if (e != null) {
                                handles.putIfAbsent(id(published.get(i)), e.decompression);
                                digests.putIfAbsent(id(published.get(i)), new java.lang.ref.WeakReference<>(e.digests));
                            }
                            assertTrue((long) m.dictionaryStats().size() * each <= bound,
                                    m.dictionaryStats().size() + " loaded");
                        }
                    }
                }
            } finally {
                done.set(true);
                watch.join();
            }
            assertTrue(mostLoaded.get() <= 2, mostLoaded.get() + " dictionaries loaded at once, above the bound's two");
            assertEquals(id(published.get(5)), m.currentId(), "the newest compresses throughout");
            int evicted = 0;
            for (int i = 0; i < 5; i++) {
                long id = id(published.get(i));
                if (m.isLoaded(id)) {
                    continue;
                }
                evicted++;
                DictionaryNativeMemoryTest.assertReleased(handles.get(id)); // its handle closed: freed once unused
                java.lang.ref.WeakReference<DictionaryDigests> ref = digests.get(id);
                DictionaryManagerTest.await("evicted dictionary " + id + " unreachable (no coder keeps it)", () -> {
                    System.gc();
                    return ref.get() == null;
                });
            }
            assertTrue(evicted >= 4, evicted + " evicted");
            assertTrue(mostLoaded.get() >= 2);
        }
    }

    @Test
    void aDictionaryEvictedBetweenAReadsLookUpAndItsDecoderIsMissingAndRetriedNotAClosedManager() throws Exception {
        byte[] big = grown(64 << 10);
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        List<byte[]> published = publish(store, big, 600_000, 3);
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(2 * each + 1).build()) {
            long first = id(published.get(1));
            DictionaryManager.Entry found = m.find(first); // a read's look-up, just before the eviction
            assertNotNull(found);
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            byte[] older = writtenWith(published.get(0), VALUES.get(8));
            assertArrayEquals(VALUES.get(8), readRetrying(vc, older)); // evicts the one found
            assertFalse(m.isLoaded(first));
            assertTrue(found.digests.isClosed());
            IllegalStateException refused = assertThrows(IllegalStateException.class,
                    () -> dev.zstdjava.zstd.ZstdDecompressor.builder().dictionary(found.decompression).build());
            RuntimeException e = m.lookup().released(first, refused); // what that read fails with
            assertInstanceOf(MissingDictionaryException.class, e, String.valueOf(e));
            assertTrue(e.getMessage().contains("retry the read"), e.getMessage());
            byte[] w = writtenWith(published.get(1), VALUES.get(9));
            assertArrayEquals(VALUES.get(9), readRetrying(vc, w), "and the retried read loads it again");
        }
    }

    /**
     * A dictionary's counters are the manager's for its life: one that compressed, then was evicted to keep within the
     * bound and loaded again for a read, counts on from where it was (values written, bytes, reads). Its listeners
     * are told of each load, the reload included.
     */
    @Test
    void anEvictedDictionaryLoadedAgainCountsOnFromWhereItsCountersWere() throws Exception {
        byte[] big = grown(64 << 10);
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        List<byte[]> published = publish(store, big, 700_000, 2);
        long older = id(published.get(0));
        long compressing = id(published.get(1));
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(2 * each + 1).notifications(false)
                .refreshInterval(java.time.Duration.ofMillis(20)).build()) {
            List<Long> told = new CopyOnWriteArrayList<>();
            m.onLoaded(told::add);
            assertEquals(List.of(older, compressing), told);
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            List<byte[]> written = new ArrayList<>();
            for (int v = 0; v < 3; v++) {
                written.add(vc.compress(VALUES.get(40 + v)));
                assertEquals(compressing, frameDictId(written.get(v)));
            }
            for (int v = 0; v < 3; v++) {
                assertArrayEquals(VALUES.get(40 + v), vc.decompress(written.get(v)));
            }
            DictionaryStats before = m.dictionaryStats(compressing);
            assertEquals(3, before.valuesWritten());
            assertEquals(3, before.valuesRead());
            assertTrue(before.bytesSaved() > 0 && before.originalBytes() > 0, before.toString());

            byte[] newer = withId(big, 700_010); // compresses from now on; the older one is evicted for it
            store.putIfAbsent(id(newer), newer);
            DictionaryManagerTest.await("the new publication to compress", () -> m.currentId() == id(newer));
            assertFalse(m.isLoaded(older));
            byte[] ofOlder = writtenWith(published.get(0), VALUES.get(43));
            assertArrayEquals(VALUES.get(43), readRetrying(vc, ofOlder)); // loaded again, evicting the one that was
            assertFalse(m.isLoaded(compressing), "evicted for the older one's read");
            assertNull(m.dictionaryStats(compressing));

            assertArrayEquals(VALUES.get(40), readRetrying(vc, written.get(0))); // loaded again for this read
            DictionaryStats after = m.dictionaryStats(compressing);
            assertEquals(new DictionaryStats(compressing, before.sequence(), before.size(), false,
                    3, before.originalBytes(), before.bytesSaved(), 4), after,
                    "its counters went on from where they were before its eviction");
            assertEquals(List.of(older, compressing, id(newer), older, compressing), told,
                    "each load told, reloads included");
        }
    }

    /**
     * The counters of evicted dictionaries are kept for {@link DictionaryRegistry#MAX_EVICTED_COUNTERS} ids at most:
     * past that, the least recently evicted are dropped, and such a dictionary loaded again counts from zero.
     */
    @Test
    void theCountersOfAtMost1024EvictedDictionariesAreKeptTheLeastRecentlyEvictedDropped() {
        DictionaryRegistry registry = new DictionaryRegistry(DictionaryManager.Mode.SHARED, 3);
        int evicted = DictionaryRegistry.MAX_EVICTED_COUNTERS + 2;
        for (int i = 1; i <= evicted; i++) { // sequence 0: none compresses, so each can be evicted
            DictionaryManager.Entry e = entry(registry, i);
            e.valuesRead.add(i);
            assertTrue(registry.evict(e), "evicting " + i);
        }
        for (long id : new long[] {1, 2, 3, evicted}) {
            entry(registry, id);
        }
        assertEquals(List.of(0L, 0L, 3L, (long) evicted),
                registry.stats().stream().map(DictionaryStats::valuesRead).toList(),
                "the two least recently evicted count from zero; the others on from where they were");
        registry.close();
    }

    /** @return an entry of {@code id} (a small dictionary of its own digests), added to {@code registry} */
    private static DictionaryManager.Entry entry(DictionaryRegistry registry, long id) {
        dev.zstdjava.zstd.ZstdDictionary d = dev.zstdjava.zstd.ZstdDictionary.of(withId(DICT_B, id));
        registry.add(new DictionaryManager.Entry(id, 0, new DictionaryDigests(d, d.forDecompression()), false));
        return registry.find(id);
    }

    /**
     * A read's miss of a dictionary the manager knows (listed beyond the bound, or evicted) costs one store call, the
     * read of its entry (two server commands, {@code STRLEN} and {@code GET}, for the server stores): not the listing
     * and publication counter a new id needs. Its entry is still checked against the length it is listed with: an
     * entry overwritten with another length meanwhile is rejected, as the listing's check rejects it.
     */
    @Test
    void aMissOfAKnownDictionaryReadsOnlyItsEntryAndStillChecksItsListedLength() throws Exception {
        byte[] big = grown(64 << 10);
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        List<byte[]> published = publish(inner, big, 710_000, 4);
        CountingStore store = new CountingStore(inner);
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(2 * each + 1).notifications(false)
                .refreshInterval(java.time.Duration.ofHours(1)).build()) {
            assertEquals(List.of(id(published.get(2)), id(published.get(3))),
                    m.dictionaryStats().stream().map(DictionaryStats::id).toList(), "the two newest at build");
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            List<Integer> before = store.calls();
            byte[] ofFirst = writtenWith(published.get(0), VALUES.get(50));
            assertArrayEquals(VALUES.get(50), readRetrying(vc, ofFirst)); // listed beyond the bound
            assertEquals(List.of(before.get(0), before.get(1), before.get(2) + 1), store.calls(),
                    "a miss of one listed beyond the bound: its entry read, nothing else");
            assertFalse(m.isLoaded(id(published.get(2))), "evicted for it");

            before = store.calls();
            byte[] ofThird = writtenWith(published.get(2), VALUES.get(51));
            assertArrayEquals(VALUES.get(51), readRetrying(vc, ofThird)); // evicted: loaded again
            assertEquals(List.of(before.get(0), before.get(1), before.get(2) + 1), store.calls(),
                    "a miss of an evicted one: its entry read, nothing else");
            assertFalse(m.isLoaded(id(published.get(0))), "evicted for it");

            store.replace(id(published.get(0)), java.util.Arrays.copyOf(published.get(0), big.length - 1));
            MissingDictionaryException first = assertThrows(MissingDictionaryException.class,
                    () -> vc.decompress(ofFirst));
            assertTrue(first.getMessage().contains("retry the read"), first.getMessage());
            DictionaryManagerTest.await("the entry cut short to be rejected",
                    () -> m.rejectedDictionaries().containsKey(id(published.get(0))));
            String why = m.rejectedDictionaries().get(id(published.get(0)));
            assertTrue(why.contains("lists it with " + big.length + " bytes but its entry holds " + (big.length - 1)),
                    why);
            assertThrows(MissingDictionaryException.class, () -> vc.decompress(ofFirst), "never read with it");

            byte[] newer = withId(big, 710_010); // a new id a value names: the listing says its place and length
            inner.putIfAbsent(id(newer), newer);
            before = store.calls();
            assertArrayEquals(VALUES.get(52), readRetrying(vc, writtenWith(newer, VALUES.get(52))));
            assertEquals(before.get(0) + 1, store.lists.get(), "a new id's miss reads the listing");
        }
    }

    /**
     * A dictionary known beyond the bound that was deleted and published again under its id with another length
     * (here by {@link InMemoryDictionaryStore#putUnchecked}, the store having no delete) is loaded by a read's miss:
     * the length mismatch reads the listing once more, which lists it with its new length.
     */
    @Test
    void aKnownDictionaryPublishedAgainWithAnotherLengthIsLoadedAfterTheListingIsReadAgain() throws Exception {
        readPublishedAgainBeyondTheBound(720_000, false);
    }

    /**
     * A refresh that lists a dictionary beyond the bound again, published again with another length, knows it by its
     * new length from then on: a read's miss of it reads its entry alone, without reading the listing again.
     */
    @Test
    void aRefreshKnowsADictionaryPublishedAgainBeyondTheBoundByItsNewLength() throws Exception {
        readPublishedAgainBeyondTheBound(730_000, true);
    }

    /**
     * Publishes four dictionaries from {@code firstId} on (two loaded at a time), publishes the first again with
     * another length, and reads a value of it: after a refresh saw that ({@code refreshFirst}, two newer ones keeping
     * it beyond the bound) the read reads no listing; without one it reads the listing once.
     */
    private static void readPublishedAgainBeyondTheBound(long firstId, boolean refreshFirst) throws Exception {
        byte[] big = grown(64 << 10);
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        List<byte[]> published = publish(inner, big, firstId, 4);
        CountingStore store = new CountingStore(inner);
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(2 * each + 1).notifications(false)
                .refreshInterval(refreshFirst ? java.time.Duration.ofMillis(20) : java.time.Duration.ofHours(1))
                .build()) {
            long first = id(published.get(0));
            byte[] again = withId(grown((64 << 10) - 100), first); // the same id, another length
            synchronized (inner) { // its monitor: no refresh sees the store between these publications
                inner.putUnchecked(first, again);
                if (refreshFirst) {
                    publish(inner, big, firstId + 10, 2); // newer: the one published again stays beyond the bound
                }
            }
            if (refreshFirst) {
                DictionaryManagerTest.await("the newest to compress", () -> m.currentId() == firstId + 11);
            }
            assertFalse(m.isLoaded(first), "beyond the bound");
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            int lists = store.lists.get();
            assertArrayEquals(VALUES.get(53), readRetrying(vc, writtenWith(again, VALUES.get(53))));
            assertNull(m.rejectedDictionaries().get(first), "not rejected");
            assertEquals(refreshFirst ? lists : lists + 1, store.lists.get(), refreshFirst
                    ? "known by its new length: the listing is not read again" : "the mismatch read the listing once");
        }
    }

    /**
     * A read of a dictionary known beyond the bound whose entry is gone says that it was known, without claiming that
     * the store lists it now (the listing was not read again), whether it was evicted after being listed or loaded
     * without being listed.
     */
    @Test
    void aGoneEntryOfAKnownDictionaryIsNotSaidToBeListedNow() throws Exception {
        byte[] big = grown(64 << 10);
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        List<byte[]> published = publish(inner, big, 740_000, 3);
        byte[] unlisted = withId(big, 740_020);
        inner.putIfAbsent(id(unlisted), unlisted);
        java.util.Set<Long> deleted = java.util.concurrent.ConcurrentHashMap.newKeySet();
        DictionaryStore store = new AdaptivePatternDictionariesTest.Forwarding(inner) {
            @Override
            public List<DictionaryInfo> list() {
                return inner.list().stream().filter(i -> i.id() != id(unlisted)).toList();
            }

            @Override
            public byte[] get(long id) {
                return deleted.contains(id) ? null : inner.get(id);
            }
        };
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(2 * each + 1).notifications(false)
                .refreshInterval(java.time.Duration.ofHours(1)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            byte[] ofUnlisted = writtenWith(unlisted, VALUES.get(55));
            byte[] ofSecond = writtenWith(published.get(1), VALUES.get(56));
            assertArrayEquals(VALUES.get(55), readRetrying(vc, ofUnlisted)); // loaded unlisted, evicting the second
            assertFalse(m.isLoaded(id(published.get(1))), "evicted for the unlisted one");
            assertArrayEquals(VALUES.get(57), readRetrying(vc, writtenWith(published.get(0), VALUES.get(57))));
            assertFalse(m.isLoaded(id(unlisted)), "evicted for the first");
            deleted.add(id(unlisted));
            deleted.add(id(published.get(1)));
            for (byte[] stored : List.of(ofUnlisted, ofSecond)) { // known, not listed now: neither said to be listed
                String gone = goneMessage(vc, stored);
                assertTrue(gone.contains("it was listed or loaded before, but its entry") && gone.contains("is gone")
                        && !gone.contains("the store lists it"), gone);
            }
        }
    }

    /** @return the message of the read of {@code stored} once it says its dictionary's entry is gone */
    private static String goneMessage(ValueCompressor vc, byte[] stored) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (true) {
            String message = assertThrows(MissingDictionaryException.class, () -> vc.decompress(stored)).getMessage();
            if (message.contains("(deleted or expired)") || System.nanoTime() > deadline) {
                return message;
            }
            Thread.sleep(5);
        }
    }

    @Test
    void aNewPublicationBeyondTheBoundIsLoadedEvictingTheLeastRecentlyUsedAndCompresses() throws Exception {
        byte[] big = grown(64 << 10);
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        List<byte[]> published = publish(inner, big, 200_000, 4);
        CountingStore store = new CountingStore(inner);
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(2 * each + 1)
                .refreshInterval(java.time.Duration.ofMillis(20)).build()) {
            assertEquals(List.of(id(published.get(2)), id(published.get(3))),
                    m.dictionaryStats().stream().map(DictionaryStats::id).toList(), "the two newest");
            assertEquals(2, store.gets.get(), "an entry beyond the bound is not read at build");
            byte[] newer = withId(big, 200_010);
            inner.putIfAbsent(id(newer), newer);
            DictionaryManagerTest.await("the new publication to compress", () -> m.currentId() == id(newer));
            assertEquals(List.of(id(published.get(3)), id(newer)),
                    m.dictionaryStats().stream().map(DictionaryStats::id).toList(),
                    "the least recently used evicted for it; the one compressing before is kept");
        }
    }

    @Test
    void aManagedManagersOwnNewDictionaryBeyondTheBoundIsSaidInItsAdoptionAndNoValueIsWrittenWithIt()
            throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        try (DictionaryManager m = DictionaryManager.managed(store).minSamples(300).maxLoadedBytes(1)
                .retrainInterval(java.time.Duration.ofMinutes(10)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            List<byte[]> written = new ArrayList<>();
            for (byte[] v : TRAIN) {
                written.add(vc.compress(v));
            }
            DictionaryManagerTest.await("a dictionary adopted", () -> m.trainingStats().adopted() == 1);
            TrainingEvent adopted = m.trainingStats().recent().get(1);
            assertEquals(TrainingEvent.Kind.ADOPTED, adopted.kind());
            assertTrue(adopted.reason().contains("not loaded: ") && adopted.reason().contains("bound of 1 bytes"
                    + " (DictionaryManager.Builder.maxLoadedBytes"), adopted.reason());
            assertEquals(0, m.currentId(), "compresses with none: its only dictionary is beyond the bound");
            assertEquals(List.of(), m.dictionaryStats());
            for (int i = 0; i < VALUES.size(); i += 50) {
                byte[] w = vc.compress(VALUES.get(i));
                assertEquals(0, frameDictId(w));
                assertArrayEquals(VALUES.get(i), vc.decompress(w));
            }
            for (int i = 0; i < written.size(); i += 100) {
                assertArrayEquals(TRAIN.get(i), vc.decompress(written.get(i)));
            }
        }
    }

    @Test
    void aDictionaryTheStoreDoesNotListIsFetchedForARead_EvenWhenOnlyTheCompressingOneFits() throws Exception {
        byte[] big = grown(64 << 10);
        byte[] listed = withId(big, 400_001);
        byte[] hidden = withId(big, 400_002);
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        inner.putIfAbsent(id(listed), listed);
        inner.putIfAbsent(id(hidden), hidden);
        DictionaryStore store = new AdaptivePatternDictionariesTest.Forwarding(inner) {
            @Override
            public List<DictionaryInfo> list() {
                return inner.list().stream().filter(i -> i.id() != id(hidden)).toList();
            }
        };
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(each).build()) {
            assertTrue(m.isLoaded(id(listed)));
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            byte[] w = writtenWith(hidden, VALUES.get(7));
            assertThrows(MissingDictionaryException.class, () -> vc.decompress(w)); // starts the fetch
            // the one compressing is never evicted: the one a read needs is loaded all the same, never lost
            assertArrayEquals(VALUES.get(7), readRetrying(vc, w));
            assertTrue(m.isLoaded(id(hidden)));
            assertEquals(id(listed), m.currentId());
        }
    }

    @Test
    void aBoundBelowOneIsRefusedByName() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> DictionaryManager.shared(new InMemoryDictionaryStore()).maxLoadedBytes(0).build());
        assertTrue(e.getMessage().contains("maxLoadedBytes"), e.getMessage());
    }

    @Test
    void aListenerThatThrowsForDictionariesLoadedBeforeItsRegistrationIsLoggedNotThrown() {
        try (DictionaryManager m = DictionaryManager.given(DICT_A, DICT_B).build()) {
            List<Long> seen = new CopyOnWriteArrayList<>();
            m.onLoaded(id -> {
                seen.add(id);
                throw new IllegalStateException("a listener's failure");
            }); // before the fix, this call threw the listener's exception
            assertEquals(List.of(id(DICT_A), id(DICT_B)), seen, "called for each loaded id despite its failures");
            List<Long> next = new CopyOnWriteArrayList<>();
            m.onLoaded(next::add);
            assertEquals(List.of(id(DICT_A), id(DICT_B)), next);
        }
    }

    @Test
    void aListenerThatThrowsForADictionaryLoadedLaterStopsNeitherTheOthersNorTheLoading() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        try (DictionaryManager m = DictionaryManager.shared(store).build()) {
            List<Long> first = new CopyOnWriteArrayList<>();
            List<Long> second = new CopyOnWriteArrayList<>();
            m.onLoaded(id -> { // registered with nothing loaded: only the path of later loads calls it
                first.add(id);
                throw new IllegalStateException("a listener's failure");
            });
            m.onLoaded(second::add);
            store.putIfAbsent(id(DICT_A), DICT_A);
            DictionaryManagerTest.await("DICT_A loaded", () -> m.isLoaded(id(DICT_A)));
            store.putIfAbsent(id(DICT_B), DICT_B);
            DictionaryManagerTest.await("DICT_B loaded", () -> m.isLoaded(id(DICT_B)));
            DictionaryManagerTest.await("both listeners told", () -> second.size() == 2);
            assertEquals(List.of(id(DICT_A), id(DICT_B)), first);
            assertEquals(List.of(id(DICT_A), id(DICT_B)), second);
            assertEquals(id(DICT_B), m.currentId());
        }
    }
}
