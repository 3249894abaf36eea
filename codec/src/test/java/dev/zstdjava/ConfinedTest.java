package dev.zstdjava;

import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.lz4.Lz4Frame;
import dev.zstdjava.lz4.Lz4FrameCompressor;
import dev.zstdjava.lz4.Lz4FrameDecompressor;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressor;
import org.junit.jupiter.api.Test;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Confined compressors and decompressors: only the thread that made one may call it and close it; another thread is
 * refused (a call or a close), and the object keeps working for its owner afterwards; close frees and refuses later
 * calls.
 */
class ConfinedTest {
    private static final byte[] DATA = ("confined objects are checked with a plain read of the owner thread; ")
            .repeat(40).getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    /** One confined codec object and a round trip through it, on arrays and on segments. */
    private record Case(String name, Supplier<AutoCloseable> make, Supplier<AutoCloseable> makeShared,
                        RoundTrip roundTrip) {}

    @FunctionalInterface
    private interface RoundTrip {
        void run(AutoCloseable codec) throws Exception;
    }

    private static List<Case> cases() {
        byte[] zf = ZstdCompressor.create().compress(DATA);
        byte[] lb = Lz4Compressor.create().compress(DATA);
        byte[] ff = Lz4FrameCompressor.create().compress(DATA);
        return List.of(
                new Case("ZstdCompressor", () -> ZstdCompressor.builder().level(3).confined().build(),
                        ZstdCompressor::create, c -> {
                            ZstdCompressor z = (ZstdCompressor) c;
                            assertArrayEquals(DATA, dev.zstdjava.zstd.Zstd.decompress(z.compress(DATA)));
                            try (Arena a = Arena.ofConfined()) {
                                MemorySegment d = a.allocate(z.maxCompressedLength(DATA.length));
                                long n = z.compress(MemorySegment.ofArray(DATA), d);
                                assertArrayEquals(DATA, dev.zstdjava.zstd.Zstd.decompress(
                                        d.asSlice(0, n).toArray(java.lang.foreign.ValueLayout.JAVA_BYTE)));
                            }
                        }),
                new Case("ZstdDecompressor", () -> ZstdDecompressor.builder().confined().build(),
                        ZstdDecompressor::create, c -> {
                            ZstdDecompressor z = (ZstdDecompressor) c;
                            assertArrayEquals(DATA, z.decompress(zf));
                            byte[] out = new byte[DATA.length];
                            assertEquals(DATA.length, z.decompress(zf, 0, zf.length, out, 0, out.length));
                            assertArrayEquals(DATA, out);
                        }),
                new Case("Lz4Compressor", () -> Lz4Compressor.builder().confined().build(),
                        Lz4Compressor::create, c -> {
                            Lz4Compressor z = (Lz4Compressor) c;
                            assertArrayEquals(DATA, dev.zstdjava.lz4.Lz4.decompress(z.compress(DATA), DATA.length));
                        }),
                new Case("Lz4Decompressor", () -> Lz4Decompressor.builder().confined().build(),
                        Lz4Decompressor::create, c -> {
                            Lz4Decompressor z = (Lz4Decompressor) c;
                            assertArrayEquals(DATA, z.decompress(lb, DATA.length));
                            assertArrayEquals(DATA, z.decompress(lb));
                        }),
                new Case("Lz4FrameCompressor", () -> Lz4FrameCompressor.builder().confined().build(),
                        Lz4FrameCompressor::create, c -> {
                            Lz4FrameCompressor z = (Lz4FrameCompressor) c;
                            assertArrayEquals(DATA, Lz4Frame.decompress(z.compress(DATA)));
                        }),
                new Case("Lz4FrameDecompressor",
                        () -> Lz4FrameDecompressor.builder().maxDecompressedSize(1 << 20).confined().build(),
                        Lz4FrameDecompressor::create, c -> {
                            Lz4FrameDecompressor z = (Lz4FrameDecompressor) c;
                            assertArrayEquals(DATA, z.decompress(ff));
                        }));
    }

    private static boolean confined(AutoCloseable c) {
        return switch (c) {
            case ZstdCompressor z -> z.isConfined();
            case ZstdDecompressor z -> z.isConfined();
            case Lz4Compressor z -> z.isConfined();
            case Lz4Decompressor z -> z.isConfined();
            case Lz4FrameCompressor z -> z.isConfined();
            case Lz4FrameDecompressor z -> z.isConfined();
            default -> throw new AssertionError(c);
        };
    }

