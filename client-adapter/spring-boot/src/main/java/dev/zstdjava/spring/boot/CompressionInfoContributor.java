package dev.zstdjava.spring.boot;

import dev.zstdjava.NativeLibrary;
import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionStats;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.PatternDecision;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.Zstd;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.actuate.info.InfoContributor;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Adds {@code zstd-java} to Actuator's info endpoint: the backend, level and limits, the native library (name,
 * version, how it was found and the file loaded), the dictionaries when used (made by the auto-configuration in a mode
 * with a store: with {@code maxLoadedBytes}, the bound on the dictionaries the manager loads), and the compressor's
 * counters. With adaptive compression, {@code adaptive}: the goal, {@code dictionaries} when the auto-configuration
 * made the pattern lineages ({@code maxLoadedBytes}, each pattern's manager's bound, and {@code dictionaryMemory},
 * all patterns' together), and {@code decisions}, one entry per pattern of
 * {@link AdaptiveCompressor#snapshot()} ({@code pattern}, {@code option}, {@code savedFraction}, {@code valuesSeen},
 * {@code since}); the counters are then the reader's (reads), the writes being counted per option inside the adaptive
 * compressor.
 *
 * <p><b>Thread safety:</b> thread-safe; each call reads the counters once (a few small maps per call; with adaptive
 * compression a snapshot of the decisions and a map per pattern).
 */
public final class CompressionInfoContributor implements InfoContributor {
    /** The bound on the dictionaries a manager loads (with adaptive compression: each pattern's manager), in bytes. */
    static final String MAX_LOADED_BYTES = "maxLoadedBytes";
    /** With adaptive compression, the bound on the dictionaries all patterns load together, in bytes. */
    static final String DICTIONARY_MEMORY = "dictionaryMemory";
    /** The bounds the entry shows, in this order. */
    private static final List<String> BOUNDS = List.of(MAX_LOADED_BYTES, DICTIONARY_MEMORY);

    private final ValueCompressor compressor;
    /** the adaptive compressor, or null */
    private final AdaptiveCompressor adaptive;
    /**
     * the bounds on loaded dictionaries the configuration set, in bytes, by their name in the entry (empty: none
     * known): under {@code dictionaries} in the fixed mode, under {@code adaptive.dictionaries} with adaptive
     * compression
     */
    private final Map<String, Long> bounds;

    public CompressionInfoContributor(ValueCompressor compressor) {
        this(compressor, Map.of());
    }

    /** With adaptive compression: the reader's configuration and counters, and {@code adaptive}'s decisions. */
    public CompressionInfoContributor(AdaptiveCompressor adaptive) {
        this(adaptive, Map.of());
    }

    /** As the public one, with the {@code bounds} on loaded dictionaries that the configuration set (in bytes). */
    CompressionInfoContributor(ValueCompressor compressor, Map<String, Long> bounds) {
        this.compressor = Objects.requireNonNull(compressor, "compressor");
        this.adaptive = null;
        this.bounds = Map.copyOf(bounds);
    }

    /** As the public one, with the {@code bounds} on the pattern lineages' dictionaries (in bytes). */
    CompressionInfoContributor(AdaptiveCompressor adaptive, Map<String, Long> bounds) {
        this.adaptive = Objects.requireNonNull(adaptive, "adaptive");
        this.compressor = adaptive.reader();
        this.bounds = Map.copyOf(bounds);
    }

    @Override
    public void contribute(Info.Builder builder) {
        builder.withDetail(RedisCompressionInfoAutoConfiguration.NAME, details());
    }

    /** @return what {@link #contribute} adds, as an ordered map */
    public Map<String, Object> details() {
        CompressionConfig config = compressor.config();
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("backend", config.backend().name().toLowerCase(Locale.ROOT));
        d.put("level", config.level());
        d.put("minSize", config.minCompressionSize());
        d.put("maxDecompressedSize", config.maxDecompressedSize());
        d.put("hashValues", config.compressHashValues());
        NativeLibrary lib = config.backend() == CompressionBackend.LZ4 ? Lz4.library() : Zstd.library();
        Map<String, Object> library = new LinkedHashMap<>();
        library.put("name", lib.name());
        library.put("version", lib.version());
        library.put("source", lib.source().name().toLowerCase(Locale.ROOT));
        library.put("location", lib.location());
        library.put("platform", lib.platform());
        d.put("library", library);
        DictionaryManager dictionaries = compressor.dictionaries();
        if (dictionaries != null) {
            Map<String, Object> dict = new LinkedHashMap<>();
            dict.put("current", dictionaries.currentId());
            dict.put("loaded", dictionaries.dictionaryStats().size());
            dict.put("rejected", dictionaries.rejectedDictionaries().size());
            if (adaptive == null) {
                putBounds(dict);
            }
            d.put("dictionaries", dict);
        }
        CompressionStats s = compressor.stats();
        Map<String, Object> counters = new LinkedHashMap<>();
        counters.put("compressed", s.valuesCompressed());
        counters.put("decompressed", s.valuesDecompressed());
        counters.put("originalBytes", s.originalBytes());
        counters.put("compressedBytes", s.compressedBytes());
        counters.put("decompressedBytes", s.decompressedBytes());
        counters.put("skipped", s.skipped());
        counters.put("compressionFailures", s.compressionFailures());
        counters.put("decompressionFailures", s.decompressionFailures());
        counters.put("sizeLimitErrors", s.sizeLimitErrors());
        counters.put("legacyDecompressed", s.legacyDecompressed());
        d.put("counters", counters);
        if (adaptive != null) {
            d.put("adaptive", adaptive(adaptive));
        }
        return d;
    }

    /** Adds the bounds, in the order {@link #BOUNDS} names them. */
    private void putBounds(Map<String, Object> to) {
        for (String name : BOUNDS) {
            Long value = bounds.get(name);
            if (value != null) {
                to.put(name, value);
            }
        }
    }

    private Map<String, Object> adaptive(AdaptiveCompressor adaptive) {
        Map<String, Object> a = new LinkedHashMap<>();
        a.put("goal", adaptive.goal().kind().name().toLowerCase(Locale.ROOT));
        if (Double.isFinite(adaptive.goal().cpuBudgetMicrosPerKiB())) {
            a.put("cpuBudget", adaptive.goal().cpuBudgetMicrosPerKiB());
        }
        if (!bounds.isEmpty()) {
            Map<String, Object> dictionaries = new LinkedHashMap<>();
            putBounds(dictionaries);
            a.put("dictionaries", dictionaries);
        }
        List<Map<String, Object>> decisions = new ArrayList<>();
        for (PatternDecision p : adaptive.snapshot()) {
            Map<String, Object> row = new LinkedHashMap<>();
            row.put("pattern", p.pattern());
            row.put("option", p.option().label());
            row.put("savedFraction", p.savedFraction());
            row.put("valuesSeen", p.valuesSeen());
            row.put("since", p.since().toString());
            decisions.add(row);
        }
        a.put("decisions", decisions);
        return a;
    }
}
