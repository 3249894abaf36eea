package dev.zstdjava.values;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.ToLongFunction;

/**
 * The state of each key pattern, for decisions per pattern: {@link #lookup(byte[])} gives the state of the key's
 * pattern, created by the caller's factory the first time the pattern is seen, in a table of bounded size.
 *
 * <p><b>Which state a key gets</b>, in order: (1) the first pattern the application listed that matches the key's
 * pattern (below); (2) the tracked entry of the key's pattern ({@link KeyFolder}: keys that fold alike share it);
 * (3) for a pattern not tracked: a new entry while fewer than {@code capacity} patterns are tracked; else, when the
 * least recently seen tracked pattern has not been seen for {@code idleWindow}, that one is evicted and a new entry
 * replaces it; else the one shared {@link Kind#OTHER} entry (which also takes the keys whose pattern is
 * {@value #OTHER}, its name, and those whose pattern is longer than {@value #MAX_PATTERN_LENGTH} bytes, so that an
 * entry holds at most that much of a key, however long the keys are). So a keyspace of patterns seen once (random
 * keys) keeps at most {@code capacity} tracked, admits at most {@code capacity} new patterns per window and sends
 * the rest to "other", while patterns in use are never pushed out. A later key of an evicted pattern gets a fresh
 * state (the factory is called again); the evicted state is dropped, and a lookup racing its eviction may still count
 * on it.
 *
 * <p><b>Listed patterns</b> take precedence over the fold: each is folded like a key (so {@code v2:*} is
 * {@code v*:*}) and its {@code *} then matches any run of bytes of the key's pattern, not of the raw key
 * ({@code user:*} matches {@code user:*:profile} and {@code user:abc}). They are never evicted and not counted in
 * {@code capacity}; the first that matches wins, each lookup trying them in order (meant for tens of them). So a
 * listed pattern that an earlier one matches every key of (its glob, read with its stars as any run, is within the
 * earlier one's: {@code user:*:cart} after {@code user:*}, or two that fold alike) would never take a key: it is
 * refused.
 *
 * <p><b>Names</b> are one per entry: a folded pattern's is its {@linkplain KeyFolder#text text}, a listed one's its
 * text as given, "other"'s {@value #OTHER}. A folded pattern with a listed one's UTF-8 bytes is never tracked (it
 * matches that listed pattern, or an earlier one), so a listed pattern that could share its name with a folded one is
 * one whose text is the text of other bytes (it has {@code \\} or {@code \xHH}, as the name of a pattern with a
 * backslash or a byte that is not UTF-8 has): such a listed pattern is refused, as is one named {@value #OTHER}.
 *
 * <p><b>Recency</b> is a per-entry {@link System#nanoTime()} written at most once per 1/64 of the window (so a hot
 * entry is mostly read), and an entry may be evicted up to that much early.
 *
 * <p><b>Thread safety:</b> thread-safe; a hit takes no lock (a volatile read of its bucket, a byte comparison and,
 * unless the state counts its uses itself, a {@link LongAdder}), a miss that creates or evicts takes the table's lock, and a miss that goes to "other" before
 * the earliest possible eviction takes none. The lock is a {@link ReentrantLock} and no lookup blocks while holding
 * a folder, so virtual threads do not pin. The factory is called under the lock: it must be quick and must not
 * look up this table.
 *
 * <p><b>Allocation:</b> a lookup of a key of at most {@value KeyFolder#INLINE_LENGTH} bytes that hits a listed or
 * tracked pattern, or goes to "other", allocates nothing. The folders come from a small striped pool, not a
 * {@link ThreadLocal}: with a virtual thread per request a thread-local folder would be allocated for every new
 * thread and kept until it ends; from the pool a lookup borrows one with an atomic swap and gives it back, and a
 * new folder is made only when more lookups than the pool's stripe run at once. Creating an entry allocates its
 * copy of the pattern, its counter and the factory's state.
 *
 * @param <S> the state kept per pattern
 */
final class PatternTable<S> {
    /** The default number of patterns tracked. */
    static final int DEFAULT_CAPACITY = 256;
    /** The default time a pattern must go unseen before a new pattern can take its place. */
    static final Duration DEFAULT_IDLE_WINDOW = Duration.ofSeconds(10);
    /** The name of the shared entry, as the factory and {@link Row#pattern()} see it. */
    static final String OTHER = "(other)";
    private static final byte[] OTHER_BYTES = OTHER.getBytes(StandardCharsets.US_ASCII);
    /** The most patterns a table may track. */
    static final int MAX_CAPACITY = 1 << 16;
    /**
     * The longest pattern tracked, in bytes: a key whose pattern is longer is one of "other"'s keys (a listed pattern
     * still matches it). A tracked entry keeps its pattern's bytes and its name (up to 4 characters a byte), so this
     * bounds what the table holds, whatever the keys' length.
     */
    static final int MAX_PATTERN_LENGTH = 1024;

