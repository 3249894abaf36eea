package dev.zstdjava.internal;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.lang.ref.Cleaner;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

/**
 * Lifetime of one native object (a context and its scratch memory).
 *
 * <p>Each native call runs between {@link #enter} and {@link #exit}. {@code enter} admits one thread at a time: a
 * second thread, or any thread after {@link #close}, gets an {@link IllegalStateException} instead of corrupting the
 * context. {@code close} during a call does not free anything and does not wait: the memory is freed when the call
 * has returned. A {@link Cleaner} frees objects that were never closed once their owner becomes unreachable.
 *
 * <p><b>Cost of a call:</b> one atomic read-modify-write (the compare-and-set of {@link #enter}) and, in
 * {@link #exit}, a release store and a plain read. Two fields: {@code state} ({@code IDLE}, {@code BUSY},
 * {@code CLOSED}), which only the thread holding {@code BUSY} writes while it holds it, and the close request
 * {@code closing}, which only {@link #close} writes.
 *
 * <p><b>Why the entry keeps its atomic instruction.</b> Refusing a concurrent call means two threads that enter at
 * once must not both proceed. Each has to publish "I am in" and then look for the other (a store followed by a load
 * of another location, a Dekker pattern); without a StoreLoad barrier between them both loads can be satisfied
 * before either store is visible (the store-buffering outcome that x86 and aarch64 both allow), and both would run.
 * So the entry needs a StoreLoad barrier or a read-modify-write, and on x86 a StoreLoad barrier is itself a locked
 * instruction ({@code lock addl}, what a volatile store compiles to), as costly as the {@code lock cmpxchg} that
 * does the whole test in one step; on aarch64 {@code casal} costs about as much as the {@code stlr; ldar} pair. With
 * reads and writes alone, a try-lock for an unbounded number of threads also needs one register per thread
 * (Burns and Lynch), so a zero-RMW entry would cost more, not less.
 *
 * <p><b>Why the exit needs none.</b> While {@code BUSY} nothing but the holder writes {@code state} ({@link #close}
 * only ever moves {@code IDLE} to {@code CLOSED}), so the exit publishes {@code IDLE} with a release store, and
 * then reads {@code closing}. The release store orders every memory access of the call before it: whoever later
 * reads {@code IDLE} (an {@code enter} of the next thread, as pools hand contexts over, or the compare-and-set that
 * frees) sees the call complete, and the thread handed the context sees everything the call wrote. The read of
 * {@code closing} after it is not ordered against a concurrent {@link #close} (no StoreLoad barrier): close can see
 * {@code BUSY} while this exit misses the request. Nothing is freed under a call in that case (freeing needs the
 * compare-and-set from {@code IDLE}), and the request is not lost either: a close that sees {@code BUSY} also hands
 * the guard to the {@code zstd-java-closer} daemon thread, which re-reads the state until the call has ended
 * and frees then (the exit that sees the request frees at once, and the closer finds it done). An {@code enter}
 * after a close request reads {@code closing} after its compare-and-set (a full barrier, and the close request is
 * written before close reads the state: a Dekker pair with barriers on both sides), so it either sees the request
 * and refuses, or close sees its {@code BUSY} and the call counts as one close came during.
 *
 * <p><b>Confined guards</b> ({@link #Guard(AutoCloseable, String, Runnable, Confinement)} with {@link Confinement#CONFINED}): where no
 * other thread can be involved, no fenced instruction is needed. A confined guard belongs to the thread that made
 * it, as FFM's confined arenas do: {@link #enter}, {@link #exit} and {@link #close} compare that thread with
 * {@link Thread#currentThread()} (a plain read of a final field) and refuse any other thread with an
 * {@link IllegalStateException} naming both threads; a call after close is refused by a plain read of a field only
 * the owner writes. Nothing can run during a call of the owner (no other thread gets in, and the owner is inside the
 * call), so close frees at once. Its {@link Cleaner} watches the guard itself, not the owner object: the guard stays
 * reachable until the {@link #exit} of a running call has read it, so the Cleaner frees only memory no call uses,
 * without any state shared with the owner thread. The static one-liners' per-thread contexts of platform threads
 * are confined; everything another thread could reach (virtual threads' pool, objects the application shares) is
 * not.
 */
public final class Guard {
    private static final Cleaner CLEANER = Cleaner.create(r -> {
        Thread t = new Thread(r, "zstd-java-cleaner");
        t.setDaemon(true);
        return t;
    });

