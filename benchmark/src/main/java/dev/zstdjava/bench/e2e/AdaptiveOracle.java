package dev.zstdjava.bench.e2e;

import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionGoal;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdDictionary;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * The oracle of the adaptive-compression measurement: per kind of value, every compression option measured on the
 * kind's values as {@code zstd-values advise} measures it (stored bytes saved against the values stored plain;
 * compression CPU per KiB, the fastest of five passes after a warm one, once the JIT has compiled the paths; the
 * dictionary option trained on one half of the values, measured on the other and usable only where it saves 5 points
 * more than zstd 3 there, as the library adopts a dictionary), and the option the library's shared rule,
 * {@link CompressionGoal#decide} with {@link CompressionGoal#balanced()}, takes from those measurements: the rule
 * {@code advise} recommends by and {@code AdaptiveCompressor} decides by.
 */
final class AdaptiveOracle {
    /** The most values of a kind measured (the first ones, in key order). */
    static final int MAX_VALUES = 1000;
    /** The dictionary option is usable where it saves this much more than zstd 3 on the held-out half. */
    static final double DICTIONARY_GAIN = 0.05;

    private AdaptiveOracle() {}

    /**
     * One kind's measurements, indexed by {@link CompressionOption#ordinal()}, and the option the rule takes.
     *
     * @param withoutDictionary the option the rule takes when the dictionary option is left out (what an
     *                          {@code AdaptiveCompressor} without dictionaries, as the Lettuce adapter takes it, can
     *                          choose among)
     * @param dictionary the trained dictionary where the rule took the dictionary option, else null
     * @param note       how the dictionary option fared
     */
    record Choice(MixedValues.Kind kind, CompressionOption option, CompressionOption withoutDictionary,
                  double[] saved, double[] cpuMicrosPerKiB, boolean[] usable, byte[] dictionary, String note) {
        double savedBy(CompressionOption o) {
            return o == CompressionOption.PLAIN ? 0 : saved[o.ordinal()];
        }
    }

    static Choice choose(MixedValues.Kind kind, byte[][] all, CompressionConfig base) {
        List<byte[]> values = List.of(all).subList(0, Math.min(all.length, MAX_VALUES));
        int n = CompressionOption.values().length;
        double[] saved = new double[n];
        double[] cpu = new double[n];
        boolean[] usable = new boolean[n];
        byte[] dictionary = null;
        String note;
        for (CompressionOption o : CompressionOption.compressing()) {
            if (!o.dictionary()) {
                ValueCompressor vc = ValueCompressor.create(o.config(base));
                saved[o.ordinal()] = savedFraction(vc, values);
                cpu[o.ordinal()] = cpuMicrosPerKiB(vc, values);
                usable[o.ordinal()] = true;
            }
        }
        // the dictionary option: trained on a seeded half, measured on the other half
        List<byte[]> shuffled = new ArrayList<>(values);
        Collections.shuffle(shuffled, new Random(1));
        List<byte[]> train = shuffled.subList(0, shuffled.size() / 2);
        List<byte[]> test = shuffled.subList(shuffled.size() / 2, shuffled.size());
        int d = CompressionOption.ZSTD_3_DICTIONARY.ordinal();
        try {
            dictionary = ZstdDictionary.train(train, 16 << 10).toByteArray();
            try (DictionaryManager dm = DictionaryManager.given(dictionary).build()) {
                ValueCompressor vc = ValueCompressor.create(CompressionOption.ZSTD_3_DICTIONARY.config(base), dm);
                double with = savedFraction(vc, test);
                double gain = with - savedFraction(ValueCompressor.create(CompressionOption.ZSTD_3.config(base)), test);
                saved[d] = with;
                cpu[d] = cpuMicrosPerKiB(vc, test);
                usable[d] = gain >= DICTIONARY_GAIN - 1e-9;
                note = String.format(java.util.Locale.ROOT, "%s: %+.1f points over zstd 3 on the held-out half (%d "
                        + "values)", usable[d] ? "usable" : "not usable", 100 * gain, test.size());
            }
        } catch (RuntimeException e) {
            saved[d] = Double.NaN;
            cpu[d] = Double.NaN;
            dictionary = null;
            note = "no dictionary: training failed (" + e.getMessage() + ")";
        }
        CompressionOption pick = CompressionGoal.balanced().decide(saved, cpu, usable);
        boolean[] noDictionary = usable.clone();
        noDictionary[d] = false;
        CompressionOption without = CompressionGoal.balanced().decide(saved, cpu, noDictionary);
        return new Choice(kind, pick, without, saved, cpu, usable, pick.dictionary() ? dictionary : null, note);
    }

    /** @return the stored bytes {@code vc} saves on {@code values}, as a fraction of their plain length */
    private static double savedFraction(ValueCompressor vc, List<byte[]> values) {
        long plain = 0;
        long stored = 0;
        for (byte[] v : values) {
            plain += v.length;
            stored += vc.compress(v).length;
        }
        return plain == 0 ? 0 : 1 - (double) stored / plain;
    }

    /** @return the compression CPU in µs per KiB of input: the fastest of five timed passes, after a warm one */
    private static double cpuMicrosPerKiB(ValueCompressor vc, List<byte[]> values) {
        long plain = 0;
        for (byte[] v : values) {
            plain += v.length;
            vc.compress(v);
        }
        long best = Long.MAX_VALUE;
        for (int pass = 0; pass < 5; pass++) {
            long t = System.nanoTime();
            for (byte[] v : values) {
                vc.compress(v);
            }
            best = Math.min(best, System.nanoTime() - t);
        }
        return plain == 0 ? 0 : best / 1e3 / (plain / 1024.0);
    }
}
