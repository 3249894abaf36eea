package dev.zstdjava.lettuce;

import io.netty.util.concurrent.FastThreadLocal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;

/**
 * Per-thread state of the policy: the flag that turns compression on in {@link CompressingCodec} while a command the
 * policy compresses is being encoded ({@link EncodedCommand#encodeOnThisThread}, on the dispatching thread), and,
 * during a call of the sync API ({@link SyncCalls}), the commands it made whose replies this thread will decode; and,
 * while the thread waits for a reply, the replies of its other commands that the event loop leaves to it
 * ({@link #leave}).
 *
 * <p>Confined to one thread by construction, except {@link #leave}, which the event loop calls; allocates nothing
 * after the thread's first use, except a list when one sync call makes more than one command that may carry values (a
 * cluster's multi-slot command), and a holder when sync calls nest.
 */
final class PolicyScope {
    private static final FastThreadLocal<PolicyScope> CURRENT = new FastThreadLocal<>() {
        @Override
        protected PolicyScope initialValue() {
            return new PolicyScope();
        }
    };

    /** Whether the command being encoded on this thread has its value arguments compressed. */
    boolean compress;
    /** whether a sync call is running on this thread */
    private boolean syncCall;
    /** the first command of the running sync call that announced this thread as its waiter, and the others */
    private PolicyCommand<?, ?, ?> first;
    private ArrayList<PolicyCommand<?, ?, ?>> more;

    /** The arrays this thread's encoding buffers use while it encodes a command ({@link EncodeBuffers}), else null. */
    EncodeBuffers.Spares spares;

    /** The thread this scope belongs to. */
    final Thread owner = Thread.currentThread();

    private PolicyScope() {}

    /** @return this thread's scope */
    static PolicyScope current() {
        return CURRENT.get();
    }

    /** @return whether a compressing command is being encoded on this thread */
    static boolean compressing() {
        return CURRENT.get().compress;
    }

    /** @return whether a sync call is running on this thread: its commands' replies are left to this thread */
    boolean syncCall() {
        return syncCall;
    }

    /** Notes a command made by the running sync call, which announced this thread as its waiter. */
    void announced(PolicyCommand<?, ?, ?> command) {
        if (first == null) {
            first = command;
        } else {
            if (more == null) {
                more = new ArrayList<>(4);
            }
            more.add(command);
        }
    }

    /** Starts a sync call; @return what {@link #endSyncCall} restores (null unless calls nest) */
    Object beginSyncCall() {
        Object saved = null;
        if (syncCall) {
            saved = new Object[] {first, more};
        }
        syncCall = true;
        first = null;
        more = null;
        return saved;
    }

    /**
     * Ends a sync call once it has dispatched its commands: every command it made except {@code awaited} is released
     * to the executor (nobody will wait for it on this thread).
     */
    @SuppressWarnings("unchecked")
    void endSyncCall(Object saved, Object awaited) {
        if (first != null && first != awaited) {
            first.release();
        }
        if (more != null) {
            for (PolicyCommand<?, ?, ?> c : more) {
                if (c != awaited) {
                    c.release();
                }
            }
        }
        if (saved == null) {
            syncCall = false;
            first = null;
            more = null;
        } else {
            Object[] s = (Object[]) saved;
            first = (PolicyCommand<?, ?, ?>) s[0];
            more = (ArrayList<PolicyCommand<?, ?, ?>>) s[1];
        }
    }

    // ---------------------------------------------------------- replies left to this thread while it waits for one

    private static final Object CLOSED = new Object();
    private static final VarHandle LEFT;

    static {
        try {
            LEFT = MethodHandles.lookup().findVarHandle(PolicyScope.class, "left", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * While this thread waits for a reply: the ready replies of its other commands that the event loop left to it, a
     * stack linked through {@link PolicyCommand#nextLeft}, newest first (null when empty); {@link #CLOSED} otherwise.
     */
    @SuppressWarnings("unused") // LEFT
    private volatile Object left = CLOSED;

    /**
     * The owner starts waiting for a reply: from now on the event loop leaves it the ready replies of its commands.
     * @return whether this call opened it (false when the thread already waits: a callback that waits, nested)
     */
    boolean openLeft() {
        if (left != CLOSED) {
            return false;
        }
        left = null; // only the owner moves it from CLOSED; the loop never writes CLOSED
        return true;
    }

    /**
     * On the event loop: leaves {@code command}'s ready reply to this scope's thread when that thread is waiting for a
     * reply (it decodes the reply before it stops waiting), otherwise does nothing.
     * @return whether the reply was left to the thread
     */
    boolean leave(PolicyCommand<?, ?, ?> command) {
        for (;;) {
            Object head = LEFT.getVolatile(this);
            if (head == CLOSED) {
                return false;
            }
            command.nextLeft = (PolicyCommand<?, ?, ?>) head;
            if (LEFT.compareAndSet(this, head, command)) {
                return true;
            }
        }
    }

    /**
     * The owner takes the replies left to it so far.
     * @param close whether it stops waiting: later replies go to the decoding threads
     * @return the replies, oldest first, linked through {@link PolicyCommand#nextLeft}; null when none
     */
    PolicyCommand<?, ?, ?> takeLeft(boolean close) {
        Object head;
        do {
            head = LEFT.getVolatile(this);
            if (head == CLOSED) {
                return null;
            }
        } while (!LEFT.compareAndSet(this, head, close ? CLOSED : null));
        PolicyCommand<?, ?, ?> oldest = null;
        PolicyCommand<?, ?, ?> c = (PolicyCommand<?, ?, ?>) head;
        while (c != null) {
            PolicyCommand<?, ?, ?> next = c.nextLeft;
            c.nextLeft = oldest;
            oldest = c;
            c = next;
        }
        return oldest;
    }
}
