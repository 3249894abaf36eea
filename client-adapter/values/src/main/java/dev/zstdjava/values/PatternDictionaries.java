package dev.zstdjava.values;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.UnaryOperator;

/**
 * A dictionary lineage per key pattern, for {@link AdaptiveCompressor.Builder#dictionaries(PatternDictionaries)}:
 * each pattern gets its own managed {@link DictionaryManager} over its own {@link DictionaryStore} (for a server
 * store, its own key prefix, {@link #prefix(String)}), so it trains on its own sampled values, publishes its own
 * dictionaries and takes its own training lease: one busy pattern never holds the lease another one needs.
 *
 * <h2>Lineages</h2>
 * A pattern's lineage is opened once the pattern has had as many sampled writes as it needs to leave its default
 * option ({@link AdaptiveCompressor.Builder#window}'s {@code minSamples}, 8 by default), so a pattern seen a few
 * times (every pattern of a keyspace of random keys) never makes a lineage or a store: the store is asked of the
 * application's function once per lineage made (a pattern's again after its lineage was dropped, see "Bounded under
 * churn"), under the pattern's {@linkplain #lineageName(String) lineage name}, and the manager is
 * built on this object's own thread (never a writing or reading thread: building loads the published dictionaries
 * from the store), so the pattern writes without a dictionary until the lineage is open and has one. The adaptive
 * compressor hands the lineage every sampled value of the pattern (the manager's own sampling limits apply), so with
 * the default settings a pattern trains after some 1,000 sampled writes (about 64,000 writes); set
 * {@link DictionaryManager.Builder#minSamples} lower through {@link Builder#manager} for fewer. A store that cannot be
 * made or read, or a training that fails or is not adopted, leaves the pattern on its best option without a
 * dictionary (an opening that failed is tried again after the {@linkplain Builder#reopenDelay reopen delay}).
 *
 * <h2>Native memory</h2>
 * The native digests of the dictionaries loaded across all lineages are bounded by {@link Builder#maxNativeBytes}
 * (64 MiB by default). Their size is an estimate of what libzstd allocates for them ({@link #estimatedNativeBytes}):
 * per loaded dictionary its decompression digest, a copy of it and {@value #DIGEST_OVERHEAD} bytes of tables; and
 * for the dictionary a lineage writes with, its compression digest at level 3, another copy and the level's match
 * tables, 128 KiB to 832 KiB by the dictionary's size (measured with zstd 1.5.7: 111, 399 and 785 KiB). When the sum is above the bound, the lineages used least recently (a write with
 * a lineage's dictionary, sampled or not, a sampled write of its pattern and a read with its dictionary are uses) are
 * released (their managers closed, native memory freed as {@link DictionaryManager#close()} describes, and the
 * contexts their patterns wrote with and the reader's decompressors of their dictionaries freed too) until it is
 * within it.
 * A released pattern writes with zstd 3 until its next sampled write, which takes its best option without a
 * dictionary; it reopens for writing no sooner than the reopen delay after it was released. At most
 * {@linkplain Builder#maxOpenLineages 256 lineages} are open at once (each runs its manager's threads), the least
 * recently used released beyond that.
 *
 * <h2>Bounded under churn</h2>
 * Besides the open lineages, at most as many more ({@link Builder#maxOpenLineages}) are kept closed (a released one,
 * one that failed to open): beyond that the least recently used closed lineage is dropped, its name, store, and the
 * ids of the dictionaries it loaded forgotten. So patterns that come and go (evicted from the adaptive compressor's
 * pattern table, new ones arriving) keep at most twice that many lineages here, whatever their number over time. No
 * value is lost by it: a lineage is dropped only once every dictionary id it loaded has its claim in the
 * {@link #ID_CLAIMS} store checked (see "Dictionary ids"; an id whose claim cannot be checked keeps its lineage until
 * it can), so a read of a value written with one of its dictionaries finds the lineage again by the id's claim, which
 * names it: it fails once with {@link MissingDictionaryException} while the lineage is made again by that name (its
 * store asked of the function again) and opened, and reads when retried, as a released lineage's value does. A
 * pattern that comes back gets a new lineage at its next sampled write (over the same store, so with the same
 * dictionaries), not opened for writing before the reopen delay since its release. An id a dropped lineage loaded
 * and an open one holds too (the same bytes) is found in the open one when its claim names it. The openings waiting
 * for this object's thread are bounded too: while {@link Builder#maxOpenLineages} of them wait (patterns arriving
 * faster than their lineages open, or a slow store function), a pattern with no lineage gets none and one closed is
 * not opened for writing: it writes without a dictionary, and its next sampled write asks again.
 *
 * <h2>Reading</h2>
 * The adaptive compressor's {@linkplain AdaptiveCompressor#reader() reader} (which every adapter reads with, in every
 * form, and {@link AdaptiveCompressor#decompress(byte[])} too) reads a value written with a dictionary of a lineage
 * this object has open: the frame's dictionary id leads to the lineage that loaded it, and there to its manager's
 * dictionary. A value of a released lineage fails with {@link MissingDictionaryException} once, while the lineage is
 * reopened from its store on this object's thread (which may release others); retried, it reads (the reopened
 * lineage loads its dictionaries anew, and a reader never decodes with the released ones). A value of a dictionary
 * no lineage here has loaded (one another process published) fails with {@code MissingDictionaryException} while,
 * on this object's thread, the id's claim in the {@link #ID_CLAIMS} store is looked up (at most once a second per
 * id, for at most {@value #MAX_CLAIM_LOOKUPS} ids at once or within that second: beyond them the exception says the
 * claim is not looked up; within the second after the id's own look-up found no claim, it says that): the lineage
 * it names fetches the dictionary from its store (or, if closed, dropped or not made here yet, is made by that name
 * and opened), and the read, retried, succeeds. So a value of a pattern this process has
 * not written reads too, once its lineage has claimed the id (a claim that names no lineage's name, as
 * {@link #lineageName} spells it for some pattern, is not followed: no other store key is asked for).
 *
 * <h2>Dictionary ids</h2>
 * A frame names its dictionary by zstd's id, a hash of the dictionary (about 31 bits), not by its pattern, so two
 * lineages' dictionaries can share an id, and a value decoded with the other one can come back as wrong bytes with
 * no error (the frames carry no checksum). So every lineage claims the ids of its dictionaries in one more store,
 * {@link #ID_CLAIMS}'s (asked of the store function once, before the first lineage opens; a lineage does not open
 * without it), shared by every process of the keyspace: a claim is written once, the dictionary's content hash and
 * the lineage's name. A lineage publishes a dictionary only under an id it claimed (else the training is rejected,
 * naming the lineage that holds the id, and one after the retrain interval gets another id), and claims each
 * dictionary it loads, published before claims or not. An id two lineages hold with different bytes all the same
 * (seen here, or in the claims) is read with neither: a value written with it fails with
 * {@link MissingDictionaryException} naming both, rather than come back decoded with the wrong one, a warning is
 * logged, and no pattern of this process writes with it from then on. A lineage checks the claim of each of its
 * dictionaries once (claims are never replaced): not again when it reopens after a release.
 *
 * <h2>Read-only lineages</h2>
 * Under compressors whose goal never writes with a dictionary ({@link CompressionGoal#speed() SPEED}: lz4 or plain),
 * every lineage is read-only: it opens as above and loads, refreshes and fetches on a read's miss the dictionaries
 * other writers published in its store (so the reader reads their values), but samples nothing into a reservoir,
 * never trains, takes no training lease, publishes nothing and digests no dictionary for compression (it still
 * claims, as every lineage does, an id it loads that no claim names yet). The first compressor built with this object
 * decides, for its life: compressors of the other kind are refused ({@link AdaptiveCompressor.Builder#build()}); give
 * each kind its own {@code PatternDictionaries} over the same stores.
 *
 * <h2>Readers without the dictionaries</h2>
 * Values written with a dictionary are zstd frames with a dictionary, which Valkey GLIDE cannot read (it returns them
 * as the stored bytes), as with any {@link DictionaryManager}: keep GLIDE readers off the patterns this applies to.
 *
 * <p><b>Thread safety:</b> thread-safe; share one between the {@link AdaptiveCompressor}s of one kind (see
 * "Read-only lineages"). Opening, releasing, the memory
 * bound and the claim look-ups of missed reads run on one daemon thread of this object (a reading thread makes no
 * store call); each open lineage also runs its manager's two daemon threads.
 * {@link #close()} closes every manager (waiting at most one load timeout in all); the compressors using it then write
 * as released patterns do, and their readers fail a value of its dictionaries with {@link IllegalStateException}
 * naming it.
 *
 * <p><b>Allocation:</b> writing with a pattern's dictionary allocates what {@link ValueCompressor#compress(byte[])}
 * does; a read finds its dictionary's id in a sorted array (a binary search, no allocation; a miss allocates its
 * exception, and the look-up of the id's claim when it starts one). Each lineage kept keeps its name and the ids whose
 * claim it checked, and this object the ids of the dictionaries each loaded (see "Bounded under churn").
 */
