package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static dev.zstdjava.values.DictionaryBoundsTest.grown;
import static dev.zstdjava.values.DictionaryBoundsTest.publish;
import static dev.zstdjava.values.DictionaryBoundsTest.readRetrying;
import static dev.zstdjava.values.DictionaryBoundsTest.writtenWith;
import static dev.zstdjava.values.DictionaryManagerTest.VALUES;
import static dev.zstdjava.values.DictionaryManagerTest.id;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Reads that use more dictionaries at once than a manager's {@code maxLoadedBytes} holds. The readers are simulated in
 * lock-step on the test thread: in a pass every reader reads once while the store holds its entry reads back (so each
 * miss is queued before any load, as when the readers run at the same moment); then the loads run, and the readers
 * that missed retry. Deterministic: the manager's io thread loads in the order of the misses.
 */
class DictionaryReadRetryTest {
    static final byte[] BIG = grown(64 << 10);
    static final long EACH = PatternDictionaries.estimatedNativeBytes(BIG.length, false);
    /** A bound that holds three dictionaries: the compressing one and two others. */
    static final long BOUND = 3 * EACH + 1;

    /**
     * @return a gated store publishing {@code n} dictionaries with ids from {@code firstId} on (added to
     *         {@code dictionaries}), then {@code newer} with ids from {@code newerId} on, the last of which compresses
     */
    static GatedStore store(List<byte[]> dictionaries, long firstId, int n, long newerId, int newer) {
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        dictionaries.addAll(publish(inner, BIG, firstId, n));
        publish(inner, BIG, newerId, newer);
        return new GatedStore(inner);
    }
    /** A store in memory whose entry reads wait while its gate is shut, and are counted once they pass it. */
    static final class GatedStore extends AdaptivePatternDictionariesTest.Forwarding {
        private final Map<Long, AtomicInteger> getsById = new java.util.concurrent.ConcurrentHashMap<>();
        private volatile CountDownLatch gate; // null: open

        GatedStore(InMemoryDictionaryStore inner) {
            super(inner);
        }

