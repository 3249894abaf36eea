package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.values.DictionaryEntryRefusedException;
import dev.zstdjava.values.DictionaryManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.*;

/**
 * An index entry that understates its dictionary's size (listed as 4 KiB, over 1 MiB stored), on a real server: the
 * store refuses it with {@link DictionaryEntryRefusedException} before reading it, and a manager rejects it once,
 * lists it and does not read it again on later refreshes.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class LettuceDictionaryStoreRefusalTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer();

    static byte[] k(String s) {
        return (LettuceDictionaryStore.DEFAULT_PREFIX + s).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void anUnderstatedEntryIsRefusedOnceAndNotReread() throws Exception {
        long id = 31337;
        var raw = redis.raw().sync();
        raw.set(k("dict:" + id), new byte[(1 << 20) + 100_000]);
        raw.hset(k("index"), Long.toString(id).getBytes(StandardCharsets.US_ASCII),
                "1 4096".getBytes(StandardCharsets.US_ASCII));
        raw.set(k("seq"), "1".getBytes(StandardCharsets.US_ASCII));
        try (LettuceDictionaryStore store = LettuceDictionaryStore.builder().connect(redis.client(), redis.uri())) {
            assertEquals(4096, store.list().get(0).size(), "the index understates the entry");
            assertTrue(store.entryLocation(id).startsWith("key " + new String(k("dict:" + id), StandardCharsets.UTF_8)
                    + " "), "what a missing dictionary's message names: " + store.entryLocation(id));
            DictionaryEntryRefusedException e = assertThrows(DictionaryEntryRefusedException.class,
                    () -> store.get(id));
            assertEquals(id, e.dictionaryId());
            assertTrue(e.getMessage().contains("maxDictionarySize"), e.getMessage());
            try (DictionaryManager m = DictionaryManager.shared(store).refreshInterval(Duration.ofMillis(20))
                    .build()) {
                assertTrue(m.rejectedDictionaries().containsKey(id), String.valueOf(m.rejectedDictionaries()));
                long strlenCalls = strlenCalls();
                for (int i = 0; i < 5; i++) { // new publications make every manager list the index again
                    raw.incr(k("seq"));
                    Thread.sleep(60);
                }
                assertEquals(strlenCalls, strlenCalls(), "the refused entry is not looked at again");
                assertTrue(m.rejectedDictionaries().containsKey(id));
            }
        }
    }

    static long strlenCalls() {
        String info = redis.raw().sync().info("commandstats");
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("cmdstat_strlen:")) {
                int c = line.indexOf("calls=");
                return Long.parseLong(line.substring(c + 6, line.indexOf(',', c)));
            }
        }
        return 0;
    }
}
