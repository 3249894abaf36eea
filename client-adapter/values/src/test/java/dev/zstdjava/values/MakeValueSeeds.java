package dev.zstdjava.values;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Writes the seeds of {@link ValueCompressorFuzz} (values stored by this library with each configuration, and plain
 * values) into {@code src/test/fuzz/ValueCompressorFuzz}. Run from the client-adapter/values folder; the seeds are
 * committed, so this is only needed again when the target's input layout changes.
 */
public final class MakeValueSeeds {
    private MakeValueSeeds() {}

    public static void main(String[] args) throws IOException {
        Path dir = Path.of("src", "test", "fuzz", "ValueCompressorFuzz");
        Files.createDirectories(dir);
        byte[][] values = {
            "{\"user\":\"alice\",\"roles\":[\"admin\",\"dev\"],\"bio\":\"likes long walks\"}".repeat(6)
                    .getBytes(StandardCharsets.UTF_8),
            new byte[500],
            "short".getBytes(StandardCharsets.UTF_8),
            new byte[] {0, 1, 2, 0, 1, 9, 9},
        };
        int n = 0;
        for (ValueCompressor vc : ValueCompressorFuzz.CONFIGS) {
            for (byte[] v : values) {
                Files.write(dir.resolve(String.format("seed-java-%03d", n++)), vc.compress(v));
            }
        }
    }
}
