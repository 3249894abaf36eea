package dev.zstdjava.values;

import java.util.Arrays;

/**
 * The last {@code size} sampled writes of one pattern, each measured with several {@linkplain CompressionOption
 * options}: per sample and option the stored size and the compression time. From it, per option: the stored bytes
 * saved as a fraction of the bytes before, over the samples it was measured on (sums, so larger values weigh more),
 * and the CPU in microseconds per KiB, as the median over those samples (so one slow sample, a pause or a busy
 * machine, does not move it). An option counts as usable when it was measured on at least half the samples held.
 *
 * <p><b>Thread safety:</b> not thread-safe; its pattern's state uses it under its lock. <b>Allocation:</b> made
 * once with all its arrays; recording and {@link #fill} allocate nothing.
 */
final class SampleWindow {
    private static final int OPTIONS = CompressionOption.ALL.length;
    private static final int NOT_MEASURED = -1;

    private final int size;
    private final int[] before;     // [sample]: the value's length
    private final int[] after;      // [sample * OPTIONS + option]: its stored size, or NOT_MEASURED
    private final long[] nanos;     // [sample * OPTIONS + option]
    private final long[] sumBefore = new long[OPTIONS];
    private final long[] sumAfter = new long[OPTIONS];
    private final int[] count = new int[OPTIONS];
    private final double[] scratch;
    private int next;
    private int filled;

    SampleWindow(int size) {
        this.size = size;
        this.before = new int[size];
        this.after = new int[size * OPTIONS];
        this.nanos = new long[size * OPTIONS];
        this.scratch = new double[size];
        Arrays.fill(after, NOT_MEASURED);
    }

    /** Starts a sample of a value of {@code length} bytes, replacing the oldest when the window is full. */
    void begin(int length) {
        int s = next;
        if (filled == size) {
            for (int o = 0; o < OPTIONS; o++) {
                int a = after[s * OPTIONS + o];
                if (a != NOT_MEASURED) {
                    sumBefore[o] -= before[s];
                    sumAfter[o] -= a;
                    count[o]--;
                    after[s * OPTIONS + o] = NOT_MEASURED;
                }
            }
        } else {
            filled++;
        }
        before[s] = length;
    }

    /** Records {@code option}'s result on the sample begun last. */
    void put(CompressionOption option, int stored, long elapsedNanos) {
        int o = option.ordinal();
        int at = next * OPTIONS + o;
        after[at] = stored;
        nanos[at] = Math.max(0, elapsedNanos);
        sumBefore[o] += before[next];
        sumAfter[o] += stored;
        count[o]++;
    }

    /** Ends the sample begun last. */
    void end() {
        next = next + 1 == size ? 0 : next + 1;
    }

    /** @return how many samples the window holds */
    int filled() {
        return filled;
    }

    /** @return {@code option}'s saving over the samples it was measured on; 0 when none (plain: always 0) */
    double saved(CompressionOption option) {
        int o = option.ordinal();
        return sumBefore[o] == 0 ? 0 : 1 - (double) sumAfter[o] / sumBefore[o];
    }

    /** Fills the per-option measurements {@link CompressionGoal#decide} takes (entries by option ordinal). */
    void fill(double[] saved, double[] cpuMicrosPerKiB, boolean[] usable) {
        for (int o = 0; o < OPTIONS; o++) {
            usable[o] = count[o] > 0 && 2 * count[o] >= filled;
            saved[o] = sumBefore[o] == 0 ? 0 : 1 - (double) sumAfter[o] / sumBefore[o];
            cpuMicrosPerKiB[o] = usable[o] ? medianMicrosPerKiB(o) : Double.NaN;
        }
    }

    private double medianMicrosPerKiB(int o) {
        int n = 0;
        for (int s = 0; s < filled; s++) {
            if (after[s * OPTIONS + o] != NOT_MEASURED) {
                double perKiB = before[s] == 0 ? 0 : nanos[s * OPTIONS + o] / 1e3 / (before[s] / 1024.0);
                int i = n++;
                while (i > 0 && scratch[i - 1] > perKiB) { // insertion sort: a window is small
                    scratch[i] = scratch[i - 1];
                    i--;
                }
                scratch[i] = perKiB;
            }
        }
        return n % 2 == 1 ? scratch[n / 2] : (scratch[n / 2 - 1] + scratch[n / 2]) / 2;
    }
}
