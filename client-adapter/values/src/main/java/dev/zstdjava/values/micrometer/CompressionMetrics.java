package dev.zstdjava.values.micrometer;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.CompressionStats;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.DictionaryStats;
import dev.zstdjava.values.OptionWrites;
import dev.zstdjava.values.PatternDecision;
import dev.zstdjava.values.TrainingStats;
import dev.zstdjava.values.ValueCompressor;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.BaseUnits;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Locale;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * Publishes a {@link ValueCompressor}'s counters ({@link ValueCompressor#stats()}) as Micrometer meters:
 *
 * <pre>{@code
 * ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults());
 * new CompressionMetrics(values, Tags.of("cache", "sessions")).bindTo(meterRegistry);
 * }</pre>
 *
 * <p>Every meter is a {@link FunctionCounter} (monotonic, read from the compressor when the registry is scraped),
 * tagged with {@code backend} (the configured backend for new values: {@code zstd} or {@code lz4}) and the tags
 * given here:
 *
 * <table>
 *   <caption>meters</caption>
 *   <tr><th>name</th><th>unit</th><th>counts</th></tr>
 *   <tr><td>{@code zstdjava.values.compressed}</td><td>values</td><td>values stored compressed</td></tr>
 *   <tr><td>{@code zstdjava.values.skipped}</td><td>values</td><td>values stored as they are, one series per
 *       {@code reason}: {@code disabled}, {@code too-small} (below the minimum size), {@code too-large} (longer than
 *       the decompression limit, so that a reader with the same limit reads them back), {@code already-compressed},
 *       {@code not-smaller} (compressing would not make them smaller), {@code failed} (the backend failed; each kind
 *       of failure is also logged once: alert on this one)</td></tr>
 *   <tr><td>{@code zstdjava.values.compression.input}</td><td>bytes</td><td>size of the values stored compressed,
 *       before compression</td></tr>
 *   <tr><td>{@code zstdjava.values.compression.output}</td><td>bytes</td><td>size of those values as stored, header
 *       included</td></tr>
 *   <tr><td>{@code zstdjava.values.compression.saved}</td><td>bytes</td><td>input minus output: what compression
 *       saved on the values it compressed</td></tr>
 *   <tr><td>{@code zstdjava.values.decompressed}</td><td>values</td><td>stored values decompressed</td></tr>
 *   <tr><td>{@code zstdjava.values.legacy.decompressed}</td><td>values</td><td>of those, values read in another
 *       client's format ({@link dev.zstdjava.values.CompressionConfig#legacyFormats()}): watch it fall to zero
 *       before turning migration reading off</td></tr>
 *   <tr><td>{@code zstdjava.values.decompression.output}</td><td>bytes</td><td>size of the decompressed values</td></tr>
 *   <tr><td>{@code zstdjava.values.decompression.failures}</td><td>values</td><td>values carrying the header whose
 *       payload did not decode (returned as stored)</td></tr>
 *   <tr><td>{@code zstdjava.values.decompression.limit.exceeded}</td><td>values</td><td>values refused because they
 *       would decompress past the configured maximum</td></tr>
 * </table>
 *
 * <p>A compressor with {@linkplain ValueCompressor#dictionaries() dictionaries} also gets
 * {@code zstdjava.values.dictionary.trainings} (counter, tag {@code result}: {@code adopted}, {@code rejected},
 * {@code failed}), {@code zstdjava.values.dictionaries} (gauge: dictionaries loaded) and
 * {@code zstdjava.values.dictionary.current.saved.ratio} (gauge: the fraction the current dictionary saved on the
 * values offered while it was current, 0 without one). Each loaded dictionary gets its own series, tagged
 * {@code dictionary} (its ID), registered when it is loaded: {@code zstdjava.values.dictionary.values.written}
 * (values compressed with it), {@code zstdjava.values.dictionary.saved} (bytes it saved, base unit bytes) and
 * {@code zstdjava.values.dictionary.values.read} (values decompressed with it).
 *
 * <p>Made for an {@link AdaptiveCompressor} ({@link #CompressionMetrics(AdaptiveCompressor, Iterable)}), the counters
 * above are its reader's ({@link AdaptiveCompressor#reader()}: the reads; the writes are counted per option below).
 * One series per {@code option} tag (the option's {@link CompressionOption#label() label}: {@code plain},
 * {@code lz4}, {@code zstd 3}, ...) of: {@code zstdjava.values.adaptive.patterns} (gauge: the patterns of its
 * {@linkplain AdaptiveCompressor#snapshot() decisions} that have been written, each under the option it writes with
 * now; a listed pattern or {@code (other)} not written yet is not counted, nor is a pattern no longer tracked), and
 * the counters
 * {@code zstdjava.values.adaptive.values.written}, {@code zstdjava.values.adaptive.original} and
 * {@code zstdjava.values.adaptive.stored} (base unit bytes) of {@link AdaptiveCompressor#writes}: every value it
 * stored, under the option that stored it. The tags are bounded by the options, never one per pattern (the patterns
 * themselves are in the decisions, and the Boot info entry).
 *
 * <p>Names follow Micrometer's conventions (lower case, dot-separated; the registry renders them in its own style,
 * for example {@code zstdjava_values_compression_input_bytes_total} in Prometheus). Bind one compressor once per
 * registry; to tell several compressors apart, give each a distinguishing tag. The meters hold the compressor weakly,
 * as Micrometer's function counters do: they stop reporting when it is garbage-collected.
 *
 * <p><b>Thread safety:</b> immutable; {@link #bindTo} may be called from any thread. <b>Allocation:</b> reading a
 * meter takes one {@link CompressionStats} snapshot (one small object), an adaptive gauge one snapshot of the
 * decisions (a list of one record per pattern); nothing is allocated on the compression path.
 */
public final class CompressionMetrics implements MeterBinder {
    /** Prefix of every meter name. */
    public static final String PREFIX = "zstdjava.values.";

    private final ValueCompressor compressor;
    /** the adaptive compressor whose decisions are counted, or null */
    private final AdaptiveCompressor adaptive;
    private final Tags tags;

    /** @param compressor the compressor whose counters to publish, tagged with its backend only */
    public CompressionMetrics(ValueCompressor compressor) {
        this(compressor, Tags.empty());
    }

    /**
     * @param compressor the compressor whose counters to publish
     * @param tags       tags added to every meter (for example the cache or connection the compressor serves)
     */
    public CompressionMetrics(ValueCompressor compressor, Iterable<Tag> tags) {
        this(Objects.requireNonNull(compressor, "compressor"), null, tags);
    }

    /**
     * @param adaptive the adaptive compressor whose reader's counters and decisions to publish (see the class
     *                 comment)
     * @param tags     tags added to every meter
     */
    public CompressionMetrics(AdaptiveCompressor adaptive, Iterable<Tag> tags) {
        this(Objects.requireNonNull(adaptive, "adaptive").reader(), adaptive, tags);
    }

    private CompressionMetrics(ValueCompressor compressor, AdaptiveCompressor adaptive, Iterable<Tag> tags) {
        this.compressor = compressor;
        this.adaptive = adaptive;
        this.tags = Tags.of(Objects.requireNonNull(tags, "tags"))
                .and("backend", compressor.config().backend().name().toLowerCase(Locale.ROOT));
    }

    /**
     * Binds {@code compressor}'s meters to {@code registry}.
     *
     * @param tags key/value pairs added to every meter
     * @return {@code compressor}, for chaining
     */
    public static ValueCompressor monitor(MeterRegistry registry, ValueCompressor compressor, String... tags) {
        new CompressionMetrics(compressor, Tags.of(tags)).bindTo(registry);
        return compressor;
    }

    @Override
    public void bindTo(MeterRegistry registry) {
        counter(registry, "compressed", null, "values stored compressed", CompressionStats::valuesCompressed);
        skipped(registry, "disabled", "compression is disabled", CompressionStats::skippedDisabled);
        skipped(registry, "too-small", "shorter than the minimum size", CompressionStats::skippedTooSmall);
        skipped(registry, "too-large", "longer than the decompression limit, so that it reads back",
                CompressionStats::skippedTooLarge);
        skipped(registry, "already-compressed", "already carry this backend's header",
                CompressionStats::skippedAlreadyCompressed);
        skipped(registry, "not-smaller", "compressing would not make them smaller", CompressionStats::skippedNotSmaller);
        skipped(registry, "failed", "the backend failed (each kind of failure is logged once)",
                CompressionStats::compressionFailures);
        counter(registry, "compression.input", BaseUnits.BYTES,
                "size of the values stored compressed, before compression", CompressionStats::originalBytes);
        counter(registry, "compression.output", BaseUnits.BYTES,
                "size of the values stored compressed, as stored (header included)", CompressionStats::compressedBytes);
        counter(registry, "compression.saved", BaseUnits.BYTES,
                "bytes saved by compression on the values stored compressed",
                s -> s.originalBytes() - s.compressedBytes());
        counter(registry, "decompressed", null, "stored values decompressed", CompressionStats::valuesDecompressed);
        counter(registry, "legacy.decompressed", null, "stored values read in another client's format (migration)",
                CompressionStats::legacyDecompressed);
        counter(registry, "decompression.output", BaseUnits.BYTES, "size of the decompressed values",
                CompressionStats::decompressedBytes);
        counter(registry, "decompression.failures", null,
                "values carrying the compression header whose payload did not decode; returned as stored",
                CompressionStats::decompressionFailures);
        counter(registry, "decompression.limit.exceeded", null,
                "values refused because they would decompress to more than the configured maximum",
                CompressionStats::sizeLimitErrors);
        if (compressor.dictionaries() != null) {
            dictionaries(registry, compressor.dictionaries());
        }
        if (adaptive != null) {
            for (CompressionOption option : CompressionOption.values()) {
                Gauge.builder(PREFIX + "adaptive.patterns", adaptive, a -> patterns(a, option))
                        .description("patterns tracked and written whose values the adaptive compressor writes with"
                                + " this option")
                        .tags(tags.and("option", option.label()))
                        .register(registry);
                written(registry, option, "adaptive.values.written", null,
                        "values the adaptive compressor stored with this option", OptionWrites::values);
                written(registry, option, "adaptive.original", BaseUnits.BYTES,
                        "size of those values before compression", OptionWrites::originalBytes);
                written(registry, option, "adaptive.stored", BaseUnits.BYTES,
                        "size of those values as stored (header included)", OptionWrites::storedBytes);
            }
        }
    }

    private void written(MeterRegistry registry, CompressionOption option, String name, String unit,
                         String description, ToLongFunction<OptionWrites> read) {
        FunctionCounter.builder(PREFIX + name, adaptive, a -> read.applyAsLong(a.writes(option)))
                .description(description).baseUnit(unit).tags(tags.and("option", option.label()))
                .register(registry);
    }

    private static double patterns(AdaptiveCompressor adaptive, CompressionOption option) {
        int n = 0;
        for (PatternDecision d : adaptive.snapshot()) {
            if (d.option() == option && d.valuesSeen() > 0) { // a listed pattern or (other) not written: none
                n++;
            }
        }
        return n;
    }

    private void dictionaries(MeterRegistry registry, DictionaryManager dictionaries) {
        training(registry, dictionaries, "adopted", TrainingStats::adopted);
        training(registry, dictionaries, "rejected", TrainingStats::rejected);
        training(registry, dictionaries, "failed", TrainingStats::failed);
        Gauge.builder(PREFIX + "dictionaries", dictionaries, d -> d.dictionaryStats().size())
                .description("dictionaries loaded").tags(tags).register(registry);
        Gauge.builder(PREFIX + "dictionary.current.saved.ratio", dictionaries, CompressionMetrics::currentSaved)
                .description("fraction the current dictionary saved on the values offered while it was current")
                .tags(tags).register(registry);
        dictionaries.onLoaded(id -> {
            perDictionary(registry, dictionaries, id, "dictionary.values.written", null,
                    "values compressed with this dictionary", DictionaryStats::valuesWritten);
            perDictionary(registry, dictionaries, id, "dictionary.saved", BaseUnits.BYTES,
                    "bytes this dictionary saved on the values compressed with it", DictionaryStats::bytesSaved);
            perDictionary(registry, dictionaries, id, "dictionary.values.read", null,
                    "values decompressed with this dictionary", DictionaryStats::valuesRead);
        });
    }

    /**
     * Registers one counter of dictionary {@code id} (once: a reload of an evicted dictionary registers nothing new).
     * While the dictionary is evicted ({@link DictionaryManager#dictionaryStats(long)} gives null) it reads what it
     * read last, so it never goes back; once the dictionary is loaded again it counts on from there, or, if its
     * counters were not kept, from where its new count passes that (see {@link KeptCount}).
     */
    private void perDictionary(MeterRegistry registry, DictionaryManager dictionaries, long id, String name,
            String unit, String description, ToLongFunction<DictionaryStats> read) {
        KeptCount count = new KeptCount();
        FunctionCounter.builder(PREFIX + name, dictionaries, d -> {
                    DictionaryStats st = d.dictionaryStats(id);
                    return st == null ? count.evicted() : count.loaded(read.applyAsLong(st));
                })
                .description(description)
                .baseUnit(unit)
                .tags(tags.and("dictionary", Long.toString(id)))
                .register(registry);
    }

    /**
     * The value of one per-dictionary counter across evictions: the largest count read so far. The manager keeps an
     * evicted dictionary's counters for when it is loaded again, but only for a bounded number of ids; a dictionary
     * whose counters were dropped counts from zero once loaded again, and its series holds its last value until the
     * new count passes it (those counts are not added: a count read below the last one cannot be told from a read
     * that raced a write, since {@code bytesSaved} is a difference of two sums read without a lock and sums read by
     * two threads at once may come in either order, and adding on such a read would count the whole total twice).
     * So the series never goes back and never counts twice. Thread-safe: meter reads may come from several threads
     * at once, so each method holds this object's lock.
     */
    static final class KeptCount {
        private long last;

        /** @return the value to report while the dictionary is loaded and its counter reads {@code raw} */
        synchronized long loaded(long raw) {
            last = Math.max(last, raw);
            return last;
        }

        /** @return the value to report while the dictionary is evicted: what was reported last */
        synchronized long evicted() {
            return last;
        }
    }

    private static double currentSaved(DictionaryManager dictionaries) {
        for (DictionaryStats s : dictionaries.dictionaryStats()) {
            if (s.current()) {
                return s.savedFraction();
            }
        }
        return 0;
    }

    private void training(MeterRegistry registry, DictionaryManager dictionaries, String result,
            ToLongFunction<TrainingStats> read) {
        FunctionCounter.builder(PREFIX + "dictionary.trainings", dictionaries, d -> read.applyAsLong(d.trainingStats()))
                .description("dictionary trainings; result " + result)
                .tags(tags.and("result", result))
                .register(registry);
    }

    private void skipped(MeterRegistry registry, String reason, String why, ToLongFunction<CompressionStats> read) {
        counter(registry, "skipped", null, "values stored as they are; reason " + reason + ": " + why, read,
                tags.and("reason", reason));
    }

    private void counter(MeterRegistry registry, String name, String unit, String description,
            ToLongFunction<CompressionStats> read) {
        counter(registry, name, unit, description, read, tags);
    }

    private void counter(MeterRegistry registry, String name, String unit, String description,
            ToLongFunction<CompressionStats> read, Tags meterTags) {
        FunctionCounter.builder(PREFIX + name, compressor, c -> read.applyAsLong(c.stats()))
                .description(description)
                .baseUnit(unit)
                .tags(meterTags)
                .register(registry);
    }
}
