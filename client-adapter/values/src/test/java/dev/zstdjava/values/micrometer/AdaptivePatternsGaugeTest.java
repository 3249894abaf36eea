package dev.zstdjava.values.micrometer;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.PatternDecision;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The gauge {@code zstdjava.values.adaptive.patterns} counts the patterns written with each option: a listed pattern
 * or {@code (other)} not written yet is no pattern written with the default option, and under churn of patterns the
 * gauge stays within the patterns tracked, one series per option.
 */
class AdaptivePatternsGaugeTest {
    static final String NAME = CompressionMetrics.PREFIX + "adaptive.patterns";

    static double total(SimpleMeterRegistry registry) {
        return registry.find(NAME).gauges().stream().mapToDouble(Gauge::value).sum();
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void countsOnlyPatternsWrittenEvenUnderChurn() {
        AdaptiveCompressor adaptive = AdaptiveCompressor.builder(CompressionConfig.defaults())
                .patterns(List.of("json:*", "idle:*")).capacity(4).idleWindow(Duration.ofNanos(1)).build();
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        new CompressionMetrics(adaptive, Tags.empty()).bindTo(registry);
        assertEquals(0, total(registry), "no pattern written yet");

        for (int i = 0; i < 8; i++) {
            adaptive.compress(utf8("json:" + i), utf8(json(1500 + i)));
        }
        assertEquals(1, total(registry), "json:* only, not idle:* nor (other)");
        assertEquals(1, registry.get(NAME).tag("option", adaptive.snapshot().get(0).option().label()).gauge()
                .value(), "json:*'s option");

        for (int i = 0; i < 1000; i++) { // a new pattern each time, letters only: each folds to itself
            String p = "k" + (char) ('g' + i % 20) + (char) ('g' + i / 20 % 20) + (char) ('g' + i / 400);
            adaptive.compress(utf8(p + ":1"), utf8(json(1000 + i)));
        }
        List<PatternDecision> rows = adaptive.snapshot();
        long written = rows.stream().filter(d -> d.valuesSeen() > 0).count();
        assertTrue(rows.size() <= 4 + 2 + 1, rows.size() + " rows: at most the tracked, the listed and (other)");
        assertEquals(written, total(registry), rows.toString());
        assertEquals(CompressionOption.values().length, registry.find(NAME).gauges().size(), "one series per option");
    }
}
