package dev.zstdjava.values;

import dev.zstdjava.testkit.RedisCluster;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.jedis.CompressingJedis;
import dev.zstdjava.values.spring.CompressingRedisTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.data.redis.serializer.RedisSerializer;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.params.SetParams;
import redis.clients.jedis.util.CompareCondition;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/**
 * The command policy on a 3-master cluster, for the Spring template (over Spring's Lettuce cluster connection) and
 * the Jedis wrapper (over Jedis's cluster client), both backends: values of the SET family compressed on every node,
 * members plain (one member from a compressing and a plain client), ZRANGEBYLEX, SMISMEMBER and EVAL see the
 * application's bytes, refused operations refused by name, opted-in hashes round-trip.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class ClusterPolicyTest {
    static RedisCluster cluster;
    static RedisClusterClient jedisCluster;
    static LettuceConnectionFactory springFactory;

    @BeforeAll
    static void startCluster() throws Exception {
        cluster = RedisCluster.start();
        jedisCluster = RedisClusterClient.create(new HostAndPort(RedisServer.HOST, cluster.seedPort()));
        springFactory = new LettuceConnectionFactory(new RedisClusterConfiguration(
                List.of(RedisServer.HOST + ":" + cluster.seedPort())));
        springFactory.afterPropertiesSet();
        springFactory.start();
    }

    @AfterAll
    static void stopCluster() {
        if (springFactory != null) {
            springFactory.destroy();
        }
        if (jedisCluster != null) {
            jedisCluster.close();
        }
        if (cluster != null) {
            cluster.close();
        }
    }

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static boolean compressed(byte[] stored) {
        return stored != null && ValueFormat.hasHeader(ByteBuffer.wrap(stored));
    }

    static ValueCompressor compressor(CompressionBackend backend, boolean hashValues) {
        return ValueCompressor.create(CompressionConfig.builder().backend(backend).compressHashValues(hashValues)
                .build());
    }

    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void springTemplateOnTheCluster(CompressionBackend backend) {
        ValueCompressor vc = compressor(backend, true);
        CompressingRedisTemplate<String, String> t = CompressingRedisTemplate.create(springFactory,
                RedisSerializer.string(), vc);
        String big = json(2000);
        Set<Integer> nodesHit = new java.util.HashSet<>();
        for (int i = 0; i < 30; i++) {
            String k = "sc:" + backend + ":" + i;
            t.opsForValue().set(k, big);
            byte[] stored = jedisCluster.get(b(k));
            assertTrue(compressed(stored), k);
            assertEquals(backend.id(), stored[4]);
            assertEquals(big, t.opsForValue().get(k));
            nodesHit.add(io.lettuce.core.cluster.SlotHash.getSlot(k) / 5461);
        }
        assertEquals(3, nodesHit.size(), "keys on every node");
        Map<String, String> many = new HashMap<>();
        for (int i = 0; i < 10; i++) {
            many.put("scm:" + backend + ":" + i, big);
        }
        t.opsForValue().multiSet(many); // split by slot by Spring's cluster connection
        many.keySet().forEach(k -> assertTrue(compressed(jedisCluster.get(b(k))), k));
        assertEquals(new ArrayList<>(List.of(big, big)), t.opsForValue().multiGet(List.of("scm:" + backend + ":1",
                "scm:" + backend + ":2")));

        String m = json(233);
        String set = "ss:" + backend;
        t.opsForSet().add(set, m);
        jedisCluster.sadd(b(set), b(m));
        assertEquals(1, jedisCluster.scard(b(set)), "one member from the template and a plain client");
        assertEquals(Map.of(m, true, "x", false), t.opsForSet().isMember(set, m, "x"));
        String z = "sz:" + backend;
        for (String s : List.of("alpha", "bravo", "charlie")) {
            t.opsForZSet().add(z, s + m, 0);
        }
        assertEquals(1, jedisCluster.zrangeByLex(b(z), b("[bravo"), b("[c")).size());
        assertEquals(m.length(), t.execute(RedisScript.of("return string.len(ARGV[1])", Long.class),
                List.of(z), m));

        CommandRefusedException e = assertThrows(CommandRefusedException.class,
                () -> t.opsForValue().increment("sc:" + backend + ":0"));
        assertEquals("INCR", e.command());
        assertEquals("HINCRBY", assertThrows(CommandRefusedException.class,
                () -> t.opsForHash().increment("sh:" + backend, "n", 1)).command());
        t.<String, String>opsForHash().put("sh:" + backend, "f", big);
        assertTrue(compressed(jedisCluster.hget(b("sh:" + backend), b("f"))));
        assertEquals(big, t.opsForHash().get("sh:" + backend, "f"));
    }

    @ParameterizedTest
    @EnumSource(CompressionBackend.class)
    void jedisWrapperOnTheCluster(CompressionBackend backend) {
        CompressingJedis j = new CompressingJedis(jedisCluster, compressor(backend, true));
        byte[] big = b(json(2000));
        for (int i = 0; i < 30; i++) {
            byte[] k = b("jc:" + backend + ":" + i);
            j.set(k, big);
            byte[] stored = jedisCluster.get(k);
            assertTrue(compressed(stored));
            assertEquals(backend.id(), stored[4]);
            assertArrayEquals(big, j.get(k));
        }
        j.mset(b("{jcm}" + backend + "a"), big, b("{jcm}" + backend + "b"), big);
        assertTrue(compressed(jedisCluster.get(b("{jcm}" + backend + "b"))));
        assertArrayEquals(big, j.getSet(b("{jcm}" + backend + "a"), b("plain")));
        assertArrayEquals(b("plain"), jedisCluster.get(b("{jcm}" + backend + "a")));
        assertEquals("SET ... IFEQ", assertThrows(CommandRefusedException.class, () -> j.set(b("jc:" + backend + ":0"),
                big, new SetParams().condition(CompareCondition.valueEq(big)))).command());

        byte[] m = b(json(233));
        byte[] set = b("js:" + backend);
        j.commands().sadd(set, m);
        jedisCluster.sadd(set, m);
        assertEquals(1, jedisCluster.scard(set));
        assertEquals(List.of(true, false), j.commands().smismember(set, m, b("x")));
        j.hset(b("jh:" + backend), b("f"), big);
        assertTrue(compressed(jedisCluster.hget(b("jh:" + backend), b("f"))));
        assertArrayEquals(big, j.hget(b("jh:" + backend), b("f")));
    }
}
