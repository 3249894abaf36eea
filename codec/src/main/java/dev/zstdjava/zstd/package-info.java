/**
 * zstd: {@link dev.zstdjava.zstd.Zstd} (static one-shot calls), {@link dev.zstdjava.zstd.ZstdCompressor} and
 * {@link dev.zstdjava.zstd.ZstdDecompressor} (reusable native contexts, four API shapes),
 * {@link dev.zstdjava.zstd.ZstdFrame} (frame header inspection).
 */
package dev.zstdjava.zstd;
