package dev.zstdjava.values;

import java.util.Objects;

/**
 * What a choice among the {@linkplain CompressionOption compression options} optimises, and the one rule that makes
 * the choice ({@link #decide}), shared by {@code zstd-values advise} and {@link AdaptiveCompressor}:
 * <ul>
 *   <li>{@link Kind#MEMORY}: the largest saving of stored bytes among the options whose CPU is within a budget in
 *       microseconds per KiB of input (of options within {@value #MEMORY_TIE_POINTS} points of that saving, the one
 *       with the least CPU); plain when none within the budget saves {@value #MEMORY_MIN_SAVING_PERCENT}%;</li>
 *   <li>{@link Kind#BALANCED} (the default): the option with the least measured CPU among those within
 *       {@value #BALANCED_TIE_POINTS} points of the best saving; plain when nothing saves
 *       {@value #MIN_SAVING_PERCENT}%;</li>
 *   <li>{@link Kind#SPEED}: lz4 when it saves {@value #MIN_SAVING_PERCENT}%, else plain.</li>
 * </ul>
 * "The least CPU" is read to the precision of timing: of the options a goal chooses among, those whose CPU is within
 * {@value #CPU_TIE_PERCENT}% of the least count as equally cheap, and of those the one declared first (cost order) is
 * taken. So two options that cost alike to within the noise of two measurements (zstd -1 and zstd 1 on highly
 * compressible data) are not a coin toss between measurements. Savings are fractions of the stored bytes before (for a
 * value written now: its length), so the value's 5-byte header and values stored as they are count.
 *
 * <p><b>Thread safety:</b> immutable. <b>Allocation:</b> {@link #decide} allocates nothing.
 *
 * @param kind                  what is optimised
 * @param cpuBudgetMicrosPerKiB the most CPU an option may take for {@link Kind#MEMORY}, in microseconds per KiB of
 *                              input; positive infinity for the other kinds
 */
public record CompressionGoal(Kind kind, double cpuBudgetMicrosPerKiB) {
    /** The least saving, in percent of the stored bytes, for which {@code BALANCED} and {@code SPEED} compress. */
    public static final int MIN_SAVING_PERCENT = 5;
    /** The least saving, in percent, for which {@code MEMORY} compresses. */
    public static final int MEMORY_MIN_SAVING_PERCENT = 1;
    /** How many points below the best saving an option may be and still count as tied, for {@code BALANCED}. */
    public static final int BALANCED_TIE_POINTS = 2;
    /**
     * How many points below the best saving an option may be and still count as tied, for {@code MEMORY}: half a
     * point, so that a third of a point is not bought with several times the CPU (highly compressible data, where
     * zstd 1 saves 90.4% at 0.4 us/KiB and zstd 6 90.7% at 2.6, takes zstd 1).
     */
    public static final double MEMORY_TIE_POINTS = 0.5;
    /**
     * How far above the least CPU, in percent of it, an option's CPU may be and still count as equally cheap: two
     * timings of the same code on a busy machine differ by that much, so among options this close the cost order
     * decides.
     */
    public static final int CPU_TIE_PERCENT = 10;

    private static final double MIN_SAVING = MIN_SAVING_PERCENT / 100.0;
    private static final double MEMORY_MIN_SAVING = MEMORY_MIN_SAVING_PERCENT / 100.0;
    private static final double BALANCED_TIE = BALANCED_TIE_POINTS / 100.0;
    private static final double MEMORY_TIE = MEMORY_TIE_POINTS / 100.0;
    private static final double CPU_TIE = 1 + CPU_TIE_PERCENT / 100.0;
    // rounding: a saving exactly at a bound counts as at it
    private static final double EPSILON = 1e-9;
    private static final int OPTIONS = CompressionOption.ALL.length;
    private static final CompressionGoal BALANCED = new CompressionGoal(Kind.BALANCED, Double.POSITIVE_INFINITY);
    private static final CompressionGoal SPEED = new CompressionGoal(Kind.SPEED, Double.POSITIVE_INFINITY);

    /** What a goal optimises. */
    public enum Kind {
        /** The largest saving within a CPU budget. */
        MEMORY,
        /** The cheapest option close to the best saving. */
        BALANCED,
        /** lz4 or nothing. */
        SPEED
    }

    /**
     * @throws NullPointerException     when {@code kind} is null
     * @throws IllegalArgumentException when a {@code MEMORY} budget is not a positive number (infinity allowed), or
     *                                  another kind has a budget other than infinity
     */
    public CompressionGoal {
        Objects.requireNonNull(kind, "kind");
        if (kind == Kind.MEMORY && !(cpuBudgetMicrosPerKiB > 0)) {
            throw new IllegalArgumentException("the MEMORY goal's CPU budget must be a positive number of microseconds"
                    + " per KiB, not " + cpuBudgetMicrosPerKiB);
        }
        if (kind != Kind.MEMORY && cpuBudgetMicrosPerKiB != Double.POSITIVE_INFINITY) {
            throw new IllegalArgumentException("only the MEMORY goal takes a CPU budget (" + kind + " was given "
                    + cpuBudgetMicrosPerKiB + " us/KiB)");
        }
    }

    /**
     * @param cpuBudgetMicrosPerKiB the most CPU an option may take, in microseconds per KiB of input: positive
     *                              ({@link Double#POSITIVE_INFINITY}: no budget)
     * @return the largest saving within the budget
     */
    public static CompressionGoal memory(double cpuBudgetMicrosPerKiB) {
        return new CompressionGoal(Kind.MEMORY, cpuBudgetMicrosPerKiB);
    }

