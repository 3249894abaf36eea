package dev.zstdjava.values;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongSupplier;

/**
 * Keeps a {@link DictionaryRegistry} in step with a {@link DictionaryStore}: loads every published dictionary at
 * start, then whenever the store's publication counter moves (checked periodically) or a publication is announced,
 * and fetches a dictionary a value names that is not loaded. The loaded dictionaries' estimated native memory is kept
 * within {@link DictionaryManager.Builder#maxLoadedBytes}: the listed ones are loaded newest first while they fit
 * (the newest, which compresses, evicting others if it must); one beyond is loaded when a read needs it, evicting the
 * least recently used loaded ones ({@link LoadedDictionary#lastUsed}) that neither compress nor were given nor are
 * kept for a read's retry ({@link #makeRoom}). A dictionary a read's miss loads is kept for that read's retry
 * ({@link LoadedDictionary#heldForRead}: until read, for {@link DictionaryManager#READ_RETRY_GRACE} at most), so that
 * reads using more dictionaries at once than the bound holds do not evict each other's before their retries; such
 * dictionaries may take the loaded ones above the bound, by the bound at most (the oldest of them is evicted for a
 * new one beyond that), and the periodic check evicts down to the bound once they are read. All store reads run on
 * the manager's io thread (the trainer's reload after an adoption excepted), never on a caller's thread.
 *
 * <p><b>Thread safety:</b> loading ({@link #refresh}, the fetch of an unlisted dictionary) is serialised by
 * {@link #loading}, this object's own lock, which also guards writes of {@link #knownVersion}; the store is called
 * under it, never under the {@link DictionaryRegistry}'s monitor, so a slow store call holds up no
 * {@link DictionaryRegistry#admit admission}, {@link DictionaryRegistry#onLoaded listener registration} or writing
 * thread (a thread writing through an adaptive compressor adds the application's manager's admission hook the first
 * time a pattern asks for it). Only {@link #loading} ever adds from the store, so an id is loaded once; each addition
 * takes the registry's monitor for the change alone ({@link DictionaryRegistry#add}). The de-duplication of
 * requests ({@link #fetches}, {@link #lastFetched}, {@link #refreshQueued}) and {@link #absent} are lock-free; the subscription
 * is held in an {@link AtomicReference} (ended once, by whichever of {@link #close} and the subscribing task comes
 * second) and {@link #closed} is volatile.
 */
final class StoreSync {
    private static final System.Logger LOG = System.getLogger(DictionaryManager.class.getName());
    private static final int MAX_PENDING_FETCHES = 64;
    private static final long FETCH_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long READ_GRACE_NANOS = DictionaryManager.READ_RETRY_GRACE.toNanos();
    /** The least time between two warnings that reads take the loaded dictionaries above the bound, 1 minute. */
    private static final long OVER_BOUND_WARNING_NANOS = TimeUnit.MINUTES.toNanos(1);

    private final DictionaryStore store;
    private final DictionaryRegistry registry;
    private final EntryValidator validator;
    private final ScheduledExecutorService io;
    /**
     * The ids a read's miss asked for that are waiting to be fetched, being fetched, or were fetched less than a second
     * ago ({@link #requestFetch}), each with whether a read missed it again meanwhile (fetched again once its second is
     * over); at most {@link #MAX_PENDING_FETCHES}.
     */
    private final Map<Long, Boolean> fetches = new ConcurrentHashMap<>();
    /** When ({@link System#nanoTime()}) the last fetch of each id in {@link #fetches} ended; removed with it. */
    private final Map<Long, Long> lastFetched = new ConcurrentHashMap<>();
    /**
     * The ids a read missed, or the store lists, whose entry the store did not have when last read, with what a read
     * says of it; removed once loaded
     */
    private final Map<Long, String> absent = new ConcurrentHashMap<>();
    /**
     * The ids published but not loaded (or evicted) because they would take the loaded dictionaries above
     * {@link #maxLoadedBytes}, with their place and length as listed ({@link Known}): a read of one loads it on demand
     * ({@link #requestFetch}), reading its entry directly; removed once loaded.
     */
    private final Map<Long, Known> overBound = new ConcurrentHashMap<>();