public final class PatternDictionaries implements AutoCloseable {
    /** The default bound on the estimated native memory of loaded dictionaries across all patterns: 64 MiB. */
    public static final long DEFAULT_MAX_NATIVE_BYTES = 64L << 20;
    /** The estimated native bytes of one loaded dictionary's decompression digest beyond its size: 32 KiB. */
    public static final int DIGEST_OVERHEAD = 32 << 10;
    /** Default of {@link Builder#reopenDelay}: 10 seconds. */
    public static final Duration DEFAULT_REOPEN_DELAY = Duration.ofSeconds(10);
    /**
     * The name the store function is also asked for, once: the store in which every lineage claims the ids of its
     * dictionaries, shared by every process of the keyspace ({@code ~} is in no lineage name shorter than
     * {@value #MAX_NAME_LENGTH} characters, so no pattern's lineage has it).
     */
    public static final String ID_CLAIMS = "~dictionary-ids";
    /** The start of every lineage's {@linkplain #prefix(String) prefix}; the name and {@code "}:"} follow. */
    private static final String LINEAGE_PREFIX = "zstd-java:dict:{zstd-java-dictionaries:";
    private static final byte[] LINEAGE_PREFIX_BYTES = LINEAGE_PREFIX.getBytes(StandardCharsets.US_ASCII);
    /** Longest lineage name: longer names are cut and end with a hash of the whole name. */
    static final int MAX_NAME_LENGTH = 96;

    /** The most ids whose claim is looked up (or was, within the retry delay) at once, as a manager's fetches. */
    static final int MAX_CLAIM_LOOKUPS = 64;
    /** The least time between two look-ups of one id's claim, as between a manager's fetches of one id. */
    static final long CLAIM_LOOKUP_RETRY_NANOS = TimeUnit.SECONDS.toNanos(1);

    private static final System.Logger LOG = System.getLogger(AdaptiveCompressor.class.getName());

    private final Function<String, DictionaryStore> stores;
    private final UnaryOperator<DictionaryManager.Builder> settings;
    private final long maxNativeBytes;
    private final int maxOpen;
    private final long reopenDelayNanos;
    /** The longest {@link #close()} waits: the lineages' managers' load timeout (as a manager's close). */
    private final long closeWaitNanos;
    /** the lineages kept, by lineage name: the open ones, and at most {@code maxOpen} others (see {@link #trim}) */
    private final ConcurrentHashMap<String, Lineage> lineages = new ConcurrentHashMap<>();
    /** every dictionary id a lineage loaded or is publishing, with its lineage */
    private final DictionaryOwners<Lineage> byId = new DictionaryOwners<>((l, id) -> "pattern " + l.pattern
            + "'s lineage" + (l.store == null ? "" : " (" + Locations.of(l.store, id) + ")"));
    /**
     * whether an id is held with different bytes (by two lineages, or by one and another's claim): then each write
     * looks its lineage's current id up among the ambiguous ones, which no lineage writes with
     */
    private volatile boolean anyAmbiguous;
    /** the store of {@link #ID_CLAIMS}, made before the first lineage opens (on the worker thread) */
    private volatile DictionaryStore claims;
    /**
     * A coarse clock for the writes with a lineage's dictionary, which mark their lineage used with it
     * ({@link Lineage#usedByWrite}): the latest {@link System#nanoTime()} that a sampled write or a read took to
     * mark its lineage used ({@link #now()}), moved at most once per {@link #USE_GRANULARITY_NANOS}.
     * <p>Why not a clock read per write: such writes are the hot path of every pattern on its dictionary, and a clock
     * read (some 20 ns) and a store to a shared field on each (contended between the writing threads) would be paid
     * on all of them for a ranking only a release pass reads. Why not an epoch the release pass advances: passes come
     * with loads, which may be hours apart, and every lineage used in between would rank alike. With this clock a
     * write costs a volatile read and a compare, and stores only when the clock has moved (at most once per
     * granularity per lineage), and the ranking is right up to the granularity: the clock is at most the granularity
     * behind any use of a lineage that read it, so a write after that use marks its lineage later than that use, and
     * no more than the granularity later than the write itself.
     */
    private final java.util.concurrent.atomic.AtomicLong coarseNow = new java.util.concurrent.atomic.AtomicLong(
            System.nanoTime());
    /** How far {@link #coarseNow} may lag a clock read by a use, and how much a write's mark adds to it: 1 ms. */
    static final long USE_GRANULARITY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    /** the ids whose claim a read's miss is looking up, or looked up less than the retry delay ago */
    private final ConcurrentHashMap<Long, ClaimLookup> claimLookups = new ConcurrentHashMap<>();
    /**
     * The readers over {@link #lookup()} (the adaptive compressors'), weakly held: a lineage's release frees their
     * decompressors of its dictionaries, which would otherwise keep the native memory of the released digests
     */
    private final Set<ValueCompressor> readers = java.util.Collections.synchronizedSet(
            java.util.Collections.newSetFromMap(new java.util.WeakHashMap<>()));
    /** the worker's thread, so that {@link #close()} called on it does not wait for itself */
    private volatile Thread workerThread;
    private final ExecutorService worker = Executors.newSingleThreadExecutor(r -> {
        Thread t = DictionaryManager.daemon("zstd-java-pattern-dictionaries").newThread(r);
        workerThread = t;
        return t;
    });
    private volatile boolean closed;
    /** the goal of the first compressor served ({@link #serve}), or null; guarded by this */
    private CompressionGoal servedGoal;
    /** whether lineages open read-only: the compressors served never write with a dictionary */
    private volatile boolean readOnly;
    /** the configuration of the first compressor served, for a lineage a read's claim look-up makes */
    private volatile CompressionConfig servedConfig;
    /**
     * the openings submitted to the worker and not yet run: a write's opening is not submitted, and a new pattern's
     * lineage not made, while {@code maxOpen} are (see {@link Lineage#open}), so patterns arriving faster than the
     * worker opens lineages do not queue without bound
     */
    private final java.util.concurrent.atomic.AtomicInteger openingsWaiting =
            new java.util.concurrent.atomic.AtomicInteger();

    private PatternDictionaries(Builder b) {
        this.stores = b.stores;
        this.settings = b.settings;
        this.maxNativeBytes = b.maxNativeBytes;
        this.maxOpen = b.maxOpen;
        this.reopenDelayNanos = b.reopenDelay.toNanos();
        this.closeWaitNanos = loadTimeoutOf(b.settings);
    }

    /**
     * @param stores gives the store of a pattern's lineage, from its {@linkplain #lineageName(String) lineage name}:
     *               called once per lineage made (again for a lineage made anew after it was dropped), and once
     *               with {@link #ID_CLAIMS} for the store of the dictionary id claims, on this object's thread; for a
     *               server store, one with {@link #prefix(String) prefix(name)} as its key prefix (a store per name
     *               in memory)
     * @return a builder with the default memory bound and manager settings
     */
    public static Builder builder(Function<String, DictionaryStore> stores) {
        return new Builder(Objects.requireNonNull(stores, "stores"));
    }

