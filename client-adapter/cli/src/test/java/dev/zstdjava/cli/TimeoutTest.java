package dev.zstdjava.cli;

import dev.zstdjava.lettuce.LettuceDictionaryStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import io.netty.resolver.dns.SingletonDnsServerAddressStreamProvider;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every connection the tool opens times out after {@code --timeout}: its own plain connections and the dictionary
 * stores' (whose own default is 5 s). The server is paused ({@code CLIENT PAUSE}) for 2.5 s, longer than a 1 s
 * timeout and shorter than 5 s, once each connection is open (a paused server holds the handshake too); the pause
 * ends by itself. Connecting times out after {@code --timeout} too: a server that never answers the handshake, one
 * whose TCP handshake never completes, and each DNS query of a host name's look-up.
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
        try (UnreachablePort port = new UnreachablePort()) {
            assertConnectingTimesOutAfterOneSecond(port.port(), "connection timed out after 1000 ms");
        }
    }

    /**
     * A host name whose DNS look-up is never answered: each query is given up after {@code --timeout}, where Netty's
     * resolver waited its own 5 s (the connection's timeouts do not bound the look-up), which Netty's message says.
     * The name server is a loopback socket that reads nothing, so no query leaves the machine. The search domains are
     * set to none (the platform's, with an {@code ndots} of 2 or more as in Kubernetes, would have the name asked for
     * under the first of them only, and the look-up end at that query's timeout), so exactly the name is asked for:
     * the run takes at least a second, and is given 5 s more than a second per query sent (one per kind of address;
     * a slow machine makes and shuts down the client's resources in that time too).
     */
    @Test
    void aHostNameWhoseLookUpIsNeverAnsweredTimesOutAfterTheTimeout() throws IOException {
        var before = Keyspace.nameServers;
        var domainsBefore = Keyspace.searchDomains;
        try (DatagramSocket silent = new DatagramSocket(0, InetAddress.getLoopbackAddress())) {
            Keyspace.nameServers = new SingletonDnsServerAddressStreamProvider(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), silent.getLocalPort()));
            Keyspace.searchDomains = java.util.List.of();
            long start = System.nanoTime();
            Tool t = Tool.run("inspect", "redis://zstd-values-test.invalid:6379", "--timeout", "1");
            long ms = (System.nanoTime() - start) / 1_000_000;
            assertEquals(1, t.code(), t.toString());
            assertTrue(t.err().contains(": error: cannot connect to zstd-values-test.invalid:6379: "), t.toString());
            assertTrue(t.err().contains("timed out after 1000 milliseconds"), ms + " ms: " + t);
            // every query the run sent waits in the socket's buffer (loopback): the name asked for, perhaps for more
            // than one kind of address
            java.util.Set<String> names = new java.util.LinkedHashSet<>();
            int queries = 0;
            DatagramPacket query = new DatagramPacket(new byte[512], 512);
            silent.setSoTimeout(1_000);
            silent.receive(query); // the look-up asked the test's name server
            while (true) {
                queries++;
                names.add(questionName(query));
                query.setLength(512);
                silent.setSoTimeout(100);
                try {
                    silent.receive(query);
                } catch (java.net.SocketTimeoutException drained) {
                    break;
                }
            }
            assertEquals(java.util.Set.of("zstd-values-test.invalid"), names, queries + " queries");
            assertTrue(ms >= 900L && ms < 1_000L * queries + 5_000, "failed after " + ms
                    + " ms with a 1 s timeout, after " + queries + " queries for " + names + ": " + t);
        } finally {
            Keyspace.nameServers = before;
            Keyspace.searchDomains = domainsBefore;
        }
    }

    /** @return the name a DNS query asks about (its first question's), as dotted labels */
    private static String questionName(DatagramPacket query) {
        byte[] b = query.getData();
        StringBuilder name = new StringBuilder();
        for (int i = query.getOffset() + 12; i < query.getOffset() + query.getLength() && b[i] != 0; i += 1 + b[i]) {
            name.append(name.isEmpty() ? "" : ".")
                    .append(new String(b, i + 1, b[i], java.nio.charset.StandardCharsets.US_ASCII));
        }
        return name.toString();
    }

    /**
     * The dictionary store's own connection: to a server whose TCP connection is never made. The error line names the
     * store and the cause further down the chain (the first message alone was Lettuce's "Unable to connect").
     */
    @Test
    void theDictionaryStoreGivesUpConnectingAfterTheTimeout() throws IOException {
        try (Keyspace ks = Keyspace.connect(uri, Duration.ofSeconds(1), new RateLimiter(1000));
             UnreachablePort port = new UnreachablePort()) {
            ks.uri().setPort(port.port()); // the URI the store connects with
            assertStoreGivesUpAfterOneSecond(ks, "cannot connect to the dictionary store of "
                    + LettuceDictionaryStore.DEFAULT_PREFIX + " on 127.0.0.1:" + port.port() + ": ");
        }
    }

    /**
     * Opens the dictionary stores of {@code ks} (connected with a 1 s timeout, its URI pointing where the stores
     * cannot connect) as every command does, and asserts that it fails after the timeout, well before Lettuce's own
     * 10 s, with an error line that starts with {@code what} and holds Netty's connect timeout message.
     */
    static void assertStoreGivesUpAfterOneSecond(Keyspace ks, String what) {
        Common common = new Common();
        common.dictionaryPrefix = LettuceDictionaryStore.DEFAULT_PREFIX;
        long start = System.nanoTime();
        RuntimeException e = assertThrows(RuntimeException.class,
                () -> common.dictionaries(ks, new PrintWriter(new StringWriter())));
        long ms = (System.nanoTime() - start) / 1_000_000;
        String line = Main.describe(e); // what the tool prints after "zstd-values COMMAND: error: "
        assertTrue(ms >= 900 && ms < 5_000, "the store's connection failed after " + ms + " ms: " + line);
        assertTrue(line.startsWith(what), line);
        assertTrue(line.contains("connection timed out after 1000 ms"), ms + " ms: " + line);
        assertTrue(line.length() < 1_200 && !line.contains("\n"), line); // one line, bounded
    }

    /**
     * Runs {@code inspect --timeout 1} on {@code port} of the loopback address: exit 1 after about 1 s, with Lettuce's
     * {@code timedOut} message. Not before the 1 s: the timer starts within the run, and no timer fires early. Nor
     * anywhere near Lettuce's own timeouts, which the option replaces (without it the run takes 10 s for the TCP
     * connection, 60 s for the handshake): the whole run, which also makes the client's resources and shuts them down,
     * is given 6 s, 5 s more than the timeout.
     */
    private static void assertConnectingTimesOutAfterOneSecond(int port, String timedOut) {
        long start = System.nanoTime();
        Tool t = Tool.run("inspect", "redis://127.0.0.1:" + port, "--timeout", "1");
        long ms = (System.nanoTime() - start) / 1_000_000;
        assertEquals(1, t.code(), t.toString());
        assertTrue(ms >= 1_000 && ms < 6_000, "failed after " + ms + " ms with a 1 s timeout: " + t);
        assertTrue(t.err().contains(": error: cannot connect to 127.0.0.1:" + port + ": "), t.toString());
        assertTrue(t.err().contains(timedOut), ms + " ms: " + t);
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
