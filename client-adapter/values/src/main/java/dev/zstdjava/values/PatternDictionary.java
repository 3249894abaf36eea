package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.util.function.Function;

/**
 * The dictionary option of one pattern: either the application's {@link DictionaryManager} for that pattern, asked for
 * the first time the pattern is sampled (not when the pattern is first seen: making a compressor checks its backend),
 * and a {@link ValueCompressor} over it; or the pattern's own lineage of {@link PatternDictionaries}, opened (on that
 * object's thread) the first time the pattern is sampled and fed the pattern's sampled values. The option is ready
 * while the manager has a current dictionary; a manager that is missing, released, or whose compressor cannot be made,
 * leaves the pattern on the options without one. Every other option is written by the shared writers.
 *
 * <p><b>Thread safety:</b> {@link #ready} runs on the pattern's sampling thread only; {@link #store} from any thread
 * (the compressor is published through a volatile field before the option can be chosen). <b>Allocation:</b> as
 * {@link OptionWriters}.
 */
final class PatternDictionary implements OptionWriter {
    private static final System.Logger LOG = System.getLogger(AdaptiveCompressor.class.getName());

    private final OptionWriter shared;
    private final String pattern;
    private final Function<String, DictionaryManager> dictionaries;
    private final CompressionConfig config;
    private boolean asked;
    private volatile ValueCompressor withDictionary;
    private DictionaryManager manager;
    /** Every manager {@link #dictionaries} returned, for the reader; null with {@link PatternDictionaries}. */
    private final PatternManagers given;
    /** Null unless the dictionaries are {@link PatternDictionaries}. */
    private final PatternDictionaries.Lineage lineage;

    PatternDictionary(OptionWriter shared, PatternDictionaries.Lineage lineage) {
        this.shared = shared;
        this.pattern = lineage.pattern;
        this.dictionaries = null;
        this.given = null;
        this.config = null;
        this.lineage = lineage;
    }

    PatternDictionary(OptionWriter shared, String pattern, Function<String, DictionaryManager> dictionaries,
                      PatternManagers given, CompressionConfig config) {
        this.shared = shared;
        this.pattern = pattern;
        this.dictionaries = dictionaries;
        this.given = given;
        this.config = config;
        this.lineage = null;
    }

    @Override
    public byte[] store(CompressionOption option, byte[] value) {
        ValueCompressor vc = lineage != null ? lineage.writer() : givenWriter();
        if (option.dictionary() && vc != null) {
            return vc.compress(value);
        }
        return shared.store(option, value);
    }

    @Override
    public long store(CompressionOption option, MemorySegment value, MemorySegment dst) {
        ValueCompressor vc = lineage != null ? lineage.writer() : givenWriter();
        if (option.dictionary() && vc != null) {
            return vc.compress(value, dst);
        }
        return shared.store(option, value, dst);
    }

    @Override
    public boolean ready(CompressionOption option) {
        if (!option.dictionary()) {
            return shared.ready(option);
        }
        if (lineage != null) {
            return lineage.acquire() != null;
        }
        if (!asked) {
            asked = true;
            try {
                manager = dictionaries.apply(pattern);
                if (manager != null) {
                    given.add(manager, pattern);
                    withDictionary = ValueCompressor.create(option.config(config), manager);
                }
            } catch (RuntimeException e) {
                LOG.log(System.Logger.Level.WARNING, "adaptive compression: pattern " + pattern + ": no dictionary ("
                        + e + "); the options without one stay in use");
            }
        }
        return withDictionary != null && manager.currentId() != 0 && given.writable(manager);
    }

    /** The given manager's compressor, unless its current dictionary's id is another given manager's too. */
    private ValueCompressor givenWriter() {
        ValueCompressor vc = withDictionary;
        return vc != null && given.writable(manager) ? vc : null;
    }

    @Override
    public void sampled(byte[] value) {
        if (lineage != null) {
            lineage.sample(value);
        }
    }
}