    /**
     * @return the name of {@code pattern}'s lineage: the pattern with every character but ASCII letters, digits and
     *         {@code - _ . : *} written as {@code %XX} (its UTF-8 bytes; so distinct patterns have distinct names),
     *         at most {@value #MAX_NAME_LENGTH} characters (a longer one is cut and ends with {@code ~} and 16 hex
     *         digits of a 64-bit hash of the whole)
     */
    public static String lineageName(String pattern) {
        StringBuilder sb = new StringBuilder(pattern.length() + 8);
        for (byte b : pattern.getBytes(StandardCharsets.UTF_8)) {
            char c = (char) (b & 0xFF);
            if (c < 0x80 && (Character.isLetterOrDigit(c) || "-_.:*".indexOf(c) >= 0)) {
                sb.append(c);
            } else {
                sb.append('%').append(Character.toUpperCase(Character.forDigit((b >> 4) & 0xF, 16)))
                        .append(Character.toUpperCase(Character.forDigit(b & 0xF, 16)));
            }
        }
        if (sb.length() <= MAX_NAME_LENGTH) {
            return sb.toString();
        }
        long h = 0xcbf29ce484222325L; // FNV-1a, 64 bits
        for (int i = 0; i < sb.length(); i++) {
            h = (h ^ sb.charAt(i)) * 0x100000001b3L;
        }
        return sb.substring(0, MAX_NAME_LENGTH - 17) + "~" + String.format("%016x", h);
    }

    /**
     * @return the key prefix of {@code lineageName}'s lineage in a server store: {@code zstd-java:dict:{zstd-java-
     *         dictionaries:<name>}:}, one hash tag per lineage (so each lineage's keys share a cluster slot), valid
     *         for {@link ServerDictionaryLayout}
     */
    public static String prefix(String lineageName) {
        return ServerDictionaryLayout.checkPrefix(LINEAGE_PREFIX + lineageName + "}:");
    }

    /**
     * @return whether {@code key} is under the {@linkplain #prefix(String) prefix} of a lineage's server store (the
     *         id claims' included): a dictionary store's key, not a value, for a tool that scans the keyspace
     */
    public static boolean isLineageKey(byte[] key) {
        int n = LINEAGE_PREFIX_BYTES.length;
        if (key.length < n + 2 || !Arrays.equals(key, 0, n, LINEAGE_PREFIX_BYTES, 0, n)) {
            return false;
        }
        for (int i = n; i + 1 < key.length; i++) {
            if (key[i] == '}') {
                return key[i + 1] == ':';
            }
        }
        return false;
    }

    /**
     * The estimate {@link Builder#maxNativeBytes} bounds, for one loaded dictionary of a lineage. Its decompression
     * digest ({@code ZSTD_DDict}) holds a copy of the dictionary and {@value #DIGEST_OVERHEAD} bytes at most of entropy
     * tables (27-28 KiB measured); the compression digest ({@code ZSTD_CDict}), made only for the dictionary a lineage
     * writes with, another copy and zstd 3's match tables, whose size zstd picks by the dictionary's size plus 500
     * bytes: up to 16 KiB, 128 KiB (111 KiB measured with zstd 1.5.7); up to 128 KiB, 448 KiB (399 KiB); beyond,
     * 832 KiB (785 KiB). The estimate had counted 128 KiB plus two copies, a third of what a 16 KiB dictionary that
     * compresses holds (468 KB measured), so the bound held far more than it said.
     *
     * @param size        the dictionary's size in bytes
     * @param compressing whether its compression digest is held (the dictionary a writing lineage compresses with)
     * @return the estimated native bytes of its digests
     */
    static long estimatedNativeBytes(int size, boolean compressing) {
        long n = DIGEST_OVERHEAD + (long) size;
        if (compressing) {
            long rows = size + 500L;
            n += size + (rows <= 16 << 10 ? 128 << 10 : rows <= 128 << 10 ? 448 << 10 : 832 << 10);
        }
        return n;
    }

    /** @return the estimated native bytes of the dictionaries loaded in every open lineage now */
    public long nativeBytes() {
        long sum = 0;
        for (Lineage l : lineages.values()) {
            sum += l.nativeBytes();
        }
        return sum;
    }

    /** @return the bound on {@link #nativeBytes()} */
    public long maxNativeBytes() {
        return maxNativeBytes;
    }

    /** @return the patterns whose lineage is open now (its manager built), in no order; allocates the list */
    public List<String> openPatterns() {
        List<String> out = new ArrayList<>();
        for (Lineage l : lineages.values()) {
            if (l.manager != null) {
                out.add(l.pattern);
            }
        }
        return out;
    }

    /** @return how many lineages this object keeps now, open or not (for tests) */
    int lineagesKept() {
        return lineages.size();
    }

    /** @return how many dictionary ids the reader knows a lineage of now (for tests) */
    int idsKnown() {
        return byId.size();
    }

    /** @return {@code pattern}'s manager while its lineage is open, else null (for inspection: do not close it) */
    public DictionaryManager manager(String pattern) {
        Lineage l = lineages.get(lineageName(pattern));
        return l == null ? null : l.manager;
    }

