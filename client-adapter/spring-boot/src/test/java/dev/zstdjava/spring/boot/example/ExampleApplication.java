package dev.zstdjava.spring.boot.example;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.cache.annotation.EnableCaching;

/**
 * The example application of docs/spring-boot.md: an ordinary Boot service with Spring Data Redis, caching and
 * Actuator. Nothing in it names zstd-java; {@code zstd-java.redis.compression.enabled=true} in its environment is
 * what compresses its template values and caches. Its JSON cache is configured by {@link ProfilesCache} (Boot 4)
 * or {@code ProfilesCacheBoot3} (Boot 3.5).
 */
@SpringBootApplication
@EnableCaching
public class ExampleApplication {
    public static void main(String[] args) {
        SpringApplication.run(ExampleApplication.class, args);
    }
}
