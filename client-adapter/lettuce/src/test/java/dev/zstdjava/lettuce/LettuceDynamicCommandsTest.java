package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisException;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.dynamic.Commands;
import io.lettuce.core.dynamic.RedisCommandFactory;
import io.lettuce.core.dynamic.annotation.Command;
import io.lettuce.core.dynamic.annotation.Value;
import io.lettuce.core.dynamic.batch.BatchException;
import io.lettuce.core.dynamic.batch.BatchExecutor;
import io.lettuce.core.dynamic.batch.BatchSize;
import io.lettuce.core.protocol.RedisCommand;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static dev.zstdjava.lettuce.LettucePolicyTest.b;
import static dev.zstdjava.lettuce.LettucePolicyTest.compressed;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Lettuce's dynamic command interfaces ({@link RedisCommandFactory}) on a compressing connection, side by side with
 * a plain {@link RedisClient} on one server. The factory builds its commands with codecs of its own
 * ({@code ByteArrayCodec} and {@code StringCodec} unless given others), never with the connection's: so, as with a
 * {@code dispatch} whose arguments and output use another codec, values go out plain and replies come back as stored,
 * exactly as on plain Lettuce; the policy still refuses by name and argument words, and a refused command in a
 * {@link BatchSize} batch fails the flush with Lettuce's {@link BatchException} while the rest of the batch runs.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class LettuceDynamicCommandsTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer(CompressingRedisClient::create);

    static final ValueCompressor VALUES = ValueCompressor.create(CompressionConfig.defaults());
    static RedisClient plainClient;

    @BeforeAll
    static void plain() {
        plainClient = RedisClient.create(redis.uri());
    }

    @AfterAll
    static void shutdown() {
        plainClient.shutdown();
    }

    interface Strings extends Commands {
        String set(String key, String value);

        @Command("SET ?0 ?1")
        String setValue(String key, @Value String value);

        String get(String key);

        Long append(String key, String value);

        @Command("SET ?0 ?1 IFEQ ?2")
        String setIfEq(String key, String value, String expected);

        @Command("GETRANGE ?0 ?1 ?2")
        String range(String key, long from, long to);
    }

    interface Reactive extends Commands {
        Mono<Long> append(String key, String value);
    }

    interface Get extends Commands {
        String get(String key);
    }

    interface Bytes extends Commands {
        byte[] get(byte[] key);
    }

    @BatchSize(3)
    interface Batch extends Commands, BatchExecutor {
        void set(String key, String value);

        void append(String key, String value);
    }

    static CompressingCodec<String, String> zstd() {
        return CompressingCodec.wrap(StringCodec.UTF8, VALUES);
    }

    /** Writes go out as the factory's codec encodes them, plain; reads return the stored bytes, as on plain Lettuce. */
    @Test
    void valuesPassAsStoredBothWays() {
        String v = TestValues.json(500);
        CompressingCodec<String, String> codec = zstd();
        try (StatefulRedisConnection<String, String> z = redis.client().connect(codec);
             StatefulRedisConnection<String, String> p = plainClient.connect(StringCodec.UTF8)) {
            for (StatefulRedisConnection<String, String> c : List.of(p, z)) {
                String side = c == z ? "z:" : "p:";
                Strings s = new RedisCommandFactory(c).getCommands(Strings.class);
                assertEquals("OK", s.set(side + "set", v));
                assertEquals("OK", s.setValue(side + "value", v));
                for (String k : List.of("set", "value")) {
                    assertArrayEquals(b(v), redis.raw().sync().get(b(side + k)), side + k + " stored plain");
                    assertEquals(v, s.get(side + k));
                }
            }
            // a value the connection's own API stored compressed: both read its stored bytes through the interface
            z.sync().set("api", v);
            byte[] stored = redis.raw().sync().get(b("api"));
            assertTrue(compressed(stored, CompressionBackend.ZSTD));
            for (StatefulRedisConnection<String, String> c : List.of(p, z)) {
                RedisCommandFactory factory = new RedisCommandFactory(c);
                assertEquals(new String(stored, StandardCharsets.UTF_8),
                        factory.getCommands(Strings.class).get("api"));
                byte[] read = factory.getCommands(Bytes.class).get(b("api"));
                assertArrayEquals(stored, read);
                assertArrayEquals(b(v), VALUES.decompress(read), "the way out: byte[] and the ValueCompressor");
            }
            assertEquals(v, z.sync().get("api"), "the connection's API decodes it");
            // the connection's codec cannot be given to the factory: Lettuce resolves no output for a String result
            // of a codec whose type arguments it cannot resolve
            assertThrows(IllegalArgumentException.class, () -> new RedisCommandFactory(z, List.of(codec))
                    .getCommands(Get.class).get("api"));
        }
    }

    /** The policy decides a dynamic command by its name and words, as any other command; plain Lettuce runs them. */
    @Test
    void thePolicyRefusesByNameAndWords() {
        String v = TestValues.json(300);
        try (StatefulRedisConnection<String, String> z = redis.client().connect(zstd());
             StatefulRedisConnection<String, String> p = plainClient.connect(StringCodec.UTF8)) {
            Strings zs = new RedisCommandFactory(z).getCommands(Strings.class);
            Strings ps = new RedisCommandFactory(p).getCommands(Strings.class);
            zs.set("k", v);
            assertEquals(v.length() + 1, ps.append("k", "x"));
            assertEquals("{", ps.range("k", 0, 0));
            for (Runnable refused : List.<Runnable>of(() -> zs.append("k", "x"), () -> zs.range("k", 0, 0),
                    () -> zs.setIfEq("k", v, v))) {
                // Lettuce's dynamic sync call wraps what is not a server error in a RedisException
                RedisException e = assertThrows(RedisException.class, refused::run);
                assertInstanceOf(CommandRefusedException.class, e.getCause());
            }
            assertEquals(v + "x", zs.get("k"), "nothing was sent");
            // the reactive flavour: the refusal is the Mono's error when it is subscribed
            assertEquals(v.length() + 2, new RedisCommandFactory(p).getCommands(Reactive.class).append("k", "y")
                    .block(Duration.ofSeconds(5)));
            Mono<Long> append = new RedisCommandFactory(z).getCommands(Reactive.class).append("k", "y");
            assertInstanceOf(CommandRefusedException.class,
                    assertThrows(RuntimeException.class, () -> append.block(Duration.ofSeconds(5))));
            assertEquals(v + "xy", zs.get("k"));
        }
    }

    /** A refused command in a batch fails the flush; the other commands of the batch run, as on plain Lettuce. */
    @Test
    void aRefusalInABatchFailsTheFlushOnly() {
        String v = TestValues.json(300);
        try (StatefulRedisConnection<String, String> z = redis.client().connect(zstd());
             StatefulRedisConnection<String, String> p = plainClient.connect(StringCodec.UTF8)) {
            Batch pb = new RedisCommandFactory(p).getCommands(Batch.class);
            pb.set("p1", v);
            pb.append("p1", "x");
            pb.set("p2", v); // the third command flushes the batch
            assertArrayEquals(b(v + "x"), redis.raw().sync().get(b("p1")));
            Batch zb = new RedisCommandFactory(z).getCommands(Batch.class);
            zb.set("z1", v);
            zb.append("z1", "x");
            BatchException e = assertThrows(BatchException.class, () -> zb.set("z2", v));
            List<RedisCommand<?, ?, ?>> failed = e.getFailedCommands();
            assertEquals(1, failed.size());
            assertEquals("APPEND", failed.get(0).getType().toString());
            assertArrayEquals(b(v), redis.raw().sync().get(b("z1")));
            assertArrayEquals(b(v), redis.raw().sync().get(b("z2")));
            assertEquals("PONG", z.sync().ping());
        }
    }
}
