package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.CompressionBackend;
import glide.api.GlideClient;
import glide.api.models.GlideString;
import glide.api.models.configuration.CompressionConfiguration;
import glide.api.models.configuration.GlideClientConfiguration;
import glide.api.models.configuration.NodeAddress;
import io.lettuce.core.api.StatefulRedisConnection;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Interop with the Java GLIDE client ({@code io.valkey:valkey-glide} from Maven Central, linux-x86_64 natives) in
 * the same JVM: GLIDE writes and this codec reads, and the reverse.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class JavaGlideInteropTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer(CompressingRedisClient::create);

    static GlideClient glide(CompressionBackend backend) throws Exception {
        glide.api.models.configuration.CompressionBackend b = backend == CompressionBackend.ZSTD
                ? glide.api.models.configuration.CompressionBackend.ZSTD
                : glide.api.models.configuration.CompressionBackend.LZ4;
        return GlideClient.createClient(GlideClientConfiguration.builder()
                .address(NodeAddress.builder().host(RedisServer.HOST).port(redis.server().port()).build())
                .requestTimeout(10_000)
                .compressionConfiguration(CompressionConfiguration.builder().enabled(true).backend(b).build())
                .build()).get(30, TimeUnit.SECONDS);
    }

    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void bothDirections(CompressionBackend backend) throws Exception {
        Map<String, byte[]> values = GlideInteropTest.values("java-" + backend);
        CompressingCodec<byte[], byte[]> codec = GlideInteropTest.codec(backend);
        try (GlideClient g = glide(backend);
             StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec)) {
            // GLIDE writes, the codec reads
            for (Map.Entry<String, byte[]> e : values.entrySet()) {
                assertEquals("OK", g.set(GlideString.of("g:" + e.getKey()), GlideString.of(e.getValue())).get(10, TimeUnit.SECONDS));
            }
            int compressed = 0;
            for (Map.Entry<String, byte[]> e : values.entrySet()) {
                byte[] k = GlideInteropTest.key("g:" + e.getKey());
                byte[] stored = redis.raw().sync().get(k);
                if (!Arrays.equals(stored, e.getValue())) {
                    compressed++;
                    assertArrayEquals(new byte[] {0, 1, 2, 0, backend.id()}, Arrays.copyOf(stored, 5), e.getKey());
                }
                assertArrayEquals(e.getValue(), conn.sync().get(k), e.getKey());
            }
            assertTrue(compressed >= 20, "GLIDE compressed " + compressed + " values");
            // the codec writes, GLIDE reads
            for (Map.Entry<String, byte[]> e : values.entrySet()) {
                conn.sync().set(GlideInteropTest.key("l:" + e.getKey()), e.getValue());
            }
            for (Map.Entry<String, byte[]> e : values.entrySet()) {
                GlideString got = g.get(GlideString.of("l:" + e.getKey())).get(10, TimeUnit.SECONDS);
                assertArrayEquals(e.getValue(), got.getBytes(), e.getKey());
            }
        }
    }

    static boolean compressed(byte[] stored, CompressionBackend backend) {
        return stored != null && stored.length > 5 && stored[0] == 0 && stored[1] == 1 && stored[2] == 2
                && stored[4] == backend.id();
    }

    /**
     * Every command of the default scope that Lettuce writes (SET, SET with options, SETNX, SETEX, PSETEX, MSET,
     * MSETNX, and GETSET, whose value is plain) reads back through GLIDE: GET outside a batch, MGET, and GET inside a
     * pipeline and a transaction.
     */
    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void glideReadsEveryCommandOfTheScopeWeWrite(CompressionBackend backend) throws Exception {
        CompressingCodec<String, String> codec = CompressingCodec.wrap(io.lettuce.core.codec.StringCodec.UTF8,
                dev.zstdjava.values.CompressionConfig.builder().backend(backend).build());
        String v = dev.zstdjava.testkit.TestValues.json(1200);
        Map<String, String> expected = new java.util.LinkedHashMap<>();
        try (GlideClient g = glide(backend);
             StatefulRedisConnection<String, String> conn = redis.client().connect(codec)) {
            var s = conn.sync();
            s.set("set", v + 1);
            s.set("setargs", v + 2, io.lettuce.core.SetArgs.Builder.ex(100).nx());
            s.setnx("setnx", v + 3);
            s.setex("setex", 100, v + 4);
            s.psetex("psetex", 100_000, v + 5);
            s.mset(Map.of("mset1", v + 6, "mset2", v + 7));
            s.msetnx(Map.of("msetnx1", v + 8, "msetnx2", v + 9));
            s.set("getset", "old");
            s.getset("getset", v + 10);
            List.of("set", "setargs", "setnx", "setex", "psetex", "mset1", "mset2", "msetnx1", "msetnx2", "getset")
                    .forEach(k -> expected.put(k, v + (expected.size() + 1)));
            for (Map.Entry<String, String> e : expected.entrySet()) {
                byte[] stored = redis.raw().sync().get(e.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                assertEquals(!e.getKey().equals("getset"), compressed(stored, backend), e.getKey());
                assertEquals(e.getValue(), g.get(e.getKey()).get(10, TimeUnit.SECONDS), e.getKey());
            }
            String[] keys = expected.keySet().toArray(String[]::new);
            assertEquals(List.copyOf(expected.values()), Arrays.asList(g.mget(keys).get(10, TimeUnit.SECONDS)));
            for (boolean atomic : new boolean[] {false, true}) {
                glide.api.models.Batch batch = new glide.api.models.Batch(atomic);
                for (String k : keys) {
                    batch.get(k);
                }
                Object[] got = g.exec(batch, true).get(10, TimeUnit.SECONDS);
                assertEquals(List.copyOf(expected.values()), Arrays.asList(got), "batch, atomic=" + atomic);
            }
        }
    }

    /** Every write of the default scope that GLIDE's API offers, outside and inside batches, reads back here. */
    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void weReadEveryCommandOfTheScopeGlideWrites(CompressionBackend backend) throws Exception {
        CompressingCodec<String, String> codec = CompressingCodec.wrap(io.lettuce.core.codec.StringCodec.UTF8,
                dev.zstdjava.values.CompressionConfig.defaults());
        String v = dev.zstdjava.testkit.TestValues.json(1200);
        Map<String, String> expected = new java.util.LinkedHashMap<>();
        try (GlideClient g = glide(backend);
             StatefulRedisConnection<String, String> conn = redis.client().connect(codec)) {
            expected.put("g:set", v + 1);
            g.set("g:set", v + 1).get(10, TimeUnit.SECONDS);
            expected.put("g:setopts", v + 2);
            g.set("g:setopts", v + 2, glide.api.models.commands.SetOptions.builder().conditionalSetOnlyIfNotExist()
                    .expiry(glide.api.models.commands.SetOptions.Expiry.Seconds(100L)).build()).get(10, TimeUnit.SECONDS);
            expected.put("g:mset1", v + 3);
            expected.put("g:mset2", v + 4);
            g.mset(Map.of("g:mset1", v + 3, "g:mset2", v + 4)).get(10, TimeUnit.SECONDS);
            expected.put("g:msetnx", v + 5);
            assertTrue(g.msetnx(Map.of("g:msetnx", v + 5)).get(10, TimeUnit.SECONDS));
            for (boolean atomic : new boolean[] {false, true}) {
                String p = "g:batch" + atomic + ":";
                glide.api.models.Batch batch = new glide.api.models.Batch(atomic)
                        .set(p + "set", v + 6).mset(Map.of(p + "mset", v + 7));
                expected.put(p + "set", v + 6);
                expected.put(p + "mset", v + 7);
                g.exec(batch, true).get(10, TimeUnit.SECONDS);
            }
            for (Map.Entry<String, String> e : expected.entrySet()) {
                byte[] stored = redis.raw().sync().get(e.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8));
                assertTrue(compressed(stored, backend), "GLIDE compressed " + e.getKey());
                assertEquals(e.getValue(), conn.sync().get(e.getKey()), e.getKey());
            }
            List<io.lettuce.core.KeyValue<String, String>> all = conn.sync().mget(expected.keySet().toArray(String[]::new));
            assertEquals(List.copyOf(expected.values()), all.stream().map(io.lettuce.core.KeyValue::getValue).toList());
        }
    }

    /**
     * Hash values opted in: they round-trip through this client; GLIDE returns them as stored (compressed) from HGET
     * outside a batch, and decompressed inside a batch (where it decodes every reply that carries the header).
     */
    @org.junit.jupiter.api.Test
    void optedInHashValuesSeenByGlide() throws Exception {
        CompressingCodec<String, String> codec = CompressingCodec.wrap(io.lettuce.core.codec.StringCodec.UTF8,
                dev.zstdjava.values.CompressionConfig.builder().compressHashValues(true).build());
        String v = dev.zstdjava.testkit.TestValues.json(1200);
        try (GlideClient g = glide(CompressionBackend.ZSTD);
             StatefulRedisConnection<String, String> conn = redis.client().connect(codec)) {
            conn.sync().hset("h", Map.of("a", v, "b", "short"));
            assertEquals(v, conn.sync().hget("h", "a"));
            byte[] stored = redis.raw().sync().hget("h".getBytes(), "a".getBytes());
            assertTrue(compressed(stored, CompressionBackend.ZSTD));
            GlideString outside = g.hget(GlideString.of("h"), GlideString.of("a")).get(10, TimeUnit.SECONDS);
            assertArrayEquals(stored, outside.getBytes(), "GLIDE's HGET outside a batch returns the stored bytes");
            assertEquals("short", g.hget("h", "b").get(10, TimeUnit.SECONDS));
            for (boolean atomic : new boolean[] {false, true}) {
                Object[] got = g.exec(new glide.api.models.Batch(atomic).hget("h", "a"), true)
                        .get(10, TimeUnit.SECONDS);
                assertEquals(v, got[0], "GLIDE's HGET inside a batch, atomic=" + atomic);
            }
        }
    }

    /** The Java GLIDE client, like the Python one, returns a dictionary-compressed value as its stored bytes. */
    @org.junit.jupiter.api.Test
    void glideReturnsDictionaryCompressedValuesAsStoredBytes() throws Exception {
        Map<String, byte[]> stored = new java.util.LinkedHashMap<>();
        Map<String, byte[]> values = GlideInteropTest.dictionaryValues("java-dict", stored);
        stored.forEach((k, v) -> redis.raw().sync().set(GlideInteropTest.key(k), v));
        try (GlideClient g = glide(CompressionBackend.ZSTD)) {
            for (String k : values.keySet()) {
                GlideString got = g.get(GlideString.of(k)).get(10, TimeUnit.SECONDS);
                assertArrayEquals(stored.get(k), got.getBytes(), k);
            }
            // the client keeps working
            byte[] v = GlideInteropTest.key("after ".repeat(40));
            assertEquals("OK", g.set(GlideString.of("after"), GlideString.of(v)).get(10, TimeUnit.SECONDS));
            assertArrayEquals(v, g.get(GlideString.of("after")).get(10, TimeUnit.SECONDS).getBytes());
        }
    }
}
