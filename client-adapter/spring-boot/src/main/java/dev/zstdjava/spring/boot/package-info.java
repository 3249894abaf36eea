/**
 * Spring Boot auto-configuration for compressed Redis/Valkey values in Valkey GLIDE's stored format: one property,
 * {@code zstd-java.redis.compression.enabled=true}, compresses the values of Boot's {@code redisTemplate} and of every
 * cache of Boot's {@code RedisCacheManager}, with Micrometer meters and an Actuator info entry. See
 * {@link dev.zstdjava.spring.boot.RedisCompressionProperties} for every setting. One jar for Spring Boot 3.5, 4.0 and
 * 4.1: Boot's classes of either generation are named as strings, and the one type that differs per generation (the
 * cache customizer) is implemented once per generation, loaded only where it is present; an older Boot fails startup
 * when compression is enabled.
 */
package dev.zstdjava.spring.boot;
