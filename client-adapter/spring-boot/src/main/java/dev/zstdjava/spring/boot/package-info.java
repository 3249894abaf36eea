/**
 * Spring Boot auto-configuration for compressed Redis/Valkey values in Valkey GLIDE's stored format: one property,
 * {@code zstd-java.redis.compression.enabled=true}, compresses the values of Boot's {@code redisTemplate} and of every
 * cache of Boot's {@code RedisCacheManager}, with Micrometer meters and an Actuator info entry. See
 * {@link dev.zstdjava.spring.boot.RedisCompressionProperties} for every setting.
 */
package dev.zstdjava.spring.boot;
