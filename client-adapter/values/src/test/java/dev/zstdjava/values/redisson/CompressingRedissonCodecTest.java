package dev.zstdjava.values.redisson;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.ValueFormat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.redisson.Redisson;
import org.redisson.api.RBucket;
import org.redisson.api.RMap;
import org.redisson.api.RedissonClient;
import org.redisson.client.RedisException;
import org.redisson.client.codec.ByteArrayCodec;
import org.redisson.client.codec.Codec;
import org.redisson.client.codec.StringCodec;
import org.redisson.codec.LZ4Codec;
import org.redisson.config.Config;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.testkit.TestValues.random;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/** Redisson (the build's line) on a real server with the compressing codec; Jedis looks at the stored bytes. */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingRedissonCodecTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    static RedissonClient redisson;

    @BeforeAll
    static void start() {
        redisson = Redisson.create(config());
    }

    static Config config() {
        return config(redis.server().port());
    }

    /** @return a small single-server configuration for the test server on {@code port} */
    static Config config(int port) {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + RedisServer.HOST + ":" + port)
                .setConnectionMinimumIdleSize(1).setConnectionPoolSize(2)
                .setSubscriptionConnectionMinimumIdleSize(0).setSubscriptionConnectionPoolSize(1);
        return config;
    }

    @AfterAll
    static void stop() {
        if (redisson != null) {
            redisson.shutdown();
        }
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void bucketsAndMapValuesCompressMapKeysDoNot() {
        // map values are hash values: compressed when opted in (see mapValuesArePlainByDefault)
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().compressHashValues(true).build());
        CompressingRedissonCodec codec = new CompressingRedissonCodec(StringCodec.INSTANCE, vc);
        String big = json(5000);
        RBucket<String> bucket = redisson.getBucket("r:big", codec);
        bucket.set(big);
        redisson.<String>getBucket("r:small", codec).set("tiny");
        assertEquals(big, bucket.get());
        assertEquals("tiny", redisson.<String>getBucket("r:small", codec).get());
        assertNull(redisson.<String>getBucket("r:missing", codec).get());
        byte[] stored = redis.client().get(b("r:big"));
        assertTrue(ValueFormat.hasHeader(ByteBuffer.wrap(stored)));
        assertTrue(stored.length < big.length() / 3, "stored " + stored.length);
        assertArrayEquals(b(big), vc.decompress(stored));
        assertArrayEquals(b("tiny"), redis.client().get(b("r:small")));

        RMap<String, String> map = redisson.getMap("r:map", codec);
        map.put("field-one", big);
        map.put("field-two", "small");
        assertEquals(big, map.get("field-one"));
        assertEquals(Map.of("field-one", big, "field-two", "small"), map.readAllMap());
        // field names are stored as the inner codec wrote them, values compressed
        assertArrayEquals(b(big), vc.decompress(redis.client().hget(b("r:map"), b("field-one"))));
        assertTrue(ValueFormat.hasHeader(ByteBuffer.wrap(redis.client().hget(b("r:map"), b("field-one")))));
        assertArrayEquals(b("small"), redis.client().hget(b("r:map"), b("field-two")));
        assertEquals(2, vc.stats().valuesCompressed());
        assertSame(StringCodec.INSTANCE.getMapKeyEncoder(), codec.getMapKeyEncoder());
        assertSame(StringCodec.INSTANCE.getMapKeyDecoder(), codec.getMapKeyDecoder());
    }

    @Test
    void mapValuesArePlainByDefault() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults());
        CompressingRedissonCodec codec = new CompressingRedissonCodec(StringCodec.INSTANCE, vc);
        String big = json(5000);
        RMap<String, String> map = redisson.getMap("r:plainmap", codec);
        map.put("f", big);
        assertArrayEquals(b(big), redis.client().hget(b("r:plainmap"), b("f")), "stored as the wrapped codec wrote it");
        assertEquals(big, map.get("f"));
        // still read when compressed by another writer (or an earlier build)
        redis.client().hset(b("r:plainmap"), b("g"), vc.compress(b(big)));
        assertEquals(big, map.get("g"));
        redisson.<String>getBucket("r:plainbucket", codec).set(big);
        assertTrue(ValueFormat.hasHeader(ByteBuffer.wrap(redis.client().get(b("r:plainbucket")))), "buckets are");
        assertEquals(2, vc.stats().valuesCompressed(), "the bucket, and the value compressed by hand");
    }

    @Test
    void byteArraysAndIncompressibleValues() {
        ValueCompressor vc = ValueCompressor.create(CompressionConfig.builder().backend(CompressionBackend.LZ4).build());
        CompressingRedissonCodec codec = new CompressingRedissonCodec(ByteArrayCodec.INSTANCE, vc);
        byte[] value = text(20_000);
        byte[] rnd = random(3000, 3);
        redisson.<byte[]>getBucket("r:bytes", codec).set(value);
        redisson.<byte[]>getBucket("r:random", codec).set(rnd);
        assertArrayEquals(value, redisson.<byte[]>getBucket("r:bytes", codec).get());
        assertArrayEquals(rnd, redisson.<byte[]>getBucket("r:random", codec).get());
        assertEquals(2, redis.client().get(b("r:bytes"))[4], "lz4 backend id");
        assertArrayEquals(rnd, redis.client().get(b("r:random")), "not smaller: stored as it is");
    }

    @Test
    void plainValuesWrittenBeforeReadBack() {
        CompressingRedissonCodec codec = new CompressingRedissonCodec(StringCodec.INSTANCE, CompressionConfig.defaults());
        String v = new String(text(4000), StandardCharsets.US_ASCII);
        redis.client().set(b("r:old"), b(v));
        redis.client().hset(b("r:oldmap"), b("f"), b(v));
        assertEquals(v, redisson.<String>getBucket("r:old", codec).get());
        assertEquals(v, redisson.<String, String>getMap("r:oldmap", codec).get("f"));
    }

    @Test
    void valuesOverTheLimitFailWithDecompressionLimitException() {
        ValueCompressor limited = ValueCompressor.create(CompressionConfig.builder().maxDecompressedSize(10_000).build());
        CompressingRedissonCodec codec = new CompressingRedissonCodec(StringCodec.INSTANCE, limited);
        redis.client().set(b("r:huge"), ValueCompressor.create(CompressionConfig.defaults()).compress(text(50_000)));
        RBucket<String> bucket = redisson.getBucket("r:huge", codec);
        // Redisson wraps whatever a decoder throws in its RedisException; the cause is ours
        RedisException e = assertThrows(RedisException.class, bucket::get);
        assertInstanceOf(DecompressionLimitException.class, e.getCause(), e.toString());
        redisson.<String>getBucket("r:ok", codec).set(json(5000));
        assertEquals(json(5000), redisson.<String>getBucket("r:ok", codec).get(), "the connection stays usable");
        assertEquals(1, limited.stats().sizeLimitErrors());
    }

    /**
     * Redisson's own compressing codecs write a private framing (a length prefix, then their frame) that no other
     * client reads: wrapped, they would go on writing it, the compressing codec storing their output as it is (it
     * does not get smaller). Side by side on the server: what the wrapped LZ4Codec stored is not the value for a
     * reader of the shared format, what the wrapped StringCodec stored is. So they are refused, naming the codec, on
     * every constructor and in the adaptive mode; a subclass too.
     */
    @Test
    void redissonsOwnCompressingCodecsAreRefusedAsTheWrappedCodec() throws ReflectiveOperationException {
        String v = json(3000);
        ValueCompressor reader = ValueCompressor.create(CompressionConfig.defaults());
        redisson.<String>getBucket("r:lz4codec", new LZ4Codec(StringCodec.INSTANCE)).set(v);
        assertFalse(java.util.Arrays.equals(b(v), reader.decompress(redis.client().get(b("r:lz4codec")))),
                "Redisson's LZ4Codec stores what a reader of the shared format does not read as the value");
        redisson.<String>getBucket("r:plaincodec", new CompressingRedissonCodec(StringCodec.INSTANCE,
                CompressionConfig.defaults())).set(v);
        assertArrayEquals(b(v), reader.decompress(redis.client().get(b("r:plaincodec"))));

        List<Codec> own = new ArrayList<>(List.of(new LZ4Codec(StringCodec.INSTANCE),
                new LZ4Codec(StringCodec.INSTANCE) { }));
        try { // newer than the oldest Redisson line
            own.add((Codec) Class.forName("org.redisson.codec.ZStdCodec").getConstructor(Codec.class)
                    .newInstance(StringCodec.INSTANCE));
        } catch (ClassNotFoundException absent) {
            assertEquals("3.20.0", org.redisson.Version.class.getPackage().getImplementationVersion());
        }
        AdaptiveCompressor adaptive = AdaptiveCompressor.builder(CompressionConfig.defaults()).build();
        for (Codec codec : own) {
            String name = codec.getClass().getName();
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new CompressingRedissonCodec(codec, CompressionConfig.defaults()), name);
            assertTrue(e.getMessage().contains("Redisson's own compressing codec")
                    && e.getMessage().contains("readLegacy"), e.getMessage());
            assertThrows(IllegalArgumentException.class,
                    () -> new CompressingRedissonCodec(codec, ValueCompressor.create(CompressionConfig.defaults())),
                    name);
            assertThrows(IllegalArgumentException.class,
                    () -> CompressingRedissonCodec.forPattern(codec, adaptive, "r:*"), name);
        }
    }

    @Test
    void copyForAnotherClassLoaderSharesTheCompressor() throws Exception {
        CompressingRedissonCodec codec = new CompressingRedissonCodec(StringCodec.INSTANCE, CompressionConfig.defaults());
        CompressingRedissonCodec copy = org.redisson.client.codec.BaseCodec.copy(getClass().getClassLoader(), codec);
        assertNotSame(codec, copy);
        assertSame(codec.compressor(), copy.compressor());
    }

    /**
     * Redisson copies a codec for the calling thread's class loader on every command, keyed by the codec (at most 200
     * per class loader): codecs made again for the same object, a {@code forPattern} per call as the docs show, are
     * equal, so Redisson copies them (and the wrapped codec) once, not once per codec made.
     */
    @Test
    void codecsMadeAgainForOneObjectShareRedissonsCopy() {
        AdaptiveCompressor adaptive = AdaptiveCompressor.builder(CompressionConfig.defaults()).build();
        ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults());
        CopyCountingCodec inner = new CopyCountingCodec();
        String value = json(2000);
        int before = CopyCountingCodec.COPIES.get();
        for (int i = 0; i < 20; i++) {
            RBucket<String> adaptiveBucket = redisson.getBucket("copies:adaptive:" + i,
                    CompressingRedissonCodec.forPattern(inner, adaptive, "copies:adaptive:*"));
            adaptiveBucket.set(value);
            assertEquals(value, adaptiveBucket.get());
            RBucket<String> fixedBucket = redisson.getBucket("copies:fixed", new CompressingRedissonCodec(inner, values));
            fixedBucket.set(value);
            assertEquals(value, fixedBucket.get());
        }
        assertTrue(ValueFormat.hasHeader(ByteBuffer.wrap(redis.client().get(b("copies:fixed")))), "stored compressed");
        assertEquals(2, CopyCountingCodec.COPIES.get() - before,
                "copies of the wrapped codec Redisson made: one per distinct codec, not one per codec made");
    }

    @Test
    void equalCodecsWriteAlike() {
        AdaptiveCompressor adaptive = AdaptiveCompressor.builder(CompressionConfig.defaults()).build();
        ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults());
        CompressingRedissonCodec a = CompressingRedissonCodec.forPattern(StringCodec.INSTANCE, adaptive, "user:*");
        CompressingRedissonCodec same = CompressingRedissonCodec.forPattern(StringCodec.INSTANCE, adaptive, "user:*");
        assertEquals(a, same);
        assertEquals(a.hashCode(), same.hashCode());
        assertNotEquals(a, CompressingRedissonCodec.forPattern(StringCodec.INSTANCE, adaptive, "order:*"), "another name");
        assertNotEquals(a, CompressingRedissonCodec.forPattern(ByteArrayCodec.INSTANCE, adaptive, "user:*"),
                "another wrapped codec");
        assertNotEquals(a, CompressingRedissonCodec.forPattern(StringCodec.INSTANCE,
                AdaptiveCompressor.builder(CompressionConfig.defaults()).build(), "user:*"), "another adaptive compressor");
        assertNotEquals(a, new CompressingRedissonCodec(StringCodec.INSTANCE, adaptive.reader()), "the fixed mode");
        CompressingRedissonCodec fixed = new CompressingRedissonCodec(StringCodec.INSTANCE, values);
        assertEquals(fixed, new CompressingRedissonCodec(StringCodec.INSTANCE, values), "the same compressor");
        assertNotEquals(fixed, new CompressingRedissonCodec(StringCodec.INSTANCE, CompressionConfig.defaults()),
                "another compressor: other counters");
    }

    /**
     * A Redisson configuration file that names this codec's class cannot make it (it has no constructor without
     * arguments): loading the file fails naming the class, rather than giving a client that runs uncompressed.
     */
    @Test
    void aConfigFileNamingTheCodecFailsToLoadNamingIt() {
        String yaml = "singleServerConfig:\n  address: \"redis://127.0.0.1:6379\"\n"
                + "codec: !<" + CompressingRedissonCodec.class.getName() + "> {}\n";
        Exception e = assertThrows(Exception.class, () -> Config.fromYAML(yaml));
        assertTrue(String.valueOf(e.getMessage()).contains(CompressingRedissonCodec.class.getName()), e::toString);
    }
}
