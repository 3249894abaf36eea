/**
 * Spring Data Redis integration: {@link dev.zstdjava.values.spring.CompressingRedisSerializer} compresses any
 * {@code RedisSerializer}'s output in the shared stored format. Needs
 * {@code org.springframework.data:spring-data-redis} (4.1 or newer), which {@code zstd-java-values} declares optional.
 */
package dev.zstdjava.values.spring;
