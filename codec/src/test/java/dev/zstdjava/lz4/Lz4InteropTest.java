package dev.zstdjava.lz4;

import dev.zstdjava.ChildProcess;
import dev.zstdjava.TestData;
import dev.zstdjava.TestData.Kind;
import net.jpountz.lz4.LZ4Factory;
import net.jpountz.lz4.LZ4FrameInputStream;
import net.jpountz.lz4.LZ4FrameOutputStream;
import net.jpountz.lz4.LZ4SafeDecompressor;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** Cross-implementation checks: lz4-java (pure Java) for blocks and frames, the lz4 CLI for frames. */
class Lz4InteropTest {
    /** lz4-java's pure-Java implementation: an independent encoder and decoder. */
    static final LZ4Factory JAVA = LZ4Factory.fastestJavaInstance();
    static final int[] SIZES = {0, 1, 100, 65_537, 1_000_003, 8 << 20};

    @Test
    void ourBlocksDecodeWithLz4JavaSafeDecompressor() {
        LZ4SafeDecompressor safe = JAVA.safeDecompressor();
        for (Kind kind : Kind.values()) {
            for (int size : SIZES) {
                byte[] data = TestData.generate(kind, size, size);
                for (int level : new int[] {-17, 0, 1, 9, 12}) {
                    if (level >= 10 && size > 1_000_003) {
                        continue; // optimal parsing on 8 MiB is slow and adds nothing here
                    }
                    byte[] block = Lz4.compress(data, level);
                    byte[] out = new byte[size + 64];
                    int n = safe.decompress(block, 0, block.length, out, 0, out.length);
                    assertEquals(size, n, kind + " " + size + " level " + level);
                    assertArrayEquals(data, Arrays.copyOf(out, n), kind + " " + size + " level " + level);
                }
            }
        }
    }

    @Test
    void lz4JavaBlocksDecodeWithOurs() {
        try (Lz4Decompressor d = Lz4Decompressor.create()) {
            for (Kind kind : Kind.values()) {
                for (int size : SIZES) {
                    byte[] data = TestData.generate(kind, size, size + 1);
                    for (net.jpountz.lz4.LZ4Compressor c : List.of(JAVA.fastCompressor(), JAVA.highCompressor(9),
                            JAVA.highCompressor(4))) {
                        byte[] block = c.compress(data);
                        assertArrayEquals(data, d.decompress(block, size), kind + " " + size + " " + c);
                        byte[] out = new byte[size + 10];
                        assertEquals(size, d.decompress(block, 0, block.length, out, 0, out.length));
                        assertArrayEquals(data, Arrays.copyOf(out, size));
                    }
                }
            }
        }
    }