    /**
     * Stops this object's thread, waiting for what it is doing to end (interrupted), and closes every lineage's
     * manager (which waits for its threads, see {@link DictionaryManager#close()}), waiting for all of them at most
     * the managers' {@linkplain DictionaryManager.Builder#loadTimeout load timeout} in all (as {@link Builder#manager
     * the settings} give it; 10 s by default), as a manager's close does. A lineage being opened is not built once
     * this is called; if its store function call is under way past that timeout (give a function that returns, or
     * fails, within its own timeout), a warning says so and this returns: the store the call returns is not used,
     * and a lineage whose manager was being built then is released by that build. Once this has returned, no lineage
     * is open, none is opened, and no thread of this object or its lineages runs beyond such a call. It does not wait
     * when called on this object's thread; interrupted, it stops waiting and closes the rest. Idempotent.
     */
    @Override
    public void close() {
        closed = true;
        long deadline = System.nanoTime() + closeWaitNanos;
        worker.shutdownNow();
        if (Thread.currentThread() != workerThread) {
            try {
                if (worker.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    Thread t = workerThread;
                    if (t != null) { // terminated: its last steps only
                        TimeUnit.NANOSECONDS.timedJoin(t, Math.max(1, deadline - System.nanoTime()));
                    }
                } else {
                    LOG.log(System.Logger.Level.WARNING, "adaptive compression: closing the pattern dictionaries:"
                            + " their thread is still in a store function call or a lineage's opening after the load"
                            + " timeout (" + Duration.ofNanos(closeWaitNanos) + ", the managers' Builder.loadTimeout);"
                            + " closed without it: when the call returns it opens nothing, and releases a lineage it"
                            + " opened");
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt(); // an opening still under way releases its lineage itself
            }
        }
        for (Lineage l : lineages.values()) {
            l.release("closed", deadline); // every manager's threads waited for within the one load timeout
        }
    }

    /**
     * @return the load timeout {@code settings} give the lineages' managers (the default,
     *         {@link DictionaryManager#DEFAULT_LOAD_TIMEOUT}, when they fail on a builder of a store in memory), in
     *         nanoseconds: the longest {@link #close()} waits
     */
    private static long loadTimeoutOf(UnaryOperator<DictionaryManager.Builder> settings) {
        Duration d = null;
        try {
            DictionaryManager.Builder b = settings.apply(DictionaryManager.reading(new InMemoryDictionaryStore()));
            d = b == null ? null : b.loadTimeout();
        } catch (RuntimeException e) {
            // the default, as the builds of the lineages then fail too
        }
        if (d == null || d.isNegative()) {
            d = DictionaryManager.DEFAULT_LOAD_TIMEOUT;
        }
        return d.compareTo(DictionaryManager.LONGEST_DURATION) > 0 ? Long.MAX_VALUE : d.toNanos();
    }

    // ------------------------------------------------------------------------------------------------ package

    /**
     * Called by each {@link AdaptiveCompressor} built with these lineages, before its first write: the first one
     * decides whether the lineages train ({@code writes}: its goal may write with a dictionary) or open read-only.
     *
     * @throws IllegalArgumentException when this already serves a compressor of the other kind
     */
    synchronized void serve(CompressionGoal goal, boolean writes, CompressionConfig config) {
        if (servedGoal == null) {
            servedGoal = goal;
            servedConfig = config;
            readOnly = !writes;
        } else if (readOnly == writes) {
            throw new IllegalArgumentException("dictionaries: this PatternDictionaries serves a compressor of goal "
                    + servedGoal.kind() + (readOnly ? ", whose lineages are read-only; one of goal " + goal.kind()
                    + " writes with the dictionaries its lineages train: give it a PatternDictionaries of its own (over"
                    + " the same stores)"
                    : ", whose lineages train and publish; one of goal " + goal.kind() + " never writes with a"
                    + " dictionary and opens its lineages read-only: give it a PatternDictionaries of its own (over the"
                    + " same stores, it reads what the others publish)"));
        }
    }

    /**
     * @return {@code pattern}'s lineage, made (not opened) on first use, or again once the one it had was dropped;
     *         null when it has none and {@code maxOpenLineages} openings wait for this object's thread (see
     *         {@link Lineage#open}: the pattern writes without a dictionary, asked again at its next sampled write)
     */
    Lineage lineage(String pattern, CompressionConfig config) {
        return lineage(pattern, config, null);
    }

    /**
     * As {@link #lineage(String, CompressionConfig)}, for a pattern whose lineage was dropped.
     *
     * @param dropped the pattern's lineage that was {@linkplain #trim dropped}, or null: a lineage made for it takes
     *                over when it was released, so it is not reopened for writing before the reopen delay
     */
    Lineage lineage(String pattern, CompressionConfig config, Lineage dropped) {
        String name = lineageName(pattern);
        Lineage l = lineages.get(name);
        if (l == null) {
            if (openingsWaiting.get() >= maxOpen) {
                return null; // made once the thread has caught up: else made here only to wait, unbounded
            }
            l = lineages.computeIfAbsent(name, n -> new Lineage(pattern, n, config, dropped));
        }
        l.pattern = pattern; // a lineage a read's claim look-up made knows its pattern by its name only
        return l;
    }

    /** @return where a reader finds the dictionaries of every open lineage (see "Reading" above) */
    DictionaryLookup lookup() {
        return lookup;
    }

    /**
     * Registers {@code reader}, which reads through {@link #lookup()}, so that each lineage released frees the
     * decompressors it holds of that lineage's dictionaries ({@link ValueCompressor#freeReleasedDictionaries()}).
     * Held weakly: a reader no longer used is not kept. Thread-safe.
     */
    void readBy(ValueCompressor reader) {
        readers.add(reader);
    }

    /**
     * A dictionary id's lineage (the one that loaded it), and there its open manager's entry; a read of a released
     * lineage reopens it.
     */
    private final DictionaryLookup lookup = new DictionaryLookup() {
        @Override
        public DictionaryManager.Entry find(long id) {
            if (closed) {
                throw closedUse(null);
            }
            Lineage l = byId.owner(id);
            if (l == null) {
                return null;
            }
            l.lastUsed = now();
            DictionaryManager m = l.manager;
            return m == null ? null : m.find(id);
        }

        @Override
        public MissingDictionaryException missing(long id) {
            String conflict = byId.conflict(id);
            if (conflict != null) {
                return new MissingDictionaryException(id, DictionaryOwners.ambiguity(conflict));
            }
            Lineage l = owner(id);
            if (l == null) {
                ClaimLookup last = claimLookups.get(id);
                if (last != null && last.done && last.outcome != null
                        && System.nanoTime() - last.doneAt < CLAIM_LOOKUP_RETRY_NANOS) {
                    return new MissingDictionaryException(id, "no dictionary lineage of this process has loaded it;"
                            + " " + claimIn(claims, id) + " was looked up less than "
                            + Duration.ofNanos(CLAIM_LOOKUP_RETRY_NANOS).toSeconds() + " s ago: " + last.outcome
                            + "; a read after that looks it up again");
                }
                if (!lookUpClaim(id)) {
                    return new MissingDictionaryException(id, "no dictionary lineage of this process has loaded it"
                            + " yet, and " + claimIn(claims, id) + " is not looked up now: the claims of "
                            + MAX_CLAIM_LOOKUPS + " other ids are being looked up or were less than "
                            + Duration.ofNanos(CLAIM_LOOKUP_RETRY_NANOS).toSeconds() + " s ago, the most at once; a"
                            + " read after that looks it up");
                }
                return new MissingDictionaryException(id, "no dictionary lineage of this process has loaded it yet;"
                        + " looking up " + claimIn(claims, id) + " to fetch it into the lineage that"
                        + " claimed it (opened for it, if not open); retry the read");
            }
            DictionaryManager m = l.manager;
            return m != null ? m.missing(id) : released(l, id);
        }

        @Override
        public RuntimeException released(long id, IllegalStateException closed) {
            if (PatternDictionaries.this.closed) {
                return closedUse(closed);
            }
            Lineage l = owner(id);
            return l == null ? closed : released(l, id);
        }

        /** Starts reopening {@code l}: a read retried once it is open succeeds. */
        private MissingDictionaryException released(Lineage l, long id) {
            l.open(true);
            return new MissingDictionaryException(id, "pattern " + l.pattern + "'s dictionaries were released to keep"
                    + " within the native memory bound; reloading them from its store; retry the read");
        }
    };

    /**
     * @return the lineage that holds dictionary {@code id}, or null when none does, or when the one recorded was
     *         dropped (a manager thread that outlived its lineage's release recorded it late): then it is forgotten
     *         on this object's thread, so the id's claim is looked up
     */
    private Lineage owner(long id) {
        Lineage l = byId.owner(id);
        if (l != null && l.dropped) {
            submit(() -> byId.forget(l));
            return null;
        }
        return l;
    }

    /**
     * @return the exception of a read of a dictionary value through {@link #lookup()} after {@link #close()}: names
     *         this object (its lineages' count) and what to do
     */
    private IllegalStateException closedUse(Throwable cause) {
        return new IllegalStateException("the PatternDictionaries (" + lineages.size() + " pattern lineages) is"
                + " closed: the adaptive compressor made with it reads no value written with its dictionaries (and"
                + " writes without them); make the compressor again with an open one", cause);
    }

    /** @return {@link System#nanoTime()}, moving {@link #coarseNow} to it when it lags by the granularity or more */
    private long now() {
        long t = System.nanoTime();
        long c;
        // only forward, and within the granularity of t when done: a thread whose clock read is older cannot move it
        // back past this one's (a compare-and-set fails only when another moved it on)
        while (t - (c = coarseNow.get()) >= USE_GRANULARITY_NANOS) {
            if (coarseNow.compareAndSet(c, t)) {
                break;
            }
        }
        return t;
    }

    /**
     * A read's miss of dictionary {@code id}, which no lineage holds: starts looking its claim up on the worker thread
     * ({@link #fetchClaimed}), unless it is being looked up, was less than the retry delay ago, or
     * {@value #MAX_CLAIM_LOOKUPS} ids are; on the reading thread, without a store call.
     *
     * @return false when it is not looked up because {@value #MAX_CLAIM_LOOKUPS} other ids are (or were, within the
     *         retry delay); true when it is now, or was within the retry delay
     */
    private boolean lookUpClaim(long id) {
        long now = System.nanoTime();
        ClaimLookup prev = claimLookups.get(id);
        if (prev != null && (!prev.done || now - prev.doneAt < CLAIM_LOOKUP_RETRY_NANOS)) {
            return true;
        }
        if (prev == null && claimLookups.size() >= MAX_CLAIM_LOOKUPS) {
            claimLookups.values().removeIf(c -> c.done && now - c.doneAt >= CLAIM_LOOKUP_RETRY_NANOS);
            if (claimLookups.size() >= MAX_CLAIM_LOOKUPS) {
                return false;
            }
        }
        ClaimLookup next = new ClaimLookup();
        if (prev == null ? claimLookups.putIfAbsent(id, next) != null : !claimLookups.replace(id, prev, next)) {
            return true; // another reader started it
        }
        submit(() -> {
            try {
                next.outcome = fetchClaimed(id);
            } finally {
                next.doneAt = System.nanoTime();
                next.done = true;
            }
        });
        return true;
    }

    /** One look-up of an id's claim: done (and when) once the worker ran it. */
    private static final class ClaimLookup {
        volatile long doneAt;
        volatile boolean done;
        /** what the look-up found when it led to no lineage (see {@link #fetchClaimed}), else null */
        volatile String outcome;
    }

    /**
     * On the worker thread: reads the claim of dictionary {@code id}, which a read missed (the claims' store made
     * first, when no lineage has opened yet); the lineage it names has its manager fetch the id from its store
     * (deduplicated there), or is opened (made by that name first, when this object keeps none of it: never made
     * here, or dropped). A store error is logged.
     *
     * @return why no lineage was asked for the id, for a read's message (null when one was, or none is needed)
     */
    private String fetchClaimed(long id) {
        if (closed || owner(id) != null) {
            return null;
        }
        DictionaryStore c;
        Claim claim;
        try {
            c = claims();
            claim = Claim.parse(c.get(id));
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.WARNING, "adaptive compression: zstd dictionary " + id + ", which a read"
                    + " missed: " + claimIn(claims, id) + " could not be read (" + e + "); looked up"
                    + " again at a later read");
            return "its claim could not be read (" + e + ")";
        }
        if (claim == null) {
            return "not claimed by any lineage (no claim)";
        }
        if (!isLineageName(claim.lineage)) {
            return "its claim names " + Locations.clip(claim.lineage) + ", which is no lineage's name";
        }
        Lineage l = lineages.computeIfAbsent(claim.lineage, n -> new Lineage(patternOf(n), n, servedConfig(), null));
        l.lastUsed = now();
        DictionaryManager m = l.manager;
        if (m != null && m.find(id) != null) {
            // loaded here already, known to the reader by a lineage that loaded the same bytes first and was dropped
            // since (its ids forgotten): the manager would not load it again, so it is recorded as this one's
            loaded(id, l, m);
        } else if (m != null) {
            m.missing(id); // starts its fetch
        } else {
            l.open(true);
        }
        return null;
    }

