package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionConfig;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.ValueOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.Command;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * How a reply with compressed values is handed over once the event loop has read it, without a server: the test
 * thread plays the event loop (it fills a {@link PolicyCommand}'s output and completes it), so that who decodes what
 * is set up exactly rather than left to timing.
 */
class ReplyHandOverTest {
    static final String BIG = TestValues.json(2000);

    /** StringCodec.UTF8 that records which thread decoded each value (by its first letter) and holds "A..." until opened. */
    static final class GatedCodec extends StringCodec {
        final Map<Character, Thread> decodedOn = new ConcurrentHashMap<>();
        final CountDownLatch holding = new CountDownLatch(1);
        final CountDownLatch gate = new CountDownLatch(1);

        GatedCodec() {
            super(StandardCharsets.UTF_8);
        }

        @Override
        public String decodeValue(ByteBuffer bytes) {
            String v = super.decodeValue(bytes);
            decodedOn.put(v.charAt(0), Thread.currentThread());
            if (v.charAt(0) == 'A') {
                holding.countDown();
                try {
                    assertTrue(gate.await(30, TimeUnit.SECONDS), "the test never opened the gate");
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IllegalStateException(e);
                }
            }
            return v;
        }
    }

    final ReplyDecoders decoders = new ReplyDecoders(1);
    final GatedCodec delegate = new GatedCodec();
    final CompressingCodec<String, String> codec = CompressingCodec.wrap(delegate, CompressionConfig.defaults());

    @AfterEach
    void stop() {
        delegate.gate.countDown();
        decoders.shutdown();
    }

    PolicyCommand<String, String, String> get() {
        Command<String, String, String> get = new Command<>(CommandType.GET, new ValueOutput<>(codec),
                new CommandArgs<>(codec).addKey("k"));
        return new PolicyCommand<>(new AsyncCommand<>(get), null, codec, codec.compressor(), decoders);
    }

    /** The event loop's part: the reply's stored bytes, then the end of the reply (nobody waits: handed over). */
    void reply(PolicyCommand<String, String, String> command, String value) {
        command.getOutput().set(ByteBuffer.wrap(codec.compressor().compress(value.getBytes(StandardCharsets.UTF_8))));
        command.complete();
    }

    /** Waits up to 10 s for {@code done}; @return whether it became true */
    static boolean within10s(BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!done.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(1);
        }
        return true;
    }

    @Test
    void aThreadWhoseReplyAnotherThreadDecodesDecodesItsOwnQueuedRepliesMeanwhileInsteadOfParking() throws Exception {
        PolicyCommand<String, String, String> a = get();
        PolicyCommand<String, String, String> b = get(); // this thread's pipeline: A, then B
        reply(a, "A" + BIG);
        assertTrue(delegate.holding.await(10, TimeUnit.SECONDS), "the decoding thread never took A's reply");
        reply(b, "B" + BIG); // queued: the only decoding thread is held in A's
        assertFalse(b.isDone());
        // opens A's gate once B is done, or after 10 s; says whether B was done while A was still held
        CompletableFuture<Boolean> bFirst = CompletableFuture.supplyAsync(() -> {
            try {
                return within10s(b::isDone) && !a.isDone();
            } catch (InterruptedException e) {
                return false;
            } finally {
                delegate.gate.countDown();
            }
        });

        assertEquals("A" + BIG, a.get(30, TimeUnit.SECONDS));
        assertTrue(bFirst.get(30, TimeUnit.SECONDS), "B was decoded while the decoding thread held A");
        assertSame(Thread.currentThread(), delegate.decodedOn.get('B'), "B is decoded by the thread waiting for A");
        assertEquals("B" + BIG, b.get(1, TimeUnit.SECONDS));
        assertTrue(delegate.decodedOn.get('A').getName().startsWith("zstd-java-decode-"),
                "A is decoded by the decoding thread that took it: " + delegate.decodedOn.get('A'));
    }

    @Test
    void aThreadThatWaitsForAnotherThreadsCommandLeavesThatThreadsRepliesAlone() throws Exception {
        PolicyCommand<String, String, String> a = get();
        PolicyCommand<String, String, String> b = get(); // both dispatched by this thread
        reply(a, "A" + BIG);
        assertTrue(delegate.holding.await(10, TimeUnit.SECONDS), "the decoding thread never took A's reply");
        reply(b, "B" + BIG);

        AtomicReference<Object> got = new AtomicReference<>();
        Thread waiter = Thread.ofPlatform().name("waiter-of-A").start(() -> {
            try {
                got.set(a.get(30, TimeUnit.SECONDS));
            } catch (Exception e) {
                got.set(e);
            }
        });
        assertTrue(within10s(() -> waiter.getState() == Thread.State.TIMED_WAITING), "the waiter never parked");
        assertFalse(b.isDone(), "a thread that did not dispatch B leaves it queued (its callbacks are not its to run)");
        delegate.gate.countDown();
        waiter.join(TimeUnit.SECONDS.toMillis(10));
        assertEquals("A" + BIG, got.get());
        assertEquals("B" + BIG, b.get(10, TimeUnit.SECONDS));
        assertNotSame(waiter, delegate.decodedOn.get('B'));
    }

    @Test
    void aThreadWhoseReplyIsReadyDecodesItAndNothingElse() throws Exception {
        PolicyCommand<String, String, String> a = get();
        PolicyCommand<String, String, String> c = get();
        PolicyCommand<String, String, String> b = get();
        reply(a, "A" + BIG);
        assertTrue(delegate.holding.await(10, TimeUnit.SECONDS), "the decoding thread never took A's reply");
        reply(c, "C" + BIG);
        reply(b, "B" + BIG);
        // B is queued and not yet taken: this thread claims it, decodes it, and leaves C to the decoding thread
        assertEquals("B" + BIG, b.get(10, TimeUnit.SECONDS));
        assertSame(Thread.currentThread(), delegate.decodedOn.get('B'));
        assertFalse(c.isDone(), "C, queued before B, is not decoded by the thread that waited for B");
        delegate.gate.countDown();
        assertEquals("C" + BIG, c.get(10, TimeUnit.SECONDS));
        assertEquals("A" + BIG, a.get(10, TimeUnit.SECONDS));
    }

    /** Plays the event loop on another thread once {@code waiting} is parked: replies in the order given. */
    static Thread loopOnceParked(Thread waiting, Runnable replies) {
        return Thread.ofPlatform().name("plays-the-loop").start(() -> {
            try {
                if (within10s(() -> waiting.getState() == Thread.State.WAITING
                        || waiting.getState() == Thread.State.TIMED_WAITING)) {
                    replies.run();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    @Test
    void aThreadWaitingForOneReplyDecodesItsOtherRepliesThatArriveMeanwhile() throws Exception {
        PolicyCommand<String, String, String> b = get();
        PolicyCommand<String, String, String> c = get(); // this thread's pipeline: B, then C; it waits for C
        Thread loop = loopOnceParked(Thread.currentThread(), () -> {
            reply(b, "B" + BIG);
            reply(c, "C" + BIG);
        });

        assertEquals("C" + BIG, c.get(30, TimeUnit.SECONDS));
        assertTrue(b.isDone(), "B, arriving while this thread waited for C, was decoded before it stopped waiting");
        assertSame(Thread.currentThread(), delegate.decodedOn.get('B'), "not handed to the decoding threads");
        assertSame(Thread.currentThread(), delegate.decodedOn.get('C'));
        assertEquals("B" + BIG, b.get(1, TimeUnit.SECONDS));
        loop.join(10_000);
    }

    @Test
    void aThreadThatStopsWaitingLeavesLaterRepliesToTheDecodingThreads() throws Exception {
        PolicyCommand<String, String, String> b = get();
        PolicyCommand<String, String, String> c = get();
        PolicyCommand<String, String, String> d = get();
        Thread loop = loopOnceParked(Thread.currentThread(), () -> reply(b, "B" + BIG));

        // waits for C, which never comes: B, arriving meanwhile, is decoded here all the same
        assertThrows(TimeoutException.class, () -> c.get(500, TimeUnit.MILLISECONDS));
        loop.join(10_000);
        assertTrue(b.isDone());
        assertSame(Thread.currentThread(), delegate.decodedOn.get('B'));
        // nobody waits now: D goes to the decoding threads
        reply(d, "D" + BIG);
        assertTrue(within10s(d::isDone), "D was never decoded");
        assertEquals("D" + BIG, d.get(1, TimeUnit.SECONDS));
        assertTrue(delegate.decodedOn.get('D').getName().startsWith("zstd-java-decode-"),
                "D is decoded by a decoding thread: " + delegate.decodedOn.get('D'));
    }
}
