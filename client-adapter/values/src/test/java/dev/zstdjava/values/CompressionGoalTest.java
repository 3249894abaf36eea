package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.zstdjava.values.CompressionOption.LZ4;
import static dev.zstdjava.values.CompressionOption.PLAIN;
import static dev.zstdjava.values.CompressionOption.ZSTD_1;
import static dev.zstdjava.values.CompressionOption.ZSTD_3;
import static dev.zstdjava.values.CompressionOption.ZSTD_3_DICTIONARY;
import static dev.zstdjava.values.CompressionOption.ZSTD_6;
import static dev.zstdjava.values.CompressionOption.ZSTD_9;
import static dev.zstdjava.values.CompressionOption.ZSTD_FAST_1;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link CompressionGoal#decide} for each goal, and the options' list. */
class CompressionGoalTest {
    private static final int N = CompressionOption.values().length;

    /** Measurements to fill: every option usable unless marked. */
    private static final class M {
        final double[] saved = new double[N];
        final double[] cpu = new double[N];
        final boolean[] usable = new boolean[N];

        M() {
            java.util.Arrays.fill(usable, true);
            usable[ZSTD_3_DICTIONARY.ordinal()] = false;
        }

        M set(CompressionOption o, double saved, double cpu) {
            this.saved[o.ordinal()] = saved;
            this.cpu[o.ordinal()] = cpu;
            this.usable[o.ordinal()] = true;
            return this;
        }

        M unusable(CompressionOption o) {
            usable[o.ordinal()] = false;
            return this;
        }

        CompressionOption decide(CompressionGoal goal) {
            return goal.decide(saved, cpu, usable);
        }
    }

    /** JSON-like measurements: lz4 saves 40%, zstd 60 to 64%, CPU rising with the level. */
    private static M typical() {
        return new M().set(LZ4, 0.40, 0.5).set(ZSTD_FAST_1, 0.50, 0.8).set(ZSTD_1, 0.60, 1.5).set(ZSTD_3, 0.62, 2.5)
                .set(ZSTD_6, 0.63, 6).set(ZSTD_9, 0.64, 12);
    }

