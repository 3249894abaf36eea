package dev.zstdjava.zstd;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.TestData;
import dev.zstdjava.TestData.Kind;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A frame that declares no content size (a streaming encoder's) declares a window instead, 128 MiB at level 22. A
 * decompressor reads it without allocating that window, so a context kept for reuse (a pool's) does not keep it.
 */
class ZstdUnknownSizeWindowTest {
    /** A context with no window buffer is a few hundred KiB (ZSTD_sizeof_DCtx); a 128 MiB window is far above. */
    private static final long SMALL_CONTEXT = 1 << 20;

    /** One frame of {@code value} written by a streaming encoder at {@code level}, so without a content size. */
    static byte[] streamed(byte[] value, int level) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZstdOutputStream out = new ZstdOutputStream(bytes, ZstdCompressStream.builder().level(level))) {
            out.write(value);
        }
        return bytes.toByteArray();
    }

    @Test
    void aSmallFrameWithALargeWindowLeavesTheContextSmall() throws IOException {
        byte[] value = TestData.generate(Kind.TEXT, 1024, 7);
        byte[] frame = streamed(value, Zstd.MAX_LEVEL);
        assertEquals(ZstdFrame.UNKNOWN_SIZE, ZstdFrame.contentSize(frame, 0, frame.length));
        assertEquals(0x00, frame[4], "frame header: no content size, not single-segment");
        assertEquals(27, 10 + ((frame[5] & 0xFF) >> 3), "window descriptor: windowLog 27 (128 MiB)");
        try (ZstdDecompressor d = ZstdDecompressor.create(); Arena arena = Arena.ofConfined()) {
            long before = d.contextSize();
            MemorySegment nativeFrame = arena.allocate(frame.length);
            MemorySegment.copy(MemorySegment.ofArray(frame), 0, nativeFrame, 0, frame.length);
            for (int i = 0; i < 3; i++) {
                assertArrayEquals(value, d.decompress(frame));
                assertArrayEquals(value, d.decompress(nativeFrame));
                assertArrayEquals(value, d.decompress(MemorySegment.ofArray(frame)));
            }
            long after = d.contextSize();
            assertTrue(after < SMALL_CONTEXT, "ZSTD_sizeof_DCtx after decoding a 1 KiB value of a windowLog 27 frame: "
                    + after + " bytes (" + before + " before)");
        }
    }

    /**
     * A window past zstd's default streaming limit (2^27), as {@code zstd --long=28} writes, no longer matters
     * without a windowLogMax: the output is bounded by the limit; with one, the frame is refused as before.
     */
    @Test
    void aWindowPastTheStreamingDefaultReadsBackWithoutWindowLogMax() throws IOException {
        byte[] value = TestData.generate(Kind.TEXT, 4096, 13);
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ZstdOutputStream out = new ZstdOutputStream(bytes, ZstdCompressStream.builder().level(3).windowLog(28))) {
            out.write(value);
        }
        byte[] frame = bytes.toByteArray();
        assertEquals(28, 10 + ((frame[5] & 0xFF) >> 3), "window descriptor: windowLog 28");
        try (ZstdDecompressor d = ZstdDecompressor.create()) {
            assertArrayEquals(value, d.decompress(frame));
            assertTrue(d.contextSize() < SMALL_CONTEXT, "after a windowLog 28 frame: " + d.contextSize());
        }
        try (ZstdDecompressor d = ZstdDecompressor.builder().windowLogMax(27).build()) {
            ZstdException e = assertThrows(ZstdException.class, () -> d.decompress(frame));
            assertTrue(e.getMessage().contains("windowLogMax 27"), e.getMessage());
        }
    }

    @Test
    void framesWithoutASizeReadBackUpToTheLimitAndAreRefusedPastIt() throws IOException {
        byte[] value = TestData.generate(Kind.TEXT, 1024, 8);
        byte[] frame = streamed(value, Zstd.MAX_LEVEL);
        try (ZstdDecompressor exact = ZstdDecompressor.builder().maxDecompressedSize(1024).build();
             ZstdDecompressor under = ZstdDecompressor.builder().maxDecompressedSize(1023).build()) {
            assertArrayEquals(value, exact.decompress(frame));
            DecompressionLimitException e = assertThrows(DecompressionLimitException.class, () -> under.decompress(frame));
            assertEquals(1023, e.limit());
            assertTrue(e.getMessage().contains("limit of 1023 bytes"), e.getMessage());
            assertTrue(under.contextSize() < SMALL_CONTEXT, "after a refusal: " + under.contextSize());
        }
        // several blocks and frames, a skippable frame between them, compressible and not: the buffer grows as needed
        byte[] a = TestData.generate(Kind.TEXT, 3 << 20, 9);
        byte[] b = TestData.generate(Kind.INCOMPRESSIBLE, 300_000, 10);
        byte[] zeros = new byte[5 << 20];
        byte[] skippable = {0x50, 0x2A, 0x4D, 0x18, 3, 0, 0, 0, 1, 2, 3};
        byte[] all = concat(streamed(a, 19), skippable, streamed(b, 1), streamed(zeros, 3));
        try (ZstdDecompressor d = ZstdDecompressor.create()) {
            assertArrayEquals(concat(a, b, zeros), d.decompress(all));
            assertTrue(d.contextSize() < SMALL_CONTEXT, "after 8 MiB without a size: " + d.contextSize());
        }
        try (ZstdDecompressor d = ZstdDecompressor.builder().maxDecompressedSize(a.length + b.length).build()) {
            assertThrows(DecompressionLimitException.class, () -> d.decompress(all));
        }
    }

    @Test
    void aCorruptFrameWithoutASizeIsAZstdError() throws IOException {
        byte[] frame = streamed(TestData.generate(Kind.TEXT, 50_000, 11), 3);
        frame[frame.length / 2] ^= 0x55;
        frame[frame.length / 2 + 1] ^= 0x33;
        try (ZstdDecompressor d = ZstdDecompressor.create()) {
            ZstdException e = assertThrows(ZstdException.class, () -> d.decompress(frame));
            assertTrue(e.getMessage().contains("zstd decompress"), e.getMessage());
        }
        byte[] truncated = java.util.Arrays.copyOf(streamed(TestData.generate(Kind.TEXT, 50_000, 12), 3), 100);
        try (ZstdDecompressor d = ZstdDecompressor.create()) {
            assertThrows(ZstdException.class, () -> d.decompress(truncated));
        }
    }

    /**
     * A compressed block of size 0 (the fuzzer's finding-empty-compressed-block): libzstd's streaming decoder took it
     * as the end of the frame and returned the bytes before it; every form now reports it as corrupt, as the
     * caller-destination forms always did.
     */
    @Test
    void anEmptyCompressedBlockIsCorruptInEveryForm() {
        byte[] frame = {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0x00, 0x00, 0x05, 0x00, 0x00};
        try (ZstdDecompressor d = ZstdDecompressor.create()) {
            ZstdException toArray = assertThrows(ZstdException.class, () -> d.decompress(frame));
            ZstdException toRange = assertThrows(ZstdException.class,
                    () -> d.decompress(frame, 0, frame.length, new byte[100], 0, 100));
            assertEquals(toRange.errorCode(), toArray.errorCode(), toArray.getMessage());
            assertEquals(ZstdException.CORRUPTION_DETECTED, toArray.errorCode(), toArray.getMessage());
        }
        assertThrows(ZstdException.class, () -> Zstd.decompress(frame));
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }
}
