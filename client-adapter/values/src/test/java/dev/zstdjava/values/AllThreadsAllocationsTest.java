package dev.zstdjava.values;

import dev.zstdjava.testkit.Allocations;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The all-threads measurement the Lettuce module's allocation test relies on: a pool thread that ends during the
 * measurement must not take its earlier allocation out of the figure (it made the figure negative), and a thread
 * started meanwhile counts.
 */
class AllThreadsAllocationsTest {
    private static final int MIB = 1 << 20;
    private static volatile Object sink;

    private static void allocate(int mebibytes) {
        for (int i = 0; i < mebibytes; i++) {
            sink = new byte[MIB];
        }
    }

    /** @return a started thread that allocates {@code mebibytes} MiB, counts {@code allocated} down, then waits for {@code end} */
    private static Thread allocating(int mebibytes, CountDownLatch allocated, CountDownLatch end) {
        Thread t = new Thread(() -> {
            allocate(mebibytes);
            allocated.countDown();
            try {
                end.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        t.start();
        return t;
    }

    @Test
    void aThreadThatEndsMeanwhileIsNotSubtracted() throws Exception {
        CountDownLatch allocated = new CountDownLatch(1);
        CountDownLatch end = new CountDownLatch(1);
        Thread t = allocating(64, allocated, end);
        allocated.await();
        Map<Long, Long> before = Allocations.allocatedByThread();
        end.countDown();
        t.join();
        long since = Allocations.allocatedSince(before);
        assertTrue(since >= 0 && since < 32L * MIB, "bytes since, with a 64 MiB thread ended meanwhile: " + since);
    }

    @Test
    void aThreadStartedMeanwhileCounts() throws Exception {
        Map<Long, Long> before = Allocations.allocatedByThread();
        CountDownLatch allocated = new CountDownLatch(1);
        CountDownLatch end = new CountDownLatch(1);
        Thread t = allocating(16, allocated, end);
        try {
            allocated.await();
            long since = Allocations.allocatedSince(before);
            assertTrue(since >= 16L * MIB, "bytes since, with a thread that allocated 16 MiB meanwhile: " + since);
        } finally {
            end.countDown();
            t.join();
        }
    }
}
