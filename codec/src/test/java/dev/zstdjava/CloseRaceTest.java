package dev.zstdjava;

import dev.zstdjava.TestData.Kind;
import dev.zstdjava.internal.GuardProbe;
import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.lz4.Lz4Frame;
import dev.zstdjava.lz4.Lz4FrameCompressor;
import dev.zstdjava.lz4.Lz4FrameDecompressor;
import dev.zstdjava.lz4.Lz4FrameInputStream;
import dev.zstdjava.lz4.Lz4FrameOutputStream;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressStream;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressStream;
import dev.zstdjava.zstd.ZstdDecompressor;
import dev.zstdjava.zstd.ZstdFrame;
import dev.zstdjava.zstd.ZstdInputStream;
import dev.zstdjava.zstd.ZstdOutputStream;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * {@code close()} racing a call in progress on another thread, for every closeable codec object and each of its
 * methods that reaches native code (the one-shot forms, the streaming steps, {@code flush}, {@code end},
 * {@code reset}, {@code begin}): the call either completes correctly or throws {@link IllegalStateException} naming
 * the object as closed; the native memory is never freed while a call is inside (checked right after {@code close()}
 * returned, while the call is still running) and is freed once it has ended; a second {@code close()} does nothing.
 * A use-after-free would crash the test JVM or give wrong output, which the round trips check.
 */
class CloseRaceTest {
    private static final byte[] DATA = TestData.generate(Kind.TEXT, 256 << 10, 11);
    private static final int ROUNDS = 12;

    /** One call on an open object; it must succeed (checking its own result) on an object that is not closed. */
    @FunctionalInterface
    private interface Call {
        void run() throws Exception;
    }

    /** A fresh object and the calls to race its close with. */
    private record Subject(AutoCloseable object, List<Call> calls) {}

    @Test
    void zstdObjects() throws Exception {
        byte[] frame = Zstd.compress(DATA);
        race("ZstdCompressor", arena -> {
            ZstdCompressor c = ZstdCompressor.create(3);
            MemorySegment src = copy(arena, DATA);
            MemorySegment dst = arena.allocate(Zstd.compressBound(DATA.length));
            ByteBuffer in = ByteBuffer.allocateDirect(DATA.length).put(DATA).flip();
            ByteBuffer out = ByteBuffer.allocateDirect((int) Zstd.compressBound(DATA.length));
            return new Subject(c, List.of(
                    () -> assertArrayEquals(DATA, Zstd.decompress(c.compress(DATA))),
                    () -> assertEquals(DATA.length, ZstdFrame.contentSize(dst.asSlice(0, c.compress(src, dst)))),
                    () -> assertTrue(c.tryCompress(src, dst, 8, dst.byteSize() - 8) > 0),
                    () -> assertTrue(c.compress(in.clear().limit(DATA.length), out.clear()) > 0)));
        });
        race("ZstdDecompressor", arena -> {
            ZstdDecompressor d = ZstdDecompressor.create();
            MemorySegment src = copy(arena, frame);
            MemorySegment dst = arena.allocate(DATA.length);
            return new Subject(d, List.of(
                    () -> assertArrayEquals(DATA, d.decompress(frame)),
                    () -> assertArrayEquals(DATA, d.decompress(src)),
                    () -> assertEquals(DATA.length, d.decompress(src, dst))));
        });
        race("ZstdCompressStream", arena -> {
            ZstdCompressStream s = ZstdCompressStream.create(3);
            MemorySegment src = copy(arena, DATA);
            MemorySegment dst = arena.allocate(Zstd.compressBound(DATA.length) + 1024);
            return new Subject(s, List.of(
                    () -> s.compress(src, dst),
                    () -> s.flush(MemorySegment.ofArray(new byte[0]), dst),
                    () -> s.end(MemorySegment.ofArray(new byte[0]), dst),
                    s::reset));
        });
        race("ZstdDecompressStream", arena -> {
            ZstdDecompressStream s = ZstdDecompressStream.create();
            MemorySegment src = copy(arena, frame);
            MemorySegment dst = arena.allocate(DATA.length);
            return new Subject(s, List.of(
                    () -> {
                        s.decompress(src, dst);
                        assertEquals(DATA.length, s.produced());
                    },
                    s::reset));
        });
    }

