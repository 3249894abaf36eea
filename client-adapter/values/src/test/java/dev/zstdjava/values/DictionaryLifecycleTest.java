package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static dev.zstdjava.values.DictionaryManagerTest.DICT_A;
import static dev.zstdjava.values.DictionaryManagerTest.VALUES;
import static dev.zstdjava.values.DictionaryManagerTest.frameDictId;
import static dev.zstdjava.values.DictionaryManagerTest.id;
import static org.junit.jupiter.api.Assertions.*;

/** A dictionary manager's close against the compressors that use it: what a call after it, or during it, gets. */
class DictionaryLifecycleTest {
    private static final String NAMED =
            "the DictionaryManager (given mode, store dev.zstdjava.values.InMemoryDictionaryStore@";

    @Test
    void aCompressorOfAClosedManagerFailsNamingItAndStoresValuesAsTheyAre() {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        DictionaryManager m = DictionaryManager.given(DICT_A).store(store).build();
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
        byte[] value = VALUES.get(0);
        byte[] written = vc.compress(value);
        assertEquals(id(DICT_A), frameDictId(written));
        m.close();

        byte[] after = vc.compress(value);
        assertSame(value, after, "a compress after the manager's close stores the value as it is");
        assertEquals(1, vc.stats().compressionFailures());

        IllegalStateException read = assertThrows(IllegalStateException.class, () -> vc.decompress(written));
        assertTrue(read.getMessage().startsWith(NAMED), read.getMessage());
        assertTrue(read.getMessage().contains(") is closed: "), read.getMessage());

        IllegalStateException made = assertThrows(IllegalStateException.class,
                () -> ValueCompressor.create(CompressionConfig.defaults(), m));
        assertTrue(made.getMessage().startsWith(NAMED), made.getMessage());
        // a value that needs no dictionary still reads: the manager is not used for it
        byte[] plain = ValueCompressor.create(CompressionConfig.defaults()).compress(value);
        assertArrayEquals(value, vc.decompress(plain));
    }

