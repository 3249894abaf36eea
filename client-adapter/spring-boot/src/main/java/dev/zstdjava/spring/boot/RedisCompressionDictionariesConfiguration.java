package dev.zstdjava.spring.boot;

import dev.zstdjava.spring.boot.RedisCompressionProperties.Dictionaries;
import dev.zstdjava.spring.boot.RedisCompressionProperties.DictionaryMode;
import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.DictionaryStore;
import dev.zstdjava.values.InMemoryDictionaryStore;
import dev.zstdjava.values.PatternDictionaries;
import dev.zstdjava.values.ServerDictionaryLayout;
import dev.zstdjava.values.ValueCompressor;
import dev.zstdjava.values.spring.SpringDictionaryStore;
import dev.zstdjava.zstd.ZstdDictionary;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.Conditional;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.Resource;
import org.springframework.core.type.AnnotatedTypeMetadata;
import org.springframework.util.unit.DataSize;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * The zstd dictionaries, when {@code zstd-java.redis.compression.dictionaries.mode} is not {@code off}: given from
 * resources, or managed/shared in the server through a {@link SpringDictionaryStore} over Boot's connection factory;
 * with adaptive compression (managed only), a lineage per key pattern ({@link PatternDictionaries}).
 * The store and the manager back off when the application defines its own, and so does the lineages' bean (also
 * for the application's own {@link AdaptiveCompressor}, its store then no misconfiguration); with
 * adaptive compression an application's own store fails startup, naming it (each pattern needs a store of its own:
 * the application gives them through its own {@link PatternDictionaries} bean).
 */
@Configuration(proxyBeanMethods = false)
class RedisCompressionDictionariesConfiguration {
    private static final String MODE = RedisCompressionProperties.PREFIX + ".dictionaries.mode";

    private static final String RESOURCES = "dictionaries.resources";
    private static final String LOAD_TIMEOUT = "dictionaries.load-timeout";
    private static final String REFRESH_INTERVAL = "dictionaries.refresh-interval";
    private static final String NOTIFICATIONS = "dictionaries.notifications";
    private static final String MAX_LOADED_BYTES = "dictionaries.max-loaded-bytes";
    private static final String RETRAIN_INTERVAL = "dictionaries.retrain-interval";
    private static final String DICTIONARY_SIZE = "dictionaries.dictionary-size";
    private static final String MIN_SAMPLES = "dictionaries.min-samples";
    private static final String MAX_DICTIONARY_SIZE = "dictionaries.store.max-dictionary-size";
    private static final String DICTIONARY_MEMORY = "adaptive.dictionary-memory";
    private static final String DICTIONARY_PATTERNS = "adaptive.dictionary-patterns";
    private static final String REOPEN_DELAY = "adaptive.dictionary-reopen-delay";

    /** The modes of {@link GivenMode}: the given dictionaries' manager reads its resources. */
    private static final Set<DictionaryMode> GIVEN_MODES = Collections.unmodifiableSet(EnumSet.of(
            DictionaryMode.GIVEN));

    /** The modes of {@link ServerMode}: the store and the manager over it read the server's settings. */
    private static final Set<DictionaryMode> SERVER_MODES = Collections.unmodifiableSet(EnumSet.of(
            DictionaryMode.MANAGED, DictionaryMode.SHARED));

    /** The modes of {@link ManagedMode}: a manager that trains, and the adaptive pattern lineages. */
    private static final Set<DictionaryMode> TRAINING_MODES = Collections.unmodifiableSet(EnumSet.of(
            DictionaryMode.MANAGED));

