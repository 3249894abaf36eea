package dev.zstdjava;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;

/** Test inputs: the shared third-party corpus, and deterministic generated data of any size. */
public final class TestData {
    private TestData() {}

    /** Kinds of generated data. */
    public enum Kind { INCOMPRESSIBLE, TEXT, REPETITIVE }

    /** @return the shared corpus folder; fails loudly when it is missing */
    public static Path corpus() {
        String p = System.getProperty("zstdjava.corpus");
        Path dir = p != null ? Path.of(p) : Path.of("../../shared/corpus");
        if (!Files.isDirectory(dir)) {
            throw new IllegalStateException("test corpus not found at " + dir.toAbsolutePath()
                    + " (expected ../shared/corpus beside the repository; set -Dzstdjava.corpus)");
        }
        return dir;
    }

    /** @return the bytes of a corpus file, e.g. {@code "canterbury/alice29.txt"} */
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
}
