package dev.zstdjava.values;

import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.zstd.Zstd;

/**
 * The compression algorithms of the value format, with the id each one writes into the header and its level range.
 * The level ranges are the codec's own compile-time constants ({@link Zstd#MIN_LEVEL},
 * {@link Lz4Compressor#MIN_LEVEL} and so on), so reading them loads no native library. Immutable and thread-safe.
 */
public enum CompressionBackend {
    /**
     * zstd: one standard zstd frame after the header. Levels {@link Zstd#MIN_LEVEL}..{@link Zstd#MAX_LEVEL}
     * (-131072..22), default {@link Zstd#DEFAULT_LEVEL} (3).
     */
    ZSTD(0x01, Zstd.MIN_LEVEL, Zstd.MAX_LEVEL, Zstd.DEFAULT_LEVEL),
    /**
     * LZ4: the original length as a 4-byte little-endian unsigned int, then one raw LZ4 block (not an LZ4 frame).
     * Levels {@link Lz4Compressor#MIN_LEVEL}..{@link Lz4Compressor#MAX_LEVEL} (-128..12), default
     * {@link Lz4Compressor#DEFAULT_LEVEL} (0): above 0 is LZ4 HC at that level, below 0 is fast mode with acceleration
     * {@code -level}, 0 is LZ4's default.
     */
    LZ4(0x02, Lz4Compressor.MIN_LEVEL, Lz4Compressor.MAX_LEVEL, Lz4Compressor.DEFAULT_LEVEL);

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
