package dev.zstdjava.cli;

import io.lettuce.core.ScoredValue;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;

import java.util.ArrayList;
import java.util.List;

/**
 * Reads one key's values for the tool, each command through the rate limiter: string values after their
 * {@code STRLEN}, hash fields and values (values after their {@code HSTRLEN}), set and sorted-set members and list
 * elements; all of them ({@link #readAll}, for a rewrite) or a bounded random sample ({@link #sample}). Not
 * thread-safe; allocates what it reads.
 */
final class Reader {
    /** Where a value sits in its key. */
    enum Role { STRING, HASH_FIELD, HASH_VALUE, SET_MEMBER, ZSET_MEMBER, LIST_ELEMENT }

    /**
     * One stored value of a key.
     *
     * @param stored the stored bytes, or null when they were not read because {@code size} is over the limit
     * @param size   the stored size in bytes
     * @param field  for a hash value: its field's stored bytes; for a list element: null (its index is {@code index})
     * @param score  for a sorted-set member: its score
     */
    record Element(Role role, byte[] stored, long size, byte[] field, long index, double score) {}

    /** What was read of one key: its type, its elements, and {@code MEMORY USAGE key SAMPLES 5} (-1 unknown). */
    record KeyRead(String type, List<Element> elements, long length, long memory) {}

    /** Thrown when a key is too large to be rewritten in memory: over {@code --max-elements} or its memory bound. */
    static final class TooLarge extends RuntimeException {
        TooLarge(String message) {
            super(message);
        }
    }

    private final RateLimiter limiter;
    private final long limit;

    Reader(RateLimiter limiter, long limit) {
        this.limiter = limiter;
        this.limit = limit;
    }