    /** Runs {@code action} on a new platform thread and returns what it threw (null if nothing). */
    private static Throwable onOtherThread(String name, RoundTrip action, AutoCloseable codec) throws Exception {
        AtomicReference<Throwable> thrown = new AtomicReference<>();
        Thread t = new Thread(() -> {
            try {
                action.run(codec);
            } catch (Throwable e) {
                thrown.set(e);
            }
        }, name);
        t.start();
        t.join();
        return thrown.get();
    }

    @Test
    void anotherThreadIsRefusedForCallsAndCloseAndTheOwnerKeepsWorking() throws Exception {
        String owner = Thread.currentThread().getName();
        for (Case c : cases()) {
            try (AutoCloseable codec = c.make().get(); AutoCloseable shared = c.makeShared().get()) {
                assertTrue(confined(codec), c.name());
                assertFalse(confined(shared), c.name() + " made without confined is shared");
                c.roundTrip().run(codec);
                Throwable call = onOtherThread("intruder", c.roundTrip(), codec);
                assertNotNull(call, c.name() + ": a call from another thread was admitted");
                assertEquals(IllegalStateException.class, call.getClass(), c.name());
                String m = call.getMessage();
                assertTrue(m.startsWith(c.name() + " is confined to thread '" + owner + "'")
                        && m.contains("cannot be used from thread 'intruder'"), m);
                Throwable close = onOtherThread("closer", AutoCloseable::close, codec);
                assertNotNull(close, c.name() + ": a close from another thread was admitted");
                assertTrue(close.getMessage().contains("cannot be closed from thread 'closer'"), close.getMessage());
                c.roundTrip().run(codec); // refused calls changed nothing
                c.roundTrip().run(codec);
                assertNull(onOtherThread("sharer", c.roundTrip(), shared), c.name() + ": shared objects serve any thread");
                codec.close();
                IllegalStateException after = assertThrows(IllegalStateException.class, () -> c.roundTrip().run(codec));
                assertEquals(c.name() + " is closed", after.getMessage());
                codec.close(); // idempotent on the owner
                Throwable lateClose = onOtherThread("late", AutoCloseable::close, codec);
                assertNotNull(lateClose, c.name() + ": a close from another thread is refused also after close");
            }
        }
    }

    @Test
    void manyConfinedObjectsOnTheirOwnThreadsInParallel() throws Exception {
        List<Thread> threads = new ArrayList<>();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        for (int i = 0; i < 16; i++) {
            Runnable work = () -> {
                try {
                    for (Case c : cases()) {
                        try (AutoCloseable codec = c.make().get()) {
                            for (int k = 0; k < 50; k++) {
                                c.roundTrip().run(codec);
                            }
                        }
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            };
            threads.add(i % 2 == 0 ? Thread.ofPlatform().start(work) : Thread.ofVirtual().start(work));
        }
        for (Thread t : threads) {
            t.join();
        }
        if (failure.get() != null) {
            throw new AssertionError(failure.get());
        }
    }

    @Test
    void staticOneLinersOnManyPlatformAndVirtualThreads() throws Exception {
        // platform threads use contexts confined to them, virtual threads borrow shared ones from a pool
        List<byte[]> inputs = new ArrayList<>();
        for (int i = 0; i < 8; i++) {
            inputs.add(java.util.Arrays.copyOf(DATA, 50 + i * 700));
        }
        for (java.util.concurrent.ExecutorService pool : new java.util.concurrent.ExecutorService[] {
                java.util.concurrent.Executors.newFixedThreadPool(8),
                java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor()}) {
            try (pool) {
                List<java.util.concurrent.Future<Integer>> results = new ArrayList<>();
                for (int t = 0; t < 32; t++) {
                    int seed = t;
                    results.add(pool.submit(() -> {
                        int ok = 0;
                        for (int i = 0; i < 100; i++) {
                            byte[] d = inputs.get((seed + i) % inputs.size());
                            assertArrayEquals(d, dev.zstdjava.zstd.Zstd.decompress(
                                    dev.zstdjava.zstd.Zstd.compress(d, 1 + (seed + i) % 5)));
                            assertArrayEquals(d, dev.zstdjava.lz4.Lz4.decompress(
                                    dev.zstdjava.lz4.Lz4.compress(d, (seed + i) % 3), d.length));
                            assertArrayEquals(d, Lz4Frame.decompress(Lz4Frame.compress(d)));
                            ok++;
                        }
                        return ok;
                    }));
                }
                for (java.util.concurrent.Future<Integer> f : results) {
                    assertEquals(100, f.get());
                }
            }
        }
    }

    private static void assertNull(Object o, String message) {
        org.junit.jupiter.api.Assertions.assertNull(o, message);
    }
}
