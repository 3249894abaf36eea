package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static dev.zstdjava.values.DictionaryBoundsTest.grown;
import static dev.zstdjava.values.DictionaryBoundsTest.readRetrying;
import static dev.zstdjava.values.DictionaryBoundsTest.withId;
import static dev.zstdjava.values.DictionaryBoundsTest.writtenWith;
import static dev.zstdjava.values.DictionaryManagerTest.VALUES;
import static dev.zstdjava.values.DictionaryManagerTest.id;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Reads and writes while a manager bounded to two loaded dictionaries evicts continuously (six published, eight
 * threads reading values of all six, two compressing, and in the second test newer dictionaries published meanwhile,
 * so the one compressing is replaced and then evicted under the compressors): every read returns the original bytes,
 * nothing but the contract's retried {@link MissingDictionaryException} is thrown, no value is stored uncompressed for
 * a failure, and the loaded dictionaries end within twice the bound, and then within the bound.
 */
class DictionaryEvictionStressTest {
    static final Duration RUN = Duration.ofMillis(1500);

    @Test
    void eightReadersOfSixDictionariesAndTwoWritersUnderABoundOfTwoReadExactBytes() throws Exception {
        stress(false);
    }

    @Test
    void theCompressingDictionaryReplacedAndEvictedUnderTheWritersLosesNoWrite() throws Exception {
        stress(true);
    }

    private static void stress(boolean publishing) throws Exception {
        byte[] big = grown(32 << 10);
        long each = PatternDictionaries.estimatedNativeBytes(big.length, false);
        long firstId = publishing ? 710_000 : 700_000;
        InMemoryDictionaryStore store = new InMemoryDictionaryStore();
        List<byte[]> published = new ArrayList<>();
        List<byte[][]> written = new ArrayList<>(); // {original, stored}
        for (int i = 0; i < 6; i++) {
            byte[] d = withId(big, firstId + i);
            store.putIfAbsent(id(d), d);
            published.add(d);
            for (int v = 0; v < 4; v++) {
                byte[] original = VALUES.get((10 * i + v) % VALUES.size());
                written.add(new byte[][] {original, writtenWith(d, original)});
            }
        }
        long bound = 2 * each + 1;
        Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
        AtomicBoolean done = new AtomicBoolean();
        AtomicLong reads = new AtomicLong();
        AtomicLong writes = new AtomicLong();
        DictionaryBoundsTest.CountingStore counting = new DictionaryBoundsTest.CountingStore(store);
        try (DictionaryManager m = DictionaryManager.shared(counting).maxLoadedBytes(bound)
                .refreshInterval(Duration.ofMillis(10)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                threads.add(new Thread(() -> {
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    while (!done.get()) {
                        byte[][] w = written.get(r.nextInt(written.size()));
                        try {
                            byte[] read = readRetrying(vc, w[1]);
                            if (!java.util.Arrays.equals(w[0], read)) {
                                failures.add(new AssertionError("wrong bytes read for a value of dictionary "
                                        + DictionaryManagerTest.frameDictId(w[1])));
                            }
                            reads.incrementAndGet();
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    }
                }, "reader-" + t));
            }
            for (int t = 0; t < 2; t++) {
                threads.add(new Thread(() -> {
                    ThreadLocalRandom r = ThreadLocalRandom.current();
                    while (!done.get()) {
                        byte[] original = VALUES.get(r.nextInt(VALUES.size()));
                        try {
                            byte[] stored = vc.compress(original);
                            byte[] read = readRetrying(vc, stored);
                            if (!java.util.Arrays.equals(original, read)) {
                                failures.add(new AssertionError("wrong bytes read back for a value just written"));
                            }
                            writes.incrementAndGet();
                        } catch (Throwable e) {
                            failures.add(e);
                        }
                    }
                }, "writer-" + t));
            }
            if (publishing) { // the compressing dictionary replaced, then evicted by the readers' loads
                threads.add(new Thread(() -> {
                    for (int i = 6; !done.get(); i++) {
                        byte[] d = withId(big, firstId + i);
                        store.putIfAbsent(id(d), d);
                        java.util.concurrent.locks.LockSupport.parkNanos(15_000_000);
                    }
                }, "publisher"));
            }
            threads.forEach(Thread::start);
            // at least RUN, and on until enough reads, writes and reloads happened (a slow machine gets more time)
            long start = System.nanoTime();
            long most = start + Duration.ofSeconds(20).toNanos();
            while (System.nanoTime() - start < RUN.toNanos() || (System.nanoTime() < most && failures.isEmpty()
                    && (reads.get() < 6 || counting.gets.get() < 6 + 4 || writes.get() <= 10))) {
                Thread.sleep(20);
            }
            done.set(true);
            for (Thread t : threads) {
                t.join(15_000);
                assertFalse(t.isAlive(), t.getName() + " still running");
            }
            if (!failures.isEmpty()) {
                AssertionError e = new AssertionError(failures.size() + " failures; the first: " + failures.peek(),
                        failures.peek());
                failures.stream().skip(1).limit(5).forEach(e::addSuppressed);
                throw e;
            }
            // with room for the compressing dictionary and one other, five alternate: each read of one evicted costs a
            // reload, one at a time on the manager's thread, so reads are few
            assertTrue(reads.get() >= 6, reads.get() + " reads");
            assertTrue(counting.gets.get() >= 6 + 4, counting.gets.get() + " entries read: too few evictions");
            assertTrue(writes.get() > 10, writes.get() + " writes");
            assertEquals(0, vc.stats().compressionFailures(), "values stored as they are for a failure");
            assertEquals(0, vc.stats().decompressionFailures());
            // those loaded for the last reads' retries may take them above the bound, until read or their grace is
            // over: beside the compressing one, those kept take the bound at most; then the periodic check evicts
            // down to the bound
            int loaded = m.dictionaryStats().size();
            assertTrue(loaded * each <= bound + each, loaded + " dictionaries loaded at the end, above the bound and"
                    + " the compressing one");
            DictionaryManagerTest.await("the loaded dictionaries within the bound of two",
                    () -> m.dictionaryStats().size() * each <= bound);
        }
    }
}
