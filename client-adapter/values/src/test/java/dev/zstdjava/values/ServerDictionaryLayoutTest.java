package dev.zstdjava.values;

import dev.zstdjava.values.spring.SpringDictionaryStore;
import org.junit.jupiter.api.Test;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A store's largest dictionary is bounded as a manager's is: no store reads from the server an entry larger than any
 * {@link DictionaryManager} can use ({@link DictionaryManager#MAX_DICTIONARY_SIZE_LIMIT}).
 */
class ServerDictionaryLayoutTest {
    private static final int LIMIT = DictionaryManager.MAX_DICTIONARY_SIZE_LIMIT;

    private static void assertRefusedByName(IllegalArgumentException e) {
        assertTrue(e.getMessage().contains("maxDictionarySize " + (LIMIT + 1))
                && e.getMessage().contains(String.valueOf(LIMIT))
                && e.getMessage().contains("MAX_DICTIONARY_SIZE_LIMIT"), e.getMessage());
    }

    @Test
    void aLimitAboveTheManagersIsRefusedByName() {
        assertEquals(LIMIT, ServerDictionaryLayout.checkMaxDictionarySize(LIMIT));
        new ServerDictionaryLayout(ServerDictionaryLayout.DEFAULT_PREFIX, LIMIT, "s");
        assertRefusedByName(assertThrows(IllegalArgumentException.class,
                () -> ServerDictionaryLayout.checkMaxDictionarySize(LIMIT + 1)));
        assertRefusedByName(assertThrows(IllegalArgumentException.class,
                () -> new ServerDictionaryLayout(ServerDictionaryLayout.DEFAULT_PREFIX, LIMIT + 1, "s")));
        assertRefusedByName(assertThrows(IllegalArgumentException.class, () -> new SpringDictionaryStore(
                new LettuceConnectionFactory(), ServerDictionaryLayout.DEFAULT_PREFIX, LIMIT + 1)));
        assertThrows(IllegalArgumentException.class, () -> ServerDictionaryLayout.checkMaxDictionarySize(255));
    }
}
