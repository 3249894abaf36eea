package dev.zstdjava.spring.boot;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.context.annotation.Bean;

/**
 * Test fixture for {@link RedissonStarterTest}: an auto-configuration of an application or a library that uses the
 * {@code RedissonClient} bean, so it runs after Redisson's starter, and whose class name sorts before
 * {@link RedisCompressionAutoConfiguration}'s, as one in {@code com.acme} would. Boot sorts the auto-configurations
 * by name and then moves each one after those it names: this one pulls Redisson's ahead of every class that follows
 * it by name and is not ordered before Redisson's explicitly.
 */
@AutoConfiguration(afterName = {BootLines.REDISSON_BOOT4, BootLines.REDISSON_BOOT3})
@ConditionalOnBean(type = "org.redisson.api.RedissonClient")
public class AfterRedissonAutoConfiguration {
    /** Made by Spring. */
    AfterRedissonAutoConfiguration() {
    }

    /** The bean made when the condition saw the {@code RedissonClient}: Redisson's starter ran before. */
    public record RedissonSeen() {
    }

    @Bean
    RedissonSeen redissonSeen() {
        return new RedissonSeen();
    }
}
