package dev.zstdjava.values.redisson;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.PatternDecision;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.ValueFormat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.redisson.Redisson;
import org.redisson.api.RBucket;
import org.redisson.api.RMap;
import org.redisson.api.RedissonClient;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.StringCodec;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.testkit.TestValues.random;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link CompressingRedissonCodec#forPattern} on a real server: a codec per object, its values written under the
 * object's name's pattern; Jedis looks at the stored bytes, a fixed codec reads them back.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class AdaptiveRedissonCodecTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    /** Runs {@code test} with a Redisson client of the test server, shut down after it. */
    static void withRedisson(Consumer<RedissonClient> test) {
        withRedisson(redis, test);
    }

    /** Runs {@code test} with a Redisson client of {@code server}, shut down after it. */
    static void withRedisson(JedisServer server, Consumer<RedissonClient> test) {
        RedissonClient redisson = Redisson.create(CompressingRedissonCodecTest.config(server.server().port()));
        try {
            test.accept(redisson);
        } finally {
            redisson.shutdown();
        }
    }

    /** the first 8 writes of a pattern sampled, then none: each pattern decides after exactly 8 writes */
    static AdaptiveCompressor adaptive(CompressionConfig config) {
        return AdaptiveCompressor.builder(config).patterns(List.of("blob:*"))
                .sampling(8, 1 << 30, 1 << 30).window(8, 8).hysteresis(1, 0.01, 0.2).build();
    }

    static PatternDecision decision(AdaptiveCompressor adaptive, String pattern) {
        return adaptive.snapshot().stream().filter(d -> d.pattern().equals(pattern)).findFirst().orElseThrow();
    }

    static byte[] raw(String key) {
        return redis.client().get(key.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void aCodecPerObjectWritesUnderItsNamesPattern() {
        withRedisson(this::writeUnderNamesPattern);
    }

    private void writeUnderNamesPattern(RedissonClient redisson) {
        AdaptiveCompressor adaptive = adaptive(CompressionConfig.defaults());
        CompressingRedissonCodec fixed = new CompressingRedissonCodec(StringCodec.INSTANCE,
                ValueCompressor.create(CompressionConfig.defaults()));
        int n = 12;
        // a folded name: "doc:42" is the pattern "doc:*"
        String docName = "doc:42";
        CompressingRedissonCodec docs = CompressingRedissonCodec.forPattern(StringCodec.INSTANCE, adaptive, docName);
        assertSame(adaptive, docs.adaptive());
        assertSame(adaptive.reader(), docs.compressor());
        assertEquals(docName, docs.pattern());
        RBucket<String> doc = redisson.getBucket(docName, docs);
        // a listed pattern: "blob:7" is "blob:*"
        String blobName = "blob:7";
        RBucket<byte[]> blob = redisson.getBucket(blobName,
                CompressingRedissonCodec.forPattern(ByteArrayCodec.INSTANCE, adaptive, blobName));
        for (int i = 0; i < n; i++) {
            String d = json(1500 + 41 * i);
            doc.set(d);
            assertEquals(d, doc.get());
            assertEquals(d, redisson.<String>getBucket(docName, fixed).get(), "a fixed codec reads it");
            byte[] stored = raw(docName);
            assertTrue(ValueFormat.hasHeader(ByteBuffer.wrap(stored)) && stored.length < d.length(), "compressed");

            byte[] r = random(700 + 13 * i, i);
            blob.set(r);
            assertArrayEquals(r, blob.get());
            if (i >= 8) {
                assertArrayEquals(r, raw(blobName), "stored as it is once the pattern is plain");
            }
        }
        PatternDecision d = decision(adaptive, "doc:*");
        assertEquals(n, d.valuesSeen(), d.toString());
        assertNotEquals(CompressionOption.PLAIN, d.option(), d.toString());
        PatternDecision b = decision(adaptive, "blob:*");
        assertEquals(n, b.valuesSeen(), b.toString());
        assertEquals(CompressionOption.PLAIN, b.option(), b.toString());
    }

    @Test
    void mapValuesFollowTheHashRuleAndTheCopyKeepsTheMode() throws ReflectiveOperationException {
        AdaptiveCompressor adaptive = adaptive(CompressionConfig.builder().compressHashValues(true).build());
        CompressingRedissonCodec codec = CompressingRedissonCodec.forPattern(StringCodec.INSTANCE, adaptive, "carts:9");
        CompressingRedissonCodec copy = new CompressingRedissonCodec(getClass().getClassLoader(), codec);
        assertSame(adaptive, copy.adaptive());
        assertEquals("carts:9", copy.pattern());
        withRedisson(redisson -> mapValues(redisson, adaptive, copy));
    }

    private static void mapValues(RedissonClient redisson, AdaptiveCompressor adaptive, CompressingRedissonCodec copy) {
        RMap<String, String> carts = redisson.getMap("carts:9", copy);
        String v = json(3000);
        carts.put("json:1", v);
        assertEquals(v, carts.get("json:1"));
        byte[] stored = redis.client().hget("carts:9".getBytes(StandardCharsets.UTF_8),
                "json:1".getBytes(StandardCharsets.UTF_8));
        assertTrue(ValueFormat.hasHeader(ByteBuffer.wrap(stored)));
        assertEquals(1, decision(adaptive, "carts:*").valuesSeen(), "by the map's name, not the field");

        // hash values plain by default: not written through the adaptive compressor
        AdaptiveCompressor byDefault = adaptive(CompressionConfig.defaults());
        RMap<String, String> plain = redisson.getMap("plain:1",
                CompressingRedissonCodec.forPattern(StringCodec.INSTANCE, byDefault, "plain:1"));
        plain.put("f", v);
        assertEquals(v, plain.get("f"));
        assertArrayEquals(v.getBytes(StandardCharsets.UTF_8), redis.client().hget(
                "plain:1".getBytes(StandardCharsets.UTF_8), "f".getBytes(StandardCharsets.UTF_8)));
        assertTrue(byDefault.snapshot().stream().allMatch(x -> x.valuesSeen() == 0), byDefault.snapshot().toString());
    }

    /**
     * Every value the codec writes is counted in {@link AdaptiveCompressor#writes}, under exactly one option, as the
     * other adapters count it: values under the minimum size under {@code PLAIN}.
     */
    @Test
    void everyValueWrittenIsCountedUnderOneOption() {
        AdaptiveCompressor adaptive = adaptive(CompressionConfig.defaults());
        withRedisson(redisson -> {
            RBucket<String> bucket = redisson.getBucket("small:1",
                    CompressingRedissonCodec.forPattern(StringCodec.INSTANCE, adaptive, "small:1"));
            bucket.set("tiny");
            assertEquals("tiny", bucket.get());
            String big = json(2000);
            bucket.set(big);
            assertEquals(big, bucket.get());
        });
        long values = 0;
        for (CompressionOption o : CompressionOption.values()) {
            values += adaptive.writes(o).values();
        }
        assertEquals(2, values, "values counted over the options");
        assertEquals(1, adaptive.writes(CompressionOption.PLAIN).values(), "the small value, under PLAIN");
    }
}
