package dev.zstdjava.values.spring;

import dev.zstdjava.values.DictionaryCollisionException;
import dev.zstdjava.values.DictionaryEntryRefusedException;
import dev.zstdjava.values.DictionaryInfo;
import dev.zstdjava.values.DictionaryStore;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStringCommands.SetOption;
import org.springframework.data.redis.connection.ReturnType;
import org.springframework.data.redis.core.types.Expiration;
import org.springframework.data.redis.listener.ChannelTopic;
import org.springframework.data.redis.listener.RedisMessageListenerContainer;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * A {@link DictionaryStore} in the Valkey/Redis server, over a Spring {@link RedisConnectionFactory} (Lettuce or
 * Jedis, standalone or cluster: each call takes a connection from the factory and returns it). It keeps the same keys
 * as {@code LettuceDictionaryStore} of {@code zstd-java-lettuce}, so applications on either client with the same
 * prefix share one set of dictionaries, one publication counter and one training lease:
 * <ul>
 *   <li>{@code <prefix>dict:<id>}: the dictionary's bytes, written once; another dictionary under a taken id is
 *       refused with {@link DictionaryCollisionException};</li>
 *   <li>{@code <prefix>seq}: the publication counter, which orders "newest" for every client;</li>
 *   <li>{@code <prefix>index}: a hash from id to {@code "<sequence> <size>"}, what {@link #list()} reads;</li>
 *   <li>{@code <prefix>lease}: the training lease ({@code SET NX PX});</li>
 *   <li>the channel {@code <prefix>published}: every publication is announced there (the id as message).</li>
 * </ul>
 * The prefix holds exactly one hash tag, so in a cluster every key lives in one slot. Publishing writes the entry,
 * the counter and the index in one script, so they never disagree. Entries larger than the limit are refused before
 * they are read ({@code STRLEN} first). {@link #subscribe} listens on a {@link RedisMessageListenerContainer} of its
 * own (a connection of its own), closed by the returned handle.
 *
 * <p><b>Thread safety:</b> thread-safe (the connection factory is). Timeouts are the factory's. The store does not
 * own the factory: closing the subscription handle stops the listener, nothing else is closed.
 */
public final class SpringDictionaryStore implements DictionaryStore {
    /** The default key prefix (the one {@code LettuceDictionaryStore} uses); its hash tag keeps the keys in one slot. */
    public static final String DEFAULT_PREFIX = "zstd-java:dict:{zstd-java-dictionaries}:";
    /** The default largest entry read or written, in bytes. */
    public static final int DEFAULT_MAX_DICTIONARY_SIZE = 1 << 20;

    private static final byte[] PUBLISH = """
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
            """.getBytes(StandardCharsets.UTF_8);
    private static final byte[] RELEASE = """
            if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
            return 0
            """.getBytes(StandardCharsets.UTF_8);

    private final RedisConnectionFactory factory;
    private final String prefix;
    private final int maxDictionarySize;
    private final byte[] seqKey;
    private final byte[] indexKey;
    private final byte[] leaseKey;
    private final String channel;

    /** A store with the default prefix and entries of at most 1 MiB. */
    public SpringDictionaryStore(RedisConnectionFactory factory) {
        this(factory, DEFAULT_PREFIX, DEFAULT_MAX_DICTIONARY_SIZE);
    }

    /**
     * @param prefix            the reserved key prefix; it must hold exactly one non-empty hash tag ({@code {...}})
     * @param maxDictionarySize the largest entry read or written, in bytes (at least 256)
     * @throws IllegalArgumentException if the prefix or the size is not valid
     */
    public SpringDictionaryStore(RedisConnectionFactory factory, String prefix, int maxDictionarySize) {
        this.factory = Objects.requireNonNull(factory, "factory");
        this.prefix = checkPrefix(prefix);
        if (maxDictionarySize < 256) {
            throw new IllegalArgumentException("maxDictionarySize " + maxDictionarySize + " is below 256");
        }
        this.maxDictionarySize = maxDictionarySize;
        this.seqKey = key("seq");
        this.indexKey = key("index");
        this.leaseKey = key("lease");
        this.channel = prefix + "published";
    }

    /** @return {@code prefix} if it holds exactly one non-empty hash tag */
    static String checkPrefix(String prefix) {
        Objects.requireNonNull(prefix, "prefix");
        int open = prefix.indexOf('{');
        int close = prefix.indexOf('}');
        if (open < 0 || close < open + 2 || prefix.indexOf('{', open + 1) >= 0 || prefix.indexOf('}', close + 1) >= 0) {
            throw new IllegalArgumentException("key prefix \"" + prefix + "\" must hold exactly one non-empty hash tag"
                    + " such as {zstd-java-dictionaries}, so that a cluster keeps its keys in one slot");
        }
        return prefix;
    }

    private byte[] key(String suffix) {
        return (prefix + suffix).getBytes(StandardCharsets.UTF_8);
    }

    /** @return the key prefix of this store's keys */
    public String prefix() {
        return prefix;
    }

    private <T> T call(Function<RedisConnection, T> action) {
        try (RedisConnection c = factory.getConnection()) {
            return action.apply(c);
        }
    }

    @Override
    public List<DictionaryInfo> list() {
        Map<byte[], byte[]> index = call(c -> c.hashCommands().hGetAll(indexKey));
        List<DictionaryInfo> out = new ArrayList<>(index == null ? 0 : index.size());
        if (index != null) {
            for (Map.Entry<byte[], byte[]> e : index.entrySet()) {
                DictionaryInfo info = parse(e.getKey(), e.getValue());
                if (info != null) {
                    out.add(info);
                }
            }
        }
        out.sort(Comparator.comparingLong(DictionaryInfo::sequence));
        return out;
    }

    /** @return the index entry, or null when it is not one this layout writes (such entries are left out) */
    private static DictionaryInfo parse(byte[] field, byte[] value) {
        try {
            long id = Long.parseLong(new String(field, StandardCharsets.US_ASCII));
            String[] meta = new String(value, StandardCharsets.US_ASCII).split(" ");
            if (meta.length != 2) {
                return null;
            }
            long seq = Long.parseLong(meta[0]);
            int size = Integer.parseInt(meta[1]);
            if (id <= 0 || id > 0xFFFFFFFFL || seq < 0 || size < 0) {
                return null;
            }
            return new DictionaryInfo(id, seq, size);
        } catch (RuntimeException e) {
            return null;
        }
    }

    @Override
    public byte[] get(long id) {
        byte[] k = key("dict:" + id);
        return call(c -> {
            Long len = c.stringCommands().strLen(k);
            if (len == null || len == 0) {
                return null;
            }
            if (len > maxDictionarySize) {
                throw new DictionaryEntryRefusedException(id, "dictionary entry " + prefix + "dict:" + id + " holds "
                        + len + " bytes, above the " + maxDictionarySize + "-byte limit of SpringDictionaryStore;"
                        + " not read");
            }
            byte[] b = c.stringCommands().get(k);
            if (b != null && b.length > maxDictionarySize) {
                throw new DictionaryEntryRefusedException(id, "dictionary entry " + prefix + "dict:" + id + " grew to "
                        + b.length + " bytes while being read, above the " + maxDictionarySize + "-byte limit");
            }
            return b;
        });
    }

    @Override
    public DictionaryInfo putIfAbsent(long id, byte[] dictionary) {
        Objects.requireNonNull(dictionary, "dictionary");
        if (dictionary.length > maxDictionarySize) {
            throw new IllegalArgumentException("dictionary of " + dictionary.length + " bytes is above the "
                    + maxDictionarySize + "-byte limit");
        }
        byte[] idBytes = Long.toString(id).getBytes(StandardCharsets.US_ASCII);
        byte[] meta = call(c -> c.scriptingCommands().eval(PUBLISH, ReturnType.VALUE, 3, key("dict:" + id), indexKey,
                seqKey, dictionary, idBytes, channel.getBytes(StandardCharsets.UTF_8)));
        if (meta == null) {
            throw new DictionaryCollisionException(id);
        }
        DictionaryInfo info = parse(idBytes, meta);
        return info != null ? info : new DictionaryInfo(id, 0, dictionary.length);
    }

    @Override
    public long version() {
        byte[] v = call(c -> c.stringCommands().get(seqKey));
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
     * Listens to {@code <prefix>published} on a listener container of its own; {@code onPublished} runs on the
     * container's listener thread for every publication. The handle stops the container.
     */
    @Override
    public AutoCloseable subscribe(Runnable onPublished) {
        Objects.requireNonNull(onPublished, "onPublished");
        RedisMessageListenerContainer container = new RedisMessageListenerContainer();
        container.setConnectionFactory(factory);
        container.addMessageListener((message, pattern) -> onPublished.run(), new ChannelTopic(channel));
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
        Boolean set = call(c -> c.stringCommands().set(leaseKey, owner.getBytes(StandardCharsets.UTF_8),
                Expiration.milliseconds(Math.max(1, ttl.toMillis())), SetOption.ifAbsent()));
        return Boolean.TRUE.equals(set);
    }

    @Override
    public void releaseLease(String owner) {
        call(c -> c.scriptingCommands().eval(RELEASE, ReturnType.INTEGER, 1, leaseKey,
                owner.getBytes(StandardCharsets.UTF_8)));
    }

    @Override
    public String toString() {
        return "SpringDictionaryStore[" + prefix + "]";
    }
}
