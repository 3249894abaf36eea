package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link AdaptiveSettings}' sampling arithmetic. */
class AdaptiveSettingsTest {
    /** The mask taken for a power of two answers as the division does, for every interval a setting may have. */
    @Test
    void multipleAgreesWithTheRemainder() {
        int[] ks = {1, 2, 3, 7, 8, 63, 64, 65, 256, 4096, 1 << 30, Integer.MAX_VALUE};
        long[] ns = {0, 1, 2, 63, 64, 65, 255, 256, 4095, 4096, 8192, 12_288, 1L << 30, 1L << 31, Long.MAX_VALUE - 1,
            Long.MAX_VALUE};
        for (int k : ks) {
            for (long n : ns) {
                assertEquals(n % k == 0, AdaptiveSettings.multiple(n, k), n + " % " + k);
            }
            for (long n = 0; n < 10_000; n++) {
                assertEquals(n % k == 0, AdaptiveSettings.multiple(n, k), n + " % " + k);
            }
        }
    }
}
