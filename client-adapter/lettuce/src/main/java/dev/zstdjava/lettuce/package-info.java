/**
 * Transparent value compression for Lettuce, byte-compatible with Valkey GLIDE's compression.
 *
 * <p>{@link dev.zstdjava.lettuce.CompressingRedisClient} and {@link dev.zstdjava.lettuce.CompressingRedisClusterClient}
 * apply the command policy ({@link dev.zstdjava.values.CommandPolicy}, GLIDE's scope by default) to connections whose
 * codec is a {@link dev.zstdjava.lettuce.CompressingCodec}: the values of the {@code SET} family are compressed,
 * everything else is sent as the delegate codec encodes it, and the commands the server runs on a stored string's
 * bytes are refused by name. The codec decompresses every value that carries the header, whatever the command; on a
 * plain {@code RedisClient} it compresses nothing. The configuration ({@link dev.zstdjava.values.CompressionConfig}),
 * the per-value compressor ({@link dev.zstdjava.values.ValueCompressor}) and its counters
 * ({@link dev.zstdjava.values.CompressionStats}) come from the client-neutral {@code dev.zstdjava.values} package
 * ({@code zstd-java-values}), which Jedis, Redisson and Spring Data Redis users use without Lettuce.
 *
 * <p>Values written by clients without compression read back unchanged; GLIDE clients read what this package
 * writes, and the reverse, for both zstd and lz4.
 */
package dev.zstdjava.lettuce;
