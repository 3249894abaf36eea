package dev.zstdjava.values.spring;

import org.springframework.data.redis.serializer.RedisSerializer;

import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.Map;

/**
 * The key each value of an adaptive {@link CompressingRedisTemplate} is written under. A serializer sees values only,
 * so the template's router binds, on the calling thread and for the length of one compressing operation, what the
 * operation's first argument names: the key ({@code set}, {@code setIfAbsent}, ...), the hash's key (every value of
 * {@code put}, {@code putAll}, ...), or the map of a {@code multiSet}/{@code multiSetIfAbsent}, whose entries Spring
 * serializes in the map's order, one value after its key ({@link #keyOf} checks that the value is the entry's). The
 * adaptive serializer ({@link CompressingRedisSerializer}) asks for the key of each value it compresses; a value
 * serialized with nothing bound fails with {@link IllegalStateException} rather than being written under a wrong key.
 *
 * <p>The key the compressor folds is the key as the application names it: a {@link String} key its UTF-8 bytes, a
 * {@code byte[]} key itself, whatever the template's key serializer (Boot's {@code redisTemplate} serializes keys with
 * JDK serialization, whose stored bytes start with a header no pattern names); a key of another type is folded as its
 * key serializer writes it.
 *
 * <p><b>Thread safety:</b> thread-safe; each thread sees only what it bound. <b>Allocation:</b> binding a key
 * allocates nothing after a thread's first binding; binding a map allocates its entry iterator; {@link #keyOf}
 * allocates a {@code String} key's UTF-8 bytes, or what the key serializer returns.
 */
final class TemplateKeys {
    private final RedisSerializer<Object> keySerializer;
    private final ThreadLocal<Object> bound = new ThreadLocal<>();

    @SuppressWarnings("unchecked")
    TemplateKeys(RedisSerializer<?> keySerializer) {
        this.keySerializer = (RedisSerializer<Object>) keySerializer;
    }

    /**
     * Binds {@code firstArgument} (a key, or with {@code entries} the {@code multiSet} map) on this thread.
     *
     * @return what was bound before, for {@link #restore}
     */
    Object bind(Object firstArgument, boolean entries) {
        Object previous = bound.get();
        bound.set(entries ? new Entries(((Map<?, ?>) firstArgument).entrySet().iterator()) : firstArgument);
        return previous;
    }

    /** Restores what {@link #bind} returned. */
    void restore(Object previous) {
        if (previous == null) {
            bound.remove();
        } else {
            bound.set(previous);
        }
    }

    /**
     * @return the key {@code value} is written under, as the compressor folds it (see the class comment)
     * @throws IllegalStateException when nothing is bound on this thread (a value serialized outside the template's
     *                               operations), or a {@code multiSet} serializes values out of its map's order
     */
    byte[] keyOf(Object value) {
        Object b = bound.get();
        if (b == null) {
            throw new IllegalStateException("an adaptive template's value serialized outside its operations: the key"
                    + " is not known; write through opsForValue()/opsForHash(), or use"
                    + " CompressingRedisSerializer.forPattern for a serializer of its own");
        }
        Object key = b;
        if (b instanceof Entries e) {
            Map.Entry<?, ?> next = e.entries.hasNext() ? e.entries.next() : null;
            if (next == null || next.getValue() != value) {
                throw new IllegalStateException("multiSet serialized a value out of its map's order: the key is not"
                        + " known");
            }
            key = next.getKey();
        }
        if (key instanceof String k) {
            return k.getBytes(StandardCharsets.UTF_8);
        }
        if (key instanceof byte[] raw) {
            return raw;
        }
        if (keySerializer == null) {
            throw new IllegalStateException("the template has no key serializer for " + key.getClass().getName());
        }
        return keySerializer.serialize(key);
    }

    /** The entries of a {@code multiSet} map not yet serialized. */
    private record Entries(Iterator<? extends Map.Entry<?, ?>> entries) {}
}
