package dev.zstdjava.cli;

import dev.zstdjava.lettuce.LettuceDictionaryStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every connection the tool opens times out after {@code --timeout}: its own plain connections and the dictionary
 * stores' (whose own default is 5 s). The server is paused ({@code CLIENT PAUSE}) for 2.5 s, longer than a 1 s
 * timeout and shorter than 5 s, once each connection is open (a paused server holds the handshake too); the pause
 * ends by itself. Connecting times out after {@code --timeout} too: a server that never answers the handshake, and
 * one whose TCP handshake never completes.
 */
class TimeoutTest extends StandaloneServer {
    private static final long PAUSE_MS = 2_500;

    @Test
    void everyConnectionOfTheToolTimesOutAfterTheTimeout() {
        RedisClient storeClient = RedisClient.create();
        try (Keyspace ks = Keyspace.connect(uri, Duration.ofSeconds(1), new RateLimiter(1000));
             ReadOnlyStore store = ReadOnlyStore.open(ks, storeClient, null, LettuceDictionaryStore.DEFAULT_PREFIX)) {
            assertTimesOutAfterOneSecond("the keyspace's connection", ks::dbsize);
            assertTimesOutAfterOneSecond("the dictionary store's connection", store::list);
        } finally {
            storeClient.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    /** A server that takes the connection and never answers: the handshake waits {@code --timeout} at most. */
    @Test
    void connectingToAServerThatNeverAnswersTimesOutAfterTheTimeout() throws IOException {
        try (ServerSocket silent = new ServerSocket(0, 50, InetAddress.getLoopbackAddress())) { // never accepts
            assertConnectingTimesOutAfterOneSecond(silent.getLocalPort(),
                    "Connection initialization timed out after 1 second(s)");
        }
    }

    /** A server whose backlog is full: the TCP connection is never made, and is given up after {@code --timeout}. */
    @Test
    void aConnectionThatIsNeverMadeTimesOutAfterTheTimeout() throws IOException {
        try (Unreachable port = new Unreachable()) {
            assertConnectingTimesOutAfterOneSecond(port.port(), "connection timed out after 1000 ms");
        }
    }

    /** The dictionary store's own connection: to a server whose TCP connection is never made. */
    @Test
    void theDictionaryStoreConnectsWithinTheTimeout() throws IOException {
        Common common = new Common();
        common.dictionaryPrefix = LettuceDictionaryStore.DEFAULT_PREFIX;
        try (Keyspace ks = Keyspace.connect(uri, Duration.ofSeconds(1), new RateLimiter(1000));
             Unreachable port = new Unreachable()) {
            ks.uri().setPort(port.port()); // the URI the store connects with
            long start = System.nanoTime();
            RuntimeException e = assertThrows(RuntimeException.class,
                    () -> common.dictionaries(ks, new PrintWriter(new StringWriter())));
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms >= 900 && ms < 2_500, "the store's connection failed after " + ms + " ms: " + e);
            String why = Keyspace.describe(ks.uri(), e); // every message along the cause chain
            assertTrue(why.contains("connection timed out after 1000 ms"), ms + " ms: " + why);
        }
    }

    /**
     * Runs {@code inspect --timeout 1} on {@code port} of the loopback address: exit 1 after about 1 s, with Lettuce's
     * {@code timedOut} message.
     */
    private static void assertConnectingTimesOutAfterOneSecond(int port, String timedOut) {
        long start = System.nanoTime();
        Tool t = Tool.run("inspect", "redis://127.0.0.1:" + port, "--timeout", "1");
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(1, t.code(), t.toString());
        assertTrue(ms >= 900 && ms < 2_500, "failed after " + ms + " ms with a 1 s timeout: " + t);
        assertTrue(t.err().contains(": error: cannot connect to 127.0.0.1:" + port + ": "), t.toString());
        assertTrue(t.err().contains(timedOut), ms + " ms: " + t);
    }

    /**
     * A loopback port whose listening socket has a full backlog and accepts nothing: the kernel drops further
     * connection requests, so a TCP connection to it is never made.
     */
    private static final class Unreachable implements AutoCloseable {
        private final ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
        private final List<Socket> queued = new ArrayList<>();

        Unreachable() throws IOException {
            for (int i = 0; i < 16; i++) {
                Socket s = new Socket();
                try {
                    s.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), port()), 200);
                    queued.add(s);
                } catch (SocketTimeoutException full) {
                    s.close();
                    return;
                }
            }
            throw new IllegalStateException("the backlog of " + socket + " does not fill up");
        }

        int port() {
            return socket.getLocalPort();
        }

        @Override
        public void close() throws IOException {
            for (Socket s : queued) {
                s.close();
            }
            socket.close();
        }
    }

    /**
     * Pauses the server (once the pause before, if any, is over), then asserts that {@code command} fails with
     * Lettuce's timeout after about 1 s.
     */
    private static void assertTimesOutAfterOneSecond(String what, Runnable command) {
        assertEquals("OK", raw.sync().clientPause(PAUSE_MS));
        long start = System.nanoTime();
        try {
            command.run();
            fail(what + ": answered after " + (System.nanoTime() - start) / 1_000_000 + " ms of a " + PAUSE_MS
                    + " ms pause, with a 1 s timeout");
        } catch (RedisCommandTimeoutException e) {
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertTrue(ms >= 900 && ms < PAUSE_MS, what + ": timed out after " + ms + " ms");
            assertTrue(e.getMessage().contains("1 second(s)"), e.getMessage());
        }
    }
}
