package dev.zstdjava.cli;

import dev.zstdjava.lettuce.LettuceDictionaryStore;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.PatternDictionaries;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

import static dev.zstdjava.cli.Writers.utf8;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Values an adaptive client wrote with per-pattern dictionaries, on a real server: the tool decodes them with the
 * lineages' dictionaries (found through the id claims) and never takes the lineages' keys for values.
 */
class PatternDictionariesToolTest extends StandaloneServer {

    @Test
    void valuesOnAPatternsDictionaryDecodeAndItsLineagesKeysAreLeftAlone(@TempDir Path tmp) throws Exception {
        Map<String, byte[]> written = new LinkedHashMap<>();
        long id = writeOnEventsDictionary(written);
        Map<String, Object> lineageKeys = lineageKeys();
        assertTrue(lineageKeys.keySet().stream().anyMatch(k -> k.startsWith(PatternDictionaries.prefix(
                PatternDictionaries.lineageName("event:*")))), lineageKeys.keySet().toString());
        assertTrue(lineageKeys.keySet().stream().anyMatch(k -> k.startsWith(PatternDictionaries.prefix(
                PatternDictionaries.ID_CLAIMS))), lineageKeys.keySet().toString());

        // in the store of --dictionary-prefix: bytes that are no dictionary, and the lineage's dictionary under
        // another id; each is left out, named on stderr, and the run goes on
        byte[] lineageDictionary = ((ByteBuffer) lineageKeys.get(PatternDictionaries.prefix("event:*")
                + "dict:" + id)).duplicate().array();
        RedisClient storeClient = RedisClient.create();
        try (LettuceDictionaryStore store = LettuceDictionaryStore.builder().connect(storeClient,
                RedisURI.create(RedisServer.HOST, server.port()))) {
            byte[] junk = TestValues.random(2000, 3);
            ByteBuffer.wrap(junk).order(ByteOrder.LITTLE_ENDIAN).putInt(0xEC30A437).putInt(12345);
            store.putIfAbsent(12345, junk);
            store.putIfAbsent(777, lineageDictionary);
        } finally {
            storeClient.shutdown(0, 2, TimeUnit.SECONDS);
        }
        Map<String, Object> defaultStore = storeKeys(LettuceDictionaryStore.DEFAULT_PREFIX);

        // inspect: the values on the dictionary are decoded with it, nothing is missing one, no store key is a value
        Tool inspect = Tool.run("inspect", uri, "--json");
        assertEquals(0, inspect.code(), inspect.toString());
        assertTrue(inspect.err().contains("dictionary 12345 is left out") && inspect.err().contains("not usable"),
                inspect.err());
        assertTrue(inspect.err().contains("dictionary 777 is left out (values written with it count as missing their "
                + "dictionary): its header names dictionary " + id), inspect.err());
        Map<String, Long> cl = InspectTest.classes(inspect.json());
        assertTrue(cl.getOrDefault("event:* | string value | glide-zstd (dictionary " + id + ")", 0L) > 0, cl.toString());
        assertTrue(cl.keySet().stream().noneMatch(c -> c.contains("missing dictionary") || c.startsWith("zstd-java:")),
                cl.toString());
        String last = new ArrayList<>(written.keySet()).get(written.size() - 1);
        Path out = tmp.resolve("value.bin");
        Tool get = Tool.run("inspect", "get", uri, last, "--out", out.toString());
        assertEquals(0, get.code(), get.toString());
        assertArrayEquals(written.get(last), Files.readAllBytes(out));

        // migrate to plain: every value is the application's bytes again; the lineages' keys are as they were
        Tool plain = Tool.run("migrate", uri, "--from", "compressed", "--to", "plain", "--match", "*", "--apply", "--json");
        assertEquals(0, plain.code(), plain.toString());
        assertEquals(0, MigrateTest.count(plain.json(), "failed"), plain.out());
        written.forEach((k, v) -> assertArrayEquals(v, MigrateTest.get(k), k));
        assertEquals(lineageKeys, lineageKeys());
        assertEquals(defaultStore, storeKeys(LettuceDictionaryStore.DEFAULT_PREFIX));
        // and back to compressed: the values are, the dictionaries (plain bytes that compress) are not
        Tool zstd = Tool.run("migrate", uri, "--from", "plain", "--to", "glide-zstd:3", "--match", "*", "--apply", "--json");
        assertEquals(0, zstd.code(), zstd.toString());
        assertTrue(MigrateTest.count(zstd.json(), "rewritten") > 0, zstd.out());
        assertEquals(lineageKeys, lineageKeys());
        assertEquals(defaultStore, storeKeys(LettuceDictionaryStore.DEFAULT_PREFIX));
    }

