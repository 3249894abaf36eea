package dev.zstdjava.bench.e2e;

import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionGoal;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.HeldOut;
import dev.zstdjava.values.OptionMeasurements;
import dev.zstdjava.zstd.ZstdDictionary;

import java.util.List;
import java.util.Random;

/**
 * The oracle of the adaptive-compression measurement: per kind of value, every compression option measured on the
 * kind's values by {@link OptionMeasurements}, as {@code zstd-values advise} and the adaptive client measure (stored
 * bytes saved against the values stored plain; the median compression CPU per KiB, after an unrecorded pass; the
 * dictionary option trained on one half of the values, measured on the other and usable only where it saves more than
 * zstd 3 there by the adopting lineages' bar, by default {@link DictionaryManager#DEFAULT_MIN_IMPROVEMENT}, as the
 * library adopts a dictionary), and the option the library's shared rule, {@link CompressionGoal#decide} with the
 * run's goal ({@link CompressionGoal#balanced()} by default), takes from those measurements: the rule {@code advise}
 * recommends by and {@code AdaptiveCompressor} decides by.
 */
final class AdaptiveOracle {
    /** The most values of a kind measured (the first ones, in key order). */
    static final int MAX_VALUES = 1000;
    private AdaptiveOracle() {}

    /**
     * One kind's measurements, indexed by {@link CompressionOption#ordinal()}, and the option the rule takes.
     *
     * @param withoutDictionary the option the rule takes when the dictionary option is left out (what an
     *                          {@code AdaptiveCompressor} whose pattern has no dictionary can choose among)
     * @param dictionary the trained dictionary where the rule took the dictionary option, else null
     * @param note       how the dictionary option fared
     */
    record Choice(MixedValues.Kind kind, CompressionOption option, CompressionOption withoutDictionary,
                  double[] saved, double[] cpuMicrosPerKiB, boolean[] usable, byte[] dictionary, String note) {
        double savedBy(CompressionOption o) {
            return o == CompressionOption.PLAIN ? 0 : saved[o.ordinal()];
        }
    }

    /**
     * @param goal           the rule that picks
     * @param dictionaryGain the dictionary option is usable where it saves this much more than zstd 3 on the held-out
     *                       half (a fraction)
     */
    static Choice choose(MixedValues.Kind kind, byte[][] all, CompressionConfig base, CompressionGoal goal,
                         double dictionaryGain) {
        List<byte[]> values = List.of(all).subList(0, Math.min(all.length, MAX_VALUES));
        int n = CompressionOption.values().length;
        double[] saved = new double[n];
        double[] cpu = new double[n];
        boolean[] usable = new boolean[n];
        byte[] dictionary = null;
        String note;
        OptionMeasurements m = measured(base, null, values, false);
        for (CompressionOption o : CompressionOption.compressing()) {
            if (!o.dictionary()) {
                saved[o.ordinal()] = m.saved(o);
                cpu[o.ordinal()] = m.cpuMicrosPerKiB(o);
                usable[o.ordinal()] = m.usable(o);
            }
        }
        // the dictionary option: trained on a seeded half, measured on the other half, as advise splits
        CompressionOption withDictionary = CompressionOption.ZSTD_3_DICTIONARY;
        int d = withDictionary.ordinal();
        try {
            HeldOut.Split<byte[]> split = HeldOut.split(values, java.nio.ByteBuffer::wrap,
                    values.size() - values.size() / 2, new Random(1));
            List<byte[]> train = split.train();
            List<byte[]> test = split.heldOut();
            dictionary = ZstdDictionary.train(train, 16 << 10).toByteArray();
            try (DictionaryManager dm = DictionaryManager.given(dictionary).build()) {
                OptionMeasurements md = measured(base, dm, test, true);
                double gain = md.saved(withDictionary) - md.saved(CompressionOption.ZSTD_3);
                saved[d] = md.saved(withDictionary);
                cpu[d] = md.cpuMicrosPerKiB(withDictionary);
                usable[d] = md.usable(withDictionary) && gain >= dictionaryGain - 1e-9;
                note = String.format(java.util.Locale.ROOT, "%s: %+.1f points over zstd 3 on the held-out half (%d "
                        + "values)", usable[d] ? "usable" : "not usable", 100 * gain, test.size());
            }
        } catch (RuntimeException e) {
            saved[d] = Double.NaN;
            cpu[d] = Double.NaN;
            dictionary = null;
            note = "no dictionary: training failed (" + e.getMessage() + ")";
        }
        CompressionOption pick = goal.decide(saved, cpu, usable);
        boolean[] noDictionary = usable.clone();
        noDictionary[d] = false;
        CompressionOption without = goal.decide(saved, cpu, noDictionary);
        return new Choice(kind, pick, without, saved, cpu, usable, pick.dictionary() ? dictionary : null, note);
    }

    /**
     * @return {@code values} measured by {@link OptionMeasurements}, the code {@code advise} and the adaptive client
     * measure with, after one unrecorded pass (so that the JIT has compiled every option's path)
     */
    private static OptionMeasurements measured(CompressionConfig base, DictionaryManager dm, List<byte[]> values,
                                               boolean withDictionary) {
        OptionMeasurements warm = OptionMeasurements.create(base, dm, Math.max(1, values.size()));
        OptionMeasurements m = OptionMeasurements.create(base, dm, Math.max(1, values.size()));
        for (byte[] v : values) {
            warm.add(v, withDictionary);
        }
        for (byte[] v : values) {
            m.add(v, withDictionary);
        }
        return m;
    }
}
