package dev.zstdjava.spring.boot;

import org.springframework.data.redis.cache.RedisCacheManager.RedisCacheManagerBuilder;
import org.springframework.util.ClassUtils;

import java.lang.reflect.Proxy;
import java.util.function.Consumer;

/**
 * Test helper: Boot's own auto-configurations and cache customizer type of the generation these tests run on (Boot
 * 3.5 or 4.x), by the names the auto-configurations order themselves by ({@link BootLines}), so that one test source
 * runs on every supported line.
 */
final class BootLine {
    private BootLine() {}

    /** Whether this is Boot 3.5 (Redis, caching and metrics in spring-boot-autoconfigure and actuator-autoconfigure). */
    static final boolean BOOT3 = ClassUtils.isPresent(BootLines.BOOT3_DATA_REDIS, null);

    /** Boot's Redis auto-configuration ({@code DataRedisAutoConfiguration}, Boot 3.5's {@code RedisAutoConfiguration}). */
    static Class<?> redis() {
        return load(BOOT3 ? BootLines.BOOT3_DATA_REDIS : BootLines.BOOT4_DATA_REDIS);
    }

    /**
     * The auto-configuration of Redisson's Spring Boot starter for this generation (the starter must be on the class
     * path: {@link RedissonStarterTest}'s run).
     */
    static Class<?> redissonStarter() {
        return load(BOOT3 ? BootLines.REDISSON_BOOT3 : BootLines.REDISSON_BOOT4);
    }

    static Class<?> cache() {
        return load(BOOT3 ? BootLines.BOOT3_CACHE : BootLines.BOOT4_CACHE);
    }

    static Class<?> metrics() {
        return load(BOOT3 ? BootLines.BOOT3_METRICS : BootLines.BOOT4_METRICS);
    }

    /** Boot's JVM meters: {@code MeterBinder} beans, which Boot's metrics auto-configuration binds to its registries. */
    static Class<?> jvmMetrics() {
        return load(BOOT3 ? "org.springframework.boot.actuate.autoconfigure.metrics.JvmMetricsAutoConfiguration"
                : "org.springframework.boot.micrometer.metrics.autoconfigure.jvm.JvmMetricsAutoConfiguration");
    }

    /** Boot's cache meters: bound by a registrar of their own, to the {@code MeterRegistry} bean. */
    static Class<?> cacheMetrics() {
        return load(BOOT3 ? "org.springframework.boot.actuate.autoconfigure.metrics.cache.CacheMetricsAutoConfiguration"
                : "org.springframework.boot.cache.autoconfigure.metrics.CacheMetricsAutoConfiguration");
    }

    /** Boot's metrics auto-configuration with the composite and the simple registry's. */
    static Class<?>[] metricsWithRegistries() {
        return BOOT3 ? new Class<?>[] {metrics(), load(BootLines.BOOT3_COMPOSITE_REGISTRY),
                load(BootLines.BOOT3_SIMPLE_REGISTRY)}
                : new Class<?>[] {metrics(), load(BootLines.BOOT4_COMPOSITE_REGISTRY),
                load(BootLines.BOOT4_SIMPLE_REGISTRY)};
    }

    /** This generation's {@code RedisCacheManagerBuilderCustomizer}. */
    @SuppressWarnings("unchecked")
    static Class<Object> cacheCustomizerType() {
        return (Class<Object>) load(BOOT3 ? BootLines.BOOT3_CACHE_CUSTOMIZER : BootLines.BOOT4_CACHE_CUSTOMIZER);
    }

    /**
     * @return a {@link CacheValueCompression} over {@code compressor} that is this generation's cache customizer too
     *         (a subclass made at run time: the test sources compile on both generations)
     */
    static CacheValueCompression cacheValueCompressionCustomizer(dev.zstdjava.values.ValueCompressor compressor) {
        org.springframework.cglib.proxy.Enhancer e = new org.springframework.cglib.proxy.Enhancer();
        e.setSuperclass(CacheValueCompression.class);
        e.setInterfaces(new Class<?>[] {cacheCustomizerType()});
        e.setCallback(org.springframework.cglib.proxy.NoOp.INSTANCE);
        e.setUseFactory(false);
        return (CacheValueCompression) e.create(new Class<?>[] {dev.zstdjava.values.ValueCompressor.class},
                new Object[] {compressor});
    }

    /** @return an application's cache customizer of this generation's type, running {@code customize} */
    static Object cacheCustomizer(Consumer<RedisCacheManagerBuilder> customize) {
        Class<?> type = cacheCustomizerType();
        return Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) ->
                switch (method.getName()) {
                    case "customize" -> {
                        customize.accept((RedisCacheManagerBuilder) args[0]);
                        yield null;
                    }
                    case "equals" -> proxy == args[0];
                    case "hashCode" -> System.identityHashCode(proxy);
                    case "toString" -> "an application's cache customizer";
                    default -> throw new UnsupportedOperationException(method.toString());
                });
    }

    private static Class<?> load(String name) {
        try {
            return Class.forName(name, false, BootLine.class.getClassLoader());
        } catch (ClassNotFoundException e) {
            throw new AssertionError(name + " is missing: not the Boot generation these tests expect", e);
        }
    }
}
