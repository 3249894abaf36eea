package dev.zstdjava.zstd;

import dev.zstdjava.ChildProcess;
import com.github.luben.zstd.ZstdCompressCtx;
import com.github.luben.zstd.ZstdOutputStream;
import dev.zstdjava.TestData;
import dev.zstdjava.JsonRecords;
import dev.zstdjava.TestData.Kind;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Frames written here decode elsewhere and the reverse: zstd-jni, the zstd CLI and upstream golden vectors. */
class ZstdInteropTest {

    static List<byte[]> inputs() {
        List<byte[]> out = new ArrayList<>();
        for (int size : new int[] {0, 1, 500, 70_000, 3 << 20}) {
            for (Kind k : Kind.values()) {
                out.add(TestData.generate(k, size, size + k.ordinal()));
            }
        }
        out.add(JsonRecords.document(600_000, 11));
        out.add(TestData.binary(250_000, 12));
        return out;
    }

    @ParameterizedTest(name = "level {0}")
    @ValueSource(ints = {-3, 1, 3, 10, 19})
    void zstdJniReadsOurFramesAndWeReadTheirs(int level) {
        for (byte[] data : inputs()) {
            if (level == 19 && data.length > 100_000) {
                continue;
            }
            byte[] ours = Zstd.compress(data, level);
            assertArrayEquals(data, com.github.luben.zstd.Zstd.decompress(ours, data.length), "zstd-jni decodes ours");
            byte[] theirs = com.github.luben.zstd.Zstd.compress(data, level);
            assertArrayEquals(data, Zstd.decompress(theirs), "we decode zstd-jni's");
            assertArrayEquals(ours, theirs, "same library version, same level: identical frames");
        }
    }

    @Test
    void framesWithoutContentSizeFromAStreamingEncoder() throws IOException {
        for (byte[] data : inputs()) {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (ZstdOutputStream zos = new ZstdOutputStream(bos, 3)) {
                // written in pieces: a streaming encoder that cannot know the size up front
                for (int i = 0; i < data.length; i += 4096) {
                    zos.write(data, i, Math.min(4096, data.length - i));
                }
            }
            byte[] frame = bos.toByteArray();
            assertArrayEquals(data, Zstd.decompress(frame), "streamed frame of " + data.length + " bytes");
            try (ZstdDecompressor d = ZstdDecompressor.create()) {
                byte[] dst = new byte[data.length];
                assertEquals(data.length, d.decompress(frame, 0, frame.length, dst, 0, dst.length));
                assertArrayEquals(data, dst);
            }
        }
    }

    @DisabledIfSystemProperty(named = "zstdjava.skipCliTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipCliTests=true")
    @Test
    void zstdCliBothDirections(@TempDir Path dir) throws Exception {
        int i = 0;
        for (byte[] data : inputs()) {
            Path plain = dir.resolve("in" + i);
            Path ours = dir.resolve("ours" + i + ".zst");
            Files.write(plain, data);
            Files.write(ours, Zstd.compress(data, 5));
            Path decoded = dir.resolve("decoded" + i);
            run("zstd", "-q", "-d", "-f", ours.toString(), "-o", decoded.toString());
            assertArrayEquals(data, Files.readAllBytes(decoded), "zstd CLI decodes ours");

            Path cli = dir.resolve("cli" + i + ".zst");
            run("zstd", "-q", "-f", "-7", plain.toString(), "-o", cli.toString());
            assertArrayEquals(data, Zstd.decompress(Files.readAllBytes(cli)), "we decode the CLI's");
            Path piped = dir.resolve("piped" + i + ".zst");
            run("sh", "-c", "cat '" + plain + "' | zstd -q -c --no-check > '" + piped + "'");
            assertArrayEquals(data, Zstd.decompress(Files.readAllBytes(piped)), "we decode the CLI's stdin frames");
            i++;
        }
    }

