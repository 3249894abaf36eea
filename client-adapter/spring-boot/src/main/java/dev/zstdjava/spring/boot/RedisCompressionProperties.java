package dev.zstdjava.spring.boot;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionGoal;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.LegacyFormat;
import dev.zstdjava.values.PatternDictionaries;
import dev.zstdjava.values.ServerDictionaryLayout;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.core.io.Resource;
import org.springframework.util.unit.DataSize;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The settings under {@value #PREFIX}, bound by Spring Boot. {@link #toConfig()} checks them and names the property
 * and its allowed values when one is wrong.
 *
 * <p>Not thread-safe (a bean bound once at startup).
 */
@ConfigurationProperties(RedisCompressionProperties.PREFIX)
public class RedisCompressionProperties {
    /** The prefix of every property of the auto-configuration. */
    public static final String PREFIX = "zstd-java.redis.compression";

    /**
     * Whether to compress the values of Boot's redisTemplate and of every cache of Boot's RedisCacheManager, in Valkey
     * GLIDE's stored format. Off: nothing of this library is configured and the native library is not loaded.
     */
    private boolean enabled = false;

    /**
     * The algorithm new values are compressed with; GLIDE clients read both. Ignored with adaptive.enabled=true: each
     * option adaptive compression picks has its own algorithm and level.
     */
    private CompressionBackend backend = CompressionBackend.ZSTD;

    /**
     * The compression level; default the backend's (zstd 3, lz4 0). zstd: -131072..22; lz4: -128..12 (above 0 is
     * LZ4 HC, below 0 fast mode). Ignored with adaptive.enabled=true: each option adaptive compression picks has its
     * own algorithm and level (a level out of the backend's range still fails startup).
     */
    private Integer level;

    /** Values smaller than this are stored as they are (at least 6 bytes). */
    private DataSize minSize = DataSize.ofBytes(CompressionConfig.DEFAULT_MIN_COMPRESSION_SIZE);

    /**
     * A stored value that would decompress to more than this fails its read with DecompressionLimitException
     * (1 byte to 2 GiB - 9 bytes); a longer value is written as it is, so that it reads back.
     */
    private DataSize maxDecompressedSize = DataSize.ofBytes(CompressionConfig.DEFAULT_MAX_DECOMPRESSED_SIZE);

    /**
     * Whether to compress hash values too (redisTemplate.opsForHash()). GLIDE clients cannot read them: their HGET
     * does not decompress. On, HINCRBY, HINCRBYFLOAT and HSTRLEN are refused on the compressing templates.
     */
    private boolean hashValues = false;

    /**
     * Formats of other clients' own compression to read as well, for data written before the switch:
     * lettuce-gzip, lettuce-deflate, redisson-zstd, redisson-lz4. Enable only those the data was written with.
     */
    private Set<LegacyFormat> legacyFormats = new LinkedHashSet<>();

    /** Whether to compress the values of every cache of Boot's RedisCacheManager (keys are never compressed). */
    private boolean caches = true;

    /**
     * Whether stringRedisTemplate compresses too (a CompressingStringRedisTemplate in place of Boot's
     * StringRedisTemplate). Off by default: a compressing template refuses INCR, DECR, APPEND, STRLEN, GETRANGE,
     * SETRANGE and the bit operations for every key, so counters kept on stringRedisTemplate stop working.
     */
    private boolean stringTemplate = false;

    private final Dictionaries dictionaries = new Dictionaries();

    private final Adaptive adaptive = new Adaptive();

    /** Properties with every default; Boot binds the environment onto them. */
    public RedisCompressionProperties() {
    }

    public boolean isEnabled() {
        return enabled;
    }

    public void setEnabled(boolean enabled) {
        this.enabled = enabled;
    }

    public CompressionBackend getBackend() {
        return backend;
    }

    public void setBackend(CompressionBackend backend) {
        this.backend = backend;
    }

    public Integer getLevel() {
        return level;
    }

    public void setLevel(Integer level) {
        this.level = level;
    }

    public DataSize getMinSize() {
        return minSize;
    }

    public void setMinSize(DataSize minSize) {
        this.minSize = minSize;
    }

    public DataSize getMaxDecompressedSize() {
        return maxDecompressedSize;
    }

    public void setMaxDecompressedSize(DataSize maxDecompressedSize) {
        this.maxDecompressedSize = maxDecompressedSize;
    }

    public boolean isHashValues() {
        return hashValues;
    }

    public void setHashValues(boolean hashValues) {
        this.hashValues = hashValues;
    }

    public Set<LegacyFormat> getLegacyFormats() {
        return legacyFormats;
    }

    public void setLegacyFormats(Set<LegacyFormat> legacyFormats) {
        this.legacyFormats = legacyFormats;
    }

    public boolean isCaches() {
        return caches;
    }

    public void setCaches(boolean caches) {
        this.caches = caches;
    }

    public boolean isStringTemplate() {
        return stringTemplate;
    }

    public void setStringTemplate(boolean stringTemplate) {
        this.stringTemplate = stringTemplate;
    }

    public Dictionaries getDictionaries() {
        return dictionaries;
    }

    public Adaptive getAdaptive() {
        return adaptive;
    }

    /**
     * @param config the configuration every option applies ({@link #toConfig()})
     * @return the adaptive compressor the {@code adaptive.*} properties describe
     * @throws RedisCompressionException naming the property, its value and the allowed values, if one is wrong
     * @throws IllegalStateException     when a backend does not work, as {@link AdaptiveCompressor.Builder#build()}
     */
    public AdaptiveCompressor toAdaptive(CompressionConfig config) {
        return toAdaptive(config, null);
    }

    /**
     * As {@link #toAdaptive(CompressionConfig)}, each pattern with its own dictionaries from {@code dictionaries}
     * (null: none).
     *
     * @throws RedisCompressionException naming the property that is out of range
     */
    public AdaptiveCompressor toAdaptive(CompressionConfig config, PatternDictionaries dictionaries) {
        Adaptive a = adaptive;
        String budget = "adaptive.cpu-budget";
        CompressionGoal goal;
        if (a.goal == null) {
            throw invalid("adaptive.goal", null, "memory, balanced, speed");
        }
        if (a.goal == Goal.MEMORY) {
            if (a.cpuBudget == null || !(a.cpuBudget > 0)) {
                throw invalid(budget, a.cpuBudget, "a positive number of microseconds per KiB of input (for"
                        + " example 20) when " + PREFIX + ".adaptive.goal is memory");
            }
            goal = CompressionGoal.memory(a.cpuBudget);
        } else {
            if (a.cpuBudget != null) {
                throw invalid(budget, a.cpuBudget, "unset unless " + PREFIX + ".adaptive.goal is memory (the goal is "
                        + a.goal.name().toLowerCase(java.util.Locale.ROOT) + ")");
            }
            goal = a.goal == Goal.SPEED ? CompressionGoal.speed() : CompressionGoal.balanced();
        }
        if (a.capacity < 1) {
            throw invalid("adaptive.capacity", a.capacity, "at least 1 pattern");
        }
        if (a.idleWindow == null || a.idleWindow.isNegative() || a.idleWindow.isZero()
                || a.idleWindow.compareTo(DictionaryManager.LONGEST_DURATION) > 0) {
            throw invalid("adaptive.idle-window", a.idleWindow, "a positive duration, at most "
                    + DictionaryManager.LONGEST_DURATION
                    + " (Long.MAX_VALUE ns)");
        }
        List<String> patterns = a.patterns == null ? List.of() : a.patterns;
        for (String p : patterns) {
            if (p == null || p.isBlank()) {
                throw invalid("adaptive.patterns", patterns, "non-blank key patterns, such as user:*");
            }
        }
        // the ranges are the builder's; when it refuses, each group is tried alone to name the properties at fault
        List<AdaptiveGroup> groups = List.of(
                new AdaptiveGroup("adaptive.patterns", patterns, b -> b.patterns(patterns)),
                new AdaptiveGroup("adaptive.capacity", a.capacity, b -> b.capacity(a.capacity)),
                new AdaptiveGroup("adaptive.sampling", "first-writes=" + a.sampling.firstWrites + ", every="
                        + a.sampling.every + ", plain-every=" + a.sampling.plainEvery,
                        b -> b.sampling(a.sampling.firstWrites, a.sampling.every, a.sampling.plainEvery)),
                new AdaptiveGroup("adaptive.window", "samples=" + a.window.samples + ", min-samples="
                        + a.window.minSamples, b -> b.window(a.window.samples, a.window.minSamples)),
                new AdaptiveGroup("adaptive.hysteresis", "evaluations=" + a.hysteresis.evaluations
                        + ", saving-margin=" + a.hysteresis.savingMargin + ", cpu-margin=" + a.hysteresis.cpuMargin,
                        b -> b.hysteresis(a.hysteresis.evaluations, a.hysteresis.savingMargin,
                                a.hysteresis.cpuMargin)));
        AdaptiveCompressor.Builder b = AdaptiveCompressor.builder(config).goal(goal).idleWindow(a.idleWindow);
        for (AdaptiveGroup g : groups) {
            g.settings.apply(b);
        }
        if (dictionaries != null) {
            b.dictionaries(dictionaries);
        }
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            for (AdaptiveGroup g : groups) {
                try {
                    g.settings.apply(AdaptiveCompressor.builder(config)).build();
                } catch (IllegalArgumentException alone) {
                    throw invalid(g.property, g.value, alone.getMessage());
                }
            }
            throw e; // no group alone is refused: not a setting of these properties
        }
    }

    /** Properties of {@code adaptive.*} that the builder checks together, under one name. */
    private record AdaptiveGroup(String property, Object value,
                                 java.util.function.UnaryOperator<AdaptiveCompressor.Builder> settings) {
    }

    /**
     * @return the compression configuration these properties describe
     * @throws RedisCompressionException naming the property, its value and the allowed values, if one is wrong
     */
    public CompressionConfig toConfig() {
        if (backend == null) {
            throw invalid("backend", null, "zstd, lz4");
        }
        if (level != null && (level < backend.minLevel() || level > backend.maxLevel())) {
            throw invalid("level", level, backend.minLevel() + ".." + backend.maxLevel() + " for the "
                    + backend.name().toLowerCase(java.util.Locale.ROOT) + " backend");
        }
        long min = minSize == null ? -1 : minSize.toBytes();
        if (min < CompressionConfig.MIN_COMPRESSION_SIZE_LIMIT || min > Integer.MAX_VALUE) {
            throw invalid("min-size", minSize, CompressionConfig.MIN_COMPRESSION_SIZE_LIMIT + "B.."
                    + Integer.MAX_VALUE + "B");
        }
        long max = maxDecompressedSize == null ? -1 : maxDecompressedSize.toBytes();
        if (max < 1 || max > CompressionConfig.MAX_DECOMPRESSED_SIZE_LIMIT) {
            throw invalid("max-decompressed-size", maxDecompressedSize, "1B.."
                    + CompressionConfig.MAX_DECOMPRESSED_SIZE_LIMIT + "B");
        }
        CompressionConfig.Builder b = CompressionConfig.builder()
                .backend(backend)
                .minCompressionSize((int) min)
                .maxDecompressedSize(max)
                .compressHashValues(hashValues)
                .readLegacy(legacyFormats == null ? new LegacyFormat[0] : legacyFormats.toArray(new LegacyFormat[0]));
        if (level != null) {
            b.level(level);
        }
        return b.build();
    }

    static RedisCompressionException invalid(String property, Object value, String allowed) {
        return RedisCompressionException.invalid(property, value, allowed);
    }

    /** What adaptive compression optimises. */
    public enum Goal {
        /** The largest saving within a CPU budget (adaptive.cpu-budget). */
        MEMORY,
        /** The cheapest option close to the best saving; plain when nothing saves 5%. */
        BALANCED,
        /** lz4 when it saves 5%, else plain. */
        SPEED
    }

    /**
     * Adaptive compression: each value written with the option its key's pattern has shown to suit the goal (plain,
     * lz4, zstd at several levels), decided from sampled writes. With dictionaries.mode=off the values stay readable
     * by every reader of this library and by GLIDE clients. With dictionaries.mode=managed a pattern may write its
     * values with its own dictionary: those need a reader with the pattern's dictionaries (such as the adaptive
     * compressor's reader, which the ValueCompressor bean is), and GLIDE clients cannot read them (they return them
     * as stored).
     */
    public static class Adaptive {
        /**
         * Whether redisTemplate (and stringRedisTemplate when it compresses) write each value under its key's
         * pattern, and each cache of Boot's RedisCacheManager under its name's pattern (the name folded as a key is,
         * so names differing only in digits share one). With dictionaries.mode=managed, GLIDE clients cannot read the
         * values a pattern writes with its dictionary.
         */
        private boolean enabled = false;

        /** memory (the largest saving within cpu-budget), balanced, or speed. */
        private Goal goal = Goal.BALANCED;

        /**
         * The most compression CPU an option may take for goal memory, in microseconds per KiB of input; no default:
         * required for goal memory, unset for the others.
         */
        private Double cpuBudget;

        /**
         * The application's key patterns, in order of precedence, matched before keys are folded and never evicted
         * (a '*' matches any run, e.g. user:*); others are found by folding the keys.
         */
        private List<String> patterns = new ArrayList<>();

        /** The most patterns tracked at once (1 to 65536); the rest share one decision. */
        private int capacity = AdaptiveCompressor.DEFAULT_CAPACITY;

        /** How long a tracked pattern must go unseen before a new one may replace it. */
        private Duration idleWindow = AdaptiveCompressor.DEFAULT_IDLE_WINDOW;

        /** Which writes of a pattern are also written with every option and timed, on the writing thread. */
        private final Sampling sampling = new Sampling();

        /** How many of a pattern's latest samples a decision looks at. */
        private final Window window = new Window();

        /** How much another option must win by, and how often, before a pattern switches to it. */
        private final Hysteresis hysteresis = new Hysteresis();

        /**
         * With dictionaries.mode=managed: the bound on the native memory of loaded dictionaries, all patterns
         * together. Beyond it the pattern used least recently gives its dictionaries up: it writes without one, and
         * its values read once its dictionaries are loaded again. Each pattern's own dictionaries are bounded by
         * dictionaries.max-loaded-bytes besides.
         */
        private DataSize dictionaryMemory = DataSize.ofBytes(PatternDictionaries.DEFAULT_MAX_NATIVE_BYTES);

        /**
         * With dictionaries.mode=managed: the most patterns with their dictionaries open at once (each runs two daemon
         * threads and keeps its samples); beyond it the pattern used least recently gives its dictionaries up.
         */
        private int dictionaryPatterns = AdaptiveCompressor.DEFAULT_CAPACITY;

        /**
         * With dictionaries.mode=managed: the least time before a pattern that gave its dictionaries up (or failed to
         * open them) opens them again for writing; a read opens them at once.
         */
        private Duration dictionaryReopenDelay = PatternDictionaries.DEFAULT_REOPEN_DELAY;

        /** The defaults. */
        public Adaptive() {
        }

        public Sampling getSampling() {
            return sampling;
        }

        public Window getWindow() {
            return window;
        }

        public Hysteresis getHysteresis() {
            return hysteresis;
        }

        public DataSize getDictionaryMemory() {
            return dictionaryMemory;
        }

        public void setDictionaryMemory(DataSize dictionaryMemory) {
            this.dictionaryMemory = dictionaryMemory;
        }

        public int getDictionaryPatterns() {
            return dictionaryPatterns;
        }

        public void setDictionaryPatterns(int dictionaryPatterns) {
            this.dictionaryPatterns = dictionaryPatterns;
        }

        public Duration getDictionaryReopenDelay() {
            return dictionaryReopenDelay;
        }

        public void setDictionaryReopenDelay(Duration dictionaryReopenDelay) {
            this.dictionaryReopenDelay = dictionaryReopenDelay;
        }

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public Goal getGoal() {
            return goal;
        }

        public void setGoal(Goal goal) {
            this.goal = goal;
        }

        public Double getCpuBudget() {
            return cpuBudget;
        }

        public void setCpuBudget(Double cpuBudget) {
            this.cpuBudget = cpuBudget;
        }

        public List<String> getPatterns() {
            return patterns;
        }

        public void setPatterns(List<String> patterns) {
            this.patterns = patterns;
        }

        public int getCapacity() {
            return capacity;
        }

        public void setCapacity(int capacity) {
            this.capacity = capacity;
        }

        public Duration getIdleWindow() {
            return idleWindow;
        }

        public void setIdleWindow(Duration idleWindow) {
            this.idleWindow = idleWindow;
        }
    }

    /** Adaptive compression: which writes of a pattern are sampled. */
    public static class Sampling {
        /** A pattern's first writes, each sampled (at least 0). */
        private int firstWrites = AdaptiveCompressor.DEFAULT_FIRST_WRITES;

        /**
         * Then one write in this many is sampled (at least 1); a pattern whose decision holds measures one of these in up
         * to 64, until its data drifts.
         */
        private int every = AdaptiveCompressor.DEFAULT_SAMPLE_EVERY;

        /** While the pattern is stored plain, one write in this many is sampled, to notice it compresses again. */
        private int plainEvery = AdaptiveCompressor.DEFAULT_PLAIN_SAMPLE_EVERY;

        public int getFirstWrites() {
            return firstWrites;
        }

        public void setFirstWrites(int firstWrites) {
            this.firstWrites = firstWrites;
        }

        public int getEvery() {
            return every;
        }

        public void setEvery(int every) {
            this.every = every;
        }

        public int getPlainEvery() {
            return plainEvery;
        }

        public void setPlainEvery(int plainEvery) {
            this.plainEvery = plainEvery;
        }
    }

    /** Adaptive compression: the samples a decision looks at. */
    public static class Window {
        /** The latest samples of a pattern a decision looks at (2 to 1024). */
        private int samples = AdaptiveCompressor.DEFAULT_WINDOW;

        /** The samples a pattern needs before it leaves its first option (1 to window.samples). */
        private int minSamples = AdaptiveCompressor.DEFAULT_MIN_SAMPLES;

        public int getSamples() {
            return samples;
        }

        public void setSamples(int samples) {
            this.samples = samples;
        }

        public int getMinSamples() {
            return minSamples;
        }

        public void setMinSamples(int minSamples) {
            this.minSamples = minSamples;
        }
    }

    /** Adaptive compression: what keeps stationary data from flapping between options. */
    public static class Hysteresis {
        /** A pattern switches when another option wins this many evaluations in a row (at least 1). */
        private int evaluations = AdaptiveCompressor.DEFAULT_SWITCH_AFTER;

        /** The saving the option in use is credited with, a fraction of the stored bytes (0 to 0.5, excluded). */
        private double savingMargin = AdaptiveCompressor.DEFAULT_SAVING_MARGIN;

        /** The share of its CPU the option in use is spared (0 to 1, excluded). */
        private double cpuMargin = AdaptiveCompressor.DEFAULT_CPU_MARGIN;

        public int getEvaluations() {
            return evaluations;
        }

        public void setEvaluations(int evaluations) {
            this.evaluations = evaluations;
        }

        public double getSavingMargin() {
            return savingMargin;
        }

        public void setSavingMargin(double savingMargin) {
            this.savingMargin = savingMargin;
        }

        public double getCpuMargin() {
            return cpuMargin;
        }

        public void setCpuMargin(double cpuMargin) {
            this.cpuMargin = cpuMargin;
        }
    }

    /** How compression uses zstd dictionaries. */
    public enum DictionaryMode {
        /** No dictionary (GLIDE clients read every value). */
        OFF,
        /** The dictionaries given by resources; the last one compresses. */
        GIVEN,
        /** Trained from the values written and published in the server, shared with every client of the store. */
        MANAGED,
        /** Compress with the newest dictionary another client published in the server; never train. */
        SHARED
    }

    /**
     * zstd dictionaries for small values. GLIDE clients cannot read dictionary-compressed values (they return them as
     * stored): turn them on only when every reader of the keys is this library.
     */
    public static class Dictionaries {
        /**
         * off, given (from resources), managed (trained and published in the server) or shared (published there by
         * another client). Any mode but off makes the values unreadable for GLIDE clients; zstd backend only.
         */
        private DictionaryMode mode = DictionaryMode.OFF;

        /** Given mode: the dictionaries (zstd dictionary files, e.g. from zstd --train); the last one compresses. */
        private List<Resource> resources = new ArrayList<>();

        /** Managed and shared: how long startup may take to load the dictionaries published in the server. */
        private Duration loadTimeout = DictionaryManager.DEFAULT_LOAD_TIMEOUT;

        /** Managed and shared: how often the server's publication counter is checked for new dictionaries. */
        private Duration refreshInterval = DictionaryManager.DEFAULT_REFRESH_INTERVAL;

        /**
         * Managed and shared: whether to subscribe to the server's publication announcements (off where SUBSCRIBE is
         * refused).
         */
        private boolean notifications = true;

        /**
         * Managed and shared: the bound on the estimated native memory of the dictionaries the manager loads, each
         * counted as its size plus 32 KiB of tables (at least 1B). The newest load first; beyond the bound the least
         * recently read are evicted (never the one compressing) and loaded again when a value needs one: that read
         * fails once with MissingDictionaryException and succeeds when retried within 5 s (a dictionary a read loads
         * is kept for its retry: above the bound by at most the bound again). With adaptive.enabled=true it bounds
         * each pattern's manager on its own; adaptive.dictionary-memory bounds all patterns together.
         */
        private DataSize maxLoadedBytes = DataSize.ofBytes(DictionaryManager.DEFAULT_MAX_LOADED_BYTES);

        /** Managed: the least time between two trainings across all clients of the store. */
        private Duration retrainInterval = DictionaryManager.DEFAULT_RETRAIN_INTERVAL;

        /** Managed: the size of trained dictionaries. */
        private DataSize dictionarySize = DataSize.ofBytes(DictionaryManager.DEFAULT_DICTIONARY_SIZE);

        /**
         * Managed: train once this many values have been sampled (at least 10), or as many as the sampling's byte bound
         * holds when that is fewer.
         */
        private int minSamples = DictionaryManager.DEFAULT_MIN_SAMPLES;

        private final Store store = new Store();

        /** The defaults. */
        public Dictionaries() {
        }

        public DictionaryMode getMode() {
            return mode;
        }

        public void setMode(DictionaryMode mode) {
            this.mode = mode;
        }

        public List<Resource> getResources() {
            return resources;
        }

        public void setResources(List<Resource> resources) {
            this.resources = resources;
        }

        public Duration getLoadTimeout() {
            return loadTimeout;
        }

        public void setLoadTimeout(Duration loadTimeout) {
            this.loadTimeout = loadTimeout;
        }

        public Duration getRefreshInterval() {
            return refreshInterval;
        }

        public void setRefreshInterval(Duration refreshInterval) {
            this.refreshInterval = refreshInterval;
        }

        public boolean isNotifications() {
            return notifications;
        }

        public void setNotifications(boolean notifications) {
            this.notifications = notifications;
        }

        public DataSize getMaxLoadedBytes() {
            return maxLoadedBytes;
        }

        public void setMaxLoadedBytes(DataSize maxLoadedBytes) {
            this.maxLoadedBytes = maxLoadedBytes;
        }

        public Duration getRetrainInterval() {
            return retrainInterval;
        }

        public void setRetrainInterval(Duration retrainInterval) {
            this.retrainInterval = retrainInterval;
        }

        public DataSize getDictionarySize() {
            return dictionarySize;
        }

        public void setDictionarySize(DataSize dictionarySize) {
            this.dictionarySize = dictionarySize;
        }

        public int getMinSamples() {
            return minSamples;
        }

        public void setMinSamples(int minSamples) {
            this.minSamples = minSamples;
        }

        public Store getStore() {
            return store;
        }
    }

    /** Where managed and shared dictionaries live: keys in the server, over Boot's RedisConnectionFactory. */
    public static class Store {
        /**
         * The reserved key prefix of the dictionary keys; exactly one hash tag, so a cluster keeps them in one slot.
         * The same as zstd-java-lettuce's LettuceDictionaryStore, so both clients share the dictionaries.
         */
        private String keyPrefix = ServerDictionaryLayout.DEFAULT_PREFIX;

        /**
         * The largest dictionary read from or written to the server (256B to 64MB); larger entries are refused
         * unread, and dictionary-size may not exceed it.
         */
        private DataSize maxDictionarySize = DataSize.ofBytes(ServerDictionaryLayout.DEFAULT_MAX_DICTIONARY_SIZE);

        /** The defaults. */
        public Store() {
        }

        public String getKeyPrefix() {
            return keyPrefix;
        }

        public void setKeyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
        }

        public DataSize getMaxDictionarySize() {
            return maxDictionarySize;
        }

        public void setMaxDictionarySize(DataSize maxDictionarySize) {
            this.maxDictionarySize = maxDictionarySize;
        }
    }
}
