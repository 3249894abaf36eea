package dev.zstdjava.values;

import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDictionary;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Managed mode's training: samples the values written, takes the store's training lease, trains a dictionary on its
 * own thread, checks it on held-out samples, publishes it when it saves enough more than the current one, and
 * samples again when the saved fraction drifts.
 *
 * <p><b>Thread safety:</b> {@link #check} runs every 200 ms on the manager's io thread and alone owns the lease
 * back-off and the drift window (thread confinement, no lock). A training runs on the trainer thread with what the
 * check handed it (the samples, the then current entry); {@link #training} (compare-and-set) keeps it to one at a
 * time. The {@link Sampler} is thread-safe on its own; results go to the lock-free {@link TrainingLog}; the adopted
 * dictionary is loaded through {@link StoreSync#refresh}, under the manager's lock.
 */
final class Trainer {
    private static final System.Logger LOG = System.getLogger(DictionaryManager.class.getName());

    private final DictionarySettings settings;
    private final DictionaryStore store;
    private final DictionaryRegistry registry;
    private final StoreSync sync;
    private final TrainingLog log;
    private final Sampler sampler;
    private final ExecutorService thread;
    private final String owner = UUID.randomUUID().toString();
    private final AtomicBoolean training = new AtomicBoolean();
    private volatile boolean closed;

    // confined to the io thread (check)
    private long nextLeaseAttempt = System.nanoTime();
    /** the id of the dictionary current when sampling began, 0 for none (set before the first check runs) */
    private long samplingFor;
    private DictionaryManager.Entry windowEntry;
    private long windowOriginal;
    private long windowStored;
    private double baseline = Double.NaN;

    Trainer(DictionarySettings settings, DictionaryRegistry registry, StoreSync sync, TrainingLog log,
            java.util.function.Function<String, java.util.concurrent.ThreadFactory> threads) {
        this.settings = settings;
        this.store = settings.store();
        this.registry = registry;
        this.sync = sync;
        this.log = log;
        this.sampler = new Sampler(settings.maxSamples(), settings.maxSampleBytes(), settings.maxSampleSize(),
                settings.sampleBytesPerSecond());
        this.thread = Executors.newSingleThreadExecutor(threads.apply("zstd-java-dictionary-trainer"));
    }

    /** Starts sampling and the periodic check on {@code io}. */
    void start(ScheduledExecutorService io) {
        DictionaryManager.Entry current = registry.current();
        samplingFor = current == null ? 0 : current.id;
        sampler.collecting(true);
        io.scheduleWithFixedDelay(this::check, 200, 200, TimeUnit.MILLISECONDS);
    }

    Sampler sampler() {
        return sampler;
    }

    /** Every 200 ms on the io thread: watch for drift, start training when the reservoir is ready. */
    private void check() {
        if (closed || training.get()) {
            return;
        }
        DictionaryManager.Entry current = registry.current();
        if (!sampler.collecting()) {
            if (drifted(current)) {
                sampler.reset();
                samplingFor = current == null ? 0 : current.id;
                sampler.collecting(true);
            }
            return;
        }
        if (current != null && current.id != samplingFor) {
            // another client's dictionary arrived since sampling began (this client's own stops sampling when it
            // takes the lease): it stands for this training; watch this client's drift against it instead
            stopSampling();
            return;
        }
        // minSamples values, or as many as the reservoir's byte bound holds (values of more than its bytes per
        // minSamples on average: 4 KiB with the defaults)
        if (sampler.size() < Math.min(settings.minSamples(), sampler.limit())
                || System.nanoTime() - nextLeaseAttempt < 0) {
            return;
        }
        Duration interval = settings.retrainInterval();
        boolean lease;
        try {
            lease = store.tryLease(owner, interval);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "taking the dictionary training lease failed: " + e);
            return;
        }
        if (!lease) {
            // another client trains (or one trained within the retrain interval; its dictionary will load): ask
            // again later, not every check, so that many clients cost the server little
            long backoff = Math.clamp(interval.toNanos() / 10, TimeUnit.SECONDS.toNanos(1),
                    TimeUnit.SECONDS.toNanos(60));
            nextLeaseAttempt = System.nanoTime() + backoff;
            if (current != null) {
                // a dictionary is in use and another client holds the lease: that client's training stands for this
                // one's. Back to watching this client's own drift, which alone starts sampling again; else every
                // client that lost the race trained in turn, one per interval, with no drift, each keeping a full
                // reservoir until its turn
                stopSampling();
            }
            return;
        }
        // the lease is this client's for the interval, so no one, this client included, trains again before it ends:
        // a lineage whose dictionary is refused does not ask the store again until then
        nextLeaseAttempt = System.nanoTime() + interval.toNanos();
        sampler.collecting(false);
        List<Sampler.Sample> samples = sampler.samples();
        sampler.reset();
        training.set(true);
        try {
            thread.execute(() -> {
                try {
                    train(samples, current);
                } catch (RuntimeException | Error e) {
                    log.record(TrainingEvent.Kind.FAILED, 0, samples.size(), Double.NaN, Double.NaN, e.toString());
                } finally {
                    training.set(false);
                }
            });
        } catch (RejectedExecutionException e) {
            training.set(false);
        }
    }

    /** Empties the reservoir and stops sampling until {@link #drifted} starts it again. */
    private void stopSampling() {
        sampler.collecting(false);
        sampler.reset();
    }

    /** Whether the saved fraction of recent values fell {@code driftThreshold} below the current one's baseline. */
    private boolean drifted(DictionaryManager.Entry current) {
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
        long values = settings.minSamples(); // a window of about as many bytes as minSamples values
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
        return saved < baseline - settings.driftThreshold();
    }

    /** On the trainer thread: trains, checks on held-out samples, publishes and loads (or records why not). */
    private void train(List<Sampler.Sample> samples, DictionaryManager.Entry current) {
        // a held-out fifth, every copy of a value on one side: checked on values it was not trained on
        HeldOut.Split<Sampler.Sample> split = HeldOut.split(samples, s -> ByteBuffer.wrap(s.bytes()),
                Math.max(1, samples.size() / 5), new Random());
        if (split.train().isEmpty()) {
            log.record(TrainingEvent.Kind.REJECTED, 0, samples.size(), Double.NaN, Double.NaN, "all "
                    + samples.size() + " samples are the same value: no other value to check a dictionary on");
            return;
        }
        List<Sampler.Sample> heldOut = split.heldOut();
        List<byte[]> trainSet = split.train().stream().map(Sampler.Sample::bytes).toList();
        int held = heldOut.size();
        int level = settings.level();
        ZstdDictionary dict;
        try {
            dict = ZstdDictionary.trainer(settings.dictionaryCapacity()).level(Math.max(0, level)).train(trainSet);
        } catch (RuntimeException e) {
            log.record(TrainingEvent.Kind.FAILED, 0, samples.size(), Double.NaN, Double.NaN, e.getMessage());
            return;
        }
        long[] storedBefore = storedSizes(heldOut, current == null ? null : current.dictionary);
        long[] storedAfter = storedSizes(heldOut, dict);
        double[] saved = wholeValueFractions(heldOut, storedBefore, storedAfter);
        double before = saved[0];
        double after = saved[1];
        long longer = heldOut.stream().filter(s -> s.length() > s.bytes().length).count();
        log.record(TrainingEvent.Kind.TRAINED, dict.id(), samples.size(), before, after,
                dict.size() + "-byte dictionary from " + trainSet.size() + " samples, checked on " + held
                        + " (" + split.distinct() + " distinct values in all)" + (longer == 0 ? ""
                        : "; " + longer + " of the " + held + " checked are longer than the " + settings.maxSampleSize()
                        + " bytes sampled of a value, and count whole (the rest of each as compressing as its"
                        + " sampled part does before)"));
        double minImprovement = settings.minImprovement();
        if (after - before < minImprovement) {
            log.record(TrainingEvent.Kind.REJECTED, dict.id(), samples.size(), before, after,
                    String.format(Locale.ROOT, "held-out saved fraction %.1f%% against %.1f%% %s: %+.1f"
                                    + " points, needs +%.1f (Builder.minImprovement)", 100 * after, 100 * before,
                            current == null ? "without a dictionary" : "with dictionary " + current.id,
                            100 * (after - before), 100 * minImprovement));
            return;
        }
        if (closed) {
            return; // the manager closed during the training: it publishes nothing
        }
        byte[] bytes = dict.toByteArray();
        String refusal = settings.publishCheck() == null ? null : settings.publishCheck().refusal(dict.id(), bytes);
        if (refusal != null) {
            log.record(TrainingEvent.Kind.REJECTED, dict.id(), samples.size(), before, after, refusal
                    + "; not published (a training after the retrain interval gets another id)");
            return;
        }
        try {
            store.putIfAbsent(dict.id(), bytes);
        } catch (DictionaryCollisionException e) {
            log.record(TrainingEvent.Kind.REJECTED, dict.id(), samples.size(), before, after, e.getMessage());
            return;
        }
        // load it here, on the trainer thread: it compresses from now on. The publication stands whatever the load
        // does: a failure to read it back now is said in the adoption's event, not recorded as a failed training
        String notLoaded = null;
        if (!closed) {
            try {
                sync.refresh();
            } catch (RuntimeException e) {
                notLoaded = e.toString();
            }
        }
        String overBound = notLoaded != null || registry.find(dict.id()) != null || sync.beyondBound(dict.id()) == null
                ? null : "it does not fit within the bound of " + settings.maxLoadedBytes() + " bytes (DictionaryManager"
                + ".Builder.maxLoadedBytes) beside the dictionaries never evicted (given, or compressing); the manager"
                + " compresses on with the newest loaded one";
        log.record(TrainingEvent.Kind.ADOPTED, dict.id(), samples.size(), before, after,
                String.format(Locale.ROOT, "published; held-out saved fraction %.1f%% against %.1f%%",
                        100 * after, 100 * before) + (overBound != null ? "; not loaded: " + overBound
                        : notLoaded == null ? ""
                        : "; not loaded yet: reading it back from the store failed (" + notLoaded + "); the"
                        + " store's next check (every Builder.refreshInterval) loads it, and it compresses from then"));
    }

    /**
     * What each sample would be stored as by the compressor (header included, never larger than the sample), with
     * {@code dict} (null: none) digested here for the configured level and freed before returning.
     */
    private long[] storedSizes(List<Sampler.Sample> samples, ZstdDictionary dict) {
        long[] stored = new long[samples.size()];
        ZstdCompressor.Builder b = ZstdCompressor.builder().level(settings.level());
        try (ZstdCompressionDictionary cd = dict == null ? null : dict.forCompression(settings.level())) {
            if (cd != null) {
                b.dictionary(cd);
            }
            try (ZstdCompressor c = b.build()) {
                byte[] out = new byte[0];
                for (int i = 0; i < stored.length; i++) {
                    byte[] s = samples.get(i).bytes();
                    if (out.length < s.length) {
                        out = new byte[s.length];
                    }
                    long n = s.length - 1 - ValueFormat.HEADER_SIZE < 1 ? -1
                            : c.tryCompress(MemorySegment.ofArray(s),
                            MemorySegment.ofArray(out).asSlice(0, s.length - 1 - ValueFormat.HEADER_SIZE));
                    stored[i] = n < 0 ? s.length : n + ValueFormat.HEADER_SIZE;
                }
            }
        }
        return stored;
    }

    /**
     * The saved fractions of the values the samples were taken from, before and after, over their whole lengths. A
     * sample holds a long value's first bytes only; the rest of the value is counted as compressing as the sample
     * does before, with the new dictionary too: a dictionary's gain is in a value's first bytes, so it is counted
     * once per value, in bytes, not as a share of each sample (which overstates it for long values; docs/dictionaries.md
     * gives a measured case).
     */
    static double[] wholeValueFractions(List<Sampler.Sample> samples, long[] storedBefore, long[] storedAfter) {
        double whole = 0;
        double before = 0;
        double after = 0;
        for (int i = 0; i < storedBefore.length; i++) {
            Sampler.Sample s = samples.get(i);
            int held = s.bytes().length;
            double rest = held == 0 ? 0 : (double) (s.length() - held) * storedBefore[i] / held;
            whole += s.length();
            before += storedBefore[i] + rest;
            after += storedAfter[i] + rest;
        }
        return whole == 0 ? new double[] {0, 0} : new double[] {1 - before / whole, 1 - after / whole};
    }

    /**
     * Stops sampling and the trainer thread (a training in progress ends by itself, publishing nothing; its result
     * loads nowhere).
     */
    void close() {
        closed = true;
        thread.shutdownNow();
        sampler.collecting(false);
        sampler.reset();
    }
}
