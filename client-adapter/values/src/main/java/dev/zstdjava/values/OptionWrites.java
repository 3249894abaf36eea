package dev.zstdjava.values;

/**
 * What an {@link AdaptiveCompressor} has written with one {@linkplain CompressionOption option} since it was built
 * ({@link AdaptiveCompressor#writes(CompressionOption)}): the values each pattern's decision stored with it, sampled
 * writes included (counted once, with the option in use). Values the configuration stores as they are (shorter than
 * {@code minCompressionSize}, longer than {@code maxDecompressedSize}, compression not enabled) count as
 * {@link CompressionOption#PLAIN}; a value an option could not make smaller counts under that option, stored as it is.
 *
 * <p><b>Thread safety:</b> immutable; a snapshot of counters that go on counting.
 *
 * @param option        the option
 * @param values        values written with it
 * @param originalBytes their length before compression
 * @param storedBytes   their length as stored (header included)
 */
public record OptionWrites(CompressionOption option, long values, long originalBytes, long storedBytes) {}
