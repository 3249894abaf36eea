package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdFrame;
import io.lettuce.core.BitFieldArgs;
import io.lettuce.core.Range;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisFuture;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.StatefulRedisConnectionImpl;
import io.lettuce.core.SetArgs;
import io.lettuce.core.TransactionResult;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.async.RedisAsyncCommands;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.RedisCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.ProtocolKeyword;
import io.lettuce.core.pubsub.RedisPubSubAdapter;
import io.lettuce.core.pubsub.StatefulRedisPubSubConnection;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The command policy on Lettuce against a real server: what is compressed, what goes out plain, what is refused, on
 * every API (sync, async, reactive, pipelined, MULTI/EXEC, pub/sub), and what a plain {@link RedisClient} does with
 * the codec now.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class LettucePolicyTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer(CompressingRedisClient::create);

    /** A 233-character JSON string, as in the report that found the duplicate members. */
    static final String MEMBER = TestValues.json(233);

    static CompressingCodec<String, String> codec(CompressionBackend backend) {
        return CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.builder().backend(backend).build());
    }

    static CompressingCodec<String, String> hashCodec() {
        return CompressingCodec.wrap(StringCodec.UTF8, CompressionConfig.builder().compressHashValues(true).build());
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] raw(String key) {
        return redis.raw().sync().get(b(key));
    }

    static boolean compressed(byte[] stored, CompressionBackend backend) {
        return stored != null && stored.length > 5 && stored[0] == 0 && stored[1] == 1 && stored[2] == 2
                && stored[4] == backend.id();
    }

    @Test
    void setFamilyIsCompressedEverythingElsePlain() {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec(CompressionBackend.ZSTD))) {
            RedisCommands<String, String> s = c.sync();
            String v = TestValues.json(2000);
            s.set("set", v);
            s.setnx("setnx", v);
            s.setex("setex", 100, v);
            s.psetex("psetex", 100_000, v);
            s.mset(Map.of("mset1", v, "mset2", v));
            s.msetnx(Map.of("msetnx1", v, "msetnx2", v));
            s.set("setargs", v, SetArgs.Builder.ex(100).nx());
            for (String k : List.of("set", "setnx", "setex", "psetex", "mset1", "mset2", "msetnx1", "msetnx2",
                    "setargs")) {
                assertTrue(compressed(raw(k), CompressionBackend.ZSTD), k);
                assertEquals(v, s.get(k), k);
            }
            // GETSET's new value is sent plain, as GLIDE does; its reply (the old value) is decoded
            assertEquals(v, s.getset("set", v + "!"));
            assertArrayEquals(b(v + "!"), raw("set"));
            // hash values plain by default; fields are never compressed
            s.hset("h", "field", v);
            assertArrayEquals(b(v), redis.raw().sync().hget(b("h"), b("field")));
            s.lpush("l", v);
            assertArrayEquals(b(v), redis.raw().sync().lindex(b("l"), 0));
            s.xadd("x", Map.of("f", v));
            assertArrayEquals(b(v), redis.raw().sync().xrange(b("x"), Range.create("-", "+")).get(0).getBody()
                    .values().iterator().next());
        }
    }

    /** SADD of one member from a zstd, an lz4 and a plain connection leaves one member. */
    @Test
    void oneMemberFromEveryConnection() {
        try (StatefulRedisConnection<String, String> zstd = redis.client().connect(codec(CompressionBackend.ZSTD));
             StatefulRedisConnection<String, String> lz4 = redis.client().connect(codec(CompressionBackend.LZ4));
             StatefulRedisConnection<String, String> plain = redis.client().connect(StringCodec.UTF8)) {
            assertEquals(1, zstd.sync().sadd("s", MEMBER));
            assertEquals(0, lz4.sync().sadd("s", MEMBER));
            assertEquals(0, plain.sync().sadd("s", MEMBER));
            assertEquals(1, plain.sync().scard("s"));
            for (StatefulRedisConnection<String, String> c : List.of(zstd, lz4, plain)) {
                assertTrue(c.sync().sismember("s", MEMBER));
                assertEquals(List.of(true, false), c.sync().smismember("s", MEMBER, "other"));
            }
            assertArrayEquals(b(MEMBER), redis.raw().sync().smembers(b("s")).iterator().next());
            assertEquals(1, lz4.sync().srem("s", MEMBER));
        }
    }

    @Test
    void sortedSetsOrderThePlainMembers() {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec(CompressionBackend.ZSTD))) {
            String pad = "x".repeat(200);
            c.sync().zadd("z", 0.0, "alpha" + pad, 0.0, "bravo" + pad, 0.0, "charlie" + pad);
            assertEquals(List.of("bravo" + pad), c.sync().zrangebylex("z", Range.create("bravo", "c")));
            assertEquals(1, c.sync().zlexcount("z", Range.create("bravo", "c")));
        }
    }

    @Test
    void scriptsAndFunctionsSeeTheirArgumentsAsPassed() {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec(CompressionBackend.ZSTD))) {
            Long len = c.sync().eval("return string.len(ARGV[1])", ScriptOutputType.INTEGER, new String[0], MEMBER);
            assertEquals(MEMBER.length(), len);
            c.sync().functionLoad("#!lua name=zstdjava\n"
                    + "redis.register_function('arglen', function(keys, args) return string.len(args[1]) end)", true);
            Long flen = c.sync().fcall("arglen", ScriptOutputType.INTEGER, new String[0], MEMBER);
            assertEquals(MEMBER.length(), flen);
        }
    }

    /**
     * @param name the refused command's name, as {@link CommandRefusedException#command()} starts
     * @param call a call that must be refused before anything is sent
     */
    static void assertRefused(String name, Runnable call) {
        CommandRefusedException e = assertThrows(CommandRefusedException.class, call::run, name);
        assertTrue(e.command().startsWith(name), e.command() + " for " + name);
        assertTrue(e.getMessage().contains(name), e.getMessage());
    }

    /** Every refused command is refused with its name, before anything is sent; the connection stays usable. */
    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void refusedCommands(CompressionBackend backend) {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec(backend))) {
            RedisCommands<String, String> s = c.sync();
            String v = TestValues.json(500);
            s.set("k", v);
            byte[] stored = raw("k");
            Map<String, Runnable> calls = new LinkedHashMap<>();
            calls.put("APPEND", () -> s.append("k", "more"));
            calls.put("SETRANGE", () -> s.setrange("k", 1, "x"));
            calls.put("GETRANGE", () -> s.getrange("k", 0, 10));
            calls.put("STRLEN", () -> s.strlen("k"));
            calls.put("INCR", () -> s.incr("n"));
            calls.put("INCRBY", () -> s.incrby("n", 2));
            calls.put("INCRBYFLOAT", () -> s.incrbyfloat("n", 2.5));
            calls.put("DECR", () -> s.decr("n"));
            calls.put("DECRBY", () -> s.decrby("n", 2));
            calls.put("LCS", () -> s.lcs(io.lettuce.core.LcsArgs.Builder.keys("k", "k2")));
            calls.put("SETBIT", () -> s.setbit("k", 1, 1));
            calls.put("GETBIT", () -> s.getbit("k", 1));
            calls.put("BITCOUNT", () -> s.bitcount("k"));
            calls.put("BITPOS", () -> s.bitpos("k", true));
            calls.put("BITFIELD", () -> s.bitfield("k", BitFieldArgs.Builder.get(BitFieldArgs.unsigned(4), 0)));
            calls.put("BITOP", () -> s.bitopAnd("dest", "k", "k2"));
            // the conditional SET and DELEX as every line can send them (Lettuce 7.x's own API for them:
            // LettuceNewestLineTest): under the command's name, which an older line has no CommandType for
            calls.put("SET ... IFEQ", () -> c.sync().dispatch(keyword("SET"), new StatusOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).addKey("k").addValue("new").add("EX").add(100).add("IFEQ")
                            .add(v)));
            calls.put("DELEX ... IFEQ", () -> c.sync().dispatch(keyword("DELEX"), new IntegerOutput<>(
                    StringCodec.UTF8), new CommandArgs<>(StringCodec.UTF8).addKey("k").add("IFEQ").add(v)));
            calls.put("DELIFEQ", () -> c.sync().dispatch(keyword("DELIFEQ"), new IntegerOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).addKey("k").addValue(v)));
            calls.put("SUBSTR", () -> c.sync().dispatch(keyword("SUBSTR"), new IntegerOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).addKey("k").add(0).add(3)));
            calls.put("BITFIELD_RO", () -> c.sync().dispatch(keyword("BITFIELD_RO"),
                    new IntegerOutput<>(StringCodec.UTF8), new CommandArgs<>(StringCodec.UTF8).addKey("k")));
            calls.forEach(LettucePolicyTest::assertRefused);
            // nothing reached the server: the value is as stored, the counter and the destination do not exist
            assertArrayEquals(stored, raw("k"));
            assertEquals(0, redis.raw().sync().exists(b("n"), b("dest")));
            assertEquals(v, s.get("k"));
            // the async and reactive APIs fail the same way
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> c.async().append("k", "x").get(5, TimeUnit.SECONDS));
            assertInstanceOf(CommandRefusedException.class, e.getCause());
            assertThrows(CommandRefusedException.class, () -> c.reactive().incr("n").block(Duration.ofSeconds(5)));
            assertEquals("PONG", s.ping());
            // a plain connection runs them on the plain bytes
            try (StatefulRedisConnection<String, String> plain = redis.client().connect(StringCodec.UTF8)) {
                assertEquals(3, plain.sync().incrby("n", 3));
                assertEquals(4, plain.sync().append("p", "text"));
            }
        }
    }

    @Test
    void hashValuesOptedIn() {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(hashCodec())) {
            RedisCommands<String, String> s = c.sync();
            String v = TestValues.json(1000);
            s.hset("h", "a", v);
            s.hset("h", Map.of("b", v, "c", "short"));
            s.hsetnx("h", "d", v);
            s.hmset("h", Map.of("e", v));
            for (String f : List.of("a", "b", "d", "e")) {
                assertTrue(compressed(redis.raw().sync().hget(b("h"), b(f)), CompressionBackend.ZSTD), f);
                assertEquals(v, s.hget("h", f), f);
            }
            assertArrayEquals(b("short"), redis.raw().sync().hget(b("h"), b("c")));
            assertEquals(Map.of("a", v, "b", v, "c", "short", "d", v, "e", v), s.hgetall("h"));
            // fields stay plain: a plain connection finds them
            assertTrue(redis.raw().sync().hexists(b("h"), b("a")));
            assertRefused("HINCRBY", () -> s.hincrby("h", "n", 1));
            assertRefused("HINCRBYFLOAT", () -> s.hincrbyfloat("h", "n", 1.5));
            assertRefused("HSTRLEN", () -> s.hstrlen("h", "a"));
            assertFalse(redis.raw().sync().hexists(b("h"), b("n")));
            // and the SET family still compresses
            s.set("k", v);
            assertTrue(compressed(raw("k"), CompressionBackend.ZSTD));
        }
        // without the opt-in they run
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec(CompressionBackend.ZSTD))) {
            assertEquals(2, c.sync().hincrby("h2", "n", 2));
            assertEquals(5, c.sync().hstrlen("h", "c"));
        }
    }

    /** A refused command inside MULTI discards the transaction: EXEC runs nothing, no queued future hangs. */
    @Test
    void refusalInsideMultiDiscardsTheTransaction() throws Exception {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec(CompressionBackend.ZSTD))) {
            String v = TestValues.json(400);
            RedisAsyncCommands<String, String> a = c.async();
            assertEquals("OK", a.multi().get(5, TimeUnit.SECONDS));
            RedisFuture<String> first = a.set("t1", v);
            RedisFuture<Long> refused = a.append("t1", "x");
            RedisFuture<Long> after = a.sadd("t2", "m");
            RedisFuture<TransactionResult> exec = a.exec();
            for (RedisFuture<?> f : List.of(first, refused, after, exec)) {
                ExecutionException e = assertThrows(ExecutionException.class, () -> f.get(5, TimeUnit.SECONDS));
                CommandRefusedException r = assertInstanceOf(CommandRefusedException.class, e.getCause());
                assertEquals("APPEND", r.command());
            }
            assertEquals(0, redis.raw().sync().exists(b("t1"), b("t2")), "EXEC ran nothing");
            assertFalse(c.isMulti());
            // the sync API: the queued calls return null, EXEC throws
            RedisCommands<String, String> s = c.sync();
            s.multi();
            s.set("t3", v);
            s.incr("t4");
            CommandRefusedException e = assertThrows(CommandRefusedException.class, s::exec);
            assertEquals("INCR", e.command());
            assertEquals(0, redis.raw().sync().exists(b("t3"), b("t4")));
            // the connection is usable, and a transaction without refusals runs, results in order
            s.multi();
            s.set("t5", v);
            s.sadd("t6", MEMBER);
            s.get("t5");
            TransactionResult r = s.exec();
            assertFalse(r.wasDiscarded());
            assertEquals(List.of("OK", 1L, v), r.stream().toList());
            assertTrue(compressed(raw("t5"), CompressionBackend.ZSTD));
            assertArrayEquals(b(MEMBER), redis.raw().sync().spop(b("t6")));
        }
    }

    @Test
    void pipelinedWithAutoFlushOff() throws Exception {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec(CompressionBackend.LZ4))) {
            String v = TestValues.json(800);
            c.setAutoFlushCommands(false);
            RedisAsyncCommands<String, String> a = c.async();
            List<RedisFuture<?>> futures = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                futures.add(a.set("p" + i, v));
                futures.add(a.sadd("ps", MEMBER + i));
            }
            RedisFuture<Long> refused = a.append("p0", "x");
            assertTrue(refused.isDone(), "refused before the flush");
            c.flushCommands();
            for (RedisFuture<?> f : futures) {
                assertNotNull(f.get(5, TimeUnit.SECONDS));
            }
            ExecutionException e = assertThrows(ExecutionException.class, () -> refused.get(1, TimeUnit.SECONDS));
            assertInstanceOf(CommandRefusedException.class, e.getCause());
            c.setAutoFlushCommands(true);
            for (int i = 0; i < 20; i++) {
                assertTrue(compressed(raw("p" + i), CompressionBackend.LZ4));
                assertEquals(v, c.sync().get("p" + i));
                assertTrue(redis.raw().sync().sismember(b("ps"), b(MEMBER + i)));
            }
        }
    }

    /** Commands dispatched together: the compressed one is wrapped, the refused one fails, the rest go as one write. */
    @Test
    void dispatchOfACollection() throws Exception {
        CompressingCodec<String, String> codec = codec(CompressionBackend.ZSTD);
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec)) {
            String v = TestValues.json(900);
            var set = new io.lettuce.core.protocol.AsyncCommand<>(new io.lettuce.core.protocol.Command<>(
                    io.lettuce.core.protocol.CommandType.SET, new io.lettuce.core.output.StatusOutput<>(codec),
                    new CommandArgs<>(codec).addKey("dc").addValue(v)));
            var sadd = new io.lettuce.core.protocol.AsyncCommand<>(new io.lettuce.core.protocol.Command<>(
                    io.lettuce.core.protocol.CommandType.SADD, new IntegerOutput<>(codec),
                    new CommandArgs<>(codec).addKey("dcs").addValue(MEMBER)));
            var append = new io.lettuce.core.protocol.AsyncCommand<>(new io.lettuce.core.protocol.Command<>(
                    io.lettuce.core.protocol.CommandType.APPEND, new IntegerOutput<>(codec),
                    new CommandArgs<>(codec).addKey("dc").addValue("x")));
            c.dispatch(List.of(set, sadd));
            assertEquals("OK", set.get(5, TimeUnit.SECONDS));
            assertEquals(1L, sadd.get(5, TimeUnit.SECONDS));
            var sadd2 = new io.lettuce.core.protocol.AsyncCommand<>(new io.lettuce.core.protocol.Command<>(
                    io.lettuce.core.protocol.CommandType.SADD, new IntegerOutput<>(codec),
                    new CommandArgs<>(codec).addKey("dcs").addValue(MEMBER)));
            c.dispatch(List.of(append, sadd2));
            assertEquals(0L, sadd2.get(5, TimeUnit.SECONDS), "the same plain member");
            ExecutionException e = assertThrows(ExecutionException.class, () -> append.get(5, TimeUnit.SECONDS));
            assertInstanceOf(CommandRefusedException.class, e.getCause());
            assertTrue(compressed(raw("dc"), CompressionBackend.ZSTD));
            assertEquals(v, c.sync().get("dc"));
            assertArrayEquals(b(MEMBER), redis.raw().sync().smembers(b("dcs")).iterator().next());
        }
    }

    @Test
    void reactive() {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec(CompressionBackend.ZSTD))) {
            String v = TestValues.json(700);
            assertEquals("OK", c.reactive().set("r", v).block(Duration.ofSeconds(5)));
            assertTrue(compressed(raw("r"), CompressionBackend.ZSTD));
            assertEquals(v, c.reactive().get("r").block(Duration.ofSeconds(5)));
            assertEquals(1L, c.reactive().sadd("rs", MEMBER).block(Duration.ofSeconds(5)));
            assertArrayEquals(b(MEMBER), redis.raw().sync().smembers(b("rs")).iterator().next());
            CommandRefusedException e = assertThrows(CommandRefusedException.class,
                    () -> c.reactive().strlen("r").block(Duration.ofSeconds(5)));
            assertEquals("STRLEN", e.command());
        }
    }

    /** PUBLISH sends messages plain; subscribers (with or without the codec) get them as sent. */
    @Test
    void pubSubMessagesArePlain() throws Exception {
        CompressingCodec<String, String> codec = codec(CompressionBackend.ZSTD);
        try (StatefulRedisPubSubConnection<String, String> sub = redis.client().connectPubSub(codec);
             StatefulRedisPubSubConnection<byte[], byte[]> rawSub = redis.client().connectPubSub(ByteArrayCodec.INSTANCE);
             StatefulRedisPubSubConnection<String, String> pub = redis.client().connectPubSub(codec);
             StatefulRedisConnection<String, String> conn = redis.client().connect(codec)) {
            LinkedBlockingQueue<String> got = new LinkedBlockingQueue<>();
            LinkedBlockingQueue<byte[]> gotRaw = new LinkedBlockingQueue<>();
            sub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(String channel, String message) {
                    got.add(message);
                }
            });
            rawSub.addListener(new RedisPubSubAdapter<>() {
                @Override
                public void message(byte[] channel, byte[] message) {
                    gotRaw.add(message);
                }
            });
            sub.sync().subscribe("ch");
            rawSub.sync().subscribe(b("ch"));
            assertEquals(2, conn.sync().publish("ch", MEMBER));
            assertEquals(MEMBER, got.poll(5, TimeUnit.SECONDS));
            assertArrayEquals(b(MEMBER), gotRaw.poll(5, TimeUnit.SECONDS));
            // the pub/sub connection itself follows the policy
            pub.sync().set("ps", MEMBER);
            assertTrue(compressed(raw("ps"), CompressionBackend.ZSTD));
            assertEquals(2, pub.sync().publish("ch", MEMBER + "2"));
            assertArrayEquals(b(MEMBER + "2"), gotRaw.poll(5, TimeUnit.SECONDS));
            assertRefused("APPEND", () -> pub.sync().append("ps", "x"));
        }
    }

    /** One call makes a compressing connection: the policy client wraps the given codec with the compressor. */
    @Test
    void oneCallMakesACompressingConnection() {
        ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults());
        String v = TestValues.json(1500);
        try (StatefulRedisConnection<String, String> c = ((CompressingRedisClient) redis.client())
                .connect(StringCodec.UTF8, values)) {
            // getCodec() of StatefulRedisConnection is Lettuce 7's; its implementation has it on every line
            RedisCodec<?, ?> codec = ((StatefulRedisConnectionImpl<?, ?>) c).getCodec();
            assertInstanceOf(CompressingCodec.class, codec);
            assertSame(values, ((CompressingCodec<?, ?>) codec).compressor());
            c.sync().set("one-call", v);
            c.sync().sadd("one-call-set", MEMBER);
            assertTrue(compressed(raw("one-call"), CompressionBackend.ZSTD), "SET value compressed");
            assertArrayEquals(b(MEMBER), redis.raw().sync().smembers(b("one-call-set")).iterator().next());
            assertEquals(v, c.sync().get("one-call"));
            assertRefused("APPEND", () -> c.sync().append("one-call", "x"));
        }
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class, () ->
                ((CompressingRedisClient) redis.client()).connect(codec(CompressionBackend.ZSTD), values));
        assertTrue(twice.getMessage().contains("StringCodec.UTF8"), twice.getMessage());
    }

    /**
     * A CompressingCodec on a plain RedisClient fails its first command, saying how to connect, and stores nothing:
     * never a value silently uncompressed.
     */
    @Test
    void aCompressingCodecOnAPlainRedisClientFailsTheFirstCommand() {
        RedisClient plainClient = RedisClient.create(redis.uri());
        try (StatefulRedisConnection<String, String> c = plainClient.connect(codec(CompressionBackend.ZSTD))) {
            String v = TestValues.json(1500);
            Exception first = assertThrows(Exception.class, () -> c.sync().set("plain", v));
            assertMisuse(first);
            assertNull(redis.raw().sync().get(b("plain")), "nothing stored");
            assertMisuse(assertThrows(Exception.class, () -> c.sync().get("plain")));
        } finally {
            plainClient.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    /** @param e the exception of a command of a plain client's connection with a CompressingCodec */
    static void assertMisuse(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IllegalStateException && CompressingCodec.MISUSE.equals(t.getMessage())) {
                return;
            }
        }
        throw new AssertionError("not the codec's misuse error", e);
    }

    /** Dictionaries apply only where compression does: a set member is never written with one. */
    @Test
    void membersNeverUseTheDictionary() throws Exception {
        List<byte[]> train = TestValues.jsonRecords(3000, 41);
        try (LettuceDictionaryStore store = LettuceDictionaryStore.builder().connect(redis.client(), redis.uri());
             DictionaryManager m = DictionaryManager.managed(store).minSamples(500).build();
             StatefulRedisConnection<byte[], byte[]> c = redis.client().connect(CompressingCodec.wrap(
                     ByteArrayCodec.INSTANCE, ValueCompressor.create(CompressionConfig.defaults(), m)))) {
            for (int i = 0; i < train.size(); i++) {
                c.async().set(b("t:" + i), train.get(i));
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (m.currentId() == 0) {
                assertTrue(System.nanoTime() < deadline, "no dictionary adopted: " + m.trainingStats());
                Thread.sleep(20);
            }
            byte[] value = train.get(7);
            c.sync().set(b("v"), value);
            byte[] stored = raw("v");
            assertEquals(m.currentId(), ZstdFrame.dictionaryId(stored, 5, stored.length - 5));
            c.sync().sadd(b("members"), value);
            c.sync().rpush(b("list"), value);
            c.sync().hset(b("hash"), b("f"), value);
            assertArrayEquals(value, redis.raw().sync().smembers(b("members")).iterator().next());
            assertArrayEquals(value, redis.raw().sync().lindex(b("list"), 0));
            assertArrayEquals(value, redis.raw().sync().hget(b("hash"), b("f")));
            assertEquals(1, redis.raw().sync().scard(b("members")));
        }
    }

    static ProtocolKeyword keyword(String name) {
        byte[] bytes = b(name);
        return new ProtocolKeyword() {
            @Override
            public byte[] getBytes() {
                return bytes;
            }

            @Override
            public String toString() {
                return name;
            }
        };
    }
}
