package dev.zstdjava.lettuce;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The kinds of thread a connection's replies are decoded on ({@link ReplyDecoders#forConnection()}): picked by the
 * system property when the connection is made, by default virtual from JDK 24 on; both refuse work after shutdown.
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
    void virtualThreadsOfThisClientWhenAsked() throws Exception {
        System.setProperty(ReplyDecoders.THREADS_PROPERTY, "virtual");
        Thread t = runOn(decoders.forConnection());
        assertTrue(t.isVirtual(), t.toString());
        assertTrue(t.getName().startsWith("zstd-java-decode-") && t.getName().contains("-v"), t.getName());
        assertNotSame(Thread.currentThread(), t);
    }

    @Test
    void platformThreadsOfThisClientWhenAsked() throws Exception {
        System.setProperty(ReplyDecoders.THREADS_PROPERTY, "platform");
        Thread t = runOn(decoders.forConnection());
        assertFalse(t.isVirtual(), t.toString());
        assertTrue(t.isDaemon());
        assertTrue(t.getName().matches("zstd-java-decode-\\d+-\\d+"), t.getName());
    }

    @Test
    void byDefaultVirtualFromJdk24() throws Exception {
        Thread t = runOn(decoders.forConnection());
        assertEquals(Runtime.version().feature() >= 24, t.isVirtual(), t + " on JDK " + Runtime.version());
    }

    @Test
    void anyOtherValueIsRefusedNamingTheTwo() {
        System.setProperty(ReplyDecoders.THREADS_PROPERTY, "carrier");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, decoders::forConnection);
        assertEquals(ReplyDecoders.THREADS_PROPERTY + "=carrier: expected virtual or platform", e.getMessage());
    }

    @Test
    void bothRefuseWorkOnceTheClientIsShutDown() {
        System.setProperty(ReplyDecoders.THREADS_PROPERTY, "virtual");
        Executor virtual = decoders.forConnection();
        System.setProperty(ReplyDecoders.THREADS_PROPERTY, "platform");
        Executor platform = decoders.forConnection();
        decoders.shutdown();
        assertThrows(RejectedExecutionException.class, () -> virtual.execute(() -> { }));
        assertThrows(RejectedExecutionException.class, () -> platform.execute(() -> { }));
    }
}
