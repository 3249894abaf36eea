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
 * elements; all of them ({@link #readAll}, for a rewrite) or a bounded random sample ({@link #sample}). Members, list
 * elements and hash field names have no length command: they are read only from a collection whose size is bounded
 * first ({@link #unbounded}), so that what the tool holds of one key's members is at most {@link #COLLECTION_LIMITS}
 * times the limit, and a member over the limit is dropped as soon as it is read. Not thread-safe; allocates what it
 * reads.
 */
final class Reader {
    /** A collection's members are read only when its {@code MEMORY USAGE} is at most this many times the limit. */
    static final int COLLECTION_LIMITS = 4;

    /** Where a value sits in its key. */
    enum Role { STRING, HASH_FIELD, HASH_VALUE, SET_MEMBER, ZSET_MEMBER, LIST_ELEMENT }

    /**
     * One stored value of a key.
     *
     * @param stored the stored bytes, or null when they were not kept because {@code size} is over the limit
     * @param size   the stored size in bytes
     * @param field  for a hash value: its field's stored bytes; for a list element: null (its index is {@code index})
     * @param score  for a sorted-set member: its score
     */
    record Element(Role role, byte[] stored, long size, byte[] field, long index, double score) {}

    /**
     * What was read of one key: its type, its elements, and {@code MEMORY USAGE key SAMPLES 5} (-1 unknown).
     *
     * @param unread null, or why the members (list elements, hash fields) of the collection were not read: its size
     *               could not be bounded within the limits ({@link #unbounded})
     */
    record KeyRead(String type, List<Element> elements, long length, long memory, String unread) {}

    /** Thrown when a key is too large to be rewritten in memory: over {@code --max-elements} or its memory bound. */
    static final class TooLarge extends RuntimeException {
        TooLarge(String message) {
            super(message);
        }
    }

    /** Test hook: runs after a key's type was read and before its values are (null: nothing). */
    static volatile java.util.function.Consumer<byte[]> afterType;

    private final RateLimiter limiter;
    private final long limit;

    Reader(RateLimiter limiter, long limit) {
        this.limiter = limiter;
        this.limit = limit;
    }

    /** @return {@code MEMORY USAGE key SAMPLES samples} (0: every element), or -1 when the server refuses it */
    long memoryUsage(RedisCommands<byte[], byte[]> c, byte[] key, int samples) {
        limiter.acquire();
        try {
            Long n = c.dispatch(CommandType.MEMORY, new IntegerOutput<>(ByteArrayCodec.INSTANCE),
                    new CommandArgs<>(ByteArrayCodec.INSTANCE).add("USAGE").addKey(key).add("SAMPLES").add(samples));
            return n == null ? -1 : n;
        } catch (RuntimeException e) {
            return -1;
        }
    }

    /** @return {@code MEMORY USAGE key SAMPLES 5}, the estimate the tool reports, or -1 when the server refuses it */
    long memoryUsage(RedisCommands<byte[], byte[]> c, byte[] key) {
        return memoryUsage(c, key, 5);
    }

    /**
     * Bounds what reading the members of collection {@code key} ({@code length} of them) brings in, before any is
     * read: a set, sorted set or hash (whose field names have no length command) of at most {@code maxElements}
     * elements, whose {@code MEMORY USAGE key SAMPLES 0} (every element counted, so its server time is bounded by
     * {@code maxElements}) is at most {@link #COLLECTION_LIMITS} times the limit; a list whose {@code MEMORY USAGE}
     * over its first {@code listElements} nodes (the server samples a list's nodes from its head, and each node holds
     * at least one element, so that it bounds the first {@code listElements} elements; 0: the whole list) is within the
     * same bound. {@code MEMORY USAGE} refused by the server bounds nothing.
     *
     * @return null when they may be read, else why not
     */
    String unbounded(RedisCommands<byte[], byte[]> c, byte[] key, String type, long length, int maxElements,
                     int listElements) {
        boolean list = type.equals("list");
        if (!list || listElements == 0) {
            if (length > maxElements) {
                return "holds " + length + " elements, over --max-elements " + maxElements + " (the size of its "
                        + (type.equals("hash") ? "field names" : "members") + " cannot be bounded cheaply)";
            }
        }
        long mem = memoryUsage(c, key, list ? listElements : 0);
        if (mem < 0) {
            return "MEMORY USAGE was refused, so the size of its " + (type.equals("hash") ? "field names" : "members")
                    + " cannot be bounded";
        }
        if (mem > COLLECTION_LIMITS * limit) {
            return "uses " + mem + " bytes (MEMORY USAGE" + (list && listElements > 0 ? " of its first "
                    + listElements + " list nodes" : "") + "), over " + COLLECTION_LIMITS + " x --limit " + limit;
        }
        return null;
    }

    /** @return the key's type ({@code none} when it is gone) */
    String type(RedisCommands<byte[], byte[]> c, byte[] key) {
        limiter.acquire();
        String type = c.type(key);
        java.util.function.Consumer<byte[]> hook = afterType;
        if (hook != null) {
            hook.accept(key);
        }
        return type;
    }

    /** What is read of a key that is gone, or that another client replaced with one of another type as it was read. */
    private static final KeyRead GONE = new KeyRead("none", List.of(), 0, -1, null);

    /** @return whether {@code e} is the server's refusal of a command for the key's type: it changed as it was read */
    private static boolean typeChanged(RuntimeException e) {
        return e instanceof io.lettuce.core.RedisCommandExecutionException && e.getMessage() != null
                && e.getMessage().startsWith("WRONGTYPE");
    }

    /**
     * Reads a sample of {@code key}: a string's value, or up to {@code perKey} random elements of a collection (hash
     * fields with their values; the first list elements) when {@link #unbounded} allows it, and its memory usage.
     */
    KeyRead sample(RedisCommands<byte[], byte[]> c, byte[] key, int perKey, int maxElements) {
        try {
            return sampleOf(c, key, perKey, maxElements);
        } catch (RuntimeException e) {
            if (typeChanged(e)) {
                return GONE;
            }
            throw e;
        }
    }

    private KeyRead sampleOf(RedisCommands<byte[], byte[]> c, byte[] key, int perKey, int maxElements) {
        String type = type(c, key);
        List<Element> out = new ArrayList<>();
        long length = switch (type) {
            case "string" -> 1;
            case "hash", "set", "zset", "list" -> length(c, key, type);
            default -> 0;
        };
        String unread = type.equals("string") || length == 0 ? null
                : unbounded(c, key, type, length, maxElements, perKey);
        if (type.equals("string")) {
            readString(c, key, out);
        } else if (unread == null && length > 0) {
            limiter.acquire();
            switch (type) {
                case "hash" -> readHash(c, key, length <= perKey ? c.hkeys(key) : c.hrandfield(key, perKey), out);
                case "set" -> c.srandmember(key, perKey).forEach(m -> out.add(member(Role.SET_MEMBER, m, 0, 0)));
                case "zset" -> c.zrandmemberWithScores(key, perKey)
                        .forEach(m -> out.add(member(Role.ZSET_MEMBER, m.getValue(), 0, m.getScore())));
                case "list" -> {
                    List<byte[]> l = c.lrange(key, 0, perKey - 1);
                    for (int i = 0; i < l.size(); i++) {
                        out.add(member(Role.LIST_ELEMENT, l.get(i), i, 0));
                    }
                }
                default -> throw new IllegalStateException(type);
            }
        }
        long mem = "none".equals(type) ? -1 : memoryUsage(c, key);
        return new KeyRead(type, out, length, mem, unread);
    }

    /**
     * Reads all of {@code key}, for a rewrite (run inside {@code WATCH}). A collection of more than
     * {@code maxElements} elements, or whose {@code MEMORY USAGE} is over {@link #COLLECTION_LIMITS} times the limit,
     * is refused unread ({@link #unbounded}).
     *
     * @return what was read; of type {@code none} when the key is gone or changed type as it was read
     * @throws TooLarge when the key is refused
     */
    KeyRead readAll(RedisCommands<byte[], byte[]> c, byte[] key, int maxElements) {
        try {
            return readAllOf(c, key, maxElements);
        } catch (RuntimeException e) {
            if (typeChanged(e)) {
                return GONE;
            }
            throw e;
        }
    }

    private KeyRead readAllOf(RedisCommands<byte[], byte[]> c, byte[] key, int maxElements) {
        String type = type(c, key);
        List<Element> out = new ArrayList<>();
        long length = 0;
        switch (type) {
            case "string" -> {
                length = 1;
                readString(c, key, out);
            }
            case "hash", "set", "zset", "list" -> {
                length = length(c, key, type);
                String unread = length == 0 ? null : unbounded(c, key, type, length, maxElements, 0);
                if (unread != null) {
                    throw new TooLarge(unread);
                }
                limiter.acquire();
                switch (type) {
                    case "hash" -> readHash(c, key, c.hkeys(key), out);
                    case "set" -> c.smembers(key).forEach(m -> out.add(member(Role.SET_MEMBER, m, 0, 0)));
                    case "zset" -> c.zrangeWithScores(key, 0, -1)
                            .forEach(m -> out.add(member(Role.ZSET_MEMBER, m.getValue(), 0, m.getScore())));
                    default -> {
                        List<byte[]> l = c.lrange(key, 0, -1);
                        for (int i = 0; i < l.size(); i++) {
                            out.add(member(Role.LIST_ELEMENT, l.get(i), i, 0));
                        }
                    }
                }
            }
            default -> { } // gone, or a type the tool does not read
        }
        return new KeyRead(type, out, length, -1, null);
    }

    /** @return {@code HLEN}, {@code SCARD}, {@code ZCARD} or {@code LLEN} of {@code key} */
    private long length(RedisCommands<byte[], byte[]> c, byte[] key, String type) {
        limiter.acquire();
        return switch (type) {
            case "hash" -> c.hlen(key);
            case "set" -> c.scard(key);
            case "zset" -> c.zcard(key);
            default -> c.llen(key);
        };
    }

    /** @return a member, list element or hash field name as read; one over the limit is not kept */
    private Element member(Role role, byte[] m, long index, double score) {
        return new Element(role, m.length > limit ? null : m, m.length, null, index, score);
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
            out.add(member(Role.HASH_FIELD, f, 0, 0));
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
