package dev.zstdjava.cli;

import dev.zstdjava.lettuce.LettuceDictionaryStore;
import dev.zstdjava.values.DictionaryInfo;
import dev.zstdjava.values.DictionaryStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.cluster.RedisClusterClient;

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

    private ReadOnlyStore(LettuceDictionaryStore store, RateLimiter limiter) {
        this.store = store;
        this.limiter = limiter;
    }

    /**
     * Opens the store of {@code prefix} on a connection of its own, made by {@code cluster} when not null, else by
     * {@code client} to the keyspace's server; its commands time out after the keyspace's {@code --timeout} (the
     * store's own default is 5 s) and go through the keyspace's limiter, the connection included.
     */
    static ReadOnlyStore open(Keyspace ks, RedisClient client, RedisClusterClient cluster, String prefix) {
        ks.limiter.acquire();
        LettuceDictionaryStore.Builder b = LettuceDictionaryStore.builder().keyPrefix(prefix)
                .timeout(ks.uri().getTimeout());
        return new ReadOnlyStore(cluster != null ? b.connect(cluster) : b.connect(client, ks.uri()), ks.limiter);
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

    /** @return the wrapped store's: the key of dictionary {@code id} ({@code key <prefix>dict:<id>}) */
    @Override
    public String entryLocation(long id) {
        return store.entryLocation(id);
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
