package dev.zstdjava.cli;

import java.util.regex.Pattern;

/**
 * Folds a key into its pattern: UUIDs, runs of 8 or more hex characters that contain a digit, and digit runs become
 * {@code *} ({@code user:1234:profile} and {@code user:77:profile} are both {@code user:*:profile}). Stateless and
 * thread-safe.
 */
final class KeyPatterns {
    private static final Pattern UUID = Pattern.compile(
            "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");
    private static final Pattern HEX = Pattern.compile("(?<![0-9A-Za-z])(?=[a-fA-F]*[0-9])[0-9a-fA-F]{8,}(?![0-9A-Za-z])");
    private static final Pattern DIGITS = Pattern.compile("[0-9]+");
    private static final Pattern STARS = Pattern.compile("\\*{2,}");

    private KeyPatterns() {}

    /** Folds {@code key} (shown as UTF-8, invalid bytes replaced) into its pattern; allocates the result. */
    static String fold(byte[] key) {
        return fold(new String(key, java.nio.charset.StandardCharsets.UTF_8));
    }

    /** Folds a key given as text into its pattern. */
    static String fold(String key) {
        String s = UUID.matcher(key).replaceAll("*");
        s = HEX.matcher(s).replaceAll("*");
        s = DIGITS.matcher(s).replaceAll("*");
        return STARS.matcher(s).replaceAll("*");
    }
}
