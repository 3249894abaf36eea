/**
 * Transparent value compression for Lettuce, byte-compatible with Valkey GLIDE's compression.
 *
 * <ul>
 *   <li>{@link dev.zstdjava.lettuce.CompressingCodec}: wrap any Lettuce codec; values are compressed on the way out
 *       and decompressed on the way in, keys are untouched.</li>
 *   <li>{@link dev.zstdjava.lettuce.ValueCompressor}: the same for one value at a time, without Lettuce types, for
 *       other clients' serializers; keeps GLIDE's counters ({@link dev.zstdjava.lettuce.CompressionStats}).</li>
 *   <li>{@link dev.zstdjava.lettuce.CompressionConfig}: backend ({@link dev.zstdjava.lettuce.CompressionBackend}),
 *       level, minimum size, maximum decompressed size, on/off.</li>
 * </ul>
 *
 * <p>Values written by clients without compression read back unchanged; GLIDE clients read what this package
 * writes, and the reverse, for both zstd and lz4. Commands that act on a string's bytes on the server
 * ({@code APPEND}, {@code GETRANGE}, {@code SETRANGE}, {@code STRLEN}, {@code LCS}, {@code INCR} and family, bit
 * operations) cannot work on compressed values: see {@link dev.zstdjava.lettuce.ValueCompressor}.
 */
package dev.zstdjava.lettuce;
