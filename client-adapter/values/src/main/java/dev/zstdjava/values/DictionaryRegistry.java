package dev.zstdjava.values;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.LongConsumer;

/**
 * The dictionaries a {@link DictionaryManager} has loaded, the one that compresses, and the published entries it
 * refused. Owns the loaded dictionaries' native digests: frees the compression digest of a dictionary that stops
 * compressing, and every digest when closed.
 *
 * <p><b>Thread safety:</b> readers ({@link #current}, {@link #find}, {@link #entries}) read one immutable
 * {@link Snapshot} from a volatile field, take no lock and allocate nothing. Every change of the loaded set runs under
 * this object's monitor ({@link #add}, {@link #onLoaded}), and so does the {@linkplain #admit admission hook}, which
 * sees each new id before the snapshot that holds it is published. The monitor is never held during a store call:
 * the store loading that calls {@link #add} is serialised by {@code StoreSync}'s own lock, taken before this one. {@link #close} takes no lock (it must not wait for a slow store read): it and {@link #add} each check
 * the other's volatile write, so a dictionary added while the manager closes is closed by one of them. An evicted
 * dictionary's counters are kept, under the monitor, for when it is added again (at most
 * {@link #MAX_EVICTED_COUNTERS} ids).
 */
final class DictionaryRegistry {
    private static final System.Logger LOG = System.getLogger(DictionaryManager.class.getName());

    /** The loaded dictionaries and the one compressing new values (null: none). Immutable. */
    record Snapshot(DictionaryManager.Entry[] entries, DictionaryManager.Entry current) {
        static final Snapshot EMPTY = new Snapshot(new DictionaryManager.Entry[0], null);
    }

    private final DictionaryManager.Mode mode;
    private final int level;
    private volatile Snapshot snapshot = Snapshot.EMPTY;
    private volatile boolean closed;
    /** Written under the lock; iterated by the loading thread (under the lock too). */
    private final List<LongConsumer> listeners = new ArrayList<>();
    private final Map<Long, String> rejected = new ConcurrentHashMap<>();
    /** Called with each new id's entry before it is findable ({@link #admit}). Written and used under the lock. */
    private final List<Consumer<DictionaryManager.Entry>> admits = new ArrayList<>();
    /**
     * The counters of the dictionaries evicted ({@link #evict}) and not loaded again, by id, least recently evicted
     * first: a dictionary loaded again counts on from them ({@link #add}), so its counters never go back for as long
     * as they are kept. At most {@link #MAX_EVICTED_COUNTERS}; beyond, the least recently evicted are dropped (such a
     * dictionary, loaded again, counts from zero). Under the lock.
     */
    private final java.util.LinkedHashMap<Long, LoadedDictionary.Counters> evictedCounters =
            new java.util.LinkedHashMap<>();

    /**
     * How many evicted dictionaries' counters are kept for when they are loaded again, at most:
     * {@value #MAX_EVICTED_COUNTERS}. A store lists every dictionary ever published in it, so the ids a manager can
     * evict are not bounded otherwise. Each kept set is four {@link java.util.concurrent.atomic.LongAdder}s as they were at the
     * eviction: a dictionary counted on by many threads at once grows its adders up to about one cell per CPU, and an
     * adder never shrinks, so the worst case is about {@value #MAX_EVICTED_COUNTERS} × 4 × CPUs × 128 to 256 bytes
     * (some 8 to 16 MiB with 16 CPUs); a dictionary counted on by one thread at a time keeps a few dozen bytes. They
     * are kept as they are, not summed into plain numbers, because a call that found the dictionary before its
     * eviction may still count on them after it.
     */
    static final int MAX_EVICTED_COUNTERS = 1024;

    DictionaryRegistry(DictionaryManager.Mode mode, int level) {
        this.mode = mode;
        this.level = level;
    }

    /** @return the zstd level dictionaries are digested for */
    int level() {
        return level;
    }

    /** @return whether the newest published dictionary compresses (managed and shared mode; given mode: the given) */
    boolean compressesPublished() {
        return mode != DictionaryManager.Mode.GIVEN;
    }

    Snapshot snapshot() {
        return snapshot;
    }

