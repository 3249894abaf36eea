package dev.zstdjava.values;

import dev.zstdjava.testkit.TestValues;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.UnaryOperator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link OptionMeasurements}, the measuring entry {@code zstd-values advise} calls, and {@link AdaptiveCompressor}
 * decide alike on the same values. Both are timed by a clock that advances the same amount on every reading, so every
 * option costs the same CPU per value: the decisions then turn on the stored bytes alone (equal CPU falls to cost
 * order), which are exact, and a busy machine cannot flip them; with the real clock two measurements of the same
 * values differ in CPU, so a goal that picks by CPU among close savings may differ between two runs.
 */
class AdaptiveMeasuringAgreementTest {
    private static LongSupplier steadyClock() {
        long[] t = {0};
        return () -> t[0] += 1_000;
    }

    private static List<List<byte[]>> samples() {
        List<List<byte[]>> out = new ArrayList<>();
        out.add(TestValues.jsonRecords(64, 3));
        List<byte[]> random = new ArrayList<>();
        List<byte[]> text = new ArrayList<>();
        List<byte[]> mixed = new ArrayList<>();
        for (int i = 0; i < 64; i++) {
            random.add(TestValues.random(300 + 7 * i, i));
            text.add(TestValues.text(200 + 13 * i));
            mixed.add(i % 3 == 0 ? TestValues.random(500, i) : TestValues.text(40 + i)); // some under the minimum
        }
        out.add(random);
        out.add(text);
        out.add(mixed);
        return out;
    }

    @Test
    void theToolsMeasuringAndTheRunTimeDecisionAgreeOnTheSameSample() {
        CompressionConfig config = CompressionConfig.builder().minCompressionSize(64).build();
        List<CompressionGoal> goals = List.of(CompressionGoal.balanced(),
                CompressionGoal.memory(Double.POSITIVE_INFINITY),
                CompressionGoal.memory(0.5), CompressionGoal.speed());
        int compared = 0;
        java.util.Set<CompressionOption> seen = java.util.EnumSet.noneOf(CompressionOption.class);
        for (List<byte[]> values : samples()) {
            for (CompressionGoal goal : goals) {
                OptionMeasurements tool = OptionMeasurements.create(config, null, values.size(), steadyClock());
                int measured = 0;
                for (byte[] v : values) {
                    measured += tool.add(v, true) ? 1 : 0;
                }
                CompressionOption recommended = tool.decide(goal);
                seen.add(recommended);

                AdaptiveCompressor ac = AdaptiveCompressor.builder(config).goal(goal)
                        .sampling(values.size(), 1, 1).window(measured, measured).hysteresis(1, 0, 0)
                        .build(UnaryOperator.identity(), steadyClock());
                byte[] key = "sample:1".getBytes(StandardCharsets.UTF_8);
                for (byte[] v : values) {
                    ac.compress(key, v);
                }
                assertEquals(recommended, ac.state(key).current(), goal + " on " + values.size() + " values ("
                        + measured + " measured)");
                compared++;
            }
        }
        assertEquals(16, compared);
        assertTrue(seen.size() >= 3, "the samples lead to several decisions: " + seen);
    }

    @Test
    void measuringFollowsTheCompressorsLimitsAndWindow() {
        CompressionConfig config = CompressionConfig.builder().minCompressionSize(100).maxDecompressedSize(1000)
                .build();
        OptionMeasurements m = OptionMeasurements.create(config, null, 4, steadyClock());
        assertFalse(m.add(new byte[99], false), "under the minimum: stored without a sample");
        assertFalse(m.add(new byte[1001], false), "over the limit: stored as it is");
        for (int i = 0; i < 6; i++) {
            assertTrue(m.add(TestValues.text(500), false));
        }
        assertEquals(4, m.values(), "the latest 4");
        assertTrue(m.usable(CompressionOption.ZSTD_3));
        assertFalse(m.usable(CompressionOption.ZSTD_3_DICTIONARY), "no dictionary given");
        assertFalse(m.usable(CompressionOption.PLAIN));
        assertTrue(m.saved(CompressionOption.ZSTD_9) >= m.saved(CompressionOption.LZ4) - 0.02);
        assertEquals(1_000 / 1e3 / (500 / 1024.0), m.cpuMicrosPerKiB(CompressionOption.LZ4), 1e-9);
    }
}
