package dev.zstdjava.values;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.zstd.Zstd;
import dev.zstdjava.zstd.ZstdCompressStream;
import dev.zstdjava.zstd.ZstdCompressor;
import dev.zstdjava.zstd.ZstdOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.ByteArrayOutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Random;

import static dev.zstdjava.testkit.TestValues.concat;
import static dev.zstdjava.testkit.TestValues.lz4Stored;
import static dev.zstdjava.testkit.TestValues.random;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

class ValueCompressorTest {
    static final byte[] MAGIC = {0x00, 0x01, 0x02};

    /** A limit below the 256-byte backend check at creation is a valid configuration (found by fuzzing). */
    @Test
    void smallDecompressionLimitsAreAccepted() {
        for (CompressionBackend backend : CompressionBackend.values()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().backend(backend)
                    .minCompressionSize(6).maxDecompressedSize(100).build());
            byte[] small = "abcabcabcabcabcabcabcabcabcabcabcabcabcabcabcabc".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
            assertArrayEquals(small, vc.decompress(vc.compress(small)));
            byte[] large = ValueCompressor.create(CompressionConfig.builder().backend(backend).build())
                    .compress(new byte[1000]); // this one stores a value over its limit as it is
            assertThrows(dev.zstdjava.DecompressionLimitException.class, () -> vc.decompress(large));
        }
    }

    /** The adaptive compressor's per-option writers: the same bytes as a counting compressor, and no counting. */
    @Test
    void anUncountedCompressorWritesTheSameBytesAndCountsNothing() {
        ValueCompressor counted = ValueCompressor.create(CompressionConfig.defaults());
        ValueCompressor uncounted = ValueCompressor.uncounted(CompressionConfig.defaults());
        byte[] value = text(1000);
        byte[] stored = uncounted.compress(value);
        assertArrayEquals(counted.compress(value), stored);
        assertArrayEquals(random(100, 1), uncounted.compress(random(100, 1)), "stored as it is");
        assertArrayEquals(value, uncounted.decompress(stored));
        CompressionStats s = uncounted.stats();
        assertEquals(0, s.valuesCompressed() + s.originalBytes() + s.compressedBytes() + s.skipped()
                + s.valuesDecompressed() + s.decompressedBytes());
        assertEquals(1, counted.stats().valuesCompressed(), "the counting one counted");
    }

    @Test
    void zstdHeaderLayoutAndRoundTrip() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        byte[] value = text(1000);
        byte[] stored = vc.compress(value);
        assertTrue(stored.length < value.length);
        assertArrayEquals(new byte[] {0, 1, 2, 0, 1}, Arrays.copyOf(stored, 5));
        // the payload is exactly one standard zstd frame of the value
        byte[] frame = Arrays.copyOfRange(stored, 5, stored.length);
        assertArrayEquals(value, Zstd.decompress(frame));
        assertArrayEquals(value, vc.decompress(stored));
        CompressionStats s = vc.stats();
        assertEquals(1, s.valuesCompressed());
        assertEquals(1000, s.originalBytes());
        assertEquals(stored.length, s.compressedBytes());
        assertEquals(1, s.valuesDecompressed());
        assertEquals(1000, s.decompressedBytes());
        assertEquals(0, s.skipped());
    }

    @Test
    void thresholdAt63And64And65Bytes() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        byte[] v63 = new byte[63];
        byte[] v64 = new byte[64];
        byte[] v65 = new byte[65];
        assertSame(v63, vc.compress(v63), "below the minimum size: stored as is");
        byte[] s64 = vc.compress(v64);
        byte[] s65 = vc.compress(v65);
        assertNotSame(v64, s64);
        assertNotSame(v65, s65);
        assertArrayEquals(MAGIC, Arrays.copyOf(s64, 3));
        assertArrayEquals(v64, vc.decompress(s64));
        assertArrayEquals(v65, vc.decompress(s65));
        assertEquals(1, vc.stats().skipped());
        assertEquals(2, vc.stats().valuesCompressed());
    }

    @Test
    void minCompressionSizeIsConfigurable() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().minCompressionSize(6).build());
        byte[] zeros = new byte[40];
        byte[] stored = vc.compress(zeros);
        assertTrue(stored.length < 40);
        assertArrayEquals(zeros, vc.decompress(stored));
    }

    @Test
    void incompressibleValuesAreStoredAsIs() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        byte[] noise = random(4096, 1);
        assertSame(noise, vc.compress(noise));
        assertEquals(1, vc.stats().skipped());
        assertEquals(0, vc.stats().valuesCompressed());
        assertSame(noise, vc.decompress(noise));
    }

    @Test
    void storedFormIsStrictlySmallerThanTheValue() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().minCompressionSize(6).build());
        for (int n = 6; n < 300; n++) {
            for (long seed = 0; seed < 3; seed++) {
                byte[] v = seed == 0 ? text(n) : Arrays.copyOf(random(n / 2 + 1, seed), n);
                byte[] s = vc.compress(v);
                assertTrue(s == v || s.length < v.length, "size " + n);
                assertArrayEquals(v, vc.decompress(s), "size " + n);
            }
        }
    }

    @Test
    void valuesAlreadyCarryingTheHeaderAreNotCompressedTwice() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        byte[] once = vc.compress(text(5000));
        // make it compressible again by padding: still carries the zstd header and a frame, so it is left alone
        byte[] looksCompressed = concat(once, new byte[2000]);
        assertSame(looksCompressed, vc.compress(looksCompressed));
        assertEquals(1, vc.stats().skipped());
    }

    @Test
    void disabledStoresAsIsButStillReads() {
        ValueCompressor on = ValueCompressor.create(CompressionConfig.defaults());
        ValueCompressor off = ValueCompressor.create(CompressionConfig.builder().enabled(false).build());
        byte[] v = text(3000);
        assertSame(v, off.compress(v));
        assertArrayEquals(v, off.decompress(on.compress(v)));
    }

    @Test
    void plainValuesReadBackUnchanged() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        for (byte[] v : new byte[][] {new byte[0], {0}, {0, 1}, {0, 1, 2}, {0, 1, 2, 0}, "hello".getBytes(StandardCharsets.UTF_8), text(100)}) {
            assertSame(v, vc.decompress(v));
        }
        assertEquals(0, vc.stats().decompressionFailures());
    }

    @Test
    void headerLookalikesAreReturnedRawAndCounted() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        byte[] unknownBackend = concat(new byte[] {0, 1, 2, 0, 7}, text(100));
        byte[] notAFrame = concat(new byte[] {0, 1, 2, 0, 1}, text(100));
        byte[] headerOnly = {0, 1, 2, 0, 1};
        byte[] full = vc.compress(text(10_000));
        byte[] truncated = Arrays.copyOf(full, full.length - 3);
        byte[] trailingGarbage = concat(full, new byte[] {1, 2, 3});
        for (byte[] bad : new byte[][] {unknownBackend, notAFrame, headerOnly, truncated, trailingGarbage}) {
            assertSame(bad, vc.decompress(bad));
        }
        assertEquals(5, vc.stats().decompressionFailures());
        // the version byte is not checked
        byte[] otherVersion = full.clone();
        otherVersion[3] = 9;
        assertArrayEquals(text(10_000), vc.decompress(otherVersion));
    }

    /**
     * The format's version byte is ignored on read, as GLIDE's {@code has_magic_header} ignores it: the decoder is
     * chosen by the backend id alone, for every version value, in every input form.
     */
    @Test
    void versionByteIsIgnoredOnRead() {
        byte[] value = text(2000);
        for (CompressionBackend backend : CompressionBackend.values()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().backend(backend).build());
            byte[] stored = vc.compress(value);
            assertEquals(0, stored[3], "written with version 0");
            assertEquals(backend.id(), stored[4]);
            for (int version = 0; version < 256; version++) {
                byte[] other = stored.clone();
                other[3] = (byte) version;
                assertArrayEquals(value, vc.decompress(other), backend + " version " + version);
                assertArrayEquals(value, toArray(vc.decompress(ByteBuffer.wrap(other))), backend + " " + version);
                assertArrayEquals(value, vc.decompress(MemorySegment.ofArray(other)), backend + " " + version);
            }
            assertEquals(0, vc.stats().decompressionFailures());
            // a reader configured for the other backend still decodes: the backend id picks the decoder
            CompressionBackend otherBackend = backend == CompressionBackend.ZSTD ? CompressionBackend.LZ4
                    : CompressionBackend.ZSTD;
            byte[] v7 = stored.clone();
            v7[3] = 7;
            assertArrayEquals(value, ValueCompressor.create(CompressionConfig.builder().backend(otherBackend).build())
                    .decompress(v7));
        }
    }

    private static byte[] toArray(ByteBuffer b) {
        byte[] a = new byte[b.remaining()];
        b.duplicate().get(a);
        return a;
    }

    @Test
    void framesWithoutContentSizeDecodeBounded() {
        byte[] value = text(300_000);
        byte[] frame;
        try (ZstdCompressor c = ZstdCompressor.builder().contentSize(false).build()) {
            frame = c.compress(value);
        }
        byte[] stored = concat(new byte[] {0, 1, 2, 0, 1}, frame);
        assertArrayEquals(value, ValueCompressor.create(CompressionConfig.defaults()).decompress(stored));
        ValueCompressor small = ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(100_000).build());
        DecompressionLimitException e = assertThrows(DecompressionLimitException.class, () -> small.decompress(stored));
        assertEquals(100_000, e.limit());
        assertEquals(1, small.stats().sizeLimitErrors());
    }

    /**
     * A streaming writer's frame at level 22 declares no size and a 128 MiB window: read back on several threads at
     * once (several pooled coders), exactly at the limit too, and refused one byte past it.
     */
    @Test
    void streamedFramesWithALargeWindowReadBackWithinTheLimit() throws Exception {
        byte[] value = text(1024);
        ByteArrayOutputStream frame = new ByteArrayOutputStream();
        try (ZstdOutputStream out = new ZstdOutputStream(frame, ZstdCompressStream.builder().level(Zstd.MAX_LEVEL))) {
            out.write(value);
        }
        byte[] stored = concat(new byte[] {0, 1, 2, 0, 1}, frame.toByteArray());
        assertEquals(27, 10 + ((stored[5 + 5] & 0xFF) >> 3), "the frame's window: 2^27 bytes");
        ValueCompressor exact = ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(1024).build());
        Thread[] readers = new Thread[4];
        byte[][] read = new byte[readers.length][];
        java.util.concurrent.CyclicBarrier together = new java.util.concurrent.CyclicBarrier(readers.length);
        for (int t = 0; t < readers.length; t++) {
            int i = t;
            readers[t] = new Thread(() -> {
                try {
                    together.await();
                    read[i] = exact.decompress(stored);
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            readers[t].start();
        }
        for (int t = 0; t < readers.length; t++) {
            readers[t].join();
            assertArrayEquals(value, read[t], "reader " + t);
        }
        ValueCompressor under = ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(1023).build());
        DecompressionLimitException e = assertThrows(DecompressionLimitException.class, () -> under.decompress(stored));
        assertEquals(1023, e.limit());
    }

    @Test
    void severalConcatenatedFramesDecode() {
        byte[] a = text(1000);
        byte[] b = random(500, 3);
        byte[] stored = concat(new byte[] {0, 1, 2, 0, 1}, Zstd.compress(a), Zstd.compress(b));
        assertArrayEquals(concat(a, b), ValueCompressor.create(CompressionConfig.defaults()).decompress(stored));
    }

    @Test
    void declaredSizeOverTheLimitFailsBeforeAllocating() {
        byte[] value = new byte[2_000_000];
        byte[] stored = ValueCompressor.create(CompressionConfig.defaults()).compress(value);
        ValueCompressor small = ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(1_000_000).build());
        DecompressionLimitException e = assertThrows(DecompressionLimitException.class, () -> small.decompress(stored));
        assertEquals(2_000_000, e.size());
    }

    @Test
    void hugeDeclaredZstdSizeIsRefused() {
        // a frame header claiming 2^40 bytes: magic, FHD with 8-byte content size, window byte, size, empty raw block
        // (FHD 0xe0: single segment, 8-byte content size, so no window byte)
        byte[] frame = concat(new byte[] {(byte) 0x28, (byte) 0xb5, (byte) 0x2f, (byte) 0xfd, (byte) 0xe0},
                new byte[] {0, 0, 0, 0, 0, 1, 0, 0}, new byte[] {1, 0, 0});
        byte[] stored = concat(new byte[] {0, 1, 2, 0, 1}, frame);
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        DecompressionLimitException e = assertThrows(DecompressionLimitException.class, () -> vc.decompress(stored));
        assertEquals(1L << 40, e.size());
        assertEquals(1, vc.stats().sizeLimitErrors());
    }

    @Test
    void byteBufferAndSegmentForms() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        byte[] value = text(5000);
        ByteBuffer src = ByteBuffer.allocateDirect(6000);
        src.position(100);
        src.put(value).flip().position(100);
        ByteBuffer dst = ByteBuffer.allocateDirect(6000).position(7);
        int n = vc.compress(src, dst);
        assertEquals(src.limit(), src.position());
        assertEquals(7 + n, dst.position());
        assertTrue(n < value.length);
        dst.flip().position(7);
        ByteBuffer out = vc.decompress(dst);
        assertEquals(7, dst.position(), "decompress does not move the source");
        byte[] got = new byte[out.remaining()];
        out.get(got);
        assertArrayEquals(value, got);

        ByteBuffer plain = ByteBuffer.wrap(text(10));
        assertSame(plain, vc.decompress(plain));

        try (Arena arena = Arena.ofConfined()) {
            MemorySegment in = arena.allocate(value.length);
            MemorySegment.copy(value, 0, in, ValueLayout.JAVA_BYTE, 0, value.length);
            MemorySegment to = arena.allocate(value.length);
            long w = vc.compress(in, to);
            assertArrayEquals(value, vc.decompress(to.asSlice(0, w)));
            assertThrows(IllegalArgumentException.class, () -> vc.compress(in, to.asSlice(0, 10)));
            byte[] noise = random(200, 5);
            long w2 = vc.compress(MemorySegment.ofArray(noise), to);
            assertEquals(200, w2);
            assertArrayEquals(noise, to.asSlice(0, 200).toArray(ValueLayout.JAVA_BYTE));
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {-131073, 23})
    void zstdLevelOutOfRangeIsRejected(int level) {
        assertThrows(IllegalArgumentException.class, () -> CompressionConfig.builder().level(level).build());
    }

    @ParameterizedTest
    @ValueSource(ints = {-129, 13})
    void lz4LevelOutOfRangeIsRejected(int level) {
        assertThrows(IllegalArgumentException.class,
                () -> CompressionConfig.builder().backend(CompressionBackend.LZ4).level(level).build());
    }

    @Test
    void configValidationAndDefaults() {
        CompressionConfig d = CompressionConfig.defaults();
        assertEquals(CompressionBackend.ZSTD, d.backend());
        assertEquals(3, d.level());
        assertEquals(64, d.minCompressionSize());
        assertEquals(512L << 20, d.maxDecompressedSize());
        assertTrue(d.enabled());
        assertEquals(0, CompressionConfig.builder().backend(CompressionBackend.LZ4).build().level());
        assertEquals(-131072, CompressionConfig.builder().level(-131072).build().level());
        assertEquals(22, CompressionConfig.builder().level(22).build().level());
        assertEquals(6, CompressionConfig.builder().minCompressionSize(6).build().minCompressionSize());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> CompressionConfig.builder().minCompressionSize(5).build());
        assertTrue(e.getMessage().contains("minCompressionSize 5"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> CompressionConfig.builder().maxDecompressedSize(0).build());
        assertEquals(d, d.toBuilder().build());
    }

    @Test
    void levelsChangeTheOutputButNotTheFormat() {
        byte[] value = text(50_000);
        for (int level : new int[] {-5, 1, 3, 19}) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().level(level).build());
            byte[] s = vc.compress(value);
            assertArrayEquals(new byte[] {0, 1, 2, 0, 1}, Arrays.copyOf(s, 5));
            assertArrayEquals(value, vc.decompress(s));
        }
    }

    @Test
    void manyThreadsShareOneCompressor() throws Exception {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        Thread[] threads = new Thread[8];
        Throwable[] failure = new Throwable[1];
        for (int t = 0; t < threads.length; t++) {
            int id = t;
            Runnable r = () -> {
                try {
                    for (int i = 0; i < 300; i++) {
                        byte[] v = text(64 + (i * 37 + id) % 4000);
                        assertArrayEquals(v, vc.decompress(vc.compress(v)));
                    }
                } catch (Throwable e) {
                    synchronized (failure) {
                        failure[0] = e;
                    }
                }
            };
            threads[t] = t % 2 == 0 ? Thread.ofPlatform().start(r) : Thread.ofVirtual().start(r);
        }
        for (Thread t : threads) {
            t.join();
        }
        assertNull(failure[0]);
        CompressionStats s = vc.stats();
        assertEquals(8 * 300, s.valuesCompressed() + s.skipped());
        assertTrue(s.valuesCompressed() > 8 * 250, s.toString());
        assertEquals(s.valuesCompressed(), s.valuesDecompressed());
    }

    static ValueCompressor lz4() {
        return ValueCompressor.create(CompressionConfig.builder().backend(CompressionBackend.LZ4).build());
    }

    @Test
    void lz4HeaderLengthPrefixAndRawBlock() {
        ValueCompressor vc = lz4();
        byte[] value = text(1000);
        byte[] stored = vc.compress(value);
        assertTrue(stored.length < value.length);
        assertArrayEquals(new byte[] {0, 1, 2, 0, 2, (byte) 0xe8, 0x03, 0, 0}, Arrays.copyOf(stored, 9),
                "header, then 1000 as unsigned 32-bit little-endian");
        byte[] block = Arrays.copyOfRange(stored, 9, stored.length);
        assertArrayEquals(value, dev.zstdjava.lz4.Lz4Decompressor.create().decompress(block, value.length),
                "the rest is one raw LZ4 block");
        assertArrayEquals(value, vc.decompress(stored));
        assertEquals(stored.length, vc.stats().compressedBytes());
    }

    @Test
    void eachBackendReadsTheOther() {
        ValueCompressor zstd = ValueCompressor.create(CompressionConfig.defaults());
        ValueCompressor lz4 = lz4();
        byte[] value = text(20_000);
        assertArrayEquals(value, zstd.decompress(lz4.compress(value)));
        assertArrayEquals(value, lz4.decompress(zstd.compress(value)));
        // an lz4 value is not "already compressed" for a zstd writer: it compresses it again (GLIDE does the same)
        byte[] lz4Stored = lz4.compress(new byte[10_000]);
        byte[] twice = zstd.compress(concat(lz4Stored, new byte[5000]));
        assertEquals(1, twice[4]);
    }

    @ParameterizedTest
    @ValueSource(ints = {-128, -1, 0, 1, 9, 12})
    void lz4LevelsFollowGlidesMapping(int level) {
        ValueCompressor vc = ValueCompressor.create(
                CompressionConfig.builder().backend(CompressionBackend.LZ4).level(level).build());
        byte[] value = text(100_000);
        byte[] stored = vc.compress(value);
        assertTrue(stored.length < value.length / 5, "level " + level + ": " + stored.length);
        assertArrayEquals(value, vc.decompress(stored));
    }

    @Test
    void lyingLz4LengthsAreReturnedRawAndCounted() {
        ValueCompressor vc = lz4();
        byte[] value = text(5000);
        byte[] good = vc.compress(value);
        byte[] block = Arrays.copyOfRange(good, 9, good.length);
        byte[] longer = lz4Stored(5001, block);
        byte[] shorter = lz4Stored(4999, block);
        byte[] zero = lz4Stored(0, block);
        byte[] noPrefix = {0, 1, 2, 0, 2, 1, 2};
        byte[] truncatedBlock = lz4Stored(5000, Arrays.copyOf(block, block.length - 5));
        for (byte[] bad : new byte[][] {longer, shorter, zero, noPrefix, truncatedBlock}) {
            assertSame(bad, vc.decompress(bad));
        }
        assertEquals(5, vc.stats().decompressionFailures());
        assertEquals(0, vc.stats().valuesDecompressed());
    }

    @Test
    void hugeLz4DeclaredSizeIsRefusedBeforeAllocating() {
        ValueCompressor vc = lz4();
        // a length over the limit that its block (of 1/255 of it: all matches) could decode to: the limit error
        long over = (512L << 20) + 1;
        byte[] huge = lz4Stored(over, new byte[(int) (over / Lz4Backend.MAX_RATIO) + 1]);
        DecompressionLimitException e = assertThrows(DecompressionLimitException.class, () -> vc.decompress(huge));
        assertEquals(over, e.size());
        assertEquals(512L << 20, e.limit());
        // one its block could not decode to (4 GiB from 2 bytes) is no writer's: a plain value that begins with the
        // header (text, say), returned as stored and counted, not failed as too large
        byte[] impossible = lz4Stored(0xFFFF_FFFFL, new byte[] {0x10, 'a'});
        assertSame(impossible, vc.decompress(impossible));
        assertEquals(1, vc.stats().decompressionFailures());
        assertEquals(1, vc.stats().sizeLimitErrors());
        ValueCompressor small = ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(4999).build());
        assertThrows(DecompressionLimitException.class, () -> small.decompress(lz4().compress(text(5000))));
        assertArrayEquals(text(4999), small.decompress(lz4().compress(text(4999))));
    }

    /**
     * Nothing lost: a value longer than maxDecompressedSize is stored as it is, so that the same configuration reads
     * it back (a compressed one would fail its read with DecompressionLimitException); a value of exactly the limit
     * is still compressed. Every form of {@code compress} applies the rule.
     */
    @ParameterizedTest
    @org.junit.jupiter.params.provider.EnumSource(CompressionBackend.class)
    void aValueOverTheDecompressionLimitIsStoredAsItIsAndReadsBack(CompressionBackend backend) {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().backend(backend)
                .maxDecompressedSize(10_000).build());
        byte[] over = text(10_001);
        byte[] stored = vc.compress(over);
        assertArrayEquals(over, vc.decompress(stored), "read back by the configuration that wrote it");
        assertSame(over, stored, "stored as it is");
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment dst = arena.allocate(over.length);
            assertEquals(over.length, vc.compress(MemorySegment.ofArray(over), dst), "segment form");
            assertArrayEquals(over, vc.decompress(dst));
        }
        ByteBuffer out = ByteBuffer.allocate(over.length);
        assertEquals(over.length, vc.compress(ByteBuffer.wrap(over), out), "buffer form");
        assertArrayEquals(over, vc.decompress(out.array()));
        assertTrue(vc.storesAsIs(10_001), "the write rule's size test");
        byte[] atLimit = text(10_000);
        byte[] compressed = vc.compress(atLimit);
        assertTrue(compressed.length < atLimit.length, "a value of exactly the limit is compressed");
        assertArrayEquals(atLimit, vc.decompress(compressed));
        CompressionStats s = vc.stats();
        assertEquals(4, s.skippedTooLarge(), s.toString());
        assertEquals(4, s.skipped(), s.toString());
        assertEquals(0, s.sizeLimitErrors(), s.toString());
        assertEquals(1, s.valuesCompressed(), s.toString());
    }

    /**
     * A value that carries the writer's own header is stored as it is only when a payload of that backend could
     * follow (it is already compressed); one that only begins with the header (text after it) is compressed like any
     * value, and reads back as written.
     */
    @Test
    void aValueThatOnlyBeginsWithItsBackendsHeaderIsCompressed() {
        for (ValueCompressor vc : new ValueCompressor[] {ValueCompressor.create(CompressionConfig.defaults()), lz4()}) {
            byte id = vc.config().backend().id();
            byte[] plain = concat(new byte[] {0, 1, 2, 0, id}, text(300));
            byte[] stored = vc.compress(plain);
            assertNotSame(plain, stored, vc.config().backend() + ": compressed");
            assertTrue(stored.length < plain.length);
            assertArrayEquals(plain, vc.decompress(stored));
            byte[] segment = new byte[plain.length];
            long n = vc.compress(MemorySegment.ofArray(plain), MemorySegment.ofArray(segment));
            assertArrayEquals(stored, Arrays.copyOf(segment, (int) n), "the segment form decides the same");
            byte[] compressed = vc.compress(text(1000));
            assertSame(compressed, vc.compress(compressed), "a compressed value is stored as it is");
            assertEquals(1, vc.stats().skippedAlreadyCompressed());
        }
        byte[] skippable = concat(new byte[] {0, 1, 2, 0, 1, 0x5a, 0x2a, 0x4d, 0x18}, text(300));
        ValueCompressor zstd = ValueCompressor.create(CompressionConfig.defaults());
        assertSame(skippable, zstd.compress(skippable), "a skippable frame's magic after the header");
        byte[] lz4Plausible = lz4Stored(1000, text(300));
        assertSame(lz4Plausible, lz4().compress(lz4Plausible), "an lz4 length its block could decode to");
    }

    @Test
    void skippedValuesAreCountedByReason() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        byte[] stored = vc.compress(text(1000));
        assertSame(stored, vc.compress(stored), "already compressed");
        vc.compress(text(10));
        vc.compress(random(1000, 5));
        assertTrue(vc.storesAsIs(CompressionConfig.DEFAULT_MIN_COMPRESSION_SIZE - 1), "the write rule's size test");
        assertFalse(vc.storesAsIs(CompressionConfig.DEFAULT_MIN_COMPRESSION_SIZE), "compress decides the rest");
        ValueCompressor off = ValueCompressor.create(CompressionConfig.builder().enabled(false).build());
        off.compress(text(1000));
        assertTrue(off.storesAsIs(1 << 20), "compression is off");
        CompressionStats s = vc.stats();
        assertEquals(1, s.skippedAlreadyCompressed());
        assertEquals(2, s.skippedTooSmall());
        assertEquals(1, s.skippedNotSmaller());
        assertEquals(0, s.skippedDisabled());
        assertEquals(0, s.compressionFailures());
        assertEquals(4, s.skipped());
        assertEquals(2, off.stats().skippedDisabled());
        assertEquals(2, off.stats().skipped());
    }

    @Test
    void statsAreReadByNameAndPrinted() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        vc.decompress(vc.compress(text(1000)));
        CompressionStats s = vc.stats();
        assertEquals(1, s.valuesCompressed());
        assertEquals(1, s.valuesDecompressed());
        assertEquals(1000, s.originalBytes());
        assertEquals(1000, s.decompressedBytes());
        assertTrue(s.toString().contains("values_compressed=1"), s.toString());
        for (java.lang.reflect.Constructor<?> c : CompressionStats.class.getDeclaredConstructors()) {
            assertFalse(java.lang.reflect.Modifier.isPublic(c.getModifiers()), "made by stats() only: " + c);
        }
    }
}