    /**
     * The dictionary modes in which the beans here read each property (relative to the prefix; the most specific
     * entry applies): those of the condition of the bean that reads it, or, for a manager's setting, the modes in
     * which {@link #settings} applies it, which it learns from here ({@link #reads}). Nothing under
     * {@code dictionaries} but the mode is read with {@code dictionaries.mode=off}: every bean here has a mode's
     * condition. The one statement of it; {@link InertProperties} warns about a property set in another mode.
     */
    static final Map<String, Set<DictionaryMode>> MODES_READING = Map.ofEntries(
            Map.entry("dictionaries", Collections.unmodifiableSet(EnumSet.complementOf(
                    EnumSet.of(DictionaryMode.OFF)))),
            Map.entry("dictionaries.mode", Collections.unmodifiableSet(EnumSet.allOf(DictionaryMode.class))),
            Map.entry(RESOURCES, GIVEN_MODES),
            // a given manager has no store: nothing to load, check or subscribe to
            Map.entry(LOAD_TIMEOUT, SERVER_MODES),
            Map.entry(REFRESH_INTERVAL, SERVER_MODES),
            Map.entry(NOTIFICATIONS, SERVER_MODES),
            Map.entry(MAX_LOADED_BYTES, SERVER_MODES), // what a store lists; a given manager loads each it is given
            Map.entry("dictionaries.store", SERVER_MODES),
            // a shared manager never trains
            Map.entry(RETRAIN_INTERVAL, TRAINING_MODES),
            Map.entry(DICTIONARY_SIZE, TRAINING_MODES),
            Map.entry(MIN_SAMPLES, TRAINING_MODES),
            // the pattern lineages' bounds (zstdJavaPatternDictionaries, under ManagedMode)
            Map.entry(DICTIONARY_MEMORY, TRAINING_MODES),
            Map.entry(DICTIONARY_PATTERNS, TRAINING_MODES),
            Map.entry(REOPEN_DELAY, TRAINING_MODES));

    /** @return whether the beans here read {@code property} (relative to the prefix) in {@code mode} */
    static boolean reads(DictionaryMode mode, String property) {
        Set<DictionaryMode> modes = modesReading(ConfigurationPropertyName.of(RedisCompressionProperties.PREFIX + "."
                + property));
        return modes == null || modes.contains(mode);
    }

