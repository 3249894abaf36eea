package dev.zstdjava.bench;

/** The lz4 modes of the benchmarks, by name: {@code default}, {@code fast8} (acceleration 8) and {@code hc9}. */
public final class Lz4Modes {
    private Lz4Modes() {
    }

    /** @return this library's level for a mode: 0 default, negative = fast acceleration, positive = HC level */
    public static int level(String mode) {
        return switch (mode) {
            case "default" -> 0;
            case "fast8" -> -8;
            case "hc9" -> 9;
            default -> throw new IllegalArgumentException("unknown lz4 mode '" + mode + "' (default, fast8, hc9)");
        };
    }
}
