package dev.zstdjava.zstd;

import dev.zstdjava.TestData;
import dev.zstdjava.TestData.Kind;
import dev.zstdjava.internal.GuardProbe;
import dev.zstdjava.soak.NativeMemory;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Thread safety, lifetime under contention, and no native memory growth. */
class ZstdConcurrencyTest {
    /** The most malloc in use may grow over the long loop. */
    static final long MARGIN = 16L << 20;

    @Test
    void manyPlatformAndVirtualThreadsOnTheStaticApi() throws Exception {
        List<byte[]> inputs = new ArrayList<>();
        for (int i = 0; i < 16; i++) {
            inputs.add(TestData.generate(Kind.values()[i % 3], 100 + i * 3000, i));
        }
        for (ExecutorService pool : new ExecutorService[] {Executors.newFixedThreadPool(8),
                Executors.newVirtualThreadPerTaskExecutor()}) {
            try (pool) {
                List<Future<Integer>> results = new ArrayList<>();
                for (int t = 0; t < 64; t++) {
                    int seed = t;
                    results.add(pool.submit(() -> {
                        int ok = 0;
                        for (int i = 0; i < 100; i++) {
                            byte[] data = inputs.get((seed + i) % inputs.size());
                            int level = (seed + i) % 7 - 2;
                            if (level == 0) {
                                level = 3;
                            }
                            byte[] frame = Zstd.compress(data, level);
                            assertArrayEquals(data, Zstd.decompress(frame));
                            ok++;
                        }
                        return ok;
                    }));
                }
                for (Future<Integer> f : results) {
                    assertEquals(100, f.get());
                }
            }
        }
    }