    /**
     * What the store's listing said of a dictionary beyond the bound, or what its entry was when it was evicted.
     *
     * @param sequence its publication sequence (0 when not known: fetched unlisted)
     * @param size     its length in bytes, which its entry must still have when read again
     */
    private record Known(long sequence, int size) {
    }
    private final long maxLoadedBytes;
    private final AtomicBoolean refreshQueued = new AtomicBoolean();
    /** Serialises loading from the store (held during store calls; never the registry's monitor). */
    private final Object loading = new Object();
    /** The store's publication counter when everything listed was last loaded; written under {@link #loading}. */
    private volatile long knownVersion = Long.MIN_VALUE;
    private volatile boolean closed;
    private final AtomicReference<AutoCloseable> subscriptionRef = new AtomicReference<>();
    /** The warning that the dictionaries never evicted leave a read's dictionary no room within the bound. */
    private final OverBoundWarning keptLeaveNoRoom = new OverBoundWarning(true);
    /** The warning that the dictionaries kept for other reads' retries take the room of a read's dictionary. */
    private final OverBoundWarning heldForReads = new OverBoundWarning(false);
    /**
     * The clock of the {@link OverBoundWarning}s' windows, in nanoseconds: {@link System#nanoTime()}, or a test's own
     * ({@link #overBoundClock}); used for nothing else.
     */
    private volatile LongSupplier overBoundClock = System::nanoTime;
    /**
     * How many dictionaries kept for a read's retry the last {@link #makeRoom} evicted, and their estimated bytes;
     * under {@link #loading}.
     */
    private int lastHeldEvicted;
    private long lastHeldEvictedBytes;

    StoreSync(DictionaryStore store, DictionaryRegistry registry, EntryValidator validator,
              ScheduledExecutorService io, long maxLoadedBytes) {
        this.store = store;
        this.maxLoadedBytes = maxLoadedBytes;
        this.registry = registry;
        this.validator = validator;
        this.io = io;
    }

