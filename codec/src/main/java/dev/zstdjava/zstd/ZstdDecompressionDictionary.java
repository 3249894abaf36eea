package dev.zstdjava.zstd;

import dev.zstdjava.internal.Direction;

/**
 * A dictionary digested for decompression ({@code ZSTD_DDict}), made by {@link ZstdDictionary#forDecompression()}.
 *
 * <p><b>Thread safety:</b> immutable once built; share one instance between any number of threads and
 * decompressors. {@link #close()} frees the native tables once no decompressor or stream references them any more;
 * unclosed instances are freed by a {@link java.lang.ref.Cleaner}.
 *
 * <p><b>Allocation:</b> native tables of about the dictionary's size, allocated once at construction; keeps a
 * reference to the {@link ZstdDictionary} it was made from, whose bytes a decompressor copies next to its output
 * (see {@link ZstdDecompressor}).
 */
public final class ZstdDecompressionDictionary extends DigestedDictionary {
    private final ZstdDictionary source;

    ZstdDecompressionDictionary(ZstdDictionary dict) {
        super(dict, Direction.DECOMPRESS, content -> ZstdNative.createDDict(content, dict.size(), dict.content()),
                "decompression");
        this.source = dict;
    }

    /** @return the dictionary this was digested from */
    ZstdDictionary source() {
        return source;
    }

    @Override
    public String toString() {
        return "ZstdDecompressionDictionary[" + describe() + "]";
    }
}