    @Test
    void theAdaptiveReaderOfAnApplicationsClosedManagerFailsNamingIt() {
        DictionaryManager m = DictionaryManager.given(DICT_A).store(new InMemoryDictionaryStore()).build();
        PatternManagers managers = new PatternManagers();
        managers.add(m, "event:*");
        ValueCompressor reader = ValueCompressor.reading(CompressionConfig.defaults(), managers);
        byte[] written = ValueCompressor.create(CompressionConfig.defaults(), m).compress(VALUES.get(2));
        assertArrayEquals(VALUES.get(2), reader.decompress(written));
        m.close(); // the application closes a manager its adaptive compressor still uses
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> reader.decompress(written));
        assertTrue(e.getMessage().startsWith(NAMED), e.getMessage());
    }

    @Test
    void theAdaptiveReaderOfClosedPatternDictionariesFailsNamingThem() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        Map<String, List<byte[][]>> written = new ConcurrentHashMap<>();
        PatternDictionaries pd = AdaptivePatternDictionariesTest.inMemory(stores).build();
        AdaptiveCompressor ac = AdaptivePatternDictionariesTest.compressor(pd);
        AdaptivePatternDictionariesTest.writeUntilOnDictionaries(ac, List.of("event"), written);
        byte[][] onDictionary = written.get("event").stream()
                .filter(v -> AdaptivePatternDictionariesTest.dictionaryValues(List.<byte[][]>of(v)) == 1)
                .findFirst().orElseThrow();
        assertArrayEquals(onDictionary[0], ac.decompress(onDictionary[1]));
        pd.close();
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> ac.decompress(onDictionary[1]));
        assertTrue(e.getMessage().startsWith("the PatternDictionaries (1 pattern lineages) is closed: "),
                e.getMessage());
    }

    @Test
    void aLineageWriterOfAClosedManagerWritesWithoutTheDictionary() {
        DictionaryManager m = DictionaryManager.given(DICT_A).build();
        ValueCompressor w = ValueCompressor.notSampling(CompressionOption.ZSTD_3_DICTIONARY.config(
                CompressionConfig.defaults()), m);
        m.close(); // the lineage released while a write was on its way
        byte[] stored = w.compress(VALUES.get(1));
        assertNotSame(VALUES.get(1), stored);
        assertEquals(0, frameDictId(stored), "written without the released dictionary");
        assertEquals(0, w.stats().compressionFailures());
        assertArrayEquals(VALUES.get(1), ValueCompressor.create(CompressionConfig.defaults()).decompress(stored));
    }

    @Test
    void closingWhileManyThreadsCompressAndReadGivesRightValuesOrTheNamedFailure() throws Exception {
        for (int round = 0; round < 20; round++) {
            DictionaryManager m = DictionaryManager.given(DICT_A).store(new InMemoryDictionaryStore()).build();
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            byte[][] written = new byte[50][];
            for (int i = 0; i < written.length; i++) {
                written[i] = vc.compress(VALUES.get(i));
            }
            List<Throwable> wrong = new CopyOnWriteArrayList<>();
            AtomicBoolean stop = new AtomicBoolean();
            CountDownLatch running = new CountDownLatch(4);
            Thread[] threads = new Thread[4];
            for (int t = 0; t < threads.length; t++) {
                int seed = t;
                threads[t] = new Thread(() -> {
                    running.countDown();
                    for (int i = seed; !stop.get(); i++) {
                        int k = i % written.length;
                        try {
                            byte[] w = vc.compress(VALUES.get(k));
                            byte[] back = vc.decompress(w == VALUES.get(k) ? written[k] : w);
                            if (!java.util.Arrays.equals(VALUES.get(k), back)) {
                                wrong.add(new AssertionError("value " + k + " read back wrong"));
                            }
                        } catch (IllegalStateException e) {
                            if (!e.getMessage().startsWith(NAMED)) {
                                wrong.add(e);
                            }
                        } catch (Throwable e) {
                            wrong.add(e);
                        }
                    }
                });
                threads[t].start();
            }
            running.await();
            Thread.sleep(5);
            m.close();
            Thread.sleep(5);
            stop.set(true);
            for (Thread t : threads) {
                t.join();
            }
            assertTrue(wrong.isEmpty(), wrong.size() + " calls went wrong, the first: " + (wrong.isEmpty() ? ""
                    : wrong.get(0)));
        }
    }

    /**
     * close() returns while a store function call hangs (it is let go only afterwards), and the store that call then
     * returns opens nothing. close() is given 5 s here (the load timeout is 300 ms): this shows it does not wait for
     * the call, not how long it waits.
     */
    @Test
    void closingThePatternDictionariesDoesNotWaitForAHangingStoreFunctionCall() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        CountDownLatch proceed = new CountDownLatch(1);
        AtomicReference<Thread> caller = new AtomicReference<>();
        InMemoryDictionaryStore lineageStore = new InMemoryDictionaryStore();
        PatternDictionaries pd = PatternDictionaries.builder(name -> {
            if (!name.equals(PatternDictionaries.ID_CLAIMS)) {
                caller.set(Thread.currentThread());
                entered.countDown();
                awaitUninterruptibly(proceed); // a store function call that takes long (its connection hangs)
            }
            return name.equals(PatternDictionaries.ID_CLAIMS) ? new InMemoryDictionaryStore() : lineageStore;
        }).manager(b -> b.loadTimeout(Duration.ofMillis(300))).build();
        try {
            pd.lineage("p:*", CompressionConfig.defaults()).open(false);
            assertTrue(entered.await(10, TimeUnit.SECONDS));
            Thread closer = new Thread(pd::close);
            closer.start();
            closer.join(5_000);
            assertFalse(closer.isAlive(), "close() still waits for the hanging store function after 5 s (load"
                    + " timeout 300 ms)");
        } finally {
            proceed.countDown();
        }
        // the call returns on the pattern dictionaries' own thread, which close() stopped taking tasks: it ends once
        // the opening that made the call is over, whatever that opening did with the store
        caller.get().join(10_000);
        assertFalse(caller.get().isAlive(), "the opening did not end once its store function call returned");
        assertNull(pd.manager("p:*"), "a lineage was opened with the store returned after close()");
    }

    @Test
    void closingThePatternDictionariesWaitsOneLoadTimeoutInAllNotOnePerLineage() throws Exception {
        // each lineage's subscription never returns: its manager is built after the load timeout, and its close waits
        // that long for the thread; ten of them closed one after another waited ten times that
        CountDownLatch never = new CountDownLatch(1);
        ConcurrentHashMap<String, DictionaryStore> stores = new ConcurrentHashMap<>();
        PatternDictionaries pd = PatternDictionaries.builder(n -> stores.computeIfAbsent(n,
                x -> new HangingSubscription(never))).manager(b -> b.loadTimeout(Duration.ofMillis(400))).build();
        try {
            for (int i = 0; i < 10; i++) {
                pd.lineage("p" + i + ":*", CompressionConfig.defaults()).open(false);
            }
            awaitTenOpen(pd);
            long start = System.nanoTime();
            pd.close();
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            // one after another, the ten closes take at least ten load timeouts (4 s); together, one and 2 s to spare
            assertTrue(took < 2400, "close() took " + took + " ms; the load timeout is 400 ms");
            for (int i = 0; i < 10; i++) {
                assertNull(pd.manager("p" + i + ":*"));
            }
        } finally {
            never.countDown();
        }
    }

    @Test
    void releasingManyLineagesForTheMemoryBoundWaitsOneLoadTimeoutInAllNotOnePerLineage() throws Exception {
        // twenty lineages whose subscriptions never return, then one with a dictionary so large that seventeen of
        // the twenty are released at once to keep the bound: each release waits for its manager's thread; one after
        // another, each for a whole load timeout, they held the pattern dictionaries' thread that many times over
        // (17 x 500 ms = 8.5 s, where the bound below is one load timeout and 3 s to spare). Each lineage takes one
        // load timeout to open (its manager is built without its subscription), 10 s for the twenty
        int lineages = 20;
        long timeoutMs = 500;
        long boundMs = timeoutMs + 3_000;
        CountDownLatch never = new CountDownLatch(1);
        // the largest dictionary a store yields by default (1 MiB), estimated at 32 KiB + 2 x 1,024 KiB + 832 KiB =
        // 2,912 KiB, within the bound of twenty small lineages (176 KiB each, 3,520 KiB): seventeen make room for it
        byte[] big = DictionaryBoundsTest.withId(DictionaryBoundsTest.grown(1 << 20), 300_001);
        long small = PatternDictionaries.estimatedNativeBytes(DictionaryManagerTest.DICT_B.length, true);
        ConcurrentHashMap<String, DictionaryStore> stores = new ConcurrentHashMap<>();
        PatternDictionaries pd = PatternDictionaries.builder(n -> stores.computeIfAbsent(n, x -> {
            InMemoryDictionaryStore s = new InMemoryDictionaryStore();
            if (x.equals(PatternDictionaries.ID_CLAIMS)) {
                return s;
            }
            if (x.equals(PatternDictionaries.lineageName("big:*"))) {
                s.putIfAbsent(id(big), big);
                return s;
            }
            s.putIfAbsent(id(DictionaryManagerTest.DICT_B), DictionaryManagerTest.DICT_B);
            return new HangingSubscription(s, never);
        })).manager(b -> b.loadTimeout(Duration.ofMillis(timeoutMs)).retrainInterval(Duration.ofHours(1)))
                .maxNativeBytes(lineages * small + 1).reopenDelay(Duration.ofHours(1)).build();
        try {
            for (int i = 0; i < lineages; i++) {
                pd.lineage("p" + i + ":*", CompressionConfig.defaults()).open(false);
            }
            awaitOpen(pd, lineages);
            assertEquals(lineages * small, pd.nativeBytes(), "all within the bound");
            long start = System.nanoTime();
            pd.lineage("big:*", CompressionConfig.defaults()).open(false);
            DictionaryManagerTest.await("the big lineage open and the bound kept",
                    () -> pd.manager("big:*") != null && pd.nativeBytes() <= pd.maxNativeBytes());
            long took = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
            int released = 0;
            for (int i = 0; i < lineages; i++) {
                released += pd.manager("p" + i + ":*") == null ? 1 : 0;
            }
            assertTrue(released >= 17, released + " lineages released");
            assertTrue(took < boundMs, "releasing " + released + " lineages for the memory bound took " + took
                    + " ms; the load timeout is " + timeoutMs + " ms");
        } finally {
            never.countDown();
            pd.close();
        }
    }

    /** Waits until the lineages of patterns {@code p0:*} to {@code p9:*} are open. */
    private static void awaitTenOpen(PatternDictionaries pd) throws InterruptedException {
        awaitOpen(pd, 10);
    }

    /**
     * Waits until the lineages of patterns {@code p0:*} to {@code p<n-1>:*} are open, up to a minute (they open one
     * after another, each a load timeout when its subscription hangs).
     */
    private static void awaitOpen(PatternDictionaries pd, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        for (int i = 0; i < n; i++) {
            while (pd.manager("p" + i + ":*") == null) {
                assertTrue(System.nanoTime() < deadline, "timed out waiting for " + n + " lineages to open");
                Thread.sleep(20);
            }
        }
    }

    /** A store in memory whose subscribe call does not return, interrupted or not, until {@code until} opens. */
    private record HangingSubscription(InMemoryDictionaryStore store, CountDownLatch until) implements DictionaryStore {
        HangingSubscription(CountDownLatch until) {
            this(new InMemoryDictionaryStore(), until);
        }

        @Override
        public List<DictionaryInfo> list() {
            return store.list();
        }

        @Override
        public byte[] get(long id) {
            return store.get(id);
        }

        @Override
        public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
            return store.putIfAbsent(id, dictionary);
        }

        @Override
        public long version() {
            return store.version();
        }

        @Override
        public AutoCloseable subscribe(Runnable onPublished) {
            awaitUninterruptibly(until);
            return null;
        }
    }

    /** Waits for {@code latch} as a client call that does not end when interrupted (keeping the interrupt). */
    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (true) {
            try {
                latch.await();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
