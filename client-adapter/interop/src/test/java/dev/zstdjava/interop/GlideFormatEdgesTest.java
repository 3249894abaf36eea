package dev.zstdjava.interop;

import dev.zstdjava.DecompressionLimitException;
import dev.zstdjava.testkit.GlideScript;
import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import glide.api.GlideClient;
import glide.api.models.GlideString;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.UnifiedJedis;

import java.io.DataInputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.zstdjava.testkit.TestValues.concat;
import static dev.zstdjava.testkit.TestValues.json;
import static dev.zstdjava.testkit.TestValues.random;
import static dev.zstdjava.testkit.TestValues.text;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The edges of Valkey GLIDE's stored format, against the real GLIDE clients (Java in this JVM, Python 2.5.3 through
 * the Lettuce module's {@code src/test/python/glide_interop.py}) on a real server, in both directions: the empty
 * value, the sizes around GLIDE's minimum, values GLIDE stores as they are, binary values with every byte value,
 * values of several MiB, the extreme levels, header bytes GLIDE does not check (the version), unknown backend ids,
 * the decompression limit's boundary, and plain values whose bytes begin with the header's magic {@code 00 01 02}.
 * This library's side is {@link ValueCompressor}, the writer and reader every adapter calls, over a plain Jedis.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class GlideFormatEdgesTest {
    static final Path SCRIPT = CrossClientMatrixTest.SCRIPT;

    static RedisServer server;
    static UnifiedJedis jedis;
    static final List<GlideClient> GLIDES = new ArrayList<>();

    @TempDir
    static Path tmp;

    @BeforeAll
    static void start() {
        assertTrue(Files.isRegularFile(SCRIPT), "missing " + SCRIPT);
        server = RedisServer.start();
        jedis = JedisServer.pooled(server);
    }

    @AfterAll
    static void stop() throws Exception {
        for (GlideClient g : GLIDES) {
            g.close();
        }
        if (jedis != null) {
            jedis.close();
        }
        if (server != null) {
            server.close();
        }
    }

    /** A Java GLIDE client compressing with {@code backend} at {@code level} (null: GLIDE's default). */
    static GlideClient glide(CompressionBackend backend, Integer level, Long maxDecompressedSize) throws Exception {
        GlideClient g = TestClients.glide(server, backend, level, maxDecompressedSize);
        GLIDES.add(g);
        return g;
    }

    static void set(GlideClient g, String key, byte[] value) throws Exception {
        assertEquals("OK", g.set(GlideString.of(b(key)), GlideString.of(value)).get(10, TimeUnit.SECONDS));
    }

    static byte[] get(GlideClient g, String key) throws Exception {
        GlideString v = g.get(GlideString.of(b(key))).get(10, TimeUnit.SECONDS);
        return v == null ? null : v.getBytes();
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Every byte value, 64 times, in a compressible order. */
    static byte[] everyByte() {
        byte[] v = new byte[256 * 64];
        for (int i = 0; i < v.length; i++) {
            v[i] = (byte) i;
        }
        return v;
    }

    /** The edge values that every reader must read back as written from every writer, GLIDE's included. */
    static Map<String, byte[]> edges() {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put("empty", new byte[0]);
        m.put("text:63", text(63));
        m.put("text:64", text(64));
        m.put("text:65", text(65));
        m.put("random:64", random(64, 64)); // GLIDE and this library store it as it is: it does not get smaller
        m.put("random:300000", random(300_000, 3)); // every byte value, incompressible
        m.put("every-byte", everyByte());
        m.put("json:6MiB", json(6 << 20).getBytes(StandardCharsets.UTF_8));
        m.put("mixed:5MiB", concat(random(1 << 20, 5), text(4 << 20)));
        // the magic, then a version byte and backend id taken from the text ('t', 'h'): an unknown id
        m.put("magic:then-text", concat(new byte[] {0, 1, 2}, text(200)));
        m.put("magic:zstd-id-garbage", concat(new byte[] {0, 1, 2, 0, 1}, random(200, 11)));
        m.put("magic:unknown-id", concat(new byte[] {0, 1, 2, 0, 7}, random(200, 12)));
        m.put("magic:unknown-id-text", concat(new byte[] {0, 1, 2, 0, (byte) 0xff}, text(200)));
        m.put("magic:zstd-id-version-5-text", concat(new byte[] {0, 1, 2, 5, 1}, text(200)));
        m.put("magic:header-only", new byte[] {0, 1, 2, 0, 1});
        m.put("magic:four-bytes", new byte[] {0, 1, 2, 0});
        return m;
    }

    /**
     * Plain values that begin with the lz4 header: their next four bytes, read as GLIDE's length prefix, declare more
     * than GLIDE's limit (512 MiB) and more than 255 times the bytes after them could decode to.
     */
    static Map<String, byte[]> lz4HeaderValues() {
        Map<String, byte[]> m = new LinkedHashMap<>();
        m.put("lz4h:text", concat(new byte[] {0, 1, 2, 0, 2}, text(200))); // "the " declares 0x20656874 bytes
        m.put("lz4h:random", concat(new byte[] {0, 1, 2, 0, 2, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0x7f},
                random(200, 13)));
        m.put("lz4h:short", new byte[] {0, 1, 2, 0, 2, 'a', 'b', 'c', 'd'}); // below every minimum size
        return m;
    }

    /**
     * Every edge value, written by this library, by Java GLIDE and by Python GLIDE compressing with {@code backend},
     * reads back as written through this library and through both GLIDE clients (configured with either backend).
     */
    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void edgeValuesReadBackAsWrittenBothWays(CompressionBackend backend) throws Exception {
        String name = backend.name().toLowerCase(java.util.Locale.ROOT);
        ValueCompressor ours = ValueCompressor.create(CompressionConfig.builder().backend(backend).build());
        GlideClient javaGlide = glide(backend, null, null);
        Map<String, byte[]> values = edges();
        Map<String, byte[]> expected = new LinkedHashMap<>();
        Map<String, byte[]> fromPython = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> e : values.entrySet()) {
            String k = "edge:" + name + ":" + e.getKey();
            jedis.set(b(k + ":ours"), ours.compress(e.getValue()));
            set(javaGlide, k + ":glide-java", e.getValue());
            fromPython.put(k + ":glide-python", e.getValue());
            expected.put(k + ":ours", e.getValue());
            expected.put(k + ":glide-java", e.getValue());
        }
        GlideScript.run(SCRIPT, tmp, "write", server.port(), name, fromPython);
        expected.putAll(fromPython);
        // what each writer stored: compressed exactly when GLIDE compresses, in the same form
        for (String v : values.keySet()) {
            String k = "edge:" + name + ":" + v;
            byte[] ourStored = jedis.get(b(k + ":ours"));
            byte[] glideStored = jedis.get(b(k + ":glide-java"));
            boolean oursAsIs = Arrays.equals(ourStored, values.get(v));
            boolean glideAsIs = Arrays.equals(glideStored, values.get(v));
            if (oursAsIs != glideAsIs) {
                // only a value that carries this backend's header and then no payload of it (text): GLIDE takes it
                // for compressed and stores it as it is, this library compresses it
                assertFalse(oursAsIs, v);
                assertTrue(v.startsWith("magic:") && values.get(v)[4] == backend.id(), v);
            }
            assertArrayEquals(glideStored, jedis.get(b(k + ":glide-python")), v + ": the GLIDE clients agree");
            if (!oursAsIs) {
                assertArrayEquals(new byte[] {0, 1, 2, 0, backend.id()}, Arrays.copyOf(ourStored, 5), v);
            }
            if (!glideAsIs) {
                assertArrayEquals(Arrays.copyOf(glideStored, 5), Arrays.copyOf(ourStored, 5), v);
            }
        }
        List<String> keys = new ArrayList<>(expected.keySet());
        for (CompressionBackend reader : CompressionBackend.values()) {
            ValueCompressor r = ValueCompressor.create(CompressionConfig.builder().backend(reader).build());
            GlideClient g = reader == backend ? javaGlide : glide(reader, null, null);
            for (String k : keys) {
                assertArrayEquals(expected.get(k), r.decompress(jedis.get(b(k))), "this library (" + reader + ") " + k);
                assertArrayEquals(expected.get(k), get(g, k), "Java GLIDE (" + reader + ") " + k);
            }
            Map<String, Object> python = pythonReadEach(reader.name().toLowerCase(java.util.Locale.ROOT), keys);
            for (String k : keys) {
                assertArrayEquals(expected.get(k), bytes(python, k), "Python GLIDE (" + reader + ") " + k);
            }
        }
    }

    /**
     * A plain value that begins with the lz4 header and a length prefix no block after it could decode to: this
     * library reads it back as written (the prefix makes it malformed, so it is the stored bytes), whoever wrote it;
     * GLIDE fails the read with its size-limit error when such a value is stored as it is. This library's writer
     * compresses a compressible one with either backend (GLIDE's lz4 writer stores it as it is, as compressed), and
     * then every reader reads it back.
     */
    @Test
    void plainValuesThatBeginWithTheLz4Header() throws Exception {
        Map<String, byte[]> values = lz4HeaderValues();
        for (CompressionBackend backend : CompressionBackend.values()) {
            String text = "lz4h:" + backend.name().toLowerCase(java.util.Locale.ROOT) + ":lz4h:text";
            String name = backend.name().toLowerCase(java.util.Locale.ROOT);
            ValueCompressor ours = ValueCompressor.create(CompressionConfig.builder().backend(backend).build());
            GlideClient g = glide(backend, null, null);
            Map<String, byte[]> written = new LinkedHashMap<>();
            for (Map.Entry<String, byte[]> e : values.entrySet()) {
                String k = "lz4h:" + name + ":" + e.getKey();
                jedis.set(b(k + ":ours"), ours.compress(e.getValue()));
                set(g, k + ":glide", e.getValue());
                written.put(k + ":ours", e.getValue());
                written.put(k + ":glide", e.getValue());
            }
            // the compressible one is compressed by this library with either backend (with lz4 it carries the
            // writer's own header, but its length prefix could not be an lz4 payload's); GLIDE's lz4 writer stores it
            // as it is
            assertFalse(Arrays.equals(values.get("lz4h:text"), jedis.get(b(text + ":ours"))), text);
            assertEquals(backend == CompressionBackend.LZ4,
                    Arrays.equals(values.get("lz4h:text"), jedis.get(b(text + ":glide"))), text);
            Map<String, Object> python = pythonReadEach(name, new ArrayList<>(written.keySet()));
            for (String k : written.keySet()) {
                byte[] value = written.get(k);
                byte[] stored = jedis.get(b(k));
                for (CompressionBackend reader : CompressionBackend.values()) {
                    ValueCompressor r = ValueCompressor.create(CompressionConfig.builder().backend(reader).build());
                    assertArrayEquals(value, r.decompress(stored), "this library (" + reader + ") reads " + k);
                }
                if (!Arrays.equals(value, stored)) { // compressed (zstd writers, compressible values): GLIDE reads it
                    assertArrayEquals(value, get(g, k), "Java GLIDE reads " + k);
                    assertArrayEquals(value, bytes(python, k), "Python GLIDE reads " + k);
                    continue;
                }
                Exception e = assertThrows(Exception.class, () -> get(g, k), "Java GLIDE fails " + k);
                assertTrue(String.valueOf(e.getMessage()).contains("Decompression size limit exceeded"), k + ": " + e);
                assertTrue(String.valueOf(python.get(k)).contains("Decompression size limit exceeded"),
                        "Python GLIDE fails " + k + ": " + python.get(k));
            }
        }
    }

    /**
     * The header's version byte is not checked by GLIDE (it decodes a value whose version is not 00, and its writer
     * stores a value carrying its own backend's header as it is, whatever the version), nor by this library; a
     * backend id neither knows is returned as the stored bytes by both.
     */
    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void versionByteAndUnknownIds(CompressionBackend backend) throws Exception {
        String name = backend.name().toLowerCase(java.util.Locale.ROOT);
        byte[] value = json(5000).getBytes(StandardCharsets.UTF_8);
        ValueCompressor ours = ValueCompressor.create(CompressionConfig.builder().backend(backend).build());
        GlideClient g = glide(backend, null, null);
        set(g, "ver:" + name + ":glide", value);
        byte[] glideStored = jedis.get(b("ver:" + name + ":glide"));
        byte[] ourStored = ours.compress(value);
        assertArrayEquals(Arrays.copyOf(glideStored, 5), Arrays.copyOf(ourStored, 5));
        Map<String, byte[]> expected = new LinkedHashMap<>();
        for (int version : new int[] {1, 0x7f, 0xff}) {
            for (byte[] stored : new byte[][] {glideStored, ourStored}) {
                byte[] other = stored.clone();
                other[3] = (byte) version;
                String k = "ver:" + name + ":" + version + ":" + (stored == glideStored ? "glide" : "ours");
                jedis.set(b(k), other);
                expected.put(k, value);
                // a writer given it stores it as it is (it carries the writer's own header), GLIDE and this library
                assertSame(other, ours.compress(other), k);
                set(g, k + ":rewritten-by-glide", other);
                assertArrayEquals(other, jedis.get(b(k + ":rewritten-by-glide")), k + " stored as it is by GLIDE");
                expected.put(k + ":rewritten-by-glide", value);
            }
        }
        for (int id : new int[] {0, 3, 0x80, 0xff}) {
            byte[] other = ourStored.clone();
            other[4] = (byte) id;
            String k = "id:" + name + ":" + id;
            jedis.set(b(k), other);
            expected.put(k, other);
        }
        List<String> keys = new ArrayList<>(expected.keySet());
        Map<String, Object> python = pythonReadEach(name, keys);
        for (String k : keys) {
            assertArrayEquals(expected.get(k), ours.decompress(jedis.get(b(k))), "this library reads " + k);
            assertArrayEquals(expected.get(k), get(g, k), "Java GLIDE reads " + k);
            assertArrayEquals(expected.get(k), bytes(python, k), "Python GLIDE reads " + k);
        }
        assertEquals(4, ours.stats().decompressionFailures(), "the unknown ids are counted");
    }

    /**
     * A plain value that begins with GLIDE's zstd header and does not decode (every writer stores it as it is: it
     * carries the zstd writer's own header) reads back as written through a GET of every reader. This library's
     * MGET decodes each value on its own; GLIDE's MGET, when one value of the reply does not decode, returns every
     * value of that reply as stored, the compressed ones included (recorded here: GLIDE 2.5's behaviour).
     */
    @Test
    void anUndecodableValueInAnMget() throws Exception {
        ValueCompressor ours = ValueCompressor.create(CompressionConfig.defaults());
        GlideClient g = glide(CompressionBackend.ZSTD, null, null);
        byte[] value = json(3000).getBytes(StandardCharsets.UTF_8);
        byte[] undecodable = concat(new byte[] {0, 1, 2, 0, 1}, random(200, 21));
        jedis.set(b("mget:compressed"), ours.compress(value));
        jedis.set(b("mget:plain-with-header"), ours.compress(undecodable));
        assertArrayEquals(undecodable, jedis.get(b("mget:plain-with-header")), "stored as it is");
        List<byte[]> mget = jedis.mget(b("mget:compressed"), b("mget:plain-with-header"));
        assertArrayEquals(value, ours.decompress(mget.get(0)));
        assertArrayEquals(undecodable, ours.decompress(mget.get(1)));
        assertArrayEquals(undecodable, get(g, "mget:plain-with-header"), "GLIDE's GET");
        GlideString[] both = g.mget(new GlideString[] {GlideString.of(b("mget:compressed")),
                GlideString.of(b("mget:plain-with-header"))}).get(10, TimeUnit.SECONDS);
        assertArrayEquals(jedis.get(b("mget:compressed")), both[0].getBytes(),
                "GLIDE's MGET returns the compressed neighbour as stored");
        assertArrayEquals(undecodable, both[1].getBytes());
        GlideString[] alone = g.mget(new GlideString[] {GlideString.of(b("mget:compressed"))}).get(10, TimeUnit.SECONDS);
        assertArrayEquals(value, alone[0].getBytes(), "and decodes it in an MGET without the other");
    }

    /**
     * GLIDE's extreme levels read back through this library and the reverse: zstd's lowest (negative) and highest
     * levels, lz4's fastest and its highest HC level.
     */
    @ParameterizedTest
    @ValueSource(strings = {"zstd:-131072", "zstd:-1", "zstd:22", "lz4:-128", "lz4:12"})
    void extremeLevelsBothWays(String backendAndLevel) throws Exception {
        CompressionBackend backend = CompressionBackend.valueOf(
                backendAndLevel.substring(0, backendAndLevel.indexOf(':')).toUpperCase(java.util.Locale.ROOT));
        int level = Integer.parseInt(backendAndLevel.substring(backendAndLevel.indexOf(':') + 1));
        ValueCompressor ours = ValueCompressor.create(CompressionConfig.builder().backend(backend).level(level).build());
        GlideClient g = glide(backend, level, null);
        Map<String, byte[]> values = new LinkedHashMap<>();
        values.put("text", text(20_000));
        if (level <= 19) { // zstd's ultra levels take GLIDE a 128 MiB window per value (it does not pledge the size)
            values.put("json", json(16 << 10).getBytes(StandardCharsets.UTF_8));
            values.put("every-byte", everyByte());
            values.put("zeros", new byte[200_000]); // whole blocks of one byte: compressed at every level
        }
        Map<String, byte[]> fromPython = new LinkedHashMap<>();
        Map<String, byte[]> ourKeys = new LinkedHashMap<>();
        for (Map.Entry<String, byte[]> e : values.entrySet()) {
            String k = "lvl:" + backendAndLevel + ":" + e.getKey();
            set(g, k + ":glide-java", e.getValue());
            fromPython.put(k + ":glide-python", e.getValue());
            jedis.set(b(k + ":ours"), ours.compress(e.getValue()));
            ourKeys.put(k + ":ours", e.getValue());
        }
        GlideScript.run(SCRIPT, tmp, "write", server.port(), backendAndLevel, fromPython);
        int compressed = 0;
        for (Map.Entry<String, byte[]> e : values.entrySet()) {
            String k = "lvl:" + backendAndLevel + ":" + e.getKey();
            // zstd's lowest level makes most values no smaller: GLIDE and this library store them as they are.
            // There only, 200,000 zeros are stored as they are by this library and compressed by GLIDE (to a raw
            // block and an RLE one): libzstd, given less room than the value at that level, reports no room
            boolean asIs = Arrays.equals(e.getValue(), jedis.get(b(k + ":glide-java")));
            compressed += asIs ? 0 : 1;
            for (String writer : new String[] {":glide-java", ":glide-python", ":ours"}) {
                byte[] stored = jedis.get(b(k + writer));
                boolean storedAsIs = Arrays.equals(e.getValue(), stored);
                if (level != dev.zstdjava.zstd.Zstd.MIN_LEVEL || !e.getKey().equals("zeros")) {
                    assertEquals(asIs, storedAsIs, k + writer + " stored as it is, as GLIDE's");
                }
                if (!storedAsIs) {
                    assertArrayEquals(new byte[] {0, 1, 2, 0, backend.id()}, Arrays.copyOf(stored, 5), k + writer);
                    assertTrue(stored.length < e.getValue().length, k + writer);
                }
                assertArrayEquals(e.getValue(), ours.decompress(stored), "this library reads " + k + writer);
            }
            assertArrayEquals(e.getValue(), get(g, k + ":ours"), "Java GLIDE reads " + k);
        }
        assertTrue(compressed >= 1, "GLIDE compressed " + compressed + " values");
        Map<String, Object> python = pythonReadEach(backendAndLevel, new ArrayList<>(ourKeys.keySet()));
        ourKeys.forEach((k, v) -> assertArrayEquals(v, bytes(python, k), "Python GLIDE reads " + k));
    }

    /**
     * The decompression limit applies to GLIDE's values as to this library's, at the same boundary: a value of
     * exactly the limit reads back, one byte more fails with {@link DecompressionLimitException} naming both sizes
     * (GLIDE's zstd frames do not declare their size: the limit stops the decoding; its lz4 values declare it). GLIDE
     * with the same limit draws the same line.
     */
    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void theLimitsBoundaryOnGlidesValues(CompressionBackend backend) throws Exception {
        String name = backend.name().toLowerCase(java.util.Locale.ROOT);
        int limit = 100_000;
        GlideClient writer = glide(backend, null, null);
        GlideClient limitedGlide = glide(backend, null, (long) limit);
        ValueCompressor limited = ValueCompressor.create(CompressionConfig.builder().backend(backend)
                .maxDecompressedSize(limit).build());
        set(writer, "lim:" + name + ":at", text(limit));
        set(writer, "lim:" + name + ":over", text(limit + 1));
        byte[] at = jedis.get(b("lim:" + name + ":at"));
        byte[] over = jedis.get(b("lim:" + name + ":over"));
        assertTrue(at.length < limit / 10 && over.length < limit / 10, "GLIDE compressed both");
        assertArrayEquals(text(limit), limited.decompress(at));
        assertArrayEquals(text(limit), get(limitedGlide, "lim:" + name + ":at"));
        DecompressionLimitException e = assertThrows(DecompressionLimitException.class, () -> limited.decompress(over));
        assertTrue(e.getMessage().contains(Integer.toString(limit)), e.getMessage());
        assertEquals(1, limited.stats().sizeLimitErrors());
        Exception g = assertThrows(Exception.class, () -> get(limitedGlide, "lim:" + name + ":over"));
        assertTrue(String.valueOf(g.getMessage()).contains("Decompression size limit exceeded"), g.toString());
        // this library does not write a value it could not read back with its limit: it stores it as it is
        assertArrayEquals(text(limit + 1), limited.compress(text(limit + 1)));
        assertEquals(1, limited.stats().skippedTooLarge());
    }

    /** @return the value Python GLIDE read for {@code key}; fails with GLIDE's error when it failed the read */
    static byte[] bytes(Map<String, Object> python, String key) {
        Object o = python.get(key);
        if (o instanceof String error) {
            fail("Python GLIDE failed reading " + key + ": " + error);
        }
        return (byte[]) o;
    }

    /** Runs the Python GLIDE script's read-each mode: per key the value (null when missing) or GLIDE's error text. */
    static Map<String, Object> pythonReadEach(String backend, List<String> keys) throws Exception {
        Map<String, byte[]> in = new LinkedHashMap<>();
        keys.forEach(k -> in.put(k, null));
        Path out = GlideScript.run(SCRIPT, tmp, "read-each", server.port(), backend, in);
        Map<String, Object> got = new LinkedHashMap<>();
        try (DataInputStream d = new DataInputStream(Files.newInputStream(out))) {
            while (d.available() > 0) {
                String k = new String(d.readNBytes(d.readInt()), StandardCharsets.UTF_8);
                int n = d.readInt();
                got.put(k, n == -2 ? new String(d.readNBytes(d.readInt()), StandardCharsets.UTF_8)
                        : n < 0 ? null : d.readNBytes(n));
            }
        }
        return got;
    }
}