    /** @return the dictionary compressing new values, or null */
    DictionaryManager.Entry current() {
        return snapshot.current;
    }

    /** @return the loaded dictionary with this id, or null; allocates nothing */
    DictionaryManager.Entry find(long id) {
        for (DictionaryManager.Entry e : snapshot.entries) {
            if (e.id == id) {
                return e;
            }
        }
        return null;
    }

    /** @return the loaded dictionaries as the store lists them, in load order (given mode without a store) */
    List<DictionaryInfo> infos() {
        List<DictionaryInfo> out = new ArrayList<>();
        for (DictionaryManager.Entry e : snapshot.entries) {
            out.add(new DictionaryInfo(e.id, e.sequence, e.size));
        }
        return out;
    }

    /** @return counters of every loaded dictionary, oldest first */
    List<DictionaryStats> stats() {
        Snapshot s = snapshot;
        List<DictionaryManager.Entry> list = new ArrayList<>(Arrays.asList(s.entries));
        list.sort((a, b) -> Long.compare(a.sequence, b.sequence));
        List<DictionaryStats> out = new ArrayList<>(list.size());
        for (DictionaryManager.Entry e : list) {
            long original = e.originalBytes.sum();
            out.add(new DictionaryStats(e.id, e.sequence, e.size, e == s.current, e.valuesWritten.sum(), original,
                    original - e.storedBytes.sum(), e.valuesRead.sum()));
        }
        return out;
    }

    /** @return why the published entry {@code id} was refused, or null */
    String rejection(long id) {
        return rejected.get(id);
    }

    /** @return the refused entries and why (a copy) */
    Map<Long, String> rejections() {
        return Map.copyOf(rejected);
    }

    /** Refuses the published entry {@code id} for good (logged once); values compressed with it cannot be read. */
    void reject(long id, String why) {
        if (rejected.putIfAbsent(id, why) == null) {
            LOG.log(System.Logger.Level.WARNING, "zstd dictionary " + id + " rejected: " + why
                    + "; values compressed with it cannot be read");
        }
    }

    /**
     * Adds an admission hook (see {@link DictionaryManager.Builder#admit}): called now, under this object's monitor,
     * with each entry already loaded, then with each entry of a new id, on the thread that adds it and under this
     * object's monitor, before the entry is findable ({@link #find}) or current, so before any value can be written
     * with it; never for an entry that replaces one of its id. It must be short, and must not call back into this
     * manager's loading. An exception it throws is logged, and the entry is added all the same.
     */
    synchronized void admit(Consumer<DictionaryManager.Entry> hook) {
        for (DictionaryManager.Entry e : snapshot.entries) {
            admitTo(hook, e);
        }
        admits.add(hook);
    }

    private static void admitTo(Consumer<DictionaryManager.Entry> hook, DictionaryManager.Entry e) {
        try {
            hook.accept(e);
        } catch (RuntimeException ex) {
            LOG.log(System.Logger.Level.WARNING, "a dictionary admission hook failed", ex);
        }
    }

