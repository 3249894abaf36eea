package dev.zstdjava.lettuce;

import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.output.CommandOutput;
import io.lettuce.core.protocol.AsyncCommand;
import io.lettuce.core.protocol.DemandAware;
import io.lettuce.core.protocol.RedisCommand;
import io.netty.buffer.ByteBuf;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.locks.LockSupport;

/**
 * The command {@link CommandGate} sends in place of one whose reply may carry compressed values (and {@code EXEC},
 * whose reply carries the queued commands'); the future the application waits on. It keeps decompression off
 * Lettuce's event loop: its output is a {@link DeferredReply}; when that recorded a compressed value, the loop's
 * {@link #complete()} does not decode but hands over: to the thread waiting in {@code get()}/{@code join()} when there
 * is one (the sync API's caller, always); else, when the thread that dispatched it is waiting for another reply, to
 * that thread ({@link PolicyScope#leave}: a pipeline's replies are decoded by the thread reading them, as if it
 * decompressed them itself); otherwise to the client's {@link ReplyDecoders}. One atomic claim decides who replays
 * the reply into the real output and completes the future; the loop never decodes it. A thread waiting for a reply
 * that a decoding thread has claimed decodes the queued replies of commands it dispatched itself meanwhile
 * ({@link ReplyDecoders#helpOne()}, at most {@value #HELP_LIMIT}) rather than park.
 *
 * <p>A command whose values are compressed too ({@code SET ... GET}) carries the bytes
 * {@link EncodedCommand#encodeOnThisThread} made at dispatch and writes them, as {@link EncodedCommand} does.
 *
 * <p>Everything else (cancellation, timeouts, the wrapped command's own completion) is {@link AsyncCommand}'s: the
 * wrapped command completes with this one. Thread-safe.
 */
