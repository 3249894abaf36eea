package dev.zstdjava.values;

import java.util.Arrays;
import java.util.function.BiFunction;

/**
 * Which of several dictionary sources (the lineages of {@link PatternDictionaries}, the managers of
 * {@link PatternManagers}) holds each dictionary id, for a reader that finds a frame's dictionary by its id alone.
 * Ids are zstd's (about 31 bits, from a hash of the content), so two sources can hold one id with different bytes: such
 * an id is <em>ambiguous</em>, and a value written with it is read with neither (which one wrote it cannot be told,
 * and the frames carry no checksum, so the wrong one would give wrong bytes with no error). The same bytes under one
 * id in two sources are the same dictionary, and read with the first.
 *
 * <p><b>Thread safety:</b> thread-safe: changes copy the index under this object's lock; {@link #owner} reads the
 * volatile index without a lock. <b>Allocation:</b> {@link #owner} and {@link #ambiguous} none (a binary search);
 * {@link #loaded}, {@link #disputed} and {@link #forget} copy the index when they change it. Ids are kept until their
 * source is {@linkplain #forget forgotten} (ambiguous ones for the life of this object: they come of a collision of
 * two 31-bit hashes, rare).
 *
 * @param <T> the sources
 */
final class DictionaryOwners<T> {
    /** An ambiguous id's entry: the sources that hold it, in the words of {@link #conflict}. */
    private record Ambiguous(String holders) {
    }

    private final BiFunction<T, Long, String> describe;
    private volatile Index index = new Index(new long[0], new Object[0], new long[0]);

    /**
     * @param describe names a source, and where it keeps a dictionary id, in messages (for example "pattern p's
     *                 lineage (key ...)", the key bounded in length by {@link Locations#of})
     */
    DictionaryOwners(BiFunction<T, Long, String> describe) {
        this.describe = describe;
    }

    /** @return the source that holds {@code id}, or null when none does or the id is ambiguous */
    @SuppressWarnings("unchecked")
    T owner(long id) {
        Object o = index.get(id);
        return o instanceof Ambiguous ? null : (T) o;
    }

    /** @return how many ids are recorded, ambiguous ones included */
    int size() {
        return index.ids.length;
    }

    /** @return the ids {@code source} holds (not the ambiguous ones); allocates the array */
    long[] idsOf(T source) {
        Index i = index;
        int n = 0;
        long[] out = new long[i.ids.length];
        for (int at = 0; at < i.ids.length; at++) {
            if (i.owners[at] == source) {
                out[n++] = i.ids[at];
            }
        }
        return Arrays.copyOf(out, n);
    }

    /** @return the content hash {@code id} was recorded with, or 0 when it is not recorded */
    long hash(long id) {
        Index i = index;
        int at = i.find(id);
        return at >= 0 ? i.hashes[at] : 0;
    }

    /**
     * Forgets every id {@code source} holds, for a source that is dropped: a later {@link #loaded} of one of them
     * records it anew. An ambiguous id is kept: it stays read with neither, whoever loads it later.
     */
    synchronized void forget(T source) {
        Index i = index;
        int n = 0;
        for (Object o : i.owners) {
            if (o != source) {
                n++;
            }
        }
        if (n == i.ids.length) {
            return;
        }
        long[] ids = new long[n];
        Object[] owners = new Object[n];
        long[] hashes = new long[n];
        for (int at = 0, k = 0; at < i.ids.length; at++) {
            if (i.owners[at] != source) {
                ids[k] = i.ids[at];
                owners[k] = i.owners[at];
                hashes[k++] = i.hashes[at];
            }
        }
        index = new Index(ids, owners, hashes);
    }

    /** @return whether two sources hold {@code id} with different bytes */
    boolean ambiguous(long id) {
        return index.get(id) instanceof Ambiguous;
    }

    /** @return the sources that hold ambiguous {@code id}, in words, or null when it is not ambiguous */
    String conflict(long id) {
        return index.get(id) instanceof Ambiguous a ? a.holders : null;
    }

    /**
     * Records that {@code source} loaded dictionary {@code id}. When another source holds the id with other bytes,
     * the id becomes ambiguous.
     *
     * @return the source that held the id when this made it ambiguous (once per id), else null
     */
    synchronized T loaded(long id, T source, long contentHash) {
        Index i = index;
        int at = i.find(id);
        if (at < 0) {
            index = i.with(at, id, source, contentHash);
            return null;
        }
        Object o = i.owners[at];
        if (o instanceof Ambiguous || o == source || i.hashes[at] == contentHash) {
            return null;
        }
        @SuppressWarnings("unchecked") T other = (T) o;
        String holders = describe.apply(other, id) + " and " + describe.apply(source, id);
        index = i.replace(at, new Ambiguous(holders), i.hashes[at]);
        return other;
    }

    /**
     * Records that {@code source}'s dictionary {@code id} is disputed by a holder this object does not know (for
     * example another process's lineage): the id becomes ambiguous.
     *
     * @return whether this made it ambiguous (once per id)
     */
    synchronized boolean disputed(long id, T source, long contentHash, String otherHolder) {
        Index i = index;
        int at = i.find(id);
        if (at >= 0 && i.owners[at] instanceof Ambiguous) {
            return false;
        }
        Ambiguous a = new Ambiguous(describe.apply(source, id) + " and " + otherHolder);
        index = at >= 0 ? i.replace(at, a, contentHash) : i.with(at, id, a, contentHash);
        return true;
    }

    /** @return why a value of an ambiguous id is not read, for its holders (as {@link #conflict} gives them) */
    static String ambiguity(String holders) {
        return "the id is held by " + holders + " with different bytes (zstd's ids are hashes, and these two"
                + " collide): which one wrote a value cannot be told, so neither reads it";
    }

    /** A 64-bit hash of a dictionary's bytes (FNV-1a), to tell two dictionaries of one id apart. */
    static long contentHash(byte[] dictionary) {
        long h = 0xcbf29ce484222325L;
        for (byte b : dictionary) {
            h = (h ^ (b & 0xFF)) * 0x100000001b3L;
        }
        return h;
    }

    /** Ids, their holders and content hashes, sorted by id; immutable. */
    private record Index(long[] ids, Object[] owners, long[] hashes) {
        int find(long id) {
            return Arrays.binarySearch(ids, id);
        }

        Object get(long id) {
            int i = find(id);
            return i >= 0 ? owners[i] : null;
        }

        Index replace(int at, Object owner, long hash) {
            Object[] o = owners.clone();
            long[] h = hashes.clone();
            o[at] = owner;
            h[at] = hash;
            return new Index(ids, o, h);
        }

        /** @param insertion a negative {@link #find} result */
        Index with(int insertion, long id, Object owner, long hash) {
            int at = -insertion - 1;
            int n = ids.length;
            long[] i = new long[n + 1];
            Object[] o = new Object[n + 1];
            long[] h = new long[n + 1];
            System.arraycopy(ids, 0, i, 0, at);
            System.arraycopy(owners, 0, o, 0, at);
            System.arraycopy(hashes, 0, h, 0, at);
            i[at] = id;
            o[at] = owner;
            h[at] = hash;
            System.arraycopy(ids, at, i, at + 1, n - at);
            System.arraycopy(owners, at, o, at + 1, n - at);
            System.arraycopy(hashes, at, h, at + 1, n - at);
            return new Index(i, o, h);
        }
    }
}
