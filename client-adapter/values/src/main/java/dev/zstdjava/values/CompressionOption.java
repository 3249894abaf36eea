package dev.zstdjava.values;

import java.util.List;
import java.util.Objects;

/**
 * The compression options that {@code zstd-values advise} measures and {@link AdaptiveCompressor} chooses among, in
 * cost order (declaration order: cheaper first), with {@link #PLAIN} (store the value as it is) first. Each option
 * but plain is a backend, a level and whether a dictionary is used; {@link #config(CompressionConfig)} turns it into
 * the configuration that writes it. {@link CompressionGoal#decide} picks one of them from measurements indexed by
 * {@link #ordinal()}. Every option writes a stored form every reader of this library reads; the dictionary option
 * writes zstd frames with a dictionary, which Valkey GLIDE and earlier versions of this library cannot read.
 *
 * <p><b>Thread safety:</b> immutable. <b>Allocation:</b> none, except {@link #config(CompressionConfig)}.
 */
public enum CompressionOption {
    /** The value as it is: no header, no CPU. */
    PLAIN("plain", null, 0, false),
    /** LZ4 at its default level. */
    LZ4("lz4", CompressionBackend.LZ4, 0, false),
    /** zstd at level -1 (zstd's {@code --fast=1}). */
    ZSTD_FAST_1("zstd -1", CompressionBackend.ZSTD, -1, false),
    /** zstd at level 1. */
    ZSTD_1("zstd 1", CompressionBackend.ZSTD, 1, false),
    /** zstd at level 3, the library's default. */
    ZSTD_3("zstd 3", CompressionBackend.ZSTD, 3, false),
    /** zstd at level 3 with a trained dictionary of the data's own kind. */
    ZSTD_3_DICTIONARY("zstd 3 + dictionary", CompressionBackend.ZSTD, 3, true),
    /** zstd at level 6. */
    ZSTD_6("zstd 6", CompressionBackend.ZSTD, 6, false),
    /** zstd at level 9. */
    ZSTD_9("zstd 9", CompressionBackend.ZSTD, 9, false);

    /** Every option, in cost order; shared, never modified (unlike {@link #values()}, not a new array per call). */
    static final CompressionOption[] ALL = values();

    private static final List<CompressionOption> COMPRESSING = List.of(ALL).subList(1, ALL.length);

    private final String label;
    private final CompressionBackend backend;
    private final int level;
    private final boolean dictionary;

    CompressionOption(String label, CompressionBackend backend, int level, boolean dictionary) {
        this.label = label;
        this.backend = backend;
        this.level = level;
        this.dictionary = dictionary;
    }

    /** @return every option but {@link #PLAIN}, in cost order: the options {@code advise} measures */
    public static List<CompressionOption> compressing() {
        return COMPRESSING;
    }

    /** @return what the tools print: {@code plain}, {@code lz4}, {@code zstd -1}, ..., {@code zstd 3 + dictionary} */
    public String label() {
        return label;
    }

    /** @return the backend that writes this option, or null for {@link #PLAIN} */
    public CompressionBackend backend() {
        return backend;
    }

    /** @return the level of {@link #backend()} (0 for {@link #PLAIN}) */
    public int level() {
        return level;
    }

    /** @return whether this option compresses with a dictionary */
    public boolean dictionary() {
        return dictionary;
    }

    /** @return whether this option compresses at all (every option but {@link #PLAIN}) */
    public boolean compresses() {
        return backend != null;
    }

    /**
     * @return {@code base} with this option's backend and level, compression enabled; the other settings (sizes,
     *         legacy formats, hash values) as in {@code base}
     * @throws IllegalArgumentException for {@link #PLAIN}, which no configuration writes
     */
    public CompressionConfig config(CompressionConfig base) {
        Objects.requireNonNull(base, "base");
        if (backend == null) {
            throw new IllegalArgumentException("the plain option has no compression configuration");
        }
        return base.toBuilder().backend(backend).level(level).enabled(true).build();
    }

    /** @return {@link #label()} */
    @Override
    public String toString() {
        return label;
    }
}
