package dev.zstdjava.values;

import dev.zstdjava.soak.NativeMemory;
import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressionDictionary;
import dev.zstdjava.zstd.ZstdDecompressor;
import dev.zstdjava.zstd.ZstdDictionary;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static dev.zstdjava.values.DictionaryManagerTest.DICT_A;
import static dev.zstdjava.values.DictionaryManagerTest.VALUES;
import static dev.zstdjava.values.DictionaryManagerTest.await;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The native memory of a manager's dictionaries, measured as glibc sees it (malloc in use, {@code mallinfo2}): close
 * frees every digest the manager made, a digest that is replaced (another level, a newer dictionary adopted) is freed
 * once no call uses it, and a call in flight keeps its digest until it ends. Every object whose memory is measured
 * stays strongly reachable, so no {@link java.lang.ref.Cleaner} can free it instead of the manager.
 */
class DictionaryNativeMemoryTest {
    /** Dictionaries this large make their digests stand out of the JVM's own malloc traffic. */
    static final int SIZE = 768 << 10;
    static final int LEVEL = 3;
    /** How long a floor of malloc in use is taken over: longer than the JVM keeps a compilation's arenas (5 s). */
    static final Duration WINDOW = Duration.ofSeconds(6);
    static long cdictBytes;
    static long ddictBytes;

    /** Measures one digest of each kind: the median of five tries, so that other threads' malloc does not count. */
    @BeforeAll
    static void measureOneDigest() {
        assertTrue(NativeMemory.hasMallinfo(), "glibc's mallinfo2 (glibc 2.33+) is needed to measure malloc in use");
        ZstdDictionary d = ZstdDictionary.of(big(0x7000, 1));
        d.forCompression(LEVEL).close(); // warm up
        d.forDecompression().close();
        long[] c = new long[5];
        long[] dd = new long[5];
        for (int i = 0; i < c.length; i++) {
            long before = inUse();
            ZstdCompressionDictionary cd = d.forCompression(LEVEL);
            c[i] = inUse() - before;
            before = inUse();
            ZstdDecompressionDictionary ddict = d.forDecompression();
            dd[i] = inUse() - before;
            cd.close();
            ddict.close();
        }
        Arrays.sort(c);
        Arrays.sort(dd);
        cdictBytes = c[2];
        ddictBytes = dd[2];
        assertTrue(cdictBytes > SIZE && ddictBytes > SIZE, "each digest holds a copy of the " + SIZE
                + "-byte dictionary: CDict " + cdictBytes + ", DDict " + ddictBytes + " bytes");
    }

