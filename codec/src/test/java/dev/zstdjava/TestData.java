package dev.zstdjava;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/**
 * Test inputs: the repository's test data ({@code testdata/}: a Canterbury text, zstd golden vectors, synthetic JSON;
 * provenance in its README), and deterministic generated data of any size. Nothing outside the repository.
 */
public final class TestData {
    private TestData() {}

    /** Kinds of generated data. */
    public enum Kind { INCOMPRESSIBLE, TEXT, REPETITIVE }

    /** @return the repository's {@code testdata/} folder (surefire sets {@code zstdjava.testdata}) */
    public static Path corpus() {
        String p = System.getProperty("zstdjava.testdata");
        Path dir = p != null ? Path.of(p) : Path.of("../testdata");
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("test data folder not found at " + dir.toAbsolutePath()
                    + " (it is testdata/ in the repository; set -Dzstdjava.testdata)");
        }
        return dir;
    }

    /** @return the bytes of a test data file, e.g. {@code "canterbury/alice29.txt"} */
    public static byte[] corpusFile(String relative) {
        try {
            return Files.readAllBytes(corpus().resolve(relative));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** @return {@code size} bytes of the given kind; TEXT repeats real English text from the corpus */
    public static byte[] generate(Kind kind, int size, long seed) {
        byte[] out = new byte[size];
        SplittableRandom r = new SplittableRandom(seed);
        switch (kind) {
            case INCOMPRESSIBLE -> r.nextBytes(out);
            case REPETITIVE -> {
                byte[] unit = "0123456789abcdef-repeat-".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                for (int i = 0; i < size; i++) {
                    out[i] = unit[i % unit.length];
                }
            }
            case TEXT -> {
                byte[] text = corpusFile("canterbury/alice29.txt");
                int pos = 0;
                while (pos < size) {
                    int start = r.nextInt(text.length);
                    int n = Math.min(Math.min(64 + r.nextInt(512), text.length - start), size - pos);
                    System.arraycopy(text, start, out, pos, n);
                    pos += n;
                }
            }
        }
        return out;
    }

    /**
     * @return {@code size} bytes of fixed-width little-endian records (a counter, a slowly moving value, flags, a few
     *     random words): compresses about like object code or a table of numbers
     */
    public static byte[] binary(int size, long seed) {
        byte[] out = new byte[size];
        SplittableRandom r = new SplittableRandom(seed);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(out).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        int value = 1000;
        for (int i = 0; b.remaining() >= 16; i++) {
            value += r.nextInt(17) - 8;
            b.putInt(i).putInt(value).putShort((short) (r.nextInt(4) << 8)).putShort((short) r.nextInt(3))
                    .putInt(r.nextInt(8) == 0 ? r.nextInt() : 0);
        }
        while (b.hasRemaining()) {
            b.put((byte) r.nextInt());
        }
        return out;
    }
}
