package dev.zstdjava.zstd;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** Test data and helpers for the stream and dictionary tests: real corpus text, the zstd CLI. */
final class StreamTestData {
    private StreamTestData() {}

    static Path corpus() {
        String p = System.getProperty("zstdjava.corpus");
        if (p == null) {
            throw new IllegalStateException("system property zstdjava.corpus is not set (surefire sets it)");
        }
        return Path.of(p);
    }

    private static byte[] base;

    /** About 2 MiB of real text and binaries from the Calgary corpus. */
    static synchronized byte[] base() throws IOException {
        if (base == null) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (String f : new String[] {"book1", "book2", "news", "obj2", "paper1", "pic", "progc", "trans"}) {
                b.write(Files.readAllBytes(corpus().resolve("calgary").resolve(f)));
            }
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
        Process p = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectError(dir.resolve("zstd-stderr.txt").toFile()).start();
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("zstd " + args + " timed out");
        }
        assertEquals(0, p.exitValue(), () -> "zstd " + String.join(" ", args) + " failed: " + stderr(dir));
        return out;
    }

    private static String stderr(Path dir) {
        try {
            return Files.readString(dir.resolve("zstd-stderr.txt"));
        } catch (IOException e) {
            return e.toString();
        }
    }
}