final class PolicyCommand<K, V, T> extends AsyncCommand<K, V, T> implements DemandAware.Sink, Runnable {
    private static final int PENDING = 0;
    private static final int READY = 1;
    private static final int CLAIMED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(PolicyCommand.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The most queued replies of its own a thread decodes while another thread decodes the one it waits for. */
    private static final int HELP_LIMIT = 8;

    private final byte[] encoded;
    private final DeferredReply<K, V, T> reply;
    private final Executor executor;
    @SuppressWarnings("unused") // STATE
    private volatile int state;
    private volatile Thread waiter;
    /** the scope of the thread that dispatched this command (it is made on that thread, by the gate) */
    final PolicyScope origin = PolicyScope.current();
    /** the next reply left to the dispatching thread ({@link PolicyScope#leave}); the owner of the stack's */
    PolicyCommand<?, ?, ?> nextLeft;

    /**
     * @param command  the dispatched command
     * @param encoded  its bytes from {@link EncodedCommand#encodeOnThisThread}, or null to let it encode itself on
     *                 the loop (a command with no compressed value)
     * @param codec    the connection's codec
     * @param executor decodes a recorded reply when no thread waits for it
     */
    PolicyCommand(RedisCommand<K, V, T> command, byte[] encoded, RedisCodec<K, V> codec, ValueCompressor compressor,
                  Executor executor) {
        super(command);
        this.encoded = encoded;
        this.executor = executor;
        this.reply = new DeferredReply<>(codec, this, compressor);
    }

    @Override
    public void encode(ByteBuf buf) {
        if (encoded != null) {
            buf.writeBytes(encoded);
        } else {
            super.encode(buf);
        }
    }

    /** @return the wrapped command's output, which the reply is finally decoded into */
    CommandOutput<K, V, T> realOutput() {
        return super.getOutput();
    }

    @Override
    public CommandOutput<K, V, T> getOutput() {
        return super.getOutput() != null ? reply : null;
    }

    // ------------------------------------------------------------------------------------------------ completion

    // On the loop, at the end of the reply: completes as Lettuce does, or hands a recorded reply over.
    @Override
    public void complete() {
        if (!reply.recording()) {
            super.complete(); // completes the future through complete(T) or completeExceptionally, which wake
            return;
        }
        if (isDone()) {
            return; // timed out or cancelled meanwhile: nothing to decode
        }
        STATE.setVolatile(this, READY);
        Thread w = waiter;
        if (w != null) {
            LockSupport.unpark(w);
        } else if (origin.leave(this)) {
            LockSupport.unpark(origin.owner); // waiting for another reply: it decodes this one too, now
        } else {
            handOver();
        }
    }

    private void handOver() {
        try {
            executor.execute(this);
        } catch (RejectedExecutionException e) {
            run(); // the client is shutting down: decode here rather than leave the future pending
        }
    }

    /** Decodes a handed-over reply on the executor, unless a waiting thread claimed it first. */
    @Override
    public void run() {
        if (STATE.compareAndSet(this, READY, CLAIMED)) {
            finish();
        }
    }

    // Replays the recorded reply into the real output and completes this command (and the wrapped one).
    private void finish() {
        Throwable failure = reply.replay();
        if (failure != null) {
            completeExceptionally(failure);
        } else {
            super.complete();
        }
    }

    // Waits (until the deadline when timed) for a hand-over or any completion; claims and decodes a hand-over.
    // Meanwhile it decodes the replies of its own other commands that the loop leaves to it (PolicyScope#leave), and,
    // when another thread is decoding its reply, those of its own queued for the decoding threads (helpOne).
    private void awaitReply(boolean timed, long deadline, boolean interruptible) throws InterruptedException {
        if (isDone()) {
            return;
        }
        PolicyScope scope = origin.owner == Thread.currentThread() ? origin : PolicyScope.current();
        boolean opened = scope.openLeft();
        waiter = Thread.currentThread();
        boolean finished = false;
        try {
            for (;;) {
                int s = (int) STATE.getVolatile(this);
                if (s == READY) {
                    if (STATE.compareAndSet(this, READY, CLAIMED)) {
                        finish();
                    }
                    break;
                }
                if (s == CLAIMED) {
                    // another thread is decoding it: decode this thread's own queued replies meanwhile, not park
                    for (int i = 0; i < HELP_LIMIT && !isDone() && executor instanceof ReplyDecoders d
                            && d.helpOne(); i++) {
                        // helped with one
                    }
                    break;
                }
                if (isDone()) {
                    break;
                }
                if (decode(scope.takeLeft(false), true)) {
                    continue; // its own replies that arrived meanwhile: decoded; look again before parking
                }
                if (timed) {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    LockSupport.parkNanos(this, left);
                } else {
                    LockSupport.park(this);
                }
                if (interruptible && Thread.interrupted()) {
                    throw new InterruptedException();
                }
            }
            finished = true;
        } finally {
            waiter = null;
            // the loop may have seen this thread waiting and left the hand-over to it: pass it on
            if ((int) STATE.getVolatile(this) == READY) {
                handOver();
            }
            if (opened) {
                // its own replies left to it: decoded here, or, when it leaves by an exception, handed over
                decode(scope.takeLeft(true), finished);
            }
        }
    }

    /**
     * Decodes (or hands over) the replies of a list from {@link PolicyScope#takeLeft}; one that fails hands the rest
     * over. @return whether there was any
     */
    private static boolean decode(PolicyCommand<?, ?, ?> first, boolean here) {
        PolicyCommand<?, ?, ?> c = first;
        try {
            while (c != null) {
                PolicyCommand<?, ?, ?> next = c.nextLeft;
                c.nextLeft = null;
                PolicyCommand<?, ?, ?> now = c;
                c = next;
                if (here) {
                    now.run();
                } else {
                    now.handOver();
                }
            }
        } finally {
            while (c != null) { // only when one above threw
                PolicyCommand<?, ?, ?> next = c.nextLeft;
                c.nextLeft = null;
                c.handOver();
                c = next;
            }
        }
        return first != null;
    }

    /** @return whether {@code thread} dispatched this command */
    boolean dispatchedBy(Thread thread) {
        return origin.owner == thread;
    }

    /** Announces the thread that will wait for this command (a sync caller): the loop leaves the reply to it. */
    void announceWaiter(Thread thread) {
        waiter = thread;
    }

    /** Withdraws the announced waiter: a reply already handed to it goes to the executor. */
    void release() {
        waiter = null;
        if ((int) STATE.getVolatile(this) == READY) {
            handOver();
        }
    }

    // Wakes the waiting thread, unless this is it (it decoded its own reply and looks again before it parks).
    private void wake() {
        Thread w = waiter;
        if (w != null && w != Thread.currentThread()) {
            LockSupport.unpark(w);
        }
    }

    @Override
    public T get() throws InterruptedException, ExecutionException {
        awaitReply(false, 0, true);
        return super.get();
    }

    @Override
    public T get(long timeout, TimeUnit unit) throws InterruptedException, ExecutionException, TimeoutException {
        long nanos = unit.toNanos(timeout);
        long start = System.nanoTime();
        awaitReply(true, start + nanos, true);
        return super.get(Math.max(0, nanos - (System.nanoTime() - start)), TimeUnit.NANOSECONDS);
    }

    @Override
    public T join() {
        try {
            awaitReply(false, 0, false);
        } catch (InterruptedException e) {
            throw new AssertionError(e); // not interruptible
        }
        return super.join();
    }

    // Completion by any path (a timeout, a cancel, the wrapped command's own) wakes a thread waiting in awaitReply.
    @Override
    public boolean complete(T value) {
        return woken(super.complete(value));
    }

    @Override
    public boolean completeExceptionally(Throwable ex) {
        return woken(super.completeExceptionally(ex));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
        return woken(super.cancel(mayInterruptIfRunning));
    }

    private boolean woken(boolean done) {
        wake();
        return done;
    }

    // ---------------------------------------------------------------------- reactive back-pressure, passed through

    @Override
    public boolean hasDemand() {
        return !(getDelegate() instanceof DemandAware.Sink s) || s.hasDemand();
    }

    @Override
    public void setSource(DemandAware.Source source) {
        if (getDelegate() instanceof DemandAware.Sink s) {
            s.setSource(source);
        }
    }

    @Override
    public void removeSource() {
        if (getDelegate() instanceof DemandAware.Sink s) {
            s.removeSource();
        }
    }
}
