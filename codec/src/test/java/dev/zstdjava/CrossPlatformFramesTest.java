package dev.zstdjava;

import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4FrameCompressor;
import dev.zstdjava.lz4.Lz4FrameDecompressor;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressionDictionary;
import dev.zstdjava.zstd.ZstdDecompressor;
import dev.zstdjava.zstd.ZstdDictionary;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

/**
 * Frames made on x86-64 decode on every platform the tests run on, and every platform's build compresses alike. The
 * reference frames in {@code src/test/resources/cross-frames/} were written on x86-64 Linux by this test with
 * {@code -Dzstdjava.crossFrames.write=codec/src/test/resources/cross-frames}; each run (x86-64 natively, aarch64
 * under qemu) decodes them and compresses the same inputs itself, expecting the same bytes (single-threaded zstd and
 * lz4 output depends only on the library version and the parameters, not on the CPU). A new library version that
 * changes its output needs the reference rewritten.
 */
class CrossPlatformFramesTest {

    /** Deterministic inputs that need no corpus: words with noise, and random bytes. */
    static byte[] input(int size, long seed, boolean text) {
        SplittableRandom r = new SplittableRandom(seed);
        byte[] out = new byte[size];
        if (!text) {
            r.nextBytes(out);
            return out;
        }
        String[] words = {"the", "zstd", "frame", "of", "a", "value", "compressed", "on", "x86-64", "arm", "reads",
                "back", "{\"id\":", "\"name\":", "}", "\n"};
        int pos = 0;
        while (pos < size) {
            byte[] w = (words[r.nextInt(words.length)] + (r.nextInt(8) == 0 ? r.nextInt(1000) : "") + " ")
                    .getBytes(StandardCharsets.US_ASCII);
            int n = Math.min(w.length, size - pos);
            System.arraycopy(w, 0, out, pos, n);
            pos += n;
        }
        return out;
    }

    private record Case(String name, byte[] input) {}

    private static List<Case> inputs() {
        return List.of(new Case("text-100", input(100, 1, true)), new Case("text-64k", input(65536, 2, true)),
                new Case("text-100k", input(100_000, 3, true)), new Case("random-2k", input(2_000, 4, false)));
    }

    private static ZstdDictionary dictionary() {
        List<byte[]> samples = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            samples.add(input(200 + i % 300, 100 + i, true));
        }
        return ZstdDictionary.train(samples, 4096);
    }

    /** name -> frame, made on this platform. */
    private static Map<String, byte[]> frames(ZstdDictionary dict) {
        Map<String, byte[]> f = new LinkedHashMap<>();
        try (ZstdCompressionDictionary cd = dict.forCompression(3);
             ZstdCompressor withDict = ZstdCompressor.builder().dictionary(cd).checksum(true).build();
             Lz4FrameCompressor lz4f = Lz4FrameCompressor.create()) {
            f.put("dictionary.zdict", dict.toByteArray());
            for (Case c : inputs()) {
                for (int level : new int[] {-5, 1, 3, 19}) {
                    f.put(c.name() + ".l" + level + ".zst", Zstd.compress(c.input(), level));
                }
                f.put(c.name() + ".dict.zst", withDict.compress(c.input()));
                f.put(c.name() + ".lz4block", Lz4.compress(c.input()));
                f.put(c.name() + ".hc9.lz4block", Lz4.compress(c.input(), 9));
                f.put(c.name() + ".lz4", lz4f.compress(c.input()));
            }
        }
        return f;
    }

    private static byte[] decode(String name, byte[] frame, byte[] expectedInput, ZstdDictionary dict) {
        if (name.endsWith(".dict.zst")) {
            try (ZstdDecompressionDictionary dd = dict.forDecompression();
                 ZstdDecompressor d = ZstdDecompressor.builder().dictionary(dd).build()) {
                return d.decompress(frame);
            }
        }
        if (name.endsWith(".zst")) {
            return Zstd.decompress(frame);
        }
        if (name.endsWith(".lz4block")) {
            return Lz4.decompress(frame, expectedInput.length);
        }
        try (Lz4FrameDecompressor d = Lz4FrameDecompressor.create()) {
            return d.decompress(frame);
        }
    }

    private static byte[] inputOf(String name) {
        String base = name.substring(0, name.indexOf('.'));
        return inputs().stream().filter(c -> c.name().equals(base)).findFirst().orElseThrow().input();
    }

    @Test
    void framesMadeOnX8664DecodeHereAndThisPlatformCompressesAlike() throws IOException, URISyntaxException {
        ZstdDictionary dict = dictionary();
        Map<String, byte[]> mine = frames(dict);
        String write = System.getProperty("zstdjava.crossFrames.write");
        if (write != null && !write.isBlank()) {
            Path dir = Files.createDirectories(Path.of(write));
            for (var e : mine.entrySet()) {
                Files.write(dir.resolve(e.getKey()), e.getValue());
            }
            Files.writeString(dir.resolve("made-on.txt"), System.getProperty("os.name") + " "
                    + System.getProperty("os.arch") + ", " + Zstd.library().version() + " / " + Lz4.library().version()
                    + "\n");
        }
        var url = CrossPlatformFramesTest.class.getClassLoader().getResource("cross-frames/made-on.txt");
        assertNotNull(url, "reference frames on the test class path (src/test/resources/cross-frames)");
        Path dir = Path.of(url.toURI()).getParent();
        String madeOn = Files.readString(dir.resolve("made-on.txt")).trim();
        List<String> names;
        try (Stream<Path> s = Files.list(dir)) {
            names = s.map(p -> p.getFileName().toString()).filter(n -> !n.equals("made-on.txt")).sorted().toList();
        }
        assertEquals(mine.keySet().stream().sorted().toList(), names, "reference frames in " + dir);
        byte[] refDict = Files.readAllBytes(dir.resolve("dictionary.zdict"));
        assertArrayEquals(refDict, dict.toByteArray(), "dictionary trained from the same samples as on " + madeOn);
        ZstdDictionary theirDict = ZstdDictionary.of(refDict);
        for (String n : names) {
            if (n.endsWith(".zdict")) {
                continue;
            }
            byte[] theirs = Files.readAllBytes(dir.resolve(n));
            assertArrayEquals(inputOf(n), decode(n, theirs, inputOf(n), theirDict), n + " made on " + madeOn);
            assertArrayEquals(inputOf(n), decode(n, mine.get(n), inputOf(n), dict), n + " made here");
            assertArrayEquals(theirs, mine.get(n), n + ": " + System.getProperty("os.arch")
                    + " compresses differently from " + madeOn);
        }
    }
}
