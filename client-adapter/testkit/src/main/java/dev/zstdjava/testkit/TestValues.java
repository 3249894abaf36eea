package dev.zstdjava.testkit;

import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDictionary;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
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

    private static final String[] CITIES = {"Paris", "Lyon", "Berlin", "Madrid", "Oslo", "Lisbon", "Vienna", "Prague"};
    private static final String[] TAGS = {"music", "theatre", "opera", "family", "outdoor", "sports", "dance", "jazz"};

    /**
     * @return {@code n} small JSON records (about 150-300 bytes each) of one schema with seeded varying fields, like
     *         the event or user records applications keep as values: what dictionaries are for
     */
    public static java.util.List<byte[]> jsonRecords(int n, long seed) {
        Random r = new Random(seed);
        java.util.List<byte[]> out = new java.util.ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            StringBuilder sb = new StringBuilder(256);
            sb.append("{\"id\":").append(100000 + r.nextInt(900000))
                    .append(",\"name\":\"event-").append(Integer.toHexString(r.nextInt()))
                    .append("\",\"city\":\"").append(CITIES[r.nextInt(CITIES.length)])
                    .append("\",\"start\":\"2026-").append(1 + r.nextInt(12)).append('-').append(1 + r.nextInt(28))
                    .append("T").append(r.nextInt(24)).append(":00:00Z\",\"price\":").append(r.nextInt(20000) / 100.0)
                    .append(",\"seats\":").append(r.nextInt(5000)).append(",\"tags\":[");
            int tags = 1 + r.nextInt(3);
            for (int t = 0; t < tags; t++) {
                sb.append(t == 0 ? "" : ",").append('"').append(TAGS[r.nextInt(TAGS.length)]).append('"');
            }
            sb.append("],\"soldOut\":").append(r.nextBoolean()).append(",\"venue\":{\"id\":")
                    .append(r.nextInt(400)).append(",\"capacity\":").append(100 * (1 + r.nextInt(80))).append("}}");
            out.add(sb.toString().getBytes(StandardCharsets.US_ASCII));
        }
        return out;
    }

    /** @return an lz4 stored value (header, then {@code declaredLength} as unsigned 32-bit little-endian) around {@code block} */
    public static byte[] lz4Stored(long declaredLength, byte[] block) {
        byte[] len = {(byte) declaredLength, (byte) (declaredLength >>> 8), (byte) (declaredLength >>> 16),
                (byte) (declaredLength >>> 24)};
        return concat(new byte[] {0, 1, 2, 0, 2}, len, block);
    }

    /** A zstd frame made with a trained dictionary, behind the value format's zstd header. */
    public static byte[] dictionaryValue(long[] idOut) {
        List<byte[]> samples = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            samples.add(("{\"user\":" + i + ",\"name\":\"user-" + (i * 7919 % 1000) + "\",\"plan\":\""
                    + (i % 3 == 0 ? "free" : "pro") + "\",\"region\":\"eu-" + (i % 5) + "\",\"active\":"
                    + (i % 2 == 0) + "}").getBytes(StandardCharsets.UTF_8));
        }
        ZstdDictionary dict = ZstdDictionary.train(samples, 4 << 10);
        idOut[0] = dict.id();
        try (ZstdCompressionDictionary cd = dict.forCompression(3);
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build()) {
            byte[] frame = c.compress(samples.get(17));
            byte[] stored = new byte[5 + frame.length];
            System.arraycopy(new byte[] {0, 1, 2, 0, 1}, 0, stored, 0, 5);
            System.arraycopy(frame, 0, stored, 5, frame.length);
            return stored;
        }
    }
}