    @Test
    void goldenDecompressionVectorsDecode() throws IOException {
        Path dir = TestData.corpus().resolve("golden/zstd/golden-decompression");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        assertFalse(files.isEmpty());
        for (Path f : files) {
            byte[] frame = Files.readAllBytes(f);
            byte[] ours = Zstd.decompress(frame);
            byte[] theirs = com.github.luben.zstd.Zstd.decompress(frame, (int) ZstdFrame.decompressBound(frame, 0, frame.length));
            assertArrayEquals(theirs, ours, f.getFileName() + " decodes as zstd-jni decodes it");
        }
    }

    @Test
    void goldenErrorVectorsAreRejected() throws IOException {
        Path dir = TestData.corpus().resolve("golden/zstd/golden-decompression-errors");
        List<Path> files;
        try (Stream<Path> s = Files.list(dir)) {
            files = s.sorted().toList();
        }
        assertEquals(3, files.size());
        for (Path f : files) {
            byte[] frame = Files.readAllBytes(f);
            assertThrows(ZstdException.class, () -> Zstd.decompress(frame), f.getFileName().toString());
            try (ZstdDecompressor d = ZstdDecompressor.create()) {
                assertThrows(ZstdException.class, () -> d.decompress(frame, 0, frame.length, new byte[1 << 20], 0, 1 << 20));
            }
        }
    }

    @Test
    void goldenCompressionInputsRoundTrip() throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.list(TestData.corpus().resolve("golden/zstd/golden-compression"))) {
            s.forEach(files::add);
        }
        for (String n : new String[] {"incompressible", "large-rle", "small-literals-after-incompressible-literals",
                "multiple-frames", "with-checksum"}) {
            files.add(TestData.corpus().resolve("golden/aircompressor-zstd/" + n));
        }
        for (Path f : files) {
            byte[] data = Files.readAllBytes(f);
            for (int level : new int[] {1, 3, 19}) {
                byte[] frame = Zstd.compress(data, level);
                assertArrayEquals(data, Zstd.decompress(frame), f.getFileName() + " level " + level);
                assertArrayEquals(data, com.github.luben.zstd.Zstd.decompress(frame, data.length), "zstd-jni agrees");
            }
            try (ZstdCompressor c = ZstdCompressor.builder().level(19).checksum(true).build()) {
                assertArrayEquals(data, Zstd.decompress(c.compress(data)));
            }
        }
    }

    @Test
    void aircompressorGoldenFrames() {
        assertArrayEquals(TestData.corpusFile("golden/aircompressor-zstd/with-checksum"),
                Zstd.decompress(TestData.corpusFile("golden/aircompressor-zstd/with-checksum.zst")));
        assertArrayEquals(TestData.corpusFile("golden/aircompressor-zstd/multiple-frames"),
                Zstd.decompress(TestData.corpusFile("golden/aircompressor-zstd/multiple-frames.zst")));
        for (String bad : new String[] {"offset-before-start.zst", "bad-second-frame.zst"}) {
            byte[] frame = TestData.corpusFile("golden/aircompressor-zstd/" + bad);
            ZstdException e = assertThrows(ZstdException.class, () -> Zstd.decompress(frame), bad);
            assertTrue(e.getMessage().startsWith("zstd decompress: "), e.getMessage());
        }
    }

    @Test
    void dictionaryFrameWithoutTheDictionaryIsAClearError() {
        byte[] dict = TestData.corpusFile("golden/zstd/golden-dictionaries/http-dict-missing-symbols");
        byte[] data = TestData.corpusFile("golden/zstd/golden-compression/http");
        byte[] frame;
        try (ZstdCompressCtx ctx = new ZstdCompressCtx()) {
            ctx.loadDict(dict);
            ctx.setLevel(3);
            frame = ctx.compress(data);
        }
        ZstdException e = assertThrows(ZstdException.class, () -> Zstd.decompress(frame));
        assertEquals(ZstdException.DICTIONARY_WRONG, e.errorCode(), e.getMessage());
    }

    static void run(String... cmd) throws Exception {
        ChildProcess p = ChildProcess.run(60, cmd);
        assertEquals(0, p.exit(), String.join(" ", cmd) + ": " + p.out());
    }
}
