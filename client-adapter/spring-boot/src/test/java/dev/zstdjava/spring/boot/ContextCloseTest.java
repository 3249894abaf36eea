package dev.zstdjava.spring.boot;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.PatternDictionaries;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.core.RedisTemplate;

import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Closing the context (a shutdown, a devtools restart) with server-side dictionaries on a real server: the
 * dictionaries' announcement listener and background threads stop before Boot's connection factory, quietly, and no
 * thread of theirs outlives the context.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
class ContextCloseTest {
    private static final String P = RedisCompressionProperties.PREFIX + ".";
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

    /**
     * The live threads of the dictionaries and of their announcement listener (by identity: a thread of an earlier
     * test may have the same name).
     */
    private static Set<Thread> dictionaryThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).filter(t -> {
            String n = t.getName();
            return n.startsWith("zstd-java-dictionar") || n.startsWith("zstd-java-pattern-dictionaries")
                    || n.startsWith("RedisMessageListenerContainer");
        }).collect(Collectors.toSet());
    }

    /**
     * The threads of {@link #dictionaryThreads()} not among {@code before}, by name: those the context started. A
     * thread another test left that ends meanwhile is not one of them.
     */
    private static List<String> threadsSince(Set<Thread> before) {
        return dictionaryThreads().stream().filter(t -> !before.contains(t)).map(Thread::getName).sorted().toList();
    }

    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"lettuce", "jedis", "lettuce adaptive", "jedis adaptive"})
    void closingStopsTheDictionariesBeforeTheConnectionFactoryAndLeavesNoThread(String setup) throws Exception {
        String[] s = setup.split(" ");
        boolean adaptive = s.length > 1;
        ApplicationContextRunner runner = new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(RedisCompressionAutoConfiguration.class,
                        RedisCompressionCacheAutoConfiguration.class, BootLine.redis(), BootLine.cache()))
                .withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed",
                        P + "adaptive.enabled=" + adaptive, "spring.data.redis.client-type=" + s[0],
                        "spring.data.redis.host=" + RedisServer.HOST, "spring.data.redis.port=" + server.port());
        Logger redis = (Logger) LoggerFactory.getLogger("org.springframework.data.redis");
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        logged.start();
        Set<Thread> before = dictionaryThreads();
        try {
            runner.run(c -> {
                assertThat(c).hasNotFailed();
                @SuppressWarnings("unchecked")
                RedisTemplate<Object, Object> t = c.getBean("redisTemplate", RedisTemplate.class);
                for (int i = 0; i < 50; i++) {
                    t.opsForValue().set("close:" + setup + i, "a value to sample for a dictionary; ".repeat(8) + i);
                }
                assertThat(c).hasSingleBean(adaptive ? PatternDictionaries.class : DictionaryManager.class);
                if (adaptive) {
                    // a pattern's lineage opens (subscribes) on a thread of its own after the first writes: closed
                    // while it opens, it is released once opened, which PatternDictionaries.close does not wait for
                    PatternDictionaries lineages = c.getBean(PatternDictionaries.class);
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    while (lineages.openPatterns().isEmpty() && System.nanoTime() < deadline) {
                        Thread.sleep(20);
                    }
                    assertThat(lineages.openPatterns()).as("a lineage opened").isNotEmpty();
                }
                assertThat(threadsSince(before)).as("the dictionaries run").isNotEmpty();
                redis.addAppender(logged); // what closing the context logs
            });
        } finally {
            redis.detachAppender(logged);
        }
        assertThat(logged.list).as("warnings while the context closed").noneMatch(e -> e.getLevel().isGreaterOrEqual(
                Level.WARN));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10); // a released lineage's thread ends soon after
        while (!threadsSince(before).isEmpty() && System.nanoTime() < deadline) {
            Thread.sleep(20);
        }
        assertThat(threadsSince(before)).as("threads left after the context closed").isEmpty();
    }
}
