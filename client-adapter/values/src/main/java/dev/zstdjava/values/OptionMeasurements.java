package dev.zstdjava.values;

import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

/**
 * Measurements of the {@linkplain CompressionOption compression options} on sampled values: the one measuring code of
 * {@link AdaptiveCompressor} (each pattern's sampled writes) and of {@code zstd-values advise} (the values it read),
 * so that both take {@link CompressionGoal#decide} on the same figures. Each value measured is written twice with each
 * option, timed around the second call only, and recorded in a window of the latest values: per option, the stored bytes
 * saved as a fraction of the value bytes (sums, so larger values weigh more; the 5-byte header counts) and the
 * compression CPU in microseconds per KiB (the median over the values, so one slow call does not move it). An option
 * is usable when it was measured on at least half the values held.
 *
 * <p>Values that {@link AdaptiveCompressor} stores without a sample are not measured here either: shorter than the
 * configuration's {@code minCompressionSize}, longer than its {@code maxDecompressedSize}, or any while compression
 * is disabled ({@link #add} returns false for them).
 *
 * <p><b>Timing:</b> the CPU figures are of this machine at this moment; the savings are exact. The first, untimed call
 * of each option brings its code and tables back into the caches: among writes that use another option, a first call
 * costs up to several times what the option costs in use (lz4 at 1 KiB, on a 2-core x86-64 VM, some 5 to 20 µs against
 * 1.5), so timing it would favour whichever option is in use. Two measurements of the
 * same values decide alike whenever the goal's choice does not turn on CPU (for example {@code MEMORY} without a budget
 * where no two options are within half a point of saving, or a pattern that nothing saves 5% on).
 *
 * <p><b>Thread safety:</b> not thread-safe: one thread at a time (a pattern's sampling holds its lock).
 * <b>Allocation:</b> made once with its window; measuring a value allocates each option's stored form twice; the figures
 * allocate nothing.
 */
public final class OptionMeasurements {
    /** The most values a window holds (its arrays take some 130 bytes per value). */
    public static final int MAX_WINDOW = 1 << 20;
    /** The calls of each option per value measured: one untimed, to warm the caches, then the timed one. */
    static final int CALLS = 2;
    private static final int OPTIONS = CompressionOption.ALL.length;

    private final OptionWriter writer;
    private final CompressionConfig config;
    private final LongSupplier nanoClock;
    private final SampleWindow window;
    private final double[] saved = new double[OPTIONS];
    private final double[] cpu = new double[OPTIONS];
    private final boolean[] usable = new boolean[OPTIONS];

    OptionMeasurements(OptionWriter writer, CompressionConfig config, int window, LongSupplier nanoClock) {
        this.writer = writer;
        this.config = config;
        this.window = new SampleWindow(window);
        this.nanoClock = nanoClock;
    }

    /**
     * @param config     the configuration every option applies (but its backend and level), as
     *                   {@link AdaptiveCompressor#builder} takes it
     * @param dictionary the dictionary manager of the option "zstd 3 + dictionary" (measured while it has a current
     *                   dictionary), or null for none
     * @param window     how many of the latest values the figures are of (1 to {@value #MAX_WINDOW})
     * @return measurements with the system clock
     * @throws IllegalStateException when a backend does not work, as {@link ValueCompressor#create}
     */
    public static OptionMeasurements create(CompressionConfig config, DictionaryManager dictionary, int window) {
        return create(config, dictionary, window, System::nanoTime);
    }

    /** As {@link #create(CompressionConfig, DictionaryManager, int)}, timed by {@code nanoClock}. */
    static OptionMeasurements create(CompressionConfig config, DictionaryManager dictionary, int window,
                                     LongSupplier nanoClock) {
        return create(config, dictionary, window, UnaryOperator.identity(), nanoClock);
    }

