package dev.zstdjava.values.jedis;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionBackend;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.CompareCondition;

import java.util.LinkedHashMap;
import java.util.Map;

import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link CompressingJedis} refuses the {@code SetParams} conditions that compare the given value with the stored
 * bytes, by name, before anything is sent. {@code CompareCondition} is newer than Jedis 7.0: the older lines' runs
 * leave this class out (their {@code SetParams} cannot carry a condition); {@link CompressingJedisPolicyTest} covers
 * every line.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingJedisConditionsTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    static byte[] b(String s) {
        return CompressingJedisTest.b(s);
    }

    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void setConditionsAreRefusedByNameBeforeAnythingIsSent(CompressionBackend backend) {
        CompressingJedis j = CompressingJedisPolicyTest.jedis(redis, backend, false);
        byte[] key = b("j:cond:" + backend);
        byte[] big = b(json(1000));
        j.set(key, big);
        Map<String, Executable> refused = new LinkedHashMap<>();
        refused.put("SET ... IFEQ", () -> j.set(key, b("x"), new SetParams().condition(CompareCondition.valueEq(big))));
        refused.put("SET ... IFNE", () -> j.set(key, b("x"), new SetParams().condition(CompareCondition.valueNe(big))));
        refused.put("SET ... IFDEQ", () -> j.set(key, b("x"), new SetParams().condition(
                CompareCondition.digestEq("0123456789abcdef"))));
        refused.put("SET ... IFDNE", () -> j.setGet(key, b("x"), new SetParams().condition(
                CompareCondition.digestNe("0123456789abcdef"))));
        long before = CompressingJedisPolicyTest.setCalls(redis);
        refused.forEach((name, op) -> {
            CommandRefusedException e = assertThrows(CommandRefusedException.class, op, name);
            assertEquals(name, e.command());
            assertTrue(e.getMessage().contains("without compression"), e.getMessage());
        });
        assertEquals(before, CompressingJedisPolicyTest.setCalls(redis), "no SET reached the server");
        assertArrayEquals(big, j.get(key), "unchanged, and the client stays usable");
    }

}