        @Override
        public byte[] get(long id) {
            CountDownLatch g = gate;
            if (g != null) {
                try {
                    if (!g.await(30, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("the test never opened the gate");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            getsById.computeIfAbsent(id, x -> new AtomicInteger()).incrementAndGet();
            return super.get(id);
        }

        void shut() {
            gate = new CountDownLatch(1);
        }

        void open() {
            CountDownLatch g = gate;
            gate = null;
            if (g != null) {
                g.countDown();
            }
        }

        int gets(long id) {
            AtomicInteger n = getsById.get(id);
            return n == null ? 0 : n.get();
        }
    }

    /** The manager's logger (System.Logger: here, JUL). */
    private static final java.util.logging.Logger LOG =
            java.util.logging.Logger.getLogger(DictionaryManager.class.getName());

    /**
     * @return a handler, added to the manager's logger ({@link #LOG}; the caller removes it), that adds to
     *         {@code into} every message logged containing {@code text}
     */
    static java.util.logging.Handler capture(List<String> into, String text) {
        java.util.logging.Handler handler = new java.util.logging.Handler() {
            @Override
            public void publish(java.util.logging.LogRecord r) {
                if (r.getMessage() != null && r.getMessage().contains(text)) {
                    into.add(r.getMessage());
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
        LOG.addHandler(handler);
        return handler;
    }

    /** @return the estimated native bytes of the dictionaries {@code m} has loaded now */
    static long loadedBytes(DictionaryManager m) {
        long n = 0;
        for (DictionaryStats s : m.dictionaryStats()) {
            n += PatternDictionaries.estimatedNativeBytes(s.size(), false);
        }
        return n;
    }

    /**
     * Every reader reads {@code stored} once with the store's gate shut (a read that misses queues its fetch), then
     * the gate opens and the test waits, as a reader would, until the fetches have run.
     *
     * @return the readers whose read missed (their dictionary was not loaded)
     */
    static List<Integer> pass(DictionaryManager m, ValueCompressor vc, GatedStore store, List<byte[]> stored,
                              List<byte[]> originals) throws InterruptedException {
        List<Integer> missed = new ArrayList<>();
        Map<Long, Integer> before = new HashMap<>();
        store.shut();
        try {
            for (int r = 0; r < stored.size(); r++) {
                long id = DictionaryManagerTest.frameDictId(stored.get(r));
                try {
                    assertArrayEquals(originals.get(r), vc.decompress(stored.get(r)));
                } catch (MissingDictionaryException e) {
                    assertTrue(e.getMessage().contains("retry the read"), e.getMessage());
                    missed.add(r);
                    before.put(id, store.gets(id));
                }
            }
        } finally {
            store.open();
        }
        if (!missed.isEmpty()) { // the io thread fetches in the order of the misses: the last one's load ends them
            long last = DictionaryManagerTest.frameDictId(stored.get(missed.get(missed.size() - 1)));
            DictionaryManagerTest.await("the fetches the misses started", () -> before.entrySet().stream()
                    .allMatch(x -> store.gets(x.getKey()) > x.getValue()) && m.isLoaded(last));
        }
        return missed;
    }

    /**
     * Three readers, each reading a value of another of six dictionaries per round (round after round, the first three
     * and the last three), under a bound that holds three: the compressing one and two others. Every read misses
     * (the three it needs are not loaded), and each miss's load would evict one loaded for the reader before it:
     * without keeping them for the retries, the first reader's retry missed again, every round. Each retry finds its
     * dictionary, so no read is retried twice.
     */
    @Test
    void readersUsingMoreDictionariesAtOnceThanTheBoundHoldsEachFindTheirsOnTheirRetry() throws Exception {
        List<byte[]> dictionaries = new ArrayList<>();
        GatedStore store = store(dictionaries, 800_000, 6, 800_100, 1); // the newest compresses: never evicted
        long bound = BOUND;
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(bound).notifications(false)
                .refreshInterval(Duration.ofHours(1)).build()) {
            assertEquals(List.of(id(dictionaries.get(4)), id(dictionaries.get(5)), 800_100L),
                    m.dictionaryStats().stream().map(DictionaryStats::id).toList(), "the three newest at build");
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            int misses = 0;
            for (int round = 0; round < 4; round++) {
                List<byte[]> originals = new ArrayList<>();
                List<byte[]> stored = new ArrayList<>();
                for (int r = 0; r < 3; r++) {
                    int d = (3 * round + r) % 6;
                    originals.add(VALUES.get(10 * d + round));
                    stored.add(writtenWith(dictionaries.get(d), originals.get(r)));
                }
                List<Integer> missed = pass(m, vc, store, stored, originals);
                assertEquals(List.of(0, 1, 2), missed, "round " + round + ": each read misses");
                assertTrue(loadedBytes(m) <= 2 * bound, loadedBytes(m) + " bytes loaded, above twice the bound");
                for (int r : missed) { // the retry: it finds the dictionary its miss loaded
                    try {
                        assertArrayEquals(originals.get(r), vc.decompress(stored.get(r)));
                    } catch (MissingDictionaryException e) {
                        fail("round " + round + ", reader " + r + ": the retry did not find the dictionary its miss"
                                + " loaded: " + e.getMessage());
                    }
                }
                misses += missed.size();
            }
            assertEquals(12, misses);
            assertEquals(800_100L, m.currentId(), "the newest compresses throughout");
        }
    }

    /**
     * Eight readers miss eight dictionaries at once under a bound that holds three (the compressing one and two
     * others): the dictionaries kept for their retries take the loaded ones above the bound by at most the bound
     * (sampled all along), the oldest of them giving way beyond it; every value still reads when retried, and once
     * read, the periodic check evicts down to the bound. One warning (at most one a minute) tells to raise the bound.
     */
    @Test
    void dictionariesKeptForRetriesTakeTheLoadedOnesAboveTheBoundByAtMostTheBound() throws Exception {
        List<byte[]> dictionaries = new ArrayList<>();
        GatedStore store = store(dictionaries, 900_000, 8, 900_100, 3); // two loaded at build beside the newest
        long bound = BOUND;
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler handler = capture(warnings, "is loaded for a read above the " + bound);
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(bound).notifications(false)
                .refreshInterval(Duration.ofMillis(20)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            List<byte[]> originals = new ArrayList<>();
            List<byte[]> stored = new ArrayList<>();
            for (int d = 0; d < 8; d++) {
                originals.add(VALUES.get(20 + d));
                stored.add(writtenWith(dictionaries.get(d), originals.get(d)));
            }
            AtomicLong most = new AtomicLong();
            AtomicBoolean done = new AtomicBoolean();
            Thread watch = new Thread(() -> { // the loaded dictionaries' estimate, sampled all along
                while (!done.get()) {
                    most.accumulateAndGet(loadedBytes(m), Math::max);
                    java.util.concurrent.locks.LockSupport.parkNanos(50_000);
                }
            });
            watch.start();
            List<Long> afterMisses;
            try {
                assertEquals(8, pass(m, vc, store, stored, originals).size());
                afterMisses = m.dictionaryStats().stream().map(DictionaryStats::id).toList();
                for (int d = 0; d < 8; d++) { // the older ones were evicted for newer ones: loaded again on retry
                    assertArrayEquals(originals.get(d), readRetrying(vc, stored.get(d)), "dictionary " + d);
                }
            } finally {
                done.set(true);
                watch.join();
            }
            assertTrue(most.get() > bound, "never above the bound: " + most.get());
            assertTrue(most.get() - bound <= bound, "the dictionaries kept for retries took the loaded ones "
                    + (most.get() - bound) + " bytes above the bound of " + bound + ", more than the bound again");
            assertEquals(List.of(id(dictionaries.get(5)), id(dictionaries.get(6)), id(dictionaries.get(7)), 900_102L),
                    afterMisses, "the compressing one, and the three latest loaded for reads: as many as the bound"
                            + " again");
            DictionaryManagerTest.await("the periodic check to evict down to the bound once the values are read",
                    () -> loadedBytes(m) <= bound);
            assertTrue(m.isLoaded(900_102L));
            assertEquals(1, warnings.size(), "one warning a minute at most: " + warnings);
            assertTrue(warnings.get(0).contains("(DictionaryManager.Builder.maxLoadedBytes)")
                    && warnings.get(0).contains("raise the bound to at least that")
                    && warnings.get(0).contains("bytes loaded at once now"), warnings.get(0));
        } finally {
            LOG.removeHandler(handler);
        }
    }

    /**
     * The over-bound warning's end-of-minute summary: the first load above the bound is said at once; the loads in
     * the minute after it are counted, and once the minute is over (the warning's clock, set here, moved past it) the
     * next periodic check says how many there were, how many dictionaries kept for reads they evicted, the last id,
     * and the peak demand of the minute, which is not that of its last load.
     */
    @Test
    void theOverBoundWarningsSummarySaysTheMinutesLoadsEvictionsAndPeakDemand() throws Exception {
        List<byte[]> dictionaries = new ArrayList<>();
        GatedStore store = store(dictionaries, 950_000, 8, 950_100, 3); // two loaded at build beside the newest
        long bound = BOUND;
        List<String> warnings = new java.util.concurrent.CopyOnWriteArrayList<>();
        java.util.logging.Handler handler = capture(warnings, "loaded for a read above the " + bound);
        AtomicLong skipped = new AtomicLong(); // the warning's clock runs this far ahead of System.nanoTime()
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(bound).notifications(false)
                .refreshInterval(Duration.ofMillis(20)).build()) {
            m.overBoundWarningClock(() -> System.nanoTime() + skipped.get());
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            List<byte[]> originals = new ArrayList<>();
            List<byte[]> stored = new ArrayList<>();
            for (int d = 0; d < 8; d++) {
                originals.add(VALUES.get(30 + d));
                stored.add(writtenWith(dictionaries.get(d), originals.get(d)));
            }
            // eight misses at once: the first two loads evict the two loaded at build; the third goes above the bound
            // (said at once: the compressing one, the two kept, and it, 4 each); each of the five after it evicts the
            // oldest kept one (5 each: the compressing one, two kept, the evicted one, and it)
            assertEquals(8, pass(m, vc, store, stored, originals).size());
            assertEquals(1, warnings.size(), warnings.toString());
            assertTrue(warnings.get(0).startsWith("zstd dictionary 950002 is loaded for a read above the " + bound
                    + "-byte bound") && warnings.get(0).contains("an estimated " + 4 * EACH + " bytes loaded at"
                    + " once now") && warnings.get(0).contains("for this load: 0 "), warnings.get(0));
            for (int d = 5; d < 8; d++) { // the three kept for their reads are read: evicted first from now on
                assertArrayEquals(originals.get(d), vc.decompress(stored.get(d)), "dictionary " + d);
            }
            // three misses at once: two loads evict the three read; the third goes above the bound, with 4 at once
            assertEquals(List.of(0, 1, 2), pass(m, vc, store, stored.subList(0, 3), originals.subList(0, 3)));
            Thread.sleep(200); // periodic checks within the minute: none says anything
            assertEquals(1, warnings.size(), warnings.toString());
            skipped.set(TimeUnit.SECONDS.toNanos(61));
            DictionaryManagerTest.await("the periodic check to say what the minute saw", () -> warnings.size() > 1);
            assertEquals(2, warnings.size(), warnings.toString());
            String summary = warnings.get(1);
            assertTrue(summary.startsWith("6 zstd dictionaries (the last 950002) were loaded for a read above the "
                    + bound + "-byte bound"), summary);
            assertTrue(summary.contains("The reads need an estimated " + 5 * EACH + " bytes loaded at once in the"
                    + " minute since the last such warning at its peak"), summary);
            assertTrue(summary.contains("Kept dictionaries evicted before their read for these 6 loads: 5 (their"
                    + " reads miss again)"), summary);
        } finally {
            LOG.removeHandler(handler);
        }
    }
}
