package dev.zstdjava.values.spring;

import dev.zstdjava.testkit.JedisServer;
import dev.zstdjava.values.CommandRefusedException;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.ValueFormat;
import dev.zstdjava.values.spring.CompressingRedisSerializerTest.Driver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.query.SortQuery;
import org.springframework.data.redis.core.query.SortQueryBuilder;
import org.springframework.data.redis.serializer.RedisSerializer;
import org.junit.jupiter.api.function.Executable;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link CompressingRedisTemplate#sort} over both Spring connection factories on a real server: a {@code BY} pattern
 * that sorts by values the template stored compressed is refused before anything is sent; {@code BY nosort},
 * {@code GET} patterns and hash-field weights (while hash values are plain) are sent.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class CompressingRedisTemplateSortTest {
    @RegisterExtension
    static final JedisServer redis = new JedisServer();

    static final Map<Driver, RedisConnectionFactory> FACTORIES = new EnumMap<>(Driver.class);

    @AfterAll
    static void stop() throws Exception {
        for (RedisConnectionFactory f : FACTORIES.values()) {
            ((DisposableBean) f).destroy();
        }
    }

    static CompressingRedisTemplate<String, String> template(Driver driver, boolean hashValues) {
        RedisConnectionFactory f = FACTORIES.computeIfAbsent(driver,
                d -> CompressingRedisSerializerTest.start(d, redis.server().port()));
        return CompressingRedisTemplate.create(f, RedisSerializer.string(), ValueCompressor.create(
                CompressionConfig.builder().compressHashValues(hashValues).build()));
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @ParameterizedTest
    @EnumSource(Driver.class)
    void sortByStoredValuesIsRefused(Driver driver) {
        CompressingRedisTemplate<String, String> t = template(driver, false);
        String p = driver + ":";
        String pad = "w".repeat(120);
        assertSortByWeightsRefused(t, p, pad);
        calls(t, SortQueryBuilder.sort(p + "ids").by(p + "w_*->").build()).forEach((how, call) ->
                assertEquals("SORT ... BY", assertThrows(CommandRefusedException.class, call, how).command()));

        // BY nosort, GET patterns (decoded) and plain sorts are sent
        assertEquals(List.of("a", "b", "c"), t.sort(SortQueryBuilder.sort(p + "ids").by("nosort").build()));
        assertEquals(List.of("b" + pad, "c" + pad, "a" + pad), t.sort(SortQueryBuilder.sort(p + "ids")
                .by("nosort").get(p + "w_*").build()));
        assertEquals(List.of("c", "b", "a"), t.sort(SortQueryBuilder.sort(p + "ids").alphabetical(true)
                .order(org.springframework.data.redis.connection.SortParameters.Order.DESC).build()));
        // hash-field weights are plain while hash values are
        t.opsForHash().put(p + "h_c", "f", "a" + pad);
        t.opsForHash().put(p + "h_a", "f", "b" + pad);
        t.opsForHash().put(p + "h_b", "f", "c" + pad);
        SortQuery<String> byField = SortQueryBuilder.sort(p + "ids").by(p + "h_*->f").alphabetical(true).build();
        assertEquals(List.of("c", "a", "b"), t.sort(byField));
        // with hash values compressed they are not
        assertEquals("SORT ... BY", assertThrows(CommandRefusedException.class,
                () -> template(driver, true).sort(byField)).command());
    }

    /** The same refusals on a {@code StringRedisTemplate} ({@link CompressingStringRedisTemplate}). */
    @ParameterizedTest
    @EnumSource(Driver.class)
    void stringTemplateSortByStoredValuesIsRefused(Driver driver) {
        RedisConnectionFactory f = FACTORIES.computeIfAbsent(driver,
                d -> CompressingRedisSerializerTest.start(d, redis.server().port()));
        CompressingStringRedisTemplate t = new CompressingStringRedisTemplate(f,
                ValueCompressor.create(CompressionConfig.defaults()));
        String p = "s:" + driver + ":";
        assertSortByWeightsRefused(t, p, "w".repeat(120));
        assertEquals(List.of("a", "b", "c"), t.sort(SortQueryBuilder.sort(p + "ids").by("nosort").build()));
    }

    // Writes weights that sort c, a, b as plain bytes through t (compressed), then checks that every sort form
    // BY those weights is refused before anything is sent.
    static void assertSortByWeightsRefused(RedisTemplate<String, String> t, String p, String pad) {
        t.opsForList().rightPushAll(p + "ids", "a", "b", "c");
        t.opsForValue().multiSet(Map.of(p + "w_c", "a" + pad, p + "w_a", "b" + pad, p + "w_b", "c" + pad));
        assertTrue(ValueFormat.hasHeader(ByteBuffer.wrap(redis.client().get(b(p + "w_a")))));

        SortQuery<String> byWeight = SortQueryBuilder.sort(p + "ids").by(p + "w_*").alphabetical(true).build();
        Map<String, Executable> calls = calls(t, byWeight);
        calls.put("sort(store)", () -> t.sort(byWeight, p + "dst"));
        calls.forEach((how, call) -> {
            CommandRefusedException e = assertThrows(CommandRefusedException.class, call, how);
            assertEquals("SORT ... BY", e.command());
            assertTrue(e.getMessage().contains("connection without compression"), e.getMessage());
        });
        assertFalse(redis.client().exists(b(p + "dst")), "nothing reached the server");
    }

    // The sort forms that return the elements, each called with query.
    static Map<String, Executable> calls(RedisTemplate<String, String> t, SortQuery<String> query) {
        Map<String, Executable> calls = new LinkedHashMap<>();
        calls.put("sort", () -> t.sort(query));
        calls.put("sort(serializer)", () -> t.sort(query, RedisSerializer.string()));
        calls.put("sort(mapper)", () -> t.sort(query, tuple -> tuple.get(0)));
        calls.put("sort(mapper, serializer)", () -> t.sort(query, tuple -> tuple.get(0), RedisSerializer.string()));
        return calls;
    }
}