    @Test
    void lz4Objects() throws Exception {
        byte[] block = Lz4Compressor.create().compress(DATA);
        byte[] frame = Lz4Frame.compress(DATA);
        race("Lz4Compressor", arena -> {
            Lz4Compressor c = Lz4Compressor.create(9);
            MemorySegment src = copy(arena, DATA);
            MemorySegment dst = arena.allocate(c.maxCompressedLength(DATA.length));
            return new Subject(c, List.of(
                    () -> assertTrue(c.compress(DATA).length > 0),
                    () -> assertTrue(c.compress(src, dst) > 0),
                    () -> assertTrue(c.tryCompress(src, dst, 4, dst.byteSize() - 4) > 0)));
        });
        race("Lz4Decompressor", arena -> {
            Lz4Decompressor d = Lz4Decompressor.create();
            MemorySegment src = copy(arena, block);
            MemorySegment dst = arena.allocate(DATA.length);
            return new Subject(d, List.of(
                    () -> assertEquals(DATA.length, d.decompress(src, dst)),
                    () -> assertEquals(1000, d.decompressPartial(src, dst.asSlice(0, 1000))),
                    () -> assertEquals(DATA.length, d.decompress(block, 0, block.length, new byte[DATA.length], 0,
                            DATA.length))));
        });
        race("Lz4FrameCompressor", arena -> {
            Lz4FrameCompressor c = Lz4FrameCompressor.create();
            MemorySegment src = copy(arena, DATA);
            MemorySegment dst = arena.allocate(c.maxCompressedLength(DATA.length) + 1024);
            MemorySegment step = arena.allocate(c.updateBound(DATA.length) + 1024);
            return new Subject(c, List.of(
                    () -> assertArrayEquals(DATA, Lz4Frame.decompress(c.compress(DATA))),
                    () -> assertTrue(c.compress(src, dst) > 0),
                    () -> {
                        c.begin(step);
                        c.update(src, step);
                        c.flush(step);
                        c.end(step);
                    }));
        });
        race("Lz4FrameDecompressor", arena -> {
            Lz4FrameDecompressor d = Lz4FrameDecompressor.create();
            MemorySegment src = copy(arena, frame);
            MemorySegment dst = arena.allocate(DATA.length);
            return new Subject(d, List.of(
                    () -> assertArrayEquals(DATA, d.decompress(frame)),
                    () -> assertEquals(DATA.length, d.decompress(src, dst)),
                    () -> {
                        d.update(src, dst);
                        d.reset();
                    }));
        });
    }

