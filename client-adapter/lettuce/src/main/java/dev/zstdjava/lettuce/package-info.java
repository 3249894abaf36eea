/**
 * Transparent value compression for Lettuce, byte-compatible with Valkey GLIDE's compression.
 *
 * <p>A compressing connection comes from one call, {@code connect(codec, valueCompressor)} of
 * {@link dev.zstdjava.lettuce.CompressingRedisClient} or {@link dev.zstdjava.lettuce.CompressingRedisClusterClient}:
 * it applies the command policy ({@link dev.zstdjava.values.CommandPolicy}, GLIDE's scope by default), so the values
 * of the {@code SET} family are compressed, everything else is sent as the given codec encodes it, and the commands
 * the server runs on a stored string's bytes are refused by name. Its codec, a
 * {@link dev.zstdjava.lettuce.CompressingCodec}, decompresses every value that carries the header, whatever the
 * command; on a connection no policy client made it fails the first command instead of storing values uncompressed.
 * The configuration ({@link dev.zstdjava.values.CompressionConfig}), the per-value compressor
 * ({@link dev.zstdjava.values.ValueCompressor}) and its counters
 * ({@link dev.zstdjava.values.CompressionStats}) come from the client-neutral {@code dev.zstdjava.values} package
 * ({@code zstd-java-values}), which Jedis, Redisson and Spring Data Redis users use without Lettuce.
 *
 * <p>Values written by clients without compression read back unchanged; GLIDE clients read what this package
 * writes, and the reverse, for both zstd and lz4.
 */
package dev.zstdjava.lettuce;
