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
    static final LettuceServer redis = new LettuceServer();

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
