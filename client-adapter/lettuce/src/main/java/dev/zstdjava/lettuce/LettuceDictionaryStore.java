package dev.zstdjava.lettuce;

import dev.zstdjava.values.DictionaryCollisionException;
import dev.zstdjava.values.DictionaryEntryRefusedException;
import dev.zstdjava.values.DictionaryInfo;
import dev.zstdjava.values.DictionaryStore;
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
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A {@link DictionaryStore} in the Valkey/Redis server itself, over a Lettuce connection of its own (standalone or
 * cluster). Every key starts with one reserved prefix that holds exactly one hash tag, so in a cluster they all live
 * in one slot (default {@value #DEFAULT_PREFIX}):
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
    public static final String DEFAULT_PREFIX = "zstd-java:dict:{zstd-java-dictionaries}:";

    private static final String PUBLISH = """
            local existing = redis.call('GET', KEYS[1])
            if existing then
              if existing == ARGV[1] then return redis.call('HGET', KEYS[2], ARGV[2]) or '0 0' end
              return false
            end
            redis.call('SET', KEYS[1], ARGV[1], 'NX')
            local seq = redis.call('INCR', KEYS[3])
            local meta = seq .. ' ' .. string.len(ARGV[1])
            redis.call('HSET', KEYS[2], ARGV[2], meta)
            redis.call('PUBLISH', ARGV[3], ARGV[2])
            return meta
            """;
    private static final String RELEASE = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
            return 0
            """;

    private final StatefulConnection<byte[], byte[]> connection;
    private final java.util.function.Supplier<StatefulRedisPubSubConnection<byte[], byte[]>> pubSub;
    private final Duration timeout;
    private final byte[] channel;
    private final RedisClusterCommands<byte[], byte[]> commands;
    private final String prefix;
    private final int maxDictionarySize;
    private final byte[] seqKey;
    private final byte[] indexKey;
    private final byte[] leaseKey;

    private LettuceDictionaryStore(StatefulConnection<byte[], byte[]> connection,
                                   RedisClusterCommands<byte[], byte[]> commands,
                                   java.util.function.Supplier<StatefulRedisPubSubConnection<byte[], byte[]>> pubSub,
                                   Builder b) {
        this.connection = connection;
        this.pubSub = pubSub;
        this.timeout = b.timeout;
        this.commands = commands;
        this.prefix = b.prefix;
        this.maxDictionarySize = b.maxDictionarySize;
        this.seqKey = key("seq");
        this.indexKey = key("index");
        this.leaseKey = key("lease");
        this.channel = key("published");
        connection.setTimeout(b.timeout);
    }

    /** @return a builder with the default prefix, a 5 s command timeout and entries of at most 1 MiB */
    public static Builder builder() {
        return new Builder();
    }

    private byte[] key(String suffix) {
        return (prefix + suffix).getBytes(StandardCharsets.UTF_8);
    }

    private byte[] dictKey(long id) {
        return key("dict:" + id);
    }

    /** @return the key prefix of this store's keys */
    public String prefix() {
        return prefix;
    }

    @Override
    public List<DictionaryInfo> list() {
        Map<byte[], byte[]> index = commands.hgetall(indexKey);
        List<DictionaryInfo> out = new ArrayList<>(index.size());
        for (Map.Entry<byte[], byte[]> e : index.entrySet()) {
            DictionaryInfo info = parse(e.getKey(), e.getValue());
            if (info != null) {
                out.add(info);
            }
        }
        out.sort(Comparator.comparingLong(DictionaryInfo::sequence));
        return out;
    }

    /** @return the index entry, or null when it is not one this store writes (such entries are left out) */
    private static DictionaryInfo parse(byte[] field, byte[] value) {
        try {
            long id = Long.parseLong(new String(field, StandardCharsets.US_ASCII));
            String[] meta = new String(value, StandardCharsets.US_ASCII).split(" ");
            long seq = Long.parseLong(meta[0]);
            int size = Integer.parseInt(meta[1]);
            if (id <= 0 || id > 0xFFFFFFFFL || seq < 0 || size < 0 || meta.length != 2) {
                return null;
            }
            return new DictionaryInfo(id, seq, size);
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public byte[] get(long id) {
        byte[] k = dictKey(id);
        Long len = commands.strlen(k);
        if (len == null || len == 0) {
            return null;
        }
        if (len > maxDictionarySize) {
            throw new DictionaryEntryRefusedException(id, "dictionary entry " + prefix + "dict:" + id + " holds "
                    + len + " bytes, above the " + maxDictionarySize + "-byte limit (LettuceDictionaryStore.Builder"
                    + ".maxDictionarySize); not read");
        }
        byte[] b = commands.get(k);
        if (b != null && b.length > maxDictionarySize) {
            throw new DictionaryEntryRefusedException(id, "dictionary entry " + prefix + "dict:" + id + " grew to "
                    + b.length + " bytes while being read, above the " + maxDictionarySize + "-byte limit");
        }
        return b;
    }

    @Override
    public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
        Objects.requireNonNull(dictionary, "dictionary");
        if (dictionary.length > maxDictionarySize) {
            throw new IllegalArgumentException("dictionary of " + dictionary.length + " bytes is above the "
                    + maxDictionarySize + "-byte limit");
        }
        byte[] idBytes = Long.toString(id).getBytes(StandardCharsets.US_ASCII);
        byte[] meta = commands.eval(PUBLISH, ScriptOutputType.VALUE, new byte[][] {dictKey(id), indexKey, seqKey},
                dictionary, idBytes, channel);
        if (meta == null) {
            throw new DictionaryCollisionException(id);
        }
        DictionaryInfo info = parse(idBytes, meta);
        return info != null ? info : new DictionaryInfo(id, 0, dictionary.length);
    }

    @Override
    public long version() {
        byte[] v = commands.get(seqKey);
        if (v == null) {
            return 0;
        }
        try {
            return Long.parseLong(new String(v, StandardCharsets.US_ASCII));
        } catch (NumberFormatException e) {
            throw new IllegalStateException("the publication counter " + prefix + "seq is not a number", e);
        }
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
        String r = commands.set(leaseKey, owner.getBytes(StandardCharsets.UTF_8),
                SetArgs.Builder.nx().px(Math.max(1, ttl.toMillis())));
        return "OK".equals(r);
    }

    @Override
    public void releaseLease(String owner) {
        commands.eval(RELEASE, ScriptOutputType.INTEGER, new byte[][] {leaseKey}, owner.getBytes(StandardCharsets.UTF_8));
    }

    /** Closes this store's connection. */
    @Override
    public void close() {
        connection.close();
    }

    @Override
    public String toString() {
        return "LettuceDictionaryStore[" + prefix + "]";
    }

    /** Settings of a {@link LettuceDictionaryStore}. Not thread-safe. */
    public static final class Builder {
        private String prefix = DEFAULT_PREFIX;
        private Duration timeout = Duration.ofSeconds(5);
        private int maxDictionarySize = 1 << 20;

        private Builder() {}

        /**
         * The reserved key prefix; it must hold exactly one hash tag ({@code {...}}, not empty) so that a cluster
         * keeps every dictionary key in one slot. Default {@value LettuceDictionaryStore#DEFAULT_PREFIX}.
         */
        public Builder keyPrefix(String prefix) {
            Objects.requireNonNull(prefix, "prefix");
            int open = prefix.indexOf('{');
            int close = prefix.indexOf('}');
            if (open < 0 || close < open + 2 || prefix.indexOf('{', open + 1) >= 0
                    || prefix.indexOf('}', close + 1) >= 0) {
                throw new IllegalArgumentException("key prefix \"" + prefix + "\" must hold exactly one non-empty hash"
                        + " tag such as {zstd-java-dictionaries}, so that a cluster keeps its keys in one slot");
            }
            this.prefix = prefix;
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

        /** Largest entry read or written, in bytes (default 1 MiB); larger entries are refused unread. */
        public Builder maxDictionarySize(int bytes) {
            if (bytes < 256) {
                throw new IllegalArgumentException("maxDictionarySize " + bytes + " is below 256");
            }
            this.maxDictionarySize = bytes;
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
