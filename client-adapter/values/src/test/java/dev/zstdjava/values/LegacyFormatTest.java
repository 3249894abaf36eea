package dev.zstdjava.values;

import dev.zstdjava.DecompressionLimitException;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.CompressionCodec;
import io.lettuce.core.codec.RedisCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import org.junit.jupiter.api.Test;
import org.redisson.codec.LZ4Codec;
import org.redisson.codec.ZStdCodec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.testkit.TestValues.random;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Values written by Lettuce's CompressionCodec and Redisson's ZStdCodec/LZ4Codec (produced here by those codecs
 * themselves) are read when the compressor is told to, bounded by the same limit; nothing changes when it is not.
 */
class LegacyFormatTest {
    static byte[] lettuce(CompressionCodec.CompressionType type, byte[] value) {
        RedisCodec<byte[], byte[]> codec = CompressionCodec.valueCompressor(ByteArrayCodec.INSTANCE, type);
        ByteBuffer b = codec.encodeValue(value);
        byte[] out = new byte[b.remaining()];
        b.get(out);
        return out;
    }

    static byte[] redisson(org.redisson.client.codec.Codec codec, byte[] value) throws Exception {
        ByteBuf b = codec.getValueEncoder().encode(value);
        try {
            return ByteBufUtil.getBytes(b);
        } finally {
            b.release();
        }
    }

    static byte[] redissonZstd(byte[] v) throws Exception {
        return redisson(new ZStdCodec(org.redisson.client.codec.ByteArrayCodec.INSTANCE), v);
    }

    static byte[] redissonLz4(byte[] v) throws Exception {
        return redisson(new LZ4Codec(org.redisson.client.codec.ByteArrayCodec.INSTANCE), v);
    }

