package dev.zstdjava.zstd;

/** Whether a stream ({@link ZstdInputStream}, {@link ZstdOutputStream}) closes its context when it is closed. */
enum Ownership {
    /** Made by the stream: closed with it. */
    OWNED,
    /** Given by the caller: reset on use, left open for the next stream. */
    BORROWED
}
