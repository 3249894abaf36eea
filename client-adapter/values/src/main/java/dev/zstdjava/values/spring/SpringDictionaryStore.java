package dev.zstdjava.values.spring;

import dev.zstdjava.values.DictionaryCollisionException;
import dev.zstdjava.values.DictionaryEntryRefusedException;
import dev.zstdjava.values.DictionaryInfo;
import dev.zstdjava.values.DictionaryStore;
import dev.zstdjava.values.ServerDictionaryLayout;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.types.Expiration;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * A {@link DictionaryStore} in the Valkey/Redis server, over a Spring {@link RedisConnectionFactory} (Lettuce or
 * Jedis, standalone or cluster: each call takes a connection from the factory and returns it). It writes the
 * {@link ServerDictionaryLayout} as {@code LettuceDictionaryStore} of {@code zstd-java-lettuce} does, so applications
 * on either client with the same prefix share one set of dictionaries, one publication counter and one training
 * lease. Another dictionary under a taken id is refused with {@link DictionaryCollisionException}; entries larger than
 * the limit are refused before they are read ({@code STRLEN} first) with {@link DictionaryEntryRefusedException}.
 * {@link #subscribe} listens on a {@link RedisMessageListenerContainer} of its
 * own (a connection of its own), closed by the returned handle.
 *
 * <p><b>Thread safety:</b> thread-safe (the connection factory is). Timeouts are the factory's. The store does not
 * own the factory: closing the subscription handle stops the listener, nothing else is closed.
 */
public final class SpringDictionaryStore implements DictionaryStore {
    private static final byte[] PUBLISH = ServerDictionaryLayout.PUBLISH_SCRIPT.getBytes(StandardCharsets.UTF_8);
    private static final byte[] RELEASE = ServerDictionaryLayout.RELEASE_SCRIPT.getBytes(StandardCharsets.UTF_8);

    private final RedisConnectionFactory factory;
    private final ServerDictionaryLayout layout;

    /** A store with the default prefix and entries of at most 1 MiB. */
    public SpringDictionaryStore(RedisConnectionFactory factory) {
        this(factory, ServerDictionaryLayout.DEFAULT_PREFIX, ServerDictionaryLayout.DEFAULT_MAX_DICTIONARY_SIZE);
    }

    /**
     * @param prefix            the reserved key prefix; it must hold exactly one non-empty hash tag ({@code {...}})
     * @param maxDictionarySize the largest entry read or written, in bytes (256 to
     *                          {@link dev.zstdjava.values.DictionaryManager#MAX_DICTIONARY_SIZE_LIMIT})
     * @throws IllegalArgumentException if the prefix or the size is not valid
     */
    public SpringDictionaryStore(RedisConnectionFactory factory, String prefix, int maxDictionarySize) {
        SpringLine.require("SpringDictionaryStore");
        this.factory = Objects.requireNonNull(factory, "factory");
        this.layout = new ServerDictionaryLayout(prefix, maxDictionarySize, "SpringDictionaryStore maxDictionarySize");
    }

    /** @return the key prefix of this store's keys */
    public String prefix() {
        return layout.prefix();
    }

    private <T> T call(Function<RedisConnection, T> action) {
        try (RedisConnection c = factory.getConnection()) {
            return action.apply(c);
        }
    }

    @Override
    public List<DictionaryInfo> list() {
        return layout.list(call(c -> c.hashCommands().hGetAll(layout.indexKey())));
    }

    @Override
    public byte[] get(long id) {
        byte[] k = layout.entryKey(id);
        return call(c -> layout.readable(id, c.stringCommands().strLen(k))
                ? layout.checkRead(id, c.stringCommands().get(k)) : null);
    }

    @Override
    public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
        layout.checkPublishable(dictionary);
        byte[] reply = call(c -> c.scriptingCommands().eval(PUBLISH, ReturnType.VALUE, 3, layout.entryKey(id),
                layout.indexKey(), layout.counterKey(), dictionary, ServerDictionaryLayout.idArgument(id),
                layout.channel()));
        return layout.published(id, reply, dictionary.length);
    }

    @Override
    public long version() {
        return layout.version(call(c -> c.stringCommands().get(layout.counterKey())));
    }

    /**
     * Listens to {@code <prefix>published} on a listener container of its own; {@code onPublished} runs on the
     * container's listener thread for every publication. The handle stops the container.
     */
    @Override
    public AutoCloseable subscribe(Runnable onPublished) {
        Objects.requireNonNull(onPublished, "onPublished");
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(factory);
        container.addMessageListener((message, pattern) -> onPublished.run(),
                new ChannelTopic(new String(layout.channel(), StandardCharsets.UTF_8)));
        try {
            container.afterPropertiesSet();
            container.start();
        } catch (RuntimeException e) {
            stop(container);
            throw e;
        }
        return () -> stop(container);
    }

    private static void stop(RedisMessageListenerContainer container) {
        try {
            container.destroy();
        } catch (Exception e) {
            throw new IllegalStateException("stopping the dictionary notification listener failed: " + e, e);
        }
    }

    @Override
    public boolean tryLease(String owner, Duration ttl) {
        Boolean set = call(c -> c.stringCommands().set(layout.leaseKey(), owner.getBytes(StandardCharsets.UTF_8),
                Expiration.milliseconds(Math.max(1, ttl.toMillis())), SetOption.ifAbsent()));
        return Boolean.TRUE.equals(set);
    }

    @Override
    public void releaseLease(String owner) {
        call(c -> c.scriptingCommands().eval(RELEASE, ReturnType.INTEGER, 1, layout.leaseKey(),
                owner.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public String entryLocation(long id) {
        return layout.entryLocation(id) + " (" + this + ")";
    }

    @Override
    public String toString() {
        return "SpringDictionaryStore[" + layout.prefix() + "]";
    }
}
