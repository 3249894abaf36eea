package dev.zstdjava.lettuce;

import dev.zstdjava.values.DictionaryCollisionException;
import dev.zstdjava.values.DictionaryInfo;
import dev.zstdjava.values.DictionaryStore;
import dev.zstdjava.values.ServerDictionaryLayout;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.api.StatefulConnection;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.api.sync.RedisClusterCommands;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import io.lettuce.core.codec.ByteArrayCodec;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * A {@link DictionaryStore} in the Valkey/Redis server itself, over a Lettuce connection of its own (standalone or
 * cluster), in the {@link ServerDictionaryLayout} (which {@code SpringDictionaryStore} writes too). Every key starts
 * with one reserved prefix that holds exactly one hash tag, so in a cluster they all live in one slot (default
 * {@value #DEFAULT_PREFIX}):
 * <ul>
 *   <li>{@code <prefix>dict:<id>}: the dictionary's bytes, written once ({@code SET NX}); another dictionary under a
 *       taken id is refused with {@link DictionaryCollisionException};</li>
 *   <li>{@code <prefix>seq}: the publication counter ({@code INCR}), which orders "newest" for every client;</li>
 *   <li>{@code <prefix>index}: a hash from id to {@code "<sequence> <size>"}, what {@link #list()} reads;</li>
 *   <li>{@code <prefix>lease}: the training lease ({@code SET NX PX}).</li>
 * </ul>
 * Each publication is also announced on the pub/sub channel {@code <prefix>published} (the id as message), which
 * {@link #subscribe} listens to on a connection of its own, so other clients load a new dictionary at once.
 * Publishing writes the entry, the counter and the index in one script, so they never disagree. Deleting a
 * dictionary ({@code DEL <prefix>dict:<id>} and {@code HDEL <prefix>index <id>}) makes every value compressed with it
 * unreadable; there is deliberately no method for it. Entries larger than {@link Builder#maxDictionarySize} are
 * refused before they are read ({@code STRLEN} first).
 *
 * <p><b>Thread safety:</b> thread-safe (one Lettuce connection, synchronous commands with the configured timeout).
 * {@link #close()} closes the connection.
 */
public final class LettuceDictionaryStore implements DictionaryStore, AutoCloseable {
    /** The default key prefix; its hash tag keeps every dictionary key in one cluster slot. */
    public static final String DEFAULT_PREFIX = ServerDictionaryLayout.DEFAULT_PREFIX;

    private final StatefulConnection<byte[], byte[]> connection;
    private final java.util.function.Supplier<StatefulRedisPubSubConnection<byte[], byte[]>> pubSub;
    private final Duration timeout;
    private final byte[] channel;
    private final RedisClusterCommands<byte[], byte[]> commands;
    private final ServerDictionaryLayout layout;

    private LettuceDictionaryStore(StatefulConnection<byte[], byte[]> connection,
                                   RedisClusterCommands<byte[], byte[]> commands,
                                   java.util.function.Supplier<StatefulRedisPubSubConnection<byte[], byte[]>> pubSub,
                                   Builder b) {
        this.connection = connection;
        this.pubSub = pubSub;
        this.timeout = b.timeout;
        this.commands = commands;
        this.layout = new ServerDictionaryLayout(b.prefix, b.maxDictionarySize,
                "LettuceDictionaryStore.Builder.maxDictionarySize");
        this.channel = layout.channel();
        connection.setTimeout(b.timeout);
    }

    /** @return a builder with the default prefix, a 5 s command timeout and entries of at most 1 MiB */
    public static Builder builder() {
        return new Builder();
    }

    /** @return the key prefix of this store's keys */
    public String prefix() {
        return layout.prefix();
    }

    @Override
    public List<DictionaryInfo> list() {
        return layout.list(commands.hgetall(layout.indexKey()));
    }

    @Override
    public byte[] get(long id) {
        byte[] k = layout.entryKey(id);
        return layout.readable(id, commands.strlen(k)) ? layout.checkRead(id, commands.get(k)) : null;
    }

    @Override
    public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
        layout.checkPublishable(dictionary);
        byte[] reply = commands.eval(ServerDictionaryLayout.PUBLISH_SCRIPT, ScriptOutputType.VALUE,
                new byte[][] {layout.entryKey(id), layout.indexKey(), layout.counterKey()}, dictionary,
                ServerDictionaryLayout.idArgument(id), channel);
        return layout.published(id, reply, dictionary.length);
    }

    @Override
    public long version() {
        return layout.version(commands.get(layout.counterKey()));
    }

    /**
     * Listens to {@code <prefix>published} on a pub/sub connection of its own; {@code onPublished} runs on Lettuce's
     * I/O thread for every publication.
     */
    @Override
    public AutoCloseable subscribe(Runnable onPublished) {
        Objects.requireNonNull(onPublished, "onPublished");
        StatefulRedisPubSubConnection<byte[], byte[]> c = pubSub.get();
        try {
            c.setTimeout(timeout);
            c.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(byte[] ch, byte[] message) {
                    onPublished.run();
                }
            });
            c.sync().subscribe(channel);
            return c::close;
        } catch (RuntimeException e) {
            c.close();
            throw e;
        }
    }

    @Override
    public boolean tryLease(String owner, Duration ttl) {
        String r = commands.set(layout.leaseKey(), owner.getBytes(StandardCharsets.UTF_8),
                SetArgs.Builder.nx().px(Math.max(1, ttl.toMillis())));
        return "OK".equals(r);
    }

    @Override
    public void releaseLease(String owner) {
        commands.eval(ServerDictionaryLayout.RELEASE_SCRIPT, ScriptOutputType.INTEGER, new byte[][] {layout.leaseKey()},
                owner.getBytes(StandardCharsets.UTF_8));
    }

    /** Closes this store's connection. */
    @Override
    public void close() {
        connection.close();
    }

    @Override
    public String entryLocation(long id) {
        return layout.entryLocation(id) + " (" + this + ")";
    }

    @Override
    public String toString() {
        return "LettuceDictionaryStore[" + layout.prefix() + "]";
    }

    /** Settings of a {@link LettuceDictionaryStore}. Not thread-safe. */
    public static final class Builder {
        private String prefix = DEFAULT_PREFIX;
        private Duration timeout = Duration.ofSeconds(5);
        private int maxDictionarySize = ServerDictionaryLayout.DEFAULT_MAX_DICTIONARY_SIZE;

        private Builder() {}

        /**
         * The reserved key prefix; it must hold exactly one hash tag ({@code {...}}, not empty) so that a cluster
         * keeps every dictionary key in one slot. Default {@value LettuceDictionaryStore#DEFAULT_PREFIX}.
         */
        public Builder keyPrefix(String prefix) {
            this.prefix = ServerDictionaryLayout.checkPrefix(prefix);
            return this;
        }

        /** Timeout of every command of the store's connection (default 5 s). */
        public Builder timeout(Duration timeout) {
            if (timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException("timeout must be positive, got " + timeout);
            }
            this.timeout = timeout;
            return this;
        }

        /**
         * Largest entry read or written, in bytes (default 1 MiB, 256 to
         * {@link dev.zstdjava.values.DictionaryManager#MAX_DICTIONARY_SIZE_LIMIT}); larger entries are refused unread.
         */
        public Builder maxDictionarySize(int bytes) {
            this.maxDictionarySize = ServerDictionaryLayout.checkMaxDictionarySize(bytes);
            return this;
        }

        /** Opens the store's own connection to a standalone server. */
        public LettuceDictionaryStore connect(RedisClient client, RedisURI uri) {
            var c = client.connect(ByteArrayCodec.INSTANCE, uri);
            return new LettuceDictionaryStore(c, c.sync(), () -> client.connectPubSub(ByteArrayCodec.INSTANCE, uri),
                    this);
        }

        /** Opens the store's own connection to a cluster (all keys are in the slot of the prefix's hash tag). */
        public LettuceDictionaryStore connect(RedisClusterClient client) {
            var c = client.connect(ByteArrayCodec.INSTANCE);
            return new LettuceDictionaryStore(c, c.sync(), () -> client.connectPubSub(ByteArrayCodec.INSTANCE), this);
        }
    }
}
