package dev.zstdjava.lettuce;

import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads of one compressing client that decode the replies with compressed values and complete the commands
 * of a connection in reply order ({@link OrderedReplies}): as many as Lettuce's computation threads ({@code ClientResources#computationThreadPoolSize()},
 * the cores unless configured), started when first needed, stopped after {@value #IDLE_SECONDS} idle seconds and when
 * the client shuts down; daemon threads named {@code zstd-java-decode-C-N}.
 *
 * <p>One queue for all of them, in the order the event loop handed the replies over: a thread that is already
 * running takes the next reply, so a pipeline's replies wake one thread, not one thread each (Lettuce's own
 * computation executor gives every task to the next of its single-threaded executors in turn, which measured 10-15%
 * fewer GETs a second on 2 CPUs). The queue holds at most the replies of the commands in flight, which are in memory
 * anyway. After {@link #shutdown()} queued replies are still decoded and a new one is refused
 * ({@code RejectedExecutionException}: the event loop then decodes it itself rather than leave its future pending).
 *
 * <p>Thread-safe; {@link #execute} allocates the queue's node.
 */
final class ReplyDecoders implements Executor {
    private static final int IDLE_SECONDS = 30;
    private static final AtomicInteger CLIENTS = new AtomicInteger();

    private final BlockingQueue<Runnable> queue = new LinkedBlockingQueue<>();
    private final ThreadPoolExecutor pool;

    /** @param threads how many replies are decoded at once, at least 1 */
    ReplyDecoders(int threads) {
        if (threads < 1) {
            throw new IllegalArgumentException("reply decoder threads must be at least 1, got " + threads);
        }
        pool = new ThreadPoolExecutor(threads, threads, IDLE_SECONDS, TimeUnit.SECONDS, queue,
                new Named("zstd-java-decode-" + CLIENTS.incrementAndGet() + "-"));
        pool.allowCoreThreadTimeOut(true);
    }

    @Override
    public void execute(Runnable decode) {
        pool.execute(decode);
    }

    /** Refuses new replies; those already queued are still decoded. */
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
