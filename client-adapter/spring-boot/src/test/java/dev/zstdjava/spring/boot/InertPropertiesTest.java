package dev.zstdjava.spring.boot;

import dev.zstdjava.testkit.TestValues;
import dev.zstdjava.values.DictionaryStore;
import dev.zstdjava.values.InMemoryDictionaryStore;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.zstd.ZstdDictionary;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.env.PropertiesPropertySourceLoader;
import org.springframework.core.env.SystemEnvironmentPropertySource;
import org.springframework.core.io.ByteArrayResource;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
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
    private final Handler handler = capturing(warnings);
    private final Logger unknownLogger = Logger.getLogger("dev.zstdjava.spring.boot.UnknownProperties"); // documented
    private final List<LogRecord> unknownWarnings = new CopyOnWriteArrayList<>();
    private final Handler unknownHandler = capturing(unknownWarnings);
    private final Logger unboundLogger = Logger.getLogger("dev.zstdjava.spring.boot.UnboundValues"); // documented
    private final List<LogRecord> unboundWarnings = new CopyOnWriteArrayList<>();
    private final Handler unboundHandler = capturing(unboundWarnings);

    /** @return a handler adding each warning or worse to {@code records} */
    static Handler capturing(List<LogRecord> records) {
        return new Handler() {
            @Override
            public void publish(LogRecord r) {
                if (r.getLevel().intValue() >= Level.WARNING.intValue()) {
                    records.add(r);
                }
            }

            @Override
            public void flush() {
            }

            @Override
            public void close() {
            }
        };
    }

    /** @return the one warning logged, checked to be the only one */
    private String theWarning() {
        assertThat(warnings).hasSize(1);
        return warnings.get(0).getMessage();
    }

    /** @return the whole warning naming {@code groups}, each "names (the switch)", in order */
    private static String warning(String... groups) {
        return "zstd-java: properties set without effect: " + String.join("; ", groups) + "; they take effect once"
                + " that switch allows them, or remove them";
    }

    @BeforeEach
    void capture() {
        logger.addHandler(handler);
        unknownLogger.addHandler(unknownHandler);
        unboundLogger.addHandler(unboundHandler);
    }

    @AfterEach
    void release() {
        logger.removeHandler(handler);
        unknownLogger.removeHandler(unknownHandler);
        unboundLogger.removeHandler(unboundHandler);
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

    /**
     * {@code management.info.zstd-java.enabled} is read only by the info auto-configuration, which needs
     * {@code enabled=true}: set while compression is off it is named too.
     */
    @Test
    void theInfoEntrysSwitchWhileCompressionIsOffIsNamed() {
        runner.withPropertyValues(P + "enabled=false", "management.info.zstd-java.enabled=true").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(theWarning()).isEqualTo(warning("management.info.zstd-java.enabled (" + P + "enabled is not"
                    + " true: nothing of this library is configured)"));
        });
        warnings.clear();
        runner.withPropertyValues(P + "enabled=true", "management.info.zstd-java.enabled=false")
                .run(c -> assertThat(warnings).isEmpty());
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

    /**
     * A dictionary setting read only in some modes, set in another mode, is named with the mode in force and the
     * modes that read it: the server's settings in the given mode, the training settings in the shared mode, the
     * given resources in the managed mode. Before, only {@code dictionaries.mode=off} drew a warning.
     */
    @Test
    void dictionarySettingsOfAnotherModeAreNamedWithTheModesThatReadThem(@TempDir Path dir) throws IOException {
        Path dictionary = dictionary(dir);
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=given",
                P + "dictionaries.resources[0]=file:" + dictionary, P + "dictionaries.load-timeout=3s",
                P + "dictionaries.refresh-interval=5s", P + "dictionaries.notifications=false",
                P + "dictionaries.store.key-prefix=x:{y}:", P + "dictionaries.retrain-interval=2h",
                P + "dictionaries.max-loaded-bytes=1MB", P + "min-size=64B").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(theWarning()).isEqualTo(warning(
                    P + "dictionaries.retrain-interval (" + P + "dictionaries.mode is given, not managed)",
                    P + "dictionaries.load-timeout, " + P + "dictionaries.max-loaded-bytes, "
                            + P + "dictionaries.notifications, "
                            + P + "dictionaries.refresh-interval, " + P + "dictionaries.store.key-prefix ("
                            + P + "dictionaries.mode is given, not managed or shared)"));
        });
        warnings.clear();
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=shared",
                        P + "dictionaries.resources[0]=file:" + dictionary, P + "dictionaries.retrain-interval=2h",
                        P + "dictionaries.dictionary-size=8KB", P + "dictionaries.min-samples=50",
                        P + "dictionaries.load-timeout=3s", P + "dictionaries.store.max-dictionary-size=64KB",
                        P + "dictionaries.max-loaded-bytes=1MB")
                .withBean(DictionaryStore.class, InMemoryDictionaryStore::new).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(theWarning()).isEqualTo(warning(
                            P + "dictionaries.resources (" + P + "dictionaries.mode is shared, not given)",
                            P + "dictionaries.dictionary-size, " + P + "dictionaries.min-samples, "
                                    + P + "dictionaries.retrain-interval (" + P + "dictionaries.mode is shared, not"
                                    + " managed)"));
                });
        warnings.clear();
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=managed",
                        P + "dictionaries.resources[0]=file:" + dictionary, P + "dictionaries.retrain-interval=2h",
                        P + "dictionaries.notifications=false", P + "dictionaries.store.max-dictionary-size=2MB",
                        P + "dictionaries.max-loaded-bytes=1MB")
                .withBean(DictionaryStore.class, InMemoryDictionaryStore::new).run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(theWarning()).isEqualTo(warning(
                            P + "dictionaries.resources (" + P + "dictionaries.mode is managed, not given)"));
                });
    }

    /**
     * In the given mode the server's settings are not passed to the manager (it has no store): a wrong value of one
     * is named with them, and no longer fails startup.
     */
    @Test
    void aWrongServerSettingInTheGivenModeIsNamedNotRefused(@TempDir Path dir) throws IOException {
        runner.withPropertyValues(P + "enabled=true", P + "dictionaries.mode=given",
                P + "dictionaries.resources[0]=file:" + dictionary(dir), P + "dictionaries.load-timeout=-1s",
                P + "dictionaries.max-loaded-bytes=0B").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(theWarning()).isEqualTo(warning(P + "dictionaries.load-timeout, " + P
                    + "dictionaries.max-loaded-bytes (" + P + "dictionaries.mode is given, not managed or shared)"));
        });
    }

    /** @return a zstd dictionary file in {@code dir}, trained from test values */
    private static Path dictionary(Path dir) throws IOException {
        return Files.write(dir.resolve("values.dict"),
                ZstdDictionary.train(TestValues.jsonRecords(3000, 11), 16 << 10).toByteArray());
    }

    /**
     * A property set as an environment variable is named as the variable the user set, not in Spring's mapped form
     * (which would read {@code zstdjava.redis.compression...}, a name set nowhere); the reason still names the switch
     * as a property.
     */
    @Test
    void aPropertySetAsAnEnvironmentVariableIsNamedAsTheVariable() {
        Map<String, Object> variables = Map.of("ZSTDJAVA_REDIS_COMPRESSION_ENABLED", "true",
                "ZSTDJAVA_REDIS_COMPRESSION_ADAPTIVE_GOAL", "speed",
                "ZSTDJAVA_REDIS_COMPRESSION_DICTIONARIES_RETRAININTERVAL", "2h");
        runner.withInitializer(c -> c.getEnvironment().getPropertySources().addFirst(
                new SystemEnvironmentPropertySource("test-systemEnvironment", variables))).run(c -> {
            assertThat(c).hasNotFailed().hasSingleBean(ValueCompressor.class);
            assertThat(theWarning()).isEqualTo(warning(
                    "ZSTDJAVA_REDIS_COMPRESSION_ADAPTIVE_GOAL (" + P + "adaptive.enabled is not true)",
                    "ZSTDJAVA_REDIS_COMPRESSION_DICTIONARIES_RETRAININTERVAL (" + P + "dictionaries.mode is off)"));
        });
    }

    /** @return the whole warning naming the unknown {@code names}, in order */
    private static String unknownWarning(String names) {
        return "zstd-java: unknown properties, ignored: " + names + "; check their spelling against the documented"
                + " properties, or remove them (a property of a newer version is ignored by this one)";
    }

    /**
     * Misspelled properties, at the top level and nested, bind to nothing: they are named in one warning of their own
     * (not as inert, though their group is off), and startup goes on with the valid ones.
     */
    @Test
    void unknownPropertiesAreNamedInOneWarningAndStartupGoesOn() {
        runner.withPropertyValues(P + "enabled=true", P + "levle=9", P + "dictionaries.mod=managed",
                P + "adaptive.sampling.evrey=3", P + "min-size=128B").run(c -> {
            assertThat(c).hasNotFailed().hasSingleBean(ValueCompressor.class);
            assertThat(unknownWarnings).hasSize(1);
            assertThat(unknownWarnings.get(0).getMessage()).isEqualTo(unknownWarning(P + "adaptive.sampling.evrey, "
                    + P + "dictionaries.mod, " + P + "levle"));
            assertThat(warnings).isEmpty();
        });
    }

    /** With compression off a misspelled switch is named as unknown, and only there; the inert ones as inert. */
    @Test
    void aMisspelledSwitchWhileCompressionIsOffIsNamedAsUnknown() {
        runner.withPropertyValues(P + "enabeld=true", P + "level=5").run(c -> {
            assertThat(c).hasNotFailed().doesNotHaveBean(ValueCompressor.class);
            assertThat(unknownWarnings).hasSize(1);
            assertThat(unknownWarnings.get(0).getMessage()).isEqualTo(unknownWarning(P + "enabeld"));
            assertThat(theWarning()).isEqualTo(warning(P + "level (" + P + "enabled is not true: nothing of this"
                    + " library is configured)"));
        });
    }

    /** A property read from a file is named with where it was set. */
    @Test
    void anUnknownPropertyFromAFileIsNamedWithItsOrigin() throws IOException {
        byte[] file = (P + "enabled=true\n" + P + "adaptive.goall=speed\n").getBytes(StandardCharsets.ISO_8859_1);
        var sources = new PropertiesPropertySourceLoader().load("application.properties",
                new ByteArrayResource(file, "application.properties"));
        runner.withInitializer(c -> sources.forEach(c.getEnvironment().getPropertySources()::addFirst)).run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(unknownWarnings).hasSize(1);
            assertThat(unknownWarnings.get(0).getMessage()).isEqualTo(unknownWarning(P + "adaptive.goall"
                    + " (Byte array resource [application.properties] - 2:" + (P.length() + "adaptive.goall=".length()
                    + 1) + ")"));
        });
    }

    /** @return a valid value of every documented property, lists indexed, checked to be the documented ones */
    private static Map<String, String> everyProperty() throws IOException {
        Map<String, String> all = new LinkedHashMap<>();
        for (String p : List.of("enabled=true", "backend=lz4", "level=5", "min-size=64B",
                "max-decompressed-size=256MB", "hash-values=true", "legacy-formats=LETTUCE_GZIP,REDISSON_ZSTD",
                "caches=true", "string-template=true", "dictionaries.mode=managed",
                "dictionaries.resources[0]=classpath:values.dict", "dictionaries.resources[1]=file:other.dict",
                "dictionaries.load-timeout=3s", "dictionaries.refresh-interval=5s", "dictionaries.notifications=false",
                "dictionaries.max-loaded-bytes=1MB", "dictionaries.retrain-interval=2h",
                "dictionaries.dictionary-size=8KB", "dictionaries.min-samples=50",
                "dictionaries.store.key-prefix=zstd-java:dict:{zstd-java-dictionaries}:",
                "dictionaries.store.max-dictionary-size=2MB", "adaptive.enabled=true", "adaptive.goal=memory",
                "adaptive.cpu-budget=0.5", "adaptive.patterns[0]=user:*", "adaptive.patterns[1]=cart:*",
                "adaptive.capacity=128", "adaptive.idle-window=5s", "adaptive.sampling.first-writes=16",
                "adaptive.sampling.every=32", "adaptive.sampling.plain-every=128", "adaptive.window.samples=16",
                "adaptive.window.min-samples=8", "adaptive.hysteresis.evaluations=3",
                "adaptive.hysteresis.saving-margin=0.02", "adaptive.hysteresis.cpu-margin=0.3",
                "adaptive.dictionary-memory=8MB", "adaptive.dictionary-patterns=8",
                "adaptive.dictionary-reopen-delay=5s")) {
            int eq = p.indexOf('=');
            all.put(P + p.substring(0, eq), p.substring(eq + 1));
        }
        assertThat(all.keySet().stream().map(n -> n.replaceAll("\\[\\d+]$", "")).distinct())
                .as("every documented property")
                .containsExactlyInAnyOrderElementsOf(DocumentedProperties.read().keySet());
        return all;
    }

    /** Every documented property, lists indexed and comma-separated, is known: no unknown-property warning. */
    @Test
    void everyDocumentedPropertyIsKnown() throws IOException {
        Map<String, String> all = everyProperty();
        runner.withPropertyValues(all.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .toArray(String[]::new)).run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(unknownWarnings).isEmpty();
        });
        runner.withPropertyValues(P + "enabled=true", P + "adaptive.patterns=user:*,cart:*",
                P + "dictionaries.mode=given", P + "dictionaries.resources=classpath:a.dict,classpath:b.dict",
                P + "legacy-formats[0]=LETTUCE_GZIP").run(c -> assertThat(unknownWarnings).isEmpty());
    }

    /**
     * A property of ours set to an empty value ({@code level=${LEVEL:}} with the variable unset, or a YAML key without a
     * value) keeps its default: Spring's handler counts it as unbound, but it is no misspelling; a misspelled one beside
     * it is still named.
     */
    @Test
    void aPropertySetToAnEmptyValueIsNotNamedAsUnknown() {
        runner.withPropertyValues(P + "enabled=true", P + "level=${ZSTDJAVA_TEST_UNSET_LEVEL:}", P + "backend=",
                P + "dictionaries.max-loaded-bytes=", P + "adaptive.cpu-budget=", P + "levle=9").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(unknownWarnings).hasSize(1);
            assertThat(unknownWarnings.get(0).getMessage()).isEqualTo(unknownWarning(P + "levle"));
        });
    }

    /**
     * Every documented property set as an environment variable, in Spring's form (dashes dropped:
     * {@code ZSTDJAVA_REDIS_COMPRESSION_ADAPTIVE_CPUBUDGET}) and in its legacy one (dashes as underscores:
     * {@code ZSTD_JAVA_REDIS_COMPRESSION_ADAPTIVE_CPU_BUDGET}), lists indexed ({@code _0_}), is known; a misspelled
     * variable is named as set.
     */
    @Test
    void everyDocumentedPropertyAsAnEnvironmentVariableIsKnownAndAMisspelledOneIsNamed() throws IOException {
        for (String dash : List.of("", "_")) {
            Map<String, Object> variables = new HashMap<>();
            everyProperty().forEach((name, value) -> variables.put(name.replace("-", dash)
                    .replaceAll("\\[(\\d+)]", "_$1_").replace('.', '_').toUpperCase(Locale.ROOT), value));
            variables.put("ZSTDJAVA_REDIS_COMPRESSION_LEVLE", "9");
            variables.put("ZSTDJAVA_REDIS_COMPRESSION_DICTIONARIES_MOD", "managed");
            unknownWarnings.clear();
            runner.withInitializer(c -> c.getEnvironment().getPropertySources().addFirst(
                    new SystemEnvironmentPropertySource("test-systemEnvironment", variables))).run(c -> {
                assertThat(c).as("dashes as '" + dash + "'").hasNotFailed();
                assertThat(unknownWarnings).as(variables.keySet().toString()).hasSize(1);
                assertThat(unknownWarnings.get(0).getMessage()).isEqualTo(unknownWarning(
                        "ZSTDJAVA_REDIS_COMPRESSION_DICTIONARIES_MOD, ZSTDJAVA_REDIS_COMPRESSION_LEVLE"));
            });
        }
    }

    /** @return the whole warning naming {@code failures}, each "name=value (why)", in order */
    private static String unboundWarning(String failures) {
        return "zstd-java: properties whose value does not bind, unread while " + P + "enabled is not true: "
                + failures + "; correct them: with compression enabled, startup may fail on them";
    }

    /**
     * With compression off, a value that does not bind is read by nothing: each such property is named in one warning,
     * with its value and why, and startup goes on; the values that bind draw none.
     */
    @Test
    void withCompressionOffValuesThatDoNotBindAreNamedInOneWarning() throws IOException {
        runner.withPropertyValues(P + "adaptive.goal=fast", P + "level=abc", P + "dictionaries.max-loaded-bytes=lots",
                P + "min-size=64B", P + "adaptive.capacity=12").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(c).doesNotHaveBean(ValueCompressor.class);
            assertThat(unboundWarnings).hasSize(1);
            assertThat(unboundWarnings.get(0).getMessage()).isEqualTo(unboundWarning(
                    P + "adaptive.goal=fast (not one of memory, balanced, speed), "
                    + P + "dictionaries.max-loaded-bytes=lots ('lots' is not a valid data size), "
                    + P + "level=abc (For input string: \"abc\")"));
        });
        // a valid value of every documented property binds: none is named
        unboundWarnings.clear();
        Map<String, String> all = everyProperty();
        all.put(P + "enabled", "false");
        runner.withPropertyValues(all.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .toArray(String[]::new)).run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(unboundWarnings).isEmpty();
        });
    }

    /**
     * A value that does not bind leaves the other warnings whole: the properties set without effect and the unknown
     * ones are still named, each in its own warning, and the property whose value does not bind in its own only.
     */
    @Test
    void aValueThatDoesNotBindLeavesTheOtherWarningsWhole() {
        runner.withPropertyValues(P + "level=abc", P + "levle=9", P + "adaptive.goal=speed", P + "backend=lz4")
                .run(c -> {
                    assertThat(c).hasNotFailed();
                    assertThat(unboundWarnings).hasSize(1);
                    assertThat(unboundWarnings.get(0).getMessage()).isEqualTo(unboundWarning(
                            P + "level=abc (For input string: \"abc\")"));
                    assertThat(unknownWarnings).hasSize(1);
                    assertThat(unknownWarnings.get(0).getMessage()).isEqualTo(unknownWarning(P + "levle"));
                    assertThat(theWarning()).isEqualTo(warning(P + "adaptive.goal, " + P + "backend (" + P
                            + "enabled is not true: nothing of this library is configured)"));
                });
    }

    /** An environment variable whose value does not bind is named as the variable. */
    @Test
    void withCompressionOffAVariableThatDoesNotBindIsNamedAsSet() {
        runner.withInitializer(c -> c.getEnvironment().getPropertySources().addFirst(
                new SystemEnvironmentPropertySource("test-systemEnvironment",
                        Map.of("ZSTDJAVA_REDIS_COMPRESSION_DICTIONARIES_LOADTIMEOUT", "soon")))).run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(unboundWarnings).hasSize(1);
            assertThat(unboundWarnings.get(0).getMessage()).startsWith("zstd-java: properties whose value does not"
                    + " bind, unread while " + P + "enabled is not true: ZSTDJAVA_REDIS_COMPRESSION_DICTIONARIES_LOADTIMEOUT"
                    + "=soon (");
            // named there only: neither as set without effect nor as unknown
            assertThat(warnings).noneMatch(r -> r.getMessage().contains("LOADTIMEOUT"));
            assertThat(unknownWarnings).noneMatch(r -> r.getMessage().contains("LOADTIMEOUT"));
        });
    }

    /**
     * A collection of enum constants with one that is not a constant is named with the constants allowed, as a
     * property writes them, whether set as a list in one value or one index at a time (then with the element's value).
     */
    @Test
    void withCompressionOffAnUnknownLegacyFormatIsNamedWithTheFormatsAllowed() {
        String allowed = "not one of lettuce-gzip, lettuce-deflate, redisson-zstd, redisson-lz4";
        runner.withPropertyValues(P + "legacy-formats=lettuce-gzip,bogus").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(unboundWarnings).hasSize(1);
            assertThat(unboundWarnings.get(0).getMessage()).isEqualTo(unboundWarning(
                    P + "legacy-formats=lettuce-gzip,bogus (" + allowed + ")"));
        });
        unboundWarnings.clear();
        runner.withPropertyValues(P + "legacy-formats[0]=lettuce-gzip", P + "legacy-formats[1]=bogus").run(c -> {
            assertThat(c).hasNotFailed();
            assertThat(unboundWarnings).hasSize(1);
            assertThat(unboundWarnings.get(0).getMessage()).isEqualTo(unboundWarning(
                    P + "legacy-formats=bogus (" + allowed + ")")); // named as a list, as in the other warnings
        });
    }

    /** With compression on, a value that does not bind still fails startup naming it; the off warning is not given. */
    @Test
    void withCompressionOnAValueThatDoesNotBindStillFailsStartup() {
        runner.withPropertyValues(P + "enabled=true", P + "level=abc").run(c -> {
            assertThat(c).hasFailed();
            assertThat(c.getStartupFailure()).hasStackTraceContaining(P + "level");
            assertThat(unboundWarnings).isEmpty();
        });
    }
}