    @Test
    void sharedInstanceRefusesConcurrentCallsInsteadOfCorrupting() throws Exception {
        byte[] data = TestData.generate(Kind.TEXT, 256 << 10, 3);
        AtomicInteger refused = new AtomicInteger();
        AtomicInteger done = new AtomicInteger();
        try (ZstdCompressor c = ZstdCompressor.create(5); ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                fs.add(pool.submit(() -> {
                    for (int i = 0; i < 50; i++) {
                        try {
                            byte[] frame = c.compress(data);
                            assertArrayEquals(data, Zstd.decompress(frame));
                            done.incrementAndGet();
                        } catch (IllegalStateException e) {
                            assertTrue(e.getMessage().contains("in use by another thread"), e.getMessage());
                            refused.incrementAndGet();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get();
            }
        }
        assertEquals(200, done.get() + refused.get());
        assertTrue(done.get() > 0);
    }

    @Test
    void closeDuringACallWaitsForIt() throws Exception {
        // the close must come while the call runs: the test waits until the compressor's guard shows the call inside
        // (after enter, during the long native call) and checks after close() returned that it still does; a round
        // where the call ended first proves nothing and is repeated
        byte[] big = TestData.generate(Kind.TEXT, 24 << 20, 4);
        int overlapped = 0;
        for (int round = 0; round < 10 && overlapped < 2; round++) {
            ZstdCompressor c = ZstdCompressor.create(7);
            GuardProbe guard = GuardProbe.of(c);
            try (ExecutorService pool = Executors.newSingleThreadExecutor()) {
                Future<byte[]> inFlight = pool.submit(() -> c.compress(big));
                while (!guard.inCall() && !inFlight.isDone()) {
                    Thread.onSpinWait();
                }
                c.close(); // must not free the context under the running call
                boolean freedAfterClose = guard.freed();
                if (guard.inCall()) { // inside before close and still inside after it: the close came during it
                    assertFalse(freedAfterClose, "the context was freed under the running call");
                    overlapped++;
                }
                byte[] frame = inFlight.get(120, TimeUnit.SECONDS);
                assertArrayEquals(big, Zstd.decompress(frame), "the call that was running completes correctly");
            }
            assertThrows(IllegalStateException.class, () -> c.compress(big));
            assertTrue(guard.freed(), "freed once the call ended");
        }
        assertTrue(overlapped >= 2, "a close came during a running call in only " + overlapped + " rounds");
    }

    @Test
    void closingFromManyThreadsWhileOthersCompress() throws Exception {
        byte[] data = TestData.generate(Kind.TEXT, 64 << 10, 5);
        for (int round = 0; round < 200; round++) {
            ZstdCompressor c = ZstdCompressor.create();
            ZstdDecompressor d = ZstdDecompressor.create();
            CountDownLatch go = new CountDownLatch(1);
            try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < 4; t++) {
                    boolean closer = t >= 2;
                    fs.add(pool.submit(() -> {
                        go.await();
                        if (closer) {
                            c.close();
                            d.close();
                            return null;
                        }
                        for (int i = 0; i < 5; i++) {
                            try {
                                byte[] frame = c.compress(data);
                                assertArrayEquals(data, d.decompress(frame));
                            } catch (IllegalStateException expected) {
                                // closed, or in use by the other worker
                            }
                        }
                        return null;
                    }));
                }
                go.countDown();
                for (Future<?> f : fs) {
                    f.get();
                }
            }
            assertThrows(IllegalStateException.class, () -> c.compress(data));
        }
    }

    /**
     * 20,000 round trips (contexts closed every tenth, the static API's per-thread contexts otherwise) leave malloc in
     * use where it was: the start is the least over 6 s of collections, the end is measured once it has fallen back
     * within the margin (at most 10 s of collections),
     * so that another thread's transient memory (a JIT compilation's arenas) is waited out, while memory the loop
     * kept stays above it.
     */
    @Test
    void noNativeMemoryGrowthOverALongLoop() throws Exception {
        byte[] data = TestData.generate(Kind.TEXT, 100_000, 6);
        loop(data, 2_000); // warm up: allocator arenas, JIT, per-thread contexts
        // the least over 6 s of collections: the JIT's memory freed meanwhile (in steps, every 5 s) is not in it
        long before = NativeMemory.floor(Duration.ofSeconds(6));
        loop(data, 20_000);
        long after = NativeMemory.fallTo(before + MARGIN - 1, Duration.ofSeconds(10));
        long growthMiB = (after - before) >> 20;
        System.out.println("malloc in use before " + (before >> 20) + " MiB, after 20000 iterations "
                + (after >> 20) + " MiB, growth " + growthMiB + " MiB");
        assertTrue(after - before < MARGIN, "native memory grew by " + growthMiB + " MiB");
    }

    /**
     * 3,000 compressor/decompressor pairs dropped unclosed are freed by the Cleaner: the end is measured once malloc in
     * use has fallen back within the margin, collecting for at most 30 s, so that a Cleaner slowed by a busy machine
     * is waited for; leaked pairs (some 1.5 MiB of native workspace each, several GiB in all) never fall.
     */
    @Test
    void unclosedContextsAreFreedByTheCleaner() throws Exception {
        byte[] data = TestData.generate(Kind.TEXT, 100_000, 7);
        dropUnclosed(data, 300);
        NativeMemory.settle();
        long before = NativeMemory.inUse();
        for (int i = 0; i < 10; i++) {
            dropUnclosed(data, 300);
            System.gc();
            Thread.sleep(50);
        }
        long after = NativeMemory.fallTo(before + (128L << 20) - 1, Duration.ofSeconds(30));
        long growthMiB = (after - before) >> 20;
        System.out.println("malloc growth after dropping 3000 unclosed compressor/decompressor pairs: " + growthMiB + " MiB");
        assertTrue(growthMiB < 128, "unclosed contexts leaked " + growthMiB + " MiB");
    }

    private static void dropUnclosed(byte[] data, int n) {
        for (int i = 0; i < n; i++) {
            ZstdCompressor c = ZstdCompressor.create(3);
            ZstdDecompressor d = ZstdDecompressor.create();
            byte[] frame = c.compress(data);
            assertEquals(data.length, d.decompress(frame).length);
        }
    }

    private static void loop(byte[] data, int n) {
        for (int i = 0; i < n; i++) {
            if (i % 10 == 0) {
                try (ZstdCompressor c = ZstdCompressor.create(1); ZstdDecompressor d = ZstdDecompressor.create()) {
                    assertEquals(data.length, d.decompress(c.compress(data)).length);
                }
            } else {
                assertEquals(data.length, Zstd.decompress(Zstd.compress(data, 1)).length);
            }
        }
    }
}
