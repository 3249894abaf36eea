package dev.zstdjava.values;

import dev.zstdjava.testkit.Allocations;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A stored value of a few bytes that declares a size within {@code maxDecompressedSize} but more than its bytes could
 * decode to (anyone can write such a value) is refused before the declared size is allocated: with the default limit
 * of 512 MiB such a 10-byte value made every read allocate up to 512 MiB, an OutOfMemoryError on a small heap. The
 * limit here is 1 MiB and each value declares 1,000,000 bytes, so a read that allocates the declared size shows.
 */
class ImpossibleSizeTest {
    private static final int LIMIT = 1 << 20;
    private static final int DECLARED = 1_000_000;
    /** Far below the declared size, above what refusing (an exception and its stack trace) allocates. */
    private static final long MOST_PER_READ = 64 << 10;

    private static ValueCompressor reading(LegacyFormat... formats) {
        return ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(LIMIT).readLegacy(formats).build());
    }

    private static byte[] concat(byte[]... parts) {
        ByteBuffer b = ByteBuffer.allocate(java.util.Arrays.stream(parts).mapToInt(p -> p.length).sum());
        for (byte[] p : parts) {
            b.put(p);
        }
        return b.array();
    }

    private static byte[] intBytes(int v, ByteOrder order) {
        return ByteBuffer.allocate(4).order(order).putInt(v).array();
    }

    /** One zstd frame declaring {@link #DECLARED} bytes (4-byte content size, single segment), one raw block of 1 byte. */
    private static byte[] zstdFrame() {
        return concat(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, (byte) 0xa0},
                intBytes(DECLARED, ByteOrder.LITTLE_ENDIAN), new byte[] {0x09, 0, 0, 'x'});
    }

    /**
     * Returned as stored, as a byte[] and as a direct ByteBuffer, without allocating the declared size.
     * @return the failures one read counts (a fresh compressor's)
     */
    private static long refusedWithoutAllocating(ValueCompressor vc, byte[] stored, String what) {
        assertSame(stored, vc.decompress(stored), what);
        long perArrayRead = Allocations.bytesPerCall(20, () -> vc.decompress(stored).length);
        assertTrue(perArrayRead < MOST_PER_READ, what + ": heap bytes per decompress(byte[]): " + perArrayRead);
        ByteBuffer direct = ByteBuffer.allocateDirect(stored.length).put(stored).flip();
        assertSame(direct, vc.decompress(direct), what);
        long perBufferRead = Allocations.bytesPerCall(20, () -> vc.decompress(direct).remaining());
        assertTrue(perBufferRead < MOST_PER_READ, what + ": heap bytes per decompress(ByteBuffer): " + perBufferRead);
        ValueCompressor fresh = ValueCompressor.create(vc.config());
        assertSame(stored, fresh.decompress(stored), what);
        return fresh.stats().decompressionFailures();
    }

    @Test
    void anLz4ValueDeclaringMoreThanItsBlockCouldHoldIsNotAllocated() {
        // the header, a length prefix of 1,000,000 and an empty block (one zero token): decodes to nothing
        byte[] stored = concat(new byte[] {0, 1, 2, 0, 2}, intBytes(DECLARED, ByteOrder.LITTLE_ENDIAN), new byte[1]);
        assertEquals(1, refusedWithoutAllocating(reading(), stored, "glide-lz4"), "counted as a value that does not decode");
    }

    @Test
    void aPlainValueThatLooksLikeARedissonLz4LengthIsNotAllocated() {
        // any value of 5 bytes or more is tried as Redisson's LZ4Codec form: these 5 bytes declare 1,000,000
        byte[] plain = concat(intBytes(DECLARED, ByteOrder.BIG_ENDIAN), new byte[1]);
        assertEquals(0, refusedWithoutAllocating(reading(LegacyFormat.REDISSON_LZ4), plain, "redisson-lz4"),
                "a plain value, as before");
    }

    @Test
    void aZstdFrameDeclaringMoreThanItsBlocksCouldHoldIsNotAllocated() {
        ValueCompressor vc = reading(LegacyFormat.REDISSON_ZSTD);
        assertEquals(1, refusedWithoutAllocating(vc, concat(new byte[] {0, 1, 2, 0, 1}, zstdFrame()), "glide-zstd"));
        assertEquals(1, refusedWithoutAllocating(vc, concat(intBytes(DECLARED, ByteOrder.BIG_ENDIAN), zstdFrame()),
                "redisson-zstd"));
    }

    /**
     * Bombs that declare no size stop at the limit: a zstd frame of 512 RLE blocks (2 KiB decoding to 64 MiB) and a
     * gzip stream of 16 MiB of zeros (Lettuce's CompressionCodec form) fail with DecompressionLimitException, having
     * allocated on the heap a few times the limit at most, not what they expand to.
     */
    @Test
    void bombsWithoutADeclaredSizeStopAtTheLimit() throws Exception {
        ByteBuffer frame = ByteBuffer.allocate(11 + 512 * 4).put(new byte[] {0, 1, 2, 0, 1, 0x28, (byte) 0xb5, 0x2f,
                (byte) 0xfd, 0x00, 0x58}); // no content size, a 2 MiB window
        for (int i = 0; i < 512; i++) { // RLE blocks of 128 KiB of zeros, the last one marked last
            frame.put(new byte[] {(byte) (i == 511 ? 0x03 : 0x02), 0, 0x10, 0});
        }
        java.io.ByteArrayOutputStream gzip = new java.io.ByteArrayOutputStream();
        try (java.util.zip.GZIPOutputStream out = new java.util.zip.GZIPOutputStream(gzip)) {
            out.write(new byte[16 << 20]);
        }
        ValueCompressor vc = reading(LegacyFormat.LETTUCE_GZIP);
        for (byte[] bomb : new byte[][] {java.util.Arrays.copyOf(frame.array(), frame.position()), gzip.toByteArray()}) {
            for (int i = 0; i < 3; i++) { // the last read after warm-up
                long before = Allocations.allocated();
                dev.zstdjava.DecompressionLimitException e = org.junit.jupiter.api.Assertions.assertThrows(
                        dev.zstdjava.DecompressionLimitException.class, () -> vc.decompress(bomb));
                long allocated = Allocations.allocated() - before;
                assertEquals(LIMIT, e.limit());
                assertTrue(allocated < 4L * LIMIT, bomb.length + " bytes: " + allocated + " heap bytes allocated");
            }
        }
    }

    /** The bounds are the formats' own: the most compressible value (zeros) still reads back, in every form. */
    @Test
    void theMostCompressibleValuesStillDecode() throws Exception {
        byte[] zeros = new byte[LIMIT];
        for (CompressionBackend backend : CompressionBackend.values()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().backend(backend)
                    .maxDecompressedSize(LIMIT).build());
            byte[] stored = vc.compress(zeros);
            assertTrue(stored.length < zeros.length / 200, backend + ": " + stored.length + " bytes stored");
            assertArrayEquals(zeros, vc.decompress(stored), backend.toString());
        }
        ValueCompressor legacy = reading(LegacyFormat.REDISSON_LZ4, LegacyFormat.REDISSON_ZSTD);
        for (byte[] stored : new byte[][] {LegacyFormatTest.redissonLz4(zeros), LegacyFormatTest.redissonZstd(zeros)}) {
            assertArrayEquals(zeros, legacy.decompress(stored));
        }
        assertEquals(2, legacy.stats().legacyDecompressed());
    }
}
