package dev.zstdjava.internal;

/** Which way a codec call moves data: the choice between a library's compression and decompression function. */
public enum Direction {
    COMPRESS,
    DECOMPRESS
}
