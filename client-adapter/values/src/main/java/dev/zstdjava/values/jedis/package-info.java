/**
 * Jedis integration: {@link dev.zstdjava.values.jedis.CompressingJedis} runs Jedis's binary string and hash commands
 * with values compressed in the shared stored format. Needs {@code redis.clients:jedis} (8.0 or newer), which
 * {@code zstd-java-values} declares optional.
 */
package dev.zstdjava.values.jedis;
