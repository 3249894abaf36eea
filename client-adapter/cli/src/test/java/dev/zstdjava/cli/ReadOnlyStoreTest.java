package dev.zstdjava.cli;

import dev.zstdjava.lettuce.LettuceDictionaryStore;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.PatternDictionaries;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The tool's read-only store, side by side with the Lettuce store it wraps on the same server: where it keeps a
 * dictionary ({@code entryLocation}, what missing-dictionary and left-out messages name) is the wrapped store's key.
 */
class ReadOnlyStoreTest extends StandaloneServer {
    @Test
    void entryLocationNamesTheKeyAsTheWrappedStoreDoes() {
        RedisClient storeClient = RedisClient.create();
        try (Keyspace ks = Keyspace.connect(uri, Duration.ofSeconds(5), new RateLimiter(1000))) {
            for (String prefix : List.of(LettuceDictionaryStore.DEFAULT_PREFIX, PatternDictionaries.prefix("event:*"),
                    PatternDictionaries.prefix(PatternDictionaries.ID_CLAIMS))) {
                try (ReadOnlyStore tool = ReadOnlyStore.open(ks, storeClient, null, prefix);
                     LettuceDictionaryStore plain = LettuceDictionaryStore.builder().keyPrefix(prefix)
                             .connect(storeClient, RedisURI.create(RedisServer.HOST, server.port()))) {
                    for (long id : new long[] {1, 32768, 4294967295L}) {
                        assertEquals(plain.entryLocation(id), tool.entryLocation(id), prefix);
                        assertTrue(tool.entryLocation(id).startsWith("key " + prefix + "dict:" + id + " "),
                                tool.entryLocation(id));
                    }
                }
            }
        } finally {
            storeClient.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }
}
