package dev.zstdjava.values.redisson;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.api.BatchResult;
import org.redisson.api.RBatch;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.Codec;
import org.redisson.client.codec.StringCodec;
import org.redisson.client.protocol.Decoder;
import org.redisson.client.protocol.Encoder;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;

import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link CompressingRedissonCodec} side by side with the codec it wraps, on a real server, in both modes with map
 * values compressed: empty values, null values, buckets read and written together, batches, and the failures of the
 * wrapped codec's encoder and decoder reach the caller as they do without compression.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingRedissonCodecContractTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    enum Mode {
        FIXED, ADAPTIVE;

        Codec wrap(Codec inner) {
            CompressionConfig config = CompressionConfig.builder().compressHashValues(true).build();
            return this == FIXED ? new CompressingRedissonCodec(inner, config)
                    : CompressingRedissonCodec.forPattern(inner, AdaptiveCompressor.builder(config).build(), "c:*");
        }
    }

    /** Runs {@code op} with the plain codec on keys under {@code p:} and the compressing one under {@code c:}. */
    static <T> void same(String what, Codec plain, Codec wrapped, BiFunction<Codec, String, T> op) {
        Object expected;
        try {
            expected = op.apply(plain, "p:");
        } catch (RuntimeException e) {
            RuntimeException got = assertThrows(RuntimeException.class, () -> op.apply(wrapped, "c:"), what);
            assertEquals(e.getClass(), got.getClass(), () -> what + ": " + got + ", where the plain codec threw " + e);
            assertEquals(String.valueOf(e.getCause()), String.valueOf(got.getCause()), what + ": the cause");
            return;
        }
        assertEquals(expected, op.apply(wrapped, "c:"), what);
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void valuesReadAndFailAsWithTheWrappedCodec(Mode mode) {
        AdaptiveRedissonCodecTest.withRedisson(redis, redisson -> sideBySide(redisson, mode));
    }

    private static void sideBySide(RedissonClient redisson, Mode mode) {
        Codec plain = StringCodec.INSTANCE;
        Codec wrapped = mode.wrap(plain);
        String big = json(3000);
        same("an empty bucket value", plain, wrapped, (c, k) -> {
            redisson.<String>getBucket(k + "empty", c).set("");
            return redisson.<String>getBucket(k + "empty", c).get();
        });
        same("a missing bucket", plain, wrapped, (c, k) -> redisson.<String>getBucket(k + "none", c).get());
        same("a null bucket value (deletes)", plain, wrapped, (c, k) -> {
            redisson.<String>getBucket(k + "gone", c).set(big);
            redisson.<String>getBucket(k + "gone", c).set(null);
            return redisson.<String>getBucket(k + "gone", c).isExists();
        });
        same("an empty map value", plain, wrapped, (c, k) -> {
            redisson.<String, String>getMap(k + "map", c).put("e", "");
            return redisson.<String, String>getMap(k + "map", c).get("e");
        });
        same("a null map value", plain, wrapped, (c, k) -> redisson.<String, String>getMap(k + "map", c).put("n", null));
        same("buckets written and read together", plain, wrapped, (c, k) -> {
            Map<String, Object> values = new LinkedHashMap<>();
            values.put(k + "b1", big);
            values.put(k + "b2", "");
            redisson.getBuckets(c).set(values);
            Map<String, Object> back = redisson.getBuckets(c).get(k + "b1", k + "b2", k + "b3");
            return back.get(k + "b1").equals(big) + " " + back.get(k + "b2") + " " + back.size();
        });
        same("a batch", plain, wrapped, (c, k) -> {
            RBatch batch = redisson.createBatch();
            batch.<String>getBucket(k + "batch", c).setAsync(big);
            batch.<String>getBucket(k + "batch", c).getAsync();
            batch.<String, String>getMap(k + "bmap", c).fastPutAsync("f", big);
            batch.<String, String>getMap(k + "bmap", c).getAsync("f");
            BatchResult<?> r = batch.execute();
            List<Object> out = new ArrayList<>(r.getResponses());
            out.add(redisson.<String>getBucket(k + "batch", c).get());
            return out;
        });

        // the wrapped codec's failures: encoding (on the calling thread) and decoding (on Redisson's threads)
        Codec failing = new StringCodec() {
            @Override
            public Encoder getValueEncoder() {
                return in -> {
                    throw new IllegalStateException("the wrapped encoder failed on " + in);
                };
            }

            @Override
            public Decoder<Object> getValueDecoder() {
                return (ByteBuf buf, org.redisson.client.handler.State state) -> {
                    throw new IllegalStateException("the wrapped decoder failed");
                };
            }
        };
        Codec failingWrapped = mode.wrap(failing);
        same("the wrapped encoder failing", failing, failingWrapped,
                (c, k) -> {
                    redisson.<String>getBucket(k + "enc", c).set("x");
                    return null;
                });
        redis.client().set(CompressingRedissonCodecTest.b("p:dec"), CompressingRedissonCodecTest.b(big));
        redis.client().set(CompressingRedissonCodecTest.b("c:dec"), CompressingRedissonCodecTest.b(big));
        same("the wrapped decoder failing", failing, failingWrapped, (c, k) -> redisson.<String>getBucket(k + "dec", c)
                .get());
        assertEquals(big, redisson.<String>getBucket("c:dec", wrapped).get(), "the connection stays usable");
    }
}
