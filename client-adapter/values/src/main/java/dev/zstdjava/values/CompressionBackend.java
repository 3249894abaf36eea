package dev.zstdjava.values;

import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.zstd.Zstd;

/**
 * The compression algorithms of the value format, with the id each one writes into the header and its level range:
 * the public selector of the backends, one line each (the catalogue of every stored form, {@link StoredForm}, is made
 * from it and checks that the ids are unique). Each backend is one package-private class behind the
 * interface {@code ValueBackend} (the header id, levels, encoding and decoding); this enum holds its unbound instance
 * and delegates to it. The level ranges are the codec's own compile-time constants ({@link Zstd#MIN_LEVEL},
 * {@link Lz4#MIN_LEVEL} and so on), so reading them loads no native library. Immutable and thread-safe.
 */
public enum CompressionBackend {
    /**
     * zstd: one standard zstd frame after the header. Levels {@link Zstd#MIN_LEVEL}..{@link Zstd#MAX_LEVEL}
     * (-131072..22), default {@link Zstd#DEFAULT_LEVEL} (3).
     */
    ZSTD(new ZstdBackend(null)),
    /**
     * LZ4: the original length as a 4-byte little-endian unsigned int, then one raw LZ4 block (not an LZ4 frame).
     * Levels {@link Lz4#MIN_LEVEL}..{@link Lz4#MAX_LEVEL} (-128..12), default
     * {@link Lz4#DEFAULT_LEVEL} (0): above 0 is LZ4 HC at that level, below 0 is fast mode with acceleration
     * {@code -level}, 0 is LZ4's default.
     */
    LZ4(new Lz4Backend(null));

    private final HeaderBackend backend;

    CompressionBackend(HeaderBackend backend) {
        this.backend = backend;
    }

    /** @return the backend's unbound instance (see {@link ValueBackend}) */
    HeaderBackend backend() {
        return backend;
    }

    /** @return the backend id byte written at offset 4 of the header ({@code 0x01} zstd, {@code 0x02} lz4) */
    public byte id() {
        return backend.id();
    }

    /** @return the lowest (fastest) level this backend accepts */
    public int minLevel() {
        return backend.minLevel();
    }

    /** @return the highest (strongest) level this backend accepts */
    public int maxLevel() {
        return backend.maxLevel();
    }

    /** @return the level used when none is set: 3 for zstd, 0 for lz4 */
    public int defaultLevel() {
        return backend.defaultLevel();
    }
}
