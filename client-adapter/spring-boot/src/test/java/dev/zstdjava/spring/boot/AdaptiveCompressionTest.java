package dev.zstdjava.spring.boot;

import dev.zstdjava.spring.boot.example.Catalog;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.CompressionConfig;
import dev.zstdjava.values.CompressionGoal;
import dev.zstdjava.values.CompressionOption;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.DictionaryStats;
import dev.zstdjava.values.DictionaryStore;
import dev.zstdjava.values.InMemoryDictionaryStore;
import dev.zstdjava.values.PatternDictionaries;
import dev.zstdjava.values.PatternDecision;
import dev.zstdjava.values.ServerDictionaryLayout;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.micrometer.CompressionMetrics;
import dev.zstdjava.values.spring.CompressingRedisTemplate;
import dev.zstdjava.values.spring.CompressingStringRedisTemplate;
import dev.zstdjava.values.spring.SpringDictionaryStore;
import dev.zstdjava.zstd.ZstdDictionary;
import dev.zstdjava.zstd.ZstdFrame;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.springframework.boot.actuate.info.Info;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Adaptive compression in a Boot application on a real server: the {@code adaptive.*} properties bind onto one
 * {@link AdaptiveCompressor}, present only when enabled; a wrong one fails startup naming it; the templates write each
 * value under its key's pattern (JSON compressed, random bytes plain), the caches under the cache's name; the info
 * entry and the meters show the decisions.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class AdaptiveCompressionTest {
    private static final String P = RedisCompressionProperties.PREFIX + ".";
    private static final byte[] HEADER = {0, 1, 2, 0, 1};
    /** A value over the minimum size, so that it is written under its key's pattern. */
    private static final byte[] VALUE = TestValues.json(300).getBytes(StandardCharsets.UTF_8);

    private static RedisServer server;

    @BeforeAll
    static void start() throws Exception {
        server = RedisServer.start();
    }

    @AfterAll
    static void stop() {
        if (server != null) {
            server.close();
        }
    }

    @Configuration(proxyBeanMethods = false)
    @EnableCaching
    static class Caching {
    }

    private static ApplicationContextRunner runner() {
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedisCompressionAutoConfiguration.class,
                        RedisCompressionCacheAutoConfiguration.class, RedisCompressionMetricsAutoConfiguration.class,
                        RedisCompressionInfoAutoConfiguration.class, BootLine.redis(), BootLine.cache()))
                .withConfiguration(AutoConfigurations.of(BootLine.metricsWithRegistries()))
                .withUserConfiguration(Caching.class)
                .withBean(Catalog.class)
                .withPropertyValues(P + "enabled=true", "spring.data.redis.host=" + RedisServer.HOST,
                        "spring.data.redis.port=" + server.port());
    }

    private static PatternDecision decision(AdaptiveCompressor adaptive, String pattern) {
        return adaptive.snapshot().stream().filter(d -> d.pattern().equals(pattern)).findFirst().orElseThrow();
    }

    @Test
    void theBeanExistsOnlyWhenEnabled() {
        runner().run(c -> assertThat(c).hasNotFailed().hasSingleBean(ValueCompressor.class)
                .doesNotHaveBean(AdaptiveCompressor.class));
        runner().withPropertyValues(P + "adaptive.enabled=false")
                .run(c -> assertThat(c).hasNotFailed().doesNotHaveBean(AdaptiveCompressor.class));
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedisCompressionAutoConfiguration.class, BootLine.redis()))
                .withPropertyValues(P + "adaptive.enabled=true") // compression itself off
                .run(c -> assertThat(c).hasNotFailed().doesNotHaveBean(AdaptiveCompressor.class)
                        .doesNotHaveBean(ValueCompressor.class));
    }

    @Test
    void thePropertiesBind() {
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.goal=memory",
                P + "adaptive.cpu-budget=50", P + "adaptive.patterns=json:*,blob:*", P + "adaptive.capacity=16",
                P + "adaptive.idle-window=5s", P + "min-size=100B", P + "string-template=true").run(c -> {
                    assertThat(c).hasNotFailed().hasSingleBean(AdaptiveCompressor.class);
                    AdaptiveCompressor adaptive = c.getBean(AdaptiveCompressor.class);
                    assertThat(adaptive.goal()).isEqualTo(CompressionGoal.memory(50));
                    assertThat(adaptive.config().minCompressionSize()).isEqualTo(100);
                    assertThat(adaptive.snapshot()).extracting(PatternDecision::pattern)
                            .startsWith("json:*", "blob:*");
                    assertThat(c.getBean(ValueCompressor.class)).isSameAs(adaptive.reader());
                    assertThat(c.getBean("redisTemplate", CompressingRedisTemplate.class).adaptive())
                            .isSameAs(adaptive);
                    assertThat(c.getBean(CompressingStringRedisTemplate.class).adaptive()).isSameAs(adaptive);
                    assertThat(c.getBean(CacheValueCompression.class).adaptive()).isSameAs(adaptive);
                    // the capacity: of 20 new patterns (within the idle window), 16 are tracked, the rest go to (other)
                    for (char k = 'g'; k < 'g' + 20; k++) {
                        adaptive.compress(("k" + k + ":x").getBytes(StandardCharsets.UTF_8), VALUE);
                    }
                    assertThat(adaptive.snapshot()).hasSize(2 + 16 + 1).last()
                            .extracting(PatternDecision::pattern).isEqualTo("(other)");
                });
        // the idle window: with one pattern tracked, a new one takes its place once it has gone unseen that long (the
        // default, 10 s, would send the new one to (other))
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.capacity=1",
                P + "adaptive.idle-window=100ms").run(c -> {
                    AdaptiveCompressor adaptive = c.getBean(AdaptiveCompressor.class);
                    adaptive.compress("first:x".getBytes(StandardCharsets.UTF_8), VALUE);
                    Thread.sleep(300);
                    adaptive.compress("second:x".getBytes(StandardCharsets.UTF_8), VALUE);
                    assertThat(adaptive.snapshot()).extracting(PatternDecision::pattern)
                            .containsExactly("second:x", "(other)");
                });
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.goal=speed").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(c.getBean(AdaptiveCompressor.class).goal()).isEqualTo(CompressionGoal.speed());
        });
    }

    /**
     * A cache's name gets a pattern as a key does: caches whose names differ only in digits share one pattern (one
     * decision), a cache of another name has its own.
     */
    @Test
    void cacheNamesFoldAsKeys() {
        runner().withPropertyValues(P + "adaptive.enabled=true", "spring.cache.cache-names=region1,region2,orders")
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    AdaptiveCompressor adaptive = c.getBean(AdaptiveCompressor.class);
                    Map<String, RedisCacheConfiguration> caches =
                            c.getBean(RedisCacheManager.class).getCacheConfigurations();
                    String value = TestValues.json(1500);
                    for (String name : List.of("region1", "region2", "orders")) {
                        caches.get(name).getValueSerializationPair().write(value);
                    }
                    assertThat(adaptive.snapshot()).extracting(PatternDecision::pattern)
                            .containsExactly("region*", "orders", "(other)");
                    assertThat(decision(adaptive, "region*").valuesSeen()).isEqualTo(2);
                    assertThat(decision(adaptive, "orders").valuesSeen()).isEqualTo(1);
                });
    }

    /**
     * The tuning properties reach the decisions: a pattern of random bytes is stored plain after its third write with
     * a window of 2 that switches at the first evaluation, where the defaults (a window of 16, 8 samples before a
     * pattern leaves zstd 3) keep it on zstd 3 over the same writes.
     */
    @Test
    void theSamplingWindowAndHysteresisPropertiesReachTheDecisions() {
        String[] tuned = {P + "adaptive.enabled=true", P + "adaptive.patterns=blob:*",
            P + "adaptive.sampling.first-writes=8", P + "adaptive.sampling.every=1", P + "adaptive.sampling.plain-every=1",
            P + "adaptive.window.samples=2", P + "adaptive.window.min-samples=1", P + "adaptive.hysteresis.evaluations=1",
            P + "adaptive.hysteresis.saving-margin=0", P + "adaptive.hysteresis.cpu-margin=0"};
        for (boolean tune : new boolean[] {true, false}) {
            runner().withPropertyValues(tune ? tuned : new String[] {P + "adaptive.enabled=true",
                P + "adaptive.patterns=blob:*"}).run(c -> {
                    assertThat(c).hasNotFailed();
                    AdaptiveCompressor adaptive = c.getBean(AdaptiveCompressor.class);
                    for (int i = 0; i < 3; i++) {
                        adaptive.compress(("blob:" + i).getBytes(StandardCharsets.UTF_8), TestValues.random(900, i));
                    }
                    assertThat(decision(adaptive, "blob:*").option()).as(tune ? "tuned" : "defaults")
                            .isEqualTo(tune ? CompressionOption.PLAIN : CompressionOption.ZSTD_3);
                });
        }
    }

    @Test
    void theDictionaryBoundsBindAndAWrongOneFailsStartup() {
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=managed").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(c.getBean(PatternDictionaries.class).maxNativeBytes())
                    .isEqualTo(PatternDictionaries.DEFAULT_MAX_NATIVE_BYTES);
        });
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=managed",
                P + "adaptive.dictionary-memory=8MB", P + "adaptive.dictionary-patterns=4",
                P + "adaptive.dictionary-reopen-delay=1s").run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(c.getBean(PatternDictionaries.class).maxNativeBytes()).isEqualTo(8L << 20);
                });
        // the store's bound is each pattern's manager's too: a dictionary size above 1 MiB starts within it
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=managed",
                P + "dictionaries.store.max-dictionary-size=4MB", P + "dictionaries.dictionary-size=2MB")
                .run(c -> assertThat(c).hasNotFailed());
        Map<String, String> wrong = new LinkedHashMap<>();
        wrong.put("adaptive.dictionary-memory", "-1B");
        wrong.put("adaptive.dictionary-patterns", "0");
        wrong.put("adaptive.dictionary-reopen-delay", "-1s");
        wrong.forEach((property, value) -> runner().withPropertyValues(P + "adaptive.enabled=true",
                P + "dictionaries.mode=managed", P + property + "=" + value).run(c -> assertThat(c).getFailure()
                        .rootCause().isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining("of " + P + property)));
    }

    @Test
    void aMisconfigurationFailsStartupNamingTheProperty() {
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.goal=memory")
                .run(c -> assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining(P + "adaptive.cpu-budget").hasMessageContaining("goal is memory"));
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.goal=memory",
                P + "adaptive.cpu-budget=-1").run(c -> assertThat(c).getFailure().rootCause()
                        .hasMessageContaining("invalid value -1.0 of " + P + "adaptive.cpu-budget"));
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.cpu-budget=20")
                .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining(P + "adaptive.cpu-budget")
                        .hasMessageContaining("balanced"));
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.capacity=0")
                .run(c -> assertThat(c).getFailure().rootCause()
                        .hasMessageContaining("invalid value 0 of " + P + "adaptive.capacity"));
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.capacity=100000")
                .run(c -> assertThat(c).getFailure().rootCause()
                        .hasMessageContaining(P + "adaptive.capacity").hasMessageContaining("65536"));
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.idle-window=0s")
                .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining(P + "adaptive.idle-window"));
        Map<String, String> tuning = new LinkedHashMap<>();
        tuning.put("adaptive.sampling.every", "0");
        tuning.put("adaptive.sampling.first-writes", "-1");
        tuning.put("adaptive.window.samples", "1");
        tuning.put("adaptive.window.min-samples", "17");
        tuning.put("adaptive.hysteresis.evaluations", "0");
        tuning.put("adaptive.hysteresis.saving-margin", "0.7");
        tuning.put("adaptive.hysteresis.cpu-margin", "1.0");
        tuning.forEach((property, value) -> runner().withPropertyValues(P + "adaptive.enabled=true",
                P + property + "=" + value).run(c -> assertThat(c).getFailure().rootCause()
                        .isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining("of " + P + property.substring(0, property.lastIndexOf('.')))
                        .hasMessageContaining(property.substring(property.lastIndexOf('.') + 1) + "=" + value)));
        for (String mode : List.of("shared", "given")) {
            runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=" + mode)
                    .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining(P + "adaptive.enabled")
                            .hasMessageContaining(P + "dictionaries.mode is " + mode));
            // with a store of the application's too, the mode is what is refused (not the store, as if managed)
            runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=" + mode)
                    .withBean("appDictionaryStore", DictionaryStore.class, InMemoryDictionaryStore::new)
                    .run(c -> assertThat(c).getFailure().rootCause().hasMessageContaining(P + "adaptive.enabled")
                            .hasMessageContaining(P + "dictionaries.mode is " + mode));
        }
    }

    /**
     * A duration longer than the library keeps (Long.MAX_VALUE nanoseconds, some 292 years: "never" written as a long
     * time) fails startup naming the property, as one that is not positive does.
     */
    @Test
    void aDurationBeyondTheLibrarysRangeFailsStartupNamingTheProperty() {
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.idle-window=200000d")
                .run(c -> assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining("of " + P + "adaptive.idle-window"));
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=managed",
                P + "adaptive.dictionary-reopen-delay=200000d")
                .run(c -> assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining("of " + P + "adaptive.dictionary-reopen-delay"));
    }

    /**
     * Two listed patterns that fold alike (the same one twice, or names differing only in digits) fail startup naming
     * the property.
     */
    @Test
    void listedPatternsThatFoldAlikeFailStartupNamingTheProperty() {
        for (String patterns : List.of("user:*,user:*", "orders1:*,orders2:*")) {
            runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.patterns=" + patterns)
                    .run(c -> assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                            .hasMessageContaining("of " + P + "adaptive.patterns").hasMessageContaining("fold alike"));
        }
    }

    /**
     * A listed pattern that an earlier one matches every key of (it would never take a key) fails startup naming the
     * property, both patterns and the order that works; that order starts.
     */
    @Test
    void aListedPatternAnEarlierOneCoversFailsStartupNamingTheProperty() {
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.patterns=user:*,user:*:cart")
                .run(c -> assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining("of " + P + "adaptive.patterns")
                        .hasMessageContaining("listed pattern user:*:cart would never be used: user:*, listed before"
                                + " it, matches every key it matches")
                        .hasMessageContaining("list user:*:cart before user:*"));
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.patterns=user:*:cart,user:*")
                .run(c -> assertThat(c.getBean(AdaptiveCompressor.class).snapshot().stream()
                        .map(PatternDecision::pattern).toList()).startsWith("user:*:cart", "user:*"));
    }

    /**
     * A listed pattern with another pattern's name ({@code (other)}, or {@code a\\b:*}, the name of the keys with one
     * backslash) fails startup naming the property and what to list instead.
     */
    @Test
    void aListedPatternWithAnotherPatternsNameFailsStartupNamingTheProperty() {
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.patterns=user:*,a\\\\b:*")
                .run(c -> assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining("of " + P + "adaptive.patterns")
                        .hasMessageContaining("list a\\b:* for those keys"));
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.patterns=(other)")
                .run(c -> assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining("of " + P + "adaptive.patterns")
                        .hasMessageContaining("listed pattern (other) is the name of the entry"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void eachPatternDecidesAndTheDecisionsAreVisible() {
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.patterns=json:*,blob:*",
                "spring.cache.cache-names=products").run(c -> {
                    assertThat(c).hasNotFailed();
                    AdaptiveCompressor adaptive = c.getBean(AdaptiveCompressor.class);
                    RedisConnectionFactory f = c.getBean(RedisConnectionFactory.class);
                    RedisTemplate<Object, Object> template = c.getBean("redisTemplate", RedisTemplate.class);
                    RedisSerializer<Object> keys = (RedisSerializer<Object>) template.getKeySerializer();
                    int n = 40;
                    for (int i = 0; i < n; i++) {
                        template.opsForValue().set("json:" + i, TestValues.json(1500 + 37 * i));
                        template.opsForValue().set("blob:" + i, TestValues.random(700 + 29 * i, i));
                    }
                    Map<Object, Object> both = new LinkedHashMap<>();
                    both.put("json:m", TestValues.json(2000));
                    both.put("blob:m", TestValues.random(900, 99));
                    template.opsForValue().multiSet(both);

                    PatternDecision json = decision(adaptive, "json:*");
                    PatternDecision blob = decision(adaptive, "blob:*");
                    assertThat(json.valuesSeen()).isEqualTo(n + 1);
                    assertThat(blob.valuesSeen()).isEqualTo(n + 1);
                    assertThat(json.option()).isNotEqualTo(CompressionOption.PLAIN);
                    assertThat(blob.option()).isEqualTo(CompressionOption.PLAIN);
                    // read back; the JSON stored compressed, the random bytes as the value serializer wrote them
                    assertThat(template.opsForValue().get("json:m")).isEqualTo(TestValues.json(2000));
                    assertThat(template.opsForValue().get("blob:m")).isEqualTo(TestValues.random(900, 99));
                    assertThat(StoredBytes.get(f, keys.serialize("json:m"))).startsWith(HEADER);
                    byte[] blobStored = StoredBytes.get(f, keys.serialize("blob:m"));
                    assertThat(blobStored).isEqualTo(RedisSerializer.java().serialize(TestValues.random(900, 99)));
                    for (int i = 0; i < n; i++) {
                        assertThat(template.opsForValue().get("blob:" + i)).isEqualTo(TestValues.random(700 + 29 * i,
                                i));
                    }

                    // the cache's name is its pattern
                    Catalog catalog = c.getBean(Catalog.class);
                    String product = catalog.product(7);
                    byte[] cached = StoredBytes.await(f, "products::7".getBytes(StandardCharsets.UTF_8));
                    assertThat(catalog.product(7)).isEqualTo(product);
                    assertThat(catalog.loads()).isEqualTo(1);
                    assertThat(decision(adaptive, "products").valuesSeen()).isEqualTo(1);
                    assertThat(adaptive.decompress(cached)).isEqualTo(RedisSerializer.java().serialize(product));
                    // a cache created on demand: its serializer cannot know its name
                    Map<String, Object> profile = catalog.profile("ann");
                    StoredBytes.await(f, "profiles::ann".getBytes(StandardCharsets.UTF_8));
                    assertThat(catalog.profile("ann")).isEqualTo(profile);
                    assertThat(decision(adaptive, CacheValueCompression.ON_DEMAND_CACHES).valuesSeen()).isEqualTo(1);

                    // the info entry lists the decisions
                    Info.Builder info = new Info.Builder();
                    c.getBean(CompressionInfoContributor.class).contribute(info);
                    Map<String, Object> details = (Map<String, Object>) info.build().getDetails().get("zstd-java");
                    Map<String, Object> a = (Map<String, Object>) details.get("adaptive");
                    assertThat(a).containsEntry("goal", "balanced");
                    List<Map<String, Object>> decisions = (List<Map<String, Object>>) a.get("decisions");
                    assertThat(decisions.get(1)).containsEntry("pattern", "blob:*").containsEntry("option", "plain")
                            .containsEntry("valuesSeen", (long) n + 1).containsKeys("savedFraction", "since");
                    assertThat(decisions).extracting(d -> d.get("pattern"))
                            .contains("json:*", "products", CacheValueCompression.ON_DEMAND_CACHES);

                    // the meters: patterns per option, tagged by option only
                    MeterRegistry registry = c.getBean(MeterRegistry.class);
                    assertThat(c).hasSingleBean(CompressionMetrics.class);
                    String name = CompressionMetrics.PREFIX + "adaptive.patterns";
                    assertThat(registry.get(name).tag("option", "plain").gauge().value()).isGreaterThanOrEqualTo(1);
                    assertThat(registry.find(name).gauges()).hasSize(CompressionOption.values().length);
                    assertThat(registry.find(name).gauges()).allSatisfy(g -> assertThat(g.getId().getTags())
                            .extracting(t -> t.getKey()).doesNotContain("pattern"));
                });
    }

    @Test
    @SuppressWarnings("unchecked")
    void withManagedDictionariesEachPatternTrainsItsOwnAndTheTemplateReadsThem() {
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "adaptive.patterns=json:*",
                P + "dictionaries.mode=managed", P + "dictionaries.min-samples=50",
                P + "dictionaries.dictionary-size=4KB").run(c -> {
                    assertThat(c).hasNotFailed().hasSingleBean(PatternDictionaries.class)
                            .doesNotHaveBean(DictionaryManager.class);
                    AdaptiveCompressor adaptive = c.getBean(AdaptiveCompressor.class);
                    PatternDictionaries dictionaries = c.getBean(PatternDictionaries.class);
                    RedisConnectionFactory f = c.getBean(RedisConnectionFactory.class);
                    RedisTemplate<Object, Object> template = c.getBean("redisTemplate", RedisTemplate.class);
                    RedisSerializer<Object> keys = (RedisSerializer<Object>) template.getKeySerializer();
                    long deadline = System.nanoTime() + 90_000_000_000L;
                    int i = 0;
                    while (decision(adaptive, "json:*").option() != CompressionOption.ZSTD_3_DICTIONARY) {
                        assertThat(System.nanoTime()).as("json:* adopts its dictionary within 90 s (%d writes)", i)
                                .isLessThan(deadline);
                        template.opsForValue().set("json:" + (i % 500), json(i));
                        i++;
                    }
                    long id = dictionaries.manager("json:*").currentId();
                    assertThat(id).isNotZero();
                    template.opsForValue().set("json:last", json(7));
                    byte[] stored = StoredBytes.get(f, keys.serialize("json:last"));
                    assertThat(stored).startsWith(HEADER);
                    assertThat(ZstdFrame.dictionaryId(stored, 5, stored.length - 5)).isEqualTo(id);
                    // read back through the template: the adaptive reader holds the pattern's dictionaries
                    assertThat(template.opsForValue().get("json:last")).isEqualTo(json(7));
                    for (int k = 0; k < Math.min(i, 500); k++) {
                        assertThat(template.opsForValue().get("json:" + k)).isNotNull();
                    }
                    // the pattern's dictionaries live in the server under its own prefix
                    String prefix = PatternDictionaries.prefix(PatternDictionaries.lineageName("json:*"));
                    try (var connection = f.getConnection()) {
                        assertThat(connection.keyCommands().keys((prefix + "*").getBytes(StandardCharsets.UTF_8)))
                                .isNotEmpty();
                    }
                });
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=managed",
                P + "dictionaries.store.key-prefix=app:{dict}:")
                .run(c -> assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining(P + "dictionaries.store.key-prefix")
                        .hasMessageContaining("adaptive compression"));
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=managed",
                P + "dictionaries.min-samples=1")
                .run(c -> assertThat(c).getFailure().hasStackTraceContaining("RedisCompressionException: invalid value 1 of "
                        + P + "dictionaries.min-samples").hasStackTraceContaining("minSamples 1"));
        // each pattern's manager holds to dictionaries.max-loaded-bytes: a wrong one fails startup, not a lineage later
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=managed",
                P + "dictionaries.max-loaded-bytes=0B")
                .run(c -> assertThat(c).getFailure().hasStackTraceContaining("RedisCompressionException: invalid value"
                        + " 0B of " + P + "dictionaries.max-loaded-bytes").hasStackTraceContaining("maxLoadedBytes 0"));
    }

    /**
     * {@code dictionaries.max-loaded-bytes} reaches each pattern's manager: of five dictionaries published in the
     * pattern's store in the server (some 48 KiB each as the bound counts them), a bound of 100KB loads the two newest
     * when the pattern's lineage opens, and without it all five load (another pattern, another store). The info entry
     * shows the bound and {@code adaptive.dictionary-memory}, the lineages' bound on all patterns, in bytes.
     */
    @Test
    @SuppressWarnings("unchecked")
    void theMaxLoadedBytesBoundsEachPatternsManager() throws Exception {
        byte[] trained = ZstdDictionary.train(TestValues.jsonRecords(3000, 11), 16 << 10).toByteArray();
        long each = PatternDictionaries.DIGEST_OVERHEAD + trained.length; // as the bound counts one not compressing
        long bound = 100 << 10;
        assertThat(bound / each).as("dictionaries within the bound").isEqualTo(2);
        for (String pattern : new String[] {"bounded:*", "unbounded:*"}) {
            boolean bounded = pattern.equals("bounded:*");
            int firstId = bounded ? 71_000 : 72_000; // ids of their own: each lineage claims those it loads
            ApplicationContextRunner r = runner().withPropertyValues(P + "adaptive.enabled=true",
                    P + "adaptive.patterns=" + pattern, P + "dictionaries.mode=managed",
                    P + "adaptive.dictionary-memory=8MB");
            r = bounded ? r.withPropertyValues(P + "dictionaries.max-loaded-bytes=100KB") : r;
            r.run(c -> {
                        assertThat(c).hasNotFailed();
                        PatternDictionaries dictionaries = c.getBean(PatternDictionaries.class);
                        RedisConnectionFactory f = c.getBean(RedisConnectionFactory.class);
                        DictionaryStore store = new SpringDictionaryStore(f, PatternDictionaries.prefix(
                                PatternDictionaries.lineageName(pattern)),
                                ServerDictionaryLayout.DEFAULT_MAX_DICTIONARY_SIZE);
                        for (int i = 0; i < 5; i++) {
                            byte[] d = trained.clone();
                            ByteBuffer.wrap(d).order(ByteOrder.LITTLE_ENDIAN).putInt(4, firstId + i); // header id
                            store.putIfAbsent(ZstdDictionary.of(d).id(), d);
                        }
                        // the lineage opens (its manager built, loading what is published) after sampled writes
                        RedisTemplate<Object, Object> template = c.getBean("redisTemplate", RedisTemplate.class);
                        long deadline = System.nanoTime() + 60_000_000_000L;
                        for (int i = 0; !dictionaries.openPatterns().contains(pattern); i++) {
                            assertThat(System.nanoTime()).as(pattern + "'s lineage opens within 60 s (%d writes)", i)
                                    .isLessThan(deadline);
                            template.opsForValue().set(pattern.replace("*", "") + i, json(i));
                        }
                        List<Long> loaded = dictionaries.manager(pattern).dictionaryStats().stream()
                                .map(DictionaryStats::id).filter(id -> id >= firstId && id < firstId + 5).toList();
                        Info.Builder info = new Info.Builder();
                        c.getBean(CompressionInfoContributor.class).contribute(info);
                        Map<String, Object> adaptive = (Map<String, Object>) ((Map<String, Object>) info.build()
                                .getDetails().get("zstd-java")).get("adaptive");
                        if (bounded) {
                            assertThat(loaded).as("the two newest within the bound")
                                    .containsExactlyInAnyOrder(firstId + 3L, firstId + 4L);
                            assertThat(adaptive.get("dictionaries")).isEqualTo(Map.of("maxLoadedBytes", bound,
                                    "dictionaryMemory", 8L << 20));
                        } else {
                            assertThat(loaded).as("all five by default").hasSize(5);
                            assertThat(adaptive.get("dictionaries")).isEqualTo(Map.of("maxLoadedBytes",
                                    DictionaryManager.DEFAULT_MAX_LOADED_BYTES, "dictionaryMemory", 8L << 20));
                        }
                    });
        }
        // without dictionaries the entry shows no bound on them
        runner().withPropertyValues(P + "adaptive.enabled=true").run(c -> {
            Info.Builder info = new Info.Builder();
            c.getBean(CompressionInfoContributor.class).contribute(info);
            assertThat((Map<String, Object>) ((Map<String, Object>) info.build().getDetails().get("zstd-java"))
                    .get("adaptive")).containsKey("goal").doesNotContainKey("dictionaries");
        });
    }

    /**
     * A store holds one lineage's dictionaries, so the application's own {@link DictionaryStore} bean cannot serve
     * every pattern's: with per-pattern dictionaries startup fails naming the bean, the property and what to do
     * instead, rather than leaving the bean unused. No default store is made there, and the application's own
     * {@link PatternDictionaries} (its stores given per lineage) is used, its store bean then no misconfiguration.
     */
    @Test
    void anApplicationsDictionaryStoreFailsStartupWithPerPatternDictionaries() {
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=managed")
                .withBean("appDictionaryStore", DictionaryStore.class, InMemoryDictionaryStore::new)
                .run(c -> assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining("appDictionaryStore").hasMessageContaining(P + "adaptive.enabled")
                        .hasMessageContaining(P + "dictionaries.mode").hasMessageContaining("PatternDictionaries"));
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=managed")
                .run(c -> assertThat(c).hasNotFailed().hasSingleBean(PatternDictionaries.class)
                        .doesNotHaveBean(DictionaryStore.class).doesNotHaveBean(DictionaryManager.class));
        PatternDictionaries own = PatternDictionaries.builder(name -> new InMemoryDictionaryStore()).build();
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=managed")
                .withBean("appDictionaryStore", DictionaryStore.class, InMemoryDictionaryStore::new)
                .withBean(PatternDictionaries.class, () -> own)
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(c.getBean(PatternDictionaries.class)).isSameAs(own);
                });
        own.close();
        // fixed mode keeps using the application's store
        runner().withPropertyValues(P + "dictionaries.mode=managed")
                .withBean("appDictionaryStore", DictionaryStore.class, InMemoryDictionaryStore::new)
                .run(c -> assertThat(c).hasNotFailed().hasSingleBean(DictionaryManager.class)
                        .hasSingleBean(DictionaryStore.class));
    }

    /**
     * The application's own {@link AdaptiveCompressor} bean decides its dictionaries itself: with per-pattern
     * dictionaries no {@link PatternDictionaries} bean is made for it to leave unused, and the application's
     * {@link DictionaryStore} bean, which its compressor may use, does not fail startup.
     */
    @Test
    void anApplicationsAdaptiveCompressorGetsNoPatternDictionaries() {
        AdaptiveCompressor own = AdaptiveCompressor.builder(CompressionConfig.defaults()).build();
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=managed")
                .withBean(AdaptiveCompressor.class, () -> own)
                .run(c -> {
                    assertThat(c).hasNotFailed().doesNotHaveBean(PatternDictionaries.class);
                    assertThat(c.getBean(AdaptiveCompressor.class)).isSameAs(own);
                });
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=managed")
                .withBean("appDictionaryStore", DictionaryStore.class, InMemoryDictionaryStore::new)
                .withBean(AdaptiveCompressor.class, () -> own)
                .run(c -> assertThat(c).hasNotFailed().doesNotHaveBean(PatternDictionaries.class)
                        .hasSingleBean(DictionaryStore.class));
    }

    @Test
    void anApplicationsDictionaryManagerFailsStartupInAdaptiveMode() {
        for (String mode : new String[] {"off", "managed"}) {
            runner().withPropertyValues(P + "adaptive.enabled=true", P + "dictionaries.mode=" + mode)
                    .withBean("appDictionaryManager", DictionaryManager.class,
                            () -> DictionaryManager.managed(new InMemoryDictionaryStore()).build())
                    .run(c -> assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                            .hasMessageContaining("appDictionaryManager").hasMessageContaining(P + "adaptive.enabled")
                            .hasMessageContaining("AdaptiveCompressor bean"));
        }
        // an AdaptiveCompressor of the application's own may use it; the fixed mode writes with it
        runner().withPropertyValues(P + "adaptive.enabled=true")
                .withBean("appDictionaryManager", DictionaryManager.class,
                        () -> DictionaryManager.managed(new InMemoryDictionaryStore()).build())
                .withBean(AdaptiveCompressor.class, () -> AdaptiveCompressor.builder(CompressionConfig.defaults()).build())
                .run(c -> assertThat(c).hasNotFailed().hasSingleBean(AdaptiveCompressor.class));
        runner().withBean("appDictionaryManager", DictionaryManager.class,
                        () -> DictionaryManager.managed(new InMemoryDictionaryStore()).build())
                .run(c -> assertThat(c).hasNotFailed().hasSingleBean(DictionaryManager.class)
                        .doesNotHaveBean(AdaptiveCompressor.class));
    }

    /**
     * The fixed mode writes through the application's {@link ValueCompressor}; the adaptive mode's templates and
     * caches write through the adaptive compressor and read through its reader, so the application's compressor
     * would go unused: startup fails naming it, as for a {@link DictionaryManager}.
     */
    @Test
    void anApplicationsValueCompressorFailsStartupInAdaptiveMode() {
        runner().withPropertyValues(P + "adaptive.enabled=true")
                .withBean("appCompressor", ValueCompressor.class,
                        () -> ValueCompressor.create(CompressionConfig.builder().level(7).build()))
                .run(c -> assertThat(c).getFailure().rootCause().isInstanceOf(RedisCompressionException.class)
                        .hasMessageContaining("appCompressor").hasMessageContaining(P + "adaptive.enabled")
                        .hasMessageContaining("AdaptiveCompressor bean"));
        // an AdaptiveCompressor of the application's own is its choice; the fixed mode writes with the compressor
        AdaptiveCompressor own = AdaptiveCompressor.builder(CompressionConfig.defaults()).build();
        runner().withPropertyValues(P + "adaptive.enabled=true")
                .withBean("appCompressor", ValueCompressor.class, own::reader)
                .withBean(AdaptiveCompressor.class, () -> own)
                .run(c -> assertThat(c).hasNotFailed().hasSingleBean(AdaptiveCompressor.class));
        ValueCompressor fixed = ValueCompressor.create(CompressionConfig.defaults());
        runner().withBean("appCompressor", ValueCompressor.class, () -> fixed)
                .run(c -> assertThat(c).hasNotFailed().doesNotHaveBean(AdaptiveCompressor.class)
                        .getBean("redisTemplate", CompressingRedisTemplate.class)
                        .extracting(CompressingRedisTemplate::compressor).isSameAs(fixed));
    }

    /** JSON records of one shape, different in their values: a dictionary's kind of data. */
    private static String json(int i) {
        return "{\"id\":" + i + ",\"user\":{\"name\":\"user-" + (i * 7919 % 1000) + "\",\"email\":\"user"
                + (i % 97) + "@example.org\",\"roles\":[\"reader\",\"writer\"],\"locale\":\"en-GB\"},"
                + "\"session\":{\"created\":\"2026-12-02T09:" + (10 + i % 50) + ":00Z\",\"ttl\":3600,"
                + "\"device\":\"" + (i % 3 == 0 ? "mobile" : "desktop") + "\",\"cart\":[" + (i % 5) + ","
                + (i % 11) + "," + (i % 13) + "]},\"preferences\":{\"theme\":\"dark\",\"newsletter\":"
                + (i % 2 == 0) + ",\"currency\":\"EUR\",\"timezone\":\"Europe/Berlin\"}}";
    }

    @Test
    void theStringTemplateWritesUnderEachKey() {
        runner().withPropertyValues(P + "adaptive.enabled=true", P + "string-template=true").run(c -> {
            StringRedisTemplate strings = c.getBean(StringRedisTemplate.class);
            AdaptiveCompressor adaptive = c.getBean(AdaptiveCompressor.class);
            String value = TestValues.json(1500);
            strings.opsForValue().set("order:1", value);
            assertThat(strings.opsForValue().get("order:1")).isEqualTo(value);
            assertThat(adaptive.snapshot()).anySatisfy(d -> assertThat(d.valuesSeen()).isEqualTo(1));
            assertThat(StoredBytes.get(c.getBean(RedisConnectionFactory.class),
                    "order:1".getBytes(StandardCharsets.UTF_8))).startsWith(HEADER);
        });
    }
}