    /** What an entry stands for. */
    enum Kind {
        /** A pattern the application listed. */
        LISTED,
        /** A key pattern seen, tracked while it is recent. */
        FOLDED,
        /** The keys of every pattern not tracked. */
        OTHER
    }

    /**
     * One line of {@link #snapshot()}: the pattern as text (a listed one as given, a folded one as
     * {@link KeyFolder#text} writes it: one name per pattern), its state, the lookups it has answered.
     */
    record Row<S>(String pattern, Kind kind, S state, long seen, Instant firstSeen) {}

    // folders for 2 to 4 lookups per processor at once
    private static final int STRIPES =
            Integer.highestOneBit(Math.max(2, Runtime.getRuntime().availableProcessors()) * 4);
    private static final int SPREAD = 16; // folders 16 references apart: one cache line per stripe

    private final int capacity;
    private final long idleWindow;
    private final long granularity;
    private final Function<String, ? extends S> newState;
    private final LongSupplier nanoClock;
    // null: the table counts each entry's lookups; else what a row reports as seen, read from the state
    private final ToLongFunction<? super S> seenOf;
    private final Entry[] listed;
    private final Entry other;
    private final AtomicReferenceArray<Entry[]> buckets;
    private final int mask;
    private final AtomicReferenceArray<KeyFolder> folders = new AtomicReferenceArray<>(STRIPES * SPREAD);
    private final ReentrantLock lock = new ReentrantLock();
    // under the lock: the tracked entries, each at its slot
    private final Entry[] tracked;
    private volatile int size;
    private volatile long evictions;
    // no tracked entry can be evicted before this time (nanoClock), so a miss before it goes to "other" unlocked
    private volatile long noEvictionBefore;

    /**
     * A table with the default capacity and idle window.
     *
     * @param listed   the application's patterns, in order of precedence (none: an empty list)
     * @param newState makes the state of a pattern, given the pattern as text (a listed one as given, a folded one
     *                 as {@link KeyFolder#text} writes it, "other" as {@link #OTHER}); called once per entry, never
     *                 returning null
     */
    PatternTable(List<String> listed, Function<String, ? extends S> newState) {
        this(DEFAULT_CAPACITY, DEFAULT_IDLE_WINDOW, listed, newState);
    }

    /**
     * @param capacity   the most patterns tracked, 0 to {@value #MAX_CAPACITY} (0: every key not listed is "other")
     * @param idleWindow how long a pattern goes unseen before a new one may replace it, positive
     * @throws IllegalArgumentException when a bound is outside its range, a listed pattern would never be used (two
     *                                  fold alike, or an earlier one matches every key it matches), or a listed
     *                                  pattern has the name of another (see "Names" above)
     */
    PatternTable(int capacity, Duration idleWindow, List<String> listed, Function<String, ? extends S> newState) {
        this(capacity, idleWindow, listed, newState, null);
    }

    /**
     * As above; {@code seenOf}, when not null, gives what {@link Row#seen()} reports for a state (its owner's count of
     * uses), and the table then does not count lookups: a lookup saves an atomic add.
     */
    PatternTable(int capacity, Duration idleWindow, List<String> listed, Function<String, ? extends S> newState,
                 ToLongFunction<? super S> seenOf) {
        this(capacity, idleWindow.toNanos(), listed, newState, System::nanoTime, seenOf);
    }

    /** As above, with the idle window in the clock's nanoseconds and the clock given (for tests). */
    PatternTable(int capacity, long idleWindowNanos, List<String> listed, Function<String, ? extends S> newState,
                 LongSupplier nanoClock) {
        this(capacity, idleWindowNanos, listed, newState, nanoClock, null);
    }

