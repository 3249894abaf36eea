/**
 * zstd: {@link dev.zstdjava.zstd.Zstd} (static one-shot calls), {@link dev.zstdjava.zstd.ZstdCompressor} and
 * {@link dev.zstdjava.zstd.ZstdDecompressor} (reusable native contexts, four API shapes),
 * {@link dev.zstdjava.zstd.ZstdFrame} (frame header inspection);
 * streaming: {@link dev.zstdjava.zstd.ZstdOutputStream} / {@link dev.zstdjava.zstd.ZstdInputStream} over
 * {@link dev.zstdjava.zstd.ZstdCompressStream} / {@link dev.zstdjava.zstd.ZstdDecompressStream} (memory segments);
 * dictionaries: {@link dev.zstdjava.zstd.ZstdDictionary} (training, loading) digested into
 * {@link dev.zstdjava.zstd.ZstdCompressionDictionary} / {@link dev.zstdjava.zstd.ZstdDecompressionDictionary}.
 */
package dev.zstdjava.zstd;
