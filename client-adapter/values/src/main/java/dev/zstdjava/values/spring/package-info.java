/**
 * Spring Data Redis integration: {@link dev.zstdjava.values.spring.CompressingRedisTemplate} compresses what the
 * command policy compresses (the {@code SET} family; hash values when opted in) and refuses the string edits by name;
 * {@link dev.zstdjava.values.spring.CompressingRedisSerializer} compresses any {@code RedisSerializer}'s output in the
 * shared stored format, for places where Spring serializes whole values only. Needs
 * {@code org.springframework.data:spring-data-redis} (4.1 or newer), which {@code zstd-java-values} declares optional.
 */
package dev.zstdjava.values.spring;
