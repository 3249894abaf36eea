package dev.zstdjava.values;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * Settings of transparent value compression: which backend and level, from what size values are compressed, and
 * the largest decompressed value accepted. Immutable and thread-safe; built once, shared by every connection.
 *
 * <p>{@link #defaults()} is zstd at level 3, values of 64 bytes and more, at most 512 MiB decompressed: the same
 * defaults as Valkey GLIDE's {@code CompressionConfiguration}.
 *
 * <p>{@link Builder#enabled(boolean) enabled(false)} stops compressing new values but still decompresses values
 * that carry the header, so data written while compression was on keeps reading back (GLIDE, when disabled, returns
 * such values raw).
 */
public final class CompressionConfig {
    /** Default {@link #minCompressionSize()}: 64 bytes. */
    public static final int DEFAULT_MIN_COMPRESSION_SIZE = 64;
    /** Smallest accepted {@link #minCompressionSize()}: the 5-byte header plus one byte. */
    public static final int MIN_COMPRESSION_SIZE_LIMIT = ValueFormat.HEADER_SIZE + 1;
    /**
     * Default {@link #maxDecompressedSize()}: the codec's
     * {@link dev.zstdjava.Decompressor#DEFAULT_MAX_DECOMPRESSED_SIZE}, 512 MiB, which is Valkey's default
     * {@code proto-max-bulk-len}.
     */
    public static final long DEFAULT_MAX_DECOMPRESSED_SIZE = dev.zstdjava.Decompressor.DEFAULT_MAX_DECOMPRESSED_SIZE;
    /** Largest accepted {@link #maxDecompressedSize()}: the largest {@code byte[]}, 2^31 - 9 bytes. */
    public static final long MAX_DECOMPRESSED_SIZE_LIMIT = Integer.MAX_VALUE - 8;

    private static final CompressionConfig DEFAULTS = builder().build();

    private final CompressionBackend backend;
    private final int level;
    private final int minCompressionSize;
    private final long maxDecompressedSize;
    private final boolean enabled;
    private final Set<LegacyFormat> legacyFormats;
    private final boolean compressHashValues;

    private CompressionConfig(Builder b) {
        this.backend = b.backend;
        this.level = b.level == null ? b.backend.defaultLevel() : b.level;
        this.minCompressionSize = b.minCompressionSize;
        this.maxDecompressedSize = b.maxDecompressedSize;
        this.enabled = b.enabled;
        this.legacyFormats = Collections.unmodifiableSet(b.legacyFormats.clone());
        this.compressHashValues = b.compressHashValues;
    }

    /** @return zstd, level 3, values from 64 bytes, at most 512 MiB decompressed, enabled */
    public static CompressionConfig defaults() {
        return DEFAULTS;
    }

    /** @return a builder starting from the defaults */
    public static Builder builder() {
        return new Builder();
    }

    /** @return a builder starting from this configuration */
    public Builder toBuilder() {
        Builder b = new Builder();
        b.backend = backend;
        b.level = level;
        b.minCompressionSize = minCompressionSize;
        b.maxDecompressedSize = maxDecompressedSize;
        b.enabled = enabled;
        b.compressHashValues = compressHashValues;
        b.legacyFormats = legacyFormats.isEmpty() ? EnumSet.noneOf(LegacyFormat.class) : EnumSet.copyOf(legacyFormats);
        return b;
    }

    /** @return the algorithm new values are compressed with (values of either backend are always read) */
    public CompressionBackend backend() {
        return backend;
    }

    /** @return the compression level, within the backend's range */
    public int level() {
        return level;
    }

    /** @return values shorter than this many bytes are stored as they are */
    public int minCompressionSize() {
        return minCompressionSize;
    }

    /**
     * @return the largest decompressed value accepted, in bytes; a larger one is an error raised before allocating.
     *         A longer value is stored as it is, so that a reader with the same limit reads every value written.
     */
    public long maxDecompressedSize() {
        return maxDecompressedSize;
    }

    /**
     * The write rule's size test, stated once for the fixed and the adaptive mode: whether a value of {@code size}
     * bytes may be stored compressed, that is compression is enabled and the value is at least
     * {@link #minCompressionSize()} and at most {@link #maxDecompressedSize()} bytes (a longer one could not be read
     * back with this limit). Allocates nothing.
     */
    boolean mayCompress(long size) {
        return enabled && size >= minCompressionSize && size <= maxDecompressedSize;
    }

    /** @return whether new values are compressed (decompression of stored values happens either way) */
    public boolean enabled() {
        return enabled;
    }

    /**
     * @return the other clients' formats that are read besides the shared one (migration; empty by default). New
     *         values are always written in the shared format.
     */
    public Set<LegacyFormat> legacyFormats() {
        return legacyFormats;
    }

    /**
     * @return whether hash values ({@code HSET}, {@code HSETNX}, {@code HMSET}, {@code HSETEX}) are compressed too;
     *         false by default (GLIDE's scope), see {@link CommandPolicy}
     */
    public boolean compressHashValues() {
        return compressHashValues;
    }

    /** @return the command policy these settings imply: {@link CommandPolicy#glide()}, or with hash values */
    public CommandPolicy commandPolicy() {
        return compressHashValues ? CommandPolicy.withHashValues() : CommandPolicy.glide();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CompressionConfig c && c.backend == backend && c.level == level
                && c.minCompressionSize == minCompressionSize && c.maxDecompressedSize == maxDecompressedSize
                && c.enabled == enabled && c.legacyFormats.equals(legacyFormats)
                && c.compressHashValues == compressHashValues;
    }

    @Override
    public int hashCode() {
        return Objects.hash(backend, level, minCompressionSize, maxDecompressedSize, enabled, legacyFormats,
                compressHashValues);
    }

    @Override
    public String toString() {
        return "CompressionConfig[backend=" + backend + ", level=" + level + ", minCompressionSize="
                + minCompressionSize + ", maxDecompressedSize=" + maxDecompressedSize + ", enabled=" + enabled
                + (legacyFormats.isEmpty() ? "" : ", legacyFormats=" + legacyFormats)
                + (compressHashValues ? ", compressHashValues=true" : "") + "]";
    }

    /**
     * Builds a {@link CompressionConfig}. Not thread-safe. Every value is checked by {@link #build()}, which throws
     * {@link IllegalArgumentException} naming the setting, the value and the valid range.
     */
    public static final class Builder {
        private CompressionBackend backend = CompressionBackend.ZSTD;
        private Integer level;
        private int minCompressionSize = DEFAULT_MIN_COMPRESSION_SIZE;
        private long maxDecompressedSize = DEFAULT_MAX_DECOMPRESSED_SIZE;
        private boolean enabled = true;
        private EnumSet<LegacyFormat> legacyFormats = EnumSet.noneOf(LegacyFormat.class);
        private boolean compressHashValues;

        private Builder() {}

        /**
         * Compress hash values too (default false: GLIDE's scope, string values only). GLIDE clients do not
         * decompress {@code HGET} replies outside a batch, so they read such values as stored; {@code HINCRBY},
         * {@code HINCRBYFLOAT} and {@code HSTRLEN} are then refused on the compressing connection.
         */
        public Builder compressHashValues(boolean compress) {
            this.compressHashValues = compress;
            return this;
        }

        /** The algorithm for new values; default {@link CompressionBackend#ZSTD}. */
        public Builder backend(CompressionBackend backend) {
            this.backend = Objects.requireNonNull(backend, "backend");
            return this;
        }

        /** The level, within {@link CompressionBackend#minLevel()}..{@link CompressionBackend#maxLevel()}; default: the backend's. */
        public Builder level(int level) {
            this.level = level;
            return this;
        }

        /** Compress values of at least this many bytes; at least 6, default 64. */
        public Builder minCompressionSize(int bytes) {
            this.minCompressionSize = bytes;
            return this;
        }

        /** Refuse values that decompress to more than this many bytes; 1..2^31-9, default 512 MiB. */
        public Builder maxDecompressedSize(long bytes) {
            this.maxDecompressedSize = bytes;
            return this;
        }

        /** Compress new values (default true); when false, values are stored as they are but still decompressed. */
        public Builder enabled(boolean enabled) {
            this.enabled = enabled;
            return this;
        }

        /**
         * Also read values written by other clients' own compression (see {@link LegacyFormat}), bounded by the same
         * limit, so that data written before switching to this library stays readable; new values are written in
         * the shared format. Replaces earlier calls; none by default. Enable only the formats your data was written
         * with: they are recognised by signatures that plain values can share.
         */
        public Builder readLegacy(LegacyFormat... formats) {
            EnumSet<LegacyFormat> set = EnumSet.noneOf(LegacyFormat.class);
            for (LegacyFormat f : formats) {
                set.add(Objects.requireNonNull(f, "format"));
            }
            this.legacyFormats = set;
            return this;
        }

        /**
         * @return the configuration
         * @throws IllegalArgumentException if the level is outside the backend's range, {@code minCompressionSize}
         *                                  is below 6 or {@code maxDecompressedSize} is outside 1..2^31-9
         */
        public CompressionConfig build() {
            if (level != null && (level < backend.minLevel() || level > backend.maxLevel())) {
                throw new IllegalArgumentException(backend + " compression level " + level + " is out of range "
                        + backend.minLevel() + ".." + backend.maxLevel());
            }
            if (minCompressionSize < MIN_COMPRESSION_SIZE_LIMIT) {
                throw new IllegalArgumentException("minCompressionSize " + minCompressionSize + " is below "
                        + MIN_COMPRESSION_SIZE_LIMIT + " (the 5-byte header plus one byte)");
            }
            if (maxDecompressedSize < 1 || maxDecompressedSize > MAX_DECOMPRESSED_SIZE_LIMIT) {
                throw new IllegalArgumentException("maxDecompressedSize " + maxDecompressedSize + " is out of range 1.."
                        + MAX_DECOMPRESSED_SIZE_LIMIT);
            }
            return new CompressionConfig(this);
        }
    }
}
