package dev.zstdjava.cli;

import dev.zstdjava.lettuce.LettuceDictionaryStore;
import dev.zstdjava.values.DictionaryInfo;
import dev.zstdjava.values.DictionaryStore;

import java.util.List;

/**
 * A dictionary store as the tool reads it: every command through the run's {@link RateLimiter}, and nothing
 * written (the tool publishes no dictionary). Closing it closes its connection.
 *
 * <p><b>Thread safety:</b> as the store's. Not used on a hot path.
 */
final class ReadOnlyStore implements DictionaryStore, AutoCloseable {
    private final LettuceDictionaryStore store;
    private final RateLimiter limiter;

    ReadOnlyStore(LettuceDictionaryStore store, RateLimiter limiter) {
        this.store = store;
        this.limiter = limiter;
    }

    @Override
    public List<DictionaryInfo> list() {
        limiter.acquire();
        return store.list();
    }

    @Override
    public byte[] get(long id) {
        limiter.acquire();
        return store.get(id);
    }

    @Override
    public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
        throw new UnsupportedOperationException("the zstd-values tool publishes no dictionary");
    }

    @Override
    public long version() {
        limiter.acquire();
        return store.version();
    }

    @Override
    public void close() {
        store.close();
    }

    @Override
    public String toString() {
        return store.toString();
    }
}
