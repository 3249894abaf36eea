package dev.zstdjava.spring.boot;

import dev.zstdjava.values.AdaptiveCompressor;
import dev.zstdjava.values.DictionaryManager;
import dev.zstdjava.values.DictionaryStore;
import dev.zstdjava.values.PatternDictionaries;
import dev.zstdjava.values.ValueCompressor;
import org.springframework.beans.factory.ObjectFactory;
import org.springframework.beans.factory.annotation.AnnotatedBeanDefinition;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.RootBeanDefinition;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport.ConditionAndOutcome;
import org.springframework.boot.autoconfigure.condition.ConditionEvaluationReport.ConditionAndOutcomes;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.cache.CacheManager;
import org.springframework.core.ResolvableType;
import org.springframework.core.env.Environment;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Method;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

/**
 * The properties an application sets (in any property source, not their defaults) that have no effect because the
 * application defines a bean of its own in place of the one of this auto-configuration that reads them, warned about
 * in one line at startup, naming each such bean and its type. Startup does not fail: the application's bean is what it
 * chose. Which bean reads which properties is stated here, once ({@link #BEANS}); whether a bean backed off for one of
 * the application's is Boot's own record of the bean's {@code @ConditionalOnMissingBean}
 * ({@link ConditionEvaluationReport}), so a bean left out for another reason (a switch, a dictionary mode: those
 * {@link InertProperties} names) draws nothing here.
 *
 * <p>A read through {@code @Value}, the {@link Environment}, a {@code Binder}, the application's own
 * {@code @ConfigurationProperties} on the prefix, or an {@code ObjectProvider} injected into a constructor or a field
 * leaves no trace in the bean factory, so a bean reading the properties only those ways is named although it reads
 * them (a warning too many; startup is never affected). Where a path to the properties is visible, this stays silent:
 * an application's bean is not named when it, or a bean it
 * depends on (transitively: the dependencies Spring recorded, and the bean whose method made each), is a bean that
 * carries the row's properties ({@link Bean#carriers}: the properties bean, or none for the {@code string-template}
 * and {@code caches} switches) or was made by a method taking one or an {@code ObjectProvider} of one; nor when one of
 * those beans is not created yet (lazy, or of another scope: nothing is recorded for it) or the walk goes past
 * {@value #MAX_DEPENDENCIES} beans. Beans made here end the walk, exempting nothing. Not given for bean definitions
 * generated ahead of time, for which Boot records no condition. Failures are logged at {@code DEBUG}, never thrown.
 *
 * <p>Stateless.
 */
final class OwnBeanProperties {
    private static final System.Logger LOG = System.getLogger(InertProperties.class.getName()); // the same warnings

    private static final String CONFIG = RedisCompressionAutoConfiguration.class.getName() + "#";
    private static final String GIVEN = RedisCompressionDictionariesConfiguration.Given.class.getName() + "#";
    private static final String SERVER = RedisCompressionDictionariesConfiguration.Server.class.getName() + "#";

    /** The compression configuration's properties ({@link RedisCompressionProperties#toConfig()}), but the level. */
    private static final List<String> CONFIG_BUT_LEVEL = List.of("min-size", "max-decompressed-size", "hash-values",
            "legacy-formats");

    /** The settings of a dictionary manager made here (the store's aside), as {@code settings} applies them. */
    private static final List<String> MANAGER_SETTINGS = List.of("dictionaries.resources",
            "dictionaries.load-timeout", "dictionaries.refresh-interval", "dictionaries.notifications",
            "dictionaries.max-loaded-bytes", "dictionaries.retrain-interval", "dictionaries.dictionary-size",
            "dictionaries.min-samples");

