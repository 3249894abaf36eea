package dev.zstdjava.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Lifetime of one native object (a context and its scratch memory).
 *
 * <p>Each native call runs between {@link #enter} and {@link #exit}. {@code enter} admits one thread at a time: a
 * second thread, or any thread after {@link #close}, gets an {@link IllegalStateException} instead of corrupting the
 * context. {@code close} during a call does not free anything: the call's own {@code exit} frees the memory when it
 * returns. A {@link Cleaner} frees objects that were never closed once their owner becomes unreachable.
 */
public final class Guard {
    private static final Cleaner CLEANER = Cleaner.create(r -> {
        Thread t = new Thread(r, "zstd-java-cleaner");
        t.setDaemon(true);
        return t;
    });

    private static final int IDLE = 0;
    private static final int BUSY = 1;
    private static final int CLOSING = 2;
    private static final int CLOSED = 3;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Guard.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;
    private final String what;
    private final Once free;
    private final Cleaner.Cleanable cleanable;

    /**
     * @param owner the object whose unreachability frees the memory; {@code free} must not reference it
     * @param what  how to name the object in errors, for example {@code "ZstdCompressor"}
     * @param free  releases the native memory; runs at most once
     */
    public Guard(Object owner, String what, Runnable free) {
        this.what = what;
        this.free = new Once(free);
        this.cleanable = CLEANER.register(owner, this::close); // refers to the guard, never to the owner
    }

    /** Admits the calling thread, or throws if the object is closed or in use by another thread. */
    public void enter() {
        if (!STATE.compareAndSet(this, IDLE, BUSY)) {
            throw refused();
        }
    }

    /** Ends a call started by {@link #enter}; frees the memory if {@link #close} came in the meantime. */
    public void exit() {
        if (!STATE.compareAndSet(this, BUSY, IDLE)) {
            STATE.setVolatile(this, CLOSED);
            release();
        }
    }

    /**
     * Runs the setup of a freshly guarded object (parameters, references); if it throws, frees the native memory at
     * once and rethrows, so a failed constructor leaves nothing for the {@link Cleaner}.
     */
    public void setUp(Runnable setup) {
        try {
            setup.run();
        } catch (RuntimeException | Error e) {
            close();
            throw e;
        }
    }

    /** @return true once {@link #close} was called */
    public boolean isClosed() {
        int s = (int) STATE.getVolatile(this);
        return s == CLOSING || s == CLOSED;
    }

    /** Frees the memory now, or when the call in progress ends. Idempotent. */
    public void close() {
        while (true) {
            int s = (int) STATE.getVolatile(this);
            if (s == IDLE) {
                if (STATE.compareAndSet(this, IDLE, CLOSED)) {
                    release();
                    return;
                }
            } else if (s == BUSY) {
                if (STATE.compareAndSet(this, BUSY, CLOSING)) {
                    return;
                }
            } else {
                return;
            }
        }
    }

    private void release() {
        free.run();
        cleanable.clean(); // unregisters; the action (close) finds CLOSED and returns
    }

    private IllegalStateException refused() {
        int s = (int) STATE.getVolatile(this);
        if (s == CLOSING || s == CLOSED) {
            return new IllegalStateException(what + " is closed");
        }
        return new IllegalStateException(what + " is in use by another thread: an instance serves one thread at"
                + " a time (use one per thread, or the static methods, which keep one per thread)");
    }

    private static final class Once implements Runnable {
        private final AtomicBoolean done = new AtomicBoolean();
        private final Runnable free;

        Once(Runnable free) {
            this.free = free;
        }

        @Override
        public void run() {
            if (done.compareAndSet(false, true)) {
                free.run();
            }
        }
    }
}
