package dev.zstdjava.lettuce;

import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.FastThreadLocal;
import io.netty.util.concurrent.SingleThreadEventExecutor;
import io.netty.util.internal.ThreadExecutorMap;

import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;

/**
 * Replies with compressed values that arrived before anybody asked for them, kept for a short grace on the event loop
 * that read them: the thread that asks first (in {@code get()}, {@code join()}, {@code isDone()}, or by adding a
 * stage) decodes its reply itself, with no hand-over. What is still unclaimed when its grace ends, or when the loop
 * shuts down, goes to the client's computation executor ({@link PolicyCommand#graceOver()}), so every future
 * completes even if nobody asks (a {@code CompletableFuture.allOf} over the raw futures, say).
 *
 * <p>One instance per event-loop thread, used only on it; not thread-safe. Allocates when a loop parks its first reply
 * and when its queue grows; one scheduled task per loop at a time.
 */
final class ParkedReplies implements Runnable {
    /** How long a reply nobody has asked for waits for its consumer before the executor decodes it. */
    static final long GRACE_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The grace in force: {@link #GRACE_NANOS}; tests change it. */
    static volatile long graceNanos = GRACE_NANOS;

    private static final FastThreadLocal<ParkedReplies> BY_LOOP = new FastThreadLocal<>();

    private final EventExecutor loop;
    private final ArrayDeque<PolicyCommand<?, ?, ?>> parked = new ArrayDeque<>();
    private boolean scheduled;

    private ParkedReplies(EventExecutor loop) {
        this.loop = loop;
    }

    /**
     * Parks a reply on the calling event loop.
     * @return false when the caller is not an event loop that can keep it (then it must hand the reply over itself)
     */
    static boolean park(PolicyCommand<?, ?, ?> command) {
        EventExecutor loop = ThreadExecutorMap.currentExecutor();
        if (loop == null || !loop.inEventLoop() || loop.isShuttingDown()) {
            return false;
        }
        ParkedReplies p = BY_LOOP.get();
        if (p == null || p.loop != loop) {
            if (!(loop instanceof SingleThreadEventExecutor single)) {
                return false; // no shutdown hook: nothing would hand its replies over if it stopped
            }
            p = new ParkedReplies(loop);
            single.addShutdownHook(p);
            BY_LOOP.set(p);
        }
        p.add(command);
        return true;
    }

    private void add(PolicyCommand<?, ?, ?> command) {
        parked.addLast(command);
        if (!scheduled) {
            schedule(graceNanos);
        }
    }

    private void schedule(long nanos) {
        scheduled = true;
        loop.schedule(this, nanos, TimeUnit.NANOSECONDS);
    }

    /** On the loop: hands over every reply whose grace is over (all of them when the loop shuts down). */
    @Override
    public void run() {
        scheduled = false;
        boolean all = loop.isShuttingDown();
        long now = System.nanoTime();
        long grace = graceNanos;
        for (PolicyCommand<?, ?, ?> c; (c = parked.peekFirst()) != null; ) {
            long left = grace - (now - c.parkedAt());
            if (left > 0 && !all) {
                schedule(left);
                return;
            }
            parked.pollFirst();
            c.graceOver();
        }
    }
}
