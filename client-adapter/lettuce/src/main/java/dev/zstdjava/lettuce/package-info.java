/**
 * Transparent value compression for Lettuce, byte-compatible with Valkey GLIDE's compression.
 *
 * <p>{@link dev.zstdjava.lettuce.CompressingCodec} wraps any Lettuce codec: values are compressed on the way out and
 * decompressed on the way in, keys are untouched. The configuration ({@link dev.zstdjava.values.CompressionConfig}),
 * the per-value compressor ({@link dev.zstdjava.values.ValueCompressor}) and its counters
 * ({@link dev.zstdjava.values.CompressionStats}) come from the client-neutral {@code dev.zstdjava.values} package
 * ({@code zstd-java-values}), which Jedis, Redisson and Spring Data Redis users use without Lettuce.
 *
 * <p>Values written by clients without compression read back unchanged; GLIDE clients read what this package
 * writes, and the reverse, for both zstd and lz4. Commands that act on a string's bytes on the server
 * ({@code APPEND}, {@code GETRANGE}, {@code SETRANGE}, {@code STRLEN}, {@code LCS}, {@code INCR} and family, bit
 * operations) cannot work on compressed values: see {@link dev.zstdjava.values.ValueCompressor}.
 */
package dev.zstdjava.lettuce;