    @Test
    void theOptionsAreAdvisesInCostOrderWithPlainFirst() {
        assertEquals(List.of("lz4", "zstd -1", "zstd 1", "zstd 3", "zstd 3 + dictionary", "zstd 6", "zstd 9"),
                CompressionOption.compressing().stream().map(CompressionOption::label).toList());
        assertEquals(PLAIN, CompressionOption.values()[0]);
        assertFalse(PLAIN.compresses());
        assertTrue(ZSTD_3_DICTIONARY.dictionary());
        CompressionConfig c = ZSTD_FAST_1.config(CompressionConfig.builder().minCompressionSize(100).enabled(false)
                .build());
        assertEquals(CompressionBackend.ZSTD, c.backend());
        assertEquals(-1, c.level());
        assertEquals(100, c.minCompressionSize());
        assertTrue(c.enabled());
        assertEquals(CompressionBackend.LZ4, LZ4.config(CompressionConfig.defaults()).backend());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> PLAIN.config(CompressionConfig.defaults()));
        assertTrue(e.getMessage().contains("plain"), e.getMessage());
        assertEquals("zstd 3", ZSTD_3.toString());
    }

    @Test
    void balancedTakesTheCheapestWithinTwoPointsOfTheBest() {
        assertEquals(ZSTD_3, typical().decide(CompressionGoal.balanced()), "zstd 3 is within 2 points of zstd 9");
        // measured CPU decides, not the declaration order: a slow zstd 3 here loses to zstd 6
        assertEquals(ZSTD_6, typical().set(ZSTD_3, 0.62, 7).set(ZSTD_6, 0.63, 6)
                .decide(CompressionGoal.balanced()));
        // exactly 2 points below the best still counts
        assertEquals(ZSTD_1, typical().set(ZSTD_1, 0.62, 1.5).set(ZSTD_9, 0.64, 12).decide(CompressionGoal.balanced()));
        // equal CPU: the option declared first
        assertEquals(ZSTD_1, typical().set(ZSTD_1, 0.63, 2).set(ZSTD_3, 0.63, 2).decide(CompressionGoal.balanced()));
        // a dictionary that saves much more wins once usable, not before
        M m = typical().set(ZSTD_3_DICTIONARY, 0.85, 1.2).unusable(ZSTD_3_DICTIONARY);
        assertEquals(ZSTD_3, m.decide(CompressionGoal.balanced()));
        m.usable[ZSTD_3_DICTIONARY.ordinal()] = true;
        assertEquals(ZSTD_3_DICTIONARY, m.decide(CompressionGoal.balanced()));
    }

    @Test
    void nothingThatSavesFivePercentIsPlain() {
        M incompressible = new M();
        for (CompressionOption o : CompressionOption.compressing()) {
            if (!o.dictionary()) {
                incompressible.set(o, 0.049, 1);
            }
        }
        assertEquals(PLAIN, incompressible.decide(CompressionGoal.balanced()));
        assertEquals(PLAIN, incompressible.decide(CompressionGoal.speed()));
        assertEquals(LZ4, incompressible.set(ZSTD_9, 0.05, 9).decide(CompressionGoal.balanced()),
                "5% exactly compresses, with the cheapest option within 2 points of it");
        // grown values (negative savings), none usable, NaN measurements
        M grown = new M();
        for (CompressionOption o : CompressionOption.compressing()) {
            grown.set(o, -0.01, 1);
        }
        assertEquals(PLAIN, grown.decide(CompressionGoal.balanced()));
        assertEquals(PLAIN, grown.decide(CompressionGoal.memory(100)));
        M none = typical();
        java.util.Arrays.fill(none.usable, false);
        assertEquals(PLAIN, none.decide(CompressionGoal.balanced()));
        assertEquals(PLAIN, none.decide(CompressionGoal.memory(100)));
        assertEquals(PLAIN, none.decide(CompressionGoal.speed()));
        M nan = typical().set(ZSTD_9, 0.9, Double.NaN).set(ZSTD_6, Double.NaN, 1);
        assertEquals(ZSTD_1, nan.decide(CompressionGoal.balanced()), "NaN measurements are never taken");
    }

    @Test
    void memoryTakesTheLargestSavingWithinTheBudget() {
        assertEquals(ZSTD_9, typical().decide(CompressionGoal.memory(Double.POSITIVE_INFINITY)));
        assertEquals(ZSTD_9, typical().decide(CompressionGoal.memory(12)), "the budget is inclusive");
        assertEquals(ZSTD_6, typical().decide(CompressionGoal.memory(10)), "zstd 9 is over the budget");
        assertEquals(ZSTD_3, typical().decide(CompressionGoal.memory(3)));
        assertEquals(LZ4, typical().decide(CompressionGoal.memory(0.6)));
        assertEquals(PLAIN, typical().decide(CompressionGoal.memory(0.1)), "nothing within the budget");
        // near-equal savings (within half a point): the cheaper one
        assertEquals(ZSTD_6, typical().set(ZSTD_9, 0.632, 12).decide(CompressionGoal.memory(100)));
        assertEquals(ZSTD_3, typical().set(ZSTD_6, 0.624, 6).set(ZSTD_9, 0.625, 12)
                .decide(CompressionGoal.memory(100)), "half a point below the best still counts");
        assertEquals(ZSTD_6, typical().set(ZSTD_3, 0.6199, 2.5).set(ZSTD_6, 0.624, 6).set(ZSTD_9, 0.625, 12)
                .decide(CompressionGoal.memory(100)), "more than half a point below does not");
        // highly compressible data: a third of a point is not bought with six times the CPU
        M tiles = new M().set(LZ4, 0.897, 0.22).set(ZSTD_FAST_1, 0.904, 0.42).set(ZSTD_1, 0.904, 0.41)
                .set(ZSTD_3, 0.904, 0.56).set(ZSTD_6, 0.907, 2.58).set(ZSTD_9, 0.908, 3.19)
                .unusable(ZSTD_3_DICTIONARY);
        assertEquals(ZSTD_FAST_1, tiles.decide(CompressionGoal.memory(8)),
                "not zstd 6; of zstd -1 and 1, within 10% in CPU, the one declared first");
        // MEMORY compresses for a saving of 1%, where BALANCED does not
        M small = new M().set(LZ4, 0.02, 0.5).set(ZSTD_1, 0.03, 1).unusable(ZSTD_FAST_1).unusable(ZSTD_3)
                .unusable(ZSTD_6).unusable(ZSTD_9);
        assertEquals(ZSTD_1, small.decide(CompressionGoal.memory(100)));
        assertEquals(PLAIN, small.decide(CompressionGoal.balanced()));
    }

    @Test
    void cpuWithinTenPercentIsEquallyCheapAndTheOptionDeclaredFirstIsTaken() {
        // zstd -1 and zstd 1 on highly compressible data: which is cheaper, and which saves a hundredth of a point more,
        // is the noise of one measurement
        M tiles = new M().set(LZ4, 0.897, 0.22).set(ZSTD_FAST_1, 0.9041, 0.40).set(ZSTD_1, 0.9043, 0.42)
                .set(ZSTD_3, 0.9043, 0.56).set(ZSTD_6, 0.907, 2.58).set(ZSTD_9, 0.908, 3.19);
        assertEquals(ZSTD_FAST_1, tiles.decide(CompressionGoal.memory(8)));
        assertEquals(ZSTD_FAST_1, tiles.set(ZSTD_FAST_1, 0.9043, 0.42).set(ZSTD_1, 0.9041, 0.40)
                .decide(CompressionGoal.memory(8)), "the same option whichever measured a little cheaper");
        CompressionGoal memory = CompressionGoal.memory(8);
        assertEquals(ZSTD_1, memory.decide(tiles.saved, tiles.cpu, tiles.usable, ZSTD_1, 0, 0.2),
                "in use, zstd 1 is kept by the CPU margin");
        assertEquals(ZSTD_FAST_1, memory.decide(tiles.saved, tiles.cpu, tiles.usable, ZSTD_3, 0, 0.2),
                "zstd 3 in use, 0.56 us/KiB less 20%, is still more than 10% above 0.40");
        // the edge: 10% above the least CPU is as cheap, more is not
        M m = typical().set(ZSTD_1, 0.62, 2.2).set(ZSTD_3, 0.63, 2.0);
        assertEquals(ZSTD_1, m.decide(CompressionGoal.balanced()));
        assertEquals(ZSTD_3, m.set(ZSTD_1, 0.62, 2.21).decide(CompressionGoal.balanced()));
        // the band never reaches past the tie on saving or the budget
        assertEquals(ZSTD_6, typical().set(ZSTD_1, 0.615, 2.1).set(ZSTD_3, 0.63, 2.0).set(ZSTD_6, 0.64, 2.0)
                .set(ZSTD_9, 0.65, 12).decide(CompressionGoal.memory(2.15)),
                "zstd 1 and 3, as cheap and declared first, save more than half a point less than zstd 6");
        assertEquals(ZSTD_6, typical().set(ZSTD_1, 0.615, 2.1).set(ZSTD_3, 0.63, 2.2).set(ZSTD_6, 0.64, 2.0)
                .set(ZSTD_9, 0.65, 12).decide(CompressionGoal.memory(2.05)), "zstd 1 and 3 are over the budget");
        assertEquals(ZSTD_3, typical().set(ZSTD_1, 0.615, 2.0).set(ZSTD_3, 0.63, 2.1).set(ZSTD_6, 0.64, 2.1)
                .set(ZSTD_9, 0.65, 12).decide(CompressionGoal.balanced()),
                "zstd 1 is more than 2 points below the best; of zstd 3 and 6, as cheap, the one declared first");
    }

    @Test
    void speedIsLz4OrPlain() {
        assertEquals(LZ4, typical().decide(CompressionGoal.speed()));
        assertEquals(PLAIN, typical().set(LZ4, 0.04, 0.5).decide(CompressionGoal.speed()), "lz4 saves under 5%");
        assertEquals(PLAIN, typical().unusable(LZ4).decide(CompressionGoal.speed()), "zstd is never taken");
    }

    @Test
    void theOptionInUseIsFavouredByTheMargins() {
        CompressionGoal g = CompressionGoal.balanced();
        M m = new M().set(LZ4, 0.40, 0.5).set(ZSTD_FAST_1, 0.50, 0.8).set(ZSTD_1, 0.61, 2.4).set(ZSTD_3, 0.62, 2.6)
                .set(ZSTD_6, 0.625, 6).set(ZSTD_9, 0.63, 12);
        assertEquals(ZSTD_1, m.decide(g));
        assertEquals(ZSTD_3, g.decide(m.saved, m.cpu, m.usable, ZSTD_3, 0.01, 0.2), "8% cheaper is not enough");
        assertEquals(ZSTD_1, g.decide(m.saved, m.cpu, m.usable, ZSTD_3, 0.01, 0.01));
        M low = new M().set(LZ4, 0.055, 1).set(ZSTD_1, 0.055, 1.5).unusable(ZSTD_FAST_1).unusable(ZSTD_3)
                .unusable(ZSTD_6).unusable(ZSTD_9);
        assertEquals(LZ4, low.decide(g));
        assertEquals(PLAIN, g.decide(low.saved, low.cpu, low.usable, PLAIN, 0.01, 0.2),
                "from plain, an option must save the least saving plus the margin");
        M under = new M().set(LZ4, 0.045, 1).unusable(ZSTD_FAST_1).unusable(ZSTD_1).unusable(ZSTD_3)
                .unusable(ZSTD_6).unusable(ZSTD_9);
        assertEquals(PLAIN, under.decide(g));
        assertEquals(LZ4, g.decide(under.saved, under.cpu, under.usable, LZ4, 0.01, 0.2), "in use, lz4 keeps a band");
    }

    @Test
    void theMarginsNeverStretchTheMemoryBudget() {
        CompressionGoal g = CompressionGoal.memory(6);
        M m = new M().set(LZ4, 0.40, 0.5).set(ZSTD_FAST_1, 0.50, 0.8).set(ZSTD_1, 0.60, 2.4).set(ZSTD_3, 0.62, 7)
                .set(ZSTD_6, 0.63, 9).set(ZSTD_9, 0.64, 12);
        assertEquals(ZSTD_1, m.decide(g));
        assertEquals(ZSTD_1, g.decide(m.saved, m.cpu, m.usable, ZSTD_3, 0.01, 0.2),
                "zstd 3 in use at 7 us/KiB is over the 6 us/KiB budget, though 7 * (1 - 0.2) is not");
        M within = m.set(ZSTD_3, 0.62, 6);
        assertEquals(ZSTD_3, g.decide(within.saved, within.cpu, within.usable, ZSTD_3, 0.01, 0.2),
                "at the budget it is taken");
    }

    @Test
    void badGoalsAndMeasurementsAreRefused() {
        assertEquals("the MEMORY goal's CPU budget must be a positive number of microseconds per KiB, not 0.0",
                assertThrows(IllegalArgumentException.class, () -> CompressionGoal.memory(0)).getMessage());
        assertThrows(IllegalArgumentException.class, () -> CompressionGoal.memory(Double.NaN));
        assertThrows(IllegalArgumentException.class, () -> CompressionGoal.memory(-1));
        assertTrue(assertThrows(IllegalArgumentException.class,
                () -> new CompressionGoal(CompressionGoal.Kind.SPEED, 3)).getMessage().contains("only the MEMORY goal"));
        assertThrows(NullPointerException.class, () -> new CompressionGoal(null, 1));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CompressionGoal.balanced().decide(new double[3], new double[N], new boolean[N]));
        assertTrue(e.getMessage().contains("an entry for each of the " + N + " options"), e.getMessage());
        assertEquals(CompressionGoal.balanced(), new CompressionGoal(CompressionGoal.Kind.BALANCED,
                Double.POSITIVE_INFINITY));
    }
}
