package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static dev.zstdjava.values.DictionaryBoundsTest.publish;
import static dev.zstdjava.values.DictionaryBoundsTest.readRetrying;
import static dev.zstdjava.values.DictionaryBoundsTest.writtenWith;
import static dev.zstdjava.values.DictionaryManagerTest.VALUES;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Reads thrashing a manager's {@code maxLoadedBytes}: each miss of an evicted dictionary costs a store read, and the
 * manager reads each dictionary's entry at most once a second however often its reads miss, while every read still
 * reads back when retried.
 */
class DictionaryFetchRateTest {
    /** An in-memory store that records when each dictionary's entry is read, once {@link #counting} is set. */
    static final class TimedStore extends AdaptivePatternDictionariesTest.Forwarding {
        final Map<Long, Queue<Long>> readsById = new ConcurrentHashMap<>();
        volatile boolean counting;

        TimedStore(DictionaryStore inner) {
            super(inner);
        }

        @Override
        public byte[] get(long id) {
            if (counting) {
                readsById.computeIfAbsent(id, x -> new ConcurrentLinkedQueue<>()).add(System.nanoTime());
            }
            return super.get(id);
        }
    }

    /**
     * Six readers, each reading values of its own dictionary in a loop for three seconds, retrying each miss, under a
     * bound that holds the compressing dictionary and two others: the dictionaries keep evicting each other, and the
     * entry of each is read again and again, but never twice within a second. Every value reads back.
     */
    @Test
    void readsOfMoreDictionariesThanTheBoundHoldsReadEachEntryAtMostOnceASecond() throws Exception {
        InMemoryDictionaryStore inner = new InMemoryDictionaryStore();
        List<byte[]> dictionaries = publish(inner, DictionaryReadRetryTest.BIG, 950_000, 6);
        publish(inner, DictionaryReadRetryTest.BIG, 950_100, 1); // the newest compresses: never evicted
        TimedStore store = new TimedStore(inner);
        try (DictionaryManager m = DictionaryManager.shared(store).maxLoadedBytes(DictionaryReadRetryTest.BOUND)
                .notifications(false).refreshInterval(Duration.ofMillis(20)).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            store.counting = true; // from here on, every entry read is a fetch for a read's miss
            Queue<Throwable> failures = new ConcurrentLinkedQueue<>();
            AtomicBoolean done = new AtomicBoolean();
            AtomicLong reads = new AtomicLong();
            List<Thread> readers = new ArrayList<>();
            for (int r = 0; r < 6; r++) {
                byte[] original = VALUES.get(30 + r);
                byte[] stored = writtenWith(dictionaries.get(r), original);
                readers.add(new Thread(() -> {
                    while (!done.get()) {
                        try {
                            assertArrayEquals(original, readRetrying(vc, stored));
                            reads.incrementAndGet();
                        } catch (Throwable e) {
                            failures.add(e);
                            return;
                        }
                    }
                }, "reader-" + r));
            }
            readers.forEach(Thread::start);
            Thread.sleep(3_000);
            done.set(true);
            for (Thread t : readers) {
                t.join(15_000);
                assertFalse(t.isAlive(), t.getName() + " still running");
            }
            if (!failures.isEmpty()) {
                throw new AssertionError(failures.size() + " readers failed; the first: " + failures.peek(),
                        failures.peek());
            }
            assertTrue(reads.get() >= 6, reads.get() + " reads");
            int refetched = 0;
            for (Map.Entry<Long, Queue<Long>> e : store.readsById.entrySet()) {
                List<Long> at = new ArrayList<>(e.getValue());
                refetched += at.size() - 1;
                for (int i = 1; i < at.size(); i++) {
                    long apart = at.get(i) - at.get(i - 1);
                    assertTrue(apart >= TimeUnit.SECONDS.toNanos(1), "dictionary " + e.getKey() + "'s entry read "
                            + TimeUnit.NANOSECONDS.toMillis(apart) + " ms after the one before, within a second ("
                            + at.size() + " reads of it in all)");
                }
            }
            assertTrue(refetched > 0, "no dictionary was read twice: the readers did not thrash the bound "
                    + store.readsById.keySet());
        }
    }
}
