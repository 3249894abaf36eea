package dev.zstdjava.lettuce;

import java.util.function.Supplier;

/**
 * For codec unit tests that call {@link CompressingCodec} directly: runs code with compression on for this thread,
 * as it is while {@link CompressingRedisClient} encodes a command whose values the policy compresses.
 */
final class Compressing {
    private Compressing() {}

    static <T> T on(Supplier<T> call) {
        PolicyScope scope = PolicyScope.current();
        boolean before = scope.compress;
        scope.compress = true;
        try {
            return call.get();
        } finally {
            scope.compress = before;
        }
    }

    static void set(boolean on) {
        PolicyScope.current().compress = on;
    }
}
