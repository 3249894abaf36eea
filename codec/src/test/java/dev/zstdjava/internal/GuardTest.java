package dev.zstdjava.internal;

import org.junit.jupiter.api.Test;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The guarantees of {@link Guard} (see its Javadoc for the memory-model argument), including the window its cheap
 * exit opens: a close that sees a call running while that call's exit misses the close request. The codecs'
 * concurrency tests cover the same guarantees through real native calls.
 */
class GuardTest {
    /** A guard's free action that records how often it ran and whether it ran during a call. */
    private static final class Memory implements Runnable {
        final AtomicInteger frees = new AtomicInteger();
        volatile boolean inCall;
        volatile boolean freedInUse;

        @Override
        public void run() {
            if (inCall) {
                freedInUse = true;
            }
            frees.incrementAndGet();
        }
    }

    /** An owner object of a guard (guards take the {@link AutoCloseable} they free the memory of). */
    private static final class Owner implements AutoCloseable {
        @Override
        public void close() {}
    }

    /** Owners of the guards made by {@link #guard}: kept reachable, so no Cleaner closes a guard during a test. */
    private static final List<Object> OWNERS = Collections.synchronizedList(new ArrayList<>());

    private static Guard guard(Memory m) {
        AutoCloseable owner = new Owner();
        OWNERS.add(owner);
        return new Guard(owner, "Test", m);
    }