    /**
     * The store of {@code --dictionary-prefix} and a pattern's lineage holding one id with different bytes: the tool
     * reads with neither, names both, and the values written with the id count as missing their dictionary.
     */
    @Test
    void anIdTheStoreAndALineageHoldWithDifferentBytesIsReadWithNeither() throws Exception {
        long id = writeOnEventsDictionary(new LinkedHashMap<>());
        byte[] other = ((ByteBuffer) lineageKeys().get(PatternDictionaries.prefix("event:*") + "dict:" + id))
                .duplicate().array().clone();
        other[other.length - 1] ^= 1;
        publish(id, other);

        Tool inspect = Tool.run("inspect", uri, "--json");
        assertEquals(0, inspect.code(), inspect.toString());
        String err = inspect.err();
        assertTrue(err.contains("dictionary " + id + " is left out (values written with it count as missing their"
                + " dictionary): the id is held by the store of " + LettuceDictionaryStore.DEFAULT_PREFIX + " (key "
                + LettuceDictionaryStore.DEFAULT_PREFIX + "dict:" + id + " ") && err.contains(") and a pattern's"
                + " lineage (its claim in the " + PatternDictionaries.ID_CLAIMS + " store names it) with different"
                + " bytes") && err.contains("neither reads it"), err);
        Map<String, Long> cl = InspectTest.classes(inspect.json());
        assertTrue(cl.getOrDefault("event:* | string value | glide-zstd (dictionary " + id + "): missing dictionary",
                0L) > 0, cl.toString());
    }

    /**
     * Writes {@code event:<n>} records through an adaptive compressor whose pattern lineages keep their dictionaries
     * in this server, until the pattern is on its dictionary and 50 more.
     *
     * @return the id of the dictionary the last values were written with
     */
    private static long writeOnEventsDictionary(Map<String, byte[]> written) throws Exception {
        RedisClient storeClient = RedisClient.create();
        RedisURI at = RedisURI.create(RedisServer.HOST, server.port());
        List<LettuceDictionaryStore> opened = new ArrayList<>();
        List<byte[]> records = TestValues.jsonRecords(2000, 5);
        try (PatternDictionaries pd = PatternDictionaries.builder(name -> {
                    LettuceDictionaryStore s = LettuceDictionaryStore.builder()
                            .keyPrefix(PatternDictionaries.prefix(name)).connect(storeClient, at);
                    opened.add(s);
                    return s;
                })
                .manager(m -> m.minSamples(50).sampling(400, 4096, 1 << 20, 64L << 20).dictionarySize(4096)
                        .refreshInterval(Duration.ofMillis(200)).notifications(false)).build()) {
            AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.defaults()).sampling(64, 2, 4)
                    .window(8, 4).hysteresis(1, 0.01, 0.2).dictionaries(pd).build();
            long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
            int after = -1;
            for (int i = 0; after < 50; i++) {
                if (after < 0 && i % 50 == 0 && ac.snapshot().stream().anyMatch(d -> d.pattern().equals("event:*")
                        && d.option() == CompressionOption.ZSTD_3_DICTIONARY)) {
                    after = 0;
                }
                if (after >= 0) {
                    after++;
                }
                assertTrue(System.nanoTime() < deadline, "event:* did not go on its dictionary in 30 s");
                String key = "event:" + i;
                byte[] v = records.get(i % records.size());
                raw.sync().set(utf8(key), ac.compress(utf8(key), v));
                written.put(key, v);
                if (i % 200 == 199) {
                    Thread.sleep(5);
                }
            }
            return pd.manager("event:*").currentId();
        } finally {
            opened.forEach(LettuceDictionaryStore::close);
            storeClient.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    /** @return every key under {@code prefix}, with its content */
    private static Map<String, Object> storeKeys(String prefix) {
        Map<String, Object> m = new TreeMap<>();
        MigrateTest.dump().forEach((k, v) -> {
            if (k.startsWith(prefix)) {
                m.put(k, v);
            }
        });
        return m;
    }

    /** @return every key under a lineage's prefix, with its content */
    private static Map<String, Object> lineageKeys() {
        Map<String, Object> m = new TreeMap<>();
        MigrateTest.dump().forEach((k, v) -> {
            if (PatternDictionaries.isLineageKey(k.getBytes(StandardCharsets.UTF_8))) {
                m.put(k, v);
            }
        });
        return m;
    }
}
