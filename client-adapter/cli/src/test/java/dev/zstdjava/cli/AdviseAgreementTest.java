package dev.zstdjava.cli;

import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.ValueCompressor;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code advise}'s recommendation and {@link AdaptiveCompressor}'s decision on the same values, without a server: both
 * measure with the library's {@code OptionMeasurements} and decide with {@code CompressionGoal.balanced()}. The CPU of
 * two measurements differs (this machine, this moment), so these samples are ones where the stored bytes decide
 * whether to compress at all; that the exact option agrees when CPU is equal is the values module's
 * {@code AdaptiveMeasuringAgreementTest} (a steady clock on both sides).
 */
class AdviseAgreementTest {
    private static final int MIN_SIZE = 64;

    private static Advise advise() {
        Advise a = new Advise();
        a.common = new Common();
        a.common.limit = 64L << 20;
        a.minSize = MIN_SIZE;
        return a;
    }

    private static CompressionOption recommended(List<byte[]> values) {
        Advise a = advise();
        List<Advise.KeyData> keys = new ArrayList<>();
        for (byte[] v : values) {
            List<byte[][]> vs = new ArrayList<>();
            vs.add(new byte[][] {null, v, v});
            keys.add(new Advise.KeyData("string", 0, 1, vs));
        }
        Map<CompressionOption, ValueCompressor> compressors = new LinkedHashMap<>();
        for (CompressionOption c : Advise.CHOICES) {
            if (!c.dictionary()) {
                compressors.put(c, ValueCompressor.create(a.config(c)));
            }
        }
        Advise.Outcome r = Advise.recommend(a.evaluate(keys, compressors, new MemoryModel(true, 128, 64)));
        return r == null ? CompressionOption.PLAIN : r.choice();
    }

    private static CompressionOption decided(List<byte[]> values) {
        AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.builder().minCompressionSize(MIN_SIZE)
                        .build()).sampling(values.size(), 1, 1).window(1024, 1).hysteresis(1, 0, 0).build();
        byte[] key = "sample:1".getBytes(StandardCharsets.UTF_8);
        for (byte[] v : values) {
            ac.compress(key, v);
        }
        return ac.snapshot().stream().filter(d -> d.pattern().equals("sample:*")).findFirst().orElseThrow().option();
    }

    @Test
    void randomValuesArePlainForBoth() {
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            values.add(TestValues.random(400 + i, i));
        }
        assertEquals(CompressionOption.PLAIN, recommended(values));
        assertEquals(CompressionOption.PLAIN, decided(values));
    }

    /**
     * Mostly values under the minimum size (stored plain, never sampled) and a few compressible ones: measured as the
     * run-time decisions measure (the sampled values only), both compress; counted over every value read (as advise
     * did with its own measuring), the small ones would dilute the saving under 5% and advise would say plain.
     */
    @Test
    void valuesUnderTheMinimumDoNotDiluteEither() {
        List<byte[]> values = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            values.add(i % 100 == 0 ? TestValues.text(300) : TestValues.random(MIN_SIZE - 1, i));
        }
        CompressionOption tool = recommended(values);
        CompressionOption client = decided(values);
        assertTrue(tool.compresses(), "advise: " + tool);
        assertTrue(client.compresses(), "the client: " + client);
    }

    /**
     * {@code advise} and {@code inspect} group a key under the name the adaptive compressor gives its pattern, one
     * name per pattern: keys with bytes that are not UTF-8 (two that differ only there) and a backslash included.
     */
    @Test
    void adviseNamesEachKeysPatternAsTheAdaptiveCompressorDoes() {
        byte[][] keys = {"user:42:cart".getBytes(StandardCharsets.UTF_8), {'a', ':', (byte) 0xFF, ':', '1'},
            {'a', ':', (byte) 0xFE, ':', '1'}, {'c', 'l', (byte) 0xC3, ':', '5'},
            "dir\\sub:7".getBytes(StandardCharsets.UTF_8)};
        AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.defaults()).build();
        for (byte[] k : keys) {
            ac.compress(k, TestValues.text(300));
        }
        Map<String, Inspect.PatternStats> runtime = new java.util.TreeMap<>();
        ac.snapshot().stream().filter(d -> !d.pattern().equals("(other)"))
                .forEach(d -> runtime.put(d.pattern(), new Inspect.PatternStats()));
        assertEquals(keys.length, runtime.size(), "one name per pattern: " + runtime.keySet());
        java.util.Set<String> advised = new java.util.TreeSet<>();
        for (byte[] k : keys) {
            advised.add(Inspect.patternOf(runtime, k));
        }
        assertEquals(runtime.keySet(), advised);
    }
}
