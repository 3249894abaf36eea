package dev.zstdjava.values;

import java.lang.foreign.MemorySegment;
import java.util.function.Function;

/**
 * The dictionary option of one pattern: either the application's {@link DictionaryManager} for that pattern and a
 * {@link ValueCompressor} over it, or the pattern's own lineage of {@link PatternDictionaries}, opened (on that
 * object's thread) and fed the pattern's sampled values. Either is looked for only once the pattern has had
 * {@code openAfter} sampled writes (as many as it needs to leave its default option), not when it is first seen or
 * first sampled: a pattern seen a few times, as every pattern of a keyspace of random keys is, never asks the
 * application's function for a manager, never makes a lineage and never opens a store. A lineage the lineages dropped
 * (closed, and beyond the ones they keep: {@link PatternDictionaries}, "Bounded under churn") is replaced by a new
 * one at the pattern's next sampled write. The option is ready while the manager has a current dictionary; a manager
 * that is missing, released, closed by the application, or whose compressor cannot be made, leaves the pattern on
 * the options without one (a write between a manager's close and the pattern's next sampled write is written with
 * zstd 3, without it). Every other option is written by the shared writers.
 *
 * <p><b>Thread safety:</b> {@link #ready} and {@link #sampled} run on the pattern's sampling thread only (under its
 * lock); {@link #store} from any thread (the compressor and the lineage are published through volatile fields before
 * the option can be chosen). <b>Allocation:</b> as {@link OptionWriters}.
 */
final class PatternDictionary implements OptionWriter {
    private static final System.Logger LOG = System.getLogger(AdaptiveCompressor.class.getName());

    private final OptionWriter shared;
    private final String pattern;
    private final int openAfter;
    private int samples; // sampling thread only, counted up to openAfter
    private final Function<String, DictionaryManager> dictionaries;
    private final CompressionConfig config;
    private boolean asked;
    private volatile ValueCompressor withDictionary;
    private DictionaryManager manager;
    /** Every manager {@link #dictionaries} returned, for the reader; null with {@link PatternDictionaries}. */
    private final PatternManagers given;
    /** Null unless the dictionaries are {@link PatternDictionaries}. */
    private final PatternDictionaries lineages;
    /** The pattern's lineage, made once the pattern has had {@code openAfter} sampled writes; else null. */
    private volatile PatternDictionaries.Lineage lineage;

    PatternDictionary(OptionWriter shared, String pattern, PatternDictionaries lineages, CompressionConfig config,
                      int openAfter) {
        this.shared = shared;
        this.pattern = pattern;
        this.openAfter = openAfter;
        this.dictionaries = null;
        this.given = null;
        this.config = config;
        this.lineages = lineages;
    }

    PatternDictionary(OptionWriter shared, String pattern, Function<String, DictionaryManager> dictionaries,
                      PatternManagers given, CompressionConfig config, int openAfter) {
        this.shared = shared;
        this.pattern = pattern;
        this.openAfter = openAfter;
        this.dictionaries = dictionaries;
        this.given = given;
        this.config = config;
        this.lineages = null;
    }

    @Override
    public byte[] store(CompressionOption option, byte[] value) {
        ValueCompressor vc = option.dictionary() ? writer() : null;
        if (vc != null) {
            return vc.compress(value);
        }
        return shared.store(option, value);
    }

    @Override
    public long store(CompressionOption option, MemorySegment value, MemorySegment dst) {
        ValueCompressor vc = option.dictionary() ? writer() : null;
        if (vc != null) {
            return vc.compress(value, dst);
        }
        return shared.store(option, value, dst);
    }

    @Override
    public boolean ready(CompressionOption option) {
        if (!option.dictionary()) {
            return shared.ready(option);
        }
        if (samples < openAfter) {
            return false;
        }
        if (lineages != null) {
            PatternDictionaries.Lineage l = lineage;
            if (l == null || l.dropped) { // dropped: closed and forgotten, its values read through their claims
                PatternDictionaries.Lineage made = lineages.lineage(pattern, config, l);
                if (made == null) { // openings wait for the lineages' thread: asked again at the next sampled write
                    return false;
                }
                lineage = l = made;
            }
            return l.acquire() != null;
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
        return withDictionary != null && !manager.isClosed() && manager.currentId() != 0 && given.writable(manager);
    }

    /**
     * @return the lineage's compressor (see {@link PatternDictionaries.Lineage#writer()}), or the given manager's
     *         unless the application has closed that manager (its dictionaries' digests are released: a value written
     *         with one would read nowhere in this process) or its current dictionary's id is another given manager's
     *         too; null when there is none
     */
    private ValueCompressor writer() {
        if (lineages != null) {
            PatternDictionaries.Lineage l = lineage;
            return l == null ? null : l.writer();
        }
        ValueCompressor vc = withDictionary;
        return vc != null && !manager.isClosed() && given.writable(manager) ? vc : null;
    }

    @Override
    public void sampled(byte[] value) {
        if (samples < openAfter) {
            samples++;
        }
        PatternDictionaries.Lineage l = lineage;
        if (l != null) {
            l.sample(value);
        }
    }
}
