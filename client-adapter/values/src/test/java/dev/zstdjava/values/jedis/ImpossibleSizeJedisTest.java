package dev.zstdjava.values.jedis;

import dev.zstdjava.testkit.Allocations;
import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.LegacyFormat;
import dev.zstdjava.values.ValueCompressor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.values.jedis.CompressingJedisTest.b;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Stored values of a few bytes that declare 1,000,000 bytes (within the 1 MiB limit here) but could not decode to
 * that, written by any client: CompressingJedis reads them as plain Jedis does, as stored, without allocating the
 * declared size on each GET, and goes on reading other values.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class ImpossibleSizeJedisTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    /** 1,000,000 as 40 42 0f 00 (little-endian) or 00 0f 42 40 (big-endian). */
    private static final byte[][] HOSTILE = {
        {0, 1, 2, 0, 2, 0x40, 0x42, 0x0f, 0, 0},                     // glide-lz4: a length prefix, an empty block
        {0, 1, 2, 0, 1, 0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, (byte) 0xa0, 0x40, 0x42, 0x0f, 0, 0x09, 0, 0, 'x'},
                                                                     // glide-zstd: a frame declaring it, 1 raw byte
        {0, 0x0f, 0x42, 0x40, 0},                                    // plain, read as Redisson's LZ4Codec form
    };

    @Test
    void readAsStoredLikePlainJedisWithoutAllocatingTheDeclaredSize() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(1 << 20)
                .readLegacy(LegacyFormat.REDISSON_LZ4).build());
        CompressingJedis jedis = new CompressingJedis(redis.client(), vc);
        for (int i = 0; i < HOSTILE.length; i++) {
            byte[] key = b("hostile:" + i);
            assertEquals("OK", redis.client().set(key, HOSTILE[i]));
            assertArrayEquals(redis.client().get(key), jedis.get(key), "value " + i);
            assertArrayEquals(HOSTILE[i], jedis.get(key), "value " + i);
            long plain = Allocations.bytesPerCall(20, () -> redis.client().get(key).length);
            long compressing = Allocations.bytesPerCall(20, () -> jedis.get(key).length);
            assertTrue(compressing - plain < 64 << 10, "value " + i + ": heap bytes per GET, plain Jedis " + plain
                    + ", CompressingJedis " + compressing);
        }
        byte[] v = b(json(4000));
        assertEquals("OK", jedis.set(b("after"), v));
        assertArrayEquals(v, jedis.get(b("after")));
    }
}