    /** A valid zstd dictionary of {@link #SIZE} bytes with this id: DICT_A's tables, then random content. */
    static byte[] big(long id, long seed) {
        byte[] d = Arrays.copyOf(DICT_A, SIZE);
        byte[] tail = new byte[SIZE - DICT_A.length];
        new Random(seed).nextBytes(tail);
        System.arraycopy(tail, 0, d, DICT_A.length, tail.length);
        MemorySegment.ofArray(d).set(ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN), 4, (int) id);
        return d;
    }

    static long inUse() {
        return NativeMemory.inUse();
    }

    /**
     * The least malloc in use over 6 s of collections ({@link NativeMemory#floor}): what other threads hold for a
     * while (a JIT compilation's arenas, which the JVM's chunk pool keeps up to 5 s; a background thread an earlier
     * test left) does not count, before or after what a test measures. Memory the test holds counts in every sample,
     * so it is in the least. Everything this test measures is strongly reachable, so no Cleaner frees it.
     */
    static long floor() throws InterruptedException {
        return NativeMemory.floor(WINDOW);
    }

    /**
     * @return how far malloc in use has fallen below {@code from}, once it has fallen more than {@code bytes}, else
     *         the most it fell in {@link #WINDOW} of collections ({@link NativeMemory#fallTo}): another thread's
     *         transient memory is waited out, memory that is not freed never falls
     */
    static long fallen(long from, long bytes) throws InterruptedException {
        return from - NativeMemory.fallTo(from - bytes - 1, WINDOW);
    }

    /** Compresses and decompresses one value with the entry's digests, closing the contexts. */
    static void use(DictionaryManager.Entry e) {
        byte[] v = VALUES.get((int) (e.id % VALUES.size()));
        try (ZstdCompressor c = ZstdCompressor.builder().dictionary(e.compressionDictionary(LEVEL)).build();
             ZstdDecompressor d = ZstdDecompressor.builder().dictionary(e.decompression).build()) {
            assertArrayEquals(v, d.decompress(c.compress(v)));
        }
    }

    static void assertReleased(ZstdCompressionDictionary cd) {
        IllegalStateException x = assertThrows(IllegalStateException.class,
                () -> ZstdCompressor.builder().dictionary(cd).build());
        assertTrue(x.getMessage().contains("closed"), x.getMessage());
    }

    static void assertReleased(ZstdDecompressionDictionary dd) {
        IllegalStateException x = assertThrows(IllegalStateException.class,
                () -> ZstdDecompressor.builder().dictionary(dd).build());
        assertTrue(x.getMessage().contains("closed"), x.getMessage());
    }

    static DictionaryManager fourDictionaries(int round) {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        store.putIfAbsent(0x100 + round * 4L, big(0x100 + round * 4L, round * 4L));
        store.putIfAbsent(0x101 + round * 4L, big(0x101 + round * 4L, round * 4L + 1));
        return DictionaryManager.given(big(0x102 + round * 4L, round * 4L + 2), big(0x103 + round * 4L,
                round * 4L + 3)).store(store).refreshInterval(Duration.ofHours(1)).build();
    }

    /**
     * {@link PatternDictionaries} bounds an estimate of its lineages' native memory ({@code maxNativeBytes}): the
     * estimate of a lineage writing with a published 16 KiB dictionary covers the digests libzstd holds for it, its
     * decompression digest and its compression digest at level 3, measured here alone (it had counted 160 KiB of
     * some 460 KB, so the bound held about three times what it said).
     */
    @Test
    void aLineagesEstimateCoversTheDigestsOfTheDictionaryItWritesWith() throws Exception {
        byte[] dict = ZstdDictionary.train(DictionaryManagerTest.TRAIN, 16 << 10).toByteArray();
        ZstdDictionary z = ZstdDictionary.of(dict);
        z.forCompression(LEVEL).close(); // warm up
        z.forDecompression().close();
        long[] held = new long[5];
        for (int i = 0; i < held.length; i++) {
            long before = inUse();
            ZstdCompressionDictionary cd = z.forCompression(LEVEL);
            ZstdDecompressionDictionary dd = z.forDecompression();
            held[i] = inUse() - before;
            cd.close();
            dd.close();
        }
        Arrays.sort(held);
        long measured = held[2];
        java.util.Map<String, InMemoryDictionaryStore> stores = new java.util.concurrent.ConcurrentHashMap<>();
        stores.computeIfAbsent(PatternDictionaries.lineageName("event:*"), n -> new InMemoryDictionaryStore())
                .putIfAbsent(z.id(), dict);
        try (PatternDictionaries pd = PatternDictionaries.builder(n -> stores.computeIfAbsent(n,
                        x -> new InMemoryDictionaryStore()))
                .manager(b -> b.refreshInterval(Duration.ofHours(1)).notifications(false)).build()) {
            AdaptiveCompressor ac = AdaptivePatternDictionariesTest.compressor(pd);
            AdaptivePatternDictionariesTest.writeUntilOnDictionaries(ac, List.of("event"),
                    new java.util.concurrent.ConcurrentHashMap<>());
            assertEquals(z.id(), pd.manager("event:*").currentId());
            assertEquals(1, pd.manager("event:*").dictionaryStats().size());
            assertTrue(pd.nativeBytes() >= measured, "estimated " + pd.nativeBytes() + " native bytes for the"
                    + " lineage's " + dict.length + "-byte dictionary; its digests hold " + measured);
            assertTrue(pd.nativeBytes() < 2 * measured, "estimated " + pd.nativeBytes() + ", held " + measured);
        }
    }

    @Test
    void closeFreesEveryDigestAndRepeatedManagersStayFlat() throws InterruptedException {
        try (DictionaryManager warm = fourDictionaries(99)) {
            for (long id = 0x100 + 99 * 4; id < 0x104 + 99 * 4; id++) {
                use(warm.find(id));
            }
        }
        List<DictionaryManager> kept = new ArrayList<>(); // reachable: only close() can free their digests
        List<DictionaryManager.Entry> all = new ArrayList<>();
        List<ZstdCompressionDictionary> allCds = new ArrayList<>();
        long before = floor();
        long heldByOne = 0;
        int rounds = 8;
        for (int round = 0; round < rounds; round++) {
            long start = inUse();
            DictionaryManager m = fourDictionaries(round);
            kept.add(m);
            List<DictionaryManager.Entry> entries = new ArrayList<>();
            for (long id = 0x100 + round * 4L; id < 0x104 + round * 4L; id++) {
                entries.add(m.find(id));
            }
            assertEquals(4, m.dictionaryStats().size());
            List<ZstdCompressionDictionary> cds = new ArrayList<>();
            for (DictionaryManager.Entry e : entries) {
                use(e); // digests every dictionary for compression too
                cds.add(e.compressionDictionary(LEVEL));
            }
            // the most any round held: a free of something else (another test's context, let go late) during
            // one round's measure shows as less held in that round only
            heldByOne = Math.max(heldByOne, inUse() - start);
            m.close();
            all.addAll(entries);
            allCds.addAll(cds);
        }
        assertTrue(heldByOne > 8L * SIZE, "four dictionaries in use hold their two digests, each with a copy of the "
                + SIZE + "-byte dictionary: at most " + heldByOne + " bytes in a round");
        long grown = floor() - before;
        assertTrue(grown < heldByOne / 2, rounds + " managers of 4 dictionaries, each held " + heldByOne
                + " native bytes while open; after closing them all malloc in use grew by " + grown + " bytes");
        assertEquals(rounds, kept.size());
        for (DictionaryManager.Entry e : all) {
            assertReleased(e.decompression);
        }
        allCds.forEach(DictionaryNativeMemoryTest::assertReleased);
    }

    /**
     * A manager bounded to two loaded dictionaries reads the values of eight, each loaded on demand and the least
     * recently used evicted: the evicted ones' digests are freed, in the registry and in every coder that decoded
     * with them, so malloc in use stays at two dictionaries' digests. Eight compressors each decode with another
     * dictionary, so that a freeing missed in the coders keeps six digests (about 5 MB), far above what the JVM's
     * own malloc keeps between the two measures (0.65 MB was seen in a full JDK 21 run).
     */
    @Test
    void dictionariesEvictedForTheLoadedBoundAreFreedOnceUnused() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        List<byte[]> written = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            byte[] d = big(0x600 + i, 60 + i);
            store.putIfAbsent(0x600 + i, d);
            written.add(DictionaryBoundsTest.writtenWith(d, VALUES.get(i)));
        }
        long bound = 2 * PatternDictionaries.estimatedNativeBytes(SIZE, false) + 1;
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(bound)
                .refreshInterval(Duration.ofHours(1)).notifications(false).build()) {
            // 7 compresses, so it stays loaded; each other read evicts the one before it, which another compressor's
            // coder decoded with: that coder keeps a decompressor of an evicted dictionary unless the eviction frees
            // it
            List<ValueCompressor> vcs = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
                assertArrayEquals(VALUES.get(7), vc.decompress(written.get(7))); // its contexts made
                vcs.add(vc);
            }
            assertArrayEquals(VALUES.get(6), DictionaryBoundsTest.readRetrying(vcs.get(7), written.get(6)));
            assertTrue(m.isLoaded(0x606) && m.isLoaded(0x607));
            long before = floor(); // two dictionaries loaded, and nine decompressors
            for (int i = 0; i < 6; i++) { // reading 0 evicts 6, reading 1 evicts 0, ..., reading 5 evicts 4
                assertArrayEquals(VALUES.get(i), DictionaryBoundsTest.readRetrying(vcs.get(i), written.get(i)));
                assertTrue(m.dictionaryStats().size() <= 2, m.dictionaryStats().size() + " loaded");
            }
            assertTrue(m.isLoaded(0x605) && m.isLoaded(0x607));
            long grown = floor() - before; // two dictionaries loaded, and nine decompressors
            assertTrue(grown < 2 * ddictBytes, "eight dictionaries read through a manager keeping two loaded: malloc"
                    + " in use grew by " + grown + " bytes; one more decompression digest holds " + ddictBytes);
        }
    }

    @Test
    void aCallInFlightKeepsItsDigestsUntilItEndsThenTheyAreFreed() throws InterruptedException {
        DictionaryManager m = DictionaryManager.given(big(0x200, 20)).build();
        DictionaryManager.Entry e = m.current();
        byte[] v = VALUES.get(7);
        ZstdCompressionDictionary cd = e.compressionDictionary(LEVEL);
        ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
        ZstdDecompressor d = ZstdDecompressor.builder().dictionary(e.decompression).build();
        long open = floor();
        m.close();
        // the floor is at most what was held before the close, this measure at least what is held after it
        long closedInFlight = inUse();
        assertTrue(open - closedInFlight < SIZE / 2, "nothing freed under the calls in flight: "
                + (open - closedInFlight) + " bytes went");
        assertArrayEquals(v, d.decompress(c.compress(v))); // the calls still work with them
        c.close();
        d.close();
        long freed = fallen(open, 3L * SIZE / 2);
        assertTrue(freed > 3L * SIZE / 2, "closing the last contexts frees both digests (each with a copy of the "
                + SIZE + "-byte dictionary): " + freed + " bytes freed");
        java.lang.ref.Reference.reachabilityFence(c); // closed, not left to the Cleaner
        java.lang.ref.Reference.reachabilityFence(d);
        assertReleased(e.decompression); // the manager let go of them
        assertReleased(cd);
    }

    @Test
    void aDigestReplacedByAnotherLevelIsFreedOnceNoCallUsesIt() throws InterruptedException {
        try (DictionaryManager m = DictionaryManager.given(big(0x300, 30)).build()) {
            DictionaryManager.Entry e = m.current();
            ZstdCompressionDictionary three = e.compressionDictionary(LEVEL);
            ZstdCompressor inFlight = ZstdCompressor.builder().dictionary(three).build();
            ZstdCompressionDictionary five = e.compressionDictionary(5);
            assertNotSame(three, five);
            assertEquals(5, five.level());
            byte[] v = VALUES.get(9);
            try (ZstdDecompressor d = ZstdDecompressor.builder().dictionary(e.decompression).build()) {
                assertArrayEquals(v, d.decompress(inFlight.compress(v)));
            }
            long before = floor();
            inFlight.close();
            long freed = fallen(before, 3L * SIZE / 4);
            assertTrue(freed > 3L * SIZE / 4, "the replaced level-3 digest goes with its last compressor: "
                    + freed + " bytes freed, a CDict holds a copy of the " + SIZE + "-byte dictionary");
            java.lang.ref.Reference.reachabilityFence(inFlight); // closed, not left to the Cleaner
            assertSame(five, e.compressionDictionary(5));
        }
    }

    @Test
    void theDigestOfADictionaryThatStopsCompressingIsFreedWhenANewerOneIsPublished() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        store.putIfAbsent(0x400, big(0x400, 40));
        try (DictionaryManager m = DictionaryManager.shared(store).refreshInterval(Duration.ofMillis(20))
                .notifications(false).build()) {
            DictionaryManager.Entry first = m.current();
            assertEquals(0x400, first.id);
            ZstdCompressionDictionary cdA = first.compressionDictionary(LEVEL);
            ZstdCompressor inFlight = ZstdCompressor.builder().dictionary(cdA).build(); // a writer still using A
            store.putIfAbsent(0x401, big(0x401, 41));
            await("the newer dictionary to compress", () -> m.currentId() == 0x401);
            await("A's compression digest to be released", () -> {
                try {
                    ZstdCompressor.builder().dictionary(cdA).build().close();
                    return false;
                } catch (IllegalStateException closed) {
                    return true;
                }
            });
            byte[] v = VALUES.get(11);
            try (ZstdDecompressor d = ZstdDecompressor.builder().dictionary(first.decompression).build()) {
                assertArrayEquals(v, d.decompress(inFlight.compress(v)), "the writer still using A finishes");
            }
            long before = floor();
            inFlight.close();
            long freed = fallen(before, 3L * SIZE / 4);
            assertTrue(freed > 3L * SIZE / 4, "A's compression digest goes with its last compressor: " + freed
                    + " bytes freed, a CDict holds a copy of the " + SIZE + "-byte dictionary");
            java.lang.ref.Reference.reachabilityFence(inFlight); // closed, not left to the Cleaner
            use(m.find(0x400)); // A is still loaded: readable, and digested again on demand
        }
    }

    /**
     * Four threads write and read values while the compressing dictionary is replaced twice and then the manager
     * closes: before the close every value round-trips (a write that raced a released digest is stored uncompressed,
     * still correct); after it a read may be refused with "closed", never answered with wrong bytes.
     */
    @Test
    void valuesInFlightWhileDictionariesAreReplacedAndClosedStayCorrect() throws Exception {
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        store.putIfAbsent(DictionaryManagerTest.id(DICT_A), DICT_A);
        DictionaryManager m = DictionaryManager.shared(store).refreshInterval(Duration.ofMillis(10))
                .notifications(false).build();
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
        java.util.concurrent.atomic.AtomicBoolean closed = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
        java.util.concurrent.atomic.AtomicLong roundTrips = new java.util.concurrent.atomic.AtomicLong();
        List<Throwable> wrong = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int seed = t;
            Thread th = new Thread(() -> {
                int i = seed;
                while (!stop.get()) {
                    byte[] v = VALUES.get(i++ % VALUES.size());
                    boolean afterClose = closed.get();
                    try {
                        byte[] back = vc.decompress(vc.compress(v));
                        if (!Arrays.equals(v, back)) {
                            wrong.add(new AssertionError("value " + (i - 1) + " came back different"));
                            return;
                        }
                        roundTrips.incrementAndGet();
                    } catch (IllegalStateException e) {
                        if (!(afterClose || closed.get()) || !e.getMessage().contains("closed")) {
                            wrong.add(e);
                            return;
                        }
                    } catch (RuntimeException e) {
                        wrong.add(e);
                        return;
                    }
                }
            });
            threads.add(th);
            th.start();
        }
        byte[] third = big(0x500, 50);
        await("round trips with A", () -> roundTrips.get() > 200);
        store.putIfAbsent(DictionaryManagerTest.id(DictionaryManagerTest.DICT_B), DictionaryManagerTest.DICT_B);
        await("B to compress", () -> m.currentId() == DictionaryManagerTest.id(DictionaryManagerTest.DICT_B));
        long atB = roundTrips.get();
        await("round trips with B", () -> roundTrips.get() > atB + 200);
        store.putIfAbsent(0x500, third);
        await("the third to compress", () -> m.currentId() == 0x500);
        long atThird = roundTrips.get();
        await("round trips with the third", () -> roundTrips.get() > atThird + 200);
        closed.set(true);
        m.close();
        Thread.sleep(100);
        stop.set(true);
        for (Thread th : threads) {
            th.join(10_000);
        }
        assertEquals(List.of(), wrong);
    }
}
