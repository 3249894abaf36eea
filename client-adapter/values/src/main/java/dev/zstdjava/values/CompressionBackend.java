package dev.zstdjava.values;

/**
 * The compression algorithms of the value format, with the id each one writes into the header and its level range.
 * Immutable and thread-safe.
 */
public enum CompressionBackend {
    /** zstd: one standard zstd frame after the header. Levels -131072..22, default 3. */
    ZSTD(0x01, -131072, 22, 3),
    /**
     * LZ4: the original length as a 4-byte little-endian unsigned int, then one raw LZ4 block (not an LZ4 frame).
     * Levels -128..12, default 0: above 0 is LZ4 HC at that level, below 0 is fast mode with acceleration
     * {@code -level}, 0 is LZ4's default.
     */
    LZ4(0x02, -128, 12, 0);

    private final byte id;
    private final int minLevel;
    private final int maxLevel;
    private final int defaultLevel;

    CompressionBackend(int id, int minLevel, int maxLevel, int defaultLevel) {
        this.id = (byte) id;
        this.minLevel = minLevel;
        this.maxLevel = maxLevel;
        this.defaultLevel = defaultLevel;
    }

    /** @return the backend id byte written at offset 4 of the header ({@code 0x01} zstd, {@code 0x02} lz4) */
    public byte id() {
        return id;
    }

    /** @return the lowest (fastest) level this backend accepts */
    public int minLevel() {
        return minLevel;
    }

    /** @return the highest (strongest) level this backend accepts */
    public int maxLevel() {
        return maxLevel;
    }

    /** @return the level used when none is set: 3 for zstd, 0 for lz4 */
    public int defaultLevel() {
        return defaultLevel;
    }

    /** @return the backend whose header id is {@code id}, or {@code null} for an id no backend uses */
    static CompressionBackend ofId(byte id) {
        return switch (id) {
            case 0x01 -> ZSTD;
            case 0x02 -> LZ4;
            default -> null;
        };
    }
}
