package dev.zstdjava.zstd;

/** zstd's match-finding strategies ({@code ZSTD_strategy}), fastest first. */
public enum ZstdStrategy {
    FAST, DFAST, GREEDY, LAZY, LAZY2, BTLAZY2, BTOPT, BTULTRA, BTULTRA2;

    /** @return the value of this strategy in {@code zstd.h} (1..9) */
    public int nativeValue() {
        return ordinal() + 1;
    }
}