    /**
     * A bean of this module that backs off when the application defines one of {@code types}: the condition's source
     * in Boot's report ({@code class#method}, or a class), what it is, and the properties (relative to the prefix;
     * one names those under it) only it reads, but {@code except}, and the types of the beans that carry those
     * properties (the properties bean; otherwise beans made here), through which an application's bean may read them.
     */
    record Bean(String source, List<Class<?>> types, String what, List<String> reads, List<String> except,
                List<Class<?>> carriers) {
        boolean reads(ConfigurationPropertyName name) {
            return covers(reads, name) && !covers(except, name);
        }

        private static boolean covers(List<String> properties, ConfigurationPropertyName name) {
            return properties.stream().map(p -> ConfigurationPropertyName.of(RedisCompressionProperties.PREFIX + "."
                    + p)).anyMatch(p -> p.equals(name) || p.isAncestorOf(name));
        }
    }

    private static List<String> concat(List<String> a, List<String> b) {
        List<String> all = new ArrayList<>(a);
        all.addAll(b);
        return List.copyOf(all);
    }

    /** The carriers of the settings a bean made here reads from the properties bean. */
    private static final List<Class<?>> VIA_PROPERTIES = List.of(RedisCompressionProperties.class);

    /**
     * The one statement of which of this module's beans reads which properties, by the beans' conditions; in order: a
     * property several beans read is named under the first whose place the application's bean took.
     */
    static final List<Bean> BEANS = List.of(
            // adaptive.enabled=true: the ValueCompressor bean is the application's compressor's reader, and no
            // dictionary bean is made here (the pattern lineages back off too); backend and level are named as
            // inert under adaptive compression already
            new Bean(CONFIG + RedisCompressionAutoConfiguration.ADAPTIVE_COMPRESSOR, List.of(AdaptiveCompressor.class),
                    "the auto-configuration's AdaptiveCompressor, which the templates and caches would write through",
                    concat(CONFIG_BUT_LEVEL, List.of("adaptive", "dictionaries")),
                    List.of("adaptive.enabled"), VIA_PROPERTIES),
            new Bean(SERVER + RedisCompressionDictionariesConfiguration.PATTERNS, List.of(PatternDictionaries.class,
                    AdaptiveCompressor.class), "the auto-configuration's pattern dictionary lineages",
                    List.of("adaptive.dictionary-memory", "adaptive.dictionary-patterns",
                            "adaptive.dictionary-reopen-delay", "dictionaries"), List.of("dictionaries.mode"),
                    VIA_PROPERTIES),
            new Bean(CONFIG + RedisCompressionAutoConfiguration.VALUE_COMPRESSOR, List.of(ValueCompressor.class),
                    "the auto-configuration's ValueCompressor, which the templates and caches would write through",
                    concat(List.of("backend", "level"), CONFIG_BUT_LEVEL), List.of(), VIA_PROPERTIES),
            // the store made here stays, and may serve the application's manager
            new Bean(GIVEN + RedisCompressionDictionariesConfiguration.MANAGER, List.of(DictionaryManager.class),
                    "the auto-configuration's DictionaryManager", MANAGER_SETTINGS, List.of(),
                    VIA_PROPERTIES),
            new Bean(SERVER + RedisCompressionDictionariesConfiguration.MANAGER, List.of(DictionaryManager.class),
                    "the auto-configuration's DictionaryManager", MANAGER_SETTINGS, List.of(),
                    VIA_PROPERTIES),
            // max-dictionary-size bounds the manager made here too
            new Bean(SERVER + RedisCompressionDictionariesConfiguration.STORE, List.of(DictionaryStore.class),
                    "the auto-configuration's DictionaryStore", List.of("dictionaries.store.key-prefix"), List.of(),
                    VIA_PROPERTIES),
            new Bean(CONFIG + RedisCompressionAutoConfiguration.STRING_TEMPLATE, List.of(StringRedisTemplate.class),
                    "the auto-configuration's compressing stringRedisTemplate", List.of("string-template"), List.of(),
                    List.of()),
            new Bean(RedisCompressionCacheAutoConfiguration.class.getName(), List.of(CacheManager.class),
                    "Boot's RedisCacheManager, whose caches the auto-configuration compresses", List.of("caches"),
                    List.of(), List.of()));

    private OwnBeanProperties() {
    }

