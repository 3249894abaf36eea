package dev.zstdjava.spring.boot;

import dev.zstdjava.spring.boot.example.Catalog;
import dev.zstdjava.testkit.RedisCluster;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.DictionaryInfo;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.spring.CompressingStringRedisTemplate;
import dev.zstdjava.values.spring.SpringDictionaryStore;
import dev.zstdjava.zstd.ZstdDictionary;
import dev.zstdjava.zstd.ZstdFrame;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Boot's Lettuce and Jedis connection factories, standalone and cluster, on real servers: what the templates and
 * caches store, the counters of the plain string template, the opt-in string template, and server-side dictionaries
 * through {@link SpringDictionaryStore}.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class ClientsTest {
    private static final String P = RedisCompressionProperties.PREFIX + ".";
    private static final byte[] HEADER = {0, 1, 2, 0, 1};

    private static RedisServer server;
    private static RedisCluster cluster;

    @BeforeAll
    static void start() throws Exception {
        server = RedisServer.start();
        cluster = RedisCluster.start();
    }

    @AfterAll
    static void stop() {
        if (cluster != null) {
            cluster.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class Caching {
    }

    static Stream<String> setups() {
        return Stream.of("lettuce standalone", "jedis standalone", "lettuce cluster", "jedis cluster");
    }

    private static ApplicationContextRunner runner(String setup) {
        String[] s = setup.split(" ");
        String where = s[1].equals("cluster")
                ? "spring.data.redis.cluster.nodes=" + RedisServer.HOST + ":" + cluster.seedPort()
                : "spring.data.redis.port=" + server.port();
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedisCompressionAutoConfiguration.class,
                        RedisCompressionCacheAutoConfiguration.class, BootLine.redis(), BootLine.cache()))
                .withUserConfiguration(Caching.class)
                .withBean(Catalog.class)
                .withPropertyValues(P + "enabled=true", "spring.data.redis.client-type=" + s[0],
                        "spring.data.redis.host=" + RedisServer.HOST, where);
    }

    private static byte[] raw(RedisConnectionFactory f, byte[] key) {
        return StoredBytes.get(f, key);
    }

    private static byte[] awaitKey(RedisConnectionFactory f, byte[] key) throws InterruptedException {
        return StoredBytes.await(f, key);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("setups")
    @SuppressWarnings("unchecked")
    void templateValuesAndCachesAreCompressedMembersPlainCountersWork(String setup) {
        runner(setup).run(c -> {
            assertThat(c).hasNotFailed();
            RedisConnectionFactory f = c.getBean(RedisConnectionFactory.class);
            RedisTemplate<Object, Object> template = c.getBean("redisTemplate", RedisTemplate.class);
            String key = "greeting:" + setup;
            String value = "hello from a Boot service; ".repeat(40);
            template.opsForValue().set(key, value);
            byte[] stored = raw(f, ((RedisSerializer<Object>) template.getKeySerializer()).serialize(key));
            assertThat(stored).startsWith(HEADER);
            assertThat(template.opsForValue().get(key)).isEqualTo(value);

            String member = "a set member long enough that compressing it would have been possible; ".repeat(3);
            String setKey = "tags:" + setup;
            template.opsForSet().add(setKey, member);
            try (RedisConnection conn = f.getConnection()) {
                Set<byte[]> members = conn.setCommands().sMembers(
                        ((RedisSerializer<Object>) template.getKeySerializer()).serialize(setKey));
                assertThat(members).hasSize(1);
                assertThat(members.iterator().next()).isEqualTo(RedisSerializer.java().serialize(member));
            }
            assertThat(template.opsForSet().isMember(setKey, member)).isTrue();

            StringRedisTemplate strings = c.getBean(StringRedisTemplate.class);
            assertThat(strings).isExactlyInstanceOf(StringRedisTemplate.class);
            strings.delete("visits:" + setup);
            assertThat(strings.opsForValue().increment("visits:" + setup)).isEqualTo(1);
            assertThat(strings.opsForValue().increment("visits:" + setup)).isEqualTo(2);

            Catalog catalog = c.getBean(Catalog.class);
            int id = Math.abs(setup.hashCode());
            String product = catalog.product(id);
            // Spring Data Redis may write a cache entry asynchronously (Lettuce): wait for it before reading again
            byte[] cached = awaitKey(f, ("products::" + id).getBytes(StandardCharsets.UTF_8));
            assertThat(catalog.product(id)).isEqualTo(product);
            assertThat(catalog.loads()).isEqualTo(1);
            assertThat(cached).startsWith(HEADER);
            assertThat(c.getBean(ValueCompressor.class).decompress(cached))
                    .isEqualTo(RedisSerializer.java().serialize(product));
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("setups")
    void theOptInStringTemplateCompresses(String setup) {
        runner(setup).withPropertyValues(P + "string-template=true").run(c -> {
            StringRedisTemplate strings = c.getBean(StringRedisTemplate.class);
            assertThat(strings).isInstanceOf(CompressingStringRedisTemplate.class);
            String value = "a string value; ".repeat(20);
            strings.opsForValue().set("s:" + setup, value);
            // the key is written as a plain StringRedisTemplate writes it
            assertThat(raw(c.getBean(RedisConnectionFactory.class), ("s:" + setup).getBytes(StandardCharsets.UTF_8)))
                    .startsWith(HEADER);
            assertThat(strings.opsForValue().get("s:" + setup)).isEqualTo(value);
            strings.opsForList().leftPush("l:" + setup, value);
            assertThat(strings.opsForList().index("l:" + setup, 0)).isEqualTo(value);
            try (RedisConnection conn = c.getBean(RedisConnectionFactory.class).getConnection()) {
                assertThat(conn.listCommands().lIndex(("l:" + setup).getBytes(StandardCharsets.UTF_8), 0))
                        .isEqualTo(value.getBytes(StandardCharsets.UTF_8)); // a list element: plain
            }
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("setups")
    @SuppressWarnings("unchecked")
    void managedDictionariesAreTrainedAndPublishedInTheServer(String setup) {
        String prefix = "m:{" + setup.replace(' ', '-') + "}:";
        runner(setup).withPropertyValues(P + "dictionaries.mode=managed", P + "dictionaries.min-samples=500",
                P + "dictionaries.store.key-prefix=" + prefix).run(c -> {
                    assertThat(c).hasNotFailed();
                    DictionaryManager m = c.getBean(DictionaryManager.class);
                    RedisTemplate<Object, Object> t = c.getBean("redisTemplate", RedisTemplate.class);
                    List<byte[]> train = TestValues.jsonRecords(3000, 11);
                    for (int i = 0; i < train.size(); i++) {
                        t.opsForValue().set("m:" + setup + i, new String(train.get(i), StandardCharsets.UTF_8));
                    }
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                    while (m.currentId() == 0 && System.nanoTime() < deadline) {
                        Thread.sleep(20);
                    }
                    long id = m.currentId();
                    assertThat(id).as("a dictionary trained and adopted").isNotZero();
                    // published through SpringDictionaryStore under the prefix
                    RedisConnectionFactory f = c.getBean(RedisConnectionFactory.class);
                    assertThat(StoredBytes.get(f, (prefix + "dict:" + id).getBytes(StandardCharsets.UTF_8)))
                            .isNotNull();
                    String value = new String(TestValues.jsonRecords(1, 12).get(0), StandardCharsets.UTF_8);
                    t.opsForValue().set("m:" + setup + "after", value);
                    byte[] stored = raw(f, ((RedisSerializer<Object>) t.getKeySerializer()).serialize("m:" + setup
                            + "after"));
                    assertThat(ZstdFrame.dictionaryId(stored, 5, stored.length - 5)).isEqualTo(id);
                    assertThat(t.opsForValue().get("m:" + setup + "after")).isEqualTo(value);
                });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("setups")
    void sharedDictionariesFromTheServer(String setup) {
        String prefix = "t:{" + setup.replace(' ', '-') + "}:";
        byte[] dict = ZstdDictionary.train(TestValues.jsonRecords(3000, 11), 16 << 10).toByteArray();
        long id = ZstdDictionary.of(dict).id();
        runner(setup).run(c -> {
            SpringDictionaryStore store = new SpringDictionaryStore(c.getBean(RedisConnectionFactory.class), prefix,
                    1 << 20);
            CountDownLatch announced = new CountDownLatch(1);
            AutoCloseable subscription = store.subscribe(announced::countDown);
            try {
                long before = store.version();
                DictionaryInfo info = store.putIfAbsent(id, dict);
                assertThat(info.id()).isEqualTo(id);
                assertThat(store.version()).isEqualTo(before + 1);
                assertThat(store.putIfAbsent(id, dict).sequence()).isEqualTo(info.sequence()); // same bytes: kept
                assertThat(store.list()).extracting(DictionaryInfo::id).containsExactly(id);
                assertThat(store.get(id)).isEqualTo(dict);
                assertThat(announced.await(10, TimeUnit.SECONDS)).isTrue();
                assertThat(store.tryLease("a", java.time.Duration.ofSeconds(30))).isTrue();
                assertThat(store.tryLease("b", java.time.Duration.ofSeconds(30))).isFalse();
                store.releaseLease("a");
                assertThat(store.tryLease("b", java.time.Duration.ofSeconds(30))).isTrue();
                store.releaseLease("b");
            } finally {
                subscription.close();
            }
        });
        // an application in shared mode compresses with the dictionary published there
        runner(setup).withPropertyValues(P + "dictionaries.mode=shared", P + "dictionaries.store.key-prefix=" + prefix)
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    DictionaryManager m = c.getBean(DictionaryManager.class);
                    assertThat(m.currentId()).isEqualTo(id);
                    @SuppressWarnings("unchecked")
                    RedisTemplate<Object, Object> t = c.getBean("redisTemplate", RedisTemplate.class);
                    List<String> written = new ArrayList<>();
                    for (byte[] v : TestValues.jsonRecords(5, 12)) {
                        String s = new String(v, StandardCharsets.UTF_8);
                        t.opsForValue().set("d:" + setup + written.size(), s);
                        written.add(s);
                    }
                    @SuppressWarnings("unchecked")
                    byte[] stored = raw(c.getBean(RedisConnectionFactory.class),
                            ((RedisSerializer<Object>) t.getKeySerializer()).serialize("d:" + setup + 0));
                    assertThat(stored).startsWith(HEADER);
                    assertThat(ZstdFrame.dictionaryId(stored, 5, stored.length - 5)).isEqualTo(id);
                    assertThat(t.opsForValue().get("d:" + setup + 0)).isEqualTo(written.get(0));
                });
    }
}
