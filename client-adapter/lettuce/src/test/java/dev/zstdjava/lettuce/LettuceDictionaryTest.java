package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryCollisionException;
import dev.zstdjava.values.DictionaryInfo;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.DictionaryStats;
import dev.zstdjava.values.MissingDictionaryException;
import dev.zstdjava.values.TrainingEvent;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdDictionary;
import dev.zstdjava.zstd.ZstdFrame;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.*;

/** Dictionaries on a real standalone server: the server-backed store, both modes, a second client, failures. */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class LettuceDictionaryTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer(CompressingRedisClient::create);

    static final String PREFIX = LettuceDictionaryStore.DEFAULT_PREFIX;
    static final List<byte[]> TRAIN = TestValues.jsonRecords(3000, 11);
    static final List<byte[]> VALUES = TestValues.jsonRecords(200, 12);

    static byte[] k(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static long frameDictId(byte[] stored) {
        return ZstdFrame.dictionaryId(stored, 5, stored.length - 5);
    }

    static LettuceDictionaryStore store() {
        return LettuceDictionaryStore.builder().connect(redis.client(), redis.uri());
    }

    static void await(String what, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                fail("timed out waiting for " + what);
            }
            Thread.sleep(20);
        }
    }

    static Throwable causeOfType(Throwable e, Class<?> type) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (type.isInstance(t)) {
                return t;
            }
        }
        return null;
    }

    @Test
    void givenModeThroughTheCodec() {
        byte[] dict = ZstdDictionary.train(TRAIN, 16 << 10).toByteArray();
        long id = ZstdDictionary.of(dict).id();
        try (DictionaryManager m = DictionaryManager.given(dict).build()) {
            CompressingCodec<String, String> codec = CompressingCodec.wrap(StringCodec.UTF8,
                    ValueCompressor.create(CompressionConfig.defaults(), m));
            try (StatefulRedisConnection<String, String> conn = redis.client().connect(codec)) {
                for (int i = 0; i < VALUES.size(); i++) {
                    conn.sync().set("g" + i, new String(VALUES.get(i), StandardCharsets.US_ASCII));
                }
                for (int i = 0; i < VALUES.size(); i++) {
                    byte[] stored = redis.raw().sync().get(k("g" + i));
                    assertArrayEquals(new byte[] {0, 1, 2, 0, 1}, Arrays.copyOf(stored, 5));
                    assertEquals(id, frameDictId(stored));
                    assertEquals(new String(VALUES.get(i), StandardCharsets.US_ASCII), conn.sync().get("g" + i));
                }
            }
            DictionaryStats s = m.dictionaryStats().get(0);
            assertEquals(VALUES.size(), s.valuesWritten());
            assertTrue(s.savedFraction() > 0.45, "saved " + s.savedFraction());
        }
    }

    @Test
    void managedModePublishesInTheServerAndASecondClientPicksItUp() throws Exception {
        long id;
        try (LettuceDictionaryStore store = store();
             DictionaryManager m = DictionaryManager.managed(store).minSamples(500).build()) {
            CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE,
                    ValueCompressor.create(CompressionConfig.defaults(), m));
            try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec)) {
                for (int i = 0; i < TRAIN.size(); i++) {
                    conn.async().set(k("t" + i), TRAIN.get(i));
                }
                // the store's notification can load the dictionary before the trainer records ADOPTED: wait for both
                await("a dictionary to be adopted", () -> m.currentId() != 0 && m.trainingStats().adopted() == 1);
                id = m.currentId();
                List<TrainingEvent.Kind> kinds = m.trainingStats().recent().stream().map(TrainingEvent::kind).toList();
                assertEquals(List.of(TrainingEvent.Kind.TRAINED, TrainingEvent.Kind.ADOPTED), kinds);
                // published under the reserved prefix: the entry, the counter, the index, the lease
                assertArrayEquals(k("1"), redis.raw().sync().get(k(PREFIX + "seq")));
                byte[] entry = redis.raw().sync().get(k(PREFIX + "dict:" + id));
                assertEquals(id, ZstdDictionary.of(entry).id());
                assertEquals(List.of(new DictionaryInfo(id, 1, entry.length)), store.list());
                assertEquals(store.list(), m.published());
                assertNotNull(redis.raw().sync().get(k(PREFIX + "lease")),
                        "the trainer keeps its lease for the interval");
                for (int i = 0; i < VALUES.size(); i++) {
                    conn.sync().set(k("v" + i), VALUES.get(i));
                    byte[] stored = redis.raw().sync().get(k("v" + i));
                    assertEquals(id, frameDictId(stored));
                    assertArrayEquals(VALUES.get(i), conn.sync().get(k("v" + i)));
                }
                for (int i = 0; i < TRAIN.size(); i += 7) {
                    assertArrayEquals(TRAIN.get(i), conn.sync().get(k("t" + i)));
                }
            }
        }
        // a second client (and a restarted one): loads every published dictionary before build() returns
        try (LettuceDictionaryStore store = store();
             DictionaryManager m = DictionaryManager.managed(store).minSamples(500).build()) {
            assertEquals(id, m.currentId());
            CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE,
                    ValueCompressor.create(CompressionConfig.defaults(), m));
            try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec)) {
                for (int i = 0; i < VALUES.size(); i++) {
                    assertArrayEquals(VALUES.get(i), conn.sync().get(k("v" + i)));
                }
                conn.sync().set(k("second"), VALUES.get(0));
                assertEquals(id, frameDictId(redis.raw().sync().get(k("second"))));
            }
            assertEquals(0, m.trainingStats().trained(), "the lease of the first trainer holds");
        }
    }

    @Test
    void missingDictionaryFailsTheCommandKeepsTheConnectionAndTheNextReadSucceeds() throws Exception {
        byte[] dict = ZstdDictionary.train(TRAIN, 16 << 10).toByteArray();
        long id = ZstdDictionary.of(dict).id();
        try (LettuceDictionaryStore readerStore = store();
             DictionaryManager reader = DictionaryManager.shared(readerStore).refreshInterval(Duration.ofHours(1))
                     .notifications(false).build()) { // only the failed read can make it look
            try (DictionaryManager writer = DictionaryManager.given(dict).build()) {
                CompressingCodec<byte[], byte[]> w = CompressingCodec.wrap(ByteArrayCodec.INSTANCE,
                        ValueCompressor.create(CompressionConfig.defaults(), writer));
                try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(w)) {
                    conn.sync().set(k("d"), VALUES.get(5));
                }
            }
            redis.raw().sync().set(k("plain"), k("plain value"));
            try (LettuceDictionaryStore publisher = store()) {
                assertEquals(1, publisher.putIfAbsent(id, dict).sequence());
            }
            CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE,
                    ValueCompressor.create(CompressionConfig.defaults(), reader));
            try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec)) {
                Exception e = assertThrows(Exception.class, () -> conn.sync().get(k("d")));
                MissingDictionaryException missing =
                        (MissingDictionaryException) causeOfType(e, MissingDictionaryException.class);
                assertNotNull(missing, "MissingDictionaryException in the cause chain of " + e);
                assertEquals(id, missing.dictionaryId());
                assertTrue(missing.getMessage().contains(Long.toString(id)), missing.getMessage());
                assertArrayEquals(k("plain value"), conn.sync().get(k("plain")), "the connection stays usable");
                await("the dictionary to be fetched", () -> reader.isLoaded(id));
                assertArrayEquals(VALUES.get(5), conn.sync().get(k("d")));
            }
        }
    }

    @Test
    void aServerRestartKeepsTheDictionariesAndARestartedClientReloadsThem() throws Exception {
        byte[] dict = ZstdDictionary.train(TRAIN, 16 << 10).toByteArray();
        long id = ZstdDictionary.of(dict).id();
        try (LettuceDictionaryStore s = store()) {
            s.putIfAbsent(id, dict);
        }
        try (LettuceDictionaryStore s = store(); DictionaryManager m = DictionaryManager.shared(s).build()) {
            CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE,
                    ValueCompressor.create(CompressionConfig.defaults(), m));
            try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec)) {
                for (int i = 0; i < 50; i++) {
                    conn.sync().set(k("r" + i), VALUES.get(i));
                }
                redis.server().restart();
                // the running client reconnects and keeps reading and writing with its loaded dictionary
                assertArrayEquals(VALUES.get(0), conn.sync().get(k("r0")));
                conn.sync().set(k("r50"), VALUES.get(50));
                assertEquals(id, frameDictId(redis.raw().sync().get(k("r50"))));
            }
        }
        // a restarted client loads the dictionaries from the restarted server before build() returns
        try (LettuceDictionaryStore s = store(); DictionaryManager m = DictionaryManager.shared(s).build()) {
            assertTrue(m.isLoaded(id));
            assertEquals(id, m.currentId());
            assertEquals(List.of(new DictionaryInfo(id, 1, dict.length)), m.published());
            CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE,
                    ValueCompressor.create(CompressionConfig.defaults(), m));
            try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec)) {
                for (int i = 0; i <= 50; i++) {
                    assertArrayEquals(VALUES.get(i), conn.sync().get(k("r" + i)));
                }
            }
            byte[] next = ZstdDictionary.train(VALUES, 4 << 10).toByteArray();
            assertEquals(2, s.putIfAbsent(ZstdDictionary.of(next).id(), next).sequence(), "the counter survived");
        }
    }

    @Test
    void aPublicationIsAnnouncedOverPubSubAndOtherClientsLoadItAtOnce() throws Exception {
        byte[] dict = ZstdDictionary.train(TRAIN, 16 << 10).toByteArray();
        long id = ZstdDictionary.of(dict).id();
        try (LettuceDictionaryStore s = store();
             DictionaryManager m = DictionaryManager.shared(s).refreshInterval(Duration.ofHours(1)).build();
             LettuceDictionaryStore publisher = store()) {
            assertEquals(0, m.currentId());
            publisher.putIfAbsent(id, dict);
            await("the announced dictionary", () -> m.currentId() == id);
        }
    }

    @Test
    void corruptAndOversizedEntriesAreRejectedAlone() throws Exception {
        byte[] good = ZstdDictionary.train(TRAIN, 16 << 10).toByteArray();
        long goodId = ZstdDictionary.of(good).id();
        byte[] corrupt = good.clone();
        for (int i = 8; i < corrupt.length; i += 5) {
            corrupt[i] ^= 0x5a;
        }
        long corruptId = goodId == 1234567 ? 7654321 : 1234567;
        System.arraycopy(new byte[] {(byte) corruptId, (byte) (corruptId >> 8), (byte) (corruptId >> 16),
                (byte) (corruptId >> 24)}, 0, corrupt, 4, 4);
        try (LettuceDictionaryStore s = store()) {
            s.putIfAbsent(goodId, good);
            s.putIfAbsent(corruptId, corrupt);
        }
        // written around the store, as a hostile or broken writer could: bytes that are not a dictionary, a huge
        // entry the index calls small, and index lines that are not numbers
        redis.raw().sync().set(k(PREFIX + "dict:424242"), k("not a dictionary"));
        redis.raw().sync().hset(k(PREFIX + "index"), k("424242"), k("3 16"));
        redis.raw().sync().set(k(PREFIX + "dict:434343"), new byte[2 << 20]);
        redis.raw().sync().hset(k(PREFIX + "index"), k("434343"), k("4 100"));
        redis.raw().sync().hset(k(PREFIX + "index"), k("garbage"), k("x y"));
        redis.raw().sync().set(k(PREFIX + "seq"), k("4"));
        try (LettuceDictionaryStore s = store();
             DictionaryManager m = DictionaryManager.shared(s).build()) {
            assertTrue(m.isLoaded(goodId));
            assertEquals(goodId, m.currentId(), "the newest valid dictionary compresses");
            Map<Long, String> rejected = m.rejectedDictionaries();
            assertTrue(rejected.containsKey(corruptId) && rejected.containsKey(424242L), rejected.toString());
            assertFalse(m.isLoaded(434343), "an entry above the size limit is not read");
            assertEquals(List.of(goodId, corruptId, 424242L, 434343L),
                    s.list().stream().map(DictionaryInfo::id).toList());
            CompressingCodec<byte[], byte[]> codec = CompressingCodec.wrap(ByteArrayCodec.INSTANCE,
                    ValueCompressor.create(CompressionConfig.defaults(), m));
            try (StatefulRedisConnection<byte[], byte[]> conn = redis.client().connect(codec)) {
                for (int i = 0; i < 50; i++) {
                    conn.sync().set(k("c" + i), VALUES.get(i));
                    assertArrayEquals(VALUES.get(i), conn.sync().get(k("c" + i)));
                }
                // a value naming the rejected dictionary fails with the reason, the connection stays usable
                byte[] forgedDict = ZstdDictionary.trainer(8 << 10).dictionaryId(424242).train(TRAIN).toByteArray();
                byte[] forged;
                try (DictionaryManager w = DictionaryManager.given(forgedDict).build()) {
                    forged = ValueCompressor.create(CompressionConfig.defaults(), w).compress(VALUES.get(0));
                }
                assertEquals(424242, frameDictId(forged));
                redis.raw().sync().set(k("forged"), forged);
                Exception e = assertThrows(Exception.class, () -> conn.sync().get(k("forged")));
                Throwable missing = causeOfType(e, MissingDictionaryException.class);
                assertNotNull(missing, e.toString());
                assertTrue(missing.getMessage().contains("rejected"), missing.getMessage());
                assertArrayEquals(VALUES.get(1), conn.sync().get(k("c1")));
            }
        }
    }

    @Test
    void entriesAreWriteOnceAndOneLeaseHolderAtATime() {
        byte[] a = ZstdDictionary.train(TRAIN.subList(0, 1500), 8 << 10).toByteArray();
        long id = ZstdDictionary.of(a).id();
        byte[] other = ZstdDictionary.train(TRAIN.subList(1500, 3000), 8 << 10).toByteArray();
        System.arraycopy(a, 4, other, 4, 4); // same id, other bytes
        try (LettuceDictionaryStore s1 = store(); LettuceDictionaryStore s2 = store()) {
            DictionaryInfo first = s1.putIfAbsent(id, a);
            assertEquals(new DictionaryInfo(id, 1, a.length), first);
            assertEquals(first, s2.putIfAbsent(id, a), "publishing the same bytes again is harmless");
            assertThrows(DictionaryCollisionException.class, () -> s2.putIfAbsent(id, other));
            assertArrayEquals(a, s2.get(id));
            assertEquals(1, s2.version());
            assertNull(s2.get(12345));
            assertTrue(s1.tryLease("one", Duration.ofSeconds(30)));
            assertFalse(s2.tryLease("two", Duration.ofSeconds(30)));
            assertFalse(s1.tryLease("one", Duration.ofSeconds(30)), "a lease is not renewed within its time");
            s2.releaseLease("two"); // not the holder: nothing happens
            assertFalse(s2.tryLease("two", Duration.ofSeconds(30)));
            s1.releaseLease("one");
            assertTrue(s2.tryLease("two", Duration.ofSeconds(30)));
        }
        assertThrows(IllegalArgumentException.class, () -> LettuceDictionaryStore.builder().keyPrefix("no-tag:"));
        assertThrows(IllegalArgumentException.class, () -> LettuceDictionaryStore.builder().keyPrefix("{a}{b}:"));
        assertThrows(IllegalArgumentException.class, () -> LettuceDictionaryStore.builder().keyPrefix("{}:"));
    }

    /** The store reads no entry larger than any manager can use: a larger limit is refused, naming the manager's. */
    @Test
    void aMaxDictionarySizeAboveTheManagersLimitIsRefusedByName() {
        int limit = DictionaryManager.MAX_DICTIONARY_SIZE_LIMIT;
        LettuceDictionaryStore.builder().maxDictionarySize(limit);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> LettuceDictionaryStore.builder().maxDictionarySize(limit + 1));
        assertTrue(e.getMessage().contains("maxDictionarySize " + (limit + 1))
                && e.getMessage().contains("MAX_DICTIONARY_SIZE_LIMIT"), e.getMessage());
    }
}