    /**
     * @return the store of {@link #ID_CLAIMS}, asked of the store function the first time (on the worker thread)
     * @throws RuntimeException when the function fails or returns null
     */
    private DictionaryStore claims() {
        DictionaryStore c = claims;
        if (c == null) {
            claims = c = Objects.requireNonNull(stores.apply(ID_CLAIMS), "the store function returned null for "
                    + ID_CLAIMS + ", the dictionary id claims");
        }
        return c;
    }

    /** @return the configuration of the first compressor served (the defaults before one is) */
    private CompressionConfig servedConfig() {
        CompressionConfig c = servedConfig;
        return c != null ? c : CompressionConfig.defaults();
    }

    /**
     * @return whether {@code name} is one {@link #lineageName} gives: at most {@value #MAX_NAME_LENGTH} characters of
     *         ASCII letters, digits, {@code - _ . : * %}, and a cut one's {@code ~} before 16 hex digits of its hash
     *         ({@link #ID_CLAIMS} is none); one not cut is the name of the pattern it spells ({@code %XX} only where
     *         {@link #lineageName} writes it, in upper case), so no claim leads to a store key no pattern's lineage has
     */
    static boolean isLineageName(String name) {
        if (name.isEmpty() || name.length() > MAX_NAME_LENGTH) {
            return false;
        }
        int cut = name.length() == MAX_NAME_LENGTH && name.charAt(MAX_NAME_LENGTH - 17) == '~' ? MAX_NAME_LENGTH - 17
                : -1;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean allowed = cut >= 0 && i > cut ? (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') // the hash
                    : c < 0x80 && (Character.isLetterOrDigit(c) || "-_.:*%".indexOf(c) >= 0) || i == cut;
            if (!allowed) {
                return false;
            }
        }
        return cut >= 0 || lineageName(patternOf(name)).equals(name);
    }

    /**
     * @return the pattern whose {@linkplain #lineageName lineage name} {@code name} is ({@code %XX} read back as
     *         UTF-8 bytes), or {@code name} itself when it was cut (it ends with {@code ~} and a hash) or is not one
     */
    static String patternOf(String name) {
        if (name.indexOf('~') >= 0) {
            return name;
        }
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '%' && i + 2 < name.length() && Character.digit(name.charAt(i + 1), 16) >= 0
                    && Character.digit(name.charAt(i + 2), 16) >= 0) {
                bytes.write(Character.digit(name.charAt(i + 1), 16) << 4 | Character.digit(name.charAt(i + 2), 16));
                i += 2;
            } else if (c == '%') {
                return name;
            } else {
                bytes.write(c);
            }
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    /**
     * Records that {@code lineage} loaded dictionary {@code id} (after {@link #admitted}, the same record); an id
     * another lineage holds is read with neither. Checks the id's claim, once per lineage and bytes.
     */
    private void loaded(long id, Lineage lineage, DictionaryManager m) {
        DictionaryManager.Entry e = m.find(id);
        if (e == null) {
            return;
        }
        long hash = admitted(e, lineage); // done already by the admission hook: records nothing new
        if (!lineage.claimChecked(id, hash)) { // a reopened lineage loads its ids again: checked once
            submit(() -> checkClaim(id, lineage, hash, true)); // a store call: on this object's thread
        }
    }

    /**
     * Records in {@link #byId} that {@code lineage} holds dictionary {@code e}; an id another lineage holds with other
     * bytes becomes ambiguous (then {@link #anyAmbiguous} is set and it is logged, once). Its lineage's manager's
     * admission hook ({@link DictionaryManager.Builder#admit}): runs on the loading thread under the manager's lock,
     * before the dictionary is findable or current there, so the reader ({@link #lookup}) finds every dictionary the
     * lineage writes with, and an ambiguous id is known before a write can use it. Idempotent ({@link #loaded} calls
     * it again); takes only {@link #byId}'s lock.
     *
     * @return the content hash of the dictionary's bytes
     */
    private long admitted(DictionaryManager.Entry e, Lineage lineage) {
        long hash = DictionaryOwners.contentHash(e.dictionary.toByteArray());
        if (!lineage.dropped && byId.loaded(e.id, lineage, hash) != null) {
            anyAmbiguous = true;
            LOG.log(System.Logger.Level.WARNING, "adaptive compression: zstd dictionary " + e.id + ": "
                    + DictionaryOwners.ambiguity(byId.conflict(e.id)) + "; neither pattern writes with it");
        }
        return hash;
    }

    /**
     * On the worker thread: claims loaded dictionary {@code id} for {@code lineage} (a dictionary published before
     * ids were claimed, or by another process in a lineage this one has not opened, is claimed by the first lineage
     * that loads it); a claim another lineage holds with other bytes makes the id ambiguous here. A claim is never
     * replaced, so once checked, the id with these bytes is not checked again for the lineage (not on a reopen).
     */
    private void checkClaim(long id, Lineage lineage, long hash, boolean logFailure) {
        String holder;
        try {
            holder = claim(id, lineage, hash);
        } catch (RuntimeException e) {
            LOG.log(logFailure ? System.Logger.Level.WARNING : System.Logger.Level.DEBUG, "adaptive compression:"
                    + " pattern " + lineage.pattern + ": zstd"
                    + " dictionary " + id + ": " + claimIn(claims, id) + " could not be checked (" + e + ")");
            return;
        }
        lineage.claimsChecked.put(id, hash);
        if (holder != null && byId.disputed(id, lineage, hash, holder)) {
            anyAmbiguous = true;
            LOG.log(System.Logger.Level.WARNING, "adaptive compression: zstd dictionary " + id + ": "
                    + DictionaryOwners.ambiguity(byId.conflict(id)) + "; pattern " + lineage.pattern + " does not write with it");
        }
    }