    /**
     * @return the properties set in {@code environment} that have no effect because of the application's own beans,
     *         each group (sorted names) mapped to why, in the order of {@link #BEANS} (empty: none); a property
     *         {@link InertProperties} names is not named here
     */
    static Map<Set<String>, String> find(Environment environment, ConfigurableListableBeanFactory beans) {
        InertProperties.Bound bound = InertProperties.bind(environment);
        if (bound == null || bound.set().stream().noneMatch(p -> BEANS.stream().anyMatch(b -> b.reads(p.name())))) {
            return Map.of(); // nothing this could name: the report is not looked at
        }
        ConditionEvaluationReport report = ConditionEvaluationReport.find(beans);
        if (report == null) {
            return Map.of();
        }
        Set<String> named = new HashSet<>();
        InertProperties.find(environment).values().forEach(named::addAll); // named as inert by a switch instead
        Map<String, ConditionAndOutcomes> outcomes = report.getConditionAndOutcomesBySource();
        Map<Set<String>, String> inert = new java.util.LinkedHashMap<>();
        for (Bean bean : BEANS) {
            if (!backedOffForABean(outcomes.get(bean.source()))) {
                continue;
            }
            Set<String> set = new TreeSet<>();
            for (InertProperties.SetProperty p : bound.set()) {
                if (bean.reads(p.name()) && !named.contains(p.asSet())) {
                    set.add(p.asSet());
                }
            }
            List<String> own = applications(bean, beans);
            if (set.isEmpty() || own.isEmpty()) {
                continue;
            }
            named.addAll(set);
            inert.put(set, "the application's " + String.join(", ", own) + " in place of " + bean.what());
        }
        return inert;
    }

    /** @return whether Boot recorded that the bean's {@code @ConditionalOnMissingBean} found a bean */
    private static boolean backedOffForABean(ConditionAndOutcomes outcomes) {
        if (outcomes == null) {
            return false;
        }
        for (ConditionAndOutcome o : outcomes) {
            if (!o.getOutcome().isMatch() && o.getOutcome().getMessage() != null
                    && o.getOutcome().getMessage().startsWith("@ConditionalOnMissingBean")) {
                return true;
            }
        }
        return false;
    }

    /** How many beans {@link #mayRead} looks at from one of the application's before it calls the answer unknown. */
    private static final int MAX_DEPENDENCIES = 256;

    /**
     * @return the application's beans of {@code bean}'s types, each as {@code 'name' (Type)}: not made here, created,
     *         and not reaching a carrier of {@code bean}'s properties through their dependencies ({@link #mayRead})
     */
    private static List<String> applications(Bean bean, ConfigurableListableBeanFactory beans) {
        Set<String> names = new LinkedHashSet<>();
        bean.types().forEach(t -> names.addAll(Arrays.asList(beans.getBeanNamesForType(t, true, false))));
        Set<String> carriers = new HashSet<>();
        for (Class<?> c : bean.carriers()) {
            Arrays.stream(beans.getBeanNamesForType(c, true, false))
                    .filter(n -> c == RedisCompressionProperties.class || madeHere(beans, n)).forEach(carriers::add);
        }
        List<String> own = new ArrayList<>();
        for (String name : names) {
            if (madeHere(beans, name) || mayRead(beans, name, carriers, bean.carriers())) {
                continue;
            }
            Class<?> type = beans.getType(name, false);
            own.add("'" + name + "'" + (type == null ? "" : " (" + ClassUtils.getUserClass(type).getName() + ")"));
        }
        return own;
    }

