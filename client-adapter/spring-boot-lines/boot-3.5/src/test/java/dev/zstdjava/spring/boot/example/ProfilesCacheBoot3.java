package dev.zstdjava.spring.boot.example;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.cache.RedisCacheManagerBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * The example application's JSON cache on Boot 3.5, where the customizer's interface is
 * {@code org.springframework.boot.autoconfigure.cache.RedisCacheManagerBuilderCustomizer}; the Boot 4 one is
 * {@code ProfilesCache} in zstd-java-spring-boot's tests.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.boot.autoconfigure.cache.RedisCacheManagerBuilderCustomizer")
class ProfilesCacheBoot3 {
    @Bean
    RedisCacheManagerBuilderCustomizer jsonProfilesCache() {
        return builder -> builder.withCacheConfiguration("profiles", RedisCacheConfiguration.defaultCacheConfig()
                .serializeValuesWith(SerializationPair.fromSerializer(RedisSerializer.json())));
    }
}