    /**
     * Before {@code lineage} publishes dictionary {@code id}, on its trainer thread: null when the id is its own
     * (then, once published and loaded, it is not claimed again), else why not (the claim store is shared by every
     * lineage, of this process and the others).
     */
    private String publishable(long id, Lineage lineage, long hash) {
        String holder = claim(id, lineage, hash);
        if (holder == null) {
            lineage.claimsChecked.put(id, hash);
            return null;
        }
        return "dictionary id " + id + " is claimed by " + holder + " with different bytes";
    }

    /**
     * Claims {@code id} for {@code lineage} in the {@link #ID_CLAIMS} store: the claim is the dictionary's content
     * hash (8 bytes, big-endian) and the lineage's name (UTF-8), written once.
     *
     * @return null when the id is {@code lineage}'s (now or already) or its claim names the same bytes; else the
     *         holder, in words
     * @throws RuntimeException if the store cannot be read or written
     */
    private String claim(long id, Lineage lineage, long hash) {
        try {
            claims.putIfAbsent(id, new Claim(hash, lineage.name).bytes());
            return null;
        } catch (DictionaryCollisionException e) {
            Claim held = Claim.parse(claims.get(id));
            if (held == null) {
                return "another lineage (its claim of the id cannot be read)";
            }
            return held.hash == hash ? null : held.holder(claims, id);
        }
    }

    /**
     * @return the claim of dictionary {@code id}, in words: in the {@link #ID_CLAIMS} store, and where that store keeps
     *         it (a server store's key, {@link DictionaryStore#entryLocation}, bounded in length) when it is open
     */
    private static String claimIn(DictionaryStore claims, long id) {
        return "its claim in the " + ID_CLAIMS + " store"
                + (claims == null ? "" : " (" + Locations.of(claims, id) + ")");
    }

    /**
     * A claim of a dictionary id in the {@link #ID_CLAIMS} store: the dictionary's content hash (8 bytes, big-endian)
     * and the name of the lineage that holds it (UTF-8).
     */
    private record Claim(long hash, String lineage) {
        byte[] bytes() {
            byte[] name = lineage.getBytes(StandardCharsets.UTF_8);
            return java.nio.ByteBuffer.allocate(8 + name.length).order(java.nio.ByteOrder.BIG_ENDIAN).putLong(hash)
                    .put(name).array();
        }

        /** @return the claim in {@code record}, or null when there is none or it is not one */
        static Claim parse(byte[] record) {
            if (record == null || record.length < 9) {
                return null;
            }
            long hash = java.nio.ByteBuffer.wrap(record).order(java.nio.ByteOrder.BIG_ENDIAN).getLong();
            return new Claim(hash, new String(record, 8, record.length - 8, StandardCharsets.UTF_8));
        }

        /** @return the holder, in words, and where its claim of {@code id} is in {@code claims} */
        String holder(DictionaryStore claims, long id) {
            return "lineage " + Locations.clip(lineage) + " (" + claimIn(claims, id) + ")";
        }
    }

    /**
     * The dictionaries that per-pattern lineages published in a keyspace, found through the id claims, for a reader
     * that opens no lineage (the {@code zstd-values} tool): the claimed lineages' dictionaries, each checked against
     * the claims. An id held with different bytes (by two lineages, or by a lineage and another's claim) is left out,
     * so that a value written with it fails as missing its dictionary instead of reading as wrong bytes; so is an
     * entry a store refuses ({@link DictionaryEntryRefusedException}), and one whose bytes are not as long as its
     * store lists it. The bytes are not validated here: a reader
     * builds its manager from them, which does. A lineage
     * whose dictionaries no process of this version has claimed (published before ids were claimed, and not loaded
     * since) is not found.
     *
     * <p><b>Thread safety:</b> runs on the calling thread; the stores are used one at a time, each closed after its
     * use when it is {@link AutoCloseable} (so at most one is open at a time). <b>Allocation:</b> holds every
     * published dictionary of the claimed lineages.
     *
     * @param stores gives a store as {@link #builder}'s function does: of a lineage name, and of {@link #ID_CLAIMS};
     *               asked once per name
     * @return the dictionaries, and the ids left out with why
     * @throws RuntimeException what a store throws
     */
    public static Published published(Function<String, DictionaryStore> stores) {
        Map<Long, Claim> claimed = new java.util.TreeMap<>();
        Set<String> lineageNames = new java.util.TreeSet<>();
        DictionaryStore claimStore = open(stores, ID_CLAIMS);
        try {
            for (DictionaryInfo info : claimStore.list()) {
                Claim c = Claim.parse(claimStore.get(info.id()));
                if (c != null) {
                    claimed.put(info.id(), c);
                    lineageNames.add(c.lineage);
                }
            }
        } finally {
            closeIfCloseable(claimStore);
        }
        Map<String, DictionaryStore> lineageStores = new java.util.HashMap<>(); // to name keys (no call to a store)
        DictionaryOwners<String> owners = new DictionaryOwners<>((n, id) -> "lineage " + Locations.clip(n) + " ("
                + Locations.of(lineageStores.get(n), id) + ")");
        Map<Long, byte[]> found = new java.util.TreeMap<>();
        Map<Long, String> refused = new java.util.TreeMap<>();
        for (String name : lineageNames) {
            DictionaryStore store = open(stores, name);
            lineageStores.put(name, store);
            try {
                for (DictionaryInfo info : store.list()) {
                    byte[] d;
                    try {
                        d = store.get(info.id());
                    } catch (DictionaryEntryRefusedException e) {
                        refused.put(info.id(), "lineage " + Locations.clip(name) + "'s store refuses its entry, "
                                + Locations.of(store, info.id()) + ": " + e.getMessage());
                        continue;
                    }
                    if (d == null) {
                        continue;
                    }
                    if (d.length != info.size()) { // cut short or overwritten: could decode its values wrongly
                        refused.put(info.id(), "lineage " + Locations.clip(name) + "'s store lists it with "
                                + info.size() + " bytes but its entry, " + Locations.of(store, info.id())
                                + ", holds " + d.length + " (cut short or overwritten)");
                        continue;
                    }
                    long hash = DictionaryOwners.contentHash(d);
                    owners.loaded(info.id(), name, hash);
                    Claim c = claimed.get(info.id());
                    if (c != null && c.hash != hash) {
                        owners.disputed(info.id(), name, hash, c.holder(claimStore, info.id()));
                    }
                    found.putIfAbsent(info.id(), d);
                }
            } finally {
                closeIfCloseable(store);
            }
        }
        Map<Long, byte[]> dictionaries = new java.util.TreeMap<>();
        Map<Long, String> leftOut = new java.util.TreeMap<>(refused);
        found.forEach((id, d) -> {
            if (owners.ambiguous(id)) {
                leftOut.put(id, DictionaryOwners.ambiguity(owners.conflict(id)));
            } else if (!refused.containsKey(id)) { // a refused entry's bytes are not known: it may hold others
                dictionaries.put(id, d);
            }
        });
        return new Published(java.util.Collections.unmodifiableMap(dictionaries),
                java.util.Collections.unmodifiableMap(leftOut));
    }

    /**
     * Why a value of a dictionary id held with different bytes is read with neither dictionary, as {@link #published}
     * and the reads of the lineages say it: for a reader that also loads dictionaries from elsewhere (another store)
     * and finds one under an id a lineage holds with other bytes.
     *
     * @param holders the two holders, in words (for example {@code "the store of p and a pattern's lineage"})
     * @return the sentence, naming {@code holders}
     */
    public static String ambiguity(String holders) {
        return DictionaryOwners.ambiguity(holders);
    }

    private static DictionaryStore open(Function<String, DictionaryStore> stores, String name) {
        return Objects.requireNonNull(stores.apply(name), "the store function returned null for " + name);
    }

    private static void closeIfCloseable(DictionaryStore store) {
        if (store instanceof AutoCloseable c) {
            try {
                c.close();
            } catch (Exception e) {
                throw new IllegalStateException("closing the dictionary store " + store + " failed: " + e, e);
            }
        }
    }