    /**
     * Loads every published dictionary on the io thread, schedules the periodic check and subscribes to announcements
     * (when {@code notifications}), all within {@code loadTimeout} from the call: loading must end within it; the
     * subscription, made on the io thread too, gets what is left of it. A subscription not made by then is left to
     * finish on the io thread (kept if it succeeds, ended if the manager closed meanwhile), and until it does, new
     * dictionaries arrive with nothing (the io thread waits for it): a warning says so.
     *
     * @throws IllegalStateException if loading fails or takes longer (the caller closes the manager)
     */
    void start(Duration loadTimeout, Duration refreshInterval, boolean notifications) {
        long start = System.nanoTime();
        long timeout = loadTimeout.toNanos();
        Future<?> f = io.submit((Runnable) this::refresh);
        try {
            f.get(timeout, TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new IllegalStateException("loading the published dictionaries from " + store + " took longer than "
                    + loadTimeout + " (Builder.loadTimeout)", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not load the published dictionaries from " + store + ": "
                    + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading the published dictionaries", e);
        }
        long every = Math.max(1, refreshInterval.toMillis());
        io.scheduleWithFixedDelay(this::checkVersion, every, every, TimeUnit.MILLISECONDS);
        if (notifications) {
            subscribe(timeout - (System.nanoTime() - start), loadTimeout);
        }
    }

    /** Subscribes on the io thread, waiting at most {@code nanosLeft} for it; see {@link #start}. */
    private void subscribe(long nanosLeft, Duration loadTimeout) {
        Future<?> f = io.submit(() -> {
            AutoCloseable sub;
            try {
                sub = store.subscribe(this::refreshSoon);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "subscribing to dictionary publications in " + store + " failed"
                        + " (new dictionaries arrive with the periodic check instead): " + e);
                return;
            }
            if (sub != null) {
                subscriptionRef.set(sub);
                if (closed) { // close() may have read the field before it was set: end it here (once, either way)
                    endSubscription();
                }
            }
        });
        try {
            f.get(Math.max(0, nanosLeft), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            LOG.log(System.Logger.Level.WARNING, "subscribing to dictionary publications in " + store + " did not"
                    + " finish within the load timeout (" + loadTimeout + ", Builder.loadTimeout): the manager is built"
                    + " without waiting for it, and it goes on on the manager's thread; until it ends, new dictionaries"
                    + " are not loaded (turn notifications off with Builder.notifications(false) if the server refuses"
                    + " SUBSCRIBE)");
        } catch (ExecutionException e) {
            LOG.log(System.Logger.Level.WARNING, "subscribing to dictionary publications failed: " + e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while subscribing to dictionary publications", e);
        }
    }

    /**
     * Starts fetching the dictionary {@code id} a value names on the io thread: at once, or, when a fetch of {@code id}
     * ended less than a second ago, once that second is over (so concurrent reads of one id share one load, and
     * each id costs the store at most one fetch a second however often its reads miss; each fetch is bounded by the
     * store's own timeout). A miss that arrives while its id waits, or is being fetched, is not dropped: the fetch
     * runs again when its second is over if the dictionary is not loaded then. Once loaded, the dictionary is kept
     * for the read's retry ({@link LoadedDictionary#heldForRead}). One beyond {@link #maxLoadedBytes} evicts the least
     * recently used to fit ({@link #makeRoom}). At most {@value #MAX_PENDING_FETCHES} ids wait at once; a miss beyond
     * is dropped (its read's retry asks again).
     */
    void requestFetch(long id) {
        if (closed) {
            return;
        }
        boolean[] start = {false};
        fetches.compute(id, (k, missedAgain) -> {
            if (missedAgain != null) {
                return Boolean.TRUE; // waiting for its second, or being fetched: fetched again when it is over
            }
            if (fetches.size() >= MAX_PENDING_FETCHES) {
                return null;
            }
            start[0] = true;
            return Boolean.FALSE;
        });
        if (!start[0]) {
            return;
        }
        Long last = lastFetched.get(id);
        long wait = last == null ? 0 : FETCH_RETRY_NANOS - (System.nanoTime() - last);
        try {
            if (wait > 0) {
                io.schedule(() -> fetch(id), wait, TimeUnit.NANOSECONDS);
            } else {
                io.execute(() -> fetch(id));
            }
        } catch (RejectedExecutionException e) {
            fetches.remove(id);
        }
    }

    /**
     * Fetches {@code id} for a read on the io thread ({@link #requestFetch}), then, a second after it ended, ends
     * its wait: fetching it again then if a read missed it since and it is still not loaded. A new id first reads the
     * store's listing and publication counter ({@link #refresh}: its place in the order and length); one known beyond
     * the bound (listed so, or evicted) reads its entry alone, checked against the length it was listed with (on a
     * mismatch the listing is read again: {@link #fetchUnlisted}), the validator's checks and the admission hooks applying as on every load.
     */
    private void fetch(long id) {
        try {
            synchronized (loading) {
                if (!overBound.containsKey(id)) { // a new id: the listing says its place in the order and length
                    refresh(id);
                } // else listed (beyond the bound) or evicted: its place and length are known, its entry is read
                if (registry.find(id) == null && registry.rejection(id) == null) {
                    fetchUnlisted(id); // also one beyond the bound: a read needs it (evicting others to fit)
                }
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "fetching zstd dictionary " + id + " failed: " + e);
        } finally { // counted from its end, so its store reads and the next fetch's are a second apart at least
            long ended = System.nanoTime();
            lastFetched.put(id, ended);
            try {
                io.schedule(() -> secondOver(id, ended), FETCH_RETRY_NANOS, TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException e) {
                fetches.remove(id);
                lastFetched.remove(id, ended);
            }
        }
    }

    /** A second since {@code id}'s fetch ended: fetches it again if a read missed it since, else ends its wait. */
    private void secondOver(long id, long ended) {
        boolean[] again = {false};
        fetches.computeIfPresent(id, (k, missedAgain) -> {
            if (missedAgain && !closed && registry.find(id) == null && registry.rejection(id) == null) {
                again[0] = true;
                return Boolean.FALSE;
            }
            return null;
        });
        if (again[0]) {
            fetch(id);
        } else {
            lastFetched.remove(id, ended); // a second old: a later miss fetches at once
        }
    }

    /** A publication was announced: check the store on the io thread (once, however many announcements queue). */
    private void refreshSoon() {
        if (closed || !refreshQueued.compareAndSet(false, true)) {
            return;
        }
        try {
            io.execute(() -> {
                refreshQueued.set(false);
                try {
                    refresh();
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "loading a newly published dictionary failed: " + e);
                }
            });
        } catch (RejectedExecutionException e) {
            refreshQueued.set(false);
        }
    }

    private void checkVersion() {
        try {
            long version = store.version();
            if (version != knownVersion) {
                refresh();
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "checking the dictionary store for new dictionaries failed: " + e);
        }
        trim();
    }

    /**
     * Evicts the least recently used loaded dictionaries that are not kept (compressing, given, or for a read's retry)
     * while the loaded ones take more than {@link #maxLoadedBytes}: those loaded above it for reads, once read (or
     * their grace over). On the periodic check.
     */
    void trim() {
        synchronized (loading) {
            long now = System.nanoTime();
            int evicted = evictLeastRecentlyUsed(0, now);
            if (evicted > 0) {
                evicted(evicted);
            }
            long warningNow = overBoundClock.getAsLong();
            keptLeaveNoRoom.endWindow(warningNow);
            heldForReads.endWindow(warningNow);
        }
    }

    /**
     * Loads every listed dictionary not loaded yet that fits within {@link #maxLoadedBytes} once the newer ones are
     * loaded (which fit is decided newest first, by publication sequence; they are loaded in the store's order; the
     * newest of all, which compresses unless the manager's given dictionaries do, evicts the least recently used ones to
     * fit when it must: {@link #makeRoom}), under
     * {@link #loading} (not the registry's monitor: see the class comment). Runs on the io thread, or the trainer's.
     */
    void refresh() {
        refresh(0);
    }

    /** As {@link #refresh()}; the dictionary {@code forRead} (0: none), if it loads it, is kept for a read's retry. */
    private void refresh(long forRead) {
        synchronized (loading) {
            long version = store.version();
            List<DictionaryInfo> listed = store.list();
            List<Long> newlyOver = new ArrayList<>();
            Set<Long> beyond = beyondBound(listed, newlyOver);
            boolean complete = true;
            for (DictionaryInfo info : listed) { // in the store's order (oldest first), as before the bound
                if (!beyond.contains(info.id())) {
                    complete &= load(info, info.id() == forRead);
                }
            }
            if (complete) {
                knownVersion = version;
            }
            if (!newlyOver.isEmpty()) {
                LOG.log(System.Logger.Level.WARNING, newlyOver.size() + " zstd dictionaries published in " + store
                        + " are not loaded (" + (newlyOver.size() > 5 ? "the first five: " + newlyOver.subList(0, 5)
                        : newlyOver) + "), as loading them would take the loaded dictionaries' estimated native"
                        + " memory above the " + maxLoadedBytes + "-byte bound (DictionaryManager.Builder"
                        + ".maxLoadedBytes; the newest are loaded first): beyond the bound, dictionaries are loaded on"
                        + " demand and evicted least recently used, so a read of a value of one not loaded costs a"
                        + " reload (it fails once with MissingDictionaryException, and succeeds when retried)");
            }
        }
    }

    /** @return the estimate {@link #maxLoadedBytes} bounds, for the dictionaries loaded now */
    private long loadedBytes() {
        long n = 0;
        for (DictionaryManager.Entry e : registry.snapshot().entries()) {
            n += PatternDictionaries.estimatedNativeBytes(e.size, false);
        }
        return n;
    }

    /**
     * @param listed    the store's listing
     * @param newlyOver where an id goes that is beyond the bound for the first time
     * @return the ids of {@code listed}, not loaded, that do not fit within {@link #maxLoadedBytes} once the newer ones
     *         are loaded (newest first, by publication sequence); each recorded as not loaded for that reason
     */
    private Set<Long> beyondBound(List<DictionaryInfo> listed, List<Long> newlyOver) {
        List<DictionaryInfo> newestFirst = new ArrayList<>(listed);
        newestFirst.sort(Comparator.comparingLong(DictionaryInfo::sequence).reversed());
        long room = maxLoadedBytes - loadedBytes();
        Set<Long> beyond = new java.util.HashSet<>();
        boolean newest = registry.compressesPublished();
        for (DictionaryInfo info : newestFirst) {
            boolean first = newest;
            newest = false;
            if (registry.find(info.id()) != null || registry.rejection(info.id()) != null
                    || info.size() > validator.maxDictionarySize() || info.size() < 8) {
                continue; // loaded, or refused by load() without a read
            }
            long n = PatternDictionaries.estimatedNativeBytes(info.size(), false);
            if (n > room && first && makeRoom(n, false)) { // the newest compresses: older ones make room for it
                room = maxLoadedBytes - loadedBytes();
            }
            if (n <= room) {
                room -= n;
            } else {
                beyond.add(info.id());
                // put, not putIfAbsent: an id deleted and published again is known by its latest place and length
                if (overBound.put(info.id(), new Known(info.sequence(), info.size())) == null) {
                    newlyOver.add(info.id());
                }
            }
        }
        return beyond;
    }

    /**
     * Evicts the least recently used loaded dictionaries ({@link LoadedDictionary#lastUsed}) that neither compress
     * nor were given nor are {@linkplain LoadedDictionary#heldForRead kept for a read's retry}, until {@code needed}
     * more bytes fit within {@link #maxLoadedBytes}. If they are not enough, the dictionaries kept for reads decide:
     * for a publication ({@code forRead} false) they are evicted too, oldest first, until it fits; for a read, the
     * dictionary is loaded above the bound, and the oldest kept ones are evicted only while they and it would take
     * more than {@link #maxLoadedBytes} (so the loaded dictionaries exceed the bound by at most the bound, or by the
     * one a read needs if it alone is larger). An evicted one is recorded as beyond the bound (a read of its values
     * loads it again). Then frees the coders' decompressors of the evicted ones
     * ({@link CoderPool#freeReleasedEverywhere()}), so their native tables are freed once no call uses them. Under
     * {@link #loading}.
     *
     * @param forRead whether a read needs the dictionary: it is loaded even when the dictionaries never evicted (or
     *                kept for reads) leave too little room; otherwise none is evicted in vain
     * @return whether {@code needed} bytes fit within the bound now
     */
    private boolean makeRoom(long needed, boolean forRead) {
        if (!forRead && keptBytes() + needed > maxLoadedBytes) {
            return false;
        }
        long now = System.nanoTime();
        int evicted = 0;
        lastHeldEvicted = 0;
        lastHeldEvictedBytes = 0;
        try {
            evicted += evictLeastRecentlyUsed(needed, now);
            if (loadedBytes() + needed <= maxLoadedBytes) {
                return true;
            }
            // only the kept ones are left: a publication takes the room of those kept for reads; a read goes above
            // the bound, beside at most the bound's worth of them
            while (forRead ? heldBytes(now) + needed > maxLoadedBytes : loadedBytes() + needed > maxLoadedBytes) {
                DictionaryManager.Entry oldest = victim(now, true);
                if (oldest == null || !registry.evict(oldest)) {
                    break;
                }
                overBound.put(oldest.id, new Known(oldest.sequence, oldest.size));
                evicted++;
                lastHeldEvicted++;
                lastHeldEvictedBytes += PatternDictionaries.estimatedNativeBytes(oldest.size, false);
            }
            return loadedBytes() + needed <= maxLoadedBytes;
        } finally {
            if (evicted > 0) {
                evicted(evicted);
            }
        }
    }

    /**
     * Evicts the least recently used loaded dictionaries that are not kept (compressing, given, or for a read's retry)
     * until {@code needed} more bytes fit within {@link #maxLoadedBytes}, or none is left; each recorded as beyond the
     * bound. Under {@link #loading}.
     *
     * @return how many it evicted
     */
    private int evictLeastRecentlyUsed(long needed, long now) {
        int evicted = 0;
        while (loadedBytes() + needed > maxLoadedBytes) {
            DictionaryManager.Entry lru = victim(now, false);
            if (lru == null || !registry.evict(lru)) {
                break;
            }
            overBound.put(lru.id, new Known(lru.sequence, lru.size));
            evicted++;
        }
        return evicted;
    }

    /**
     * @param held whether to pick among the dictionaries kept for a read's retry (then the one loaded first), or among
     *             those not kept
     * @return the least recently used loaded dictionary that neither compresses nor was given, of that kind; or null
     */
    private DictionaryManager.Entry victim(long now, boolean held) {
        DictionaryRegistry.Snapshot s = registry.snapshot();
        DictionaryManager.Entry lru = null;
        for (DictionaryManager.Entry e : s.entries()) {
            if (!e.given && e != s.current() && e.isHeldForRead(now) == held
                    && (lru == null || e.lastUsed - lru.lastUsed < 0)) {
                lru = e;
            }
        }
        return lru;
    }

    /** Logs and frees what {@code n} evictions released; under {@link #loading}. */
    private void evicted(int n) {
        LOG.log(System.Logger.Level.DEBUG, () -> n + " zstd dictionaries evicted to keep the loaded ones within the "
                + maxLoadedBytes + "-byte bound (DictionaryManager.Builder.maxLoadedBytes)");
        CoderPool.freeReleasedEverywhere();
    }

    /** @return the estimated native bytes of the loaded dictionaries never evicted: given, or compressing */
    private long keptBytes() {
        long kept = 0;
        DictionaryRegistry.Snapshot s = registry.snapshot();
        for (DictionaryManager.Entry e : s.entries()) {
            if (e.given || e == s.current()) {
                kept += PatternDictionaries.estimatedNativeBytes(e.size, false);
            }
        }
        return kept;
    }

    /** @return the estimated native bytes of the loaded dictionaries kept for a read's retry at {@code now} */
    private long heldBytes(long now) {
        long held = 0;
        DictionaryRegistry.Snapshot s = registry.snapshot();
        for (DictionaryManager.Entry e : s.entries()) {
            if (!e.given && e != s.current() && e.isHeldForRead(now)) {
                held += PatternDictionaries.estimatedNativeBytes(e.size, false);
            }
        }
        return held;
    }

    /** @return false when reading the entry failed for now (retried on the next check) */
    private boolean load(DictionaryInfo info, boolean forRead) {
        DictionaryManager.Entry known = registry.find(info.id());
        if (known != null && (known.given || known.sequence == info.sequence())
                || registry.rejection(info.id()) != null) {
            return true; // a given dictionary stays given (and current in given mode), whatever the store says
        }
        if (known != null) { // fetched before it was listed: now its place in the order is known
            registry.add(new DictionaryManager.Entry(known, info.sequence()));
            return true;
        }
        int max = validator.maxDictionarySize();
        if (info.size() > max || info.size() < 8) {
            registry.reject(info.id(), "listed with " + info.size() + " bytes, outside 8.." + max
                    + " (Builder.maxDictionarySize)");
            return true;
        }
        byte[] bytes;
        try {
            bytes = store.get(info.id());
        } catch (DictionaryEntryRefusedException e) {
            registry.reject(info.id(), "the store refused the entry: " + e.getMessage());
            return true; // for good: listed as rejected, never read again
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "reading zstd dictionary " + info.id() + " failed: " + e);
            return false;
        }
        if (bytes != null && bytes.length != info.size()) {
            // the entry is written once with the length its index line records: another length is an entry cut short
            // or overwritten, which may digest and probe well and still decode the values of the real one wrongly
            registry.reject(info.id(), cutShort(info.size(), bytes.length));
            return true;
        }
        if (bytes == null) { // listed, its entry gone: no retry brings it back, restoring it does
            absent.put(info.id(), gone(info.id()));
            return true;
        }
        addLoaded(info.id(), info.sequence(), bytes, forRead);
        return true;
    }

    /** @return why an entry the store lists with {@code listed} bytes, that holds {@code held}, is rejected */
    private String cutShort(int listed, int held) {
        return "the store (" + store + ") lists it with " + listed + " bytes but its entry holds " + held + " (cut short"
                + " or overwritten): values compressed with the published dictionary would decode to wrong bytes with it";
    }

    /** @return what a read says of dictionary {@code id}, listed in the listing just read, whose entry is gone */
    private String gone(long id) {
        return gone("the store lists it, but its entry, " + where(id) + ", is gone");
    }

    /**
     * @return what a read says of dictionary {@code id}, known beyond the bound or evicted (without a listing read
     *         now), whose entry is gone: that it was known, not whether the store still lists it
     */
    private String gone(long id, Known known) {
        return gone("it was listed or loaded before, but its entry, " + where(id) + ", is gone");
    }

    private static String gone(String what) {
        return what + " (deleted or expired): values compressed"
                + " with it cannot be read until the entry's bytes are restored there; retrying the read does not help"
                + " before then (once restored, the next read's miss loads it)";
    }

    /**
     * A dictionary a frame names that is not loaded: one the store's list does not show (loaded for reading only), or
     * one beyond {@link #maxLoadedBytes} (loaded at its place in the order, evicting the least recently used others).
     * The entry of one known beyond the bound must have the length it was known with; if it has another, the listing
     * is read again ({@link #listedAgain}: it may have been published again) and the entry is rejected only if the
     * listing disagrees too.
     */
    private void fetchUnlisted(long id) {
        synchronized (loading) {
            Known known = overBound.get(id); // listed, beyond the bound (or evicted): its length is known
            byte[] bytes;
            try {
                bytes = store.get(id);
            } catch (DictionaryEntryRefusedException e) {
                registry.reject(id, "the store refused the entry: " + e.getMessage());
                return;
            }
            if (bytes != null && known != null && bytes.length != known.size) {
                known = listedAgain(id, known); // published again with another length since it was listed?
                if (known != null && bytes.length != known.size) {
                    registry.reject(id, cutShort(known.size, bytes.length));
                    return;
                }
            }
            long needed = bytes == null ? 0 : PatternDictionaries.estimatedNativeBytes(bytes.length, false);
            if (bytes != null && bytes.length <= validator.maxDictionarySize() && !makeRoom(needed, true)) {
                // a read needs it: loaded all the same (never lost), kept for its retry, evicted later
                warnOverBound(id, needed);
            }
            if (bytes == null && known != null) { // listed when last seen (or loaded unlisted before)
                absent.put(id, gone(id, known));
                return;
            }
            if (bytes == null) { // a listed id whose entry is gone keeps what refresh, just before, said of it
                absent.putIfAbsent(id, "it is not published: " + where(id) + " holds no entry, and the store does not list"
                        + " it: values compressed with it cannot be read until it is published there (or given to"
                        + " this manager); retrying the read does not help before then (once published, the next"
                        + " read's miss loads it)");
                return;
            }
            addLoaded(id, known == null ? 0 : known.sequence, bytes, true); // at its place in the order, if known
        }
    }

    /**
     * Reads the store's listing again for dictionary {@code id}, whose entry's length differs from the one it was
     * known with ({@code known}): it may have been deleted and published again with another length since. Under
     * {@link #loading}.
     *
     * @return what the listing says of it now (and known from now on), or null if it no longer lists it (then read as
     *         one not listed)
     */
    private Known listedAgain(long id, Known known) {
        for (DictionaryInfo info : store.list()) {
            if (info.id() == id) {
                Known now = new Known(info.sequence(), info.size());
                overBound.put(id, now);
                return now;
            }
        }
        overBound.remove(id, known);
        return null;
    }

    /**
     * Says that the dictionary {@code id} a read needs ({@code needed} bytes) is loaded above {@link #maxLoadedBytes}
     * (after {@link #makeRoom}): that the dictionaries never evicted (given, or compressing) leave too little room, or
     * that the ones kept for other reads' retries do (reads use more dictionaries at once than the bound holds); each
     * at most once a minute ({@link OverBoundWarning}). Under {@link #loading}.
     */
    private void warnOverBound(long id, long needed) {
        long now = overBoundClock.getAsLong();
        long kept = keptBytes() + needed;
        if (kept > maxLoadedBytes) {
            keptLeaveNoRoom.record(id, kept, 0, now);
        } else { // what the reads needed at once: those loaded, this one, and those kept for reads evicted for it
            heldForReads.record(id, loadedBytes() + needed + lastHeldEvictedBytes, lastHeldEvicted, now);
        }
    }

    /**
     * A warning that reads take the loaded dictionaries above {@link #maxLoadedBytes}, logged at most once a minute:
     * at once when it was not logged in the minute before, else once that minute (its window) is over, with how many
     * loads above the bound and evictions of dictionaries kept for a read's retry the window saw, and the peak demand
     * over it (the estimated bytes the reads needed loaded at once). Under {@link #loading}; checked for a window to
     * end on every load above the bound and every periodic check ({@link #trim}).
     */
    private final class OverBoundWarning {
        /** Whether it says that the dictionaries never evicted leave too little room (else: those kept for reads). */
        private final boolean kept;
        /** When its window began (the last time it was logged), or 0: none open. */
        private long windowStart;
        private int loads;
        private int heldEvicted;
        private long peak;
        private long lastId;

        OverBoundWarning(boolean kept) {
            this.kept = kept;
        }

        /** A load of {@code id} above the bound, the reads needing {@code demand} bytes at once. */
        void record(long id, long demand, int evictedHeld, long now) {
            endWindow(now);
            if (windowStart == 0) {
                log("zstd dictionary " + id + " is loaded", 1, evictedHeld, demand, "now");
                windowStart = now == 0 ? 1 : now;
                return;
            }
            loads++;
            heldEvicted += evictedHeld;
            peak = Math.max(peak, demand);
            lastId = id;
        }

        /** Logs what the window saw once it is over, opening the next one; closes it if it saw nothing. */
        void endWindow(long now) {
            if (windowStart == 0 || now - windowStart < OVER_BOUND_WARNING_NANOS) {
                return;
            }
            if (loads == 0) {
                windowStart = 0;
                return;
            }
            log(loads + " zstd dictionaries (the last " + lastId + ") were loaded", loads, heldEvicted, peak,
                    "in the minute since the last such warning at its peak");
            windowStart = now == 0 ? 1 : now;
            loads = 0;
            heldEvicted = 0;
            peak = 0;
        }

        private void log(String what, int n, int evictedHeld, long demand, String when) {
            String bound = " above the " + maxLoadedBytes + "-byte bound (DictionaryManager.Builder.maxLoadedBytes)";
            LOG.log(System.Logger.Level.WARNING, kept
                    ? what + " for a read" + bound + ": the dictionaries that are never evicted (given, or compressing)"
                            + " leave too little room; with them, the reads need an estimated " + demand + " bytes "
                            + when + ": raise the bound to at least that (said at most once a minute)"
                    : what + " for a read" + bound + ": the room is taken by dictionaries loaded for other reads and"
                            + " not read yet, each kept for its read's retry (until read, for "
                            + DictionaryManager.READ_RETRY_GRACE.toMillis() + " ms at most) while those kept take no"
                            + " more than the bound: reads are using more dictionaries at once than the bound holds,"
                            + " and each miss costs a store read (at most one per dictionary a second) and a digest."
                            + " The reads need an estimated " + demand + " bytes loaded at once " + when + " (those"
                            + " loaded, the one needed, and those kept for reads that were evicted for it);"
                            + " raise the bound to at least that. Kept dictionaries evicted before their read for "
                            + (n == 1 ? "this load" : "these " + n + " loads") + ": " + evictedHeld + " (their reads"
                            + " miss again). Said at most once a minute");
        }
    }

    /** Adds the dictionary {@code bytes} a read's miss loaded ({@code forRead}: kept for its retry) or a refresh did. */
    private void addLoaded(long id, long sequence, byte[] bytes, boolean forRead) {
        if (bytes == null) {
            return;
        }
        absent.remove(id);
        overBound.remove(id);
        DictionaryManager.Entry e = validator.load(id, sequence, bytes, false);
        if (e != null) {
            if (forRead) { // before it is findable: its first read ends the wait
                long until = System.nanoTime() + READ_GRACE_NANOS;
                e.heldForRead = until == 0 ? 1 : until;
            }
            registry.add(e);
        }
    }

    /**
     * @return where the store keeps dictionary {@code id} ({@link DictionaryStore#entryLocation}, bounded in length:
     *         {@link Locations#of}), for messages
     */
    String where(long id) {
        return Locations.of(store, id);
    }

    /**
     * @return what a read of a value of dictionary {@code id} says when the store did not have its entry when last
     *         read (retrying the read does not help until it is restored or published), or null
     */
    String absence(long id) {
        return absent.get(id);
    }

    /**
     * @return what a read of a value of dictionary {@code id} says when it is published but not loaded (or was
     *         evicted) to keep within {@link #maxLoadedBytes}: it is being loaded, and a retried read succeeds; null
     *         when it is not such a dictionary
     */
    String beyondBound(long id) {
        if (!overBound.containsKey(id)) {
            return null;
        }
        return "it is published in " + where(id) + " but not loaded now: this manager keeps its loaded dictionaries"
                + " within the bound of " + maxLoadedBytes + " bytes (DictionaryManager.Builder.maxLoadedBytes,"
                + " default " + DictionaryManager.DEFAULT_MAX_LOADED_BYTES + "; " + loadedBytes() + " loaded now),"
                + " and loads one beyond it on demand, evicting the least recently used: loading it on the manager's"
                + " thread, where it stays loaded for your retry (until read, for "
                + DictionaryManager.READ_RETRY_GRACE.toMillis() + " ms at most); retry the read";
    }

    /**
     * Sets the clock of the over-bound warnings' once-a-minute windows (nanoseconds, as {@link System#nanoTime()},
     * the default), so that a test can end a window without waiting a minute; nothing else uses it.
     */
    void overBoundClock(LongSupplier nanos) {
        this.overBoundClock = java.util.Objects.requireNonNull(nanos, "nanos");
    }

    /** Ends the subscription; the io thread is stopped by the manager. Idempotent. */
    void close() {
        closed = true;
        endSubscription();
    }

    private void endSubscription() {
        AutoCloseable sub = subscriptionRef.getAndSet(null);
        if (sub != null) {
            try {
                sub.close();
            } catch (Exception e) {
                LOG.log(System.Logger.Level.WARNING, "ending the dictionary subscription failed: " + e);
            }
        }
    }
}
