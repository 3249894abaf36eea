package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.GlideScript;
import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdDictionary;
import dev.zstdjava.zstd.ZstdFrame;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.io.DataInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.zstdjava.testkit.TestValues.random;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Interop with the real Valkey GLIDE client (Python {@code valkey-glide} 2.5.3 with {@code CompressionConfiguration},
 * driven through {@code src/test/python/glide_interop.py}): GLIDE writes and this codec reads, this codec writes
 * and GLIDE reads, both backends, sizes around the threshold up to 1 MiB, and plain values.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class GlideInteropTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer(CompressingRedisClient::create);

    static final Path SCRIPT = Path.of("src/test/python/glide_interop.py").toAbsolutePath();
    static final int[] SIZES = {0, 1, 5, 6, 62, 63, 64, 65, 66, 100, 128, 1000, 4096, 65_536, 1 << 20};

    @TempDir
    Path tmp;

    @BeforeAll
    static void start() {
        assertTrue(Files.isRegularFile(SCRIPT), "missing " + SCRIPT);
    }

    /** Values of every kind at every size: repetitive text, JSON-like, zeros, random bytes. */
    static Map<String, byte[]> values(String prefix) {
        Map<String, byte[]> m = new LinkedHashMap<>();
        for (int n : SIZES) {
            m.put(prefix + ":text:" + n, text(n));
            m.put(prefix + ":json:" + n, TestValues.json(n).getBytes(StandardCharsets.UTF_8));
            m.put(prefix + ":zeros:" + n, new byte[n]);
            m.put(prefix + ":random:" + n, random(n, n + 17));
        }
        return m;
    }

    static CompressingCodec<byte[], byte[]> codec(CompressionBackend backend) {
        return CompressingCodec.wrap(ByteArrayCodec.INSTANCE, CompressionConfig.builder().backend(backend).build());
    }

    static CompressionBackend other(CompressionBackend b) {
        return b == CompressionBackend.ZSTD ? CompressionBackend.LZ4 : CompressionBackend.ZSTD;
    }

    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void glideWritesLettuceReads(CompressionBackend backend) throws Exception {
        Map<String, byte[]> values = values("g2l-" + backend);
        String stats = glide("write", backend.name().toLowerCase(), values);
        assertTrue(stats.contains("\"total_values_compressed\""), stats);

        int compressed = 0;
        for (Map.Entry<String, byte[]> e : values.entrySet()) {
            byte[] stored = redis.raw().sync().get(key(e.getKey()));
            assertNotNull(stored, e.getKey());
            if (stored.length >= 5 && stored[0] == 0 && stored[1] == 1 && stored[2] == 2) {
                compressed++;
                assertEquals(0, stored[3], "version byte");
                assertEquals(backend.id(), stored[4], "backend id");
                assertTrue(stored.length < e.getValue().length, e.getKey());
                assertTrue(e.getValue().length >= 64, "GLIDE compresses from 64 bytes: " + e.getKey());
                if (backend == CompressionBackend.LZ4) {
                    int declared = (stored[5] & 0xff) | (stored[6] & 0xff) << 8 | (stored[7] & 0xff) << 16
                            | (stored[8] & 0xff) << 24;
                    assertEquals(e.getValue().length, declared, "lz4 little-endian length prefix");
                } else {
                    assertArrayEquals(new byte[] {0x28, (byte) 0xb5, 0x2f, (byte) 0xfd}, Arrays.copyOfRange(stored, 5, 9));
                }
            } else {
                assertArrayEquals(e.getValue(), stored, "stored as is: " + e.getKey());
            }
        }
        assertTrue(compressed >= 20, "GLIDE compressed " + compressed + " values");

        // read with a codec configured for the same backend and for the other one: the header picks the decoder
        for (CompressionBackend reader : new CompressionBackend[] {backend, other(backend)}) {
            CompressingCodec<byte[], byte[]> codec = codec(reader);
            try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec)) {
                List<String> keys = new ArrayList<>(values.keySet());
                var mget = conn.sync().mget(keys.stream().map(GlideInteropTest::key).toArray(byte[][]::new));
                for (int i = 0; i < keys.size(); i++) {
                    assertArrayEquals(values.get(keys.get(i)), conn.sync().get(key(keys.get(i))), keys.get(i));
                    assertArrayEquals(values.get(keys.get(i)), mget.get(i).getValue(), keys.get(i));
                }
            }
            assertEquals(2L * compressed, codec.compressor().stats().valuesDecompressed());
            assertEquals(0, codec.compressor().stats().decompressionFailures());
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void lettuceWritesGlideReads(CompressionBackend backend) throws Exception {
        Map<String, byte[]> values = values("l2g-" + backend);
        CompressingCodec<byte[], byte[]> codec = codec(backend);
        try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec)) {
            Map<byte[], byte[]> batch = new LinkedHashMap<>();
            int i = 0;
            for (Map.Entry<String, byte[]> e : values.entrySet()) {
                if (i++ % 2 == 0) {
                    conn.sync().set(key(e.getKey()), e.getValue());
                } else {
                    batch.put(key(e.getKey()), e.getValue());
                }
            }
            conn.sync().mset(batch);
        }
        assertTrue(codec.compressor().stats().valuesCompressed() >= 20);
        for (Map.Entry<String, byte[]> e : values.entrySet()) {
            byte[] stored = redis.raw().sync().get(key(e.getKey()));
            if (stored.length < e.getValue().length) {
                assertArrayEquals(new byte[] {0, 1, 2, 0, backend.id()}, Arrays.copyOf(stored, 5));
            }
        }
        // GLIDE configured with this backend, with the other one, and without compression (sees the stored bytes)
        assertSameValues(values, glideRead(backend.name().toLowerCase(), values));
        assertSameValues(values, glideRead(other(backend).name().toLowerCase(), values));
        Map<String, byte[]> storedSeenByGlide = glideRead("none", values);
        for (String k : values.keySet()) {
            assertArrayEquals(redis.raw().sync().get(key(k)), storedSeenByGlide.get(k), k);
        }
    }

    @ParameterizedTest
    @org.junit.jupiter.params.provider.ValueSource(strings = {"zstd:-50", "zstd:19", "lz4:-128", "lz4:-3", "lz4:1", "lz4:12"})
    void levelsBothDirections(String backendAndLevel) throws Exception {
        CompressionBackend backend = CompressionBackend.valueOf(backendAndLevel.substring(0, backendAndLevel.indexOf(':')).toUpperCase());
        int level = Integer.parseInt(backendAndLevel.substring(backendAndLevel.indexOf(':') + 1));
        Map<String, byte[]> fromGlide = new LinkedHashMap<>();
        Map<String, byte[]> fromLettuce = new LinkedHashMap<>();
        for (int n : new int[] {2000, 65_536, 300_000}) {
            fromGlide.put("lg:" + backendAndLevel + ":" + n, TestValues.json(n).getBytes(StandardCharsets.UTF_8));
            fromLettuce.put("ll:" + backendAndLevel + ":" + n, TestValues.json(n).getBytes(StandardCharsets.UTF_8));
        }
        glide("write", backendAndLevel, fromGlide);
        CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE,
                CompressionConfig.builder().backend(backend).level(level).build());
        try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec)) {
            int compressed = 0;
            for (Map.Entry<String, byte[]> e : fromGlide.entrySet()) {
                byte[] stored = redis.raw().sync().get(key(e.getKey()));
                if (!Arrays.equals(e.getValue(), stored)) { // very fast levels may not shrink the small values
                    compressed++;
                    assertArrayEquals(new byte[] {0, 1, 2, 0, backend.id()}, Arrays.copyOf(stored, 5), e.getKey());
                }
                assertArrayEquals(e.getValue(), conn.sync().get(key(e.getKey())), e.getKey());
            }
            assertTrue(compressed >= 2, "GLIDE compressed " + compressed + " values");
            fromLettuce.forEach((k, v) -> conn.sync().set(key(k), v));
        }
        assertTrue(codec.compressor().stats().valuesCompressed() >= 2);
        assertSameValues(fromLettuce, glideRead(backendAndLevel, fromLettuce));
    }

    @Test
    void plainValuesWrittenWithoutCompression() throws Exception {
        // GLIDE without compression writes, the codec reads
        Map<String, byte[]> fromGlide = values("plain-glide");
        glide("write", "none", fromGlide);
        CompressingCodec<byte[], byte[]> codec = codec(CompressionBackend.ZSTD);
        try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec)) {
            for (Map.Entry<String, byte[]> e : fromGlide.entrySet()) {
                assertArrayEquals(e.getValue(), conn.sync().get(key(e.getKey())), e.getKey());
            }
        }
        assertEquals(0, codec.compressor().stats().valuesDecompressed());
        // a client without compression writes, GLIDE with compression reads
        Map<String, byte[]> fromPlain = values("plain-lettuce");
        fromPlain.forEach((k, v) -> redis.raw().sync().set(key(k), v));
        assertSameValues(fromPlain, glideRead("zstd", fromPlain));
        assertSameValues(fromPlain, glideRead("lz4", fromPlain));
    }

    /** Values compressed with a dictionary (written by this library in dictionary mode), one per record. */
    static Map<String, byte[]> dictionaryValues(String prefix, Map<String, byte[]> storedOut) {
        List<byte[]> records = TestValues.jsonRecords(1200, 21);
        byte[] dict = ZstdDictionary.train(records.subList(0, 1000), 8 << 10).toByteArray();
        Map<String, byte[]> values = new LinkedHashMap<>();
        try (DictionaryManager m = DictionaryManager.given(dict).build()) {
            ValueCompressor vc = ValueCompressor.create(CompressionConfig.defaults(), m);
            for (int i = 1000; i < 1040; i++) {
                byte[] stored = vc.compress(records.get(i));
                assertEquals(m.currentId(), ZstdFrame.dictionaryId(stored, 5, stored.length - 5));
                values.put(prefix + ":" + i, records.get(i));
                storedOut.put(prefix + ":" + i, stored);
            }
        }
        return values;
    }

    /**
     * What a GLIDE reader sees of a dictionary-compressed value: GLIDE's zstd decoder has no dictionaries, fails
     * ("Dictionary mismatch", logged as a warning) and GLIDE returns the stored bytes, header included, as the value.
     */
    @Test
    void glideReturnsDictionaryCompressedValuesAsStoredBytes() throws Exception {
        Map<String, byte[]> stored = new LinkedHashMap<>();
        Map<String, byte[]> values = dictionaryValues("dict", stored);
        stored.forEach((k, v) -> redis.raw().sync().set(key(k), v));
        for (String backend : new String[] {"zstd", "none"}) {
            Map<String, byte[]> seen = glideRead(backend, values);
            for (String k : values.keySet()) {
                assertArrayEquals(stored.get(k), seen.get(k), backend + " " + k);
                assertFalse(Arrays.equals(values.get(k), seen.get(k)), k);
            }
        }
    }

    /**
     * Every command of GLIDE's compressed scope, both ways, with the policy client: Python GLIDE reads what SET, SET
     * with options, SETNX, SETEX, PSETEX, MSET, MSETNX and GETSET (plain value) wrote, outside and inside batches; and
     * this client reads what GLIDE's SET, SET NX EX, MSET, MSETNX and batched SET/MSET wrote.
     */
    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void everyCommandOfTheScopeBothWays(CompressionBackend backend) throws Exception {
        Map<String, byte[]> ours = new LinkedHashMap<>();
        for (int i = 0; i < 16; i++) {
            ours.put("scope-" + backend + ":" + i, TestValues.json(1500 + i).getBytes(StandardCharsets.UTF_8));
        }
        List<String> keys = new ArrayList<>(ours.keySet());
        try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec(backend))) {
            var s = conn.sync();
            for (int i = 0; i < keys.size(); i++) {
                byte[] k = key(keys.get(i));
                byte[] v = ours.get(keys.get(i));
                switch (i % 8) {
                    case 0 -> s.set(k, v);
                    case 1 -> s.set(k, v, io.lettuce.core.SetArgs.Builder.nx().ex(1000));
                    case 2 -> s.setnx(k, v);
                    case 3 -> s.setex(k, 1000, v);
                    case 4 -> s.psetex(k, 1_000_000, v);
                    case 5 -> s.mset(Map.of(k, v));
                    case 6 -> s.msetnx(Map.of(k, v));
                    default -> {
                        s.set(k, key("old"));
                        s.getset(k, v);
                    }
                }
                byte[] stored = redis.raw().sync().get(k);
                if (i % 8 == 7) {
                    assertArrayEquals(v, stored, "GETSET's value is sent plain");
                } else {
                    assertArrayEquals(new byte[] {0, 1, 2, 0, backend.id()}, Arrays.copyOf(stored, 5), keys.get(i));
                }
            }
        }
        String b = backend.name().toLowerCase();
        assertSameValues(ours, glideRead("read", b, ours));
        assertSameValues(ours, glideRead("read-batch", b, ours));

        Map<String, byte[]> theirs = new LinkedHashMap<>();
        for (int i = 0; i < 18; i++) {
            theirs.put("glide-scope-" + backend + ":" + i, TestValues.json(1500 + i).getBytes(StandardCharsets.UTF_8));
        }
        glide("write-scope", b, theirs);
        try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec(other(backend)))) {
            for (Map.Entry<String, byte[]> e : theirs.entrySet()) {
                byte[] stored = redis.raw().sync().get(key(e.getKey()));
                assertArrayEquals(new byte[] {0, 1, 2, 0, backend.id()}, Arrays.copyOf(stored, 5), e.getKey());
                assertArrayEquals(e.getValue(), conn.sync().get(key(e.getKey())), e.getKey());
            }
        }
    }

    static byte[] key(String k) {
        return k.getBytes(StandardCharsets.UTF_8);
    }

    private Map<String, byte[]> glideRead(String backend, Map<String, byte[]> values) throws Exception {
        return glideRead("read", backend, values);
    }

    private Map<String, byte[]> glideRead(String mode, String backend, Map<String, byte[]> values) throws Exception {
        Path out = GlideScript.run(SCRIPT, tmp, mode, redis.server().port(), backend, values);
        Map<String, byte[]> got = new LinkedHashMap<>();
        try (DataInputStream in = new DataInputStream(Files.newInputStream(out))) {
            while (in.available() > 0) {
                byte[] k = in.readNBytes(in.readInt());
                int n = in.readInt();
                got.put(new String(k, StandardCharsets.UTF_8), n < 0 ? null : in.readNBytes(n));
            }
        }
        return got;
    }

    /** Runs the GLIDE script; returns what it wrote to the output file (statistics JSON for "write"). */
    private String glide(String mode, String backend, Map<String, byte[]> values) throws Exception {
        Path out = GlideScript.run(SCRIPT, tmp, mode, redis.server().port(), backend, values);
        return new String(Files.readAllBytes(out), StandardCharsets.ISO_8859_1);
    }

    static void assertSameValues(Map<String, byte[]> expected, Map<String, byte[]> got) {
        assertEquals(expected.keySet(), got.keySet());
        expected.forEach((k, v) -> assertArrayEquals(v, got.get(k), k));
    }
}