    /**
     * What {@link #published} found.
     *
     * @param dictionaries the dictionaries to read with, by id (sorted)
     * @param leftOut      the ids held with different bytes, which are read with none, and the entries a store
     *                     refused, and why
     */
    public record Published(Map<Long, byte[]> dictionaries, Map<Long, String> leftOut) {
    }

    private void submit(Runnable task) {
        if (closed) {
            return;
        }
        try {
            worker.execute(task);
        } catch (RejectedExecutionException e) {
            // closed meanwhile
        }
    }

    /**
     * Releases the least recently used lineages until the estimate is within the bound and at most
     * {@code maxOpen} lineages are open; on the worker thread. Waits for the released managers' threads one load
     * timeout in all (a manager whose subscription hangs holds its close that long), as {@link #close()} does.
     */
    private void enforce() {
        long deadline = System.nanoTime() + closeWaitNanos; // the releases wait one load timeout in all, not one each
        while (!closed) {
            long total = 0;
            int open = 0;
            Lineage lruLoaded = null;
            Lineage lruOpen = null;
            for (Lineage l : lineages.values()) {
                if (l.manager == null) {
                    continue;
                }
                open++;
                long n = l.nativeBytes();
                total += n;
                if (n > 0 && (lruLoaded == null || l.lastUsed - lruLoaded.lastUsed < 0)) {
                    lruLoaded = l;
                }
                if (lruOpen == null || l.lastUsed - lruOpen.lastUsed < 0) {
                    lruOpen = l;
                }
            }
            if (total > maxNativeBytes && lruLoaded != null) {
                lruLoaded.releasedAt = System.nanoTime();
                lruLoaded.release("the dictionaries of all patterns held an estimated " + total + " native bytes,"
                        + " above the " + maxNativeBytes + "-byte bound; this pattern was used least recently",
                        deadline);
            } else if (open > maxOpen) {
                lruOpen.releasedAt = System.nanoTime();
                lruOpen.release(open + " lineages open, above the " + maxOpen + " allowed; this pattern was used"
                        + " least recently", deadline);
            } else {
                break;
            }
        }
        trim();
    }

    /**
     * Drops the lineages not open used least recently while more than {@code maxOpen} of them are kept, on the
     * worker thread: a dropped lineage is forgotten (its name, store, the ids it loaded and whose claims it checked),
     * and a read of one of its dictionaries finds it again through the id's claim, which names it
     * ({@link #fetchClaimed}: the lineage is made again by its name and reopened). So a lineage is dropped only once
     * every id it loaded has its claim checked (each one not yet is checked now; one whose claim cannot be checked
     * keeps its lineage until a later pass). A lineage being opened is not dropped; a pattern whose lineage was
     * dropped gets a new one at its next sampled write ({@link PatternDictionary}).
     */
    private void trim() {
        List<Lineage> notOpen = new ArrayList<>();
        for (Lineage l : lineages.values()) {
            if (l.manager == null && !l.opening) {
                notOpen.add(l);
            }
        }
        int excess = notOpen.size() - maxOpen;
        if (excess <= 0) {
            return;
        }
        long[] used = new long[notOpen.size()]; // read once: a read may mark one used meanwhile
        for (int i = 0; i < used.length; i++) {
            used[i] = notOpen.get(i).lastUsed;
        }
        Integer[] order = new Integer[used.length];
        Arrays.setAll(order, i -> i);
        Arrays.sort(order, (a, b) -> Long.compare(used[a] - used[b], 0)); // least recently used first
        for (int k = 0; k < order.length && excess > 0 && !closed; k++) {
            Lineage l = notOpen.get(order[k]);
            if (l.manager == null && !l.opening && droppable(l)) {
                l.dropped = true;
                lineages.remove(l.name, l);
                byId.forget(l);
                excess--;
            }
        }
    }

