package dev.zstdjava.values;

/**
 * Writes a value with a given {@linkplain CompressionOption option}, for {@link AdaptiveCompressor}: the shared
 * writers ({@link OptionWriters}) and a pattern's own dictionary ({@link PatternDictionary}) implement it, and tests
 * wrap it to measure with a clock of their own.
 *
 * <p><b>Thread safety:</b> {@link #store} is called from any thread at once; {@link #ready} by one thread at a time
 * (the pattern's sampling thread).
 */
interface OptionWriter {
    /**
     * @param option an option that {@linkplain CompressionOption#compresses() compresses}
     * @return the stored form of {@code value} written with {@code option} (the value itself when it is stored as it
     *         is), as {@link ValueCompressor#compress(byte[])} returns it; allocates nothing else
     */
    byte[] store(CompressionOption option, byte[] value);

    /** @return whether {@code option} can be measured now (a dictionary option: a dictionary is in use) */
    boolean ready(CompressionOption option);

    /**
     * Called with each sampled value before it is measured, on the pattern's sampling thread: a pattern's own
     * dictionary lineage trains on these. Nothing by default.
     */
    default void sampled(byte[] value) {
    }
}
