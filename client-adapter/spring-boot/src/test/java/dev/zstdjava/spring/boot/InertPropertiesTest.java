package dev.zstdjava.spring.boot;

import dev.zstdjava.values.ValueCompressor;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Properties set without effect (a switch leaves them inert) are named in one warning at startup, which still
 * succeeds; properties that take effect draw none. No server: building the beans opens no connection.
 */
class InertPropertiesTest {
    private static final String P = RedisCompressionProperties.PREFIX + ".";

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(RedisCompressionAutoConfiguration.class,
                    RedisCompressionOffAutoConfiguration.class, BootLine.redis()));

    private final Logger logger = Logger.getLogger(InertProperties.class.getName());
    private final List<LogRecord> warnings = new CopyOnWriteArrayList<>();
    private final Handler handler = new Handler() {
        @Override
        public void publish(LogRecord r) {
            if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                warnings.add(r);
            }
        }

        @Override
        public void flush() {
        }

        @Override
        public void close() {
        }
    };

    @BeforeEach
    void capture() {
        logger.addHandler(handler);
    }

    @AfterEach
    void release() {
        logger.removeHandler(handler);
    }

    @Test
    void adaptiveAndDictionarySettingsWhileSwitchedOffAreNamedInOneWarning() {
        runner.withPropertyValues(P + "enabled=true", P + "adaptive.goal=speed", P + "adaptive.patterns[0]=user:*",
                P + "adaptive.patterns[1]=cart:*", P + "adaptive.dictionary-memory=8MB",
                P + "dictionaries.load-timeout=3s", P + "dictionaries.store.key-prefix=x:{y}:", P + "level=5",
                P + "min-size=64B").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(warnings).hasSize(1);
            assertThat(warnings.get(0).getMessage()).isEqualTo("zstd-java: properties set without effect: "
                    + P + "adaptive.dictionary-memory, " + P + "adaptive.goal, " + P + "adaptive.patterns ("
                    + P + "adaptive.enabled is not true); " + P + "dictionaries.load-timeout, "
                    + P + "dictionaries.store.key-prefix (" + P + "dictionaries.mode is off); they take effect once"
                    + " that switch allows them, or remove them");
        });
    }

    @Test
    void adaptiveDictionarySettingsWithoutDictionariesAndTheBackendUnderAdaptiveAreNamed() {
        runner.withPropertyValues(P + "enabled=true", P + "adaptive.enabled=true", P + "adaptive.goal=speed",
                P + "adaptive.dictionary-patterns=8", P + "backend=lz4").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(warnings).hasSize(1);
            String message = warnings.get(0).getMessage();
            assertThat(message).contains(P + "adaptive.dictionary-patterns (" + P + "dictionaries.mode is off)")
                    .contains(P + "backend (" + P + "adaptive.enabled is true").doesNotContain("adaptive.goal");
        });
    }

    @Test
    void settingsWhileCompressionIsOffAreNamedAndNothingIsConfigured() {
        runner.withPropertyValues(P + "enabled=false", P + "adaptive.enabled=true", P + "min-size=64B").run(c -> {
            assertThat(c).hasNotFailed().doesNotHaveBean(ValueCompressor.class);
            assertThat(warnings).hasSize(1);
            assertThat(warnings.get(0).getMessage()).startsWith("zstd-java: properties set without effect: "
                    + P + "adaptive.enabled, " + P + "min-size (" + P + "enabled is not true: nothing of this"
                    + " library is configured)");
        });
        warnings.clear();
        runner.withPropertyValues(P + "enabled=false").run(c -> assertThat(warnings).isEmpty());
        runner.run(c -> assertThat(warnings).isEmpty());
    }

    @Test
    void noWarningWhenEverySettingTakesEffect() {
        runner.withPropertyValues(P + "enabled=true", P + "adaptive.enabled=true", P + "adaptive.goal=speed",
                P + "adaptive.dictionary-patterns=8", P + "dictionaries.mode=managed",
                P + "dictionaries.load-timeout=3s", P + "min-size=64B").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(warnings).isEmpty();
        });
        runner.withPropertyValues(P + "enabled=true", P + "adaptive.enabled=false", P + "dictionaries.mode=off",
                P + "level=5").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(warnings).isEmpty();
        });
    }
}