    private PatternTable(int capacity, long idleWindowNanos, List<String> listed,
                         Function<String, ? extends S> newState, LongSupplier nanoClock,
                         ToLongFunction<? super S> seenOf) {
        if (capacity < 0 || capacity > MAX_CAPACITY) {
            throw new IllegalArgumentException("capacity " + capacity + ": 0 to " + MAX_CAPACITY);
        }
        if (idleWindowNanos <= 0) {
            throw new IllegalArgumentException("the idle window must be positive: " + idleWindowNanos + " ns");
        }
        this.capacity = capacity;
        this.idleWindow = idleWindowNanos;
        this.granularity = idleWindowNanos >> 6;
        this.newState = Objects.requireNonNull(newState, "newState");
        this.nanoClock = Objects.requireNonNull(nanoClock, "nanoClock");
        this.seenOf = seenOf;
        long now = nanoClock.getAsLong();
        this.noEvictionBefore = now;
        KeyFolder folder = new KeyFolder();
        List<Entry> given = new ArrayList<>();
        for (String text : listed) {
            byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
            checkName(text, bytes);
            folder.fold(bytes);
            byte[] glob = folder.patternBytes();
            for (Entry e : given) {
                if (Arrays.equals(e.pattern, glob)) {
                    throw new IllegalArgumentException("listed patterns " + e.text + " and " + text
                            + " fold alike, to " + folder.pattern());
                }
                // the folder holds this pattern's glob, its stars as bytes only an earlier glob's stars match: when
                // that glob matches it, it matches every key pattern this one does, and this one never takes a key
                if (folder.patternMatches(e.pattern)) {
                    throw new IllegalArgumentException("listed pattern " + text + " would never be used: " + e.text
                            + ", listed before it, matches every key it matches (the first listed pattern that"
                            + " matches a key takes it); list " + text + " before " + e.text + ", or leave it out");
                }
            }
            given.add(new Entry(Kind.LISTED, text, glob, 0, state(text), now, seenOf == null));
        }
        this.listed = given.toArray(new Entry[0]);
        this.other = new Entry(Kind.OTHER, OTHER, null, 0, state(OTHER), now, seenOf == null);
        int bucketCount = Integer.highestOneBit(Math.max(1, capacity) * 2 - 1) << 1;
        this.buckets = new AtomicReferenceArray<>(bucketCount);
        this.mask = bucketCount - 1;
        this.tracked = new Entry[capacity];
    }

    /**
     * Refuses a listed pattern whose name, its text as given, is also the name of another pattern: of
     * {@link #OTHER}, or the {@linkplain KeyFolder#text text} of other bytes than its own (it has {@code \\} or
     * {@code \xHH}, which a key pattern's name writes for a backslash and for a byte that is not UTF-8), which it does
     * not match; the two would share a row name and, by it, a dictionary lineage.
     */
    private static void checkName(String text, byte[] bytes) {
        if (text.equals(OTHER)) {
            throw new IllegalArgumentException("listed pattern " + text + " is the name of the entry the keys of every"
                    + " pattern not tracked share: list another pattern");
        }
        byte[] named = KeyFolder.bytesOf(text);
        if (named == null || Arrays.equals(named, bytes)) {
            return;
        }
        String spelled = new String(named, StandardCharsets.UTF_8);
        boolean spellable = Arrays.equals(spelled.getBytes(StandardCharsets.UTF_8), named);
        throw new IllegalArgumentException("listed pattern " + text + " is also the name of the keys of another"
                + " pattern: a key pattern's name writes a backslash \\\\ and a byte that is not UTF-8 \\xHH, and a"
                + " listed pattern is matched by its own UTF-8 bytes, so the two would share a name (its row, its"
                + " dictionary lineage); " + (spellable ? "list " + spelled + " for those keys"
                : "no listed pattern spells their bytes that are not UTF-8 (a * matches them)")
                + ", or a pattern without \\\\ and \\xHH");
    }

    /**
     * The state of {@code key}'s pattern; as {@link #lookup(byte[], int, int)}.
     *
     * @throws NullPointerException when {@code key} is null
     */
    S lookup(byte[] key) {
        return lookup(key, 0, key.length);
    }

    /**
     * The state of the pattern of {@code key[offset, offset + length)}, counted as seen once more.
     *
     * @throws NullPointerException      when {@code key} is null
     * @throws IndexOutOfBoundsException when the range is not inside {@code key}
     */
    @SuppressWarnings("unchecked")
    S lookup(byte[] key, int offset, int length) {
        int stripe = (int) Thread.currentThread().threadId() & (STRIPES - 1);
        int at = stripe * SPREAD;
        KeyFolder folder = folders.getAndSet(at, null);
        if (folder == null) {
            folder = new KeyFolder(); // another lookup of this stripe holds its folder
        }
        Entry e;
        long now;
        try {
            long hash = folder.fold(key, offset, length);
            now = nanoClock.getAsLong();
            e = find(folder, hash, now);
        } finally {
            folder.release(); // a long key's folded copy is not kept in the pool
            folders.lazySet(at, folder);
        }
        if (e.seen != null) {
            e.seen.increment();
        }
        if (now - e.lastSeen >= granularity) {
            e.lastSeen = now;
        }
        return (S) e.state;
    }

    private Entry find(KeyFolder folder, long hash, long now) {
        for (Entry e : listed) {
            if (folder.patternMatches(e.pattern)) {
                return e;
            }
        }
        if (folder.length() > MAX_PATTERN_LENGTH) {
            return other; // never tracked: its entry would keep the pattern and its name
        }
        Entry e = tracked(folder, hash);
        if (e != null) {
            return e;
        }
        if (capacity == 0 || size >= capacity && now - noEvictionBefore < 0 || folder.patternEquals(OTHER_BYTES)) {
            return other; // a key whose pattern is named as "other" is one of its keys: no two entries share a name
        }
        return miss(folder, hash, now);
    }

