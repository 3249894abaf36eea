package dev.zstdjava.values;

import java.util.Objects;

/**
 * How {@link AdaptiveCompressor} samples and decides, per pattern; checked once, when built.
 *
 * @param goal             what the decisions optimise
 * @param defaultOption    the option a pattern starts with, until {@code minSamples} samples (not the dictionary one)
 * @param firstWrites      the first writes of a pattern that are all sampled
 * @param sampleEvery      after them, one write in this many is sampled
 * @param plainSampleEvery while a pattern is plain, one write in this many is sampled (its re-probe)
 * @param window           how many samples the decisions look at (the latest)
 * @param minSamples       the samples a pattern needs before it leaves its default option
 * @param switchAfter      how many evaluations in a row (one per sample) must pick another option to switch
 * @param savingMargin     the head start of the option in use, in stored bytes saved (a fraction)
 * @param cpuMargin        the head start of the option in use, in CPU (a fraction of its CPU)
 */
record AdaptiveSettings(CompressionGoal goal, CompressionOption defaultOption, int firstWrites, int sampleEvery,
                        int plainSampleEvery, int window, int minSamples, int switchAfter, double savingMargin,
                        double cpuMargin) {
    /** The largest window, in samples. */
    static final int MAX_WINDOW = 1024;

    /** @return the option a pattern starts with when none is set: zstd 3, lz4 for {@code SPEED} */
    static CompressionOption defaultOption(CompressionGoal goal) {
        return goal.kind() == CompressionGoal.Kind.SPEED ? CompressionOption.LZ4 : CompressionOption.ZSTD_3;
    }

    /** @throws IllegalArgumentException naming the setting, its value and its range, when one is out of range */
    AdaptiveSettings {
        Objects.requireNonNull(goal, "goal");
        Objects.requireNonNull(defaultOption, "defaultOption");
        if (defaultOption.dictionary()) {
            throw new IllegalArgumentException("the default option cannot be " + defaultOption
                    + ": a pattern has no dictionary when it is first seen");
        }
        if (firstWrites < 0) {
            throw new IllegalArgumentException("firstWrites " + firstWrites + ": at least 0");
        }
        if (sampleEvery < 1 || plainSampleEvery < 1) {
            throw new IllegalArgumentException("sample one write in " + sampleEvery + " (plain: one in "
                    + plainSampleEvery + "): each must be at least 1");
        }
        if (window < 2 || window > MAX_WINDOW) {
            throw new IllegalArgumentException("window " + window + " samples: 2 to " + MAX_WINDOW);
        }
        if (minSamples < 1 || minSamples > window) {
            throw new IllegalArgumentException("minSamples " + minSamples + ": 1 to the window (" + window + ")");
        }
        if (switchAfter < 1) {
            throw new IllegalArgumentException("switchAfter " + switchAfter + " evaluations: at least 1");
        }
        if (!(savingMargin >= 0 && savingMargin < 0.5)) {
            throw new IllegalArgumentException("savingMargin " + savingMargin + ": 0 to 0.5 (a fraction of the stored"
                    + " bytes), excluded");
        }
        if (!(cpuMargin >= 0 && cpuMargin < 1)) {
            throw new IllegalArgumentException("cpuMargin " + cpuMargin + ": 0 to 1 (a fraction of the CPU), 1 "
                    + "excluded");
        }
    }

    /** @return whether the goal can take {@code option}, so samples measure it ({@code SPEED}: lz4 only) */
    boolean candidate(CompressionOption option) {
        return option.compresses()
                && (goal.kind() != CompressionGoal.Kind.SPEED || option == CompressionOption.LZ4);
    }

    /** @return whether the write numbered {@code n} (from 0) of a pattern now on {@code current} is sampled */
    boolean sampled(long n, CompressionOption current) {
        return n < firstWrites || multiple(n, current == CompressionOption.PLAIN ? plainSampleEvery : sampleEvery);
    }

    /** @return whether {@code n} is a multiple of {@code k} (positive): a mask for a power of two, not a division */
    static boolean multiple(long n, int k) {
        return (k & (k - 1)) == 0 ? (n & (k - 1)) == 0 : n % k == 0;
    }
}