    /** @return {@code MEMORY USAGE key SAMPLES 5}, or -1 when the server refuses it */
    long memoryUsage(RedisCommands<byte[], byte[]> c, byte[] key) {
        limiter.acquire();
        try {
            Long n = c.dispatch(CommandType.MEMORY, new IntegerOutput<>(ByteArrayCodec.INSTANCE),
                    new CommandArgs<>(ByteArrayCodec.INSTANCE).add("USAGE").addKey(key).add("SAMPLES").add(5));
            return n == null ? -1 : n;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** @return the key's type ({@code none} when it is gone) */
    String type(RedisCommands<byte[], byte[]> c, byte[] key) {
        limiter.acquire();
        return c.type(key);
    }

    /**
     * Reads a sample of {@code key}: a string's value, or up to {@code perKey} random elements of a collection (hash
     * fields with their values), and its memory usage.
     */
    KeyRead sample(RedisCommands<byte[], byte[]> c, byte[] key, int perKey) {
        String type = type(c, key);
        List<Element> out = new ArrayList<>();
        long length = 1;
        switch (type) {
            case "string" -> readString(c, key, out);
            case "hash" -> {
                limiter.acquire();
                length = c.hlen(key);
                List<byte[]> fields;
                limiter.acquire();
                fields = length <= perKey ? c.hkeys(key) : c.hrandfield(key, perKey);
                readHash(c, key, fields, out);
            }
            case "set" -> {
                limiter.acquire();
                length = c.scard(key);
                limiter.acquire();
                for (byte[] m : c.srandmember(key, perKey)) {
                    out.add(new Element(Role.SET_MEMBER, m, m.length, null, 0, 0));
                }
            }
            case "zset" -> {
                limiter.acquire();
                length = c.zcard(key);
                limiter.acquire();
                for (ScoredValue<byte[]> m : c.zrandmemberWithScores(key, perKey)) {
                    out.add(new Element(Role.ZSET_MEMBER, m.getValue(), m.getValue().length, null, 0, m.getScore()));
                }
            }
            case "list" -> {
                limiter.acquire();
                length = c.llen(key);
                limiter.acquire();
                List<byte[]> l = c.lrange(key, 0, perKey - 1);
                for (int i = 0; i < l.size(); i++) {
                    out.add(new Element(Role.LIST_ELEMENT, l.get(i), l.get(i).length, null, i, 0));
                }
            }
            default -> length = 0;
        }
        long mem = "none".equals(type) ? -1 : memoryUsage(c, key);
        return new KeyRead(type, out, length, mem);
    }

    /**
     * Reads all of {@code key}, for a rewrite (run inside {@code WATCH}). A collection of more than
     * {@code maxElements} elements, or whose {@code MEMORY USAGE} is over 4 times the limit, is refused unread.
     *
     * @throws TooLarge when the key is refused
     */
    KeyRead readAll(RedisCommands<byte[], byte[]> c, byte[] key, int maxElements) {
        String type = type(c, key);
        List<Element> out = new ArrayList<>();
        long length = 1;
        if (!type.equals("string") && !type.equals("none")) {
            long mem = memoryUsage(c, key);
            if (mem > 4 * limit) {
                throw new TooLarge("uses " + mem + " bytes (MEMORY USAGE), over 4 x --limit " + limit);
            }
        }
        switch (type) {
            case "string" -> readString(c, key, out);
            case "hash" -> {
                limiter.acquire();
                length = c.hlen(key);
                checkLength(length, maxElements);
                limiter.acquire();
                readHash(c, key, c.hkeys(key), out);
            }
            case "set" -> {
                limiter.acquire();
                length = c.scard(key);
                checkLength(length, maxElements);
                limiter.acquire();
                for (byte[] m : c.smembers(key)) {
                    out.add(new Element(Role.SET_MEMBER, m, m.length, null, 0, 0));
                }
            }
            case "zset" -> {
                limiter.acquire();
                length = c.zcard(key);
                checkLength(length, maxElements);
                limiter.acquire();
                for (ScoredValue<byte[]> m : c.zrangeWithScores(key, 0, -1)) {
                    out.add(new Element(Role.ZSET_MEMBER, m.getValue(), m.getValue().length, null, 0, m.getScore()));
                }
            }
            case "list" -> {
                limiter.acquire();
                length = c.llen(key);
                checkLength(length, maxElements);
                limiter.acquire();
                List<byte[]> l = c.lrange(key, 0, -1);
                for (int i = 0; i < l.size(); i++) {
                    out.add(new Element(Role.LIST_ELEMENT, l.get(i), l.get(i).length, null, i, 0));
                }
            }
            default -> length = 0;
        }
        return new KeyRead(type, out, length, -1);
    }

    private static void checkLength(long n, int max) {
        if (n > max) {
            throw new TooLarge("holds " + n + " elements, over --max-elements " + max);
        }
    }

    private void readString(RedisCommands<byte[], byte[]> c, byte[] key, List<Element> out) {
        limiter.acquire();
        long n = c.strlen(key);
        if (n > limit) {
            out.add(new Element(Role.STRING, null, n, null, 0, 0));
            return;
        }
        limiter.acquire();
        byte[] v = c.get(key);
        if (v != null) {
            out.add(new Element(Role.STRING, v, v.length, null, 0, 0));
        }
    }

    private void readHash(RedisCommands<byte[], byte[]> c, byte[] key, List<byte[]> fields, List<Element> out) {
        List<byte[]> wanted = new ArrayList<>();
        for (byte[] f : fields) {
            out.add(new Element(Role.HASH_FIELD, f, f.length, null, 0, 0));
            limiter.acquire();
            long n = c.hstrlen(key, f);
            if (n > limit) {
                out.add(new Element(Role.HASH_VALUE, null, n, f, 0, 0));
            } else {
                wanted.add(f);
            }
        }
        if (wanted.isEmpty()) {
            return;
        }
        limiter.acquire();
        var values = c.hmget(key, wanted.toArray(new byte[0][]));
        for (var kv : values) {
            if (kv.hasValue()) {
                out.add(new Element(Role.HASH_VALUE, kv.getValue(), kv.getValue().length, kv.getKey(), 0, 0));
            }
        }
    }
}
