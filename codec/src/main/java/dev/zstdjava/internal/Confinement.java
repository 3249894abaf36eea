package dev.zstdjava.internal;

/**
 * Which threads may use a native context ({@link Guard}): {@link #SHARED}, one thread at a time (a compare-and-set
 * on entry and a release store on exit), or {@link #CONFINED} to the thread that made it (plain reads, no fence).
 */
public enum Confinement {
    /** Any thread, one at a time. */
    SHARED,
    /** Only the thread that made the context. */
    CONFINED
}
