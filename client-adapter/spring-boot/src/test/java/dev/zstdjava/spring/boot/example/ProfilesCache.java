package dev.zstdjava.spring.boot.example;

import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * The example application's JSON cache beside the default (JDK-serialized) ones, as Boot 4 applications configure
 * it. The same on Boot 3.5 is {@code ProfilesCacheBoot3} (in spring-boot-lines/boot-3.5, compiled against Boot 3.5):
 * the customizer's interface has another package there. Each is found by the application's component scan and
 * applies only on its generation.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(name = "org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer")
class ProfilesCache {
    @Bean
    RedisCacheManagerBuilderCustomizer jsonProfilesCache() {
        return builder -> builder.withCacheConfiguration("profiles", RedisCacheConfiguration.defaultCacheConfig()
                .serializeValuesWith(SerializationPair.fromSerializer(RedisSerializer.json())));
    }
}
