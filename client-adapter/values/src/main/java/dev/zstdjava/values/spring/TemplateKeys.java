package dev.zstdjava.values.spring;

import org.springframework.data.redis.serializer.RedisSerializer;

import java.nio.charset.StandardCharsets;
import java.util.AbstractMap;
import java.util.AbstractSet;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Set;

/**
 * The key each value of an adaptive {@link CompressingRedisTemplate} is written under. A serializer sees values only,
 * so the template's router binds, on the calling thread and for the length of one compressing operation, what the
 * operation's first argument names: the key ({@code set}, {@code setIfAbsent}, ...) or the hash's key (every value of
 * {@code put}, {@code putAll}, ...), or for a {@code multiSet}/{@code multiSetIfAbsent} the {@link Entries} of its map:
 * the map read once, each entry's key and value taken once (as
 * Spring takes them), which the router hands Spring in the map's place. Spring serializes those entries in order, one
 * value after its key, so each value is the very object the entries hold ({@link #keyOf} checks it by identity), also
 * when the map computes a new value on every {@code getValue()} or holds equal keys as distinct objects. The adaptive
 * serializer ({@link CompressingRedisSerializer}) asks for the key of each value, a null one included, so that the
 * entries stay in step; a value serialized with nothing bound fails with {@link IllegalStateException} rather than
 * being written under a wrong key.
 *
 * <p>The key the compressor folds is the key as the application names it: a {@link String} key its UTF-8 bytes, a
 * {@code byte[]} key itself, whatever the template's key serializer (Boot's {@code redisTemplate} serializes keys with
 * JDK serialization, whose stored bytes start with a header no pattern names); a key of another type is folded as its
 * key serializer writes it.
 *
 * <p><b>Thread safety:</b> thread-safe; each thread sees only what it bound (an {@link Entries} belongs to the one
 * operation that bound it). <b>Allocation:</b> binding a key allocates nothing after a thread's first binding;
 * a map's {@link Entries} are two lists of its size, and Spring's iteration of them an entry per pair; {@link #keyOf}
 * allocates a
 * {@code String} key's UTF-8 bytes, or what the key serializer returns.
 */
final class TemplateKeys {
    private final RedisSerializer<Object> keySerializer;
    private final ThreadLocal<Object> bound = new ThreadLocal<>();

    @SuppressWarnings("unchecked")
    TemplateKeys(RedisSerializer<?> keySerializer) {
        this.keySerializer = (RedisSerializer<Object>) keySerializer;
    }

    /**
     * Binds {@code key} on this thread: the operation's key, the hash's key, or the {@link Entries} of a
     * {@code multiSet} map, which the operation is then given in the map's place.
     *
     * @return what was bound before, for {@link #restore}
     */
    Object bind(Object key) {
        Object previous = bound.get();
        bound.set(key);
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
        Object key = b instanceof Entries e ? e.keyOf(value) : b;
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

    /**
     * A {@code multiSet} map read once, in its iteration order: each entry's key and value as the map gave them (one
     * {@code getKey()} and one {@code getValue()} each, equal keys given as distinct objects kept apart), and how many
     * of the values have been serialized. It is the map the operation is given: a read-only map whose entries are
     * these pairs in this order (Spring reads its size and iterates its entries once).
     */
    static final class Entries extends AbstractMap<Object, Object> {
        private final List<Object> keys;
        private final List<Object> values;
        private int serialized;

        Entries(Map<?, ?> map) {
            keys = new ArrayList<>(map.size());
            values = new ArrayList<>(map.size());
            for (Map.Entry<?, ?> e : map.entrySet()) {
                keys.add(e.getKey());
                values.add(e.getValue());
            }
        }

        // the key of the next value serialized, which must be the next entry's value itself
        private Object keyOf(Object value) {
            int i = serialized;
            if (i >= values.size() || values.get(i) != value) {
                throw new IllegalStateException("multiSet serialized a value out of its map's order: the key is not"
                        + " known");
            }
            serialized = i + 1;
            return keys.get(i);
        }

        @Override
        public int size() {
            return keys.size();
        }

        @Override
        public Set<Map.Entry<Object, Object>> entrySet() {
            return new AbstractSet<>() {
                @Override
                public Iterator<Map.Entry<Object, Object>> iterator() {
                    return new Iterator<>() {
                        private int next;

                        @Override
                        public boolean hasNext() {
                            return next < keys.size();
                        }

                        @Override
                        public Map.Entry<Object, Object> next() {
                            if (next >= keys.size()) {
                                throw new NoSuchElementException();
                            }
                            int i = next++;
                            return new SimpleImmutableEntry<>(keys.get(i), values.get(i));
                        }
                    };
                }

                @Override
                public int size() {
                    return keys.size();
                }
            };
        }
    }
}
