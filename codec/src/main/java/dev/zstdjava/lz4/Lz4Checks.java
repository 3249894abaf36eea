package dev.zstdjava.lz4;

/** Error translation shared by the lz4 classes. */
final class Lz4Checks {
    private Lz4Checks() {}

    /** lz4's block API takes {@code int} capacities: a larger destination is used up to {@code INT_MAX}. */
    static int capacity(long cap) {
        return (int) Math.min(cap, Integer.MAX_VALUE);
    }

    static Lz4Exception frameError(long code, String operation, String detail) {
        return new Lz4Exception(operation, Lz4Native.errorCode(code),
                Lz4Native.errorName(code) + " (LZ4F error " + Lz4Native.errorCode(code) + ")"
                        + (detail.isEmpty() ? "" : "; " + detail));
    }
}
