package dev.zstdjava.values;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Keeps a {@link DictionaryRegistry} in step with a {@link DictionaryStore}: loads every published dictionary at
 * start, then whenever the store's publication counter moves (checked periodically) or a publication is announced,
 * and fetches a dictionary a value names that is not loaded. All store reads run on the manager's io thread (the
 * trainer's reload after an adoption excepted), never on a caller's thread.
 *
 * <p><b>Thread safety:</b> loading ({@link #refresh}, the fetch of an unlisted dictionary) runs under the manager's
 * one lock, the {@link DictionaryRegistry}'s monitor, which also guards {@link #knownVersion}. The de-duplication of
 * requests ({@link #pendingFetches}, {@link #refreshQueued}) is lock-free; {@link #subscription} and
 * {@link #closed} are published through volatile fields.
 */
final class StoreSync {
    private static final System.Logger LOG = System.getLogger(DictionaryManager.class.getName());
    private static final int MAX_PENDING_FETCHES = 64;
    private static final long FETCH_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final DictionaryStore store;
    private final DictionaryRegistry registry;
    private final EntryValidator validator;
    private final ScheduledExecutorService io;
    private final Set<Long> pendingFetches = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean refreshQueued = new AtomicBoolean();
    /** The store's publication counter when everything listed was last loaded; guarded by the registry's lock. */
    private long knownVersion = Long.MIN_VALUE;
    private volatile boolean closed;
    private volatile AutoCloseable subscription;

    StoreSync(DictionaryStore store, DictionaryRegistry registry, EntryValidator validator,
              ScheduledExecutorService io) {
        this.store = store;
        this.registry = registry;
        this.validator = validator;
        this.io = io;
    }

    /**
     * Loads every published dictionary on the io thread within {@code loadTimeout}, then schedules the periodic check
     * and subscribes to announcements (when {@code notifications}).
     *
     * @throws IllegalStateException if loading fails or takes longer (the caller closes the manager)
     */
    void start(Duration loadTimeout, Duration refreshInterval, boolean notifications) {
        Future<?> f = io.submit(this::refresh);
        try {
            f.get(loadTimeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            f.cancel(true);
            throw new IllegalStateException("loading the published dictionaries took longer than " + loadTimeout
                    + " (Builder.loadTimeout)", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("could not load the published dictionaries: " + e.getCause(),
                    e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while loading the published dictionaries", e);
        }
        long every = Math.max(1, refreshInterval.toMillis());
        io.scheduleWithFixedDelay(this::checkVersion, every, every, TimeUnit.MILLISECONDS);
        if (notifications) {
            try {
                subscription = store.subscribe(this::refreshSoon);
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "subscribing to dictionary publications failed (new"
                        + " dictionaries arrive with the periodic check instead): " + e);
            }
        }
    }

    /** Starts fetching the dictionary {@code id} a value names on the io thread (at most once a second per id). */
    void requestFetch(long id) {
        if (closed || pendingFetches.size() >= MAX_PENDING_FETCHES || !pendingFetches.add(id)) {
            return;
        }
        try {
            io.execute(() -> {
                try {
                    refresh();
                    if (registry.find(id) == null && registry.rejection(id) == null) {
                        fetchUnlisted(id);
                    }
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "fetching zstd dictionary " + id + " failed: " + e);
                } finally {
                    io.schedule(() -> pendingFetches.remove(id), FETCH_RETRY_NANOS, TimeUnit.NANOSECONDS);
                }
            });
        } catch (RejectedExecutionException e) {
            pendingFetches.remove(id);
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
            boolean changed;
            synchronized (registry) {
                changed = version != knownVersion;
            }
            if (changed) {
                refresh();
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "checking the dictionary store for new dictionaries failed: " + e);
        }
    }

    /** Loads every listed dictionary not loaded yet, under the lock. Runs on the io thread, or the trainer's. */
    void refresh() {
        synchronized (registry) {
            long version = store.version();
            List<DictionaryInfo> listed = store.list();
            boolean complete = true;
            for (DictionaryInfo info : listed) {
                complete &= load(info);
            }
            if (complete) {
                knownVersion = version;
            }
        }
    }

    /** @return false when reading the entry failed for now (retried on the next check) */
    private boolean load(DictionaryInfo info) {
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
            registry.reject(info.id(), "the store (" + store + ") lists it with " + info.size() + " bytes but its"
                    + " entry holds " + bytes.length + " (cut short or overwritten): values compressed with the"
                    + " published dictionary would decode to wrong bytes with it");
            return true;
        }
        addLoaded(info.id(), info.sequence(), bytes);
        return true;
    }

    /** A dictionary a frame names that the store's list does not show: loaded for reading only. */
    private void fetchUnlisted(long id) {
        synchronized (registry) {
            byte[] bytes;
            try {
                bytes = store.get(id);
            } catch (DictionaryEntryRefusedException e) {
                registry.reject(id, "the store refused the entry: " + e.getMessage());
                return;
            }
            addLoaded(id, 0, bytes);
        }
    }

    private void addLoaded(long id, long sequence, byte[] bytes) {
        if (bytes == null) {
            return;
        }
        DictionaryManager.Entry e = validator.load(id, sequence, bytes, false);
        if (e != null) {
            registry.add(e);
        }
    }

    /** Ends the subscription; the io thread is stopped by the manager. Idempotent. */
    void close() {
        closed = true;
        AutoCloseable sub = subscription;
        if (sub != null) {
            subscription = null;
            try {
                sub.close();
            } catch (Exception e) {
                LOG.log(System.Logger.Level.WARNING, "ending the dictionary subscription failed: " + e);
            }
        }
    }
}
