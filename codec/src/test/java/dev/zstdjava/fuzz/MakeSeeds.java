package dev.zstdjava.fuzz;

import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4Frame;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressionDictionary;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDictionary;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes the seeds this library's own compressors produce into the codec's corpus folders ({@code seed-java-*}); the
 * seeds made with the zstd and lz4 command-line tools come from {@code tools/fuzz-seeds.sh}. Run from the codec
 * module folder; only needed again when a target's input layout changes.
 */
public final class MakeSeeds {
    private MakeSeeds() {}

    /** Small inputs: text, repetitive, tiny and empty, as real values are. */
    static List<byte[]> samples() {
        StringBuilder json = new StringBuilder();
        for (int i = 0; i < 40; i++) {
            json.append("{\"id\":").append(i).append(",\"name\":\"user").append(i * 7).append("\",\"tags\":[\"a\",\"b\"]}");
        }
        return List.of(json.toString().getBytes(StandardCharsets.UTF_8), new byte[300], "x".getBytes(StandardCharsets.UTF_8),
                new byte[0], "the quick brown fox jumps over the lazy dog ".repeat(12).getBytes(StandardCharsets.UTF_8));
    }

    public static void main(String[] args) throws IOException {
        List<byte[]> samples = samples();
        List<byte[]> zstd = new ArrayList<>();
        for (byte[] s : samples) {
            zstd.add(Zstd.compress(s, 1));
            try (ZstdCompressor c = ZstdCompressor.builder().level(19).checksum(true).build()) {
                zstd.add(c.compress(s));
            }
        }
        for (int i = 0; i < zstd.size(); i++) {
            write("ZstdOneShotFuzz", i, zstd.get(i));
            write("ZstdFrameFuzz", i, zstd.get(i));
            write("ZstdStreamFuzz.DecompressStream", i, prefixed((byte) (i * 37), zstd.get(i)));
            write("ZstdStreamFuzz.InputStreamTarget", i, prefixed((byte) (i * 53), zstd.get(i)));
        }
        byte[] twoFrames = concat(zstd.get(0), zstd.get(1));
        write("ZstdOneShotFuzz", 100, twoFrames);
        write("ZstdStreamFuzz.InputStreamTarget", 100, prefixed((byte) 0x85, twoFrames));
        // a trained dictionary and a frame compressed with it, and raw content as a dictionary
        List<byte[]> trainingSet = new ArrayList<>();
        for (int i = 0; i < 400; i++) {
            trainingSet.add(("{\"id\":" + i + ",\"user\":\"name" + (i % 17) + "\",\"active\":" + (i % 2 == 0) + "}")
                    .getBytes(StandardCharsets.UTF_8));
        }
        ZstdDictionary dict = ZstdDictionary.train(trainingSet, 1024);
        byte[] value = trainingSet.get(5);
        try (ZstdCompressionDictionary cd = dict.forCompression(3);
             ZstdCompressor c = ZstdCompressor.builder().dictionary(cd).build()) {
            write("ZstdDictionaryFuzz", 0, withSize(dict.toByteArray(), c.compress(value)));
        }
        write("ZstdDictionaryFuzz", 1, withSize(samples.get(0), Zstd.compress(value)));
        write("ZstdDictionaryFuzz", 2, withSize(new byte[0], zstd.get(0)));
        // lz4 raw blocks with their sizes
        for (int i = 0; i < samples.size(); i++) {
            byte[] s = samples.get(i);
            write("Lz4BlockFuzz.Exact", i, withSize16(s.length, Lz4.compress(s)));
            write("Lz4BlockFuzz.Exact", 10 + i, withSize16(s.length, Lz4.compress(s, 9)));
            write("Lz4BlockFuzz.Bounded", i, withSize16(Math.max(1, s.length - 3), Lz4.compress(s)));
            write("Lz4BlockFuzz.Bounded", 10 + i, withSize16(s.length + 100, Lz4.compress(s, 9)));
        }
        // lz4 frames with several options
        for (int i = 0; i < samples.size(); i++) {
            byte[] s = samples.get(i);
            byte[] plain = Lz4Frame.compress(s);
            byte[] opts = Lz4Frame.compress(s, Lz4Frame.Options.DEFAULT.withLevel(9).withBlockChecksum(true)
                    .withBlockIndependent(false).withContentSize(true));
            write("Lz4FrameFuzz.OneShot", i, plain);
            write("Lz4FrameFuzz.OneShot", 10 + i, opts);
            write("Lz4FrameFuzz.Streams", i, prefixed((byte) (i * 41), plain));
            write("Lz4FrameFuzz.Streams", 10 + i, prefixed((byte) (i * 67), opts));
        }
    }

    static byte[] prefixed(byte first, byte[] rest) {
        return concat(new byte[] {first}, rest);
    }

    static byte[] withSize(byte[] dict, byte[] frame) {
        return concat(new byte[] {(byte) (dict.length >>> 8), (byte) dict.length}, dict, frame);
    }

    static byte[] withSize16(int size, byte[] block) {
        return concat(new byte[] {(byte) (size >>> 8), (byte) size}, block);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static void write(String target, int n, byte[] bytes) throws IOException {
        Path dir = Path.of("src", "test", "fuzz", target);
        Files.createDirectories(dir);
        Files.write(dir.resolve(String.format("seed-java-%03d", n)), bytes);
    }
}
