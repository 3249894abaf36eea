package dev.zstdjava.values.spring;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.ValueFormat;
import dev.zstdjava.values.spring.CompressingRedisSerializerTest.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.data.domain.Range;
import org.springframework.data.redis.connection.BitFieldSubCommands;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.stream.StreamRecords;
import org.springframework.data.redis.core.HashOperations;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.data.redis.core.query.SortQuery;
import org.springframework.data.redis.core.query.SortQueryBuilder;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;

import redis.clients.jedis.Protocol;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link CompressingRedisTemplate} on a real server: the SET family compressed, members, list elements, script
 * arguments and stream entries plain, the string edits refused by name before anything is sent, hashes opt-in.
 * The same for {@link CompressingStringRedisTemplate}.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingRedisTemplateTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    static final Map<Driver, RedisConnectionFactory> FACTORIES = new EnumMap<>(Driver.class);

    @AfterAll
    static void stop() throws Exception {
        for (RedisConnectionFactory f : FACTORIES.values()) {
            ((DisposableBean) f).destroy();
        }
    }

    static RedisConnectionFactory factory(Driver driver) {
        return FACTORIES.computeIfAbsent(driver, d -> CompressingRedisSerializerTest.start(d, redis.server().port()));
    }

    static CompressingRedisTemplate<String, String> template(Driver driver, ValueCompressor vc) {
        return CompressingRedisTemplate.create(factory(driver), RedisSerializer.string(), vc);
    }

    static ValueCompressor compressor(CompressionBackend backend, boolean hashValues) {
        return ValueCompressor.create(CompressionConfig.builder().backend(backend).compressHashValues(hashValues)
                .build());
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static boolean compressed(byte[] stored) {
        return stored != null && ValueFormat.hasHeader(ByteBuffer.wrap(stored));
    }

    /** A 233-character JSON member, as in the report that showed three members for one. */
    static String member(int i) {
        String j = json(233);
        return i + j.substring(String.valueOf(i).length());
    }

    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void theSetFamilyIsCompressedGetSetIsPlainReadsDecode(CompressionBackend backend) {
        for (Driver driver : Driver.values()) {
            ValueCompressor vc = compressor(backend, false);
            CompressingRedisTemplate<String, String> t = template(driver, vc);
            String big = json(3000);
            String k = "v:" + backend + driver;
            t.opsForValue().set(k + "set", big);
            t.opsForValue().set(k + "ex", big, java.time.Duration.ofSeconds(60));
            assertTrue(t.opsForValue().setIfAbsent(k + "nx", big));
            t.opsForValue().multiSet(Map.of(k + "m1", big, k + "m2", big));
            t.boundValueOps(k + "bound").set(big);
            for (String s : List.of("set", "ex", "nx", "m1", "m2", "bound")) {
                byte[] stored = redis.client().get(b(k + s));
                assertTrue(compressed(stored), s);
                assertEquals(backend.id(), stored[4], s);
                assertEquals(big, t.opsForValue().get(k + s), s);
            }
            assertEquals(List.of(big, big), t.opsForValue().multiGet(List.of(k + "m1", k + "m2")));
            assertEquals(big, t.boundValueOps(k + "bound").get());
            // SET ... GET: the new value compressed, the old one decoded
            String newer = json(2000);
            assertEquals(big, t.opsForValue().setGet(k + "set", newer, java.time.Duration.ofSeconds(60)));
            assertTrue(compressed(redis.client().get(b(k + "set"))));
            // GETSET: the new value plain, as GLIDE sends it; the old value decoded
            assertEquals(newer, t.opsForValue().getAndSet(k + "set", big));
            assertArrayEquals(b(big), redis.client().get(b(k + "set")));
            assertEquals(big, t.opsForValue().getAndDelete(k + "m1"));
            assertEquals(6 + 1, vc.stats().valuesCompressed());
        }
    }

    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void membersElementsScriptArgumentsAndStreamEntriesArePlain(CompressionBackend backend) {
        // hash values opted in: stream entries stay plain all the same
        ValueCompressor vc = compressor(backend, true);
        CompressingRedisTemplate<String, String> t = template(Driver.LETTUCE, vc);
        String k = "m:" + backend;
        String m = member(1);
        // SADD of one member from the compressing template and from a plain client: ONE member
        t.opsForSet().add(k + "set", m);
        redis.client().sadd(b(k + "set"), b(m));
        assertEquals(1, redis.client().scard(b(k + "set")));
        assertTrue(redis.client().sismember(b(k + "set"), b(m)));
        assertArrayEquals(b(m), redis.client().smembers(b(k + "set")).iterator().next());
        Map<Object, Boolean> smis = t.opsForSet().isMember(k + "set", m, member(2)); // SMISMEMBER
        assertEquals(Map.of(m, true, member(2), false), smis);
        assertEquals(1, redis.client().srem(b(k + "set"), b(m)), "a plain client removes what the template added");

        // ZRANGEBYLEX orders the application's bytes
        for (String z : List.of("alpha" + member(3), "bravo" + member(4), "charlie" + member(5))) {
            t.opsForZSet().add(k + "z", z, 0);
        }
        assertEquals(1, redis.client().zrangeByLex(b(k + "z"), b("[bravo"), b("[c")).size());
        assertEquals(1, t.opsForZSet().rangeByLex(k + "z",
                Range.closed("bravo", "c")).size());

        // list elements: LREM from a plain client finds what the template pushed
        t.opsForList().rightPush(k + "list", m);
        assertEquals(1, redis.client().lrem(b(k + "list"), 0, b(m)));

        // EVAL sees its arguments as passed
        RedisScript<Long> len = RedisScript.of("return string.len(ARGV[1])", Long.class);
        assertEquals(m.length(), t.execute(len, List.of(k + "eval"), m));

        // stream entries through the plain hash-value serializer, even with hash values compressed
        t.opsForStream().add(StreamRecords.newRecord().in(k + "stream").ofMap(Map.of("f", m)));
        assertEquals(m, t.opsForStream().range(k + "stream", Range.unbounded()).get(0).getValue().get("f"));
        Object raw = redis.client().sendCommand(Protocol.Command.XRANGE, b(k + "stream"),
                b("-"), b("+"));
        byte[] storedField = (byte[]) ((List<?>) ((List<?>) ((List<?>) raw).get(0)).get(1)).get(1);
        assertArrayEquals(b(m), storedField, "stream entry stored as the application wrote it");

        assertEquals(0, vc.stats().valuesCompressed(), "nothing of this test is in the compressed scope");
        // reads stay lenient: a member an earlier build wrote compressed reads back decoded
        redis.client().sadd(b(k + "old"), vc.compress(b(json(400))));
        assertEquals(json(400), t.opsForSet().members(k + "old").iterator().next());
    }

    @Test
    void everyRefusedOperationIsRefusedByNameAndNothingIsSent() {
        ValueCompressor vc = compressor(CompressionBackend.ZSTD, true);
        CompressingRedisTemplate<String, String> t = template(Driver.LETTUCE, vc);
        redis.client().set(b("r:counter"), b("10"));
        ValueOperations<String, String> v = t.opsForValue();
        HashOperations<String, String, String> h = t.opsForHash();
        Map<String, Executable> refused = new LinkedHashMap<>();
        refused.put("APPEND", () -> v.append("r:counter", "x"));
        refused.put("STRLEN", () -> v.size("r:counter"));
        refused.put("INCR", () -> v.increment("r:counter"));
        refused.put("INCRBY", () -> v.increment("r:counter", 5));
        refused.put("INCRBYFLOAT", () -> v.increment("r:counter", 1.5));
        refused.put("DECR", () -> v.decrement("r:counter"));
        refused.put("DECRBY", () -> v.decrement("r:counter", 2));
        refused.put("GETRANGE", () -> v.get("r:counter", 0, 1));
        refused.put("SETRANGE", () -> v.set("r:counter", "9", 0));
        refused.put("SETBIT", () -> v.setBit("r:counter", 1, true));
        refused.put("GETBIT", () -> v.getBit("r:counter", 1));
        refused.put("BITFIELD", () -> v.bitField("r:counter", BitFieldSubCommands.create()
                .get(BitFieldSubCommands.BitFieldType.unsigned(8)).valueAt(0)));
        // Spring sends DELEX key IFEQ value; the template declares compareAndDelete on every Spring Data Redis line
        refused.put("DELEX ... IFEQ", () -> t.compareAndDelete("r:counter", "10"));
        refused.put("APPEND ", () -> t.boundValueOps("r:counter").append("x"));
        refused.put("INCR ", () -> t.boundValueOps("r:counter").increment());
        refused.put("HINCRBY", () -> h.increment("r:hash", "f", 1));
        refused.put("HINCRBYFLOAT", () -> h.increment("r:hash", "f", 1.5));
        refused.put("HSTRLEN", () -> h.lengthOfValue("r:hash", "f"));
        refused.put("HINCRBY ", () -> t.<String, String>boundHashOps("r:hash").increment("f", 1));
        assertRefusedAndNothingSent(redis, refused);
        assertFalse(redis.client().exists(b("r:hash")));
        // the template stays usable
        v.set("r:other", json(500));
        assertEquals(json(500), v.get("r:other"));
    }

    /**
     * Runs each refused operation: it fails with the refusal of the command its name gives, and no such command (nor
     * any other of the refused kinds) reaches the server; {@code r:counter} keeps its 10.
     */
    static void assertRefusedAndNothingSent(JedisServer redis, Map<String, Executable> refused) {
        Map<String, Long> before = commandCalls(redis);
        refused.forEach((name, op) -> {
            CommandRefusedException e = assertThrows(CommandRefusedException.class, op, name);
            assertEquals(name.trim(), e.command());
            assertTrue(e.getMessage().startsWith(name.trim() + " is refused"), e.getMessage());
        });
        Map<String, Long> after = commandCalls(redis);
        for (String c : List.of("append", "strlen", "incr", "incrby", "incrbyfloat", "decr", "decrby", "getrange",
                "setrange", "setbit", "getbit", "bitfield", "set", "delex", "hincrby", "hincrbyfloat", "hstrlen")) {
            assertEquals(before.get(c), after.get(c), c + " reached the server");
        }
        assertArrayEquals(b("10"), redis.client().get(b("r:counter")));
    }

    /** Without the hash opt-in, hash counters are plain hashes: they work, and hash values are written plain. */
    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void hashValuesArePlainByDefaultAndRoundTripWhenOptedIn(CompressionBackend backend) {
        String big = json(3000);
        CompressingRedisTemplate<String, String> plain = template(Driver.JEDIS, compressor(backend, false));
        HashOperations<String, String, String> ph = plain.opsForHash();
        ph.put("h:plain" + backend, "f", big);
        assertArrayEquals(b(big), redis.client().hget(b("h:plain" + backend), b("f")));
        assertEquals(3, ph.increment("h:plain" + backend, "n", 3));
        assertEquals(big.length(), ph.lengthOfValue("h:plain" + backend, "f"));

        ValueCompressor vc = compressor(backend, true);
        CompressingRedisTemplate<String, String> t = template(Driver.JEDIS, vc);
        HashOperations<String, String, String> h = t.opsForHash();
        String k = "h:opt" + backend;
        h.put(k, "f1", big);
        h.putAll(k, Map.of("f2", big, "f3", "small"));
        assertTrue(h.putIfAbsent(k, "f4", big));
        t.<String, String>boundHashOps(k).put("f5", big);
        for (String f : List.of("f1", "f2", "f4", "f5")) {
            byte[] stored = redis.client().hget(b(k), b(f));
            assertTrue(compressed(stored), f);
            assertEquals(backend.id(), stored[4]);
        }
        assertArrayEquals(b("small"), redis.client().hget(b(k), b("f3")));
        Map<String, String> expected = new HashMap<>(Map.of("f1", big, "f2", big, "f3", "small", "f4", big,
                "f5", big));
        assertEquals(expected, h.entries(k));
        assertEquals(big, h.get(k, "f1"));
        assertEquals(List.of(big, "small"), h.multiGet(k, List.of("f2", "f3")));
        assertEquals(4, vc.stats().valuesCompressed());
        // field names stay plain
        assertTrue(redis.client().hexists(b(k), b("f1")));
    }

    @Test
    void aRefusedOperationInsideMultiDiscardsTheTransaction() {
        CompressingRedisTemplate<String, String> t = template(Driver.LETTUCE, compressor(CompressionBackend.ZSTD,
                false));
        assertThrows(CommandRefusedException.class, () -> t.execute(session(ops -> {
            ops.multi();
            ops.opsForValue().set("tx:a", json(500));
            ops.opsForValue().append("tx:a", "x");
            return ops.exec();
        })));
        assertFalse(redis.client().exists(b("tx:a")), "EXEC never ran");
        // a transaction without refused commands runs, compressed values and decoded results
        List<Object> results = t.execute(session(ops -> {
            ops.multi();
            ops.opsForValue().set("tx:b", json(500));
            ops.opsForValue().get("tx:b");
            return ops.exec();
        }));
        assertEquals(json(500), results.get(1));
        assertTrue(compressed(redis.client().get(b("tx:b"))));
        // pipelined: the same policy, results decoded
        List<Object> piped = t.executePipelined(session(ops -> {
            ops.opsForValue().set("pipe:a", json(700));
            ops.opsForSet().add("pipe:s", member(9));
            ops.opsForValue().get("pipe:a");
            return null;
        }));
        assertEquals(json(700), piped.get(2));
        assertTrue(compressed(redis.client().get(b("pipe:a"))));
        assertTrue(redis.client().sismember(b("pipe:s"), b(member(9))));
    }

    /**
     * A refused operation inside {@code executePipelined} throws, and the operations queued before it are still
     * sent (Spring closes the pipeline, as for any exception its callback throws); side by side, the plain template
     * runs both.
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void aRefusedOperationInAPipelineLeavesTheOnesBeforeItSent(Driver driver) {
        String big = json(700);
        Map<String, RedisTemplate<String, String>> templates = sideBySide(driver, false);
        templates.forEach((name, t) -> {
            String k = "piperefused:" + driver + ":" + name;
            SessionCallback<Object> setThenAppend = session(ops -> {
                ops.opsForValue().set(k, big);
                ops.opsForValue().append(k, "x");
                return null;
            });
            if (name.startsWith("Compressing")) {
                assertEquals("APPEND", assertThrows(CommandRefusedException.class,
                        () -> t.executePipelined(setThenAppend), name).command());
                assertTrue(compressed(redis.client().get(b(k))), name + ": the SET before it was sent");
                assertEquals(big, t.opsForValue().get(k), name);
            } else {
                t.executePipelined(setThenAppend);
                assertArrayEquals(b(big + "x"), redis.client().get(b(k)), name);
            }
        });
    }

    /** convertAndSend publishes the message as the application's serializer wrote it: subscribers see it as sent. */
    @Test
    void messagesArePublishedPlain() throws Exception {
        CompressingRedisTemplate<String, String> t = template(Driver.LETTUCE, compressor(CompressionBackend.ZSTD,
                true));
        String message = json(3000);
        io.lettuce.core.RedisClient client = io.lettuce.core.RedisClient.create(
                io.lettuce.core.RedisURI.create(dev.zstdjava.testkit.RedisServer.HOST, redis.server().port()));
        try (var sub = client.connectPubSub(io.lettuce.core.codec.ByteArrayCodec.INSTANCE)) {
            java.util.concurrent.BlockingQueue<byte[]> got = new java.util.concurrent.LinkedBlockingQueue<>();
            sub.addListener(new io.lettuce.core.pubsub.RedisPubSubAdapter<>() {
                @Override
                public void message(byte[] channel, byte[] msg) {
                    got.add(msg);
                }
            });
            sub.sync().subscribe(b("chan"));
            assertEquals(1L, t.convertAndSend("chan", message));
            byte[] received = got.poll(10, TimeUnit.SECONDS);
            assertArrayEquals(b(message), received, "the subscriber sees the message as sent");
        } finally {
            client.shutdown();
        }
        assertEquals(0, t.compressor().stats().valuesCompressed());
    }

    /** execute(RedisCallback) hands over the connection: outside the policy, as docs/values.md says. */
    @Test
    void redisCallbacksAreOutsideThePolicy() {
        CompressingRedisTemplate<String, String> t = template(Driver.LETTUCE, compressor(CompressionBackend.ZSTD,
                false));
        t.opsForValue().set("cb:a", json(800));
        byte[] seen = t.execute((RedisCallback<byte[]>) c -> c.stringCommands().get(b("cb:a")));
        assertTrue(compressed(seen), "a callback gets the stored bytes, not decoded");
        Long appended = t.execute((RedisCallback<Long>) c -> {
            c.stringCommands().set(b("cb:plain"), b(json(800)));
            return c.stringCommands().append(b("cb:plain"), b("abc"));
        });
        assertEquals(json(800).length() + 3L, appended, "a callback may append: nothing is refused there");
        List<Object> piped = t.executePipelined((RedisCallback<Object>) c -> {
            c.stringCommands().get(b("cb:a"));
            return null;
        });
        assertEquals(List.of(json(800)), piped,
                "executePipelined's results go through the template's value serializer, which decodes, as Spring's do");
    }

    /**
     * A result serializer the application hands an operation ({@code executePipelined} with a session or a
     * connection callback, {@code exec} in {@code MULTI}, {@code execute(RedisScript ...)}, {@code sort} with a
     * {@code GET} pattern) reads the values as it does on a plain template: side by side with a plain
     * {@code RedisTemplate} and {@code StringRedisTemplate} over the same server, the same results, while the stored
     * values are compressed.
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void resultSerializersTheApplicationGivesReadAsOnAPlainTemplate(Driver driver) {
        String big = json(1500);
        Map<String, RedisTemplate<String, String>> templates = sideBySide(driver, false);
        RedisSerializer<String> rs = RedisSerializer.string();
        RedisScript<String> get = RedisScript.of("return redis.call('GET', KEYS[1])", String.class);
        Map<String, Map<String, Object>> seen = new LinkedHashMap<>();
        templates.forEach((name, t) -> {
            String k = "results:" + driver + ":" + name + ":";
            t.opsForValue().set(k + "v", big);
            t.opsForList().rightPush(k + "ids", "v");
            Map<String, Object> results = new LinkedHashMap<>();
            results.put("executePipelined(session)", t.executePipelined(session(ops -> {
                ops.opsForValue().get(k + "v");
                return null;
            }), rs));
            results.put("executePipelined(callback)", t.executePipelined((RedisCallback<Object>) c -> {
                c.stringCommands().get(b(k + "v"));
                return null;
            }, rs));
            results.put("exec", t.execute(session(ops -> {
                ops.multi();
                ops.opsForValue().get(k + "v");
                return ops.exec(rs);
            })));
            results.put("script", t.execute(get, rs, rs, List.of(k + "v")));
            SortQuery<String> getValues = SortQueryBuilder.sort(k + "ids").by("nosort").get(k + "*").build();
            results.put("sort", t.sort(getValues, rs));
            results.put("sort(mapper)", t.sort(getValues, tuple -> tuple.get(0), rs));
            seen.put(name, results);
            assertEquals(name.startsWith("Compressing"), compressed(redis.client().get(b(k + "v"))), name);
        });
        Map<String, Object> expected = new LinkedHashMap<>();
        List.of("executePipelined(session)", "executePipelined(callback)", "exec", "sort", "sort(mapper)")
                .forEach(how -> expected.put(how, List.of(big)));
        expected.put("script", big);
        List<String> differing = new java.util.ArrayList<>();
        seen.forEach((name, results) -> results.forEach((how, result) -> {
            if (!expected.get(how).equals(result)) {
                differing.add(name + " " + how);
            }
        }));
        assertEquals(List.of(), differing, "the results that are not the value the application stored");
    }

    /**
     * A property set after {@code afterPropertiesSet()} (here the value and hash value serializers, UTF-16 strings
     * in place of UTF-8, on a template {@code create} or the factory constructor has already initialised) is seen
     * by every operation, as on a plain {@code RedisTemplate}/{@code StringRedisTemplate}: side by side, the same
     * stored values (compressed ones decoded) and the same reads; compressed values another client wrote are
     * decoded through the new serializer.
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void serializersSetAfterInitialisationAreSeenByEveryOperation(Driver driver) {
        String big = json(1500);
        RedisSerializer<String> utf16 = new org.springframework.data.redis.serializer.StringRedisSerializer(
                StandardCharsets.UTF_16);
        Map<String, RedisTemplate<String, String>> templates = sideBySide(driver, true);
        ValueCompressor decoder = compressor(CompressionBackend.ZSTD, false);
        List<String> differing = new java.util.ArrayList<>();
        templates.forEach((name, t) -> {
            t.setValueSerializer(utf16);
            t.setHashValueSerializer(utf16);
            String k = "late:" + driver + ":" + name + ":";
            t.opsForValue().set(k + "v", big);
            t.opsForList().rightPush(k + "l", big);
            t.opsForHash().put(k + "h", "f", big);
            Map<String, Object> results = new LinkedHashMap<>();
            results.put("stored value", redis.client().get(b(k + "v")));
            results.put("stored element", redis.client().lindex(b(k + "l"), 0));
            results.put("stored hash value", redis.client().hget(b(k + "h"), b("f")));
            results.replaceAll((what, stored) -> new String(decoder.decompress((byte[]) stored),
                    StandardCharsets.UTF_16));
            results.put("get", t.opsForValue().get(k + "v"));
            results.put("index", t.opsForList().index(k + "l", 0));
            results.put("hget", t.opsForHash().get(k + "h", "f"));
            if (name.startsWith("Compressing")) {
                assertTrue(compressed(redis.client().get(b(k + "v"))), name);
                redis.client().rpush(b(k + "l"), decoder.compress(utf16.serialize(big)));
                results.put("another client's compressed element", t.opsForList().index(k + "l", 1));
            }
            results.forEach((what, result) -> {
                if (!big.equals(result)) {
                    differing.add(name + " " + what);
                }
            });
        });
        assertEquals(List.of(), differing, "the templates whose stored values or reads are not the plain ones");
    }

    /**
     * A template without serializers (the default serializer off) adds stream records of simple objects
     * ({@code ObjectRecord}s of an {@code Integer}, a {@code String}) as a plain template does: Spring converts them
     * to bytes when the template has no hash value serializer, and the compressing template's reading serializer
     * (over {@code byte[]}) made it throw {@code ClassCastException}. Side by side: the same entries stored, the
     * same records read back, also through {@code boundStreamOps}.
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    @SuppressWarnings({"unchecked", "rawtypes"})
    void streamRecordsOfSimpleObjectsOnATemplateWithoutSerializersAsOnAPlainTemplate(Driver driver) {
        Map<String, Object> seen = new LinkedHashMap<>();
        for (String how : List.of("RedisTemplate", "CompressingRedisTemplate")) {
            RedisTemplate t = how.startsWith("Compressing")
                    ? new CompressingRedisTemplate<>(compressor(CompressionBackend.ZSTD, false)) : new RedisTemplate<>();
            t.setEnableDefaultSerializer(false);
            t.setConnectionFactory(factory(driver));
            t.afterPropertiesSet();
            byte[] k = b("rawstream:" + driver + ":" + how);
            List<Object> results = new java.util.ArrayList<>();
            for (Object value : List.of(42, "hello", b("bytes"))) {
                try {
                    t.opsForStream().add(org.springframework.data.redis.connection.stream.StreamRecords.newRecord()
                            .in(k).ofObject(value));
                    results.add("added");
                } catch (RuntimeException e) {
                    results.add(e.getClass().getSimpleName());
                }
            }
            try {
                t.boundStreamOps(k).add(Map.of(b("f"), b("v")));
                results.add("added");
            } catch (RuntimeException e) {
                results.add(e.getClass().getSimpleName());
            }
            List<org.springframework.data.redis.connection.stream.ObjectRecord<byte[], String>> read =
                    t.opsForStream().range(String.class, k, Range.unbounded());
            read.forEach(r -> results.add(r.getValue()));
            Object raw = redis.client().sendCommand(Protocol.Command.XRANGE, k, b("-"), b("+"));
            for (Object entry : (List<?>) raw) {
                for (Object word : (List<?>) ((List<?>) entry).get(1)) {
                    results.add("stored " + new String((byte[]) word, StandardCharsets.UTF_8));
                }
            }
            seen.put(how, results);
        }
        assertEquals(seen.get("RedisTemplate"), seen.get("CompressingRedisTemplate"));
    }

    /**
     * A serializer set to null after {@code afterPropertiesSet()}, or the default serializer turned on after it, is
     * left unset when the template wires again, as a plain template's setters leave it (they resolve no defaults):
     * keys and values are then {@code byte[]} as they are. Side by side: each template writes a raw value under a raw
     * key; the server holds it under that key, and the value (decoded) is the one written.
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    @SuppressWarnings({"unchecked", "rawtypes"})
    void serializersUnsetAfterInitialisationStayUnsetAsOnAPlainTemplate(Driver driver) {
        String big = json(1500);
        ValueCompressor decoder = compressor(CompressionBackend.ZSTD, false);
        Map<String, RedisTemplate> templates = new LinkedHashMap<>(sideBySide(driver, false));
        templates.replaceAll((name, t) -> {
            t.setKeySerializer(null);
            t.setValueSerializer(null);
            return t;
        });
        for (String name : List.of("RedisTemplate", "CompressingRedisTemplate")) {
            RedisTemplate<byte[], byte[]> t = name.startsWith("Compressing")
                    ? new CompressingRedisTemplate<>(compressor(CompressionBackend.ZSTD, false)) : new RedisTemplate<>();
            t.setEnableDefaultSerializer(false);
            t.setConnectionFactory(factory(driver));
            t.afterPropertiesSet();
            t.setEnableDefaultSerializer(true);
            t.setExposeConnection(false); // a property set after initialisation: wires a compressing template again
            templates.put(name + " (default serializer turned on)", t);
        }
        Map<String, String> differing = new LinkedHashMap<>();
        templates.forEach((name, t) -> {
            byte[] k = b("unset:" + driver + ":" + name);
            t.opsForValue().set(k, b(big));
            byte[] stored = redis.client().get(k);
            String read = new String((byte[]) t.opsForValue().get(k), StandardCharsets.UTF_8);
            if (stored == null || !big.equals(new String(decoder.decompress(stored), StandardCharsets.UTF_8))
                    || !big.equals(read)) {
                differing.put(name, stored == null ? "nothing stored under the raw key"
                        : "stored " + stored.length + " bytes, read " + read.length() + " characters");
            }
            if (stored != null && name.startsWith("Compressing")) {
                assertTrue(compressed(stored), name + ": the value compressed");
            }
        });
        assertEquals(Map.of(), differing, "the templates that did not write the raw value under the raw key");
    }

    /**
     * A value or hash value serializer set to null after initialisation and then another {@code afterPropertiesSet()}
     * (a bean re-initialised, a factory resetting a template): the plain templates resolve the default (JDK)
     * serializer again, and so must the compressing ones. Side by side: each writes a {@code String} value and a hash
     * value; the server holds their JDK serialization (decoded), and they read back equal.
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    @SuppressWarnings({"unchecked", "rawtypes"})
    void serializersSetToNullThenInitialisedAgainGetTheDefaultAsOnAPlainTemplate(Driver driver) {
        String big = json(1500);
        byte[] jdk = new org.springframework.data.redis.serializer.JdkSerializationRedisSerializer().serialize(big);
        ValueCompressor decoder = compressor(CompressionBackend.ZSTD, false);
        Map<String, String> differing = new LinkedHashMap<>();
        sideBySide(driver, true).forEach((name, template) -> {
            RedisTemplate t = template;
            t.setValueSerializer(null);
            t.setHashValueSerializer(null);
            t.afterPropertiesSet();
            String k = "reinit:" + driver + ":" + name + ":";
            try {
                t.opsForValue().set(k + "v", big);
                t.opsForHash().put(k + "h", "f", big);
                byte[] stored = decoder.decompress(redis.client().get(b(k + "v")));
                byte[] storedHash = decoder.decompress(redis.client().hget(b(k + "h"), b("f")));
                if (!java.util.Arrays.equals(jdk, stored) || !java.util.Arrays.equals(jdk, storedHash)) {
                    differing.put(name, "not stored JDK-serialized");
                } else if (!big.equals(t.opsForValue().get(k + "v")) || !big.equals(t.opsForHash().get(k + "h", "f"))) {
                    differing.put(name, "read back differently");
                }
            } catch (RuntimeException e) {
                differing.put(name, e.toString());
            }
        });
        assertEquals(Map.of(), differing, "the templates that did not get the default serializer back");
    }

    /**
     * A plain {@code RedisTemplate} with string serializers, a {@link CompressingRedisTemplate} like it, a plain
     * {@code StringRedisTemplate} and a {@link CompressingStringRedisTemplate}, each initialised, by their names.
     */
    static Map<String, RedisTemplate<String, String>> sideBySide(Driver driver, boolean hashValues) {
        RedisTemplate<String, String> plain = new RedisTemplate<>();
        plain.setConnectionFactory(factory(driver));
        plain.setKeySerializer(RedisSerializer.string());
        plain.setHashKeySerializer(RedisSerializer.string());
        plain.setValueSerializer(RedisSerializer.string());
        plain.setHashValueSerializer(RedisSerializer.string());
        plain.afterPropertiesSet();
        Map<String, RedisTemplate<String, String>> templates = new LinkedHashMap<>();
        templates.put("RedisTemplate", plain);
        templates.put("CompressingRedisTemplate", template(driver, compressor(CompressionBackend.ZSTD, hashValues)));
        templates.put("StringRedisTemplate", new StringRedisTemplate(factory(driver)));
        templates.put("CompressingStringRedisTemplate", stringTemplate(driver, hashValues));
        return templates;
    }

    /**
     * A connection factory set after {@code afterPropertiesSet()} (here one for database 1 of the same server) is
     * the one every operation uses, as on a plain template: side by side, the value written through
     * {@code opsForValue()} and the list element both land in database 1, none in database 0.
     */
    @Test
    void aConnectionFactorySetAfterInitialisationIsUsedByEveryOperation() throws Exception {
        RedisStandaloneConfiguration conf = new RedisStandaloneConfiguration(
                dev.zstdjava.testkit.RedisServer.HOST, redis.server().port());
        conf.setDatabase(1);
        LettuceConnectionFactory db1 = new LettuceConnectionFactory(conf);
        db1.afterPropertiesSet();
        db1.start();
        try {
            StringRedisTemplate inDb1 = new StringRedisTemplate(db1);
            List<String> differing = new java.util.ArrayList<>();
            sideBySide(Driver.LETTUCE, false).forEach((name, t) -> {
                t.setConnectionFactory(db1);
                String k = "movedfactory:" + name + ":";
                t.opsForValue().set(k + "v", "value");
                t.opsForList().rightPush(k + "l", "element");
                List<Object> where = List.of(inDb1.hasKey(k + "v"), inDb1.hasKey(k + "l"),
                        redis.client().exists(b(k + "v")), redis.client().exists(b(k + "l")));
                if (!where.equals(List.of(true, true, false, false))) {
                    differing.add(name + " " + where);
                }
            });
            assertEquals(List.of(), differing, "the templates not writing to database 1 only "
                    + "[v in db 1, l in db 1, v in db 0, l in db 0]");
        } finally {
            db1.destroy();
        }
    }

    /** A SessionCallback over the template's String operations. */
    static <T> SessionCallback<T> session(java.util.function.Function<RedisOperations<String, String>, T> body) {
        return new SessionCallback<>() {
            @Override
            @SuppressWarnings("unchecked")
            public <K, V> T execute(RedisOperations<K, V> operations) throws DataAccessException {
                return body.apply((RedisOperations<String, String>) operations);
            }
        };
    }

    static Map<String, Long> commandCalls(JedisServer redis) {
        String info = redis.client().info("commandstats");
        Map<String, Long> calls = new HashMap<>();
        for (String line : info.split("\r?\n")) {
            if (line.startsWith("cmdstat_")) {
                String name = line.substring(8, line.indexOf(':'));
                int c = line.indexOf("calls=");
                calls.put(name, Long.parseLong(line.substring(c + 6, line.indexOf(',', c))));
            }
        }
        return calls;
    }

    /** The same routing on a {@code StringRedisTemplate} ({@link CompressingStringRedisTemplate}). */
    static CompressingStringRedisTemplate stringTemplate(Driver driver, boolean hashValues) {
        return new CompressingStringRedisTemplate(factory(driver), compressor(CompressionBackend.ZSTD, hashValues));
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void stringTemplateValuesCompressedMembersPlainCountersRefused(Driver driver) {
        CompressingStringRedisTemplate t = stringTemplate(driver, false);
        StringRedisTemplate plain = assertInstanceOf(StringRedisTemplate.class, t);
        String k = "cs:" + driver + ":";
        String big = "a string value worth compressing; ".repeat(20);
        plain.opsForValue().set(k + "v", big);
        assertTrue(compressed(redis.client().get(b(k + "v"))));
        assertEquals(big, plain.opsForValue().get(k + "v"));
        assertEquals(big, plain.boundValueOps(k + "v").get());
        plain.opsForSet().add(k + "s", big);
        assertArrayEquals(b(big), redis.client().smembers(b(k + "s")).iterator().next());
        plain.opsForList().rightPush(k + "l", big);
        assertArrayEquals(b(big), redis.client().lindex(b(k + "l"), 0));
        // values another client stored compressed are decoded by every read
        redis.client().rpush(b(k + "l"), t.compressor().compress(b(big)));
        assertEquals(List.of(big, big), plain.opsForList().range(k + "l", 0, -1));
        // hash values plain unless opted in
        plain.opsForHash().put(k + "h", "f", big);
        assertArrayEquals(b(big), redis.client().hget(b(k + "h"), b("f")));
        assertEquals(3L, plain.opsForHash().increment(k + "h", "n", 3));
        // counters, edits and bit operations: refused, nothing sent
        assertThrows(CommandRefusedException.class, () -> plain.opsForValue().increment(k + "c"));
        assertThrows(CommandRefusedException.class, () -> plain.opsForValue().append(k + "v", "x"));
        assertThrows(CommandRefusedException.class, () -> plain.opsForValue().setBit(k + "b", 1, true));
        assertThrows(CommandRefusedException.class, () -> t.compareAndDelete(k + "v", big));
        assertFalse(redis.client().exists(b(k + "c")));
        assertFalse(redis.client().exists(b(k + "b")));
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void stringTemplateHashValuesWhenOptedInAndTransactionsKeepThePolicy(Driver driver) {
        CompressingStringRedisTemplate t = stringTemplate(driver, true);
        String k = "csh:" + driver + ":";
        String big = "a hash value worth compressing; ".repeat(20);
        t.opsForHash().put(k + "h", "f", big);
        assertTrue(compressed(redis.client().hget(b(k + "h"), b("f"))));
        assertEquals(big, t.opsForHash().get(k + "h", "f"));
        assertThrows(CommandRefusedException.class, () -> t.opsForHash().increment(k + "h", "n", 1));
        List<Object> results = t.execute(new SessionCallback<>() {
            @Override
            @SuppressWarnings({"unchecked", "rawtypes"})
            public List<Object> execute(RedisOperations operations) throws DataAccessException {
                operations.multi();
                operations.opsForValue().set(k + "tx", big);
                operations.opsForValue().get(k + "tx");
                return operations.exec();
            }
        });
        assertEquals(big, results.get(1));
        assertTrue(compressed(redis.client().get(b(k + "tx"))));
    }

    /**
     * A {@code RedisTemplate} without serializers (the default serializer turned off) reads and writes {@code byte[]}
     * keys and values as they are; wrapped ({@link CompressingRedisTemplate}, or its serializers by
     * {@link CompressingRedisSerializer#compressValues}), it does the same, the values of the SET family compressed.
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void aTemplateWithoutSerializersWorksOnRawBytesAsRedisTemplateDoes(Driver driver) {
        String big = json(2000);
        Map<String, Object> seen = new LinkedHashMap<>();
        for (String how : List.of("plain", "template", "compressValues")) {
            boolean wrap = !how.equals("plain");
            RedisTemplate<byte[], byte[]> t = how.equals("template")
                    ? new CompressingRedisTemplate<>(compressor(CompressionBackend.ZSTD, false)) : new RedisTemplate<>();
            t.setEnableDefaultSerializer(false);
            t.setConnectionFactory(factory(driver));
            if (how.equals("compressValues")) {
                CompressingRedisSerializer.compressValues(t, compressor(CompressionBackend.ZSTD, false));
            }
            t.afterPropertiesSet();
            String k = "raw:" + driver + how + ":";
            t.opsForValue().set(b(k + "v"), b(big));
            t.opsForHash().put(b(k + "h"), b("f"), b(big));
            t.opsForList().rightPush(b(k + "l"), b(big));
            List<String> read = new java.util.ArrayList<>();
            read.add(new String(t.opsForValue().get(b(k + "v")), StandardCharsets.UTF_8));
            read.add(new String((byte[]) t.opsForHash().get(b(k + "h"), b("f")), StandardCharsets.UTF_8));
            read.add(new String(t.opsForList().index(b(k + "l"), 0), StandardCharsets.UTF_8));
            seen.put(how, read);
            assertEquals(wrap, compressed(redis.client().get(b(k + "v"))), how + ": the SET value compressed if wrapped");
            assertArrayEquals(b(big), redis.client().hget(b(k + "h"), b("f")), how + ": hash values plain (not opted in)");
        }
        assertEquals(List.of(big, big, big), seen.get("plain"));
        assertEquals(seen.get("plain"), seen.get("template"));
        assertEquals(seen.get("plain"), seen.get("compressValues"));
    }

    /**
     * The value and hash operations of {@link CompressingStringRedisTemplate} name the template itself as their
     * {@code getOperations()}, as a plain {@code StringRedisTemplate}'s do (code that reaches the template through its
     * operations gets the {@code StringRedisTemplate} it was given, not an inner template of another type).
     */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void stringTemplateOperationsNameTheTemplateItself(Driver driver) {
        String k = "ops:" + driver;
        redis.client().set(b(k), b("plain"));
        Map<String, List<Object>> seen = new LinkedHashMap<>();
        for (StringRedisTemplate t : List.of(new StringRedisTemplate(factory(driver)), stringTemplate(driver, true))) {
            seen.put(t.getClass().getSimpleName(), List.of(t.opsForValue().getOperations() == t,
                    t.opsForHash().getOperations() == t, t.boundValueOps(k).getOperations() == t,
                    t.opsForValue().getOperations() instanceof StringRedisTemplate,
                    t.opsForValue().getOperations().opsForValue().get(k)));
        }
        assertEquals(List.of(true, true, true, true, "plain"), seen.get("StringRedisTemplate"));
        assertEquals(seen.get("StringRedisTemplate"), seen.get("CompressingStringRedisTemplate"));
    }
}
