package dev.zstdjava.values.jedis;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.InMemoryDictionaryStore;
import dev.zstdjava.values.MissingDictionaryException;
import dev.zstdjava.values.PatternDictionaries;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdFrame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static dev.zstdjava.values.TwoPatterns.b;
import static dev.zstdjava.values.TwoPatterns.decision;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link CompressingJedis} in the adaptive mode with {@link PatternDictionaries} on a real server: values written with
 * their pattern's trained dictionary read back through the client's GET and MGET (its reader is the adaptive
 * compressor's), while a client without the dictionaries fails on them naming the dictionary.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class AdaptiveJedisDictionariesTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    private static final List<byte[]> RECORDS = TestValues.jsonRecords(2000, 5);

    private static long dictionaryId(byte[] raw) {
        return raw.length > 5 && raw[0] == 0 ? ZstdFrame.dictionaryId(raw, 5, raw.length - 5) : 0;
    }

    @Test
    void valuesWrittenWithPerPatternDictionariesReadBackThroughGet() throws Exception {
        Map<String, InMemoryDictionaryStore> stores = new ConcurrentHashMap<>();
        try (PatternDictionaries pd = PatternDictionaries.builder(n -> stores.computeIfAbsent(n,
                        x -> new InMemoryDictionaryStore()))
                .manager(m -> m.minSamples(50).sampling(400, 4096, 1 << 20, 64L << 20).dictionarySize(4096)
                        .refreshInterval(Duration.ofMillis(200)).notifications(false)).build()) {
            AdaptiveCompressor adaptive = AdaptiveCompressor.builder(CompressionConfig.defaults())
                    .sampling(64, 2, 4).window(8, 4).hysteresis(1, 0.01, 0.2).dictionaries(pd).build();
            CompressingJedis jedis = new CompressingJedis(redis.client(), adaptive);
            Map<String, byte[]> written = new LinkedHashMap<>();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int i = 0;
            do {
                assertTrue(System.nanoTime() < deadline, "timed out waiting for order:* to write with its dictionary: "
                        + adaptive.snapshot());
                String key = "order:" + (i % 300);
                byte[] v = RECORDS.get(i % RECORDS.size());
                assertEquals("OK", jedis.set(b(key), v));
                written.put(key, v);
                i++;
            } while (decision(adaptive, "order:*").option() != CompressionOption.ZSTD_3_DICTIONARY
                    || written.size() < 300);
            for (int k = 0; k < 300; k++, i++) { // the latest writes, with the dictionary
                String key = "order:" + k;
                byte[] v = RECORDS.get(i % RECORDS.size());
                assertEquals("OK", jedis.set(b(key), v));
                written.put(key, v);
            }
            long id = pd.manager("order:*").currentId();
            assertNotEquals(0, id);
            CompressingJedis fixed = new CompressingJedis(redis.client(),
                    ValueCompressor.create(CompressionConfig.defaults()));
            int withDictionary = 0;
            for (Map.Entry<String, byte[]> e : written.entrySet()) {
                byte[] key = b(e.getKey());
                assertArrayEquals(e.getValue(), jedis.get(key), e.getKey());
                long frameId = dictionaryId(redis.client().get(key));
                if (frameId != 0) {
                    withDictionary++;
                    MissingDictionaryException x = assertThrows(MissingDictionaryException.class, () -> fixed.get(key));
                    assertEquals(frameId, x.dictionaryId());
                }
            }
            assertTrue(withDictionary > 100, withDictionary + " of " + written.size() + " with the dictionary");
            List<String> keys = List.copyOf(written.keySet()).subList(0, 20);
            List<byte[]> got = jedis.mget(keys.stream().map(k -> b(k)).toArray(byte[][]::new));
            for (int k = 0; k < keys.size(); k++) {
                assertArrayEquals(written.get(keys.get(k)), got.get(k), keys.get(k));
            }
        }
    }
}