    /**
     * @return whether every id {@code l} holds has its claim checked, so that a read finds it again by its claim;
     *         checks the claims not yet checked (on the worker thread)
     */
    private boolean droppable(Lineage l) {
        for (long id : byId.idsOf(l)) {
            long hash = byId.hash(id);
            if (!l.claimChecked(id, hash)) {
                checkClaim(id, l, hash, false); // a store error was logged when the id loaded
                if (!l.claimChecked(id, hash)) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * One pattern's lineage: its store, and its manager while open. The manager and its compressors are published
     * through volatile fields; opening and releasing run on the worker thread only.
     */
    final class Lineage {
        /** the pattern (a lineage a read's claim look-up made has the one its name spells until a write names it) */
        volatile String pattern;
        final String name;
        private final CompressionConfig config;
        /** whether {@link #trim} dropped it: it is not opened again, and its pattern makes a new one */
        volatile boolean dropped;
        private DictionaryStore store; // worker thread only
        private volatile DictionaryManager manager;
        private volatile ValueCompressor writer;
        private volatile boolean opening;
        /** the openings that failed since it was last open (or made); worker thread only */
        private int failedOpens;
        /** when last used: a sampled write's or a read's clock, a write's coarse clock ({@link #usedByWrite}) */
        volatile long lastUsed = System.nanoTime();
        volatile long releasedAt;
        /** the ids whose claim was checked (or written) for this lineage, with their content hashes; kept */
        final Map<Long, Long> claimsChecked = new ConcurrentHashMap<>();

        Lineage(String pattern, String name, CompressionConfig config, Lineage dropped) {
            this.pattern = pattern;
            this.name = name;
            this.config = config;
            if (dropped != null) { // its pattern's lineage before: the reopen delay and the failures carry over
                this.releasedAt = dropped.releasedAt;
                this.failedOpens = dropped.failedOpens;
            }
        }

        /**
         * For the pattern's sampling thread: the compressor with the pattern's dictionary when the lineage is open and
         * has one, else null (and the opening is started when it is due). Marks the lineage used.
         */
        ValueCompressor acquire() {
            lastUsed = now();
            DictionaryManager m = manager;
            if (m == null) {
                open(false);
                return null;
            }
            long id = m.currentId();
            return id != 0 && !ambiguous(id) ? writer : null;
        }

        /**
         * @return the compressor with the pattern's dictionary for writes in progress, or null when released or when
         *         its current dictionary's id is another lineage's too; a write with it marks the lineage used
         */
        ValueCompressor writer() {
            ValueCompressor w = writer;
            if (w != null && anyAmbiguous) { // every lineage that holds the id: one that loaded it later too
                DictionaryManager m = manager;
                if (m == null || ambiguous(m.currentId())) {
                    return null;
                }
            }
            if (w != null) {
                usedByWrite();
            }
            return w;
        }

        /**
         * Marks the lineage used by a write with its dictionary, sampled or not, at the coarse clock plus its
         * granularity (see {@link #coarseNow}): no clock read, and a store only when the mark moves.
         */
        private void usedByWrite() {
            long t = coarseNow.get() + USE_GRANULARITY_NANOS;
            if (lastUsed - t < 0) {
                lastUsed = t;
            }
        }

        /** @return whether {@code id} is held by two lineages with different bytes; allocates nothing */
        private boolean ambiguous(long id) {
            return anyAmbiguous && byId.ambiguous(id);
        }

        /** Hands a sampled value of the pattern to its manager's training reservoir, when open. */
        void sample(byte[] value) {
            DictionaryManager m = manager;
            if (m != null) {
                m.sample(java.lang.foreign.MemorySegment.ofArray(value));
            }
        }

        /** @return whether the claim of dictionary {@code id} with these bytes was checked for this lineage */
        boolean claimChecked(long id, long hash) {
            Long h = claimsChecked.get(id);
            return h != null && h == hash;
        }

        long nativeBytes() {
            DictionaryManager m = manager;
            if (m == null) {
                return 0;
            }
            boolean writes = writer != null;
            long n = 0;
            for (DictionaryStats s : m.dictionaryStats()) {
                n += estimatedNativeBytes(s.size(), writes && s.current());
            }
            return n;
        }

        /**
         * Starts opening on the worker thread, unless open, opening, or (for writing) released too recently, or (for
         * writing) {@code maxOpenLineages} openings wait for that thread already: then the pattern writes without its
         * dictionary, and its next sampled write asks again. (A read's opening is not refused: those are bounded by
         * the lineages kept and the claim look-ups.)
         */
        void open(boolean forReading) {
            if (manager != null || opening || closed || dropped) {
                return;
            }
            long since = releasedAt;
            if (!forReading && since != 0 && System.nanoTime() - since < reopenDelayNanos) {
                return;
            }
            if (!forReading && openingsWaiting.get() >= maxOpen) {
                return;
            }
            opening = true;
            openingsWaiting.incrementAndGet();
            submit(() -> {
                try {
                    openNow();
                } finally {
                    opening = false;
                    openingsWaiting.decrementAndGet();
                }
                trim(); // a lineage that failed to open counts too
            });
        }

        private void openNow() {
            if (manager != null || closed || dropped) {
                return;
            }
            DictionaryManager m = null;
            try {
                claims();
                if (store == null) {
                    store = Objects.requireNonNull(stores.apply(name), "the store function returned null");
                }
                if (closed) { // closed while the function ran: nothing is built, the store is not used
                    return;
                }
                m = settings.apply(readOnly ? DictionaryManager.reading(store) : DictionaryManager.managed(store))
                        .level(CompressionOption.ZSTD_3_DICTIONARY.level()) // the level the lineage writes at
                        .publishCheck((id, bytes) -> publishable(id, this, DictionaryOwners.contentHash(bytes)))
                        .admit(e -> admitted(e, this)) // known to the reader before this lineage writes with it
                        .build();
                ValueCompressor w = readOnly ? null
                        : ValueCompressor.notSampling(CompressionOption.ZSTD_3_DICTIONARY.config(config), m);
                writer = w;
                manager = m;
                releasedAt = 0;
                if (failedOpens > 0) {
                    int failed = failedOpens;
                    LOG.log(System.Logger.Level.INFO, () -> "adaptive compression: pattern " + pattern + ": its"
                            + " dictionary lineage " + name + " opened, after " + failed + " failed attempts");
                    failedOpens = 0;
                }
                DictionaryManager opened = m;
                m.onLoaded(id -> {
                    loaded(id, this, opened);
                    submit(PatternDictionaries.this::enforce);
                });
                if (closed) {
                    release("closed");
                }
                enforce();
            } catch (RuntimeException e) {
                if (m != null) {
                    // once in place (manager = m), as any release: writer and manager cleared, so the lineage is not
                    // left holding a closed manager that open() would take for open and writes would go to
                    release("it failed while opening: " + e);
                    m.close(); // not in place, or released already: closing again does nothing
                }
                if (closed) {
                    return; // a build interrupted by close(): no failure to report
                }
                releasedAt = System.nanoTime();
                // one warning per lineage until it opens: a store down for an hour under 256 patterns would
                // otherwise log a warning per pattern per reopen delay (some 90,000)
                if (failedOpens++ == 0) {
                    LOG.log(System.Logger.Level.WARNING, "adaptive compression: pattern " + pattern + ": its"
                            + " dictionary lineage " + name + " did not open (" + e + "); the options without a"
                            + " dictionary stay in use, tried again in " + Duration.ofNanos(reopenDelayNanos)
                            + " (its further failures are logged at DEBUG, its opening at INFO)");
                } else {
                    int failed = failedOpens;
                    LOG.log(System.Logger.Level.DEBUG, () -> "adaptive compression: pattern " + pattern + ": its"
                            + " dictionary lineage " + name + " did not open, attempt " + failed + " (" + e + ")");
                }
            }
        }

        /**
         * Closes the manager and frees the contexts of the writer (writes fall back at once; values in flight
         * finish).
         */
        void release(String why) {
            DictionaryManager m = manager;
            if (m != null) {
                release(why, System.nanoTime() + m.loadTimeoutNanos());
            }
        }

        /**
         * As {@link #release(String)}, waiting for the manager's threads until {@code deadline} at most. Once per
         * opening: {@link #close()} and this lineage's opening may both release it, and one of them does.
         */
        synchronized void release(String why, long deadline) {
            DictionaryManager m = manager;
            if (m == null) {
                return;
            }
            ValueCompressor w = writer;
            writer = null;
            manager = null;
            m.closeBy(deadline);
            if (w != null) {
                w.closeCoders(); // else they would keep the compression digest allocated until garbage-collected
            }
            for (ValueCompressor r : readers.toArray(new ValueCompressor[0])) {
                r.freeReleasedDictionaries(); // else they would keep the decompression digests until a slot's reuse
            }
            LOG.log(System.Logger.Level.INFO, () -> "adaptive compression: pattern " + pattern + ": dictionaries"
                    + " released (" + why + ")");
        }
    }

    /** Builds {@link PatternDictionaries}. Not thread-safe. */
    public static final class Builder {
        private final Function<String, DictionaryStore> stores;
        private UnaryOperator<DictionaryManager.Builder> settings = UnaryOperator.identity();
        private long maxNativeBytes = DEFAULT_MAX_NATIVE_BYTES;
        private int maxOpen = AdaptiveCompressor.DEFAULT_CAPACITY;
        private Duration reopenDelay = DEFAULT_REOPEN_DELAY;

        private Builder(Function<String, DictionaryStore> stores) {
            this.stores = stores;
        }

        /**
         * Settings of every pattern's managed manager (sampling, training, intervals): {@code settings} is applied
         * to each {@link DictionaryManager#managed} builder before it is built; by default none. A level it sets is
         * not used: a lineage trains, checks and digests its dictionaries for the level it writes at, the
         * {@linkplain CompressionOption#ZSTD_3_DICTIONARY dictionary option's}, zstd 3. A read-only lineage's
         * manager (see "Read-only lineages") takes the settings of loading only.
         * {@link #build()} also applies {@code settings} once, to a builder of a store in memory that is never
         * built, for the load timeout {@link PatternDictionaries#close()} waits at most.
         */
        public Builder manager(UnaryOperator<DictionaryManager.Builder> settings) {
            this.settings = Objects.requireNonNull(settings, "settings");
            return this;
        }

        /**
         * The bound on the estimated native memory of loaded dictionaries, all patterns together; default 64 MiB. A
         * bound below one lineage's own dictionaries releases that lineage as soon as they load: its pattern writes
         * without a dictionary, and values it wrote with one fail to read ({@link MissingDictionaryException}).
         */
        public Builder maxNativeBytes(long bytes) {
            if (bytes < 0) {
                throw new IllegalArgumentException("maxNativeBytes " + bytes + " must not be negative");
            }
            this.maxNativeBytes = bytes;
            return this;
        }

        /**
         * The most lineages open at once (each runs its manager's two daemon threads and keeps its sampling
         * reservoir), at least 1; default 256, the adaptive compressor's default pattern capacity. Beyond it the
         * lineage used least recently is released. As many closed lineages are kept besides, the least recently used
         * beyond them dropped (see "Bounded under churn").
         */
        public Builder maxOpenLineages(int lineages) {
            if (lineages < 1) {
                throw new IllegalArgumentException("maxOpenLineages " + lineages + " must be at least 1");
            }
            this.maxOpen = lineages;
            return this;
        }

        /**
         * The least time before a released lineage (or one that failed to open) is opened again for writing; reads
         * reopen a released lineage at once. Default 10 s; at most {@link DictionaryManager#LONGEST_DURATION}.
         *
         * @throws IllegalArgumentException when {@code delay} is negative or longer than the clock holds
         */
        public Builder reopenDelay(Duration delay) {
            if (delay.isNegative() || delay.compareTo(DictionaryManager.LONGEST_DURATION) > 0) {
                throw new IllegalArgumentException("reopenDelay " + delay + " must not be negative, and at most "
                        + DictionaryManager.LONGEST_DURATION + " (Long.MAX_VALUE ns, the most the clock holds)");
            }
            this.reopenDelay = delay;
            return this;
        }

        /** @return the lineages (none open yet) */
        public PatternDictionaries build() {
            return new PatternDictionaries(this);
        }
    }
}
