package dev.zstdjava.interop;

import dev.zstdjava.lettuce.LettuceDictionaryStore;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.DictionaryCollisionException;
import dev.zstdjava.values.DictionaryInfo;
import dev.zstdjava.values.spring.SpringDictionaryStore;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The two server-backed dictionary stores share one layout: what {@code SpringDictionaryStore} (here over Spring's
 * Jedis factory) publishes, {@code LettuceDictionaryStore} lists, reads and is announced, and the reverse; one
 * publication counter, one lease.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class DictionaryStoresTest {
    private static RedisServer server;
    private static RedisClient client;
    private static JedisConnectionFactory factory;

    @BeforeAll
    static void start() {
        server = RedisServer.start();
        client = RedisClient.create();
        factory = new JedisConnectionFactory(new RedisStandaloneConfiguration(RedisServer.HOST, server.port()));
        factory.afterPropertiesSet();
        factory.start();
    }

    @AfterAll
    static void stop() {
        if (factory != null) {
            factory.destroy();
        }
        if (client != null) {
            client.shutdown();
        }
        if (server != null) {
            server.close();
        }
    }

    private static byte[] dictionary(int fill) {
        byte[] d = new byte[300];
        Arrays.fill(d, (byte) fill);
        return d;
    }

    @Test
    void eachStoreSeesWhatTheOtherPublished() throws Exception {
        SpringDictionaryStore spring = new SpringDictionaryStore(factory);
        try (LettuceDictionaryStore lettuce = LettuceDictionaryStore.builder()
                .connect(client, RedisURI.create(RedisServer.HOST, server.port()))) {
            assertEquals(lettuce.prefix(), spring.prefix());
            CountDownLatch lettuceHeard = new CountDownLatch(1);
            CountDownLatch springHeard = new CountDownLatch(1);
            try (AutoCloseable a = lettuce.subscribe(lettuceHeard::countDown);
                 AutoCloseable b = spring.subscribe(springHeard::countDown)) {
                DictionaryInfo first = spring.putIfAbsent(101, dictionary(1));
                assertTrue(lettuceHeard.await(10, TimeUnit.SECONDS), "Lettuce heard Spring's publication");
                assertEquals(first.sequence(), lettuce.version());
                assertArrayEquals(dictionary(1), lettuce.get(101));
                DictionaryInfo second = lettuce.putIfAbsent(202, dictionary(2));
                assertTrue(springHeard.await(10, TimeUnit.SECONDS), "Spring heard Lettuce's publication");
                assertEquals(first.sequence() + 1, second.sequence());
                assertEquals(second.sequence(), spring.version());
                assertEquals(lettuce.list(), spring.list());
                assertEquals(2, spring.list().size());
                assertArrayEquals(dictionary(2), spring.get(202));
                assertThrows(DictionaryCollisionException.class, () -> lettuce.putIfAbsent(101, dictionary(3)));
                assertThrows(DictionaryCollisionException.class, () -> spring.putIfAbsent(202, dictionary(3)));
            }
            assertTrue(spring.tryLease("spring", Duration.ofSeconds(30)));
            assertFalse(lettuce.tryLease("lettuce", Duration.ofSeconds(30)), "one lease for both");
            spring.releaseLease("spring");
            assertTrue(lettuce.tryLease("lettuce", Duration.ofSeconds(30)));
            lettuce.releaseLease("lettuce");
        }
    }
}
