package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import glide.api.GlideClient;
import glide.api.models.GlideString;
import glide.api.models.configuration.CompressionConfiguration;
import glide.api.models.configuration.GlideClientConfiguration;
import glide.api.models.configuration.NodeAddress;
import io.lettuce.core.RedisCommandExecutionException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.SetArgs;
import io.lettuce.core.SortArgs;
import io.lettuce.core.StrAlgoArgs;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.ByteArrayCodec;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.output.StatusOutput;
import io.lettuce.core.output.ValueListOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static dev.zstdjava.lettuce.LettucePolicyTest.b;
import static dev.zstdjava.lettuce.LettucePolicyTest.codec;
import static dev.zstdjava.lettuce.LettucePolicyTest.compressed;
import static dev.zstdjava.lettuce.LettucePolicyTest.hashCodec;
import static dev.zstdjava.lettuce.LettucePolicyTest.keyword;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The policy decides from a command's name and its argument words, however the command was written: custom
 * keywords, conditions added as characters or values, {@code SORT ... BY} patterns that read stored values, the
 * string commands Lettuce 7.9 sends under names the server may not know (sent here under their names, as every
 * supported line can send them), and what scripts see.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class LettucePolicyArgumentsTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer(CompressingRedisClient::create);

    static byte[] raw(String key) {
        return redis.raw().sync().get(b(key));
    }

    /** The connections' codec: arguments built with it encode values as the connection does. */
    static final CompressingCodec<String, String> ZSTD = codec(CompressionBackend.ZSTD);

    static CommandArgs<String, String> args() {
        return new CommandArgs<>(ZSTD);
    }

    static void assertRefused(String command, Supplier<?> call) {
        CommandRefusedException e = assertThrows(CommandRefusedException.class, call::get, command);
        assertEquals(command, e.command());
    }

    /** A SET under a custom keyword is the SET of its name: compressed, GLIDE reads it, its conditions refused. */
    @Test
    void customKeywordSetIsCompressedAndItsConditionsRefused() throws Exception {
        String v = TestValues.json(250);
        try (StatefulRedisConnection<String, String> c = redis.client().connect(ZSTD);
             GlideClient glide = glide()) {
            RedisCommands<String, String> s = c.sync();
            for (String name : List.of("SET", "set")) {
                String k = "custom:" + name;
                assertEquals("OK", s.dispatch(keyword(name), new StatusOutput<>(StringCodec.UTF8),
                        args().addKey(k).addValue(v)));
                assertTrue(compressed(raw(k), CompressionBackend.ZSTD), name + " stored " + raw(k).length + " bytes");
                assertEquals(v, s.get(k));
                // GLIDE reads what the custom keyword wrote
                assertEquals(v, glide.get(GlideString.of(k)).get(10, TimeUnit.SECONDS).getString());
                // with options it is still compressed
                assertEquals("OK", s.dispatch(keyword(name), new StatusOutput<>(StringCodec.UTF8),
                        args().addKey(k + ":ex").addValue(v).add("EX").add(100)));
                assertTrue(compressed(raw(k + ":ex"), CompressionBackend.ZSTD), name + " EX");
                byte[] stored = raw(k);
                assertRefused("SET ... IFEQ", () -> s.dispatch(keyword(name), new StatusOutput<>(StringCodec.UTF8),
                        args().addKey(k).addValue("new").add("IFEQ").add(v)));
                assertRefused("SET ... IFNE", () -> s.dispatch(keyword(name), new StatusOutput<>(StringCodec.UTF8),
                        args().addKey(k).addValue("new").add(keyword("ifne")).add("x")));
                assertArrayEquals(stored, raw(k), "nothing reached the server");
            }
            // and the same SET on a plain connection replaces the value: the condition compares plain bytes there
            try (StatefulRedisConnection<String, String> plain = redis.client().connect(StringCodec.UTF8)) {
                plain.sync().set("plain:k", v);
                assertEquals("OK", plain.sync().dispatch(keyword("SET"), new StatusOutput<>(StringCodec.UTF8),
                        new CommandArgs<>(StringCodec.UTF8).addKey("plain:k").addValue("new").add("IFEQ").add(v)));
                assertEquals("new", plain.sync().get("plain:k"));
            }
        }
    }

    /** IFEQ written as characters, as a value, as lowercase bytes or as a key argument: refused every way. */
    @Test
    void conditionsAreRefusedUnderEveryArgumentType() {
        String v = TestValues.json(250);
        try (StatefulRedisConnection<String, String> c = redis.client().connect(ZSTD)) {
            RedisCommands<String, String> s = c.sync();
            s.set("k", v);
            byte[] stored = raw("k");
            Map<String, Supplier<CommandArgs<String, String>>> spellings = new LinkedHashMap<>();
            spellings.put("char[]", () -> args().addKey("k").addValue("new").add("IFEQ".toCharArray()).add(v));
            spellings.put("value", () -> args().addKey("k").addValue("new").addValue("IFEQ").addValue(v));
            spellings.put("value comparand", () -> args().addKey("k").addValue("new").add("IFEQ").addValue(v));
            spellings.put("bytes", () -> args().addKey("k").addValue("new").add(b("ifeq")).add(v));
            spellings.put("key", () -> args().addKey("k").addValue("new").addKey("IFEQ").add(v));
            spellings.put("after options", () -> args().addKey("k").addValue("new").add(CommandType.GET)
                    .add("EX").add(100).add("IfEq".toCharArray()).addValue(v));
            spellings.forEach((how, a) -> {
                assertRefused("SET ... IFEQ", () -> s.dispatch(CommandType.SET, new StatusOutput<>(StringCodec.UTF8),
                        a.get()));
                assertRefused("SET ... IFEQ", () -> s.dispatch(keyword("SET"), new StatusOutput<>(StringCodec.UTF8),
                        a.get()));
            });
            assertRefused("SET ... IFDNE", () -> s.dispatch(CommandType.SET, new StatusOutput<>(StringCodec.UTF8),
                    args().addKey("k").addValue("new").addValue("IFDNE").add("0123456789abcdef")));
            // DELEX (Redis 8.4) with a condition under any spelling, refused before the server sees it (its
            // CommandType, Lettuce 7's: LettuceNewestLineTest)
            assertRefused("DELEX ... IFEQ", () -> s.dispatch(keyword("DELEX"), new IntegerOutput<>(StringCodec.UTF8),
                    args().addKey("k").add("IFEQ".toCharArray()).addValue(v)));
            assertRefused("DELEX ... IFNE", () -> s.dispatch(keyword("delex"), new IntegerOutput<>(StringCodec.UTF8),
                    args().addKey("k").addValue("IFNE").addValue(v)));
            assertArrayEquals(stored, raw("k"), "nothing reached the server");
            // a value or key that reads IFEQ is not the option
            assertEquals("OK", s.set("IFEQ", "IFEQ"));
            assertEquals("OK", s.dispatch(CommandType.SET, new StatusOutput<>(StringCodec.UTF8),
                    args().addKey("IFEQ").addValue("IFEQ").add("EX").add(100)));
            assertEquals("IFEQ", s.get("IFEQ"));
            assertEquals("PONG", s.ping());
        }
    }

    /** Three weights that sort c, a, b as plain bytes (121 bytes each, compressible). */
    static Map<String, String> weights(String prefix) {
        String pad = "w".repeat(120);
        return Map.of(prefix + "c", "a" + pad, prefix + "a", "b" + pad, prefix + "b", "c" + pad);
    }

    @Test
    void sortByStoredValuesIsRefused() {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(ZSTD);
             StatefulRedisConnection<String, String> plain = redis.client().connect(StringCodec.UTF8)) {
            RedisCommands<String, String> s = c.sync();
            s.rpush("ids", "a", "b", "c");
            s.mset(weights("w_"));
            assertTrue(compressed(raw("w_a"), CompressionBackend.ZSTD));
            plain.sync().mset(weights("pw_"));
            assertEquals(List.of("c", "a", "b"), plain.sync().sort("ids", SortArgs.Builder.by("pw_*").alpha()),
                    "plain weights, plain connection");

            assertRefused("SORT ... BY", () -> s.sort("ids", SortArgs.Builder.by("w_*").alpha()));
            assertRefused("SORT ... BY", () -> s.sort("ids", SortArgs.Builder.by("w_*")));
            assertRefused("SORT_RO ... BY", () -> s.sortReadOnly("ids", SortArgs.Builder.by("w_*").alpha()));
            assertRefused("SORT ... BY", () -> s.sortStore("ids", SortArgs.Builder.by("w_*").alpha(), "dst"));
            assertTrue(assertThrows(CommandRefusedException.class, () -> s.sort(v -> { }, "ids",
                    SortArgs.Builder.by("w_*").alpha())).command().endsWith(" ... BY"));
            assertRefused("SORT ... BY", () -> s.sort("ids", SortArgs.Builder.limit(0, 3).get("#").by("w_*->")
                    .alpha()));
            assertRefused("SORT ... BY", () -> s.dispatch(keyword("sort"), new ValueListOutput<>(StringCodec.UTF8),
                    args().addKey("ids").add("by".toCharArray()).addValue("w_*").add("ALPHA")));
            // the refusal says why and what to do
            CommandRefusedException e = assertThrows(CommandRefusedException.class,
                    () -> s.sort("ids", SortArgs.Builder.by("w_*").alpha()));
            assertTrue(e.getMessage().contains("BY w_*") && e.getMessage().contains("compressed")
                    && e.getMessage().contains("connection without compression")
                    && e.getMessage().contains("hash fields"), e.getMessage());
            assertEquals(0, redis.raw().sync().exists(b("dst")), "nothing reached the server");

            // BY nosort (no '*'), GET patterns and plain sorts go out; GET's values come back decoded
            assertEquals(List.of("a", "b", "c"), s.sort("ids", SortArgs.Builder.by("nosort")));
            assertEquals(List.of("c", "b", "a"), s.sort("ids", SortArgs.Builder.desc().alpha()));
            List<String> got = s.sort("ids", SortArgs.Builder.by("nosort").get("w_*"));
            assertEquals(List.of(weights("w_").get("w_a"), weights("w_").get("w_b"), weights("w_").get("w_c")), got);
            assertEquals(List.of("a", "b"), s.sort("ids", SortArgs.Builder.limit(0, 2).get("#").alpha()));
            // a word after GET or LIMIT that reads BY is not the option
            List<String> byAsGetPattern = s.sort("ids", SortArgs.Builder.get("BY").get("#").alpha());
            assertEquals(java.util.Arrays.asList(null, "a", null, "b", null, "c"), byAsGetPattern);

            // hash-field weights are plain while hash values are: sorted by them as written
            s.hset("h_c", "f", weights("").get("c"));
            s.hset("h_a", "f", weights("").get("a"));
            s.hset("h_b", "f", weights("").get("b"));
            assertEquals(List.of("c", "a", "b"), s.sort("ids", SortArgs.Builder.by("h_*->f").alpha()));
        }
        // with hash values compressed, hash-field weights are compressed too: refused
        try (StatefulRedisConnection<String, String> c = redis.client().connect(hashCodec())) {
            assertRefused("SORT ... BY", () -> c.sync().sort("ids", SortArgs.Builder.by("h_*->f").alpha()));
            CommandRefusedException e = assertThrows(CommandRefusedException.class,
                    () -> c.sync().sort("ids", SortArgs.Builder.by("h_*->f").alpha()));
            assertFalse(e.getMessage().contains("keep the weights in hash fields"), e.getMessage());
            assertEquals(List.of("a", "b", "c"), c.sync().sort("ids", SortArgs.Builder.by("nosort")));
        }
    }

    /** STRALGO (LCS under its Redis 6 name), DIGEST (Redis 8.4) and INCREX (Redis 8.8 / Valkey 9.2). */
    @Test
    void stringCommandsUnderNewerAndOlderNamesAreRefused() {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(ZSTD)) {
            RedisCommands<String, String> s = c.sync();
            s.set("k", TestValues.json(300));
            assertRefused("STRALGO", () -> s.stralgoLcs(StrAlgoArgs.Builder.keys("k", "k2")));
            // under their names, as every line can send them (Lettuce 7's own API for them: LettuceNewestLineTest)
            assertRefused("DIGEST", () -> s.dispatch(keyword("DIGEST"), new StatusOutput<>(StringCodec.UTF8),
                    args().addKey("k")));
            assertRefused("INCREX", () -> s.dispatch(keyword("increx"), new IntegerOutput<>(StringCodec.UTF8),
                    args().addKey("n")));
            assertRefused("INCREX", () -> s.dispatch(keyword("INCREX"), new IntegerOutput<>(StringCodec.UTF8),
                    args().addKey("n").add("BYINT").add(5).add("UBOUND").add(10)));
            assertEquals(0, redis.raw().sync().exists(b("n")));
            assertEquals("PONG", s.ping());
        }
        // a plain connection sends them: the server answers (here: it does not know them)
        try (StatefulRedisConnection<String, String> plain = redis.client().connect(StringCodec.UTF8)) {
            assertThrows(RedisCommandExecutionException.class, () -> plain.sync().dispatch(keyword("DIGEST"),
                    new StatusOutput<>(StringCodec.UTF8), new CommandArgs<>(StringCodec.UTF8).addKey("k")));
        }
    }

    /**
     * Scripts and functions read the stored bytes: no client can gate what code reads. This documents the limit
     * stated in docs/command-policy.md.
     */
    @Test
    void scriptsSeeTheStoredCompressedBytes() {
        String v = TestValues.json(200);
        try (StatefulRedisConnection<String, String> c = redis.client().connect(ZSTD);
             StatefulRedisConnection<byte[], byte[]> bytes = redis.client().connect(
                     CompressingCodec.wrap(ByteArrayCodec.INSTANCE, CompressionConfig.defaults()))) {
            RedisCommands<String, String> s = c.sync();
            s.set("doc", v);
            int stored = raw("doc").length;
            assertTrue(stored < v.length(), "stored " + stored);
            Long len = s.eval("return string.len(redis.call('GET', KEYS[1]))", ScriptOutputType.INTEGER,
                    new String[] {"doc"});
            assertEquals(stored, len, "the script measures the compressed bytes, not the 200-byte value");
            Long same = s.eval("return redis.call('GET', KEYS[1]) == ARGV[1] and 1 or 0", ScriptOutputType.INTEGER,
                    new String[] {"doc"}, v);
            assertEquals(0L, same, "the script compares compressed bytes with the plain argument");
            byte[] joined = bytes.sync().eval("return redis.call('GET', KEYS[1]) .. 'x'", ScriptOutputType.VALUE,
                    new byte[][] {b("doc")});
            assertNotEquals(v + "x", new String(joined, StandardCharsets.UTF_8));
            assertArrayEquals(new byte[] {0, 1, 2}, java.util.Arrays.copyOf(joined, 3),
                    "the application gets the header bytes back");
        }
        // the way out: a plain connection for keys that scripts compute on
        try (StatefulRedisConnection<String, String> plain = redis.client().connect(StringCodec.UTF8)) {
            plain.sync().set("pdoc", v);
            assertEquals(v.length(), (long) plain.sync().eval("return string.len(redis.call('GET', KEYS[1]))",
                    ScriptOutputType.INTEGER, new String[] {"pdoc"}));
        }
    }

    static GlideClient glide() throws Exception {
        return GlideClient.createClient(GlideClientConfiguration.builder()
                .address(NodeAddress.builder().host(RedisServer.HOST).port(redis.server().port()).build())
                .requestTimeout(10_000)
                .compressionConfiguration(CompressionConfiguration.builder().enabled(true)
                        .backend(glide.api.models.configuration.CompressionBackend.ZSTD).build())
                .build()).get(30, TimeUnit.SECONDS);
    }
}