    /**
     * @return the modes in which the beans here read {@code name} (a full property name, in any form Spring maps),
     *         by its most specific entry of {@link #MODES_READING}; null when no dictionary mode governs it
     */
    static Set<DictionaryMode> modesReading(ConfigurationPropertyName name) {
        Set<DictionaryMode> modes = null;
        int depth = 0;
        for (Map.Entry<String, Set<DictionaryMode>> e : MODES_READING.entrySet()) {
            ConfigurationPropertyName k = ConfigurationPropertyName.of(RedisCompressionProperties.PREFIX + "."
                    + e.getKey());
            if ((k.equals(name) || k.isAncestorOf(name)) && k.getNumberOfElements() > depth) {
                depth = k.getNumberOfElements();
                modes = e.getValue();
            }
        }
        return modes;
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional(GivenMode.class)
    static class Given {
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBooleanProperty(name = ADAPTIVE, havingValue = false, matchIfMissing = true)
        DictionaryManager zstdJavaDictionaryManager(RedisCompressionProperties properties) {
            Dictionaries d = properties.getDictionaries();
            if (d.getResources() == null || d.getResources().isEmpty()) {
                throw RedisCompressionProperties.invalid(RESOURCES, "[]",
                        "at least one zstd dictionary file when " + MODE + "=given");
            }
            List<byte[]> dictionaries = new ArrayList<>();
            for (Resource r : d.getResources()) {
                try {
                    dictionaries.add(r.getContentAsByteArray());
                } catch (IOException e) {
                    throw new RedisCompressionException("cannot read " + r + " of " + RedisCompressionProperties.PREFIX
                            + "." + RESOURCES + ": " + e.getMessage(), "name readable zstd dictionary files", e);
                }
            }
            return build(DictionaryManager.given(dictionaries), properties);
        }
    }

    @Configuration(proxyBeanMethods = false)
    @Conditional(ServerMode.class)
    static class Server {
        /**
         * The one store of the fixed mode's manager. Not made with adaptive compression: each pattern's lineage has
         * a store of its own there ({@link #zstdJavaPatternDictionaries}).
         */
        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBooleanProperty(name = ADAPTIVE, havingValue = false, matchIfMissing = true)
        DictionaryStore zstdJavaDictionaryStore(RedisConnectionFactory redisConnectionFactory,
                                                RedisCompressionProperties properties) {
            RedisCompressionProperties.Store s = properties.getDictionaries().getStore();
            int max = maxDictionarySize(properties);
            try {
                return new SpringDictionaryStore(redisConnectionFactory, s.getKeyPrefix(), max);
            } catch (IllegalArgumentException | NullPointerException e) {
                throw RedisCompressionProperties.invalid("dictionaries.store.key-prefix", s.getKeyPrefix(),
                        "a prefix with exactly one non-empty hash tag, such as " + ServerDictionaryLayout.DEFAULT_PREFIX);
            }
        }

        @Bean
        @ConditionalOnMissingBean
        @ConditionalOnBooleanProperty(name = ADAPTIVE, havingValue = false, matchIfMissing = true)
        DictionaryManager zstdJavaDictionaryManager(DictionaryStore store, RedisCompressionProperties properties) {
            DictionaryMode mode = properties.getDictionaries().getMode();
            return build(mode == DictionaryMode.MANAGED ? DictionaryManager.managed(store)
                    : DictionaryManager.shared(store), properties);
        }

        /**
         * With adaptive compression, a managed lineage per key pattern instead of one manager: each in the server
         * under its own prefix ({@link PatternDictionaries#prefix}), with the {@code dictionaries.*} settings.
         *
         * @throws RedisCompressionException naming the bean when the application defines a {@link DictionaryStore}:
         *                                   a store holds one lineage's dictionaries, so it cannot serve every
         *                                   pattern, and it would go unused
         */
        @Bean
        // not for an application's own AdaptiveCompressor, which would leave it unused
        @ConditionalOnMissingBean({PatternDictionaries.class, AdaptiveCompressor.class})
        @ConditionalOnBooleanProperty(ADAPTIVE)
        @Conditional(ManagedMode.class) // adaptive with shared: the adaptive compressor's bean refuses it by name
        PatternDictionaries zstdJavaPatternDictionaries(RedisConnectionFactory redisConnectionFactory,
                                                        RedisCompressionProperties properties,
                                                        ListableBeanFactory beans) {
            String[] stores = beans.getBeanNamesForType(DictionaryStore.class, true, false);
            if (stores.length > 0) {
                throw new RedisCompressionException("the application's DictionaryStore bean"
                        + (stores.length == 1 ? " '" : "s '") + String.join("', '", stores) + "' would not be used:"
                        + " with " + ADAPTIVE + "=true and " + MODE + "=managed each key pattern keeps its"
                        + " dictionaries in a store of its own (in the server under "
                        + PatternDictionaries.prefix("<pattern>") + "), and a store holds one lineage's dictionaries",
                        "remove the bean (each pattern's store is then made over Boot's RedisConnectionFactory), or"
                                + " define a PatternDictionaries bean that gives each lineage its own store"
                                + " (PatternDictionaries.builder(name -> a store for name)), or set " + ADAPTIVE
                                + "=false for one dictionary lineage in the bean", null);
            }
            RedisCompressionProperties.Store s = properties.getDictionaries().getStore();
            if (!ServerDictionaryLayout.DEFAULT_PREFIX.equals(s.getKeyPrefix())) {
                throw RedisCompressionProperties.invalid("dictionaries.store.key-prefix", s.getKeyPrefix(),
                        ServerDictionaryLayout.DEFAULT_PREFIX + " (unset) while adaptive compression is on: each key"
                                + " pattern keeps its dictionaries under its own prefix, "
                                + PatternDictionaries.prefix("<pattern>"));
            }
            int max = maxDictionarySize(properties);
            // the settings fail startup here, not when a pattern's lineage opens later
            build(DictionaryManager.managed(new InMemoryDictionaryStore()), properties).close();
            PatternDictionaries.Builder b = PatternDictionaries.builder(name -> new SpringDictionaryStore(
                    redisConnectionFactory, PatternDictionaries.prefix(name), max)).manager(m -> settings(m, properties));
            RedisCompressionProperties.Adaptive a = properties.getAdaptive();
            bound(DICTIONARY_MEMORY, a.getDictionaryMemory(),
                    () -> b.maxNativeBytes(a.getDictionaryMemory().toBytes()));
            bound(DICTIONARY_PATTERNS, a.getDictionaryPatterns(),
                    () -> b.maxOpenLineages(a.getDictionaryPatterns()));
            bound(REOPEN_DELAY, a.getDictionaryReopenDelay(),
                    () -> b.reopenDelay(a.getDictionaryReopenDelay()));
            return b.build();
        }

        /**
         * Closes the dictionaries made here (the manager, or the pattern lineages) before Boot's connection factory
         * stops. The factory is a {@link SmartLifecycle}, stopped when the context closes before any bean is
         * destroyed: closed at their destruction, the dictionaries would stop their announcement listener over a
         * factory already stopped (Lettuce: "Unable to unsubscribe from subscriptions" and "unreleased connections"
         * warnings on every close) and their background loads could still use it. Stopped in the phase above the
         * factory's, so just before it (the factory's phase is 0 unless set). An application's own manager is left
         * to the application; without a single factory (the application's own store, manager and templates) it
         * stops in the default phase.
         */
        @Bean
        SmartLifecycle zstdJavaDictionariesLifecycle(ObjectProvider<RedisConnectionFactory> factories,
                                                     ConfigurableListableBeanFactory beans) {
            int phase = factories.getIfUnique() instanceof SmartLifecycle s ? s.getPhase()
                    : SmartLifecycle.DEFAULT_PHASE;
            return new CloseBeforeFactory(beans, phase == Integer.MAX_VALUE ? phase : phase + 1);
        }

        /** Applies one bound of {@link PatternDictionaries}; its refusal fails startup naming {@code property}. */
        private static void bound(String property, Object value, Runnable apply) {
            if (value == null) {
                throw RedisCompressionProperties.invalid(property, null, "a value (unset: the default)");
            }
            try {
                apply.run();
            } catch (IllegalArgumentException e) {
                throw RedisCompressionProperties.invalid(property, value, e.getMessage());
            }
        }
    }

    /**
     * @return the bounds on loaded dictionaries that the properties set on the dictionaries {@code compressor} (or
     *         {@code adaptive}, when not null) uses, for the info entry ({@link CompressionInfoContributor}), in bytes:
     *         {@code dictionaries.max-loaded-bytes} when the mode reads it and the manager (adaptive: the pattern
     *         lineages) was made here, and with adaptive compression the lineages' own bound on them all,
     *         {@code adaptive.dictionary-memory} as they hold it; empty when none applies (no dictionaries, the
     *         application's own, a manager not made yet, which this does not make, or definitions generated ahead
     *         of time)
     */
    static Map<String, Long> bounds(ValueCompressor compressor, AdaptiveCompressor adaptive,
                                    RedisCompressionProperties properties, ConfigurableListableBeanFactory beans) {
        if (properties == null || !reads(properties.getDictionaries().getMode(), MAX_LOADED_BYTES)) {
            return Map.of();
        }
        DataSize set = properties.getDictionaries().getMaxLoadedBytes();
        long maxLoaded = set == null ? DictionaryManager.DEFAULT_MAX_LOADED_BYTES : set.toBytes(); // unset: not applied
        if (adaptive == null) {
            return compressor.dictionaries() != null && existing(beans, MANAGER) == compressor.dictionaries()
                    && madeHere(beans, MANAGER)
                    ? Map.of(CompressionInfoContributor.MAX_LOADED_BYTES, maxLoaded) : Map.of();
        }
        // made here only for the adaptive compressor made here, which then writes with them
        return existing(beans, PATTERNS) instanceof PatternDictionaries lineages && madeHere(beans, PATTERNS)
                ? Map.of(CompressionInfoContributor.MAX_LOADED_BYTES, maxLoaded,
                CompressionInfoContributor.DICTIONARY_MEMORY, lineages.maxNativeBytes()) : Map.of();
    }

    /**
     * @return the singleton {@code name} if it was already made, else null: never made here (a lazy manager nobody
     *         uses is not started to be reported on)
     */
    private static Object existing(ConfigurableListableBeanFactory beans, String name) {
        return beans.containsSingleton(name) ? beans.getSingleton(name) : null;
    }

    /**
     * @return whether the bean {@code name} is one this configuration made (not the application's, of that name), as
     *         its annotated definition says (an ahead-of-time generated definition is not one: false)
     */
    private static boolean madeHere(ConfigurableListableBeanFactory beans, String name) {
        return beans.containsBeanDefinition(name)
                && beans.getBeanDefinition(name) instanceof AnnotatedBeanDefinition d
                && d.getFactoryMethodMetadata() != null
                && d.getFactoryMethodMetadata().getDeclaringClassName().startsWith(
                RedisCompressionDictionariesConfiguration.class.getName() + "$");
    }

    /** The names of the beans {@link Server.CloseBeforeFactory} closes: the dictionaries made here. */
    static final String MANAGER = "zstdJavaDictionaryManager";
    static final String PATTERNS = "zstdJavaPatternDictionaries";

    /** The name of the {@link DictionaryStore} bean made here (the method's). */
    static final String STORE = "zstdJavaDictionaryStore";

    /**
     * Closes the dictionary beans made here, when created, as the context stops ({@link Server#zstdJavaDictionariesLifecycle}).
     * Closing is idempotent: their destruction closes them again. Not thread-safe beyond Spring's lifecycle calls.
     */
    static final class CloseBeforeFactory implements SmartLifecycle {
        private final ConfigurableListableBeanFactory beans;
        private final int phase;
        private volatile boolean running;

        CloseBeforeFactory(ConfigurableListableBeanFactory beans, int phase) {
            this.beans = beans;
            this.phase = phase;
        }

        @Override
        public void start() {
            running = true;
        }

        @Override
        public void stop() {
            running = false;
            for (String name : new String[] {MANAGER, PATTERNS}) {
                // only what was made (never a lazy bean made now), and only the beans of this configuration
                if (beans.containsSingleton(name) && beans.getSingleton(name) instanceof AutoCloseable c
                        && (c instanceof DictionaryManager || c instanceof PatternDictionaries)) {
                    try {
                        c.close();
                    } catch (Exception e) {
                        throw new IllegalStateException("closing " + name + " failed: " + e, e);
                    }
                }
            }
        }

        @Override
        public boolean isRunning() {
            return running;
        }

        @Override
        public int getPhase() {
            return phase;
        }
    }

    private static final String ADAPTIVE = RedisCompressionProperties.PREFIX + ".adaptive.enabled";

    /**
     * @return {@code dictionaries.store.max-dictionary-size} in bytes, the bound of the store and of the manager
     * @throws RedisCompressionException naming the property when it is out of range
     */
    private static int maxDictionarySize(RedisCompressionProperties properties) {
        DataSize size = properties.getDictionaries().getStore().getMaxDictionarySize();
        long max = size == null ? -1 : size.toBytes();
        long least = ServerDictionaryLayout.MIN_MAX_DICTIONARY_SIZE;
        long most = DictionaryManager.MAX_DICTIONARY_SIZE_LIMIT;
        if (max < least || max > most) {
            throw RedisCompressionProperties.invalid(MAX_DICTIONARY_SIZE, size,
                    least + "B.." + most + "B");
        }
        return (int) max;
    }

    /**
     * @throws RedisCompressionException naming the {@code dictionaries.*} property the manager refuses: when the
     *                                   settings together are refused, each is tried alone to find the one at fault
     *                                   (the ranges are the manager's)
     */
    private static DictionaryManager build(DictionaryManager.Builder b, RedisCompressionProperties properties) {
        settings(b, properties);
        try {
            return b.build();
        } catch (IllegalArgumentException e) {
            for (Setting s : named(properties)) {
                try {
                    s.apply.apply(DictionaryManager.managed(new InMemoryDictionaryStore())).build().close();
                } catch (IllegalArgumentException alone) {
                    throw RedisCompressionProperties.invalid(s.property, s.value, alone.getMessage());
                }
            }
            throw new RedisCompressionException("invalid " + RedisCompressionProperties.PREFIX + ".dictionaries"
                    + " settings: " + e.getMessage(), "correct the " + RedisCompressionProperties.PREFIX
                    + ".dictionaries property named", e);
        }
    }

    /** A {@code dictionaries.*} property, its value, and how it is applied to a manager's builder. */
    private record Setting(String property, Object value, UnaryOperator<DictionaryManager.Builder> apply) {
    }

    /** Applies the {@code dictionaries.*} settings to {@code b}. */
    private static DictionaryManager.Builder settings(DictionaryManager.Builder b,
                                                      RedisCompressionProperties properties) {
        Dictionaries d = properties.getDictionaries();
        b.level(properties.toConfig().level());
        if (reads(d.getMode(), NOTIFICATIONS)) {
            b.notifications(d.isNotifications());
        }
        if (reads(d.getMode(), MAX_DICTIONARY_SIZE)) {
            b.maxDictionarySize(maxDictionarySize(properties)); // the manager refuses what the store would take
        }
        if (d.getMode() == DictionaryMode.SHARED) {
            // it never trains: dictionary-size, a managed setting, is not held to the bound
            b.dictionarySize(ZstdDictionary.MIN_CAPACITY);
        }
        for (Setting s : named(properties)) {
            s.apply.apply(b);
        }
        return b;
    }

    /**
     * @return the settings of the {@code dictionaries.*} properties the mode reads ({@link #MODES_READING}), each
     *         under its property
     */
    private static List<Setting> named(RedisCompressionProperties properties) {
        Dictionaries d = properties.getDictionaries();
        List<Setting> settings = new ArrayList<>();
        add(settings, d, LOAD_TIMEOUT, d.getLoadTimeout(), b -> b.loadTimeout(d.getLoadTimeout()));
        add(settings, d, REFRESH_INTERVAL, d.getRefreshInterval(), b -> b.refreshInterval(d.getRefreshInterval()));
        add(settings, d, MAX_LOADED_BYTES, d.getMaxLoadedBytes(),
                b -> b.maxLoadedBytes(d.getMaxLoadedBytes().toBytes()));
        add(settings, d, RETRAIN_INTERVAL, d.getRetrainInterval(), b -> b.retrainInterval(d.getRetrainInterval()));
        // held to the store's bound, dictionaries.store.max-dictionary-size (checked on its own before)
        add(settings, d, DICTIONARY_SIZE, d.getDictionarySize(), b -> b.maxDictionarySize(maxDictionarySize(properties))
                .dictionarySize((int) Math.min(Integer.MAX_VALUE, d.getDictionarySize().toBytes())));
        add(settings, d, MIN_SAMPLES, d.getMinSamples(), b -> b.minSamples(d.getMinSamples()));
        return settings;
    }

    /** Adds the setting of {@code property} when it has a value and the mode reads it. */
    private static void add(List<Setting> settings, Dictionaries d, String property, Object value,
                            UnaryOperator<DictionaryManager.Builder> apply) {
        if (value != null && reads(d.getMode(), property)) {
            settings.add(new Setting(property, value, apply));
        }
    }

    /** Matches when the bound dictionary mode is one of the given ones (relaxed: {@code managed}, {@code MANAGED}). */
    abstract static class ModeCondition extends SpringBootCondition {
        private final EnumSet<DictionaryMode> modes;

        ModeCondition(Set<DictionaryMode> modes) {
            this.modes = EnumSet.copyOf(modes);
        }

        @Override
        public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
            DictionaryMode mode = Binder.get(context.getEnvironment()).bind(MODE, DictionaryMode.class)
                    .orElse(DictionaryMode.OFF);
            return modes.contains(mode) ? ConditionOutcome.match(MODE + " is " + mode)
                    : ConditionOutcome.noMatch(MODE + " is " + mode + ", not one of " + modes);
        }
    }

    static final class GivenMode extends ModeCondition {
        GivenMode() {
            super(GIVEN_MODES);
        }
    }

    static final class ManagedMode extends ModeCondition {
        ManagedMode() {
            super(TRAINING_MODES);
        }
    }

    static final class ServerMode extends ModeCondition {
        ServerMode() {
            super(SERVER_MODES);
        }
    }
}