    private static final int IDLE = 0;
    private static final int BUSY = 1;
    private static final int CLOSED = 2;
    private static final VarHandle STATE;
    private static final VarHandle CLOSING;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Guard.class, "state", int.class);
            CLOSING = MethodHandles.lookup().findVarHandle(Guard.class, "closing", boolean.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @SuppressWarnings("unused") // accessed through STATE
    private volatile int state;
    /** Set once by {@link #close}; never cleared. */
    private volatile boolean closing;
    private final String what;
    private final Once free;
    private final Cleaner.Cleanable cleanable;
    /** The owner thread of a confined guard; null for a shared one. */
    private final Thread thread;
    /** A confined guard's close: written and read by {@link #thread} only (others read it only for messages). */
    private boolean confinedClosed;

    /**
     * A shared guard: any thread, one call at a time.
     *
     * @param owner the object whose unreachability frees the memory; {@code free} must not reference it
     * @param what  how to name the object in errors, for example {@code "ZstdCompressor"}
     * @param free  releases the native memory; runs at most once
     */
    public Guard(AutoCloseable owner, String what, Runnable free) {
        this(owner, what, free, Confinement.SHARED);
    }

    /**
     * A shared guard, or, when {@link Confinement#CONFINED}, one that only the calling thread may use and close (see
     * the class comment). Arguments as {@link #Guard(AutoCloseable, String, Runnable)}.
     */
    public Guard(AutoCloseable owner, String what, Runnable free, Confinement confinement) {
        boolean confined = confinement == Confinement.CONFINED;
        this.what = what;
        this.free = new Once(free);
        this.thread = confined ? Thread.currentThread() : null;
        this.cleanable = confined
                ? CLEANER.register(this, this.free) // unreachable guard: no call can be running
                : CLEANER.register(owner, this::close); // refers to the guard, never to the owner
    }

    /** @return true when only the thread that made this guard may use it */
    public boolean isConfined() {
        return thread != null;
    }

    /** @return how errors name the guarded object, for example {@code "ZstdCompressor"} */
    public String what() {
        return what;
    }

    /** Admits the calling thread, or throws if the object is closed or in use by another thread. */
    public void enter() {
        Thread t = thread;
        if (t != null) { // confined: plain reads, no fence
            if (t != Thread.currentThread() || confinedClosed) {
                throw confinedRefused("used");
            }
            return;
        }
        if (!STATE.compareAndSet(this, IDLE, BUSY)) {
            throw refused();
        }
        if (closing) { // volatile read after the CAS: sees any close that did not see this thread's BUSY
            STATE.setRelease(this, IDLE);
            tryFree();
            throw closed();
        }
    }

    /** Ends a call started by {@link #enter}; frees the memory if {@link #close} came in the meantime. */
    public void exit() {
        if (thread != null) { // confined: nothing to publish (and this read keeps the guard reachable to here)
            return;
        }
        STATE.setRelease(this, IDLE);
        if ((boolean) CLOSING.getOpaque(this)) {
            tryFree();
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
        return thread != null ? confinedClosed : closing;
    }

    /**
     * Frees the memory now, or when the call in progress ends. Idempotent; never waits. A confined guard frees at
     * once, and refuses a close from another thread with an {@link IllegalStateException}.
     */
    public void close() {
        if (thread != null) {
            if (thread != Thread.currentThread()) {
                throw confinedRefused("closed");
            }
            if (!confinedClosed) {
                confinedClosed = true;
                cleanable.clean(); // runs the free action (once) and unregisters
            }
            return;
        }
        if (closing) {
            return;
        }
        closing = true; // volatile write, then volatile reads of state: the other half of enter's Dekker pair
        while (!tryFree()) {
            if ((int) STATE.getVolatile(this) == BUSY) {
                Closer.defer(this); // the exit frees; the closer makes sure even if that exit missed the request
                return;
            }
        }
    }

    /**
     * Frees the memory if no call is running: the one compare-and-set from {@code IDLE} to {@code CLOSED} decides
     * which of close, exit, a refused enter or the closer frees.
     *
     * @return true when the memory is freed (now or before)
     */
    boolean tryFree() {
        if (STATE.compareAndSet(this, IDLE, CLOSED)) {
            free.run();
            cleanable.clean(); // unregisters; the action (close) finds closing set and returns
            return true;
        }
        return (int) STATE.getVolatile(this) == CLOSED;
    }

    /**
     * @return true once the memory has been freed (for a shared guard, once the compare-and-set decided which thread
     *     frees it: that thread may still be running the free)
     */
    boolean isFreed() {
        return thread != null ? free.done.get() : (int) STATE.getVolatile(this) == CLOSED;
    }

    /** The refusal of a confined guard: another thread, or (on its own thread) after close. */
    private IllegalStateException confinedRefused(String verb) {
        Thread me = Thread.currentThread();
        if (me == thread) {
            return closed();
        }
        return new IllegalStateException(what + " is confined to thread " + name(thread) + " and cannot be " + verb
                + " from thread " + name(me) + " (make one per thread, or leave out confined() to share it)");
    }

    private static String name(Thread t) {
        return "'" + t.getName() + "' (id " + t.threadId() + ")";
    }

    private IllegalStateException refused() {
        if (closing || (int) STATE.getVolatile(this) == CLOSED) {
            return closed();
        }
        return new IllegalStateException(what + " is in use by another thread: an instance serves one thread at"
                + " a time (use one per thread, or the static methods, which keep one per thread)");
    }

    private IllegalStateException closed() {
        return new IllegalStateException(what + " is closed");
    }

    /**
     * Finishes closes that came during a call: re-reads each such guard's state until the call has ended, then frees
     * it (unless its exit already did). Started on the first such close; parked while there is nothing to do.
     */
    static final class Closer {
        private static final ConcurrentLinkedQueue<Guard> PENDING = new ConcurrentLinkedQueue<>();
        private static final Thread THREAD;

        static {
            THREAD = new Thread(Closer::run, "zstd-java-closer");
            THREAD.setDaemon(true);
            THREAD.start();
        }

        private Closer() {}

        static void defer(Guard g) {
            PENDING.add(g);
            LockSupport.unpark(THREAD);
        }

        private static void run() {
            long wait = TimeUnit.MICROSECONDS.toNanos(100);
            while (true) {
                try {
                    PENDING.removeIf(Guard::tryFree);
                } catch (RuntimeException | Error e) { // a failing free: that guard is CLOSED, dropped next round
                    Thread t = Thread.currentThread();
                    t.getUncaughtExceptionHandler().uncaughtException(t, e);
                }
                if (PENDING.isEmpty()) {
                    wait = TimeUnit.MICROSECONDS.toNanos(100);
                    LockSupport.park();
                } else { // calls still running: look again, less often the longer they run (at most every 50 ms)
                    LockSupport.parkNanos(wait);
                    wait = Math.min(wait * 2, TimeUnit.MILLISECONDS.toNanos(50));
                }
            }
        }
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
