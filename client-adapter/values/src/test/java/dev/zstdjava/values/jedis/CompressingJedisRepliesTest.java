package dev.zstdjava.values.jedis;

import dev.zstdjava.testkit.JedisServer;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The list and map replies of {@link CompressingJedis} side by side with the client it wraps, on a real server, empty
 * and not, in both modes with hash values compressed: the same class, the same mutability (what adding, putting,
 * removing and clearing do), the same elements in the same order with {@code null} where Jedis has one (missing keys
 * and fields), the values decompressed. Runs on every supported Jedis line (the lines' runs of this test jar).
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingJedisRepliesTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    static byte[] b(String s) {
        return CompressingJedisTest.b(s);
    }

    /** One collection-returning call, on plain Jedis and on the wrapper. */
    record Call(String name, Function<redis.clients.jedis.commands.JedisBinaryCommands, Object> plain,
                Function<CompressingJedis, Object> wrapped) {}

    static final int FIELDS = 20;

    static List<Call> calls() {
        byte[][] keys = {b("s0"), b("missing"), b("s1")};
        byte[][] fields = {b("f0"), b("nofield"), b("f1")};
        List<Call> calls = new ArrayList<>();
        calls.add(new Call("MGET s0 missing s1", c -> c.mget(keys), j -> j.mget(keys)));
        calls.add(new Call("MGET missing", c -> c.mget(b("missing")), j -> j.mget(b("missing"))));
        calls.add(new Call("HMGET h f0 nofield f1", c -> c.hmget(b("h"), fields), j -> j.hmget(b("h"), fields)));
        calls.add(new Call("HMGET nohash f0", c -> c.hmget(b("nohash"), b("f0")), j -> j.hmget(b("nohash"), b("f0"))));
        calls.add(new Call("HVALS h", c -> c.hvals(b("h")), j -> j.hvals(b("h"))));
        calls.add(new Call("HVALS nohash", c -> c.hvals(b("nohash")), j -> j.hvals(b("nohash"))));
        calls.add(new Call("HGETALL h", c -> c.hgetAll(b("h")), j -> j.hgetAll(b("h"))));
        calls.add(new Call("HGETALL nohash", c -> c.hgetAll(b("nohash")), j -> j.hgetAll(b("nohash"))));
        return calls;
    }

    @ParameterizedTest
    @EnumSource(CompressingJedisContractTest.Mode.class)
    void repliesAreJedisRepliesWithTheValuesDecompressed(CompressingJedisContractTest.Mode mode) {
        CompressingJedis j = mode.wrap(redis.client());
        // the same data twice: written through the wrapper (compressed) and written plain (read by plain Jedis)
        byte[] big = b(json(3000));
        j.mset(b("s0"), big, b("s1"), b("small"));
        for (int i = 0; i < FIELDS; i++) {
            j.hset(b("h"), b("f" + i), i % 2 == 0 ? big : b("v" + i));
        }
        assertNotEquals(Arrays.toString(big), Arrays.toString(redis.client().get(b("s0"))), "stored compressed");

        List<String> unlike = new ArrayList<>();
        for (Call call : calls()) {
            Object plain = call.plain().apply(redis.client());
            List<String> expected = decoded(j, plain);
            Object got = call.wrapped().apply(j);
            if (got.getClass() != plain.getClass()) {
                unlike.add(call.name() + ": a " + got.getClass().getName() + ", where Jedis returns a "
                        + plain.getClass().getName());
            }
            if (!render(got).equals(expected)) {
                // the order only where Jedis keeps one (a JedisByteHashMap over a HashMap, as on Jedis 6.0, does not)
                boolean ordered = decoded(j, call.plain().apply(redis.client())).equals(expected);
                if (ordered || !sorted(render(got)).equals(sorted(expected))) {
                    unlike.add(call.name() + ": " + render(got) + ", where Jedis returns " + expected);
                }
            }
            String mutability = mutability(got);
            String jedisMutability = mutability(plain);
            if (!mutability.equals(jedisMutability)) {
                unlike.add(call.name() + ": " + mutability + ", where on Jedis " + jedisMutability);
            }
        }
        assertEquals(List.of(), unlike, "the wrapper's replies differ from Jedis's");
    }

    /** Jedis's reply rendered with each value decompressed (the reply itself is left as Jedis made it). */
    static List<String> decoded(CompressingJedis j, Object reply) {
        List<String> out = new ArrayList<>();
        if (reply instanceof List<?> l) {
            for (Object o : l) {
                out.add(o == null ? "null" : new String(j.compressor().decompress((byte[]) o)));
            }
        } else {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) reply).entrySet()) {
                out.add(new String((byte[]) e.getKey()) + "="
                        + new String(j.compressor().decompress((byte[]) e.getValue())));
            }
        }
        return out;
    }

    /** A reply rendered as strings, in its order, {@code null} for a null element. */
    static List<String> render(Object reply) {
        List<String> out = new ArrayList<>();
        if (reply instanceof List<?> l) {
            for (Object o : l) {
                out.add(o == null ? "null" : new String((byte[]) o));
            }
        } else {
            for (Map.Entry<?, ?> e : ((Map<?, ?>) reply).entrySet()) {
                out.add(new String((byte[]) e.getKey()) + "=" + new String((byte[]) e.getValue()));
            }
        }
        return out;
    }

    static List<String> sorted(List<String> l) {
        List<String> s = new ArrayList<>(l);
        s.sort(null);
        return s;
    }

    /** What adding, putting, removing and clearing do to the reply (each outcome: ok or the exception's class). */
    @SuppressWarnings("unchecked")
    static String mutability(Object reply) {
        List<String> outcomes = new ArrayList<>();
        if (reply instanceof List<?> l) {
            List<byte[]> list = (List<byte[]>) l;
            outcomes.add(attempt("add", () -> list.add(b("x"))));
            outcomes.add(attempt("remove", () -> list.remove(list.size() - 1)));
            outcomes.add(attempt("clear", list::clear));
        } else {
            Map<byte[], byte[]> map = (Map<byte[], byte[]>) reply;
            outcomes.add(attempt("put", () -> map.put(b("x"), b("y"))));
            outcomes.add(attempt("remove", () -> map.remove(b("x"))));
            outcomes.add(attempt("clear", map::clear));
        }
        return String.join(", ", outcomes);
    }

    static String attempt(String what, Runnable r) {
        try {
            r.run();
            return what + ": ok";
        } catch (RuntimeException e) {
            return what + ": " + e.getClass().getSimpleName();
        }
    }
}