    /**
     * @return false only when the bean {@code name} is known not to reach a carrier (the beans {@code carriers}, of
     *         the {@code types}): it and every bean it depends on, transitively (those Spring recorded, and the bean
     *         whose method made each), were created as singletons, none is a carrier, and none was made by a method
     *         taking one; beans made here end the walk. True (unknown) for a bean not created yet (lazy, another
     *         scope) or past {@link #MAX_DEPENDENCIES}
     */
    private static boolean mayRead(ConfigurableListableBeanFactory beans, String name, Set<String> carriers,
                                   List<Class<?>> types) {
        Set<String> visited = new HashSet<>();
        ArrayDeque<String> next = new ArrayDeque<>(List.of(name));
        while (!next.isEmpty()) {
            String n = next.poll();
            if (!visited.add(n)) {
                continue;
            }
            if (carriers.contains(n)) {
                return true;
            }
            if (!n.equals(name) && madeHere(beans, n)) {
                continue;
            }
            if (visited.size() > MAX_DEPENDENCIES || !beans.containsSingleton(n)) {
                return true;
            }
            next.addAll(Arrays.asList(beans.getDependenciesForBean(n)));
            if (beans.containsBeanDefinition(n)) {
                BeanDefinition d = beans.getMergedBeanDefinition(n);
                if (d.getFactoryBeanName() != null) {
                    next.add(d.getFactoryBeanName());
                }
                if (d instanceof RootBeanDefinition r && takes(r.getResolvedFactoryMethod(), types)) {
                    return true;
                }
            }
        }
        return false;
    }

    /**
     * @return whether {@code method} takes a bean of one of {@code types}, or a provider of one (Spring records no
     *         dependency on what a provider gives)
     */
    private static boolean takes(Method method, List<Class<?>> types) {
        if (method == null) {
            return false;
        }
        for (int i = 0; i < method.getParameterCount(); i++) {
            ResolvableType t = ResolvableType.forMethodParameter(method, i);
            Class<?> taken = ObjectFactory.class.isAssignableFrom(t.toClass())
                    ? t.as(ObjectFactory.class).getGeneric(0).toClass() : t.toClass();
            if (types.stream().anyMatch(c -> c.isAssignableFrom(taken))) {
                return true;
            }
        }
        return false;
    }

    /** The configurations of this module that define beans, by name (some need optional classes). */
    private static final List<String> CONFIGURATIONS = List.of(RedisCompressionAutoConfiguration.class.getName(),
            RedisCompressionDictionariesConfiguration.class.getName(),
            "dev.zstdjava.spring.boot.RedisCompressionMetricsAutoConfiguration",
            "dev.zstdjava.spring.boot.RedisCompressionInfoAutoConfiguration", "dev.zstdjava.spring.boot.Boot4Caches",
            "dev.zstdjava.spring.boot.Boot3Caches");

    /**
     * @return whether the bean {@code name} was defined by this module's configurations (by its factory method's
     *         class, or the class it is nested in)
     */
    private static boolean madeHere(ConfigurableListableBeanFactory beans, String name) {
        if (!beans.containsBeanDefinition(name)
                || !(beans.getBeanDefinition(name) instanceof AnnotatedBeanDefinition d)
                || d.getFactoryMethodMetadata() == null) {
            return false;
        }
        String declaring = d.getFactoryMethodMetadata().getDeclaringClassName();
        return CONFIGURATIONS.stream().anyMatch(c -> declaring.equals(c) || declaring.startsWith(c + "$"));
    }

    /**
     * Logs one warning naming every property {@link #find} finds, if any. Never fails the context: a failure to find
     * them is logged at {@code DEBUG} instead.
     */
    static void warn(Environment environment, ConfigurableListableBeanFactory beans) {
        Map<Set<String>, String> inert;
        try {
            inert = find(environment, beans);
        } catch (RuntimeException e) {
            LOG.log(System.Logger.Level.DEBUG, "zstd-java: could not tell which properties the application's own"
                    + " beans leave without effect", e);
            return;
        }
        if (inert.isEmpty()) {
            return;
        }
        LOG.log(System.Logger.Level.WARNING, "zstd-java: properties set without effect, for the application's own"
                + " beans: " + inert.entrySet().stream().map(e -> String.join(", ", e.getKey()) + " ("
                + e.getValue() + ")").collect(Collectors.joining("; "))
                + "; configure those beans accordingly, or remove them to have the properties applied");
    }
}