    /**
     * As {@link #create(CompressionConfig, DictionaryManager, int)}, the options' writer wrapped by {@code measuring}
     * and timed by {@code nanoClock} (as {@link AdaptiveCompressor.Builder}'s package-private {@code build} does for
     * each pattern), for tests that measure with a clock of their own.
     */
    static OptionMeasurements create(CompressionConfig config, DictionaryManager dictionary, int window,
                                     UnaryOperator<OptionWriter> measuring, LongSupplier nanoClock) {
        Objects.requireNonNull(config, "config");
        if (window < 1 || window > MAX_WINDOW) {
            throw new IllegalArgumentException("window " + window + " values: 1 to " + MAX_WINDOW);
        }
        OptionWriter shared = new OptionWriters(config);
        OptionWriter w = dictionary == null ? shared : new PatternDictionary(shared, "(measured)", p -> dictionary,
                new PatternManagers(), config, 0);
        return new OptionMeasurements(measuring.apply(w), config, window, nanoClock);
    }

    /**
     * Measures {@code value} with every option that compresses (the dictionary option too, when
     * {@code withDictionary} and the manager has a current dictionary).
     *
     * @return whether it was measured: false for a value {@link AdaptiveCompressor} stores without a sample
     */
    public boolean add(byte[] value, boolean withDictionary) {
        Objects.requireNonNull(value, "value");
        if (!config.mayCompress(value.length)) {
            return false;
        }
        sample(value, null, withDictionary ? null : CompressionOption.ZSTD_3_DICTIONARY, null);
        return true;
    }

    /**
     * Measures {@code value}: with {@code keep} and, when {@code settings} is given, its candidates (every option
     * without), but never {@code skip}.
     *
     * @return {@code keep}'s stored form when it was measured, else null
     */
    byte[] sample(byte[] value, CompressionOption keep, CompressionOption skip, AdaptiveSettings settings) {
        window.begin(value.length);
        byte[] out = null;
        for (CompressionOption o : CompressionOption.ALL) {
            if (o.compresses() && o != skip && (o == keep || settings == null || settings.candidate(o))
                    && writer.ready(o)) {
                for (int warm = 1; warm < CALLS; warm++) {
                    writer.store(o, value); // untimed (see Timing above)
                }
                long t0 = nanoClock.getAsLong();
                byte[] stored = writer.store(o, value);
                long elapsed = nanoClock.getAsLong() - t0;
                window.put(o, stored.length, elapsed);
                if (o == keep) {
                    out = stored;
                }
            }
        }
        window.end();
        return out;
    }

    /** Refreshes the per-option figures from the window; allocates nothing. */
    void fill() {
        window.fill(saved, cpu, usable);
    }

    /** Marks {@code option} not usable in the figures as last {@linkplain #fill() filled}. */
    void exclude(CompressionOption option) {
        usable[option.ordinal()] = false;
    }

    /** @return the option {@code goal} takes on the values measured ({@link CompressionGoal#decide}) */
    public CompressionOption decide(CompressionGoal goal) {
        fill();
        return goal.decide(saved, cpu, usable);
    }

    /** As {@link #decide(CompressionGoal)} with hysteresis, on the figures as last {@linkplain #fill() filled}. */
    CompressionOption decide(CompressionGoal goal, CompressionOption favoured, double savingMargin, double cpuMargin) {
        return goal.decide(saved, cpu, usable, favoured, savingMargin, cpuMargin);
    }

    /** @return how many values the window holds */
    public int values() {
        return window.filled();
    }

    /** @return {@code option}'s saving of the value bytes, over the values it was measured on (plain: 0) */
    public double saved(CompressionOption option) {
        return window.saved(option);
    }

    /** @return {@code option}'s median compression CPU in microseconds per KiB, or NaN when not usable */
    public double cpuMicrosPerKiB(CompressionOption option) {
        fill();
        return cpu[option.ordinal()];
    }

    /** @return whether {@code option} was measured on at least half the values held */
    public boolean usable(CompressionOption option) {
        fill();
        return usable[option.ordinal()];
    }

    /** @return {@code option}'s saving as last {@linkplain #fill() filled} */
    double filledSaved(CompressionOption option) {
        return saved[option.ordinal()];
    }

    /** @return whether {@code option} was usable as last {@linkplain #fill() filled} */
    boolean filledUsable(CompressionOption option) {
        return usable[option.ordinal()];
    }

    /** @return {@code option}'s CPU as last {@linkplain #fill() filled} */
    double filledCpu(CompressionOption option) {
        return cpu[option.ordinal()];
    }

    /** @return the writer the options are written with (the pattern's writes use it too) */
    OptionWriter writer() {
        return writer;
    }
}
