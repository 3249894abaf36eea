package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionConfig;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static dev.zstdjava.lettuce.LettuceStandaloneTest.assertLimitError;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * A stored value over the limit inside a streamed reply (a ValueStreamingChannel, a KeyValueStreamingChannel, a
 * reactive Flux): that command fails with DecompressionLimitException, the connection goes on; a plain connection
 * streams the same stored bytes.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class StreamedLimitTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer(CompressingRedisClient::create);

    static byte[] k(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aValueOverTheLimitInAStreamedReplyFailsThatCommandOnly() {
        CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE,
                CompressionConfig.builder().maxDecompressedSize(1 << 20).build());
        try (StatefulRedisConnection<byte[], byte[]> c = redis.client().connect(codec)) {
            byte[] good = TestValues.text(10_000);
            // a length over the limit that its block could decode to: refused before the block is decoded
            byte[] huge = TestValues.lz4Stored((1 << 20) + 1, new byte[5000]);
            byte[] bigFrame = codec.compressor().compress(new byte[1 << 20]); // within the limit
            byte[] overFrame = CompressingCodec.wrap(ByteArrayCodec.INSTANCE, CompressionConfig.defaults())
                    .compressor().compress(new byte[2 << 20]); // a real frame over the limit
            assertEquals("OK", c.sync().set(k("g"), good));
            redis.raw().sync().rpush(k("list"), redis.raw().sync().get(k("g")), huge, overFrame, bigFrame);
            redis.raw().sync().hset(k("hash"), k("f1"), huge);
            redis.raw().sync().hset(k("hash"), k("f2"), overFrame);
            for (int round = 0; round < 2; round++) {
                List<byte[]> seen = new ArrayList<>();
                assertLimitError(assertThrows(RuntimeException.class,
                        () -> c.sync().lrange(seen::add, k("list"), 0, -1)));
                assertLimitError(assertThrows(RuntimeException.class,
                        () -> c.sync().hgetall((key, value) -> { }, k("hash"))));
                assertLimitError(assertThrows(RuntimeException.class,
                        () -> c.reactive().lrange(k("list"), 0, -1).collectList().block()));
                assertEquals("PONG", c.sync().ping());
                assertArrayEquals(good, c.sync().get(k("g")));
            }
            List<byte[]> plain = new ArrayList<>();
            assertEquals(4L, redis.raw().sync().lrange(plain::add, k("list"), 0, -1));
            assertArrayEquals(huge, plain.get(1));
            assertArrayEquals(overFrame, plain.get(2));
        }
    }
}
