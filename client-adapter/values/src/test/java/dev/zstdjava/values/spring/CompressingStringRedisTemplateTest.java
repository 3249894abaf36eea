package dev.zstdjava.values.spring;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionBackend;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.spring.CompressingRedisSerializerTest.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisOperations;
import org.springframework.data.redis.core.SessionCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

import static dev.zstdjava.values.spring.CompressingRedisTemplateTest.b;
import static dev.zstdjava.values.spring.CompressingRedisTemplateTest.compressed;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link CompressingStringRedisTemplate} on a real server: a {@code StringRedisTemplate} with the policy of
 * {@link CompressingRedisTemplate}: keys as a plain string template writes them, the SET family compressed, members
 * and list elements plain, counters refused, hashes opt-in, transactions keep the policy.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingStringRedisTemplateTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    static final Map<Driver, RedisConnectionFactory> FACTORIES = new EnumMap<>(Driver.class);

    @AfterAll
    static void stop() throws Exception {
        for (RedisConnectionFactory f : FACTORIES.values()) {
            ((DisposableBean) f).destroy();
        }
    }

    static CompressingStringRedisTemplate template(Driver driver, boolean hashValues) {
        RedisConnectionFactory f = FACTORIES.computeIfAbsent(driver,
                d -> CompressingRedisSerializerTest.start(d, redis.server().port()));
        return new CompressingStringRedisTemplate(f,
                CompressingRedisTemplateTest.compressor(CompressionBackend.ZSTD, hashValues));
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void valuesCompressedMembersPlainCountersRefused(Driver driver) {
        CompressingStringRedisTemplate t = template(driver, false);
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
        assertThrows(CommandRefusedException.class, () -> plain.compareAndDelete(k + "v", big));
        assertFalse(redis.client().exists(b(k + "c")));
        assertFalse(redis.client().exists(b(k + "b")));
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void hashValuesWhenOptedInAndTransactionsKeepThePolicy(Driver driver) {
        CompressingStringRedisTemplate t = template(driver, true);
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
}
