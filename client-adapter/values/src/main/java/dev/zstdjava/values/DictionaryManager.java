package dev.zstdjava.values;

import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdDictionary;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * The zstd dictionaries a {@link ValueCompressor} compresses small values with: the newest compresses, every one
 * loaded decompresses, chosen by the dictionary id each zstd frame records. Opt-in: a {@code ValueCompressor} made
 * without a manager compresses without a dictionary.
 *
 * <h2>Three ways to run it</h2>
 * <ul>
 *   <li>{@link #given(List) given}: the application supplies the dictionaries (bytes of zstd dictionaries, for example
 *       from {@code zstd --train} or {@link ZstdDictionary#train}); the last one given compresses. With a
 *       {@link Builder#store(DictionaryStore) store}, dictionaries published there are loaded for reading too.</li>
 *   <li>{@link #managed(DictionaryStore) managed}: the manager samples the values written (a bounded reservoir), trains
 *       a dictionary on its own thread once it has {@link Builder#minSamples enough}, checks it on held-out samples
 *       (values it was not trained on: the copies of a value written many times are all on one side of the split)
 *       and publishes it only if it saves at least {@link Builder#minImprovement 5 percentage points} more than the
 *       current one. One client trains at a time per store (a lease in the store, held for the
 *       {@link Builder#retrainInterval retrain interval}); every client compresses with the newest published
 *       dictionary. Retraining follows drift: when the saved fraction of recent values falls
 *       {@link Builder#driftThreshold} below what the current dictionary first achieved.</li>
 *   <li>{@link #shared(DictionaryStore) shared}: like managed, without training: compress with the newest dictionary
 *       another client published.</li>
 * </ul>
 *
 * <h2>Loading and reading</h2>
 * {@link Builder#build()} loads every published dictionary (with {@link Builder#loadTimeout a timeout}) before it
 * returns: newest first, as long as their estimated native memory stays within {@link Builder#maxLoadedBytes} (64 MiB
 * by default); one beyond it is loaded when a read needs it, evicting the least recently used, and kept for that
 * read's retry (see {@link Builder#maxLoadedBytes}). Afterwards the manager checks the store's {@linkplain DictionaryStore#version() publication counter}
 * every {@link Builder#refreshInterval refresh interval} on its own thread, and, when the store announces publications
 * ({@link DictionaryStore#subscribe}), as soon as one is announced. A value whose dictionary is not loaded
 * fails its read with {@link MissingDictionaryException} (never returned as stored bytes) and makes the manager fetch
 * that dictionary on its own thread, never the caller's or an event loop's; once loaded, reading succeeds.
 * Dictionaries read from a store are input like any other: larger than {@link Builder#maxDictionarySize} is refused
 * before it is read, and each must be as long as the store lists it (an entry cut short in its content can still
 * digest and round-trip, and would decode the published dictionary's values to wrong bytes), be in zstd's dictionary
 * format, carry the id it is published under, digest, and
 * round-trip a probe value; an entry that fails is rejected (listed in the log, counted, its values unreadable) and
 * does not affect any other dictionary or value.
 *
 * <h2>Readers without the dictionary</h2>
 * Valkey GLIDE has no dictionaries: its Python (2.5.3) and Java (2.5.2-rc1) clients return a dictionary-compressed
 * value as the stored bytes, header included, and log a warning. Builds of this library from before dictionaries did
 * the same; from the release that has this class on, a reader without the dictionary fails the read with
 * {@link MissingDictionaryException}. Turn dictionaries on only when every reader of the keys runs such a release,
 * and keep GLIDE readers off those keys. Deleting a published dictionary makes the values compressed with it
 * unreadable.
 *
 * <h2>Native memory</h2>
 * The manager owns the native digests of every dictionary it loads (one {@code ZSTD_DDict} each, and a
 * {@code ZSTD_CDict} for the dictionary that compresses). {@link #close()} releases all of them, and a compression
 * digest is released as soon as it is replaced: when the dictionary stops compressing (a newer one is adopted or
 * published) or is digested for another level; a dictionary evicted to keep within {@link Builder#maxLoadedBytes}
 * has both released, and the compressors' decompressors of it are freed too (an idle one's at once, one in use on
 * its call's return), so it keeps nothing allocated. Releasing never frees tables under a call: a value being compressed
 * or decompressed finishes with them, and they are freed when the last compressor or decompressor using them is
 * closed (the codec counts those references). A call that picked a dictionary just before its digest was released
 * and only then builds its compressor looks the digest up again (it is digested anew); if the dictionary was evicted
 * meanwhile, the one compressing now compresses the value. After {@link #close()} a
 * compressor using this manager uses none of its dictionaries: a read of a value written with one fails with
 * {@link IllegalStateException} naming this manager (its mode and store), a write stores the value as it is (a
 * compression failure, logged once with that exception), and {@link ValueCompressor#create(CompressionConfig,
 * DictionaryManager)} refuses it; a call under way finishes with the tables it started with.
 *
 * <h2>Parts and locking</h2>
 * This class is the facade; each job is a package-private part: {@code DictionaryRegistry} (the loaded dictionaries,
 * the one that compresses, the refused ones; owns the native digests, {@code DictionaryDigests}),
 * {@code EntryValidator} (checks bytes from the application or the store), {@code StoreSync} (loading from the
 * store: at start, periodically, on announcements, on demand), {@code Trainer} (managed mode: sampling, the lease,
 * training, adoption, drift), {@code TrainingLog} (training counters and events) and {@code DictionarySettings}. One
 * discipline covers them all:
 * <ul>
 *   <li><b>Readers never lock.</b> What a compress or decompress call (or an inspection) reads is immutable and published by one
 *       volatile write: the registry's snapshot (loaded entries and the current one), an entry's compression digest
 *       (replaced by compare-and-set), the training events (replaced by compare-and-set). Counters are
 *       {@link LongAdder}s any thread adds to; a read also writes its dictionary's last-read stamp (at most once a
 *       millisecond) and ends its wait for a read's retry, two volatile longs the loading thread reads to choose
 *       what to evict.</li>
 *   <li><b>Two locks for changes, the store outside the registry's.</b> The {@code DictionaryRegistry}'s monitor
 *       serialises every change of the loaded set (adding, with the admission hooks) and listener registration
 *       ({@link #onLoaded}); it is never held during a store call. Loading from the store ({@code StoreSync}: reading
 *       the store, validating, the store's publication counter) is serialised by {@code StoreSync}'s own lock, taken
 *       before the registry's, never after, so a slow store call holds up neither a registration nor a thread that
 *       adds an admission hook (an adaptive compressor's writing thread). No other monitor exists in the manager (the
 *       {@code Sampler} locks only itself), and no compress or decompress call takes either.
 *       {@link #close()} does not take it either: it and a concurrent add each check the other's volatile write.</li>
 *   <li><b>Confinement.</b> The trainer's lease back-off and drift window belong to the io thread that runs its
 *       periodic check; a training runs on the trainer thread with the samples and entry handed to it (a
 *       compare-and-set flag keeps it to one at a time).</li>
 * </ul>
 *
 * <p><b>Thread safety:</b> thread-safe; share one manager between the compressors of a process. Background work runs
 * on two daemon threads of its own (loading, and training when managed). {@link #close()} stops them and waits for
 * them to end.
 *
 * <p><b>Allocation:</b> the compress and decompress paths read one volatile snapshot and allocate nothing; sampling,
 * when collecting, copies the values it keeps (bounded by {@link Builder#sampling bytes per second and in total}).
 */
public final class DictionaryManager implements AutoCloseable {
    /**
     * How much more of the held-out values' stored bytes a managed lineage's new dictionary must save than the current
     * one (or none) before it is adopted, as a fraction: five percentage points, {@link Builder#minImprovement}'s
     * default. {@code zstd-values advise} recommends a dictionary by the same bar.
     */
    public static final double DEFAULT_MIN_IMPROVEMENT = 0.05;

    /**
     * The largest {@link Builder#maxDictionarySize} accepted, in bytes: 64 MiB. The smallest is
     * {@link ServerDictionaryLayout#MIN_MAX_DICTIONARY_SIZE}; {@link Builder#build()} refuses a bound outside the two.
     */
    public static final int MAX_DICTIONARY_SIZE_LIMIT = 64 << 20;

    /**
     * The longest duration this library's settings take: {@code Long.MAX_VALUE} nanoseconds, some 292 years, the
     * most its clock ({@link System#nanoTime()}) holds. {@link Builder#build()} refuses a longer load timeout,
     * refresh or retrain interval, {@link AdaptiveCompressor.Builder#build()} a longer idle window, and
     * {@link PatternDictionaries.Builder#reopenDelay} a longer reopen delay, each by name.
     */
    public static final Duration LONGEST_DURATION = Duration.ofNanos(Long.MAX_VALUE);

    /**
     * Default of {@link Builder#maxLoadedBytes}: the bound on the estimated native memory of the dictionaries one
     * manager loads, 64 MiB (as {@link PatternDictionaries#DEFAULT_MAX_NATIVE_BYTES} for all adaptive lineages).
     */
    public static final long DEFAULT_MAX_LOADED_BYTES = 64L << 20;

    /**
     * How long a dictionary loaded because a read missed it is kept loaded for that read's retry, at most: 5 seconds.
     * Its first read ends the wait sooner; until then it is not evicted to keep within {@link Builder#maxLoadedBytes}
     * (see there), so a read retried within this time finds it.
     */
    public static final Duration READ_RETRY_GRACE = Duration.ofSeconds(5);

    /** Default of {@link Builder#loadTimeout}: how long {@link Builder#build()} may take to load, 10 seconds. */
    public static final Duration DEFAULT_LOAD_TIMEOUT = Duration.ofSeconds(10);

    /** Default of {@link Builder#refreshInterval}: how often the publication counter is checked, 10 seconds. */
    public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(10);

    /** Default of {@link Builder#retrainInterval}: the least time between two trainings, 1 hour. */
    public static final Duration DEFAULT_RETRAIN_INTERVAL = Duration.ofHours(1);

    /** Default of {@link Builder#dictionarySize}: the size of trained dictionaries, in bytes (16 KiB). */
    public static final int DEFAULT_DICTIONARY_SIZE = 16 << 10;

    /** Default of {@link Builder#minSamples}: a managed manager trains once it holds this many samples, 1000. */
    public static final int DEFAULT_MIN_SAMPLES = 1000;

    private final DictionarySettings settings;
    private final DictionaryRegistry registry;
    private final EntryValidator validator;
    private final TrainingLog log = new TrainingLog();
    private final ScheduledExecutorService io;
    /** Null without a store. */
    private final StoreSync sync;
    /** Null unless managed. */
    private final Trainer trainer;
    private final Sampler sampler;
    /** The decoding path's view of this manager: {@link #find} and {@link #missing}. */
    private final DictionaryLookup lookup = new DictionaryLookup() {
        @Override
        public Entry find(long id) {
            if (registry.isClosed()) {
                throw closedUse(null);
            }
            return registry.find(id);
        }

        @Override
        public MissingDictionaryException missing(long id) {
            return DictionaryManager.this.missing(id);
        }

        @Override
        public RuntimeException released(long id, IllegalStateException closed) {
            // evicted to keep within maxLoadedBytes after find() gave it: missing, and loaded again (kept) for a retry
            return registry.isClosed() ? closedUse(closed) : missing(id);
        }
    };

    /** How the manager gets the dictionary that compresses. */
    enum Mode { GIVEN, MANAGED, SHARED }

    /**
     * Managed: asked on the trainer thread before a trained dictionary that would be adopted is published (for
     * {@link PatternDictionaries}, whose lineages must not publish an id another lineage holds).
     */
    interface PublishCheck {
        /** @return null to publish {@code dictionary} under {@code id}; else why not, in words */
        String refusal(long id, byte[] dictionary);
    }

    private DictionaryManager(DictionarySettings s) {
        this.settings = s;
        this.registry = new DictionaryRegistry(s.mode(), s.level());
        this.validator = new EntryValidator(registry, s.maxDictionarySize());
        this.io = Executors.newSingleThreadScheduledExecutor(own("zstd-java-dictionaries"));
        this.sync = s.store() == null ? null
                : new StoreSync(s.store(), registry, validator, io, s.maxLoadedBytes());
        this.trainer = s.mode() == Mode.MANAGED ? new Trainer(s, registry, sync, log, this::own) : null;
        this.sampler = trainer == null ? null : trainer.sampler();
    }

    /** The threads this manager started (its io and trainer threads), so that {@link #close()} knows its own. */
    private final java.util.Set<Thread> threads = java.util.concurrent.ConcurrentHashMap.newKeySet();

    /** @return a factory of daemon threads named {@code name}, each remembered as this manager's own */
    private ThreadFactory own(String name) {
        ThreadFactory f = daemon(name);
        return r -> {
            Thread t = f.newThread(r);
            threads.add(t);
            return t;
        };
    }

    static ThreadFactory daemon(String name) {
        return r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        };
    }

    // ------------------------------------------------------------------------------------------------ creation

    /**
     * Given mode: {@code dictionaries} (bytes of zstd dictionaries, each with its own id), the last one compresses.
     * Each is validated when the manager is built.
     */
    public static Builder given(List<byte[]> dictionaries) {
        Objects.requireNonNull(dictionaries, "dictionaries");
        if (dictionaries.isEmpty()) {
            throw new IllegalArgumentException("given mode needs at least one dictionary");
        }
        Builder b = new Builder(Mode.GIVEN, null);
        for (byte[] d : dictionaries) {
            b.given.add(Objects.requireNonNull(d, "dictionary").clone());
        }
        return b;
    }

    /** Given mode with one or more dictionaries; see {@link #given(List)}. */
    public static Builder given(byte[]... dictionaries) {
        return given(Arrays.asList(dictionaries));
    }

    /** Managed mode: sample, train, check, publish in {@code store}; compress with the newest published. */
    public static Builder managed(DictionaryStore store) {
        return new Builder(Mode.MANAGED, Objects.requireNonNull(store, "store"));
    }

    /** Shared mode: compress with the newest dictionary published in {@code store}, never train. */
    public static Builder shared(DictionaryStore store) {
        return new Builder(Mode.SHARED, Objects.requireNonNull(store, "store"));
    }

    /**
     * Reading only, for the read-only lineages of {@link PatternDictionaries}: given mode with no dictionary given, so
     * it loads every dictionary published in {@code store} (at build, on the periodic check, on announcements, and a
     * value's missing one on demand), compresses with none (it digests none for compression), and never samples,
     * trains, takes the lease or publishes.
     */
    static Builder reading(DictionaryStore store) {
        return new Builder(Mode.GIVEN, Objects.requireNonNull(store, "store"));
    }

    /** Loads the given dictionaries, then (with a store) the published ones, and starts the background work. */
    private void start() {
        for (Entry e : validator.loadGiven(settings.given())) {
            registry.add(e);
        }
        if (sync != null) {
            sync.start(settings.loadTimeout(), settings.refreshInterval(), settings.notifications());
        }
        if (trainer != null) {
            trainer.start(io);
        }
    }

    // ------------------------------------------------------------------------------------------------ hot paths

    /** @return the dictionary compressing new values, or null (then values are compressed without one) */
    Entry current() {
        return registry.current();
    }

    /** @return the loaded dictionary with this id, or null; allocates nothing */
    Entry find(long id) {
        return registry.find(id);
    }

    /**
     * @return whether {@link #close()} has been called: its dictionaries' digests are released, so a value written
     *         with one could not be read in this process; one volatile read
     */
    boolean isClosed() {
        return registry.isClosed();
    }

    /**
     * @param cause what the codec threw for a released digest, or null
     * @return the exception for a compress or decompress call with a dictionary of this manager after its
     *         {@link #close()}: names the manager (its mode and store) and what to do
     */
    IllegalStateException closedUse(Throwable cause) {
        return new IllegalStateException(describe() + " is closed: a ValueCompressor made with it neither compresses"
                + " with its dictionaries (values are stored as they are) nor reads values written with them; make"
                + " the compressor again with an open manager", cause);
    }

    /** @return this manager in words, for messages: its mode and its store (bounded in length) */
    String describe() {
        DictionaryStore store = settings.store();
        return "the DictionaryManager (" + settings.mode().name().toLowerCase(java.util.Locale.ROOT) + " mode, "
                + (store == null ? "no store" : "store " + Locations.clip(String.valueOf(store))) + ")";
    }

    /** @return the check before each publication ({@link Builder#publishCheck}), or null */
    PublishCheck publishCheck() {
        return settings.publishCheck();
    }

        /** @return where a compressor with this manager finds the dictionaries frames name */
    DictionaryLookup lookup() {
        return lookup;
    }

    /** As {@link #sample(MemorySegment)}: makes a view of {@code value} only while the reservoir is collecting. */
    void sample(byte[] value) {
        if (sampler != null && sampler.collecting()) {
            sampler.offer(MemorySegment.ofArray(value));
        }
    }

    /** Offers a value the compressor is about to store (at least the minimum size) to the training reservoir. */
    void sample(MemorySegment value) {
        if (sampler != null) {
            sampler.offer(value);
        }
    }

    /** @return the zstd level this manager trains, checks and digests its dictionaries for */
    int level() {
        return registry.level();
    }

    /**
     * @return the exception for a frame naming a dictionary that is not loaded: what is missing, where it was looked
     *         for (the store's key) and what to do; starts fetching it
     */
    MissingDictionaryException missing(long id) {
        String why = registry.rejection(id);
        if (why != null) {
            return new MissingDictionaryException(id, "its entry" + (sync == null ? "" : ", " + sync.where(id) + ",")
                    + " was rejected: " + why + "; this manager does not read a rejected entry again: restore the"
                    + " published bytes there, then build a new manager");
        }
        if (sync == null) {
            return new MissingDictionaryException(id, "it is not among the given dictionaries, and no store is"
                    + " configured to fetch it from: give it to DictionaryManager.given, or set the store it is"
                    + " published in (Builder.store)");
        }
        String absent = sync.absence(id);
        String beyond = absent == null ? sync.beyondBound(id) : null;
        sync.requestFetch(id); // also when absent: a read after the entry is restored or published loads it
        if (absent != null) {
            return new MissingDictionaryException(id, absent);
        }
        if (beyond != null) {
            return new MissingDictionaryException(id, beyond);
        }
        return new MissingDictionaryException(id, "not loaded yet: fetching it from " + sync.where(id) + " on the"
                + " manager's thread; retry the read");
    }

    /**
     * Sets the clock ({@link System#nanoTime()} by default) of the once-a-minute windows of the warnings that reads
     * take the loaded dictionaries above {@link Builder#maxLoadedBytes}, for a test that ends a window without
     * waiting a minute; without a store, does nothing.
     */
    void overBoundWarningClock(java.util.function.LongSupplier nanos) {
        if (sync != null) {
            sync.overBoundClock(nanos);
        }
    }

    // ------------------------------------------------------------------------------------------------ inspection

    /**
     * Calls {@code listener} with the ID of every dictionary loaded so far, then of each one loaded later (on the
     * thread that loads it; keep it short, it must not call back into this manager's loading). Every load is told: a
     * dictionary evicted to keep within {@link Builder#maxLoadedBytes} and loaded again is told again (its
     * {@linkplain #dictionaryStats(long) counters} go on from where they were). An exception the
     * listener throws is logged, for a dictionary loaded before this call as for one loaded after; it reaches neither
     * this call's caller nor the loading thread, and the other listeners and ids are called all the same. Used by
     * metrics binders that give each dictionary its own series.
     */
    public void onLoaded(LongConsumer listener) {
        registry.onLoaded(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * Adds an admission hook to a built manager (see {@link Builder#admit}): called now with each dictionary loaded
     * so far, then with each one of a new id before it is findable or current. For {@link PatternManagers}, whose
     * reader must know an application's manager's dictionary before a value is written with it.
     */
    void admit(java.util.function.Consumer<Entry> hook) {
        registry.admit(Objects.requireNonNull(hook, "hook"));
    }

    /** @return the store this manager reads and publishes in, or null (given mode without a store) */
    public DictionaryStore store() {
        return settings.store();
    }

    /**
     * @return the dictionaries published in the store, oldest first, with ids, sizes and sequence (read from the
     *         store now); in given mode without a store, the given dictionaries
     */
    public List<DictionaryInfo> published() {
        if (settings.store() != null) {
            return settings.store().list();
        }
        return registry.infos();
    }

    /** @return the id of the dictionary compressing new values, or 0 when none does */
    public long currentId() {
        Entry c = registry.current();
        return c == null ? 0 : c.id;
    }

    /**
     * @return whether the dictionary {@code id} is loaded now (values compressed with it read without a load; one
     *         published but not loaded, beyond {@link Builder#maxLoadedBytes} or evicted, is loaded by a read)
     */
    public boolean isLoaded(long id) {
        return find(id) != null;
    }

    /** @return ids of published entries that were refused, with the reason (their values cannot be read) */
    public Map<Long, String> rejectedDictionaries() {
        return registry.rejections();
    }

    /** @return counters of every loaded dictionary, oldest first */
    public List<DictionaryStats> dictionaryStats() {
        return registry.stats();
    }

    /**
     * @return the counters of loaded dictionary {@code id}, or null when it is not loaded (an evicted one's come back,
     *         as they were, when it is loaded again: {@link DictionaryStats})
     */
    public DictionaryStats dictionaryStats(long id) {
        for (DictionaryStats st : dictionaryStats()) {
            if (st.id() == id) {
                return st;
            }
        }
        return null;
    }

    /** @return training counters and the most recent training events (all zero unless managed) */
    public TrainingStats trainingStats() {
        return log.stats(sampler == null ? 0 : sampler.size());
    }

    /**
     * Stops the background threads and releases the native digests of every loaded dictionary: each is freed at once,
     * or, if a compressor or decompressor still uses it, when that one is closed (a value in flight finishes
     * correctly). Ends the store subscription, and waits for the background threads to end (a store call or a
     * training under way finishes first; a training publishes nothing once closed), for at most the
     * {@link Builder#loadTimeout load timeout} (a warning names a thread still running then); it does not wait when
     * called on one of them. Afterwards the inspection methods still answer, {@link #published()} reads the store,
     * which the manager does not own, and the compressors using the manager fail as the class comment says ("Native
     * memory").
     * Idempotent.
     */
    @Override
    public void close() {
        closeBy(System.nanoTime() + settings.loadTimeout().toNanos());
    }

    /**
     * As {@link #close()}, waiting for the threads until {@code deadline} ({@link System#nanoTime()}) at most: for
     * {@link PatternDictionaries}, which closes many managers within one load timeout.
     */
    void closeBy(long deadline) {
        close(true, deadline);
    }

    /** @return the load timeout, in nanoseconds: the longest {@link #close()} waits */
    long loadTimeoutNanos() {
        return settings.loadTimeout().toNanos();
    }

    /** As {@link #close()}; without waiting for the threads when {@code wait} is false (a build that failed). */
    private void close(boolean wait, long deadline) {
        if (sync != null) {
            sync.close();
        }
        io.shutdownNow();
        if (trainer != null) {
            trainer.close();
        }
        registry.close();
        if (!wait || threads.contains(Thread.currentThread())) {
            return;
        }
        try {
            boolean ended = true;
            for (Thread t : threads) { // joined, not only their executors terminated: a thread outlives that a little
                long left = deadline - System.nanoTime();
                if (left > 0) {
                    java.util.concurrent.TimeUnit.NANOSECONDS.timedJoin(t, left);
                }
                ended &= !t.isAlive();
            }
            if (!ended) {
                System.getLogger(DictionaryManager.class.getName()).log(System.Logger.Level.WARNING,
                        "closing the dictionary manager: its threads (" + threads + ") are still running after the"
                                + " load timeout (" + settings.loadTimeout() + "), in a store call or a training;"
                                + " they end when it returns, and use nothing of the manager then");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt(); // closed all the same; the threads end by themselves
        }
    }

    @Override
    public String toString() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", settings.mode());
        m.put("loaded", registry.snapshot().entries().length);
        m.put("current", currentId());
        return "DictionaryManager" + m;
    }

    // ------------------------------------------------------------------------------------------------ types

    /** One loaded dictionary (see {@link LoadedDictionary}); the type the compressor's hot path holds. */
    static final class Entry extends LoadedDictionary {
        Entry(long id, long sequence, DictionaryDigests digests, boolean given) {
            super(id, sequence, digests, given);
        }

        /** The same dictionary and counters at its now known place in the order. */
        Entry(Entry e, long sequence) {
            super(e, sequence);
        }

        /** The dictionary {@code e}, just loaded again after an eviction, counting on with its earlier counters. */
        Entry(Entry e, Counters kept) {
            super(e, kept);
        }
    }

    /**
     * Builds a {@link DictionaryManager}. Not thread-safe. {@link #build()} checks every setting and throws
     * {@link IllegalArgumentException} naming it.
     */
    public static final class Builder {
        private final Mode mode;
        private DictionaryStore store;
        private final List<byte[]> given = new ArrayList<>();
        private int level = Zstd.DEFAULT_LEVEL;
        private int maxDictionarySize = ServerDictionaryLayout.DEFAULT_MAX_DICTIONARY_SIZE;
        private long maxLoadedBytes = DEFAULT_MAX_LOADED_BYTES;
        private Duration loadTimeout = DEFAULT_LOAD_TIMEOUT;
        private Duration refreshInterval = DEFAULT_REFRESH_INTERVAL;
        private Duration retrainInterval = DEFAULT_RETRAIN_INTERVAL;
        private int dictionaryCapacity = DEFAULT_DICTIONARY_SIZE;
        private int minSamples = DEFAULT_MIN_SAMPLES;
        private int maxSamples = 4000;
        private long maxSampleBytes = 4L << 20;
        private int maxSampleSize = 16 << 10;
        private long sampleBytesPerSecond = 1L << 20;
        private double minImprovement = DEFAULT_MIN_IMPROVEMENT;
        private double driftThreshold = 0.05;
        private boolean notifications = true;
        private PublishCheck publishCheck;
        private java.util.function.Consumer<Entry> admit;

        private Builder(Mode mode, DictionaryStore store) {
            this.mode = mode;
            this.store = store;
        }

        /** The store to load (and, when managed, publish) dictionaries; in given mode optional, for reading only. */
        public Builder store(DictionaryStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /**
         * The zstd level dictionaries are digested and trained for (default {@link Zstd#DEFAULT_LEVEL}, the
         * compressor's default).
         */
        public Builder level(int level) {
            this.level = level;
            return this;
        }

        /**
         * Largest dictionary accepted from a store or given, in bytes (default
         * {@link ServerDictionaryLayout#DEFAULT_MAX_DICTIONARY_SIZE}, 1 MiB;
         * {@link ServerDictionaryLayout#MIN_MAX_DICTIONARY_SIZE} to
         * {@link DictionaryManager#MAX_DICTIONARY_SIZE_LIMIT}); larger is refused unread.
         */
        public Builder maxDictionarySize(int bytes) {
            this.maxDictionarySize = bytes;
            return this;
        }

        /**
         * The bound on the native memory of the dictionaries this manager loads from its store, all together, in
         * bytes (default {@link DictionaryManager#DEFAULT_MAX_LOADED_BYTES}, 64 MiB; at least 1). Each loaded
         * dictionary counts as its size plus the decompression digest's tables
         * ({@link PatternDictionaries#DIGEST_OVERHEAD} bytes), the dictionaries given to the manager included (which
         * are always loaded). The store's dictionaries are loaded newest first (by publication sequence) while they
         * fit; the ones beyond are loaded on demand: a read of a value compressed with one that is not loaded fails
         * once with {@link MissingDictionaryException} saying it is being loaded (on the manager's thread, as any
         * missing dictionary), and the retried read succeeds. To make room, the least recently used loaded
         * dictionaries are evicted (never the one compressing, nor a given one); an evicted dictionary's native
         * tables are freed once no call uses them, and a later read of its values costs a reload the same way. The
         * newest published dictionary, which compresses, evicts others to fit when a new one is published. A warning
         * names the dictionaries beyond the bound once.
         * <p>
         * A dictionary loaded because a read missed it is kept for that read's retry: it is not evicted before it is
         * read once or {@link DictionaryManager#READ_RETRY_GRACE} (5 s) has passed, whichever comes first, so a read
         * retried within that time finds it even when reads use more dictionaries at once than the bound holds (they
         * would otherwise evict each other's before the retries, and fail again and again). Only such dictionaries
         * take the loaded ones above the bound, and those kept take at most the bound themselves (or the one a read
         * needs, if it alone is larger): beyond that, the oldest of them is evicted for a new one (its read fails once
         * more, and its retry loads it again); the guarantee holds while the dictionaries kept for retries fit the
         * bound. A store read for a miss happens at most once a second per dictionary: a miss within that second is
         * fetched once it is over, so a retry may wait up to a second. A warning, at most once a minute (at once, then
         * once per minute that saw more, with its counts), says when reads take the loaded dictionaries above the
         * bound and the peak demand they had: raise the bound to that. Once they are read (or their time is over), the next load or
         * the next {@linkplain #refreshInterval periodic check} evicts the least recently used down to the bound. The
         * bound is exceeded otherwise only when the dictionaries never evicted leave no room for one a read needs: it
         * is loaded all the same (kept for its retry as above), and evicted later the same way.
         */
        public Builder maxLoadedBytes(long bytes) {
            this.maxLoadedBytes = bytes;
            return this;
        }

        /**
         * How long {@link #build()} may take with the store, from its first store call to its return (default
         * {@link DictionaryManager#DEFAULT_LOAD_TIMEOUT}): loading the published dictionaries must end within it, or
         * the build fails; subscribing to {@linkplain #notifications notifications} gets what is left of it, and a
         * subscription not made by then does not hold the build up (it goes on on the manager's thread, which until
         * then loads nothing new; a warning says so). Also the longest {@link DictionaryManager#close()} waits for
         * the manager's threads.
         */
        public Builder loadTimeout(Duration timeout) {
            this.loadTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
        }

        /** @return the load timeout set ({@link #loadTimeout(Duration)}) */
        Duration loadTimeout() {
            return loadTimeout;
        }

        /**
         * Whether to subscribe to the store's publication notifications ({@link DictionaryStore#subscribe}), so that
         * a dictionary another client publishes arrives at once rather than with the next periodic check (default
         * true; off, for example, where the server refuses SUBSCRIBE).
         */
        public Builder notifications(boolean on) {
            this.notifications = on;
            return this;
        }

        /**
         * How often the store's publication counter is checked for new dictionaries (default
         * {@link DictionaryManager#DEFAULT_REFRESH_INTERVAL}).
         */
        public Builder refreshInterval(Duration interval) {
            this.refreshInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /**
         * Managed: the least time between two trainings of this manager and, through the store's lease, of all
         * clients of the store (default {@link DictionaryManager#DEFAULT_RETRAIN_INTERVAL}): the trainer's lease
         * lasts this long, and the manager that holds it does not ask for it again before it ends.
         */
        public Builder retrainInterval(Duration interval) {
            this.retrainInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /**
         * Managed: the size of trained dictionaries in bytes (default
         * {@link DictionaryManager#DEFAULT_DICTIONARY_SIZE}; zstd's minimum is 256).
         */
        public Builder dictionarySize(int bytes) {
            this.dictionaryCapacity = bytes;
            return this;
        }

        /**
         * Managed: train once the reservoir holds this many samples (default
         * {@value DictionaryManager#DEFAULT_MIN_SAMPLES}; at least 10), or as many as its
         * byte bound holds when that is fewer (values of more than 4 KiB on average, with the default bounds).
         */
        public Builder minSamples(int samples) {
            this.minSamples = samples;
            return this;
        }

        /**
         * Managed: bounds of the sampling reservoir, none of which favours values of one size (past {@code maxBytes},
         * samples drawn at random are dropped): at most {@code maxSamples} values (default 4000) of at most
         * {@code maxSampleSize} bytes each (longer values contribute their first bytes, and the held-out check counts
         * them whole, the rest as compressing as those bytes do without the new dictionary; default 16 KiB), at most
         * {@code maxBytes} in total (default 4 MiB), copied at no more than {@code bytesPerSecond} (default 1 MiB/s).
         */
        public Builder sampling(int maxSamples, int maxSampleSize, long maxBytes, long bytesPerSecond) {
            this.maxSamples = maxSamples;
            this.maxSampleSize = maxSampleSize;
            this.maxSampleBytes = maxBytes;
            this.sampleBytesPerSecond = bytesPerSecond;
            return this;
        }

        /**
         * Managed: a trained dictionary is adopted only if its held-out saved fraction is at least this much higher
         * than the current one's (default {@value DictionaryManager#DEFAULT_MIN_IMPROVEMENT}: five percentage points).
         */
        public Builder minImprovement(double fraction) {
            this.minImprovement = fraction;
            return this;
        }

        /**
         * Managed: retrain when the saved fraction of recent values falls this much below what the current dictionary
         * first achieved (default 0.05), at most once per {@link #retrainInterval}.
         */
        public Builder driftThreshold(double fraction) {
            this.driftThreshold = fraction;
            return this;
        }

        /** Managed: a check before each publication (null, the default: none); a refusal rejects the dictionary. */
        Builder publishCheck(PublishCheck check) {
            this.publishCheck = check;
            return this;
        }

        /**
         * A hook called with each dictionary of a new id this manager loads (null, the default: none), those loaded by
         * {@link #build()} included: on the loading thread, under the manager's lock, <em>before</em> the dictionary
         * is findable or current, so before any value is written with it (the {@linkplain DictionaryManager#onLoaded
         * listeners} run after); never for an entry that replaces a loaded one of its id, but again for a dictionary
         * evicted to keep within {@link #maxLoadedBytes} and loaded again. Keep it short; it must not call back into
         * this manager's loading. For {@link PatternDictionaries}, whose reader must know a lineage's
         * dictionary before the lineage writes with it.
         */
        Builder admit(java.util.function.Consumer<Entry> hook) {
            this.admit = hook;
            return this;
        }

        /**
         * Validates the settings and the given dictionaries, loads every published dictionary from the store and
         * subscribes to its notifications (both within the {@linkplain #loadTimeout load timeout}), and starts the
         * background threads. With a store, it returns or fails within the load timeout after its first store call
         * (a store call that overruns it is left to end on the manager's thread, which then stops).
         *
         * @throws IllegalArgumentException if a setting or a given dictionary is not valid
         * @throws IllegalStateException    if the store cannot be read within the load timeout
         */
        public DictionaryManager build() {
            DictionaryManager m = new DictionaryManager(new DictionarySettings(mode, store, given, level,
                    maxDictionarySize, maxLoadedBytes, loadTimeout, refreshInterval, retrainInterval, notifications,
                    dictionaryCapacity, minSamples, maxSamples, maxSampleBytes, maxSampleSize, sampleBytesPerSecond,
                    minImprovement, driftThreshold, publishCheck));
            try {
                if (admit != null) {
                    m.registry.admit(admit); // before start(): the dictionaries loaded at build are admitted too
                }
                m.start();
            } catch (RuntimeException e) {
                m.close(false, 0); // within the load timeout: a store call that overran it ends by itself
                throw e;
            }
            return m;
        }
    }
}
