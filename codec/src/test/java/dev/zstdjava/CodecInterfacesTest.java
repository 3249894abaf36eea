package dev.zstdjava;

import dev.zstdjava.lz4.Lz4;
import dev.zstdjava.lz4.Lz4Compressor;
import dev.zstdjava.lz4.Lz4Decompressor;
import dev.zstdjava.lz4.Lz4Exception;
import dev.zstdjava.lz4.Lz4FrameCompressor;
import dev.zstdjava.lz4.Lz4FrameDecompressor;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdDecompressor;
import dev.zstdjava.zstd.ZstdException;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The one-shot contract through the {@link Compressor} and {@link Decompressor} interfaces: code written once
 * against them works with every codec (the shapes themselves are covered per codec by the round-trip tests).
 */
class CodecInterfacesTest {
    private static final byte[] DATA = "interface round trip, the same code for every codec; ".repeat(40)
            .getBytes(StandardCharsets.US_ASCII);

    /** Written once against the interfaces, as an application would. */
    private static byte[] roundTrip(Compressor c, Decompressor d, byte[] data) {
        byte[] dst = new byte[(int) c.maxCompressedLength(data.length)];
        int n = c.compress(data, 0, data.length, dst, 0, dst.length);
        byte[] whole = c.compress(data);
        assertArrayEquals(Arrays.copyOf(dst, n), whole, "the default compress(byte[]) is compress(src, 0, length)");
        byte[] plain = new byte[data.length];
        assertEquals(data.length, d.decompress(dst, 0, n, plain, 0, plain.length));
        assertArrayEquals(d.decompress(whole), plain);
        return plain;
    }

    @Test
    void zstdAndLz4FramesRoundTripThroughTheInterfaces() {
        try (Compressor zc = ZstdCompressor.create(3); Decompressor zd = ZstdDecompressor.create();
             Compressor fc = Lz4FrameCompressor.create(); Decompressor fd = Lz4FrameDecompressor.create()) {
            assertArrayEquals(DATA, roundTrip(zc, zd, DATA));
            assertArrayEquals(DATA, roundTrip(fc, fd, DATA));
            assertEquals(Zstd.compressBound(DATA.length), zc.maxCompressedLength(DATA.length));
        }
    }

    @Test
    void lz4BlocksRoundTripThroughTheInterfaces() {
        try (Compressor c = Lz4Compressor.create(); Decompressor d = Lz4Decompressor.create()) {
            assertArrayEquals(DATA, roundTrip(c, d, DATA));
            assertEquals(Lz4.maxCompressedLength(DATA.length), c.maxCompressedLength(DATA.length));
            assertEquals(Decompressor.DEFAULT_MAX_DECOMPRESSED_SIZE, d.maxDecompressedSize());
            byte[] block = c.compress(DATA);
            assertArrayEquals(DATA, ((Lz4Decompressor) d).decompress(block, DATA.length));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> c.maxCompressedLength(Lz4.MAX_INPUT_SIZE + 1L));
            assertTrue(e.getMessage().contains("LZ4_MAX_INPUT_SIZE"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> c.maxCompressedLength(-1));
        }
    }

    @Test
    void errorsAreTheCodecsOwnExceptions() {
        byte[] garbage = "not a frame of either codec".getBytes(StandardCharsets.US_ASCII);
        byte[] small = new byte[4];
        try (Decompressor zd = ZstdDecompressor.create(); Decompressor fd = Lz4FrameDecompressor.create();
             Compressor fc = Lz4FrameCompressor.create()) {
            assertInstanceOf(ZstdException.class, assertThrows(CompressionException.class, () -> zd.decompress(garbage)));
            assertInstanceOf(Lz4Exception.class, assertThrows(CompressionException.class, () -> fd.decompress(garbage)));
            assertInstanceOf(Lz4Exception.class, assertThrows(CompressionException.class,
                    () -> fc.compress(DATA, 0, DATA.length, small, 0, small.length)));
        }
    }

    @Test
    void aClosedCodecRefusesCallsThroughTheInterface() {
        Compressor c = ZstdCompressor.create();
        c.close();
        c.close(); // idempotent
        assertThrows(IllegalStateException.class, () -> c.compress(DATA));
        Decompressor d = Lz4FrameDecompressor.create();
        d.close();
        assertThrows(IllegalStateException.class, () -> d.decompress(new byte[16]));
    }
}