    /**
     * Adds {@code e} (or puts it in place of the entry with its id) and picks the dictionary that compresses: the
     * newest given one in given mode, otherwise the one with the highest publication sequence. Digests the new
     * compressing dictionary here, not on a writing thread, and releases the compression digests of the others.
     * An entry of a new id is first handed to the {@linkplain #admit admission hook}, then published (findable, and
     * current if it compresses), then handed to the {@linkplain #onLoaded listeners}. An id evicted before counts on
     * with the counters kept at its eviction ({@link #evictedCounters}).
     */
    synchronized void add(DictionaryManager.Entry e) {
        if (closed) {
            e.digests.close();
            return;
        }
        Snapshot s = snapshot;
        LoadedDictionary.Counters kept = evictedCounters.remove(e.id);
        if (kept != null) { // not loaded now (an entry of its id is kept only while none is): loaded again
            e = new DictionaryManager.Entry(e, kept);
        }
        List<DictionaryManager.Entry> list = new ArrayList<>(s.entries.length + 1);
        DictionaryDigests replaced = null;
        for (DictionaryManager.Entry x : s.entries) {
            if (x.id != e.id) {
                list.add(x);
            } else if (x.digests != e.digests) {
                replaced = x.digests;
            }
        }
        list.add(e);
        DictionaryManager.Entry current = null;
        for (DictionaryManager.Entry x : list) {
            boolean eligible = mode == DictionaryManager.Mode.GIVEN ? x.given : x.sequence > 0;
            if (eligible && (current == null || x.sequence > current.sequence)) {
                current = x;
            }
        }
        if (current != null && current != s.current) {
            current.compressionDictionary(level); // digest once, here, not on a writing thread
        }
        if (list.size() > s.entries.length) { // a new ID: admitted before a writer can use it
            for (Consumer<DictionaryManager.Entry> hook : admits) {
                admitTo(hook, e);
            }
        }
        snapshot = new Snapshot(list.toArray(new DictionaryManager.Entry[0]), current);
        for (DictionaryManager.Entry x : list) {
            if (current == null || x.digests != current.digests) {
                x.digests.retireCompression(); // it does not compress (any more): free its compression tables
            }
        }
        if (replaced != null) {
            replaced.close();
        }
        if (closed) { // close() may have read the snapshot before this one: release what it could not see
            for (DictionaryManager.Entry x : list) {
                x.digests.close();
            }
            return;
        }
        if (list.size() > s.entries.length) { // a new ID, not a replacement
            for (LongConsumer l : listeners) {
                tell(l, e.id);
            }
        }
    }

    /**
     * Unloads {@code e} to keep within {@link DictionaryManager.Builder#maxLoadedBytes}, unless it compresses now or
     * was given (those stay loaded): it is no longer findable, and its digests are released, so its native tables are
     * freed once no call uses them (a call that found it just before finishes with them; the coders' decompressors of
     * it are freed by {@link CoderPool#freeReleasedEverywhere()}). A read of its values misses it and loads it again.
     *
     * @return whether it was unloaded
     */
    synchronized boolean evict(DictionaryManager.Entry e) {
        Snapshot s = snapshot;
        if (closed || e.given || (s.current != null && s.current.digests == e.digests)) {
            return false;
        }
        List<DictionaryManager.Entry> list = new ArrayList<>(s.entries.length);
        for (DictionaryManager.Entry x : s.entries) {
            if (x.digests != e.digests) {
                list.add(x);
            }
        }
        if (list.size() == s.entries.length) {
            return false; // not loaded (any more)
        }
        snapshot = new Snapshot(list.toArray(new DictionaryManager.Entry[0]), s.current);
        e.digests.close(); // after the snapshot that no longer holds it: a later find() does not give it
        evictedCounters.put(e.id, e.counters()); // for when it is loaded again
        while (evictedCounters.size() > MAX_EVICTED_COUNTERS) {
            evictedCounters.pollFirstEntry();
        }
        return true;
    }

    /**
     * Calls {@code listener} with every loaded id now, then with each one added later (under the lock). An exception
     * it throws is logged, for an id loaded now as for one added later, and neither stops the other ids or listeners
     * nor reaches the caller; the listener stays registered.
     */
    synchronized void onLoaded(LongConsumer listener) {
        for (DictionaryManager.Entry e : snapshot.entries) {
            tell(listener, e.id);
        }
        listeners.add(listener);
    }

    /** Hands {@code id} to {@code listener}; an exception it throws is logged. */
    private static void tell(LongConsumer listener, long id) {
        try {
            listener.accept(id);
        } catch (RuntimeException ex) {
            LOG.log(System.Logger.Level.WARNING, "a dictionary listener failed for dictionary " + id, ex);
        }
    }

    /** @return whether {@link #close} was called; one volatile read */
    boolean isClosed() {
        return closed;
    }

    /**
     * Releases every loaded dictionary's native digests (freed once no call uses them). Idempotent; takes no lock.
     * The entries stay listed, for their counters.
     */
    void close() {
        closed = true; // written before the snapshot is read: a concurrent add() sees it, or its entry is seen here
        for (DictionaryManager.Entry e : snapshot.entries) {
            e.digests.close();
        }
    }
}
