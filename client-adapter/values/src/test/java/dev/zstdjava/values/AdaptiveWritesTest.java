package dev.zstdjava.values;

import dev.zstdjava.testkit.TestValues;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * {@link AdaptiveCompressor#writes}: every value stored is counted once, under the option that stored it, with the
 * bytes it had and the bytes it was stored as.
 */
class AdaptiveWritesTest {
    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static long[] totals(AdaptiveCompressor a) {
        long[] t = new long[3];
        for (CompressionOption o : CompressionOption.values()) {
            OptionWrites w = a.writes(o);
            assertEquals(o, w.option());
            t[0] += w.values();
            t[1] += w.originalBytes();
            t[2] += w.storedBytes();
        }
        return t;
    }

    @Test
    void everyValueIsCountedOnceWithItsBytesBeforeAndAsStored() {
        AdaptiveCompressor a = AdaptiveCompressor.builder(CompressionConfig.defaults())
                .patterns(List.of("json:*", "blob:*")).build();
        long values = 0;
        long original = 0;
        long stored = 0;
        for (int i = 0; i < 3_000; i++) {
            byte[][] writes = {
                    utf8(TestValues.json(800 + i % 700)), TestValues.random(300 + i % 500, i), utf8("short " + i)};
            String[] keys = {"json:" + i, "blob:" + i, "tiny:" + i};
            for (int j = 0; j < writes.length; j++) {
                byte[] out = a.compress(utf8(keys[j]), writes[j]);
                values++;
                original += writes[j].length;
                stored += out.length;
            }
        }
        assertEquals(List.of(values, original, stored), List.of(totals(a)[0], totals(a)[1], totals(a)[2]));
        assertNotEquals(0, a.writes(CompressionOption.PLAIN).values(), "the random values and the short ones");
    }

    @Test
    void aSettledPatternsWritesCountUnderItsOption() {
        AdaptiveCompressor a = AdaptiveSegmentWritesTest.settled(); // random bytes settled on plain
        CompressionOption json = a.snapshot().get(0).option();
        OptionWrites jsonBefore = a.writes(json);
        OptionWrites plainBefore = a.writes(CompressionOption.PLAIN);
        long stored = 0;
        for (int i = 0; i < 50; i++) {
            stored += a.compress(utf8("json:" + (100 + i)), utf8(TestValues.json(1500 + i))).length;
            a.compress(utf8("blob:" + (100 + i)), TestValues.random(700, 100 + i));
        }
        OptionWrites jsonAfter = a.writes(json);
        OptionWrites plainAfter = a.writes(CompressionOption.PLAIN);
        assertEquals(50, jsonAfter.values() - jsonBefore.values(), json.label());
        assertEquals(stored, jsonAfter.storedBytes() - jsonBefore.storedBytes(), json.label());
        assertEquals(50, plainAfter.values() - plainBefore.values(), "plain");
        assertEquals(50 * 700, plainAfter.storedBytes() - plainBefore.storedBytes(), "stored as they were");
        assertEquals(50 * 700, plainAfter.originalBytes() - plainBefore.originalBytes());
        assertThrows(NullPointerException.class, () -> a.writes(null));
    }
}