    /** @return the cheapest option within 2 points of the best saving, plain when nothing saves 5% (the default) */
    public static CompressionGoal balanced() {
        return BALANCED;
    }

    /** @return lz4 when it saves 5%, else plain */
    public static CompressionGoal speed() {
        return SPEED;
    }

    /**
     * The option this goal takes, given per-option measurements on the same values. Each array is indexed by
     * {@link CompressionOption#ordinal()} and has an entry for every option; the {@link CompressionOption#PLAIN}
     * entries are not read. An option not usable (not measured, or a dictionary not adopted) or with a NaN
     * measurement is never taken. Allocates nothing; pure.
     *
     * @param savedFraction   stored bytes saved as a fraction of the stored bytes before (negative: it grew)
     * @param cpuMicrosPerKiB compression CPU in microseconds per KiB of input
     * @param usable          whether each option may be taken
     * @return the option to take: {@link CompressionOption#PLAIN} when none qualifies
     * @throws IllegalArgumentException when an array has fewer entries than there are options
     * @throws NullPointerException     when an array is null
     */
    public CompressionOption decide(double[] savedFraction, double[] cpuMicrosPerKiB, boolean[] usable) {
        return decide(savedFraction, cpuMicrosPerKiB, usable, null, 0, 0);
    }

    /**
     * As {@link #decide(double[], double[], boolean[])}, with {@code favoured} (the option in use) given a head start:
     * its saving counts {@code savingMargin} more and its CPU {@code cpuMargin} less (as a fraction), and when it is
     * plain an option must save {@code savingMargin} more than the least saving to be taken. So a choice changes only
     * when another option is better by a margin: hysteresis. The margins never stretch the {@code MEMORY} goal's CPU
     * budget: an option whose measured CPU is above it is not taken, in use or not.
     */
    CompressionOption decide(double[] savedFraction, double[] cpuMicrosPerKiB, boolean[] usable,
                             CompressionOption favoured, double savingMargin, double cpuMargin) {
        if (savedFraction.length < OPTIONS || cpuMicrosPerKiB.length < OPTIONS || usable.length < OPTIONS) {
            throw new IllegalArgumentException("the measurements need an entry for each of the " + OPTIONS
                    + " options (indexed by CompressionOption.ordinal()): " + savedFraction.length + " savings, "
                    + cpuMicrosPerKiB.length + " CPU figures, " + usable.length + " usable flags");
        }
        int fav = favoured == null ? -1 : favoured.ordinal();
        double least = (kind == Kind.MEMORY ? MEMORY_MIN_SAVING : MIN_SAVING)
                + (favoured == CompressionOption.PLAIN ? savingMargin : 0) - EPSILON;
        if (kind == Kind.SPEED) {
            int i = CompressionOption.LZ4.ordinal();
            boolean ok = usable(savedFraction, cpuMicrosPerKiB, usable, i)
                    && saved(savedFraction, i, fav, savingMargin) >= least;
            return ok ? CompressionOption.LZ4 : CompressionOption.PLAIN;
        }
        double best = Double.NEGATIVE_INFINITY;
        for (int i = 1; i < OPTIONS; i++) {
            if (usable(savedFraction, cpuMicrosPerKiB, usable, i) && cpuMicrosPerKiB[i] <= cpuBudgetMicrosPerKiB) {
                best = Math.max(best, saved(savedFraction, i, fav, savingMargin));
            }
        }
        if (!(best >= least)) {
            return CompressionOption.PLAIN;
        }
        double floor = best - (kind == Kind.MEMORY ? MEMORY_TIE : BALANCED_TIE) - EPSILON;
        double cheapest = Double.POSITIVE_INFINITY;
        for (int i = 1; i < OPTIONS; i++) {
            if (tied(savedFraction, cpuMicrosPerKiB, usable, i, fav, savingMargin, floor)) {
                cheapest = Math.min(cheapest, cpu(cpuMicrosPerKiB, i, fav, cpuMargin));
            }
        }
        // as cheap as the cheapest to within timing: of those, the one declared first
        double ceiling = Math.max(cheapest, cheapest * CPU_TIE) + EPSILON; // max: a negative figure given
        int pick = 1;
        while (!tied(savedFraction, cpuMicrosPerKiB, usable, pick, fav, savingMargin, floor)
                || cpu(cpuMicrosPerKiB, pick, fav, cpuMargin) > ceiling) {
            pick++;
        }
        return CompressionOption.ALL[pick];
    }

    // usable, within the budget, and within the tie of the best saving
    private boolean tied(double[] saved, double[] cpu, boolean[] usable, int i, int favoured, double margin,
                         double floor) {
        return usable(saved, cpu, usable, i) && cpu[i] <= cpuBudgetMicrosPerKiB
                && saved(saved, i, favoured, margin) >= floor;
    }

    private static boolean usable(double[] saved, double[] cpu, boolean[] usable, int i) {
        return usable[i] && !Double.isNaN(saved[i]) && !Double.isNaN(cpu[i]);
    }

    private static double saved(double[] saved, int i, int favoured, double margin) {
        return i == favoured ? saved[i] + margin : saved[i];
    }

    private static double cpu(double[] cpu, int i, int favoured, double margin) {
        return i == favoured ? cpu[i] * (1 - margin) : cpu[i];
    }
}
