package dev.zstdjava.values.jedis;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.CompressionStats;
import dev.zstdjava.values.ValueCompressor;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import dev.zstdjava.testkit.RedisServer;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.Pipeline;
import redis.clients.jedis.Response;
import redis.clients.jedis.Transaction;
import redis.clients.jedis.commands.JedisBinaryCommands;
import redis.clients.jedis.params.GetExParams;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link CompressingJedis} side by side with the client it wraps, on a real server, in both modes with hash values
 * compressed (so every value argument goes through the compressor): arguments Jedis refuses (an odd {@code MSET}, a
 * null key, field or value, a null {@code SetParams}, map or array) fail with Jedis's own exception, class and message,
 * sending no more than Jedis sends and compressing nothing; commands the server refuses fail with the same server
 * error; empty values are stored and read back as Jedis stores and reads them. Runs on every supported Jedis line (the
 * lines' runs of this test jar).
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingJedisContractTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    static final byte[] BIG = b(json(3000));

    static byte[] b(String s) {
        return CompressingJedisTest.b(s);
    }

    enum Mode {
        FIXED, ADAPTIVE;

        CompressingJedis wrap(JedisBinaryCommands client) {
            CompressionConfig config = CompressionConfig.builder().compressHashValues(true).build();
            return this == FIXED ? new CompressingJedis(client, ValueCompressor.create(config))
                    : new CompressingJedis(client, AdaptiveCompressor.builder(config).build());
        }
    }

    /** One call, made on plain Jedis and on the wrapper with the same arguments. */
    record Call(String name, Function<JedisBinaryCommands, Object> plain, Function<CompressingJedis, Object> wrapped) {}

    static Map<byte[], byte[]> map(byte[]... fieldsAndValues) {
        Map<byte[], byte[]> m = new LinkedHashMap<>();
        for (int i = 0; i < fieldsAndValues.length; i += 2) {
            m.put(fieldsAndValues[i], fieldsAndValues[i + 1]);
        }
        return m;
    }

    /** Calls Jedis refuses before sending anything, and calls the server refuses. */
    static List<Call> refused() {
        byte[] k = b("k");
        List<Call> calls = new ArrayList<>();
        calls.add(new Call("MSET k", c -> c.mset(k), j -> j.mset(k)));
        calls.add(new Call("MSET k v k", c -> c.mset(k, BIG, b("k2")), j -> j.mset(k, BIG, b("k2"))));
        calls.add(new Call("MSET k v k2 null", c -> c.mset(k, BIG, b("k2"), null), j -> j.mset(k, BIG, b("k2"), null)));
        calls.add(new Call("MSET null v", c -> c.mset(null, BIG), j -> j.mset(null, BIG)));
        calls.add(new Call("MSET (no arguments)", c -> c.mset(), j -> j.mset()));
        calls.add(new Call("SET null v", c -> c.set(null, BIG), j -> j.set(null, BIG)));
        calls.add(new Call("SET k null", c -> c.set(k, null), j -> j.set(k, null)));
        calls.add(new Call("SET k null EX 10", c -> c.set(k, null, CompressingJedisTest.ex(10)),
                j -> j.set(k, null, CompressingJedisTest.ex(10))));
        calls.add(new Call("SET k null GET", c -> c.setGet(k, null), j -> j.setGet(k, null)));
        calls.add(new Call("SETEX k 10 null", c -> c.setex(k, 10, null), j -> j.setex(k, 10, null)));
        calls.add(new Call("SETEX null 10 v", c -> c.setex(null, 10, BIG), j -> j.setex(null, 10, BIG)));
        calls.add(new Call("GETSET k null", c -> c.getSet(k, null), j -> j.getSet(k, null)));
        calls.add(new Call("HSET h f null", c -> c.hset(b("h"), b("f"), null), j -> j.hset(b("h"), b("f"), null)));
        calls.add(new Call("HSET null f v", c -> c.hset(null, b("f"), BIG), j -> j.hset(null, b("f"), BIG)));
        calls.add(new Call("HSET h {f: v, g: null}", c -> c.hset(b("h"), map(b("f"), BIG, b("g"), null)),
                j -> j.hset(b("h"), map(b("f"), BIG, b("g"), null))));
        calls.add(new Call("HSET h {null: v}", c -> c.hset(b("h"), map(null, BIG)),
                j -> j.hset(b("h"), map(null, BIG))));
        calls.add(new Call("HSET h {} (no fields)", c -> c.hset(b("h"), map()), j -> j.hset(b("h"), map())));
        calls.add(new Call("GET null", c -> c.get(null), j -> j.get(null)));
        calls.add(new Call("GETDEL null", c -> c.getDel(null), j -> j.getDel(null)));
        calls.add(new Call("GETEX null PERSIST", c -> c.getEx(null, new GetExParams().persist()),
                j -> j.getEx(null, new GetExParams().persist())));
        calls.add(new Call("GETEX k with null GetExParams", c -> c.getEx(k, null), j -> j.getEx(k, null)));
        calls.add(new Call("MGET k null", c -> c.mget(k, null), j -> j.mget(k, null)));
        calls.add(new Call("MGET with a null array", c -> c.mget((byte[][]) null), j -> j.mget((byte[][]) null)));
        calls.add(new Call("HGET null f", c -> c.hget(null, b("f")), j -> j.hget(null, b("f"))));
        calls.add(new Call("HGET h null", c -> c.hget(b("h"), null), j -> j.hget(b("h"), null)));
        calls.add(new Call("HMGET h null", c -> c.hmget(b("h"), (byte[]) null), j -> j.hmget(b("h"), (byte[]) null)));
        calls.add(new Call("HMGET h with a null array", c -> c.hmget(b("h"), (byte[][]) null),
                j -> j.hmget(b("h"), (byte[][]) null)));
        calls.add(new Call("HGETALL null", c -> c.hgetAll(null), j -> j.hgetAll(null)));
        calls.add(new Call("HVALS null", c -> c.hvals(null), j -> j.hvals(null)));
        // null containers: Jedis refuses them before sending, the wrapper compresses nothing for them
        calls.add(new Call("SET k v with null SetParams", c -> c.set(k, BIG, null), j -> j.set(k, BIG, null)));
        calls.add(new Call("SET k v GET with null SetParams", c -> c.setGet(k, BIG, null),
                j -> j.setGet(k, BIG, null)));
        calls.add(new Call("MSET with a null array", c -> c.mset((byte[][]) null), j -> j.mset((byte[][]) null)));
        calls.add(new Call("HSET h with a null map", c -> c.hset(b("h"), (Map<byte[], byte[]>) null),
                j -> j.hset(b("h"), (Map<byte[], byte[]>) null)));
        return calls;
    }

    @ParameterizedTest
    @EnumSource(Mode.class)
    void whatJedisOrTheServerRefusesFailsAsOnJedis(Mode mode) {
        CompressingJedis j = mode.wrap(redis.client());
        List<String> unlike = new ArrayList<>();
        for (Call call : refused()) {
            long written = written(j);
            failsAsOnJedis(call, "", redis.client(), j, unlike);
            if (written(j) != written) {
                unlike.add(call.name() + ": " + (written(j) - written) + " values compressed or counted");
            }
        }
        assertEquals(List.of(), unlike, "the wrapper fails unlike Jedis");
        assertNull(redis.client().get(b("k")), "nothing was stored");
        assertEquals("OK", j.mset(b("k"), BIG), "the client stays usable");
        assertArrayEquals(BIG, j.get(b("k")));
    }

    /** Empty values: stored as they are and read back empty, as plain Jedis stores and reads them. */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void emptyValuesAreStoredAndReadAsJedisDoes(Mode mode) {
        CompressingJedis j = mode.wrap(redis.client());
        byte[] empty = new byte[0];
        assertEquals(redis.client().set(b("plain"), empty), j.set(b("e1"), empty));
        assertEquals("OK", j.setex(b("e2"), 100, empty));
        assertEquals("OK", j.mset(b("e3"), empty, b("e4"), BIG));
        assertEquals(redis.client().hset(b("ph"), b("f"), empty), j.hset(b("eh"), b("f"), empty));
        for (String k : List.of("e1", "e2", "e3")) {
            assertArrayEquals(redis.client().get(b("plain")), redis.client().get(b(k)), k + ": stored as Jedis stores it");
            assertArrayEquals(empty, j.get(b(k)), k);
        }
        assertArrayEquals(empty, j.getSet(b("e1"), empty));
        assertArrayEquals(empty, j.setGet(b("e2"), empty));
        assertArrayEquals(empty, j.mget(b("e3")).get(0));
        assertArrayEquals(redis.client().hget(b("ph"), b("f")), redis.client().hget(b("eh"), b("f")));
        assertArrayEquals(empty, j.hget(b("eh"), b("f")));
        assertArrayEquals(empty, j.hgetAll(b("eh")).get(b("f")));
        assertArrayEquals(empty, j.hvals(b("eh")).get(0));
        assertArrayEquals(empty, j.getDel(b("e3")));
    }

    /**
     * Binary keys and field names (empty, NUL bytes, bytes that are not UTF-8, a long key) go out as given, in both
     * modes (the adaptive one folds each into a pattern): stored under the key plain Jedis stores under, the value
     * read back through the wrapper.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void binaryKeysAreSentAsGiven(Mode mode) {
        CompressingJedis j = mode.wrap(redis.client());
        byte[] longKey = new byte[70_000];
        Arrays.fill(longKey, (byte) 0xfe);
        List<byte[]> keys = List.of(new byte[0], new byte[] {0, 0, 1}, new byte[] {(byte) 0xff, (byte) 0xc3, ':', 0x28},
                longKey);
        for (byte[] key : keys) {
            String name = "key " + keys.indexOf(key);
            assertEquals("OK", j.set(key, BIG), name);
            assertTrue(redis.client().exists(key), name + ": stored under the key as given");
            assertArrayEquals(BIG, j.get(key), name);
            assertArrayEquals(BIG, j.getDel(key), name);
            assertEquals("OK", j.mset(key, BIG), name);
            assertArrayEquals(BIG, j.mget(key).get(0), name);
            assertEquals(1, j.hset(b("h"), key, BIG), name);
            assertTrue(redis.client().hexists(b("h"), key), name + ": the field stored as given");
            assertArrayEquals(BIG, j.hget(b("h"), key), name);
            assertArrayEquals(BIG, j.hgetAll(b("h")).get(key), name);
            redis.client().flushAll();
        }
    }

    /**
     * Keys of the wrong type and other calls the server refuses after Jedis sent them: the same exception, class and
     * message, as on Jedis, and the keys left as they were.
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void whatTheServerRefusesFailsAsOnJedis(Mode mode) {
        CompressingJedis j = mode.wrap(redis.client());
        byte[] hash = b("wrong:hash");
        byte[] string = b("wrong:string");
        redis.client().hset(hash, b("f"), b("v"));
        redis.client().set(string, b("v"));
        List<Call> calls = new ArrayList<>();
        calls.add(new Call("GET hash", c -> c.get(hash), w -> w.get(hash)));
        calls.add(new Call("GETDEL hash", c -> c.getDel(hash), w -> w.getDel(hash)));
        calls.add(new Call("GETEX hash PERSIST", c -> c.getEx(hash, new GetExParams().persist()),
                w -> w.getEx(hash, new GetExParams().persist())));
        calls.add(new Call("GETSET hash v", c -> c.getSet(hash, BIG), w -> w.getSet(hash, BIG)));
        calls.add(new Call("SET hash v GET", c -> c.setGet(hash, BIG), w -> w.setGet(hash, BIG)));
        calls.add(new Call("MGET (no keys)", c -> c.mget(), w -> w.mget()));
        calls.add(new Call("HGET string f", c -> c.hget(string, b("f")), w -> w.hget(string, b("f"))));
        calls.add(new Call("HMGET string f", c -> c.hmget(string, b("f")), w -> w.hmget(string, b("f"))));
        calls.add(new Call("HGETALL string", c -> c.hgetAll(string), w -> w.hgetAll(string)));
        calls.add(new Call("HVALS string", c -> c.hvals(string), w -> w.hvals(string)));
        calls.add(new Call("HSET string f v", c -> c.hset(string, b("f"), BIG), w -> w.hset(string, b("f"), BIG)));
        calls.add(new Call("HSET string {f: v}", c -> c.hset(string, map(b("f"), BIG)),
                w -> w.hset(string, map(b("f"), BIG))));
        calls.add(new Call("SETEX k -1 v", c -> c.setex(b("k"), -1, BIG), w -> w.setex(b("k"), -1, BIG)));
        List<String> unlike = new ArrayList<>();
        long written = written(j);
        for (Call call : calls) {
            failsAsOnJedis(call, "", redis.client(), j, unlike);
        }
        assertEquals(List.of(), unlike, "the wrapper fails unlike Jedis");
        // as documented, the counters count what was compressed for sending: the four writes whose values the policy
        // compresses (SET ... GET, both HSETs, SETEX) are counted although the server refused them; GETSET is plain
        assertEquals(4, written(j) - written, "values counted for the writes the server refused");
        assertArrayEquals(b("v"), redis.client().hget(hash, b("f")), "the hash is as it was");
        assertArrayEquals(b("v"), redis.client().get(string), "the string is as it was");
        assertNull(redis.client().get(b("k")));
    }

    /**
     * A {@code Jedis} in {@code MULTI}, or in a pipeline with replies pending, refuses its own commands with
     * {@link IllegalStateException}: the wrapper's calls fail with the same exception and message, send nothing, and
     * leave the transaction and the pipeline as they were; nothing is compressed or counted for them (the wrapper
     * asks Jedis's own check before compressing).
     */
    @ParameterizedTest
    @EnumSource(Mode.class)
    void aJedisInMultiOrPipelineRefusesTheWrapperAsItRefusesItsOwnCalls(Mode mode) {
        try (Jedis plain = new Jedis(RedisServer.HOST, redis.server().port())) {
            CompressingJedis j = mode.wrap(plain);
            List<Call> calls = new ArrayList<>();
            calls.add(new Call("SET k v", c -> c.set(b("k"), BIG), w -> w.set(b("k"), BIG)));
            calls.add(new Call("MSET k v", c -> c.mset(b("k"), BIG), w -> w.mset(b("k"), BIG)));
            calls.add(new Call("HSET h f v", c -> c.hset(b("h"), b("f"), BIG), w -> w.hset(b("h"), b("f"), BIG)));
            calls.add(new Call("GET k", c -> c.get(b("k")), w -> w.get(b("k"))));
            calls.add(new Call("HGETALL h", c -> c.hgetAll(b("h")), w -> w.hgetAll(b("h"))));
            List<String> unlike = new ArrayList<>();

            Transaction multi = plain.multi();
            multi.set(b("queued"), b("1"));
            for (Call call : calls) {
                failsUncounted(call, " in MULTI", plain, j, unlike);
            }
            assertEquals(List.of("OK"), multi.exec(), "the transaction runs as queued");

            Pipeline pipeline = plain.pipelined();
            Response<String> queued = pipeline.set(b("piped"), b("2"));
            for (Call call : calls) {
                failsUncounted(call, " in a pipeline", plain, j, unlike);
            }
            pipeline.sync();
            assertEquals("OK", queued.get(), "the pipeline runs as queued");

            assertEquals(List.of(), unlike, "the wrapper fails unlike Jedis");
            assertNull(redis.client().get(b("k")), "nothing was stored");
            assertArrayEquals(b("1"), redis.client().get(b("queued")));
            assertArrayEquals(b("2"), redis.client().get(b("piped")));
            assertEquals("OK", j.set(b("k"), BIG), "the wrapper works once the state is over");
            assertArrayEquals(BIG, j.get(b("k")));
        }
    }

    /** As {@link #failsAsOnJedis}, and adds to {@code unlike} where the wrapper compressed or counted a value. */
    private static void failsUncounted(Call call, String state, JedisBinaryCommands plain, CompressingJedis j,
                                       List<String> unlike) {
        long written = written(j);
        failsAsOnJedis(call, state, plain, j, unlike);
        if (written(j) != written) {
            unlike.add(call.name() + state + ": " + (written(j) - written) + " values compressed or counted");
        }
    }

    /**
     * Runs {@code call} on {@code plain} and on {@code j}: both must throw; adds to {@code unlike} where the wrapper's
     * exception (class or message) or the number of commands it sent differ from Jedis's.
     */
    private static void failsAsOnJedis(Call call, String state, JedisBinaryCommands plain, CompressingJedis j,
                                       List<String> unlike) {
        String name = call.name() + state;
        long before = commandsProcessed();
        Throwable expected = assertThrows(Throwable.class, () -> call.plain().apply(plain), name + " on plain Jedis");
        long plainSent = commandsProcessed() - before;
        before = commandsProcessed();
        Throwable got = assertThrows(Throwable.class, () -> call.wrapped().apply(j), name);
        long sent = commandsProcessed() - before;
        if (got.getClass() != expected.getClass() || !String.valueOf(got.getMessage()).equals(
                String.valueOf(expected.getMessage()))) {
            unlike.add(name + ": " + got + ", where Jedis threw " + expected);
        }
        if (sent != plainSent) {
            unlike.add(name + ": " + sent + " commands sent, where Jedis sent " + plainSent);
        }
    }

    /** Every value the wrapper's compressor has counted as written (compressed or stored as it is). */
    static long written(CompressingJedis j) {
        if (j.adaptive() != null) {
            long n = 0;
            for (CompressionOption o : CompressionOption.values()) {
                n += j.adaptive().writes(o).values();
            }
            return n;
        }
        CompressionStats s = j.compressor().stats();
        return s.valuesCompressed() + s.skipped();
    }

    /** The server's count of commands processed (the INFO call that reads it included, alike for every reading). */
    static long commandsProcessed() {
        for (String line : redis.client().info("stats").split("\r?\n")) {
            if (line.startsWith("total_commands_processed:")) {
                return Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
            }
        }
        throw new AssertionError("no total_commands_processed in INFO stats");
    }
}