    static ValueCompressor reading(long limit, LegacyFormat... formats) {
        return ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(limit).readLegacy(formats).build());
    }

    @Test
    void eachFormatIsReadWhenEnabled() throws Exception {
        byte[] v = json(5000).getBytes(StandardCharsets.UTF_8);
        ValueCompressor all = reading(1 << 20, LegacyFormat.values());
        byte[][] stored = {lettuce(CompressionCodec.CompressionType.GZIP, v),
                lettuce(CompressionCodec.CompressionType.DEFLATE, v), redissonZstd(v), redissonLz4(v)};
        for (byte[] s : stored) {
            assertTrue(s.length < v.length / 2);
            assertArrayEquals(v, all.decompress(s));
            assertArrayEquals(v, all.decompress(ByteBuffer.wrap(s)).array());
        }
        assertEquals(8, all.stats().legacyDecompressed(), "4 formats, each read as byte[] and as ByteBuffer");
        assertEquals(8, all.stats().valuesDecompressed());
        // new values are written in the shared format, and the shared format is still read
        byte[] shared = all.compress(v);
        assertArrayEquals(new byte[] {0, 1, 2, 0, 1}, Arrays.copyOf(shared, 5));
        assertArrayEquals(v, all.decompress(shared));
        // plain values still read back as they are, also ones that start like a zlib header ("x^") or a gzip magic
        for (String plain : new String[] {"x^ plain text that is not zlib at all, long enough", "hello, plain", ""}) {
            byte[] p = plain.getBytes(StandardCharsets.UTF_8);
            assertSame(p, all.decompress(p), plain);
        }
        byte[] rnd = random(3000, 11);
        assertSame(rnd, all.decompress(rnd));
        assertEquals(8, all.stats().legacyDecompressed());
        assertEquals(9, all.stats().valuesDecompressed());
    }

    /** Redisson's LZ4Codec stores an empty value as 00 00 00 00 00 (length 0, an empty block); it reads back empty. */
    @Test
    void redissonLz4EmptyValueReadsBackEmpty() throws Exception {
        byte[] empty = redissonLz4(new byte[0]);
        assertArrayEquals(new byte[5], empty, "Redisson's stored form of an empty value");
        ValueCompressor lz4 = reading(1 << 20, LegacyFormat.REDISSON_LZ4);
        assertArrayEquals(new byte[0], lz4.decompress(empty));
        assertEquals(0, lz4.decompress(ByteBuffer.wrap(empty)).remaining());
        assertEquals(2, lz4.stats().legacyDecompressed());
        // only that exact form: a longer or different value declaring 0 bytes is a plain value
        for (byte[] plain : new byte[][] {new byte[6], {0, 0, 0, 0, 1}, {0, 0, 0, 0, 0, 0, 0, 0}}) {
            assertSame(plain, lz4.decompress(plain));
        }
        assertEquals(2, lz4.stats().legacyDecompressed());
        // Redisson's ZStdCodec empty value reads back empty too
        assertArrayEquals(new byte[0], reading(1 << 20, LegacyFormat.REDISSON_ZSTD).decompress(redissonZstd(new byte[0])));
    }

    @Test
    void onlyTheEnabledFormatsAreRead() throws Exception {
        byte[] v = text(4000);
        byte[] gzip = lettuce(CompressionCodec.CompressionType.GZIP, v);
        byte[] zstd = redissonZstd(v);
        ValueCompressor none = ValueCompressor.create(CompressionConfig.defaults());
        assertSame(gzip, none.decompress(gzip));
        assertSame(zstd, none.decompress(zstd));
        ValueCompressor onlyZstd = reading(1 << 20, LegacyFormat.REDISSON_ZSTD);
        assertSame(gzip, onlyZstd.decompress(gzip));
        assertArrayEquals(v, onlyZstd.decompress(zstd));
        assertEquals(1, onlyZstd.stats().legacyDecompressed());
        assertEquals(0, onlyZstd.stats().decompressionFailures());
    }

    @Test
    void theLimitHolds() throws Exception {
        byte[] v = text(200_000);
        ValueCompressor limited = reading(100_000, LegacyFormat.values());
        for (byte[] s : new byte[][] {lettuce(CompressionCodec.CompressionType.GZIP, v),
                lettuce(CompressionCodec.CompressionType.DEFLATE, v), redissonZstd(v)}) {
            DecompressionLimitException e = assertThrows(DecompressionLimitException.class, () -> limited.decompress(s));
            assertEquals(100_000, e.limit());
        }
        // Redisson zstd: a length prefix over the limit is refused before anything is decoded
        byte[] lying = redissonZstd(text(1000));
        lying[0] = 0x7f;
        assertEquals(0x7f0003e8, assertThrows(DecompressionLimitException.class, () -> limited.decompress(lying)).size());
        assertEquals(4, limited.stats().sizeLimitErrors());
        // Redisson lz4 has no signature: a length over the limit cannot be told from a plain value
        byte[] lz4 = redissonLz4(v);
        assertSame(lz4, limited.decompress(lz4));
        assertEquals(0, limited.stats().legacyDecompressed());
    }

    @Test
    void malformedLegacyValuesAreReturnedAsStored() throws Exception {
        byte[] v = text(5000);
        ValueCompressor all = reading(1 << 20, LegacyFormat.values());
        byte[] gzip = lettuce(CompressionCodec.CompressionType.GZIP, v);
        byte[] deflate = lettuce(CompressionCodec.CompressionType.DEFLATE, v);
        byte[] zstd = redissonZstd(v);
        byte[] lz4 = redissonLz4(v);
        byte[] zstdWrongLength = zstd.clone();
        zstdWrongLength[3]++;
        for (byte[] bad : new byte[][] {Arrays.copyOf(gzip, gzip.length - 6), Arrays.copyOf(deflate, deflate.length / 2),
                Arrays.copyOf(zstd, zstd.length / 2), zstdWrongLength}) {
            assertSame(bad, all.decompress(bad));
        }
        assertEquals(4, all.stats().decompressionFailures());
        byte[] lz4Truncated = Arrays.copyOf(lz4, lz4.length / 2);
        assertSame(lz4Truncated, all.decompress(lz4Truncated));
        assertEquals(4, all.stats().decompressionFailures(), "lz4 without a signature: not counted");
        assertEquals(0, all.stats().valuesDecompressed());
    }

    @Test
    void configurationCarriesTheFormats() {
        CompressionConfig c = CompressionConfig.builder().readLegacy(LegacyFormat.LETTUCE_GZIP).build();
        assertEquals(java.util.Set.of(LegacyFormat.LETTUCE_GZIP), c.legacyFormats());
        assertEquals(c, c.toBuilder().build());
        assertNotEquals(c, CompressionConfig.defaults());
        assertTrue(c.toString().contains("LETTUCE_GZIP"), c.toString());
        assertTrue(CompressionConfig.defaults().legacyFormats().isEmpty());
        assertThrows(UnsupportedOperationException.class, () -> c.legacyFormats().add(LegacyFormat.REDISSON_LZ4));
    }
}
