package dev.zstdjava.cli;

import dev.zstdjava.values.CompressionGoal;
import dev.zstdjava.values.CompressionOption;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code advise}'s recommendation is the library's rule ({@code CompressionGoal.balanced()}), without a server: by
 * the stored bytes saved against the values stored plain and the measured CPU per KiB, not by the memory model.
 */
class AdviseRuleTest {
    /** An outcome on 100 values of 1,000 bytes, stored plain now, with {@code saved} of the bytes and {@code us}. */
    private static Advise.Outcome outcome(CompressionOption o, double saved, double memorySaved, double us) {
        long after = Math.round(100_000 * (1 - saved));
        return new Advise.Outcome(o, 100_000, after, 200_000, 200_000 * memorySaved, 100, us, 1, 100, 100_000,
                o.dictionary() ? "not adopted: +1.0 points" : null);
    }

    private static List<Advise.Outcome> all(double[] saved, double[] memory, double[] us) {
        List<Advise.Outcome> os = new ArrayList<>();
        List<CompressionOption> options = CompressionOption.compressing();
        for (int i = 0; i < options.size(); i++) {
            os.add(outcome(options.get(i), saved[i], memory[i], us[i]));
        }
        return os;
    }

    // lz4, zstd -1, 1, 3, 3 + dictionary (not adopted), 6, 9
    private static final double[] SAVED = {0.40, 0.50, 0.60, 0.62, 0.90, 0.63, 0.64};
    private static final double[] US = {0.5, 0.8, 1.5, 2.5, 1.0, 6, 12};

    @Test
    void theCheapestByMeasuredCpuWithinTwoPointsOfTheBestStoredSaving() {
        Advise.Outcome r = Advise.recommend(all(SAVED, SAVED, US));
        assertEquals(CompressionOption.ZSTD_3, r.choice());
        double[] slowZstd3 = US.clone();
        slowZstd3[3] = 7;
        assertEquals(CompressionOption.ZSTD_6, Advise.recommend(all(SAVED, SAVED, slowZstd3)).choice(),
                "measured CPU, not the table's order");
        assertEquals(2.5 * 100 / (100_000 / 1024.0), r.compressMicrosPerKiB(), 1e-9);
    }

    @Test
    void everyGoalOfAdaptiveCompressionIsRecommendedByItsRule() {
        List<Advise.Outcome> os = all(SAVED, SAVED, US); // CPU per KiB: 1.024 x US
        assertEquals(CompressionOption.ZSTD_3, Advise.recommend(os, Advise.goal("balanced", null)).choice());
        assertEquals(CompressionOption.LZ4, Advise.recommend(os, Advise.goal("SPEED", null)).choice());
        assertEquals(CompressionOption.ZSTD_9, Advise.recommend(os, Advise.goal("memory", 100.0)).choice());
        assertEquals(CompressionOption.ZSTD_3, Advise.recommend(os, Advise.goal("memory", 3.0)).choice(),
                "zstd 6 (6.1 us/KiB) is over the budget");
        assertEquals(CompressionOption.ZSTD_1, Advise.recommend(os, Advise.goal("memory", 2.0)).choice());
        assertNull(Advise.recommend(os, Advise.goal("memory", 0.1)));
        List<Advise.KeyData> keys = List.of(new Advise.KeyData("string", 1200, 1000,
                List.<byte[][]>of(new byte[][]{null, new byte[1000], new byte[1000]})));
        assertEquals("leave it plain: the best option within the CPU budget saves 0.0% of the bytes stored plain"
                + " (under 1%)", Advise.why(keys, os, Advise.goal("memory", 0.1)));
        double[] poor = {0.03, 0.30, 0.30, 0.30, 0, 0.30, 0.30};
        List<Advise.Outcome> lz4Poor = all(poor, poor, US);
        assertNull(Advise.recommend(lz4Poor, CompressionGoal.speed()));
        assertEquals("leave it plain: lz4 saves 3.0% of the bytes stored plain (under 5%)",
                Advise.why(keys, lz4Poor, CompressionGoal.speed()));
        assertEquals("memory (CPU budget 2.50 us/KiB)", Advise.describe(CompressionGoal.memory(2.5)));
    }

    @Test
    void aGoalThatIsNotOneIsRefusedByName() {
        assertEquals("--goal fastest: balanced, memory or speed",
                assertThrows(ToolException.BadArguments.class, () -> Advise.goal("fastest", null)).getMessage());
        assertEquals("--goal memory needs --cpu-budget, a positive number of microseconds per KiB (none given)",
                assertThrows(ToolException.BadArguments.class, () -> Advise.goal("memory", null)).getMessage());
        assertEquals("--goal memory needs --cpu-budget, a positive number of microseconds per KiB (0.0 given)",
                assertThrows(ToolException.BadArguments.class, () -> Advise.goal("memory", 0.0)).getMessage());
        assertEquals("--cpu-budget is for --goal memory only (the goal is balanced)",
                assertThrows(ToolException.BadArguments.class, () -> Advise.goal("balanced", 5.0)).getMessage());
    }

    @Test
    void storedBytesDecideNotTheMemoryModel() {
        // small strings: the memory model sees little saved (allocator classes), the stored bytes 30%
        double[] saved = {0.30, 0.30, 0.30, 0.30, 0, 0.30, 0.30};
        double[] memory = {0.02, 0.02, 0.02, 0.02, 0, 0.02, 0.02};
        Advise.Outcome r = Advise.recommend(all(saved, memory, US));
        assertEquals(CompressionOption.LZ4, r.choice(), "before: leave it plain (2% of memory)");
        double[] little = {0.04, 0.04, 0.04, 0.04, 0, 0.04, 0.04};
        double[] much = {0.2, 0.2, 0.2, 0.2, 0, 0.2, 0.2};
        assertNull(Advise.recommend(all(little, much, US)), "4% of the stored bytes: plain, whatever the model says");
    }

    @Test
    void aKeyspaceCompressedAlreadyIsJudgedAgainstPlain() {
        // stored now with zstd 3 (40,000 bytes for 100,000 plain): the options save against plain, not against now
        List<Advise.Outcome> os = new ArrayList<>();
        for (CompressionOption o : CompressionOption.compressing()) {
            os.add(new Advise.Outcome(o, 40_000, 39_000, 80_000, 1_000, 100, 2, 1, 100, 100_000,
                    o.dictionary() ? "not adopted: +1.0 points" : null));
        }
        Advise.Outcome r = Advise.recommend(os);
        assertTrue(r != null && r.storedFraction() < 0.05, "keep compressing: " + r);
        assertEquals(0.61, r.plainFraction(), 1e-9);
    }
}
