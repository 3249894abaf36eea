package dev.zstdjava.values;

import java.time.Duration;
import java.util.List;

/**
 * Where the zstd dictionaries of a {@link DictionaryManager} are published and found: the server itself
 * ({@code LettuceDictionaryStore} in {@code zstd-java-lettuce}), memory ({@link InMemoryDictionaryStore}, for tests
 * and single processes), or anything else an application keeps shared state in (a file, a configuration service).
 *
 * <p>Rules every implementation keeps:
 * <ul>
 *   <li>entries are written once: {@link #putIfAbsent} never replaces a dictionary with other bytes under the same
 *       id;</li>
 *   <li>"newest" is the order of publication as the store counts it ({@link DictionaryInfo#sequence()}), the same for
 *       every client, never a local clock;</li>
 *   <li>what it returns is input, not trusted: the manager checks sizes and validates every dictionary it reads.</li>
 * </ul>
 *
 * <p><b>Thread safety:</b> implementations must be thread-safe. The manager calls them only from its own background
 * threads and while it is being built, never from a thread that compresses or decompresses a value.
 */
public interface DictionaryStore {
    /**
     * @return every published dictionary, oldest first (by {@link DictionaryInfo#sequence()})
     * @throws RuntimeException if the store cannot be read (the manager retries later)
     */
    List<DictionaryInfo> list();

    /**
     * @param id a dictionary id
     * @return the dictionary's bytes, or null if no dictionary with this id is published
     * @throws DictionaryEntryRefusedException if the entry is there but will not be returned, for good (for example
     *         larger than the store accepts): the manager rejects it once and never reads it again
     * @throws RuntimeException if the store cannot be read right now (the manager retries later)
     */
    byte[] get(long id);

    /**
     * Publishes a dictionary under its id, unless one is there already.
     *
     * @return the entry as published: the new one with its sequence, or the existing one when it holds the same bytes
     * @throws DictionaryCollisionException if another dictionary is published under this id (never overwritten)
     * @throws RuntimeException             if the store cannot be written
     */
    DictionaryInfo putIfAbsent(long id, byte[] dictionary);

    /**
     * @return a number that changes whenever a dictionary is published (the publication counter): cheap enough to
     *         call every few seconds, so that clients learn about new dictionaries without listing them each time
     */
    long version();

    /**
     * Where this store keeps dictionary {@code id}, in words, for messages such as {@link MissingDictionaryException}'s:
     * a server store names the key ({@link ServerDictionaryLayout#entryLocation}). Makes no call to the store.
     *
     * @return by default, the store ({@code toString()}) and the id
     */
    default String entryLocation(long id) {
        return "the entry of dictionary " + id + " in " + this;
    }

    /**
     * Asks the store to call {@code onPublished} soon after any client publishes a dictionary (for example on a
     * pub/sub message), so that new dictionaries arrive before the next periodic {@link #version()} check. The
     * callback must return quickly (it may run on a client's I/O thread): the manager only schedules a check from it.
     *
     * @return a handle that ends the notifications, or null when this store has none (the default: the manager's
     *         periodic check alone finds new dictionaries)
     * @throws RuntimeException if subscribing fails (the manager logs it and relies on the periodic check)
     */
    default AutoCloseable subscribe(Runnable onPublished) {
        return null;
    }

    /**
     * Tries to take the training lease for {@code ttl}: granted only when no lease is held (by anyone, {@code owner}
     * included) or the last one expired or was released, so one client trains at a time and trainings are at least
     * {@code ttl} apart. The default grants it always, for stores used by one process only.
     *
     * @return whether {@code owner} took the lease
     */
    default boolean tryLease(String owner, Duration ttl) {
        return true;
    }

    /** Gives the lease back if {@code owner} holds it; nothing otherwise. */
    default void releaseLease(String owner) {
    }
}