    /**
     * The stream classes are not thread-safe (one reader or writer): a close on another thread may also see the
     * context in use and report that. What must hold is what the contexts guarantee: no crash, nothing freed under the
     * call, and every later use refused with an {@link IOException}.
     */
    @Test
    void streamsClosedDuringAReadOrWrite() throws Exception {
        byte[] zframe = Zstd.compress(DATA);
        byte[] lframe = Lz4Frame.compress(DATA);
        List<Supplier<Object>> streams = List.of(
                () -> new ZstdOutputStream(OutputStream.nullOutputStream()),
                () -> new Lz4FrameOutputStream(OutputStream.nullOutputStream()),
                () -> new ZstdInputStream(new ByteArrayInputStream(zframe)),
                () -> new Lz4FrameInputStream(new ByteArrayInputStream(lframe)));
        for (Supplier<Object> make : streams) {
            for (int round = 0; round < ROUNDS; round++) {
                Object stream = make.get();
                AtomicInteger calls = new AtomicInteger();
                AtomicReference<Throwable> unexpected = new AtomicReference<>();
                Thread worker = Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < 1000; i++) {
                            calls.incrementAndGet();
                            if (stream instanceof OutputStream o) {
                                o.write(DATA, 0, DATA.length);
                                o.flush();
                            } else if (((InputStream) stream).readNBytes(4096).length == 0) {
                                return;
                            }
                        }
                    } catch (IOException | IllegalStateException expected) {
                        // closed by the other thread (or found in use by its close)
                    } catch (Throwable t) {
                        unexpected.set(t);
                    }
                });
                while (calls.get() < 1 + round % 3 && worker.isAlive()) {
                    Thread.onSpinWait();
                }
                try {
                    ((AutoCloseable) stream).close();
                } catch (IOException | IllegalStateException expected) {
                    // its end of the frame met the writer's call
                }
                worker.join();
                assertEquals(null, unexpected.get(), stream + ": round " + round);
                ((AutoCloseable) stream).close(); // again: nothing
                String what = stream.getClass().getSimpleName();
                if (stream instanceof OutputStream o) {
                    assertThrows(IOException.class, () -> o.write(DATA), what);
                } else {
                    assertThrows(IOException.class, () -> ((InputStream) stream).read(), what);
                }
            }
        }
    }

    private interface Factory {
        Subject make(Arena arena);
    }

    /**
     * For each call of the subject and each round: a worker runs the calls in turn until one is refused as closed;
     * this thread waits until the worker is inside the chosen call (or has finished), then closes the object twice.
     */
    private static void race(String what, Factory factory) throws Exception {
        int overlapped = 0;
        try (Arena arena = Arena.ofShared()) {
            Subject first = factory.make(arena);
            int callCount = first.calls().size();
            first.object().close();
            for (int round = 0; round < ROUNDS * callCount; round++) {
                Subject s = factory.make(arena);
                int target = round % callCount;
                GuardProbe probe = GuardProbe.of(s.object());
                AtomicInteger started = new AtomicInteger(-1);
                AtomicReference<Throwable> unexpected = new AtomicReference<>();
                AtomicReference<IllegalStateException> refusal = new AtomicReference<>();
                Thread worker = Thread.ofPlatform().start(() -> {
                    try {
                        for (int i = 0; i < 1000; i++) {
                            started.set(i);
                            s.calls().get(i % callCount).run();
                        }
                        unexpected.set(new AssertionError("never refused after close"));
                    } catch (IllegalStateException e) {
                        refusal.set(e);
                    } catch (Throwable t) {
                        unexpected.set(t);
                    }
                });
                // close while the chosen call runs (its own index, on the second pass) where the worker gets there
                int wanted = callCount + target;
                while (worker.isAlive() && (started.get() < wanted || !probe.inCall())) {
                    Thread.onSpinWait();
                }
                s.object().close();
                boolean freedAtClose = probe.freed();
                if (probe.inCall()) { // inside before close and still inside after it: the close came during the call
                    assertFalse(freedAtClose, what + ": freed under a running call");
                    overlapped++;
                }
                s.object().close(); // a second close does nothing
                worker.join();
                if (unexpected.get() != null) {
                    throw new AssertionError(what + ", call " + (started.get() % callCount) + ", round " + round,
                            unexpected.get());
                }
                IllegalStateException e = refusal.get();
                assertEquals(what + " is closed", e.getMessage(), what);
                awaitFreed(probe, what);
                IllegalStateException after = assertThrows(IllegalStateException.class,
                        () -> s.calls().get(target).run(), what);
                assertEquals(what + " is closed", after.getMessage());
            }
        }
        assertTrue(overlapped > 0, what + ": no close came during a running call");
    }

    private static void awaitFreed(GuardProbe probe, String what) throws InterruptedException {
        for (long end = System.nanoTime() + 10_000_000_000L; !probe.freed(); Thread.sleep(1)) {
            if (System.nanoTime() > end) {
                fail(what + ": not freed 10 s after the close and the end of the call");
            }
        }
    }

    private static MemorySegment copy(Arena arena, byte[] bytes) {
        MemorySegment m = arena.allocate(bytes.length);
        MemorySegment.copy(bytes, 0, m, ValueLayout.JAVA_BYTE, 0, bytes.length);
        return m;
    }
}
