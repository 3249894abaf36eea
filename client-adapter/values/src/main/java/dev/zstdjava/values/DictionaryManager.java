package dev.zstdjava.values;

import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressionDictionary;
import dev.zstdjava.zstd.ZstdDecompressor;
import dev.zstdjava.zstd.ZstdDictionary;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The zstd dictionaries a {@link ValueCompressor} compresses small values with: the newest compresses, every one
 * loaded decompresses, chosen by the dictionary id each zstd frame records. Opt-in: a {@code ValueCompressor} made
 * without a manager writes values exactly as before.
 *
 * <h2>Three ways to run it</h2>
 * <ul>
 *   <li>{@link #given(List) given}: the application supplies the dictionaries (bytes of zstd dictionaries, for example
 *       from {@code zstd --train} or {@link ZstdDictionary#train}); the last one given compresses. With a
 *       {@link Builder#store(DictionaryStore) store}, dictionaries published there are loaded for reading too.</li>
 *   <li>{@link #managed(DictionaryStore) managed}: the manager samples the values written (a bounded reservoir), trains
 *       a dictionary on its own thread once it has {@link Builder#minSamples enough}, checks it on held-out samples
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
 * returns. Afterwards the manager checks the store's {@linkplain DictionaryStore#version() publication counter}
 * every {@link Builder#refreshInterval refresh interval} on its own thread, and, when the store announces publications
 * ({@link DictionaryStore#subscribe}), as soon as one is announced. A value whose dictionary is not loaded
 * fails its read with {@link MissingDictionaryException} (never returned as stored bytes) and makes the manager fetch
 * that dictionary on its own thread, never the caller's or an event loop's; once loaded, reading succeeds.
 * Dictionaries read from a store are input like any other: larger than {@link Builder#maxDictionarySize} is refused
 * before it is read, and each must be in zstd's dictionary format, carry the id it is published under, digest, and
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
 * <p><b>Thread safety:</b> thread-safe; share one manager between the compressors of a process. Background work runs
 * on two daemon threads of its own (loading, and training when managed). {@link #close()} stops them.
 *
 * <p><b>Allocation:</b> the compress and decompress paths read one volatile snapshot and allocate nothing; sampling,
 * when collecting, copies the values it keeps (bounded by {@link Builder#sampling bytes per second and in total}).
 */
public final class DictionaryManager implements AutoCloseable {
    private static final System.Logger LOG = System.getLogger(DictionaryManager.class.getName());
    private static final int MAX_EVENTS = 64;
    private static final int MAX_PENDING_FETCHES = 64;
    private static final long FETCH_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final int DICT_MAGIC = 0xEC30A437;
    private static final byte[] PROBE = ("{\"probe\":\"zstd-java dictionary check\",\"n\":12345,\"ok\":true,"
            + "\"list\":[1,2,3,4,5,6,7,8,9,10]}").getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private final DictionaryStore store;
    private final Mode mode;
    private final int level;
    private final int maxDictionarySize;
    private final Duration retrainInterval;
    private final int dictionaryCapacity;
    private final int minSamples;
    private final double minImprovement;
    private final double driftThreshold;
    private final Sampler sampler;
    private final String owner = UUID.randomUUID().toString();

    private volatile Snapshot snapshot = Snapshot.EMPTY;
    /** Told the ID of every dictionary loaded from now on (see {@link #onLoaded}). */
    private final List<java.util.function.LongConsumer> loadedListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private final Map<Long, String> rejected = new ConcurrentHashMap<>();
    private final Set<Long> pendingFetches = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService io;
    private final ExecutorService trainerThread;
    private final AtomicBoolean training = new AtomicBoolean();
    private final AtomicBoolean refreshQueued = new AtomicBoolean();
    private volatile long knownVersion = Long.MIN_VALUE;
    private final Object eventLock = new Object();
    private long nextLeaseAttempt = System.nanoTime();
    private volatile boolean closed;
    private volatile AutoCloseable subscription;

    // training state: only the io thread and the trainer thread touch it
    private final ArrayDeque<TrainingEvent> events = new ArrayDeque<>();
    private final LongAdder trained = new LongAdder();
    private final LongAdder adopted = new LongAdder();
    private final LongAdder rejectedTrainings = new LongAdder();
    private final LongAdder failedTrainings = new LongAdder();
    private Entry windowEntry;
    private long windowOriginal;
    private long windowStored;
    private double baseline = Double.NaN;

    /** How the manager gets the dictionary that compresses. */
    enum Mode { GIVEN, MANAGED, SHARED }

    private DictionaryManager(Builder b) {
        this.store = b.store;
        this.mode = b.mode;
        this.level = b.level;
        this.maxDictionarySize = b.maxDictionarySize;
        this.retrainInterval = b.retrainInterval;
        this.dictionaryCapacity = b.dictionaryCapacity;
        this.minSamples = b.minSamples;
        this.minImprovement = b.minImprovement;
        this.driftThreshold = b.driftThreshold;
        this.sampler = mode == Mode.MANAGED
                ? new Sampler(b.maxSamples, b.maxSampleBytes, b.maxSampleSize, b.sampleBytesPerSecond) : null;
        this.io = Executors.newSingleThreadScheduledExecutor(daemon("zstd-java-dictionaries"));
        this.trainerThread = mode == Mode.MANAGED
                ? Executors.newSingleThreadExecutor(daemon("zstd-java-dictionary-trainer")) : null;
    }

    private static java.util.concurrent.ThreadFactory daemon(String name) {
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

    private void start(List<byte[]> given, Duration loadTimeout, Duration refreshInterval, boolean notifications) {
        for (int i = 0; i < given.size(); i++) {
            byte[] d = given.get(i);
            long id = headerId(d);
            String why = check(id, d);
            if (why != null) {
                throw new IllegalArgumentException("given dictionary #" + i + " is not usable: " + why);
            }
            Entry e = load(id, i + 1, d, true);
            if (e == null) {
                throw new IllegalArgumentException("given dictionary #" + i + " is not usable: "
                        + rejected.get(id));
            }
            add(e);
        }
        if (store != null) {
            Future<?> f = io.submit(this::refresh);
            try {
                f.get(loadTimeout.toNanos(), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                f.cancel(true);
                close();
                throw new IllegalStateException("loading the published dictionaries took longer than " + loadTimeout
                        + " (Builder.loadTimeout)", e);
            } catch (ExecutionException e) {
                close();
                throw new IllegalStateException("could not load the published dictionaries: " + e.getCause(),
                        e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                close();
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
        if (mode == Mode.MANAGED) {
            sampler.collecting(true);
            io.scheduleWithFixedDelay(this::trainingCheck, 200, 200, TimeUnit.MILLISECONDS);
        }
    }

    // ------------------------------------------------------------------------------------------------ hot paths

    /** @return the dictionary compressing new values, or null (then values are compressed without one) */
    Entry current() {
        return snapshot.current;
    }

    /** @return the loaded dictionary with this id, or null; allocates nothing */
    Entry find(long id) {
        Entry[] es = snapshot.entries;
        for (Entry e : es) {
            if (e.id == id) {
                return e;
            }
        }
        return null;
    }

    /** Offers a value the compressor is about to store (at least the minimum size) to the training reservoir. */
    void sample(MemorySegment value) {
        if (sampler != null) {
            sampler.offer(value);
        }
    }

    /** @return the exception for a frame naming a dictionary that is not loaded; starts fetching it */
    MissingDictionaryException missing(long id) {
        String why = rejected.get(id);
        if (why != null) {
            return new MissingDictionaryException(id, "its published entry was rejected: " + why);
        }
        if (store == null) {
            return new MissingDictionaryException(id, "it is not among the given dictionaries and no store is"
                    + " configured to fetch it from");
        }
        requestFetch(id);
        return new MissingDictionaryException(id, "fetching it from the dictionary store; retry the read");
    }

    private void requestFetch(long id) {
        if (closed || pendingFetches.size() >= MAX_PENDING_FETCHES || !pendingFetches.add(id)) {
            return;
        }
        try {
            io.execute(() -> {
                try {
                    refresh();
                    if (find(id) == null && !rejected.containsKey(id)) {
                        fetchUnlisted(id);
                    }
                } catch (RuntimeException e) {
                    LOG.log(System.Logger.Level.WARNING, "fetching zstd dictionary " + id + " failed: " + e);
                } finally {
                    io.schedule(() -> pendingFetches.remove(id), FETCH_RETRY_NANOS, TimeUnit.NANOSECONDS);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            pendingFetches.remove(id);
        }
    }

    // ------------------------------------------------------------------------------------------------ loading

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
        } catch (java.util.concurrent.RejectedExecutionException e) {
            refreshQueued.set(false);
        }
    }

    private void checkVersion() {
        try {
            if (store.version() != knownVersion) {
                refresh();
            }
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "checking the dictionary store for new dictionaries failed: " + e);
        }
    }

    /** Loads every listed dictionary not loaded yet. Runs on the io thread (or during build). */
    private synchronized void refresh() {
        long version = store.version();
        List<DictionaryInfo> listed = store.list();
        boolean complete = true;
        for (DictionaryInfo info : listed) {
            Entry known = find(info.id());
            if (known != null && (known.given || known.sequence == info.sequence())
                    || rejected.containsKey(info.id())) {
                continue; // a given dictionary stays given (and current in given mode), whatever the store says
            }
            if (known != null) { // fetched before it was listed: now its place in the order is known
                add(new Entry(known, info.sequence()));
                continue;
            }
            if (info.size() > maxDictionarySize || info.size() < 8) {
                reject(info.id(), "listed with " + info.size() + " bytes, outside 8.." + maxDictionarySize
                        + " (Builder.maxDictionarySize)");
                continue;
            }
            byte[] bytes;
            try {
                bytes = store.get(info.id());
            } catch (DictionaryEntryRefusedException e) {
                reject(info.id(), "the store refused the entry: " + e.getMessage());
                continue; // for good: listed as rejected, never read again
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "reading zstd dictionary " + info.id() + " failed: " + e);
                complete = false; // retried on the next check
                continue;
            }
            if (bytes == null) {
                continue;
            }
            String why = check(info.id(), bytes);
            if (why != null) {
                reject(info.id(), why);
                continue;
            }
            Entry e = load(info.id(), info.sequence(), bytes, false);
            if (e != null) {
                add(e);
            }
        }
        if (complete) {
            knownVersion = version;
        }
    }

    /** A dictionary a frame names that the store's list does not show: loaded for reading only. */
    private synchronized void fetchUnlisted(long id) {
        byte[] bytes;
        try {
            bytes = store.get(id);
        } catch (DictionaryEntryRefusedException e) {
            reject(id, "the store refused the entry: " + e.getMessage());
            return;
        }
        if (bytes == null) {
            return;
        }
        String why = check(id, bytes);
        if (why != null) {
            reject(id, why);
            return;
        }
        Entry e = load(id, 0, bytes, false);
        if (e != null) {
            add(e);
        }
    }

    private void reject(long id, String why) {
        if (rejected.putIfAbsent(id, why) == null) {
            LOG.log(System.Logger.Level.WARNING, "zstd dictionary " + id + " rejected: " + why
                    + "; values compressed with it cannot be read");
        }
    }

    private static long headerId(byte[] d) {
        if (d.length < 8) {
            return 0;
        }
        return Integer.toUnsignedLong(MemorySegment.ofArray(d).get(ValueFormat.LE_INT, 4)); // little-endian format
    }

    /** @return why these bytes cannot be the dictionary {@code id}, or null if they pass the cheap checks */
    private String check(long id, byte[] bytes) {
        if (bytes.length > maxDictionarySize) {
            return bytes.length + " bytes, above the " + maxDictionarySize + "-byte limit (Builder.maxDictionarySize)";
        }
        if (bytes.length < 8 || MemorySegment.ofArray(bytes).get(ValueFormat.LE_INT, 0)
                != DICT_MAGIC) {
            return "not in zstd's dictionary format (no dictionary magic number)";
        }
        long inHeader = headerId(bytes);
        if (inHeader == 0) {
            return "its header records dictionary id 0 (frames could not name it)";
        }
        if (inHeader != id) {
            return "published as id " + id + " but its header says id " + inHeader;
        }
        return null;
    }

    /** Digests and probes a dictionary; returns null (and rejects it) if zstd refuses it. */
    private Entry load(long id, long sequence, byte[] bytes, boolean given) {
        ZstdDictionary dict = ZstdDictionary.of(bytes);
        ZstdDecompressionDictionary dd = null;
        try {
            dd = dict.forDecompression();
            try (ZstdCompressionDictionary cd = dict.forCompression(level);
                 ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build();
                 ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).maxDecompressedSize(PROBE.length)
                         .build()) {
                byte[] back = d.decompress(c.compress(PROBE));
                if (!Arrays.equals(back, PROBE)) {
                    throw new IllegalStateException("a probe value did not round-trip");
                }
            }
            return new Entry(id, sequence, dict, dd, given);
        } catch (RuntimeException e) {
            if (dd != null) {
                dd.close();
            }
            reject(id, "zstd refuses it: " + e.getMessage());
            return null;
        }
    }

    /** Adds or replaces an entry and picks the dictionary that compresses. */
    private synchronized void add(Entry e) {
        Snapshot s = snapshot;
        List<Entry> list = new ArrayList<>(s.entries.length + 1);
        for (Entry x : s.entries) {
            if (x.id != e.id) {
                list.add(x);
            }
        }
        list.add(e);
        Entry current = null;
        for (Entry x : list) {
            boolean eligible = mode == Mode.GIVEN ? x.given : x.sequence > 0;
            if (eligible && (current == null || x.sequence > current.sequence)) {
                current = x;
            }
        }
        if (current != null && current != s.current) {
            current.compressionDictionary(level); // digest once, here, not on a writing thread
        }
        snapshot = new Snapshot(list.toArray(new Entry[0]), current);
        if (list.size() > s.entries.length) { // a new ID, not a replacement
            for (java.util.function.LongConsumer l : loadedListeners) {
                try {
                    l.accept(e.id);
                } catch (RuntimeException ex) {
                    LOG.log(System.Logger.Level.WARNING, "a dictionary listener failed", ex);
                }
            }
        }
    }

    /**
     * Calls {@code listener} with the ID of every dictionary loaded so far, then of each one loaded later (on the
     * thread that loads it; keep it short, it must not call back into this manager's loading). Used by metrics
     * binders that give each dictionary its own series.
     */
    public synchronized void onLoaded(java.util.function.LongConsumer listener) {
        Objects.requireNonNull(listener, "listener");
        for (Entry e : snapshot.entries) {
            listener.accept(e.id);
        }
        loadedListeners.add(listener);
    }

    /** @return the counters of loaded dictionary {@code id}, or null when it is not loaded */
    public DictionaryStats dictionaryStats(long id) {
        for (DictionaryStats st : dictionaryStats()) {
            if (st.id() == id) {
                return st;
            }
        }
        return null;
    }

    // ------------------------------------------------------------------------------------------------ training

    /** Every 200 ms on the io thread: watch for drift, start training when the reservoir is ready. */
    private void trainingCheck() {
        if (closed || training.get()) {
            return;
        }
        Entry current = snapshot.current;
        if (!sampler.collecting()) {
            if (drifted(current)) {
                sampler.reset();
                sampler.collecting(true);
            }
            return;
        }
        if (sampler.size() < minSamples || System.nanoTime() - nextLeaseAttempt < 0) {
            return;
        }
        boolean lease;
        try {
            lease = store.tryLease(owner, retrainInterval);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "taking the dictionary training lease failed: " + e);
            return;
        }
        if (!lease) {
            // another client trains (or one trained within the retrain interval; its dictionary will load): ask
            // again later, not every check, so that many clients cost the server little
            long backoff = Math.clamp(retrainInterval.toNanos() / 10, TimeUnit.SECONDS.toNanos(1),
                    TimeUnit.SECONDS.toNanos(60));
            nextLeaseAttempt = System.nanoTime() + backoff;
            return;
        }
        List<byte[]> samples = sampler.samples();
        sampler.reset();
        sampler.collecting(false);
        training.set(true);
        try {
            trainerThread.execute(() -> {
                try {
                    train(samples, current);
                } catch (RuntimeException | Error e) {
                    event(TrainingEvent.Kind.FAILED, 0, samples.size(), Double.NaN, Double.NaN, e.toString());
                    failedTrainings.increment();
                } finally {
                    training.set(false);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            training.set(false);
        }
    }

    /** Whether the saved fraction of recent values fell {@code driftThreshold} below the current one's baseline. */
    private boolean drifted(Entry current) {
        if (current == null) {
            return true; // no dictionary yet (the last attempt was rejected or failed): sample again
        }
        if (current != windowEntry) {
            windowEntry = current;
            windowOriginal = current.originalBytes.sum();
            windowStored = current.storedBytes.sum();
            baseline = Double.NaN;
            return false;
        }
        long original = current.originalBytes.sum() - windowOriginal;
        long stored = current.storedBytes.sum() - windowStored;
        long values = minSamples; // a window of about as many bytes as minSamples values of the sampled size
        if (original < Math.max(64L * values, 1 << 16)) {
            return false;
        }
        double saved = 1 - (double) stored / original;
        windowOriginal += original;
        windowStored += stored;
        if (Double.isNaN(baseline)) {
            baseline = saved;
            return false;
        }
        return saved < baseline - driftThreshold;
    }

    private void train(List<byte[]> samples, Entry current) {
        Collections.shuffle(samples, new Random());
        int held = Math.max(1, samples.size() / 5);
        List<byte[]> heldOut = samples.subList(0, held);
        List<byte[]> trainSet = samples.subList(held, samples.size());
        ZstdDictionary dict;
        try {
            dict = ZstdDictionary.trainer(dictionaryCapacity).level(Math.max(0, level)).train(trainSet);
        } catch (RuntimeException e) {
            event(TrainingEvent.Kind.FAILED, 0, samples.size(), Double.NaN, Double.NaN, e.getMessage());
            failedTrainings.increment();
            return;
        }
        double before = savedFraction(heldOut, current == null ? null : current.compressionDictionary(level));
        double after;
        try (ZstdCompressionDictionary cd = dict.forCompression(level)) {
            after = savedFraction(heldOut, cd);
        }
        event(TrainingEvent.Kind.TRAINED, dict.id(), samples.size(), before, after,
                dict.size() + "-byte dictionary from " + trainSet.size() + " samples, checked on " + held);
        trained.increment(); // counters after events: whoever sees a count sees its event
        if (after - before < minImprovement) {
            event(TrainingEvent.Kind.REJECTED, dict.id(), samples.size(), before, after,
                    String.format(java.util.Locale.ROOT, "held-out saved fraction %.1f%% against %.1f%% %s: %+.1f"
                                    + " points, needs +%.1f (Builder.minImprovement)", 100 * after, 100 * before,
                            current == null ? "without a dictionary" : "with dictionary " + current.id,
                            100 * (after - before), 100 * minImprovement));
            rejectedTrainings.increment();
            return;
        }
        try {
            store.putIfAbsent(dict.id(), dict.toByteArray());
        } catch (DictionaryCollisionException e) {
            event(TrainingEvent.Kind.REJECTED, dict.id(), samples.size(), before, after, e.getMessage());
            rejectedTrainings.increment();
            return;
        }
        event(TrainingEvent.Kind.ADOPTED, dict.id(), samples.size(), before, after,
                String.format(java.util.Locale.ROOT, "published; held-out saved fraction %.1f%% against %.1f%%",
                        100 * after, 100 * before));
        adopted.increment();
        refresh(); // load it here, on the trainer thread: it compresses from now on
    }

    /** Saved fraction of {@code samples} as the compressor would store them (header included, never larger). */
    private double savedFraction(List<byte[]> samples, ZstdCompressionDictionary dict) {
        long original = 0;
        long stored = 0;
        ZstdCompressor.Builder b = ZstdCompressor.builder().level(level);
        if (dict != null) {
            b.dictionary(dict);
        }
        try (ZstdCompressor c = b.build()) {
            byte[] out = new byte[0];
            for (byte[] s : samples) {
                if (out.length < s.length) {
                    out = new byte[s.length];
                }
                long n = s.length - 1 - ValueFormat.HEADER_SIZE < 1 ? -1
                        : c.tryCompress(MemorySegment.ofArray(s),
                        MemorySegment.ofArray(out).asSlice(0, s.length - 1 - ValueFormat.HEADER_SIZE));
                original += s.length;
                stored += n < 0 ? s.length : n + ValueFormat.HEADER_SIZE;
            }
        }
        return original == 0 ? 0 : 1 - (double) stored / original;
    }

    private void event(TrainingEvent.Kind kind, long id, int samples, double before, double after, String reason) {
        TrainingEvent e = new TrainingEvent(Instant.now(), kind, id, samples, before, after, reason);
        synchronized (eventLock) {
            if (events.size() == MAX_EVENTS) {
                events.removeFirst();
            }
            events.addLast(e);
        }
        System.Logger.Level lvl = kind == TrainingEvent.Kind.FAILED ? System.Logger.Level.WARNING
                : System.Logger.Level.INFO;
        LOG.log(lvl, "zstd dictionary training: " + kind + " " + (id == 0 ? "" : "id " + id + " ") + reason);
    }

    // ------------------------------------------------------------------------------------------------ inspection

    /** @return the store this manager reads and publishes in, or null (given mode without a store) */
    public DictionaryStore store() {
        return store;
    }

    /**
     * @return the dictionaries published in the store, oldest first, with ids, sizes and sequence (read from the
     *         store now); in given mode without a store, the given dictionaries
     */
    public List<DictionaryInfo> published() {
        if (store != null) {
            return store.list();
        }
        List<DictionaryInfo> out = new ArrayList<>();
        for (Entry e : snapshot.entries) {
            out.add(new DictionaryInfo(e.id, e.sequence, e.size));
        }
        return out;
    }

    /** @return the id of the dictionary compressing new values, or 0 when none does */
    public long currentId() {
        Entry c = snapshot.current;
        return c == null ? 0 : c.id;
    }

    /** @return whether the dictionary {@code id} is loaded (values compressed with it can be read) */
    public boolean isLoaded(long id) {
        return find(id) != null;
    }

    /** @return ids of published entries that were refused, with the reason (their values cannot be read) */
    public Map<Long, String> rejectedDictionaries() {
        return Map.copyOf(rejected);
    }

    /** @return counters of every loaded dictionary, oldest first */
    public List<DictionaryStats> dictionaryStats() {
        Snapshot s = snapshot;
        List<Entry> list = new ArrayList<>(Arrays.asList(s.entries));
        list.sort((a, b) -> Long.compare(a.sequence, b.sequence));
        List<DictionaryStats> out = new ArrayList<>(list.size());
        for (Entry e : list) {
            long original = e.originalBytes.sum();
            out.add(new DictionaryStats(e.id, e.sequence, e.size, e == s.current, e.valuesWritten.sum(), original,
                    original - e.storedBytes.sum(), e.valuesRead.sum()));
        }
        return out;
    }

    /** @return training counters and the most recent training events (all zero unless managed) */
    public TrainingStats trainingStats() {
        // counters first, then events: each event is recorded before its counter, so every count read has its event
        long t = trained.sum();
        long a = adopted.sum();
        long r = rejectedTrainings.sum();
        long f = failedTrainings.sum();
        List<TrainingEvent> recent;
        synchronized (eventLock) {
            recent = List.copyOf(events);
        }
        return new TrainingStats(t, a, r, f, sampler == null ? 0 : sampler.size(), recent);
    }

    /** Stops the background threads. Compressors using this manager must not be used afterwards. Idempotent. */
    @Override
    public void close() {
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
        io.shutdownNow();
        if (trainerThread != null) {
            trainerThread.shutdownNow();
        }
        if (sampler != null) {
            sampler.collecting(false);
            sampler.reset();
        }
    }

    // ------------------------------------------------------------------------------------------------ types

    private record Snapshot(Entry[] entries, Entry current) {
        static final Snapshot EMPTY = new Snapshot(new Entry[0], null);
    }

    /** One loaded dictionary: its digested forms and counters. Thread-safe. */
    static final class Entry {
        final long id;
        final long sequence;
        final int size;
        final boolean given;
        final ZstdDictionary dictionary;
        final ZstdDecompressionDictionary decompression;
        final LongAdder valuesWritten;
        final LongAdder originalBytes;
        final LongAdder storedBytes;
        final LongAdder valuesRead;
        private volatile ZstdCompressionDictionary compression;

        Entry(long id, long sequence, ZstdDictionary dictionary, ZstdDecompressionDictionary decompression,
              boolean given) {
            this.id = id;
            this.sequence = sequence;
            this.size = dictionary.size();
            this.given = given;
            this.dictionary = dictionary;
            this.decompression = decompression;
            this.valuesWritten = new LongAdder();
            this.originalBytes = new LongAdder();
            this.storedBytes = new LongAdder();
            this.valuesRead = new LongAdder();
        }

        /** The same dictionary and counters at its now known place in the order. */
        Entry(Entry e, long sequence) {
            this.id = e.id;
            this.sequence = sequence;
            this.size = e.size;
            this.given = e.given;
            this.dictionary = e.dictionary;
            this.decompression = e.decompression;
            this.valuesWritten = e.valuesWritten;
            this.originalBytes = e.originalBytes;
            this.storedBytes = e.storedBytes;
            this.valuesRead = e.valuesRead;
            this.compression = e.compression;
        }

        /** @return the dictionary digested for compression at {@code level} (digested on first use per level) */
        ZstdCompressionDictionary compressionDictionary(int level) {
            ZstdCompressionDictionary c = compression;
            if (c != null && c.level() == level) {
                return c;
            }
            synchronized (this) {
                c = compression;
                if (c == null || c.level() != level) {
                    c = dictionary.forCompression(level);
                    compression = c;
                }
                return c;
            }
        }

        /** Counts a value offered while this dictionary was current: its size and its stored size. */
        void countWrite(long original, long stored, boolean compressed) {
            if (compressed) {
                valuesWritten.increment();
            }
            originalBytes.add(original);
            storedBytes.add(stored);
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
        private int level = 3;
        private int maxDictionarySize = 1 << 20;
        private Duration loadTimeout = Duration.ofSeconds(10);
        private Duration refreshInterval = Duration.ofSeconds(10);
        private Duration retrainInterval = Duration.ofHours(1);
        private int dictionaryCapacity = 16 << 10;
        private int minSamples = 1000;
        private int maxSamples = 4000;
        private long maxSampleBytes = 4L << 20;
        private int maxSampleSize = 16 << 10;
        private long sampleBytesPerSecond = 1L << 20;
        private double minImprovement = 0.05;
        private double driftThreshold = 0.05;
        private boolean notifications = true;

        private Builder(Mode mode, DictionaryStore store) {
            this.mode = mode;
            this.store = store;
        }

        /** The store to load (and, when managed, publish) dictionaries; in given mode optional, for reading only. */
        public Builder store(DictionaryStore store) {
            this.store = Objects.requireNonNull(store, "store");
            return this;
        }

        /** The zstd level dictionaries are digested and trained for (default 3, as the compressor's default). */
        public Builder level(int level) {
            this.level = level;
            return this;
        }

        /** Largest dictionary accepted from a store or given, in bytes (default 1 MiB); larger is refused unread. */
        public Builder maxDictionarySize(int bytes) {
            this.maxDictionarySize = bytes;
            return this;
        }

        /** How long {@link #build()} may take to load the published dictionaries (default 10 s). */
        public Builder loadTimeout(Duration timeout) {
            this.loadTimeout = Objects.requireNonNull(timeout, "timeout");
            return this;
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

        /** How often the store's publication counter is checked for new dictionaries (default 10 s). */
        public Builder refreshInterval(Duration interval) {
            this.refreshInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /**
         * Managed: the least time between two trainings across all clients of the store (default 1 hour): the
         * trainer's lease lasts this long.
         */
        public Builder retrainInterval(Duration interval) {
            this.retrainInterval = Objects.requireNonNull(interval, "interval");
            return this;
        }

        /** Managed: the size of trained dictionaries in bytes (default 16 KiB; zstd's minimum is 256). */
        public Builder dictionarySize(int bytes) {
            this.dictionaryCapacity = bytes;
            return this;
        }

        /** Managed: train once the reservoir holds this many samples (default 1000; at least 10). */
        public Builder minSamples(int samples) {
            this.minSamples = samples;
            return this;
        }

        /**
         * Managed: bounds of the sampling reservoir: at most {@code maxSamples} values (default 4000) of at most
         * {@code maxSampleSize} bytes each (longer values contribute their first bytes; default 16 KiB), at most
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
         * than the current one's (default 0.05: five percentage points).
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

        /**
         * Validates the settings and the given dictionaries, loads every published dictionary from the store (within
         * the load timeout) and starts the background threads.
         *
         * @throws IllegalArgumentException if a setting or a given dictionary is not valid
         * @throws IllegalStateException    if the store cannot be read within the load timeout
         */
        public DictionaryManager build() {
            if (maxDictionarySize < 256 || maxDictionarySize > (64 << 20)) {
                throw new IllegalArgumentException("maxDictionarySize " + maxDictionarySize
                        + " is out of range 256.." + (64 << 20));
            }
            if (level < dev.zstdjava.zstd.Zstd.minLevel() || level > dev.zstdjava.zstd.Zstd.maxLevel()) {
                throw new IllegalArgumentException("zstd level " + level + " is out of range");
            }
            if (dictionaryCapacity < ZstdDictionary.MIN_CAPACITY || dictionaryCapacity > maxDictionarySize) {
                throw new IllegalArgumentException("dictionarySize " + dictionaryCapacity + " is out of range "
                        + ZstdDictionary.MIN_CAPACITY + ".." + maxDictionarySize + " (maxDictionarySize)");
            }
            if (minSamples < 10 || maxSamples < minSamples) {
                throw new IllegalArgumentException("minSamples " + minSamples + " must be at least 10 and at most"
                        + " maxSamples " + maxSamples);
            }
            if (maxSampleSize < 8 || maxSampleBytes < maxSampleSize || sampleBytesPerSecond < 1) {
                throw new IllegalArgumentException("sampling limits: maxSampleSize " + maxSampleSize + " >= 8,"
                        + " maxBytes " + maxSampleBytes + " >= maxSampleSize, bytesPerSecond "
                        + sampleBytesPerSecond + " >= 1");
            }
            if (!(minImprovement >= 0 && minImprovement <= 1) || !(driftThreshold > 0 && driftThreshold <= 1)) {
                throw new IllegalArgumentException("minImprovement " + minImprovement + " must be in 0..1 and"
                        + " driftThreshold " + driftThreshold + " in (0, 1]");
            }
            if (loadTimeout.isNegative() || loadTimeout.isZero() || refreshInterval.isNegative()
                    || refreshInterval.isZero() || retrainInterval.isNegative() || retrainInterval.isZero()) {
                throw new IllegalArgumentException("loadTimeout, refreshInterval and retrainInterval must be positive");
            }
            DictionaryManager m = new DictionaryManager(this);
            try {
                m.start(given, loadTimeout, refreshInterval, notifications);
            } catch (RuntimeException e) {
                m.close();
                throw e;
            }
            return m;
        }
    }

    @Override
    public String toString() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("mode", mode);
        m.put("loaded", snapshot.entries.length);
        m.put("current", currentId());
        return "DictionaryManager" + m;
    }
}
