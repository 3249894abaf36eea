package dev.zstdjava.lettuce;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of one compressing client that decode the replies with compressed values and complete the commands
 * of a connection in reply order ({@link OrderedReplies}). At most as many run at once as Lettuce has computation
 * threads ({@code ClientResources#computationThreadPoolSize()}, the cores unless configured). Two kinds:
 * <ul>
 *   <li><b>virtual</b>: each task a new virtual thread named {@code zstd-java-decode-C-vN}, scheduled with the
 *       application's virtual threads: while their carriers are busy, a hand-over wakes no parked thread, and the
 *       virtual threads it completes resume on the same carriers;</li>
 *   <li><b>platform</b>: daemon threads named {@code zstd-java-decode-C-N}, started when first needed and stopped
 *       after {@value #IDLE_SECONDS} idle seconds; one queue for all of them, in the order the event loop handed the
 *       tasks over, so a thread that is already running takes the next task (Lettuce's own computation executor
 *       gives every task to the next of its single-threaded executors in turn, which measured 10-15% fewer GETs a
 *       second on 2 CPUs).</li>
 * </ul>
 * Which, per connection when it is made ({@link #threadsForConnection()}): by default on JDK 24 and newer the kind of
 * thread that dispatched the replies' commands (a virtual thread's replies on a virtual thread, a platform thread's on
 * the platform threads, which measured cheaper for platform callers), on JDK 21 to 23 always the platform threads (a
 * callback that blocks while holding a monitor would pin a carrier there). Either way a task runs on a thread of this
 * client, never on an application thread. The queue holds at most the replies of the commands in flight, which are
 * in memory anyway. After {@link #shutdown()} queued tasks still run and a new one is refused
 * ({@code RejectedExecutionException}: the event loop then decodes itself rather than leave a future pending).
 *
 * <p>Thread-safe; {@link #execute} allocates the queue's node, or the virtual thread.
 */
final class ReplyDecoders implements Executor {
    private static final int IDLE_SECONDS = 30;
    private static final AtomicInteger CLIENTS = new AtomicInteger();
    /** The start of every decoding thread's name, platform or virtual, of every client. */
    private static final String NAME_PREFIX = "zstd-java-decode-";

    /**
     * The system property that picks the threads of new connections: {@code caller} (the kind of thread that
     * dispatched the commands), {@code virtual} or {@code platform}.
     */
    static final String THREADS_PROPERTY = "zstdjava.lettuce.decodingThreads";

    private final BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private final ThreadPoolExecutor pool;
    private final ThreadFactory virtualThreads;
    private final Executor virtual = this::startVirtual;

    /** @param threads how many replies are decoded at once, at least 1 */
    ReplyDecoders(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("reply decoder threads must be at least 1, got " + threads);
        }
        String prefix = NAME_PREFIX + CLIENTS.incrementAndGet() + "-";
        pool = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS, queue, new Named(prefix));
        pool.allowCoreThreadTimeOut(true);
        virtualThreads = Thread.ofVirtual().name(prefix + "v", 1).factory();
    }

    /** A connection's replies decoded on the platform threads. */
    static final int PLATFORM = 0;
    /** A connection's replies decoded on virtual threads. */
    static final int VIRTUAL = 1;
    /** A connection's replies decoded on the kind of thread that dispatched their commands. */
    static final int LIKE_CALLER = 2;

    /**
     * The threads of a new connection, as {@value #THREADS_PROPERTY} says when the connection is made: by default
     * {@link #LIKE_CALLER} on JDK 24 and newer, {@link #PLATFORM} before.
     * @throws IllegalArgumentException for any other value of the property, naming the three
     */
    static int threadsForConnection() {
        String v = System.getProperty(THREADS_PROPERTY);
        if (v == null) {
            return Runtime.version().feature() >= 24 ? LIKE_CALLER : PLATFORM;
        }
        return switch (v) {
            case "caller" -> LIKE_CALLER;
            case "virtual" -> VIRTUAL;
            case "platform" -> PLATFORM;
            default -> throw new IllegalArgumentException(THREADS_PROPERTY + "=" + v
                    + ": expected caller, virtual or platform");
        };
    }

    /** @return the executor of virtual threads, or of the platform threads */
    Executor executor(boolean virtual) {
        return virtual ? this.virtual : this;
    }

    private void startVirtual(Runnable task) {
        if (pool.isShutdown()) {
            throw new RejectedExecutionException("the client is shut down: reply decoding refused");
        }
        virtualThreads.newThread(task).start();
    }

    @Override
    public void execute(Runnable decode) {
        pool.execute(decode);
    }

    /**
     * @return whether {@code thread} is a decoding thread of a compressing client (any client's: a thread of this kind
     * must not wait for decoding, which it may be the one to do)
     */
    static boolean decodes(Thread thread) {
        return thread.getName().startsWith(NAME_PREFIX);
    }

    /** Refuses new tasks; those already queued still run. */
    void shutdown() {
        pool.shutdown();
    }

    /** @return how many threads decode at once */
    int threads() {
        return pool.getMaximumPoolSize();
    }

    private static final class Named implements ThreadFactory {
        private final String prefix;
        private final AtomicInteger count = new AtomicInteger();

        Named(String prefix) {
            this.prefix = prefix;
        }

        @Override
        public Thread newThread(Runnable r) {
            Thread t = new Thread(r, prefix + count.incrementAndGet());
            t.setDaemon(true);
            return t;
        }
    }
}
