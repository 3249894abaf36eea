package dev.zstdjava.bench.e2e;

import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.OptionMeasurements;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.zip.Deflater;

import static org.junit.jupiter.api.Assertions.*;

/** The mixed value set of {@code ./e2e --adaptive} keeps what its description promises. */
class MixedValuesTest {
    private static final MixedValues.Set SET = MixedValues.generate(2000, MixedValues.SEED);

    @Test
    void incompressibleKindsAreAtLeastThirtyPercentByCount() {
        assertTrue(SET.incompressibleShare() >= 0.30, "incompressible share " + SET.incompressibleShare());
        Map<MixedValues.Kind, long[]> stats = SET.stats();
        assertEquals(MixedValues.Kind.values().length, stats.size(), "every kind is there");
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            double share = (double) stats.get(k)[0] / SET.size();
            assertEquals(k.sharePercent / 100.0, share, 0.005, k.id + "'s share");
        }
    }

    @Test
    void everyValueIsInItsKindsSizeRangeUnderItsKindsKey() {
        for (int i = 0; i < SET.size(); i++) {
            MixedValues.Kind k = SET.kinds()[i];
            int n = SET.values()[i].length;
            assertTrue(n >= k.minSize && n <= k.maxSize, k.id + " value " + i + ": " + n + " bytes, outside "
                    + k.minSize + ".." + k.maxSize);
            assertEquals(MixedValues.PREFIX + k.id + ":" + i, new String(SET.keys()[i], StandardCharsets.US_ASCII));
        }
    }

    @Test
    void theSameSeedGivesTheSameValues() {
        MixedValues.Set again = MixedValues.generate(2000, MixedValues.SEED);
        assertArrayEquals(SET.kinds(), again.kinds());
        for (int i = 0; i < SET.size(); i++) {
            assertArrayEquals(SET.values()[i], again.values()[i], "value " + i);
        }
        assertFalse(Arrays.equals(SET.kinds(), MixedValues.generate(2000, MixedValues.SEED + 1).kinds()),
                "another seed, another order");
    }

    @Test
    void compressibleKindsCompressAndTheOthersDoNot() {
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            byte[][] values = SET.valuesOf(k);
            long plain = 0;
            long deflated = 0;
            for (int i = 0; i < Math.min(values.length, 50); i++) {
                plain += values[i].length;
                deflated += deflate(values[i]);
            }
            double saved = 1 - (double) deflated / plain;
            if (k.incompressible) {
                assertTrue(saved < 0.02, k.id + " saves " + saved);
            } else {
                // a ~300-byte record alone compresses a little (what a dictionary is for), the larger kinds well
                assertTrue(saved > (k == MixedValues.Kind.PRODUCT ? 0.1 : 0.3), k.id + " saves only " + saved);
            }
        }
        // the gzip blobs are gzip members
        for (byte[] v : SET.valuesOf(MixedValues.Kind.GZIP)) {
            assertEquals(0x1f, v[0] & 0xff);
            assertEquals(0x8b, v[1] & 0xff);
        }
    }

    /**
     * The tile bundles are there for lz4: only long matches of random bytes shrink them, so lz4 saves within the
     * balanced goal's 2 points of the best zstd level (and is then the one it takes wherever lz4 is the cheapest).
     */
    @Test
    void tileBundlesSaveAsMuchWithLz4AsWithZstd() {
        OptionMeasurements m = OptionMeasurements.create(AdaptiveRun.ZSTD_3, null, 200);
        byte[][] tiles = SET.valuesOf(MixedValues.Kind.TILES);
        for (int i = 0; i < Math.min(tiles.length, 100); i++) {
            m.add(tiles[i], false);
        }
        double best = 0;
        for (CompressionOption o : CompressionOption.compressing()) {
            best = o.dictionary() ? best : Math.max(best, m.saved(o));
        }
        assertTrue(m.saved(CompressionOption.LZ4) > 0.8, "lz4 saves " + m.saved(CompressionOption.LZ4));
        assertTrue(best - m.saved(CompressionOption.LZ4) < 0.015, "lz4 saves " + m.saved(CompressionOption.LZ4)
                + ", the best zstd level " + best);
    }

    @Test
    void keysOfAKindFoldIntoOnePatternOfTheirOwn() {
        Map<MixedValues.Kind, String> patterns = AdaptiveRun.patterns(SET);
        assertEquals(MixedValues.Kind.values().length, patterns.values().stream().distinct().count(), patterns.toString());
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            for (byte[] key : SET.keysOf(k)) {
                assertEquals(patterns.get(k), dev.zstdjava.values.KeyFolder.patternOf(key));
            }
        }
    }

    @Test
    void eachClientsKeysAreItsOwnOfOneLengthAndFoldPerKind() {
        java.util.Set<String> keys = new java.util.HashSet<>();
        java.util.Set<String> patterns = new java.util.HashSet<>();
        for (AdaptiveRun.Client c : AdaptiveRun.Client.values()) {
            MixedValues.Set s = SET.tagged(c.tag);
            assertSame(SET.values(), s.values(), c.id);
            assertSame(SET.kinds(), s.kinds(), c.id);
            Map<MixedValues.Kind, String> byKind = AdaptiveRun.patterns(s);
            for (MixedValues.Kind k : MixedValues.Kind.values()) {
                for (byte[] key : s.keysOf(k)) {
                    assertEquals(byKind.get(k), dev.zstdjava.values.KeyFolder.patternOf(key), c.id);
                }
            }
            patterns.addAll(byKind.values());
            for (int i = 0; i < s.size(); i++) {
                assertEquals(SET.keys()[i].length + 2, s.keys()[i].length, "one letter per client: keys of one length");
                assertTrue(keys.add(new String(s.keys()[i], StandardCharsets.US_ASCII)), "a key of two clients");
            }
        }
        assertEquals(AdaptiveRun.Client.values().length * MixedValues.Kind.values().length, patterns.size(),
                "a pattern per client and kind: " + patterns);
    }

    @Test
    void tooFewKeysAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> MixedValues.generate(10, 1));
    }

    private static int deflate(byte[] v) {
        Deflater d = new Deflater(6);
        d.setInput(v);
        d.finish();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        while (!d.finished()) {
            out.write(buf, 0, d.deflate(buf));
        }
        d.end();
        return out.size();
    }
}
