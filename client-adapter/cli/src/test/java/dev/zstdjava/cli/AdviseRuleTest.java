package dev.zstdjava.cli;

import dev.zstdjava.values.CompressionOption;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
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
