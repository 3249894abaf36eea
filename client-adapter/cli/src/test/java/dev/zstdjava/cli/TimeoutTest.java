package dev.zstdjava.cli;

import dev.zstdjava.lettuce.LettuceDictionaryStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisCommandTimeoutException;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every connection the tool opens times out after {@code --timeout}: its own plain connections and the dictionary
 * stores' (whose own default is 5 s). The server is paused ({@code CLIENT PAUSE}) for 2.5 s, longer than a 1 s
 * timeout and shorter than 5 s, once each connection is open (a paused server holds the handshake too); the pause
 * ends by itself.
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
