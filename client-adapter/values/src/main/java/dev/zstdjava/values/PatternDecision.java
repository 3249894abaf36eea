package dev.zstdjava.values;

import java.time.Instant;

/**
 * One line of {@link AdaptiveCompressor#snapshot()}: a pattern's decision now.
 *
 * <p><b>Thread safety:</b> immutable.
 *
 * @param pattern     the pattern: as listed, as keys fold into it ({@link KeyFolder}, its text: bytes that are not
 *                    UTF-8 written {@code \xHH}, a backslash {@code \\}), or {@code (other)} for the keys of every
 *                    pattern not tracked (and of the pattern {@code (other)}); one name per row
 * @param option      the option its values are written with now
 * @param savedFraction the stored bytes that option saves over the pattern's latest sampled writes, as a fraction of
 *                    their length (0 for plain, and before the first sample)
 * @param valuesSeen  the values of at least the minimum compression size written for the pattern since it has been
 *                    tracked
 * @param since       when the pattern took this option (or was first seen, if it never changed: its first write; for a
 *                    listed pattern or {@code (other)} not written yet, when the compressor was built)
 */
public record PatternDecision(String pattern, CompressionOption option, double savedFraction, long valuesSeen,
                              Instant since) {}