    private static void awaitFreed(Guard g, Memory m) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        // a shared guard reads as freed once the compare-and-set decided who frees; the free runs just after, on the
        // thread that won it, so wait for the free itself too
        while ((!g.isFreed() || m.frees.get() == 0) && System.nanoTime() < deadline) {
            Thread.sleep(1);
        }
        assertTrue(g.isFreed(), "freed");
        assertEquals(1, m.frees.get(), "freed exactly once");
        assertFalse(m.freedInUse, "never freed during a call");
    }

    @Test
    void oneThreadAtATimeAndNothingAfterClose() throws Exception {
        Memory m = new Memory();
        Guard g = guard(m);
        g.enter();
        AtomicReference<Throwable> other = new AtomicReference<>();
        Thread t = new Thread(() -> other.set(assertThrows(IllegalStateException.class, g::enter)));
        t.start();
        t.join();
        assertTrue(other.get().getMessage().contains("in use by another thread"), other.get().getMessage());
        g.exit();
        g.enter(); // sequential calls keep working
        g.exit();
        g.close();
        assertTrue(g.isClosed());
        assertEquals(1, m.frees.get());
        IllegalStateException e = assertThrows(IllegalStateException.class, g::enter);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        g.close();
        assertEquals(1, m.frees.get(), "close is idempotent");
    }

    @Test
    void closeDuringACallFreesWhenTheCallEnds() throws Exception {
        Memory m = new Memory();
        Guard g = guard(m);
        g.enter();
        m.inCall = true;
        g.close();
        assertTrue(g.isClosed());
        assertEquals(0, m.frees.get(), "nothing freed under the call");
        m.inCall = false;
        g.exit();
        awaitFreed(g, m);
        assertThrows(IllegalStateException.class, g::enter);
    }

    @Test
    void aCloseFromAnotherThreadDuringACallFreesOnlyWhenTheCallEnds() throws Exception {
        // the call is held open by a latch, so the close provably comes while it runs (no sleep to hope so)
        Memory m = new Memory();
        Guard g = guard(m);
        CountDownLatch inCall = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        AtomicReference<Throwable> callFailure = new AtomicReference<>();
        Thread caller = new Thread(() -> {
            try {
                g.enter();
                try {
                    m.inCall = true;
                    inCall.countDown();
                    assertTrue(release.await(60, TimeUnit.SECONDS), "released");
                    assertEquals(0, m.frees.get(), "nothing freed while the call runs");
                    m.inCall = false;
                } finally {
                    g.exit();
                }
            } catch (Throwable t) {
                callFailure.set(t);
            }
        }, "caller");
        caller.start();
        assertTrue(inCall.await(60, TimeUnit.SECONDS), "the call started");
        g.close(); // from this thread, while the caller is inside: returns at once, frees later
        assertTrue(g.isClosed());
        assertTrue(caller.isAlive(), "the call is still running after close returned");
        assertFalse(g.isFreed(), "not freed under the running call");
        assertEquals(0, m.frees.get(), "not freed under the running call");
        IllegalStateException refused = assertThrows(IllegalStateException.class, g::enter);
        assertEquals("Test is closed", refused.getMessage(), "a new call is refused as closed, not as busy");
        release.countDown();
        caller.join(TimeUnit.SECONDS.toMillis(60));
        assertFalse(caller.isAlive(), "the call ended");
        assertNull(callFailure.get());
        awaitFreed(g, m);
        IllegalStateException after = assertThrows(IllegalStateException.class, g::enter);
        assertTrue(after.getMessage().contains("closed"), after.getMessage());
    }

    @Test
    void aCloseTheExitMissedIsFinishedByTheCloserThread() throws Exception {
        // the store-buffering outcome made deterministic: close sees BUSY, and the call then ends with the release
        // store of exit but without its read of the close request
        VarHandle state = MethodHandles.privateLookupIn(Guard.class, MethodHandles.lookup())
                .findVarHandle(Guard.class, "state", int.class);
        Memory m = new Memory();
        Guard g = guard(m);
        g.enter();
        m.inCall = true;
        g.close();
        Thread.sleep(20); // the closer keeps looking while the call runs
        assertEquals(0, m.frees.get(), "nothing freed under the call");
        m.inCall = false;
        state.setRelease(g, 0); // IDLE, request not read
        // an enter now, before the closer has looked, is refused (it reads the request after its CAS)
        IllegalStateException e = assertThrows(IllegalStateException.class, g::enter);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        awaitFreed(g, m);
        assertThrows(IllegalStateException.class, g::enter);
    }

    @Test
    void anEnterRacingACloseIsRefusedOrRunsToTheEnd() throws Exception {
        // many rounds of a caller in a tight loop and a close at a random moment: the memory is freed exactly once,
        // never during a call, and always (by the exit, a refused enter, close itself or the closer thread)
        for (int round = 0; round < 2_000; round++) {
            Memory m = new Memory();
            Guard g = guard(m);
            CountDownLatch go = new CountDownLatch(1);
            Thread caller = new Thread(() -> {
                go.countDown();
                while (true) {
                    try {
                        g.enter();
                    } catch (IllegalStateException e) {
                        return;
                    }
                    m.inCall = true;
                    Thread.onSpinWait();
                    m.inCall = false;
                    g.exit();
                }
            });
            caller.start();
            go.await();
            for (int spin = ThreadLocalRandom.current().nextInt(2_000); spin > 0; spin--) {
                Thread.onSpinWait();
            }
            g.close();
            caller.join();
            awaitFreed(g, m);
        }
    }

    @Test
    void aContextHandedBetweenThreadsKeepsWorking() throws Exception {
        // as a pool does: each call on another thread, the hand-over ordering them; every call is admitted and sees
        // what the previous one wrote (plain field, published by exit's release store and enter's CAS)
        Memory m = new Memory();
        Guard g = guard(m);
        long[] counter = new long[1];
        LinkedBlockingQueue<Guard> handOver = new LinkedBlockingQueue<>();
        int calls = 20_000;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Runnable worker = () -> {
            try {
                for (int i = 0; i < calls / 2; i++) {
                    Guard held = handOver.take();
                    held.enter();
                    counter[0]++;
                    held.exit();
                    handOver.put(held);
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        };
        Thread a = new Thread(worker);
        Thread b = new Thread(worker);
        a.start();
        b.start();
        handOver.put(g);
        a.join();
        b.join();
        assertNull(failure.get());
        assertEquals(calls, counter[0]);
        g.close();
        awaitFreed(g, m);
    }
    @Test
    void aConfinedGuardAdmitsOnlyItsThreadAndFreesAtClose() throws Exception {
        Memory m = new Memory();
        Guard g = new Guard(new Owner(), "Test", m, Confinement.CONFINED);
        assertTrue(g.isConfined());
        g.enter();
        g.exit();
        AtomicReference<Throwable> enter = new AtomicReference<>();
        AtomicReference<Throwable> close = new AtomicReference<>();
        Thread t = new Thread(() -> {
            enter.set(assertThrows(IllegalStateException.class, g::enter));
            close.set(assertThrows(IllegalStateException.class, g::close));
        }, "other");
        t.start();
        t.join();
        assertTrue(enter.get().getMessage().contains("confined to thread '" + Thread.currentThread().getName()
                + "'") && enter.get().getMessage().contains("cannot be used from thread 'other'"),
                enter.get().getMessage());
        assertTrue(close.get().getMessage().contains("cannot be closed from thread 'other'"), close.get().getMessage());
        assertEquals(0, m.frees.get(), "a refused close frees nothing");
        assertFalse(g.isClosed());
        g.enter(); // the owner is unaffected
        g.exit();
        g.close();
        assertTrue(g.isClosed());
        assertTrue(g.isFreed());
        assertEquals(1, m.frees.get());
        assertEquals("Test is closed", assertThrows(IllegalStateException.class, g::enter).getMessage());
        g.close();
        assertEquals(1, m.frees.get(), "close is idempotent");
    }

    @Test
    void aConfinedGuardThatBecomesUnreachableIsFreedByTheCleaner() throws Exception {
        Memory m = new Memory();
        makeAndDropConfined(m);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (m.frees.get() == 0 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        assertEquals(1, m.frees.get(), "the Cleaner freed the dropped confined guard once");
    }

    private static void makeAndDropConfined(Memory m) {
        Guard g = new Guard(new Owner(), "Test", m, Confinement.CONFINED);
        g.enter();
        g.exit();
    }

    @Test
    void staticContextsAreConfinedOnPlatformThreadsAndSharedOnVirtualOnes() throws Exception {
        AtomicInteger frees = new AtomicInteger(); // of confined contexts only
        ContextCache<Guard> cache = new ContextCache<>(
                () -> new Guard(new Owner(), "Test", frees::incrementAndGet, Confinement.CONFINED),
                () -> new Guard(new Owner(), "Test", () -> { }), Guard::close);
        Guard mine = cache.acquire();
        assertTrue(mine.isConfined());
        cache.release(mine);
        assertTrue(mine == cache.acquire(), "a platform thread keeps its own");
        AtomicReference<Guard> virtual = new AtomicReference<>();
        Thread.ofVirtual().start(() -> {
            Guard c = cache.acquire();
            virtual.set(c);
            cache.release(c);
        }).join();
        assertFalse(virtual.get().isConfined(), "virtual threads borrow shared contexts");
        Thread.ofVirtual().start(() -> {
            Guard c = cache.acquire();
            c.enter();
            c.exit();
            cache.release(c);
        }).join();
        // contexts of platform threads that ended are freed by the Cleaner
        int before = frees.get();
        for (int i = 0; i < 20; i++) {
            Thread p = new Thread(() -> {
                Guard c = cache.acquire();
                c.enter();
                c.exit();
                cache.release(c);
            });
            p.start();
            p.join();
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (frees.get() - before < 20 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(10);
        }
        assertEquals(20, frees.get() - before, "each ended platform thread's context was freed");
    }
}
