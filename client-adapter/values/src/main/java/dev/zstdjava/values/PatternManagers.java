package dev.zstdjava.values;

import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the adaptive compressor's reader finds the dictionaries of {@link AdaptiveCompressor.Builder#dictionaries(
 * java.util.function.Function) the managers the application gives per pattern}: every distinct manager the
 * application's function has returned so far. A frame names its dictionary by id, not its pattern: the manager that
 * loaded the id decodes it (the first, when two loaded the same bytes). An id two managers loaded with different bytes
 * (zstd's ids are hashes of the content) is read with neither, and no pattern writes with it: a value written with it
 * fails with {@link MissingDictionaryException} naming both, rather than come back decoded with the wrong one.
 *
 * <p><b>Thread safety:</b> thread-safe: {@link #add} copies the array under this object's lock, and the managers
 * report the ids they load to a {@link DictionaryOwners}; readers read without a lock. <b>Allocation:</b> {@link #find}
 * none (a binary search); {@link #add} a new array per new manager, and each id a manager loads a copy of the index.
 * The managers are kept for the life of the compressor (the application owns and closes them).
 */
final class PatternManagers implements DictionaryLookup {
    private static final System.Logger LOG = System.getLogger(AdaptiveCompressor.class.getName());

    private volatile DictionaryManager[] managers = new DictionaryManager[0];
    /** the pattern each manager was first given for, to name it */
    private final Map<DictionaryManager, String> patterns = new ConcurrentHashMap<>();
    private final DictionaryOwners<DictionaryManager> byId = new DictionaryOwners<>(
            (m, id) -> "the dictionary manager given for pattern " + patterns.get(m)
                    + (m.store() == null ? "" : " (" + Locations.of(m.store(), id) + ")"));
    private volatile boolean anyAmbiguous;

    /** Adds {@code m}, given for {@code pattern}, unless it is already here (one manager may serve several). */
    synchronized void add(DictionaryManager m, String pattern) {
        DictionaryManager[] now = managers;
        for (DictionaryManager k : now) {
            if (k == m) {
                return;
            }
        }
        DictionaryManager[] next = Arrays.copyOf(now, now.length + 1);
        next[now.length] = m;
        managers = next;
        patterns.put(m, pattern);
        m.admit(e -> admitted(e, m)); // its loaded dictionaries now, each later one before it can be written with
    }

    /**
     * {@code m}'s admission hook ({@link DictionaryManager#admit}): on the thread that loads dictionary {@code e}
     * into {@code m}, under its lock, before {@code m} can write with it, so the reader finds every dictionary a
     * value was written with, and an ambiguous id is known before a write can use it.
     */
    private void admitted(DictionaryManager.Entry e, DictionaryManager m) {
        if (byId.loaded(e.id, m, DictionaryOwners.contentHash(e.dictionary.toByteArray())) != null) {
            anyAmbiguous = true;
            LOG.log(System.Logger.Level.WARNING, "adaptive compression: zstd dictionary " + e.id + ": "
                    + DictionaryOwners.ambiguity(byId.conflict(e.id)) + "; no pattern writes with it");
        }
    }

    /** @return whether {@code m}'s current dictionary may be written with: its id is no other manager's too */
    boolean writable(DictionaryManager m) {
        return !anyAmbiguous || !byId.ambiguous(m.currentId());
    }

    /**
     * @throws IllegalStateException naming the manager, when the one that loaded {@code id} was closed (the
     *                               application closed a manager its compressor still uses)
     */
    @Override
    public DictionaryManager.Entry find(long id) {
        DictionaryManager m = byId.owner(id);
        if (m != null && m.isClosed()) {
            throw m.closedUse(null);
        }
        return m == null ? null : m.find(id);
    }

    /** The manager that loaded {@code id} closed after {@link #find} gave its dictionary: named, as there. */
    @Override
    public RuntimeException released(long id, IllegalStateException closed) {
        DictionaryManager m = byId.owner(id);
        return m == null ? closed : m.closedUse(closed);
    }

    /**
     * Asks every manager with a store to fetch {@code id} (each on its own thread, one fetch per id at a time, and
     * again after one that found nothing at most once a second), as a manager does for its own compressor's reads: a
     * dictionary another process published in a pattern's store is loaded by that pattern's manager (and kept for the
     * retry), and a retried read finds it. The message names where it is fetched from (the
     * stores' keys, {@link DictionaryStore#entryLocation}: the first {@value Locations#MAX_LOCATIONS}, each bounded in
     * length) and what to do when retrying does not help. A closed manager fetches nothing: when every manager is
     * closed the message says so, and that retrying does not help.
     */
    @Override
    public MissingDictionaryException missing(long id) {
        String conflict = byId.conflict(id);
        if (conflict != null) {
            return new MissingDictionaryException(id, DictionaryOwners.ambiguity(conflict));
        }
        DictionaryManager[] now = managers;
        java.util.List<String> fetching = new java.util.ArrayList<>();
        int closed = 0;
        for (DictionaryManager m : now) {
            DictionaryStore store = m.store();
            if (m.isClosed()) { // fetches nothing: a retry would not help by it
                closed++;
            } else if (store != null) {
                m.missing(id);
                fetching.add(Locations.of(store, id));
            }
        }
        String none = "none of the " + now.length + " dictionary managers given for the patterns this compressor has"
                + " sampled has loaded it";
        if (closed > 0 && closed == now.length) {
            return new MissingDictionaryException(id, none + ", and " + (closed == 1 ? "it is" : "all of them are")
                    + " closed (the application closed them while this compressor still reads through them), so none"
                    + " fetches it: retrying the read does not help; read it with a compressor whose dictionary"
                    + " managers are open");
        }
        if (fetching.isEmpty()) {
            return new MissingDictionaryException(id, none + (now.length == 0 ? " (a pattern's manager is asked for"
                    + " once it has had minSamples sampled writes)" : closed == 0 ? ", and none has a store to fetch"
                    + " it from" : ", and " + closed + " of them are closed, the others have no store to fetch it"
                    + " from") + ":"
                    + " give it to the manager of the pattern whose values were written with it");
        }
        return new MissingDictionaryException(id, none + "; fetching it from " + Locations.list(fetching) + " on"
                + " the managers' threads" + (closed == 0 ? "" : " (not by the " + closed + " closed ones)")
                + "; retry the read (if it keeps failing, it is published in none of these:"
                + " publish it in the store of the pattern whose values were written with it, or give it to that"
                + " pattern's manager)");
    }
}
