package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.InMemoryDictionaryStore;
import dev.zstdjava.values.PatternDictionaries;
import dev.zstdjava.values.PatternDecision;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdDictionary;
import dev.zstdjava.zstd.ZstdFrame;
import io.lettuce.core.KeyValue;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Adaptive compression per key pattern through a compressing Lettuce connection: the pattern key of each value is
 * its command's key, the decisions follow the data, and every stored value reads back on adaptive and fixed-mode
 * connections.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class LettuceAdaptiveTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer(CompressingRedisClient::create);

    static final CompressionConfig CONFIG = CompressionConfig.defaults().toBuilder().compressHashValues(true).build();
    static final int WRITES = 120;

    static AdaptiveCompressor adaptive;
    static StatefulRedisConnection<byte[], byte[]> bytes;
    static StatefulRedisConnection<byte[], byte[]> fixed;

    @BeforeAll
    static void connect() {
        adaptive = AdaptiveCompressor.builder(CONFIG).build();
        CompressingRedisClient client = (CompressingRedisClient) redis.client();
        bytes = client.connect(ByteArrayCodec.INSTANCE, adaptive);
        fixed = client.connect(ByteArrayCodec.INSTANCE, ValueCompressor.create(CONFIG));
    }

    static byte[] k(String key) {
        return key.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] json(int i) {
        return TestValues.json(1000 + (i * 37) % 900).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] blob(int i) {
        return TestValues.random(800 + (i * 53) % 1200, i);
    }

    static Optional<PatternDecision> decision(AdaptiveCompressor a, String pattern) {
        return a.snapshot().stream().filter(d -> d.pattern().equals(pattern)).findFirst();
    }

    static void assertHeader(byte[] stored, byte[] original) {
        assertNotNull(stored);
        assertTrue(stored.length < original.length, "stored " + stored.length + " >= " + original.length);
        assertArrayEquals(new byte[] {0, 1, 2, 0}, Arrays.copyOf(stored, 4), "the value header");
    }

    @Test
    void setAndMsetDecidePerPatternAndReadBack() {
        RedisCommands<byte[], byte[]> c = bytes.sync();
        Map<String, byte[]> written = new LinkedHashMap<>();
        for (int i = 0; i < WRITES; i++) {
            assertEquals("OK", c.set(k("json:" + i), json(i)));
            assertEquals("OK", c.set(k("blob:" + i), blob(i)));
            written.put("json:" + i, json(i));
            written.put("blob:" + i, blob(i));
        }
        for (int from = WRITES; from < 2 * WRITES; from += 20) {
            Map<byte[], byte[]> batch = new LinkedHashMap<>();
            for (int i = from; i < from + 20; i++) {
                batch.put(k("blob:" + i), blob(i));
                batch.put(k("json:" + i), json(i));
                written.put("json:" + i, json(i));
                written.put("blob:" + i, blob(i));
            }
            assertEquals("OK", c.mset(batch));
        }

        PatternDecision blobs = decision(adaptive, "blob:*").orElseThrow(() -> new AssertionError(adaptive.snapshot()));
        PatternDecision jsons = decision(adaptive, "json:*").orElseThrow(() -> new AssertionError(adaptive.snapshot()));
        assertEquals(CompressionOption.PLAIN, blobs.option(), adaptive.snapshot().toString());
        assertTrue(jsons.option().compresses(), adaptive.snapshot().toString());
        assertTrue(blobs.valuesSeen() >= 2 * WRITES, blobs.toString());
        assertTrue(jsons.valuesSeen() >= 2 * WRITES, jsons.toString());

        RedisCommands<byte[], byte[]> raw = redis.raw().sync();
        for (Map.Entry<String, byte[]> e : written.entrySet()) {
            byte[] key = k(e.getKey());
            assertArrayEquals(e.getValue(), c.get(key), e.getKey());
            assertArrayEquals(e.getValue(), fixed.sync().get(key), e.getKey() + " on a fixed-mode connection");
            byte[] stored = raw.get(key);
            if (e.getKey().startsWith("blob:")) {
                assertArrayEquals(e.getValue(), stored, e.getKey() + " stored as it is");
            } else {
                assertHeader(stored, e.getValue());
            }
        }
        // MGET decodes every value too
        List<byte[]> keys = written.keySet().stream().limit(40).map(LettuceAdaptiveTest::k).toList();
        var values = c.mget(keys.toArray(new byte[0][]));
        for (int i = 0; i < keys.size(); i++) {
            assertArrayEquals(written.get(new String(keys.get(i), StandardCharsets.UTF_8)), values.get(i).getValue());
        }
    }

    @Test
    void hashWritesUseTheHashKeysPattern() {
        AdaptiveCompressor own = AdaptiveCompressor.builder(CONFIG).build();
        StatefulRedisConnection<byte[], byte[]> connection =
                ((CompressingRedisClient) redis.client()).connect(ByteArrayCodec.INSTANCE, own);
        try {
            RedisCommands<byte[], byte[]> c = connection.sync();
            for (int i = 0; i < 40; i++) {
                c.hset(k("hash:" + i), k("field:" + i), json(i));
                c.hset(k("hash:" + i), Map.of(k("f:a" + i), json(i + 1), k("f:b" + i), json(i + 2)));
                c.hsetnx(k("rhash:" + i), k("field:" + i), blob(i));
            }
            PatternDecision hashes = decision(own, "hash:*").orElseThrow(() -> new AssertionError(own.snapshot()));
            assertEquals(120, hashes.valuesSeen(), own.snapshot().toString());
            assertEquals(40, decision(own, "rhash:*").orElseThrow().valuesSeen(), own.snapshot().toString());
            for (PatternDecision d : own.snapshot()) {
                assertFalse(d.pattern().startsWith("f"), "a field taken as the key: " + own.snapshot());
                if (d.pattern().equals("(other)")) {
                    assertEquals(0, d.valuesSeen(), own.snapshot().toString());
                }
            }
            assertArrayEquals(json(3), c.hget(k("hash:3"), k("field:3")));
            assertArrayEquals(json(4), fixed.sync().hget(k("hash:3"), k("f:a3")));
            assertArrayEquals(blob(5), c.hget(k("rhash:5"), k("field:5")));
            assertHeader(redis.raw().sync().hget(k("hash:3"), k("f:b3")), json(5));
        } finally {
            connection.close();
        }
    }

    @Test
    @SuppressWarnings("deprecation") // SETEX: one of the commands whose value is compressed
    void stringCodecConnection() {
        AdaptiveCompressor own = AdaptiveCompressor.builder(CONFIG).build();
        StatefulRedisConnection<String, String> connection =
                ((CompressingRedisClient) redis.client()).connect(StringCodec.UTF8, own);
        try {
            RedisCommands<String, String> c = connection.sync();
            String v = TestValues.json(3000);
            assertEquals("OK", c.set("text:1", v));
            assertEquals("OK", c.mset(Map.of("text:2", v + "2", "other:3", v + "3")));
            assertEquals("OK", c.setex("text:4", 100, v + "4"));
            assertEquals(v, c.get("text:1"));
            assertEquals(v + "2", c.get("text:2"));
            assertEquals(v + "3", c.get("other:3"));
            assertEquals(v + "4", c.get("text:4"));
            assertEquals(3, decision(own, "text:*").orElseThrow().valuesSeen(), own.snapshot().toString());
            assertEquals(1, decision(own, "other:*").orElseThrow().valuesSeen(), own.snapshot().toString());
            assertHeader(redis.raw().sync().get(k("text:4")), (v + "4").getBytes(StandardCharsets.UTF_8));
        } finally {
            connection.close();
        }
    }

    /**
     * The adaptive write compresses straight into Lettuce's buffer, for each kind of delegate codec (byte[] values,
     * a ByteBuf encoder, a codec of ByteBuffers only) and each kind of buffer (heap, direct, composite): the bytes are
     * those of the array form, the default option's (zstd 3) before the pattern has its samples.
     */
    @Test
    void theWriteIntoLettucesBufferIsTheArrayForms() {
        String text = TestValues.json(2500);
        byte[] v = text.getBytes(StandardCharsets.UTF_8);
        RedisCodec<String, String> buffersOnly = new CompressingCodecTest.PlainCodec();
        Map<String, RedisCodec<?, ?>> delegates = new LinkedHashMap<>();
        delegates.put("ByteArrayCodec", ByteArrayCodec.INSTANCE);
        delegates.put("StringCodec", StringCodec.UTF8);
        delegates.put("a codec of ByteBuffers only", buffersOnly);
        byte[] expected = ValueCompressor.create(CONFIG).compress(v);
        delegates.forEach((name, delegate) -> {
            AdaptiveCompressor own = AdaptiveCompressor.builder(CONFIG).build();
            @SuppressWarnings("unchecked")
            CompressingCodec<Object, Object> codec = CompressingCodec.wrap((RedisCodec<Object, Object>) delegate, own);
            Object key = delegate == ByteArrayCodec.INSTANCE ? k("text:1") : "text:1";
            Object value = delegate == ByteArrayCodec.INSTANCE ? v : text;
            codec.attachPolicy();
            PolicyScope scope = PolicyScope.current();
            scope.compress = true;
            List<ByteBuf> targets = List.of(Unpooled.buffer(16), Unpooled.directBuffer(16),
                    Unpooled.compositeBuffer().addComponent(true, Unpooled.buffer(4)));
            try {
                for (ByteBuf target : targets) {
                    scope.startKeys(false);
                    ByteBuf keys = Unpooled.buffer();
                    codec.encodeKey(key, keys);
                    keys.release();
                    target.writeByte('$');
                    codec.encodeValue(value, target);
                    String what = name + " into " + target.getClass().getSimpleName();
                    assertEquals('$', target.readByte(), what);
                    assertArrayEquals(expected, ByteBufUtil.getBytes(target), what);
                }
                assertEquals(3, decision(own, "text:*").orElseThrow().valuesSeen(), own.snapshot().toString());
            } finally {
                scope.compress = false;
                scope.keyLength = -1;
                targets.forEach(ByteBuf::release);
            }
        });
    }

    /**
     * A key of a mebibyte, side by side with plain Lettuce: the adaptive connection's SET and GET answer as the plain
     * connection's do, each reads the other's value, the value is written under {@code (other)} (a pattern that long is
     * not tracked), and the dispatching thread keeps no copy of the key once the command is encoded (the array it
     * records the key in is kept up to the encoding buffers' bound only).
     */
    @Test
    void aKeyOfAMebibyteIsWrittenAsPlainLettuceWritesItAndNotKept() {
        AdaptiveCompressor own = AdaptiveCompressor.builder(CONFIG).build();
        StatefulRedisConnection<byte[], byte[]> conn = ((CompressingRedisClient) redis.client())
                .connect(ByteArrayCodec.INSTANCE, own);
        try {
            byte[] key = new byte[1 << 20];
            Arrays.fill(key, (byte) 'k');
            byte[] plainKey = key.clone();
            plainKey[0] = 'p';
            byte[] v = json(3);
            assertEquals(redis.raw().sync().set(plainKey, v), conn.sync().set(key, v));
            assertArrayEquals(redis.raw().sync().get(plainKey), conn.sync().get(key));
            assertArrayEquals(v, conn.sync().get(plainKey), "the plain connection's value");
            assertArrayEquals(v, own.decompress(redis.raw().sync().get(key)), "the adaptive one's, as stored");
            assertTrue(redis.raw().sync().get(key).length < v.length, "compressed");
            assertEquals(1, decision(own, "(other)").orElseThrow().valuesSeen(), own.snapshot().toString());
            assertTrue(PolicyScope.current().key.length <= EncodeBuffers.Spares.MAX_KEPT_ARRAY,
                    "the dispatching thread keeps " + PolicyScope.current().key.length + " bytes for the key");
            assertEquals(-1, PolicyScope.current().keyLength);
            assertEquals(1L, conn.sync().del(key));
            redis.raw().sync().del(plainKey);
        } finally {
            conn.close();
        }
    }

    @Test
    void aValueWithNoKeyKnownIsWrittenAsInFixedMode() {
        AdaptiveCompressor own = AdaptiveCompressor.builder(CONFIG).build();
        CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE, own);
        codec.attachPolicy();
        byte[] v = json(7);
        PolicyScope scope = PolicyScope.current();
        scope.compress = true;
        scope.startKeys(false);
        ByteBuf buf = Unpooled.buffer();
        try {
            codec.encodeValue(v, buf);
            assertArrayEquals(ValueCompressor.create(CONFIG).compress(v), ByteBufUtil.getBytes(buf));
            assertTrue(own.snapshot().stream().allMatch(d -> d.valuesSeen() == 0), own.snapshot().toString());

            buf.clear();
            codec.encodeKey(k("json:1"), buf);
            codec.encodeKey(k("field"), buf); // not the key: the command's first key stays
            buf.clear();
            codec.encodeValue(v, buf);
            assertArrayEquals(v, codec.decodeValue(buf.nioBuffer()));
            assertEquals(1, decision(own, "json:*").orElseThrow().valuesSeen(), own.snapshot().toString());
        } finally {
            scope.compress = false;
            scope.keyLength = -1;
            buf.release();
        }
    }

    @Test
    void valuesWrittenWithPerPatternDictionariesReadBack() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        try (PatternDictionaries pd = PatternDictionaries.builder(n -> stores.computeIfAbsent(n,
                        x -> new InMemoryDictionaryStore()))
                .manager(m -> m.minSamples(50).sampling(400, 4096, 1 << 20, 64L << 20).dictionarySize(4096)
                        .refreshInterval(Duration.ofMillis(200)).notifications(false)).build()) {
            writeOnTheDictionaryAndReadBack(AdaptiveCompressor.builder(CONFIG).sampling(64, 2, 4).window(8, 4)
                    .hysteresis(1, 0.01, 0.2).dictionaries(pd).build(), TestValues.jsonRecords(2000, 5));
        }
    }

    /** The application's own manager for the pattern: the connection reads what it wrote with that dictionary. */
    @Test
    void valuesWrittenWithTheApplicationsManagerOfAPatternReadBack() throws Exception {
        List<byte[]> records = TestValues.jsonRecords(3000, 6);
        try (DictionaryManager given = DictionaryManager.given(
                ZstdDictionary.train(records.subList(2000, 3000), 8 << 10).toByteArray()).build()) {
            writeOnTheDictionaryAndReadBack(AdaptiveCompressor.builder(CONFIG).sampling(64, 2, 4).window(8, 4)
                    .hysteresis(1, 0.01, 0.2).dictionaries(p -> p.equals("dict:*") ? given : null).build(),
                    records.subList(0, 2000));
        }
    }

    /**
     * Writes {@code dict:<n>} through an adaptive connection until the pattern is on its dictionary, one pass more,
     * then reads every key back through it (GET and MGET) and counts the dictionary frames the server holds.
     */
    private void writeOnTheDictionaryAndReadBack(AdaptiveCompressor own, List<byte[]> records) {
        CompressingRedisClient client = (CompressingRedisClient) redis.client();
        try (StatefulRedisConnection<byte[], byte[]> conn = client.connect(ByteArrayCodec.INSTANCE, own);
             StatefulRedisConnection<byte[], byte[]> raw = client.connect(ByteArrayCodec.INSTANCE)) {
            RedisCommands<byte[], byte[]> c = conn.sync();
            Map<String, byte[]> written = new LinkedHashMap<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int i = 0;
            boolean switched = false;
            for (int pass = 0; !switched || pass < 1; pass = switched ? pass + 1 : 0) {
                assertTrue(System.nanoTime() < deadline, "dict:* on its dictionary: " + own.snapshot());
                switched = decision(own, "dict:*").map(d -> d.option() == CompressionOption.ZSTD_3_DICTIONARY)
                        .orElse(false);
                for (int n = 0; n < 300; n++, i++) { // the pass after the switch: all with the dictionary
                    String key = "dict:" + n;
                    byte[] v = records.get(i % records.size());
                    assertEquals("OK", c.set(k(key), v));
                    written.put(key, v);
                }
            }
            int withDictionary = 0;
            for (Map.Entry<String, byte[]> e : written.entrySet()) {
                assertArrayEquals(e.getValue(), c.get(k(e.getKey())), e.getKey());
                byte[] stored = raw.sync().get(k(e.getKey()));
                withDictionary += ZstdFrame.dictionaryId(stored, 5, stored.length - 5) != 0 ? 1 : 0;
            }
            assertTrue(withDictionary > 100, withDictionary + " of " + written.size() + " with a dictionary");
            List<String> keys = List.copyOf(written.keySet()).subList(0, 20);
            List<KeyValue<byte[], byte[]>> got = c.mget(keys.stream().map(LettuceAdaptiveTest::k)
                    .toArray(byte[][]::new));
            for (int n = 0; n < keys.size(); n++) {
                assertArrayEquals(written.get(keys.get(n)), got.get(n).getValue(), keys.get(n));
            }
        }
    }

    @Test
    void theCodecGivesItsCompressorAndIsNotWrappedTwice() {
        CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE, adaptive);
        assertSame(adaptive, codec.adaptive());
        assertSame(adaptive.reader(), codec.compressor());
        assertNull(CompressingCodec.wrap(ByteArrayCodec.INSTANCE, CONFIG).adaptive());
        assertThrows(IllegalArgumentException.class,
                () -> ((CompressingRedisClient) redis.client()).connect(codec, adaptive));
    }
}
