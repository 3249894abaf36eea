package dev.zstdjava.values;

import java.util.Arrays;

/**
 * Where the adaptive compressor's reader finds the dictionaries of {@link AdaptiveCompressor.Builder#dictionaries(
 * java.util.function.Function) the managers the application gives per pattern}: every distinct manager the
 * application's function has returned so far, asked in the order they were given. A frame names its dictionary, not
 * its pattern, so the first manager that has loaded the frame's dictionary decodes it.
 *
 * <p><b>Thread safety:</b> thread-safe: {@link #add} copies the array under this object's lock, readers read the
 * volatile array without a lock. <b>Allocation:</b> {@link #find} none; {@link #add} a new array per new manager.
 * The managers are kept for the life of the compressor (the application owns and closes them).
 */
final class PatternManagers implements DictionaryLookup {
    private volatile DictionaryManager[] managers = new DictionaryManager[0];

    /** Adds {@code m} unless it is already here (the same manager may serve several patterns). */
    synchronized void add(DictionaryManager m) {
        DictionaryManager[] now = managers;
        for (DictionaryManager k : now) {
            if (k == m) {
                return;
            }
        }
        DictionaryManager[] next = Arrays.copyOf(now, now.length + 1);
        next[now.length] = m;
        managers = next;
    }

    @Override
    public DictionaryManager.Entry find(long id) {
        for (DictionaryManager m : managers) {
            DictionaryManager.Entry e = m.find(id);
            if (e != null) {
                return e;
            }
        }
        return null;
    }

    /**
     * Asks every manager with a store to fetch {@code id} (each at most once a second per id, on its own thread), as
     * a manager does for its own compressor's reads: a dictionary another process published in a pattern's store is
     * loaded by that pattern's manager, and a retried read finds it.
     */
    @Override
    public MissingDictionaryException missing(long id) {
        DictionaryManager[] now = managers;
        int fetching = 0;
        for (DictionaryManager m : now) {
            if (m.store() != null) {
                m.missing(id);
                fetching++;
            }
        }
        return new MissingDictionaryException(id, "none of the " + now.length + " dictionary managers given for the"
                + " patterns this compressor has sampled has loaded it" + (fetching == 0 ? " (a pattern's manager is"
                + " asked for at its first sampled write)" : "; asking the " + fetching + " with a store to fetch it;"
                + " retry the read"));
    }
}
