package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * Compresses each value with the option its key's pattern has shown to suit a {@linkplain CompressionGoal goal}:
 * the client-neutral core of adaptive compression. A client calls {@link #compress(byte[], byte[])} with the key and
 * the value where it writes, and reads back with {@link #decompress(byte[])} or any {@link ValueCompressor} (every
 * option writes a stored form every reader of this library reads: the shared header with zstd or lz4, or the value as
 * it is; with a {@linkplain Builder#dictionaries dictionary} per pattern, zstd frames with a dictionary, which Valkey
 * GLIDE and earlier versions of this library cannot read). With {@link PatternDictionaries} each pattern trains its own
 * dictionary lineage (under the goal {@code SPEED}, which never writes with a dictionary, a read-only one that trains
 * nothing), and {@link #reader()} (so every adapter, and {@link #decompress(byte[])}) reads the values written with
 * them.
 *
 * <h2>Decisions</h2>
 * Keys fold into patterns ({@link KeyFolder}; the application's {@linkplain Builder#patterns listed patterns} first),
 * each with a state in a table of bounded size: at most {@linkplain Builder#capacity capacity} patterns tracked, an
 * idle one replaced by a new one, the rest sharing one {@code (other)} state, as do the keys whose pattern is longer
 * than {@value #MAX_PATTERN_LENGTH} bytes (a tracked pattern keeps its bytes and name). Per pattern, the first
 * writes and then one in 64 (one in 256 while the pattern is plain) are written with every candidate
 * {@linkplain CompressionOption option} on the calling thread and timed ({@link OptionMeasurements}, the measuring
 * code of {@code zstd-values advise} too); the latest 16 such samples decide, by
 * {@link CompressionGoal#decide}, with hysteresis: the option in use is favoured by a margin (1 point of saving, 20%
 * of CPU), and a pattern switches only when another option wins 3 evaluations in a row (to the latest winner). Once a
 * pattern's decision holds, it measures fewer of its samples, down to one write in 4,096 (the others still feed its
 * dictionary's training), and measures every sample again once its writes drift (what its recent writes save, by
 * bytes over some 32 writes, the older weighing less, is more than 10 points away from what its samples showed: one
 * odd value does not do it, values that stop compressing do within a few writes) and when its dictionary comes or
 * goes. A pattern starts with zstd 3 (lz4 for {@code SPEED}) until 8 samples, then takes the rule's pick at once
 * (the default is not a decision, so it gets no margin). Each sampled write times every option's second call on the value, so an option not in use is
 * not timed with cold caches ({@link OptionMeasurements}). So data that stops compressing is stored plain after about
 * {@code 16 + 3} samples (some 1,200 writes), and data that compresses again is picked up after about 4 re-probes
 * (some 1,300 writes). A re-probe of a plain pattern first compresses the value with zstd 1 alone; only when that
 * saves anything (or the pattern has a dictionary) are the options measured, so data that still does not compress
 * costs one fast compression per re-probe. Each change of a decision is logged (logger {@code dev.zstdjava.values.AdaptiveCompressor},
 * level INFO); {@link #snapshot()} lists them.
 *
 * <h2>The configuration</h2>
 * The {@link CompressionConfig} given applies to every option, but its backend and level (each option has its own):
 * values shorter than {@code minCompressionSize}, values longer than {@code maxDecompressedSize} (so that a reader with
 * the same limit reads every value written) and every value while compression is not {@code enabled} are stored as
 * they are, without a look-up or a sample; {@link #decompress} applies the limit and the legacy formats.
 *
 * <p><b>Thread safety:</b> thread-safe; one instance serves any number of threads. A write takes no lock: the pattern
 * look-up is lock-free on a hit, and a sampled write that finds its pattern being sampled by another thread is written
 * as an ordinary one. Sampling runs on the writing thread, under a {@link java.util.concurrent.locks.ReentrantLock}
 * (virtual threads do not pin).
 *
 * <p><b>Allocation:</b> a write that is not sampled, of a key of at most {@value KeyFolder#INLINE_LENGTH} bytes,
 * allocates nothing beyond what its option's {@link ValueCompressor#compress(byte[])} returns (a plain one nothing), and
 * into a segment ({@link #compress(byte[], int, int, MemorySegment, MemorySegment)}) what the fixed mode's
 * {@link ValueCompressor#compress(MemorySegment, MemorySegment)} does (no copy of the value); a sampled write
 * allocates each candidate's stored form twice. Each tracked pattern holds a few KiB of samples.
 */
public final class AdaptiveCompressor {
    /** Default of {@link Builder#capacity}: patterns tracked at once. */
    public static final int DEFAULT_CAPACITY = PatternTable.DEFAULT_CAPACITY;
    /**
     * The longest pattern tracked, in bytes: the keys of a longer pattern (not listed) share {@code (other)}'s
     * decision, so the patterns tracked hold at most this much of each key whatever the keys' length.
     */
    public static final int MAX_PATTERN_LENGTH = PatternTable.MAX_PATTERN_LENGTH;
    /** Default of {@link Builder#idleWindow}: a tracked pattern unseen this long (10 seconds) may be replaced. */
    public static final Duration DEFAULT_IDLE_WINDOW = PatternTable.DEFAULT_IDLE_WINDOW;
    /** Default of {@link Builder#sampling}: a pattern's first writes, each sampled. */
    public static final int DEFAULT_FIRST_WRITES = 32;
    /** Default of {@link Builder#sampling}: then one write in this many is sampled. */
    public static final int DEFAULT_SAMPLE_EVERY = 64;
    /** Default of {@link Builder#sampling}: one write in this many is sampled while the pattern is plain. */
    public static final int DEFAULT_PLAIN_SAMPLE_EVERY = 256;
    /** Default of {@link Builder#window}: the latest samples a decision looks at. */
    public static final int DEFAULT_WINDOW = 16;
    /** Default of {@link Builder#window}: the samples a pattern needs before it leaves its default option. */
    public static final int DEFAULT_MIN_SAMPLES = 8;
    /** Default of {@link Builder#hysteresis}: evaluations in a row another option must win. */
    public static final int DEFAULT_SWITCH_AFTER = 3;
    /** Default of {@link Builder#hysteresis}: the saving (a fraction of the stored bytes) the option in use gains. */
    public static final double DEFAULT_SAVING_MARGIN = 0.01;
    /** Default of {@link Builder#hysteresis}: the share of CPU the option in use is spared. */
    public static final double DEFAULT_CPU_MARGIN = 0.2;

    private final CompressionConfig config;
    private final AdaptiveSettings settings;
    private final ValueCompressor reader;
    private final PatternTable<PatternState> table;
    private final OptionCounters written = new OptionCounters();

    private AdaptiveCompressor(Builder b, UnaryOperator<OptionWriter> measuring, LongSupplier nanoClock) {
        this.config = b.config;
        this.settings = new AdaptiveSettings(b.goal, b.defaultOption == null
                ? AdaptiveSettings.defaultOption(b.goal) : b.defaultOption, b.firstWrites, b.sampleEvery,
                b.plainSampleEvery, b.window, b.minSamples, b.switchAfter, b.savingMargin, b.cpuMargin);
        PatternDictionaries lineages = b.lineages;
        Function<String, DictionaryManager> dictionaries = b.dictionaries;
        PatternManagers given = dictionaries == null ? null : new PatternManagers();
        this.reader = ValueCompressor.reading(config, lineages != null ? lineages.lookup() : given);
        OptionWriter shared = new OptionWriters(config);
        this.table = new PatternTable<>(b.capacity, b.idleWindow, b.patterns, pattern -> {
            OptionWriter w = lineages != null
                    ? new PatternDictionary(shared, pattern, lineages, config, settings.minSamples())
                    : dictionaries == null ? shared
                    : new PatternDictionary(shared, pattern, dictionaries, given, config, settings.minSamples());
            return new PatternState(pattern, settings, measuring.apply(w), nanoClock, written);
        }, PatternState::writes); // a pattern's writes, counted by its state: the table need not count too
        if (lineages != null) { // last: a build that failed above serves nothing, and decides no kind
            // a goal that never writes with a dictionary (SPEED) opens them read-only
            lineages.serve(settings.goal(), settings.candidate(CompressionOption.ZSTD_3_DICTIONARY), config);
            lineages.readBy(reader); // a released lineage's dictionaries are freed in the reader too
        }
    }

    /** @return a builder for {@code config}, with the goal {@code BALANCED}, no listed patterns, 256 tracked */
    public static Builder builder(CompressionConfig config) {
        return new Builder(Objects.requireNonNull(config, "config"));
    }

    /**
     * The stored form of {@code value}, written under {@code key}: compressed with the option of the key's pattern, or
     * the value itself. Never throws for a value it cannot compress (it is stored as it is, as
     * {@link ValueCompressor#compress(byte[])} does).
     *
     * @return a new array, or {@code value} itself when it is stored as it is
     * @throws NullPointerException when {@code key} or {@code value} is null
     */
    public byte[] compress(byte[] key, byte[] value) {
        return compress(key, 0, key.length, value);
    }

    /**
     * As {@link #compress(byte[], byte[])}, with the key in {@code key[keyOffset, keyOffset + keyLength)}.
     *
     * @throws IndexOutOfBoundsException when the range is not inside {@code key}
     */
    public byte[] compress(byte[] key, int keyOffset, int keyLength, byte[] value) {
        Objects.requireNonNull(value, "value");
        Objects.checkFromIndexSize(keyOffset, keyLength, key.length);
        if (!config.mayCompress(value.length)) {
            written.count(CompressionOption.PLAIN, value.length, value.length);
            return value;
        }
        return table.lookup(key, keyOffset, keyLength).store(value);
    }

    /**
     * As {@link #compress(byte[], int, int, byte[])}, from all of {@code value} into the start of {@code dst}: the
     * stored form is never longer than the value, so {@code dst} needs {@code value.byteSize()} bytes. For an adapter
     * that writes into its client's buffers (Lettuce's): a write that is not sampled makes no copy of the value (it
     * allocates what {@link ValueCompressor#compress(MemorySegment, MemorySegment)} does); a sampled one works on a
     * copy.
     *
     * @return the number of bytes written to {@code dst}
     * @throws IllegalArgumentException  when {@code dst} is read-only or shorter than {@code value}
     * @throws IndexOutOfBoundsException when the key's range is not inside {@code key}
     */
    public long compress(byte[] key, int keyOffset, int keyLength, MemorySegment value, MemorySegment dst) {
        long n = value.byteSize();
        Objects.checkFromIndexSize(keyOffset, keyLength, key.length);
        if (dst.isReadOnly()) {
            throw new IllegalArgumentException("destination segment is read-only");
        }
        if (dst.byteSize() < n) {
            throw new IllegalArgumentException("destination holds " + dst.byteSize() + " bytes, the value needs up to "
                    + n + " bytes");
        }
        if (!config.mayCompress(n)) {
            MemorySegment.copy(value, 0, dst, 0, n);
            written.count(CompressionOption.PLAIN, n, n);
            return n;
        }
        return table.lookup(key, keyOffset, keyLength).store(value, dst);
    }

    /**
     * @return what this compressor has written with {@code option} so far (every value it has stored is counted under
     *         exactly one option, the one that stored it: a write of the dictionary option made without a dictionary,
     *         the pattern's being gone until its next sampled write, under {@link CompressionOption#ZSTD_3}); allocates
     *         the record
     */
    public OptionWrites writes(CompressionOption option) {
        return written.get(Objects.requireNonNull(option, "option"));
    }

    /**
     * @return the original value of a stored value: {@link #reader()}{@code .decompress(stored)} (the limit, the
     *         legacy formats and the per-pattern dictionaries apply): {@code stored} itself when it is plain
     * @throws dev.zstdjava.DecompressionLimitException if the value would decompress to more than the configured maximum
     * @throws MissingDictionaryException               if the value was written with a dictionary this compressor
     *                                                  does not hold (see {@link #reader()})
     */
    public byte[] decompress(byte[] stored) {
        return reader.decompress(stored);
    }

    /**
     * The compressor every adapter reads with, shared; {@link #decompress} is its array form. It reads, in every
     * form ({@code byte[]}, {@link java.nio.ByteBuffer}, {@link java.lang.foreign.MemorySegment}), what any option
     * wrote, with the limit and legacy formats of this configuration, and, with
     * {@link Builder#dictionaries(PatternDictionaries) per-pattern dictionaries}, the values written with a
     * dictionary that an open lineage of this process loaded. A value written with another dictionary fails with
     * {@link MissingDictionaryException} once, while the lineage that holds it is opened (retry the read): one of a
     * released or dropped lineage, or one no lineage of this process loaded (published by another process, found by
     * the id's claim); an id no lineage claimed keeps failing. With {@link Builder#dictionaries(Function) managers
     * of the application}, the values written with a dictionary that one of the managers the function has returned
     * so far loaded; a value written with another one fails with {@code MissingDictionaryException}, and the
     * managers with a store fetch it (retry the read). A dictionary id that two lineages, or two managers, hold with
     * different bytes is read with neither ({@code MissingDictionaryException} naming both; see
     * {@link PatternDictionaries}). It writes as
     * {@link ValueCompressor#create(CompressionConfig)} does, without a dictionary: writes go through
     * {@link #compress(byte[], byte[])}.
     *
     * @return the reader of this compressor's values, with this configuration and its counters
     */
    public ValueCompressor reader() {
        return reader;
    }

    /** @return the configuration every option applies (but its backend and level) */
    public CompressionConfig config() {
        return config;
    }

    /** @return the goal the decisions follow */
    public CompressionGoal goal() {
        return settings.goal();
    }

    /**
     * @return the decision of each pattern now: the listed patterns in their order, the tracked ones by values seen
     *         (most first), then {@code (other)}; allocates the list
     */
    public List<PatternDecision> snapshot() {
        List<PatternTable.Row<PatternState>> rows = table.snapshot();
        List<PatternDecision> out = new ArrayList<>(rows.size());
        for (PatternTable.Row<PatternState> r : rows) {
            out.add(r.state().decision(r.pattern()));
        }
        return out;
    }

    /** @return how many patterns are tracked now (listed ones and {@code (other)} not counted) */
    int patternsTracked() {
        return table.size();
    }

    /** @return the state of {@code key}'s pattern (not counted as a write), for tests */
    PatternState state(byte[] key) {
        return table.lookup(key);
    }

    /**
     * Builds an {@link AdaptiveCompressor}. Not thread-safe. {@link #build()} checks every setting and throws
     * {@link IllegalArgumentException} naming it, its value and its range.
     */
    public static final class Builder {
        private final CompressionConfig config;
        private CompressionGoal goal = CompressionGoal.balanced();
        private List<String> patterns = List.of();
        private int capacity = DEFAULT_CAPACITY;
        private Duration idleWindow = DEFAULT_IDLE_WINDOW;
        private CompressionOption defaultOption;
        private int firstWrites = DEFAULT_FIRST_WRITES;
        private int sampleEvery = DEFAULT_SAMPLE_EVERY;
        private int plainSampleEvery = DEFAULT_PLAIN_SAMPLE_EVERY;
        private int window = DEFAULT_WINDOW;
        private int minSamples = DEFAULT_MIN_SAMPLES;
        private int switchAfter = DEFAULT_SWITCH_AFTER;
        private double savingMargin = DEFAULT_SAVING_MARGIN;
        private double cpuMargin = DEFAULT_CPU_MARGIN;
        private Function<String, DictionaryManager> dictionaries;
        private PatternDictionaries lineages;

        private Builder(CompressionConfig config) {
            this.config = config;
        }

        /** What the decisions optimise; default {@link CompressionGoal#balanced()}. */
        public Builder goal(CompressionGoal goal) {
            this.goal = Objects.requireNonNull(goal, "goal");
            return this;
        }

        /**
         * The application's patterns, in order of precedence, each matched before the fold and never evicted: a
         * pattern is folded like a key and its {@code *} matches any run of the key's pattern ({@code user:*} takes
         * {@code user:42:cart}); none by default. A key takes the first that matches, so {@link #build()} refuses a
         * pattern an earlier one matches every key of, which would never be used ({@code user:*:cart} after
         * {@code user:*}: list the more specific first), and two that fold alike. Each is named by its text as given,
         * so {@link #build()} refuses a pattern whose text is another pattern's name: {@code (other)}, or one with
         * {@code \\} or {@code \xHH} that is the name of the keys whose pattern has a backslash or a byte that is not
         * UTF-8 there ({@code a\\b:*} is the name of the keys {@code a\b:*} matches).
         *
         * @throws NullPointerException when {@code patterns} or one of them is null (the message names its index)
         */
        public Builder patterns(List<String> patterns) {
            Objects.requireNonNull(patterns, "patterns");
            for (int i = 0; i < patterns.size(); i++) {
                if (patterns.get(i) == null) {
                    throw new NullPointerException("patterns: the listed pattern at index " + i + " is null");
                }
            }
            this.patterns = List.copyOf(patterns);
            return this;
        }

        /** The most folded patterns tracked at once, 0 to 65,536; default 256. */
        public Builder capacity(int patterns) {
            this.capacity = patterns;
            return this;
        }

        /**
         * How long a tracked pattern must go unseen before a new one may replace it: positive, at most
         * {@link DictionaryManager#LONGEST_DURATION} ({@code Long.MAX_VALUE} nanoseconds, some 292 years: the pattern
         * table keeps it as {@link System#nanoTime()} does); default {@link AdaptiveCompressor#DEFAULT_IDLE_WINDOW}.
         */
        public Builder idleWindow(Duration idle) {
            this.idleWindow = Objects.requireNonNull(idle, "idleWindow");
            return this;
        }

        /**
         * The option a pattern starts with, until it has enough samples; default zstd 3 ({@code SPEED}: lz4). Not the
         * dictionary option: a new pattern has none.
         */
        public Builder defaultOption(CompressionOption option) {
            this.defaultOption = Objects.requireNonNull(option, "option");
            return this;
        }

        /**
         * Which writes are sampled: the first {@code firstWrites} of a pattern (default 32), then one in
         * {@code every} (default 64), and one in {@code plainEvery} while the pattern is plain (default 256). A pattern
         * whose decision holds measures one of these in up to 64 (the others feed its dictionary's training), and all of
         * them again when its writes drift from what its samples showed or its dictionary comes or goes.
         */
        public Builder sampling(int firstWrites, int every, int plainEvery) {
            this.firstWrites = firstWrites;
            this.sampleEvery = every;
            this.plainSampleEvery = plainEvery;
            return this;
        }

        /**
         * How many of a pattern's latest samples the decisions look at (2 to 1,024, default 16), and how many it
         * needs before it leaves its default option (1 to the window, default 8).
         */
        public Builder window(int samples, int minSamples) {
            this.window = samples;
            this.minSamples = minSamples;
            return this;
        }

        /**
         * Hysteresis: a pattern switches when another option wins {@code evaluations} evaluations in a row
         * (at least 1, default 3), the option in use counting {@code savingMargin} more saving (0 to 0.5, default
         * 0.01) and {@code cpuMargin} less CPU (0 to 1, default 0.2) than measured.
         */
        public Builder hysteresis(int evaluations, double savingMargin, double cpuMargin) {
            this.switchAfter = evaluations;
            this.savingMargin = savingMargin;
            this.cpuMargin = cpuMargin;
            return this;
        }

        /**
         * A dictionary per pattern: {@code dictionaries} gives the manager of a pattern (as
         * {@link PatternDecision#pattern()} names it), or null for none. It is asked once per pattern state, once
         * the pattern has had as many sampled writes as it needs to leave its default option ({@link #window}'s
         * {@code minSamples}; a pattern seen a few times, such as a random key's, is never asked for), on the thread
         * of that sampled write (which waits for it, so it should return a manager it already has), and the
         * application owns (and closes) the managers. While a pattern's manager
         * has a current dictionary, the option "zstd 3 + dictionary" is measured and may be taken; {@link #reader()}
         * reads the values written with the dictionaries of every manager the function has returned. None by
         * default.
         */
        public Builder dictionaries(Function<String, DictionaryManager> dictionaries) {
            this.dictionaries = Objects.requireNonNull(dictionaries, "dictionaries");
            this.lineages = null;
            return this;
        }

        /**
         * A dictionary lineage per pattern, kept by {@code dictionaries} (see {@link PatternDictionaries}): each
         * pattern trains, publishes and loads its own dictionaries from its sampled values, within the bound on their
         * native memory, and {@link AdaptiveCompressor#reader()} (every adapter) reads the values written with
         * them. While a
         * pattern's lineage has a current dictionary, the option "zstd 3 + dictionary" is measured and may be taken;
         * such values are zstd frames with a dictionary, which Valkey GLIDE cannot read (keep GLIDE readers off these
         * patterns). Under the goal {@code SPEED}, which never writes with a dictionary, the lineages are read-only:
         * they load the dictionaries other writers published, so the reader reads their values, and never sample,
         * train or publish; one {@code PatternDictionaries} serves compressors of one kind only (see
         * {@link PatternDictionaries}, "Read-only lineages"). The application owns (and closes) {@code dictionaries};
         * replaces {@link #dictionaries(Function)}.
         */
        public Builder dictionaries(PatternDictionaries dictionaries) {
            this.lineages = Objects.requireNonNull(dictionaries, "dictionaries");
            this.dictionaries = null;
            return this;
        }

        /**
         * @return the compressor
         * @throws IllegalArgumentException when a setting is out of range (the message names it), when a listed
         *                                  pattern would never be used or has another pattern's name
         *                                  ({@link #patterns}), or when the
         *                                  {@link #dictionaries(PatternDictionaries) per-pattern dictionaries} serve a
         *                                  compressor of the other kind (one that writes with dictionaries, or a
         *                                  {@code SPEED} one, whose lineages are read-only)
         * @throws IllegalStateException    when a backend does not work, as {@link ValueCompressor#create}
         */
        public AdaptiveCompressor build() {
            return build(UnaryOperator.identity(), System::nanoTime);
        }

        /** As {@link #build()}, each pattern's writer wrapped by {@code measuring} and timed by {@code nanoClock}. */
        AdaptiveCompressor build(UnaryOperator<OptionWriter> measuring, LongSupplier nanoClock) {
            if (idleWindow.isNegative() || idleWindow.isZero()) {
                throw new IllegalArgumentException("idleWindow " + idleWindow + ": must be positive");
            }
            if (idleWindow.compareTo(DictionaryManager.LONGEST_DURATION) > 0) {
                throw new IllegalArgumentException("idleWindow " + idleWindow + ": at most "
                        + DictionaryManager.LONGEST_DURATION
                        + " (Long.MAX_VALUE ns)");
            }
            if (capacity < 0 || capacity > PatternTable.MAX_CAPACITY) {
                throw new IllegalArgumentException("capacity " + capacity + " patterns: 0 to "
                        + PatternTable.MAX_CAPACITY);
            }
            return new AdaptiveCompressor(this, measuring, nanoClock);
        }
    }
}
