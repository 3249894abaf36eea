package dev.zstdjava.values;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Frame;
import dev.zstdjava.lz4.Lz4FrameDecompressor;
import dev.zstdjava.soak.CodecOps;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressor;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * Thousands of virtual threads on shared instances: one {@link ValueCompressor} per backend and the static
 * {@code Zstd}/{@code Lz4}/{@code Lz4Frame} methods, with values of mixed sizes; and owned contexts used by many
 * threads while another closes them. Every result is compared with its input; a call on an owned context either
 * gives the right bytes or throws {@link IllegalStateException} (in use by another thread, or closed), nothing else.
 */
class ConcurrencyTest {
    static final int THREADS = 4000;

    @Test
    void thousandsOfVirtualThreadsShareValueCompressorsAndTheStaticMethods() throws Exception {
        ValueCompressor zstd = ValueCompressor.create(CompressionConfig.defaults());
        ValueCompressor lz4 = ValueCompressor.create(CompressionConfig.builder().backend(CompressionBackend.LZ4)
                .minCompressionSize(6).build());
        AtomicLong checked = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            for (int t = 0; t < THREADS; t++) {
                long seed = t;
                pool.submit(() -> {
                    SplittableRandom r = new SplittableRandom(seed);
                    try {
                        start.await();
                        for (int i = 0; i < 8; i++) {
                            byte[] v = CodecOps.value(r);
                            ValueCompressor vc = r.nextBoolean() ? zstd : lz4;
                            byte[] stored = vc.compress(v);
                            check(v, vc.decompress(stored), "ValueCompressor " + vc.config().backend());
                            // a value written by one backend is read by the other's instance too (backend id)
                            check(v, (vc == zstd ? lz4 : zstd).decompress(stored), "the other ValueCompressor");
                            check(v, Zstd.decompress(Zstd.compress(v, r.nextInt(-3, 8))), "Zstd static");
                            check(v, Lz4.decompress(Lz4.compress(v, r.nextInt(-2, 10)), v.length), "Lz4 static");
                            check(v, Lz4Frame.decompress(Lz4Frame.compress(v)), "Lz4Frame static");
                            checked.addAndGet(5);
                            if (i % 2 == 0) {
                                Thread.yield(); // let the scheduler move virtual threads between carriers mid-run
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                    return null;
                });
            }
            start.countDown();
        }
        assertTrue(failures.isEmpty(), () -> failures.size() + " failures, first: " + failures.peek());
        assertEquals(THREADS * 8L * 5, checked.get());
        assertEquals(0, zstd.stats().decompressionFailures() + lz4.stats().decompressionFailures());
    }

    @Test
    void closingOwnedContextsWhileThreadsUseThem() throws Exception {
        for (int round = 0; round < 20; round++) {
            ZstdCompressor zc = ZstdCompressor.builder().level(1).build();
            ZstdDecompressor zd = ZstdDecompressor.create();
            Lz4Compressor lc = Lz4Compressor.create(0);
            Lz4FrameDecompressor fd = Lz4FrameDecompressor.create();
            AtomicLong ok = new AtomicLong();
            AtomicLong refused = new AtomicLong();
            ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
            CountDownLatch running = new CountDownLatch(50);
            List<Future<?>> done = new ArrayList<>();
            try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
                for (int t = 0; t < 200; t++) {
                    long seed = round * 1000L + t;
                    done.add(pool.submit(() -> {
                        SplittableRandom r = new SplittableRandom(seed);
                        running.countDown();
                        for (int i = 0; i < 30; i++) {
                            byte[] v = CodecOps.value(r);
                            try {
                                switch (r.nextInt(4)) {
                                    case 0 -> check(v, Zstd.decompress(zc.compress(v)), "shared ZstdCompressor");
                                    case 1 -> check(v, zd.decompress(Zstd.compress(v)), "shared ZstdDecompressor");
                                    case 2 -> check(v, Lz4.decompress(lc.compress(v), v.length), "shared Lz4Compressor");
                                    default -> check(v, fd.decompress(Lz4Frame.compress(v)), "shared Lz4FrameDecompressor");
                                }
                                ok.incrementAndGet();
                            } catch (IllegalStateException documented) { // in use by another thread, or closed
                                refused.incrementAndGet();
                            } catch (Throwable e) {
                                failures.add(e);
                            }
                        }
                        return null;
                    }));
                }
                running.await();
                zc.close(); // while the threads are in the middle of their calls
                zd.close();
                lc.close();
                fd.close();
                for (Future<?> f : done) {
                    f.get();
                }
            }
            assertTrue(failures.isEmpty(), () -> failures.size() + " failures, first: " + failures.peek());
            assertEquals(200 * 30L, ok.get() + refused.get());
            assertTrue(refused.get() > 0, "closed contexts must refuse calls");
            byte[] v = {1, 2, 3};
            for (Runnable closed : List.<Runnable>of(() -> zc.compress(v), () -> zd.decompress(v),
                    () -> lc.compress(v), () -> fd.decompress(v))) {
                try {
                    closed.run();
                    throw new AssertionError("a closed context accepted a call");
                } catch (IllegalStateException expected) {
                    // closed
                }
            }
        }
    }

    static void check(byte[] expected, byte[] actual, String what) {
        if (!Arrays.equals(expected, actual)) {
            throw new AssertionError(what + ": wrong bytes (" + expected.length + " in, " + actual.length + " out)");
        }
    }
}
