package dev.zstdjava.interop;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.lettuce.CompressingRedisClient;
import dev.zstdjava.testkit.GlideScript;
import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.jedis.CompressingJedis;
import dev.zstdjava.values.redisson.CompressingRedissonCodec;
import dev.zstdjava.values.spring.CompressingRedisTemplate;
import glide.api.GlideClient;
import glide.api.models.GlideString;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.redisson.api.RedissonClient;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;
import redis.clients.jedis.UnifiedJedis;

import java.io.DataInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import static dev.zstdjava.testkit.TestValues.concat;
import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.testkit.TestValues.lz4Stored;
import static dev.zstdjava.testkit.TestValues.random;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Every supported client reads what every other writes, on one real server, for both backends: Lettuce
 * ({@code CompressingRedisClient}), Spring Data Redis over Lettuce and over Jedis ({@code CompressingRedisTemplate}),
 * Redisson ({@code CompressingRedissonCodec}), Jedis ({@code CompressingJedis}) and the real GLIDE clients (Java in
 * this JVM, Python through the Lettuce module's {@code src/test/python/glide_interop.py}) with their own compression; plus values written
 * without compression before it was turned on, and values over the decompression limit. Line-neutral: it uses only
 * what every supported client line has, so {@code client-adapter/interop-lines} runs it again on the oldest lines.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CrossClientMatrixTest {
    /** The decompression limit the clients of this library read with in this test. */
    static final long LIMIT = 100_000;
    /**
     * The Lettuce module's GLIDE driver script, whose read-each mode records per-key errors (found from the
     * repository root, so that interop-lines runs this class from its own module directory too).
     */
    static final Path SCRIPT = Path.of(System.getProperty("zstdjava.testdata"))
            .resolveSibling("client-adapter/lettuce/src/test/python/glide_interop.py").toAbsolutePath();

    enum Kind { LETTUCE, SPRING_LETTUCE, SPRING_JEDIS, REDISSON, JEDIS, GLIDE_JAVA, GLIDE_PYTHON }

    /** What a read gave: a value (null for a missing key) or the failure. */
    record Outcome(byte[] value, Throwable error, String errorText) {
        static Outcome of(byte[] v) {
            return new Outcome(v, null, null);
        }

        static Outcome failed(Throwable e) {
            return new Outcome(null, e, e.toString());
        }
    }

    /** One client of the server with compression configured, writing and reading byte values by string key. */
    interface Client {
        void write(Map<String, byte[]> values) throws Exception;

        Map<String, Outcome> read(List<String> keys) throws Exception;
    }

    /** A client that sends one command per value. */
    interface SimpleClient extends Client {
        void set(String key, byte[] value) throws Exception;

        byte[] get(String key) throws Exception;

        @Override
        default void write(Map<String, byte[]> values) throws Exception {
            for (Map.Entry<String, byte[]> e : values.entrySet()) {
                set(e.getKey(), e.getValue());
            }
        }

        @Override
        default Map<String, Outcome> read(List<String> keys) {
            Map<String, Outcome> out = new LinkedHashMap<>();
            for (String k : keys) {
                try {
                    out.put(k, Outcome.of(get(k)));
                } catch (ExecutionException e) {
                    out.put(k, Outcome.failed(e.getCause()));
                } catch (Exception e) {
                    out.put(k, Outcome.failed(e));
                }
            }
            return out;
        }
    }

    static RedisServer server;
    static UnifiedJedis jedis;
    static CompressingRedisClient lettuce;
    static RedissonClient redisson;
    static final Map<Kind, RedisConnectionFactory> SPRING = new EnumMap<>(Kind.class);
    static final List<AutoCloseable> CLOSE = new ArrayList<>();
    static final Map<String, Client> CLIENTS = new LinkedHashMap<>();

    @TempDir
    static Path tmp;

    @BeforeAll
    static void start() {
        assertTrue(Files.isRegularFile(SCRIPT), "missing " + SCRIPT);
        server = RedisServer.start();
        // a pooled UnifiedJedis, which every supported Jedis line can build (6.0 has no RedisClient)
        jedis = JedisServer.pooled(server);
        lettuce = CompressingRedisClient.create(RedisURI.create(RedisServer.HOST, server.port()));
        redisson = TestClients.redisson(server);
        RedisStandaloneConfiguration conf = new RedisStandaloneConfiguration(RedisServer.HOST, server.port());
        LettuceConnectionFactory lf = new LettuceConnectionFactory(conf);
        lf.afterPropertiesSet();
        lf.start();
        SPRING.put(Kind.SPRING_LETTUCE, lf);
        JedisConnectionFactory jf = new JedisConnectionFactory(conf);
        jf.afterPropertiesSet();
        jf.start();
        SPRING.put(Kind.SPRING_JEDIS, jf);
    }

    @AfterAll
    static void stop() throws Exception {
        for (AutoCloseable c : CLOSE) {
            c.close();
        }
        for (RedisConnectionFactory f : SPRING.values()) {
            ((DisposableBean) f).destroy();
        }
        if (redisson != null) {
            redisson.shutdown();
        }
        if (lettuce != null) {
            lettuce.shutdown(0, 2, TimeUnit.SECONDS);
        }
        if (jedis != null) {
            jedis.close();
        }
        if (server != null) {
            server.close();
        }
    }

    static CompressionConfig config(CompressionBackend backend) {
        return CompressionConfig.builder().backend(backend).maxDecompressedSize(LIMIT).build();
    }

    /** @return the client of this kind writing {@code backend}, opened once per test class */
    static Client client(Kind kind, CompressionBackend backend) {
        return CLIENTS.computeIfAbsent(kind + ":" + backend, k -> {
            try {
                return open(kind, backend);
            } catch (Exception e) {
                throw new IllegalStateException("cannot open " + k, e);
            }
        });
    }

    static Client open(Kind kind, CompressionBackend backend) throws Exception {
        CompressionConfig config = config(backend);
        switch (kind) {
            case LETTUCE -> {
                StatefulRedisConnection<byte[], byte[]> c =
                        lettuce.connect(ByteArrayCodec.INSTANCE, ValueCompressor.create(config));
                CLOSE.add(c::close);
                return new SimpleClient() {
                    public void set(String key, byte[] value) {
                        c.sync().set(b(key), value);
                    }

                    public byte[] get(String key) {
                        return c.sync().get(b(key));
                    }
                };
            }
            case SPRING_LETTUCE, SPRING_JEDIS -> {
                RedisTemplate<String, byte[]> t = CompressingRedisTemplate.create(SPRING.get(kind),
                        RedisSerializer.byteArray(), ValueCompressor.create(config));
                return new SimpleClient() {
                    public void set(String key, byte[] value) {
                        t.opsForValue().set(key, value);
                    }

                    public byte[] get(String key) {
                        return t.opsForValue().get(key);
                    }
                };
            }
            case REDISSON -> {
                CompressingRedissonCodec codec = new CompressingRedissonCodec(
                        org.redisson.client.codec.ByteArrayCodec.INSTANCE, config);
                return new SimpleClient() {
                    public void set(String key, byte[] value) {
                        redisson.<byte[]>getBucket(key, codec).set(value);
                    }

                    public byte[] get(String key) {
                        return redisson.<byte[]>getBucket(key, codec).get();
                    }
                };
            }
            case JEDIS -> {
                CompressingJedis j = new CompressingJedis(jedis, ValueCompressor.create(config));
                return new SimpleClient() {
                    public void set(String key, byte[] value) {
                        j.set(b(key), value);
                    }

                    public byte[] get(String key) {
                        return j.get(b(key));
                    }
                };
            }
            case GLIDE_JAVA -> {
                GlideClient g = TestClients.glide(server, backend, null, null);
                CLOSE.add(g);
                return new SimpleClient() {
                    public void set(String key, byte[] value) throws Exception {
                        assertEquals("OK", g.set(GlideString.of(b(key)), GlideString.of(value)).get(10, TimeUnit.SECONDS));
                    }

                    public byte[] get(String key) throws Exception {
                        GlideString v = g.get(GlideString.of(b(key))).get(10, TimeUnit.SECONDS);
                        return v == null ? null : v.getBytes();
                    }
                };
            }
            case GLIDE_PYTHON -> {
                String name = backend.name().toLowerCase(java.util.Locale.ROOT);
                return new Client() {
                    public void write(Map<String, byte[]> values) throws Exception {
                        python("write", name, values);
                    }

                    public Map<String, Outcome> read(List<String> keys) throws Exception {
                        Map<String, byte[]> in = new LinkedHashMap<>();
                        keys.forEach(k -> in.put(k, null));
                        Path out = python("read-each", name, in);
                        Map<String, Outcome> got = new LinkedHashMap<>();
                        try (DataInputStream d = new DataInputStream(Files.newInputStream(out))) {
                            while (d.available() > 0) {
                                String k = new String(d.readNBytes(d.readInt()), StandardCharsets.UTF_8);
                                int n = d.readInt();
                                got.put(k, n == -2 ? new Outcome(null, null,
                                        new String(d.readNBytes(d.readInt()), StandardCharsets.UTF_8))
                                        : Outcome.of(n < 0 ? null : d.readNBytes(n)));
                            }
                        }
                        return got;
                    }
                };
            }
            default -> throw new AssertionError(kind);
        }
    }

    /** Runs the Python GLIDE script on {@code entries} (null values: keys only); returns its output file. */
    static Path python(String mode, String backend, Map<String, byte[]> entries) throws Exception {
        return GlideScript.run(SCRIPT, tmp, mode, server.port(), backend, entries);
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** The values each writer writes: compressible JSON and text, one below the minimum size, one incompressible. */
    static Map<String, byte[]> values(String prefix) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put(prefix + ":json", json(3000).getBytes(StandardCharsets.UTF_8));
        m.put(prefix + ":text", text(20_000));
        m.put(prefix + ":small", text(40));
        m.put(prefix + ":random", random(2000, prefix.hashCode()));
        return m;
    }

    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void everyClientReadsWhatEveryOtherWrites(CompressionBackend backend) throws Exception {
        Map<String, byte[]> expected = new LinkedHashMap<>();
        // written before compression was turned on: plain bytes
        Map<String, byte[]> plain = values("x:" + backend + ":plain");
        plain.forEach((k, v) -> jedis.set(b(k), v));
        expected.putAll(plain);
        for (Kind writer : Kind.values()) {
            Map<String, byte[]> v = values("x:" + backend + ":" + writer);
            client(writer, backend).write(v);
            expected.putAll(v);
            // each writer stored the compressible values compressed with its backend, the others as they are
            for (Map.Entry<String, byte[]> e : v.entrySet()) {
                byte[] stored = jedis.get(b(e.getKey()));
                boolean compressible = e.getKey().endsWith(":json") || e.getKey().endsWith(":text");
                if (compressible) {
                    assertArrayEquals(new byte[] {0, 1, 2, 0, backend.id()}, Arrays.copyOf(stored, 5), e.getKey());
                    assertTrue(stored.length < e.getValue().length, e.getKey());
                } else {
                    assertArrayEquals(e.getValue(), stored, e.getKey() + " stored as it is");
                }
            }
        }
        List<String> keys = new ArrayList<>(expected.keySet());
        keys.add("x:" + backend + ":missing");
        expected.put("x:" + backend + ":missing", null);
        for (Kind reader : Kind.values()) {
            Map<String, Outcome> got = client(reader, backend).read(keys);
            for (String k : keys) {
                Outcome o = got.get(k);
                assertNotNull(o, reader + " " + k);
                assertNull(o.errorText(), () -> reader + " reading " + k + ": " + o.errorText());
                assertArrayEquals(expected.get(k), o.value(), reader + " reading " + k);
            }
        }
    }

    /** A zstd frame header declaring {@code size} bytes of content, then one raw block of 5 bytes. */
    static byte[] zstdDeclaring(long size) {
        byte[] fcs = new byte[8];
        for (int i = 0; i < 8; i++) {
            fcs[i] = (byte) (size >>> (8 * i));
        }
        return concat(new byte[] {0, 1, 2, 0, 1, 0x28, (byte) 0xB5, 0x2F, (byte) 0xFD, (byte) 0xC0, 0x00}, fcs,
                new byte[] {0x29, 0, 0, 'h', 'e', 'l', 'l', 'o'});
    }

    @Test
    void valuesOverTheLimit() throws Exception {
        Map<String, byte[]> over = new LinkedHashMap<>();
        // real values of 200,000 bytes; this library's readers here allow 100,000
        over.put("limit:zstd:real", ValueCompressor.create(CompressionConfig.defaults()).compress(text(200_000)));
        over.put("limit:lz4:real", ValueCompressor.create(CompressionConfig.builder()
                .backend(CompressionBackend.LZ4).build()).compress(text(200_000)));
        // headers that declare more than 512 MiB (every default limit): a zstd frame of 600 MiB, and an lz4 value of
        // 600 MiB whose block could decode to that (1/255 of it: all matches)
        over.put("limit:zstd:declared", zstdDeclaring(600L << 20));
        over.put("limit:lz4:declared", lz4Stored(600L << 20, new byte[(int) ((600L << 20) / 255) + 1]));
        over.forEach((k, v) -> jedis.set(b(k), v));
        jedis.set(b("limit:after"), ValueCompressor.create(CompressionConfig.defaults()).compress(text(5000)));
        List<String> keys = new ArrayList<>(over.keySet());
        keys.add("limit:after");
        StringBuilder report = new StringBuilder("values over the limit, per reader:\n");
        for (Kind reader : Kind.values()) {
            Map<String, Outcome> got = client(reader, CompressionBackend.ZSTD).read(keys);
            for (String k : over.keySet()) {
                Outcome o = got.get(k);
                report.append(String.format("  %-14s %-20s %s%n", reader, k, o.errorText() != null ? o.errorText()
                        : o.value() == null ? "nil" : o.value().length + " bytes"
                        + (Arrays.equals(o.value(), over.get(k)) ? " (the stored bytes)" : "")));
            }
            assertArrayEquals(text(5000), got.get("limit:after").value(), reader + ": the connection stays usable");
            assertOverTheLimit(reader, over, got);
        }
        System.out.print(report);
    }

    /**
     * Every reader of this library fails such a read with {@link DecompressionLimitException} (Redisson hands it over
     * as the cause of its {@code RedisException}); the GLIDE clients, recorded here with GLIDE 2.5: a real value
     * within GLIDE's own limit (512 MiB) reads back; an lz4 value declaring more fails with GLIDE's "Decompression
     * size limit exceeded" error; a zstd frame declaring more comes back as the stored bytes.
     */
    static void assertOverTheLimit(Kind reader, Map<String, byte[]> over, Map<String, Outcome> got) {
        if (reader != Kind.GLIDE_JAVA && reader != Kind.GLIDE_PYTHON) {
            for (String k : over.keySet()) {
                Throwable e = got.get(k).error();
                assertNotNull(e, reader + " " + k + " must fail, got " + got.get(k));
                assertTrue(hasCause(e, DecompressionLimitException.class), reader + " " + k + ": " + e);
                if (reader == Kind.REDISSON) {
                    assertInstanceOf(org.redisson.client.RedisException.class, e);
                } else {
                    assertInstanceOf(DecompressionLimitException.class, e, reader + " throws it unwrapped");
                }
            }
            return;
        }
        assertArrayEquals(text(200_000), got.get("limit:zstd:real").value(), reader.toString());
        assertArrayEquals(text(200_000), got.get("limit:lz4:real").value(), reader.toString());
        assertArrayEquals(over.get("limit:zstd:declared"), got.get("limit:zstd:declared").value(),
                reader + " returns a zstd frame declaring 600 MiB as the stored bytes");
        String lz4 = got.get("limit:lz4:declared").errorText();
        assertNotNull(lz4, reader + " fails the lz4 value declaring 600 MiB");
        assertTrue(lz4.contains("Decompression size limit exceeded"), reader + ": " + lz4);
    }

    static boolean hasCause(Throwable e, Class<? extends Throwable> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return true;
            }
        }
        return false;
    }
}
