package dev.zstdjava.zstd;

import dev.zstdjava.internal.ZstdNative;

/** Error translation shared by the zstd classes. */
final class Checks {
    private Checks() {}

    static ZstdException error(long code, String operation, String detail) {
        return new ZstdException(operation, ZstdNative.errorCode(code), ZstdNative.errorName(code), detail);
    }
}
