package dev.zstdjava.spring.boot.example;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.cache.autoconfigure.RedisCacheManagerBuilderCustomizer;
import org.springframework.cache.annotation.EnableCaching;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;
import org.springframework.data.redis.serializer.RedisSerializer;

/**
 * The example application of docs/spring-boot.md: an ordinary Boot service with Spring Data Redis, caching and
 * Actuator. Nothing in it names zstd-java; {@code zstd-java.redis.compression.enabled=true} in its environment is
 * what compresses its template values and caches.
 */
@SpringBootApplication
@EnableCaching
public class ExampleApplication {
    public static void main(String[] args) {
        SpringApplication.run(ExampleApplication.class, args);
    }

    /** A JSON cache beside the default (JDK-serialized) ones, as applications configure them. */
    @Bean
    RedisCacheManagerBuilderCustomizer profilesCache() {
        return builder -> builder.withCacheConfiguration("profiles", RedisCacheConfiguration.defaultCacheConfig()
                .serializeValuesWith(SerializationPair.fromSerializer(RedisSerializer.json())));
    }
}
