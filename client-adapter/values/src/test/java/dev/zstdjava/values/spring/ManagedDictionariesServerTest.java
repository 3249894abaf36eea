package dev.zstdjava.values.spring;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryInfo;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.MissingDictionaryException;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.jedis.CompressingJedis;
import dev.zstdjava.zstd.ZstdDictionary;
import dev.zstdjava.zstd.ZstdFrame;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Managed dictionaries of several clients on one real server, each client with its own connections and store (as
 * separate processes have): trainings, what is published, and whether every value written reads back in a fresh
 * client; and a store entry damaged in the server.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class ManagedDictionariesServerTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    static final List<byte[]> TRAIN = TestValues.jsonRecords(3000, 21);
    static final List<byte[]> VALUES = TestValues.jsonRecords(200, 22);

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            assertTrue(System.nanoTime() < deadline, "timed out waiting for " + what);
            Thread.sleep(20);
        }
    }

    /** A client's own connection factory (closed by {@link #close}) and its store under {@code prefix}. */
    static SpringDictionaryStore store(List<RedisConnectionFactory> factories, String prefix) {
        RedisConnectionFactory f = CompressingRedisSerializerTest.start(CompressingRedisSerializerTest.Driver.LETTUCE,
                redis.server().port());
        factories.add(f);
        return new SpringDictionaryStore(f, prefix, 1 << 20);
    }

    static void close(List<DictionaryManager> managers, List<RedisConnectionFactory> factories) throws Exception {
        for (DictionaryManager m : managers) {
            m.close();
        }
        for (RedisConnectionFactory f : factories) {
            ((DisposableBean) f).destroy();
        }
    }

    /**
     * Three clients write the same kind of values at once: one trains and publishes, the others use its dictionary
     * and, their values not drifting, do not train in turn as each one's lease comes (two retrain intervals pass).
     * Every frame names a published dictionary, and a fresh client reads every value, side by side with the stored
     * bytes the plain client sees.
     */
    @Test
    void clientsTrainingAtOnceTrainOnceAndAFreshClientReadsEveryValue() throws Exception {
        String prefix = "zstd-java:dict:{clients-at-once}:";
        List<RedisConnectionFactory> factories = new ArrayList<>();
        List<DictionaryManager> managers = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(3);
        try {
            for (int c = 0; c < 3; c++) {
                managers.add(DictionaryManager.managed(store(factories, prefix)).minSamples(300)
                        .refreshInterval(Duration.ofMillis(100)).retrainInterval(Duration.ofSeconds(3)).build());
            }
            // two intervals; the lease lasts one, three times the 1 s a loser waits before asking again, so that a
            // loser does not take an expired lease while the winner's dictionary is still on its way (a slow machine)
            long end = System.nanoTime() + Duration.ofSeconds(7).toNanos();
            List<Future<?>> writers = new ArrayList<>();
            for (int c = 0; c < 3; c++) {
                int client = c;
                CompressingJedis jedis = new CompressingJedis(redis.client(),
                        ValueCompressor.create(CompressionConfig.defaults(), managers.get(c)));
                writers.add(pool.submit(() -> {
                    for (int round = 0; round == 0 || System.nanoTime() < end; round++) {
                        for (int i = round % 2; i < TRAIN.size(); i += 2) {
                            jedis.set(b("c" + client + ":" + i), TRAIN.get(i));
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> w : writers) {
                w.get();
            }
            long trained = managers.stream().mapToLong(m -> m.trainingStats().trained()).sum();
            assertEquals(1, trained, "trainings on values that did not drift: " + managers.stream()
                    .map(m -> m.trainingStats().recent().toString()).collect(Collectors.joining("\n")));
            List<DictionaryInfo> published = managers.get(0).published();
            assertEquals(1, published.size(), published.toString());
            long id = published.get(0).id();
            for (DictionaryManager m : managers) {
                assertEquals(id, m.currentId());
                // emptied (a write under way as sampling stopped may leave one sample): no reservoir is kept
                assertTrue(m.trainingStats().samples() < 10, "a reservoir kept: " + m.trainingStats());
            }
            Set<Long> named = ConcurrentHashMap.newKeySet();
            try (DictionaryManager fresh = DictionaryManager.shared(store(factories, prefix)).build()) {
                CompressingJedis reader = new CompressingJedis(redis.client(),
                        ValueCompressor.create(CompressionConfig.defaults(), fresh));
                int withDictionary = 0;
                for (int c = 0; c < 3; c++) {
                    for (int i = 0; i < TRAIN.size(); i++) {
                        byte[] key = b("c" + c + ":" + i);
                        byte[] stored = redis.client().get(key);
                        long frameId = stored[0] == 0 ? ZstdFrame.dictionaryId(stored, 5, stored.length - 5) : 0;
                        if (frameId != 0) {
                            named.add(frameId);
                            withDictionary++;
                        }
                        assertArrayEquals(TRAIN.get(i), reader.get(key), "key " + new String(key));
                    }
                }
                assertEquals(Set.of(id), named, "the dictionaries the frames name");
                assertTrue(withDictionary > 3 * TRAIN.size() / 2, withDictionary + " values with the dictionary");
            }
        } finally {
            pool.shutdownNow();
            close(managers, factories);
        }
    }

    /**
     * A published entry cut short in the server (a partial restore, an overwrite): its bytes are still a dictionary
     * that digests and round-trips a probe, and decoded the values of the published one to wrong bytes. A fresh
     * client rejects it, naming both sizes and the store, and each of its values fails as missing its dictionary
     * while the plain client sees the stored bytes untouched.
     */
    @Test
    void anEntryCutShortInTheServerIsRejectedAndItsValuesFailAsMissing() throws Exception {
        String prefix = "zstd-java:dict:{cut-short}:";
        List<RedisConnectionFactory> factories = new ArrayList<>();
        List<DictionaryManager> managers = new ArrayList<>();
        try {
            byte[] dict = ZstdDictionary.train(TRAIN, 16 << 10).toByteArray();
            long id = ZstdDictionary.of(dict).id();
            assertEquals(1, store(factories, prefix).putIfAbsent(id, dict).sequence());
            DictionaryManager writer = DictionaryManager.shared(store(factories, prefix)).build();
            managers.add(writer);
            CompressingJedis w = new CompressingJedis(redis.client(),
                    ValueCompressor.create(CompressionConfig.defaults(), writer));
            for (int i = 0; i < VALUES.size(); i++) {
                w.set(b("v" + i), VALUES.get(i));
                assertArrayEquals(VALUES.get(i), w.get(b("v" + i)));
            }
            byte[] cut = Arrays.copyOf(dict, dict.length - 4000);
            redis.client().set(b(prefix + "dict:" + id), cut);

            DictionaryManager reader = DictionaryManager.shared(store(factories, prefix)).build();
            managers.add(reader);
            assertFalse(reader.isLoaded(id));
            String why = reader.rejectedDictionaries().get(id);
            assertNotNull(why, "not rejected: " + reader.rejectedDictionaries());
            assertTrue(why.contains("lists it with " + dict.length + " bytes but its entry holds " + cut.length)
                    && why.contains(prefix), why);
            CompressingJedis r = new CompressingJedis(redis.client(),
                    ValueCompressor.create(CompressionConfig.defaults(), reader));
            for (int i = 0; i < VALUES.size(); i++) {
                byte[] key = b("v" + i);
                MissingDictionaryException e = assertThrows(MissingDictionaryException.class, () -> r.get(key),
                        "v" + i + " read with the cut entry");
                assertEquals(id, e.dictionaryId());
                assertTrue(e.getMessage().contains("rejected"), e.getMessage());
                byte[] stored = redis.client().get(key);
                assertEquals(id, ZstdFrame.dictionaryId(stored, 5, stored.length - 5), "stored as written");
            }
        } finally {
            close(managers, factories);
        }
    }

    /**
     * What a read missing its dictionary says, on a real server: where the store keeps the dictionary (its key), and
     * what to do. A dictionary being fetched: retry the read. A listed entry whose key was deleted: retrying does not
     * help until the entry's bytes are restored under that key; restored, the value reads again. The plain client sees
     * the stored bytes untouched throughout.
     */
    @Test
    void aValueMissingItsDictionaryNamesTheKeyAndWhatToDo() throws Exception {
        String prefix = "zstd-java:dict:{deleted-entry}:";
        List<RedisConnectionFactory> factories = new ArrayList<>();
        List<DictionaryManager> managers = new ArrayList<>();
        try {
            byte[] dict = ZstdDictionary.train(TRAIN, 16 << 10).toByteArray();
            long id = ZstdDictionary.of(dict).id();
            String entryKey = prefix + "dict:" + id;
            byte[] value = VALUES.get(7);
            byte[] key = b("deleted-entry:v");
            try (DictionaryManager given = DictionaryManager.given(dict).build()) {
                new CompressingJedis(redis.client(), ValueCompressor.create(CompressionConfig.defaults(), given))
                        .set(key, value);
            }
            byte[] stored = redis.client().get(key);
            assertEquals(id, ZstdFrame.dictionaryId(stored, 5, stored.length - 5));

            // not published yet: the reader fetches it on a read's miss
            DictionaryManager early = DictionaryManager.shared(store(factories, prefix)).notifications(false)
                    .refreshInterval(Duration.ofHours(1)).build();
            managers.add(early);
            store(factories, prefix).putIfAbsent(id, dict);
            CompressingJedis e = new CompressingJedis(redis.client(),
                    ValueCompressor.create(CompressionConfig.defaults(), early));
            MissingDictionaryException fetching = assertThrows(MissingDictionaryException.class, () -> e.get(key));
            assertTrue(fetching.getMessage().contains(entryKey) && fetching.getMessage().contains("retry the read"),
                    fetching.getMessage());
            await("the fetched dictionary", () -> early.isLoaded(id));
            assertArrayEquals(value, e.get(key));

            // listed, its entry's key deleted
            redis.client().del(b(entryKey));
            DictionaryManager reader = DictionaryManager.shared(store(factories, prefix)).build();
            managers.add(reader);
            assertFalse(reader.isLoaded(id));
            CompressingJedis r = new CompressingJedis(redis.client(),
                    ValueCompressor.create(CompressionConfig.defaults(), reader));
            for (int i = 0; i < 3; i++) { // the same each time: retrying does not help
                MissingDictionaryException gone = assertThrows(MissingDictionaryException.class, () -> r.get(key));
                String m = gone.getMessage();
                assertEquals(id, gone.dictionaryId());
                assertTrue(m.contains(entryKey) && m.contains("restore") && !m.contains("retry the read"), m);
                assertArrayEquals(stored, redis.client().get(key), "the stored bytes untouched");
                Thread.sleep(1100); // past the manager's once-a-second look-up of the id
            }
            redis.client().set(b(entryKey), dict);
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            while (true) {
                try {
                    assertArrayEquals(value, r.get(key));
                    break;
                } catch (MissingDictionaryException x) {
                    assertTrue(System.nanoTime() < deadline, "restored entry not loaded: " + x.getMessage());
                    Thread.sleep(50);
                }
            }
        } finally {
            close(managers, factories);
        }
    }
}
