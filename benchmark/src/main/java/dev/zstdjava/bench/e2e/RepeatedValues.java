package dev.zstdjava.bench.e2e;

import java.util.Arrays;
import java.util.Locale;

/**
 * The value set of the Valkey GLIDE compression benchmark: one character repeated to the full size (100 and 4000
 * bytes there), as compressible as values get. Spec {@code repeat<size>}, e.g. {@code repeat100}, {@code repeat4000}.
 * Ten distinct values ({@code '0'} .. {@code '9'} repeated), so a GET that returned another key's value is still
 * caught, while every value compresses exactly as well as GLIDE's all-{@code '0'} one.
 */
final class RepeatedValues {
    static final String PREFIX = "repeat";
    static final int DISTINCT = 10;

    private RepeatedValues() {}

    static boolean matches(String spec) {
        return spec.trim().toLowerCase(Locale.ROOT).startsWith(PREFIX);
    }

    /** @param spec {@code repeat} followed by a size as {@link Datasets#parseSize} reads it */
    static Datasets.Dataset load(String spec) {
        String s = spec.trim();
        int size = Datasets.parseSize(s.substring(PREFIX.length()));
        byte[][] values = new byte[DISTINCT][size];
        for (int i = 0; i < DISTINCT; i++) {
            Arrays.fill(values[i], (byte) ('0' + i));
        }
        String name = PREFIX + " " + Datasets.sizeName(size);
        return new Datasets.Dataset(name, "one character repeated to " + size + " bytes, like the Valkey GLIDE "
                + "compression benchmark's values ('0' .. '9', " + DISTINCT + " distinct values)", values);
    }
}
