package dev.zstdjava.testkit;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/** Test values the adapters' tests share: repetitive text, JSON-like text, seeded random bytes, crafted stored forms. */
public final class TestValues {
    private TestValues() {}

    /** @return {@code n} bytes of repeated English words (compresses well) */
    public static byte[] text(int n) {
        byte[] b = new byte[n];
        byte[] words = "the quick brown fox jumps over the lazy dog; ".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < n; i++) {
            b[i] = words[i % words.length];
        }
        return b;
    }

    /** @return {@code n} random bytes from {@code seed} (does not compress) */
    public static byte[] random(int n, long seed) {
        byte[] b = new byte[n];
        new Random(seed).nextBytes(b);
        return b;
    }

    /** @return the parts one after the other */
    public static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    /** @return a JSON-like string of exactly {@code n} characters */
    public static String json(int n) {
        StringBuilder sb = new StringBuilder("{\"items\":[");
        for (int i = 0; sb.length() < n; i++) {
            sb.append("{\"id\":").append(i).append(",\"name\":\"user-").append(i % 17).append("\",\"ok\":true},");
        }
        return sb.substring(0, n);
    }

    /** @return an lz4 stored value (header, then {@code declaredLength} as unsigned 32-bit little-endian) around {@code block} */
    public static byte[] lz4Stored(long declaredLength, byte[] block) {
        byte[] len = {(byte) declaredLength, (byte) (declaredLength >>> 8), (byte) (declaredLength >>> 16),
                (byte) (declaredLength >>> 24)};
        return concat(new byte[] {0, 1, 2, 0, 2}, len, block);
    }
}
