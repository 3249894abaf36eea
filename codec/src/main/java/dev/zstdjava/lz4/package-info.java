/**
 * LZ4 over liblz4: the block format ({@link dev.zstdjava.lz4.Lz4} static calls,
 * {@link dev.zstdjava.lz4.Lz4Compressor} fast/default/HC with a reused native state,
 * {@link dev.zstdjava.lz4.Lz4Decompressor} over the bounds-checked decoders only) and the frame format
 * ({@link dev.zstdjava.lz4.Lz4Frame} static calls and options, {@link dev.zstdjava.lz4.Lz4FrameCompressor} and
 * {@link dev.zstdjava.lz4.Lz4FrameDecompressor} with one-shot and allocation-free segment streaming APIs,
 * {@link dev.zstdjava.lz4.Lz4FrameOutputStream} and {@link dev.zstdjava.lz4.Lz4FrameInputStream}).
 */
package dev.zstdjava.lz4;
