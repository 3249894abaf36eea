package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;

/**
 * One stored form of values, one class per form: a backend of the shared format (a header naming its id, then its
 * payload; these extend {@link HeaderBackend}) or another client's format that is only read (these extend
 * {@link LegacyReader}). The public selectors list the forms, one line each: {@link CompressionBackend} the shared
 * format's backends, {@link LegacyFormat} the read-only ones; {@link StoredForm} is the public catalogue made from
 * them (docs/architecture.md, "Where to add things").
 *
 * <p>Two kinds of instance. The selector's own instance is <em>unbound</em>: it answers {@link #recognises} and makes
 * the bound ones with {@link #bind}; it holds nothing native and codes nothing. A <em>bound</em> instance belongs to
 * one {@link Coder}, so to one thread at a time (not thread-safe): it creates its native contexts on first use and
 * frees them in {@link #close}. A coder makes its bound instances once, at construction, and keeps them in final
 * fields, so each call site sees only the backends in use (one, usually).
 */
interface ValueBackend {
    /** {@link #encode}'s result when the stored form does not fit in the room given: store the value as it is. */
    long NO_ROOM = -1;

    /** @return the form's label in the catalogue ({@link StoredForm#label()}), unique among the forms */
    String label();

    /** @return the zstd dictionary id a value of this form names, 0 for none (forms that take no dictionaries) */
    default long dictionaryId(MemorySegment stored) {
        return 0;
    }

    /**
     * Whether {@code stored} is in this form: it carries this backend's header, or this format's signature.
     * Stateless, allocates nothing; any instance answers.
     */
    boolean recognises(MemorySegment stored);

    /**
     * A new instance of this form that codes with {@code coder}'s configuration, dictionaries and scratch memory.
     * Called on the selector's unbound instance, once per coder; creates nothing native.
     */
    ValueBackend bind(Coder coder);

    /**
     * Writes the stored form of all of {@code value} (header included) to the start of {@code dst}, in at most
     * {@code max} bytes, compressing with {@code dictionary} when it is not null (bound instances only).
     * @return the stored size, or {@link #NO_ROOM}; throws when the codec fails (the caller stores the value as is)
     */
    long encode(MemorySegment value, MemorySegment dst, long max, DictionaryManager.Entry dictionary);

    /**
     * Decodes a whole stored form (header included) that {@link #recognises} took, within the configured limit
     * (bound instances only). Allocates the returned value, and at most a reusable scratch buffer.
     * @return the original value, or null when {@code stored} is not a value of this form after all (said only by
     *         a form without a signature; not counted as a failure); throws DecompressionLimitException over the limit
     */
    byte[] decode(MemorySegment stored);

    /**
     * Tells a stored value that does not decode (returned as stored and counted) from a failure of the environment or
     * the setup (propagated): memory, parameters, a missing dictionary.
     * @return whether {@code e}, thrown by {@link #decode}, says that the stored bytes are malformed
     */
    boolean malformed(RuntimeException e);

    /** Frees the native contexts of a bound instance; idempotent. */
    void close();
}
