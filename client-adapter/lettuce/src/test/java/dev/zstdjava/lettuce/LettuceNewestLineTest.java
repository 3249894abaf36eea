package dev.zstdjava.lettuce;

import dev.zstdjava.testkit.LettuceServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.CompareCondition;
import io.lettuce.core.IncrexArgs;
import io.lettuce.core.RedisChannelHandler;
import io.lettuce.core.RedisClient;
import io.lettuce.core.SetArgs;
import io.lettuce.core.TimeoutOptions;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.StringCodec;
import io.lettuce.core.output.IntegerOutput;
import io.lettuce.core.protocol.CommandArgs;
import io.lettuce.core.protocol.CommandType;
import io.lettuce.core.protocol.MaintenanceAwareComponent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.Map;

import static dev.zstdjava.lettuce.LettucePolicyTest.b;
import static dev.zstdjava.lettuce.LettucePolicyTest.codec;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The policy on the API only the newest Lettuce line has (7.x): the conditional {@code SET}
 * ({@code SetArgs.compareCondition}), {@code DELEX}, {@code DIGEST} and {@code INCREX} as typed commands, and
 * {@code StatefulRedisConnection.getCodec()}. Runs in zstd-java-lettuce only; the lettuce-lines runs on the older
 * lines leave it out, and send the same commands under their names in {@link LettucePolicyTest} and
 * {@link LettucePolicyArgumentsTest}.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class LettuceNewestLineTest {
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer(CompressingRedisClient::create);

    @Test
    void typedConditionsAndStringCommandsAreRefused() {
        try (StatefulRedisConnection<String, String> c = redis.client().connect(codec(CompressionBackend.ZSTD))) {
            RedisCommands<String, String> s = c.sync();
            String v = TestValues.json(500);
            s.set("k", v);
            byte[] stored = redis.raw().sync().get(b("k"));
            Map<String, Runnable> calls = new LinkedHashMap<>();
            calls.put("SET ... IFEQ", () -> s.set("k", "new", SetArgs.Builder.ex(100)
                    .compareCondition(CompareCondition.valueEq(v))));
            calls.put("SET ... IFNE", () -> s.set("k", "new", new SetArgs().compareCondition(
                    CompareCondition.valueNe("x"))));
            calls.put("SET ... IFDEQ", () -> s.set("k", "new", new SetArgs().compareCondition(
                    CompareCondition.digestEq("0123456789abcdef"))));
            calls.put("DELEX ... IFEQ", () -> s.delex("k", CompareCondition.valueEq(v)));
            calls.put("DELEX ... IFNE", () -> s.dispatch(CommandType.DELEX, new IntegerOutput<>(StringCodec.UTF8),
                    new CommandArgs<>(StringCodec.UTF8).addKey("k").add("IFNE".toCharArray()).addValue(v)));
            calls.put("DIGEST", () -> s.digestKey("k"));
            calls.put("INCREX", () -> s.increx("n"));
            calls.put("INCREX ", () -> s.increx("n", 5, IncrexArgs.Builder.ubound(10)));
            calls.forEach((name, call) -> LettucePolicyTest.assertRefused(name.strip(), call));
            assertArrayEquals(stored, redis.raw().sync().get(b("k")), "nothing reached the server");
            assertEquals(0, redis.raw().sync().exists(b("n")));
            assertEquals(v, s.get("k"));
        }
    }

    /**
     * Lettuce 7 tells a connection of the server's maintenance events (a node migrating, failing over, moving) when its
     * channel writer takes them, and its expiry writer then relaxes the command timeouts: side by side with a plain
     * client, the compressing connection's writer takes them, and a BLPOP of 1 s under a 300 ms timeout, sent while a
     * migration is announced (as Lettuce's watchdog announces it on the server's MIGRATING), completes on both.
     */
    @Test
    void maintenanceEventsRelaxTimeoutsAsOnLettuce() throws Exception {
        ClientOptions options = ClientOptions.builder().timeoutOptions(TimeoutOptions.builder()
                .fixedTimeout(Duration.ofMillis(300)).relaxedTimeoutsDuringMaintenance(Duration.ofSeconds(5)).build())
                .build();
        List<String> outcomes = new ArrayList<>();
        for (boolean compressing : List.of(false, true)) {
            RedisClient client = compressing ? CompressingRedisClient.create(redis.uri()) : RedisClient.create(redis.uri());
            try {
                client.setOptions(options);
                StatefulRedisConnection<String, String> c = compressing ? ((CompressingRedisClient) client)
                        .connect(StringCodec.UTF8, ValueCompressor.create(CompressionConfig.defaults()))
                        : client.connect(StringCodec.UTF8);
                String outcome;
                if (((RedisChannelHandler<?, ?>) c).getChannelWriter() instanceof MaintenanceAwareComponent events) {
                    outcome = "before, " + blpop(c);
                    events.onMigrateStarted("1");
                    outcome += "; during a migration, " + blpop(c);
                    events.onMigrateCompleted("1");
                } else {
                    outcome = "the writer takes no maintenance events";
                }
                outcomes.add((compressing ? "compressing: " : "plain: ") + outcome);
                c.close();
            } finally {
                client.shutdown();
            }
        }
        String relaxed = "before, BLPOP failed: RedisCommandTimeoutException; during a migration, BLPOP null";
        assertEquals(List.of("plain: " + relaxed, "compressing: " + relaxed), outcomes);
    }

    // A BLPOP that waits 1 s: its value, or its failure (the async API: the sync one waits the unrelaxed timeout only).
    private static String blpop(StatefulRedisConnection<String, String> c) throws Exception {
        try {
            return "BLPOP " + c.async().blpop(1, "no-such-list").get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            return "BLPOP failed: " + e.getCause().getClass().getSimpleName();
        }
    }

    @Test
    void theConnectionsCodecIsTheCompressingCodec() {
        ValueCompressor values = ValueCompressor.create(CompressionConfig.defaults());
        try (StatefulRedisConnection<String, String> c = ((CompressingRedisClient) redis.client())
                .connect(StringCodec.UTF8, values)) {
            assertSame(values, assertInstanceOf(CompressingCodec.class, c.getCodec()).compressor());
        }
    }
}
