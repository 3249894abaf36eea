package dev.zstdjava.values;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.testkit.TestValues.random;

/**
 * The two key patterns the adapters' adaptive tests write: {@code json:*} (compressible JSON) and {@code blob:*}
 * (random bytes), with a compressor whose patterns decide after exactly 8 writes each.
 */
public final class TwoPatterns {
    private TwoPatterns() {
    }

    /** @return the first 8 writes of a pattern sampled, then none: each pattern decides after exactly 8 writes */
    public static AdaptiveCompressor adaptive(CompressionConfig config) {
        return AdaptiveCompressor.builder(config).patterns(List.of("json:*", "blob:*"))
                .sampling(8, 1 << 30, 1 << 30).window(8, 8).hysteresis(1, 0.01, 0.2).build();
    }

    public static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** @return the {@code i}th compressible value */
    public static byte[] jsonValue(int i) {
        return b(json(1500 + 37 * i));
    }

    /** @return the {@code i}th random value */
    public static byte[] blobValue(int i) {
        return random(600 + 29 * i, i);
    }

    /** @return the decision of {@code pattern} now */
    public static PatternDecision decision(AdaptiveCompressor adaptive, String pattern) {
        return adaptive.snapshot().stream().filter(d -> d.pattern().equals(pattern)).findFirst().orElseThrow();
    }

    /** @return whether {@code stored} (not null) carries the header */
    public static boolean hasHeader(byte[] stored) {
        return stored != null && ValueFormat.hasHeader(ByteBuffer.wrap(stored));
    }
}
