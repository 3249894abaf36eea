/**
 * Redisson integration: {@link dev.zstdjava.values.redisson.CompressingRedissonCodec} compresses any Redisson codec's
 * values and map values in the shared stored format, leaving map keys alone. Needs {@code org.redisson:redisson}
 * (3.20.0 or newer, 3.x and 4.x), which {@code zstd-java-values} declares optional.
 */
package dev.zstdjava.values.redisson;