    @Test
    void framesBothWaysWithLz4JavaStreams() throws IOException {
        for (Kind kind : Kind.values()) {
            for (int size : SIZES) {
                byte[] data = TestData.generate(kind, size, size + 2);
                // ours -> lz4-java (it reads independent blocks only: our default)
                for (Lz4Frame.Options o : List.of(Lz4Frame.Options.DEFAULT,
                        Lz4Frame.Options.DEFAULT.withBlockChecksum(true).withBlockSize(Lz4Frame.BlockSize.MB_4).withLevel(9),
                        Lz4Frame.Options.DEFAULT.withContentSize(false).withContentChecksum(false).withLevel(-3))) {
                    byte[] frame = Lz4Frame.compress(data, o);
                    try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(frame))) {
                        assertArrayEquals(data, in.readAllBytes(), kind + " " + size + " " + o);
                    }
                    ByteArrayOutputStream sink = new ByteArrayOutputStream();
                    try (Lz4FrameOutputStream out = new Lz4FrameOutputStream(sink, o)) {
                        out.write(data);
                    }
                    try (InputStream in = new LZ4FrameInputStream(new ByteArrayInputStream(sink.toByteArray()))) {
                        assertArrayEquals(data, in.readAllBytes(), "stream " + kind + " " + size + " " + o);
                    }
                }
                // lz4-java -> ours
                List<byte[]> frames = new ArrayList<>();
                ByteArrayOutputStream sink = new ByteArrayOutputStream();
                try (LZ4FrameOutputStream out = new LZ4FrameOutputStream(sink)) {
                    out.write(data);
                }
                frames.add(sink.toByteArray());
                sink = new ByteArrayOutputStream();
                try (LZ4FrameOutputStream out = new LZ4FrameOutputStream(sink, LZ4FrameOutputStream.BLOCKSIZE.SIZE_256KB,
                        size, LZ4FrameOutputStream.FLG.Bits.BLOCK_INDEPENDENCE, LZ4FrameOutputStream.FLG.Bits.CONTENT_SIZE,
                        LZ4FrameOutputStream.FLG.Bits.BLOCK_CHECKSUM, LZ4FrameOutputStream.FLG.Bits.CONTENT_CHECKSUM)) {
                    out.write(data);
                }
                frames.add(sink.toByteArray());
                for (byte[] frame : frames) {
                    assertArrayEquals(data, Lz4Frame.decompress(frame), kind + " " + size);
                    try (InputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(frame))) {
                        assertArrayEquals(data, in.readAllBytes(), kind + " " + size);
                    }
                }
            }
        }
    }

    @DisabledIfSystemProperty(named = "zstdjava.skipCliTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipCliTests=true")
    @Test
    void framesBothWaysWithTheLz4Cli(@TempDir Path dir) throws Exception {
        for (Kind kind : Kind.values()) {
            for (int size : new int[] {0, 1, 65_537, 3_000_001}) {
                byte[] data = TestData.generate(kind, size, size + 3);
                Path raw = dir.resolve("data-" + kind + "-" + size);
                Files.write(raw, data);
                // ours -> CLI, linked and independent blocks, every level class
                for (Lz4Frame.Options o : List.of(Lz4Frame.Options.DEFAULT,
                        Lz4Frame.Options.DEFAULT.withBlockIndependent(false).withBlockChecksum(true).withLevel(9)
                                .withBlockSize(Lz4Frame.BlockSize.MB_1),
                        Lz4Frame.Options.DEFAULT.withLevel(-10).withContentChecksum(false))) {
                    Path frame = dir.resolve("ours.lz4");
                    Files.write(frame, Lz4Frame.compress(data, o));
                    assertArrayEquals(data, run("lz4", "-d", "-c", "-q", frame.toString()), "CLI decodes " + o);
                    ByteArrayOutputStream sink = new ByteArrayOutputStream();
                    try (Lz4FrameOutputStream out = new Lz4FrameOutputStream(sink, o)) {
                        out.write(data);
                    }
                    Files.write(frame, sink.toByteArray());
                    assertArrayEquals(data, run("lz4", "-d", "-c", "-q", frame.toString()), "CLI decodes stream " + o);
                }
                // CLI -> ours
                for (List<String> flags : List.of(List.of("-1"), List.of("-9", "-BD", "-BX"),
                        List.of("-12", "--content-size", "-B4"), List.of("--fast=5", "--no-frame-crc", "-B5"))) {
                    List<String> cmd = new ArrayList<>(List.of("lz4", "-c", "-q"));
                    cmd.addAll(flags);
                    cmd.add(raw.toString());
                    byte[] frame = run(cmd.toArray(String[]::new));
                    assertArrayEquals(data, Lz4Frame.decompress(frame), "ours decodes lz4 " + flags);
                    try (InputStream in = new Lz4FrameInputStream(new ByteArrayInputStream(frame))) {
                        assertArrayEquals(data, in.readAllBytes(), "stream decodes lz4 " + flags);
                    }
                }
            }
        }
    }

    static byte[] run(String... cmd) throws Exception {
        ChildProcess p = ChildProcess.run(new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD), 60);
        assertEquals(0, p.exit(), String.join(" ", cmd));
        return p.stdout();
    }
}
