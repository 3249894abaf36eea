package dev.zstdjava.zstd;

import dev.zstdjava.ChildProcess;
import dev.zstdjava.JsonRecords;
import dev.zstdjava.TestData;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Test data and helpers for the stream and dictionary tests: real text, JSON and binary records, the zstd CLI. */
final class StreamTestData {
    private StreamTestData() {}

    private static byte[] base;

    /**
     * About 1.5 MiB of mixed material: a real English text (Canterbury's alice29.txt), a golden zstd input, synthetic
     * JSON records and binary records.
     */
    static synchronized byte[] base() throws IOException {
        if (base == null) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            b.write(TestData.corpusFile("canterbury/alice29.txt"));
            b.write(JsonRecords.document(600_000, 21));
            b.write(TestData.binary(400_000, 22));
            b.write(TestData.corpusFile("golden/zstd/golden-compression/large-literal-and-match-lengths"));
            base = b.toByteArray();
        }
        return base;
    }

    /**
     * {@code size} bytes made of corpus slices at random offsets, with some random bytes mixed in: compressible like
     * real data, but not one long repetition.
     */
    static byte[] data(int size, long seed) throws IOException {
        byte[] src = base();
        SplittableRandom r = new SplittableRandom(seed);
        byte[] out = new byte[size];
        int at = 0;
        while (at < size) {
            int n = Math.min(size - at, 1 + r.nextInt(64 << 10));
            if (r.nextInt(8) == 0) {
                for (int i = 0; i < Math.min(n, 512); i++) {
                    out[at++] = (byte) r.nextInt();
                }
            } else {
                int from = r.nextInt(src.length - n);
                System.arraycopy(src, from, out, at, n);
                at += n;
            }
        }
        return out;
    }

    /** Reads everything with reads of at most {@code chunk} bytes. */
    static byte[] readAll(InputStream in, int chunk) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] b = new byte[chunk];
        int n;
        while ((n = in.read(b, 0, chunk)) >= 0) {
            out.write(b, 0, n);
        }
        return out.toByteArray();
    }

    /** Runs the zstd CLI; returns stdout. */
    static byte[] zstd(Path dir, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add("zstd");
        cmd.addAll(List.of(args));
        ChildProcess p = ChildProcess.run(new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectError(dir.resolve("zstd-stderr.txt").toFile()), 120);
        assertEquals(0, p.exit(), () -> "zstd " + String.join(" ", args) + " failed: " + stderr(dir));
        return p.stdout();
    }

    private static String stderr(Path dir) {
        try {
            return Files.readString(dir.resolve("zstd-stderr.txt"));
        } catch (IOException e) {
            return e.toString();
        }
    }
}
