package dev.zstdjava.zstd;

/** zstd's match-finding strategies ({@code ZSTD_strategy}), fastest first. */
public enum ZstdStrategy {
    /** The level's own strategy (the default): zstd picks it from the compression level. */
    LEVEL_DEFAULT,
    FAST, DFAST, GREEDY, LAZY, LAZY2, BTLAZY2, BTOPT, BTULTRA, BTULTRA2;

    /** @return the value of this strategy in {@code zstd.h} (1..9; 0 for {@link #LEVEL_DEFAULT}) */
    public int nativeValue() {
        return ordinal();
    }
}
