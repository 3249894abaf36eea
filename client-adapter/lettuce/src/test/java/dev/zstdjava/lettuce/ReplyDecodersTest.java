package dev.zstdjava.lettuce;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The kinds of thread a connection's replies are decoded on ({@link ReplyDecoders#threadsForConnection()}): picked by
 * the system property when the connection is made, by default like the caller from JDK 24 on; both refuse work after
 * shutdown.
 */
class ReplyDecodersTest {
    final ReplyDecoders decoders = new ReplyDecoders(2);

    @AfterEach
    void stop() {
        decoders.shutdown();
        System.clearProperty(ReplyDecoders.THREADS_PROPERTY);
    }

    private static Thread runOn(Executor executor) throws Exception {
        CompletableFuture<Thread> ran = new CompletableFuture<>();
        executor.execute(() -> ran.complete(Thread.currentThread()));
        return ran.get(10, TimeUnit.SECONDS);
    }

    @Test
    void virtualThreadsOfThisClient() throws Exception {
        Thread t = runOn(decoders.executor(true));
        assertTrue(t.isVirtual(), t.toString());
        assertTrue(t.getName().startsWith("zstd-java-decode-") && t.getName().contains("-v"), t.getName());
        assertNotSame(Thread.currentThread(), t);
    }

    @Test
    void platformThreadsOfThisClient() throws Exception {
        Thread t = runOn(decoders.executor(false));
        assertFalse(t.isVirtual(), t.toString());
        assertTrue(t.isDaemon());
        assertTrue(t.getName().matches("zstd-java-decode-\\d+-\\d+"), t.getName());
    }

    @Test
    void thePropertyPicksTheThreadsOfNewConnections() {
        System.setProperty(ReplyDecoders.THREADS_PROPERTY, "virtual");
        assertEquals(ReplyDecoders.VIRTUAL, ReplyDecoders.threadsForConnection());
        System.setProperty(ReplyDecoders.THREADS_PROPERTY, "platform");
        assertEquals(ReplyDecoders.PLATFORM, ReplyDecoders.threadsForConnection());
        System.setProperty(ReplyDecoders.THREADS_PROPERTY, "caller");
        assertEquals(ReplyDecoders.LIKE_CALLER, ReplyDecoders.threadsForConnection());
    }

    @Test
    void byDefaultLikeTheCallerFromJdk24() {
        assertEquals(Runtime.version().feature() >= 24 ? ReplyDecoders.LIKE_CALLER : ReplyDecoders.PLATFORM,
                ReplyDecoders.threadsForConnection(), "JDK " + Runtime.version());
    }

    @Test
    void anyOtherValueIsRefusedNamingTheThree() {
        System.setProperty(ReplyDecoders.THREADS_PROPERTY, "carrier");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, ReplyDecoders::threadsForConnection);
        assertEquals(ReplyDecoders.THREADS_PROPERTY + "=carrier: expected caller, virtual or platform", e.getMessage());
    }

    @Test
    void bothRefuseWorkOnceTheClientIsShutDown() {
        decoders.shutdown();
        assertThrows(RejectedExecutionException.class, () -> decoders.executor(true).execute(() -> { }));
        assertThrows(RejectedExecutionException.class, () -> decoders.executor(false).execute(() -> { }));
    }
}