    private Entry tracked(KeyFolder folder, long hash) {
        Entry[] bucket = buckets.get((int) hash & mask);
        if (bucket != null) {
            for (Entry e : bucket) {
                if (e.hash == hash && folder.patternEquals(e.pattern)) {
                    return e;
                }
            }
        }
        return null;
    }

    private Entry miss(KeyFolder folder, long hash, long now) {
        lock.lock();
        try {
            Entry e = tracked(folder, hash);
            if (e != null) {
                return e;
            }
            int slot = size;
            if (slot >= capacity) {
                Entry victim = leastRecentlySeen();
                if (victim == null || now - victim.lastSeen < idleWindow) {
                    noEvictionBefore = victim == null ? now + idleWindow : victim.lastSeen + idleWindow;
                    return other;
                }
                remove(victim);
                slot = victim.slot;
                evictions++;
            }
            String text = folder.pattern();
            e = new Entry(Kind.FOLDED, text, folder.patternBytes(), hash, state(text), now, seenOf == null);
            e.slot = slot;
            tracked[slot] = e;
            int b = (int) hash & mask;
            Entry[] bucket = buckets.get(b);
            Entry[] grown = bucket == null ? new Entry[1] : Arrays.copyOf(bucket, bucket.length + 1);
            grown[grown.length - 1] = e;
            buckets.set(b, grown);
            if (slot == size) {
                size = slot + 1;
            }
            return e;
        } finally {
            lock.unlock();
        }
    }

    private Entry leastRecentlySeen() {
        Entry oldest = null;
        for (Entry e : tracked) {
            if (oldest == null || e.lastSeen - oldest.lastSeen < 0) {
                oldest = e;
            }
        }
        return oldest;
    }

    private void remove(Entry victim) {
        int b = (int) victim.hash & mask;
        Entry[] bucket = buckets.get(b);
        if (bucket.length == 1) {
            buckets.set(b, null);
            return;
        }
        Entry[] shrunk = new Entry[bucket.length - 1];
        int n = 0;
        for (Entry e : bucket) {
            if (e != victim) {
                shrunk[n++] = e;
            }
        }
        buckets.set(b, shrunk);
    }

    private S state(String pattern) {
        return Objects.requireNonNull(newState.apply(pattern), () -> "the state made for " + pattern);
    }

    /** How many patterns are tracked now (listed patterns and "other" not counted): at most the capacity. */
    int size() {
        return size;
    }

    /** How many tracked patterns have been evicted for a new one. */
    long evictions() {
        return evictions;
    }

    /**
     * The entries now: the listed patterns in their order, the tracked ones by lookups answered (most first), then
     * "other"; at most {@code capacity} plus the listed plus one rows. Listed and "other" count from the table's
     * creation. Takes the lock for the tracked entries, and allocates the rows.
     */
    @SuppressWarnings("unchecked")
    List<Row<S>> snapshot() {
        List<Row<S>> rows = new ArrayList<>(listed.length + size + 1);
        for (Entry e : listed) {
            rows.add(row(e));
        }
        List<Row<S>> folded = new ArrayList<>(size);
        lock.lock();
        try {
            for (int i = 0; i < size; i++) {
                folded.add(row(tracked[i]));
            }
        } finally {
            lock.unlock();
        }
        folded.sort(Comparator.comparingLong((Row<S> r) -> r.seen()).reversed());
        rows.addAll(folded);
        rows.add(row(other));
        return rows;
    }

    @SuppressWarnings("unchecked")
    private Row<S> row(Entry e) {
        long seen = e.seen != null ? e.seen.sum() : seenOf.applyAsLong((S) e.state);
        return new Row<>(e.text, e.kind, (S) e.state, seen, Instant.ofEpochMilli(e.firstSeenMillis));
    }

    /** A pattern's entry: immutable but for its counter, its recency and its slot (under the lock). */
    private static final class Entry {
        final Kind kind;
        final String text;
        final byte[] pattern; // folded; null for "other"
        final long hash;
        final Object state;
        final long firstSeenMillis = System.currentTimeMillis();
        final LongAdder seen; // null when the table does not count lookups
        volatile long lastSeen;
        int slot;

        Entry(Kind kind, String text, byte[] pattern, long hash, Object state, long now, boolean counting) {
            this.kind = kind;
            this.seen = counting ? new LongAdder() : null;
            this.text = text;
            this.pattern = pattern;
            this.hash = hash;
            this.state = state;
            this.lastSeen = now;
        }
    }
}
