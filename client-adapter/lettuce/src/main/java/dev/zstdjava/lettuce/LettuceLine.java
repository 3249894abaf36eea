package dev.zstdjava.lettuce;

import dev.zstdjava.values.lines.ClientLines;
import io.lettuce.core.RedisClient;
import io.lettuce.core.resource.ClientResources;

/**
 * What the Lettuce on the class path offers, looked up once: the oldest supported line is 6.6 (the first with
 * {@code HGetExArgs}, the arguments of Redis 8.0's {@code HGETEX}/{@code HSETEX}), the Lettuce Spring Boot 3.5
 * manages. An older Lettuce fails when a compressing client is created, with a message naming the supported range,
 * never later inside a command.
 */
final class LettuceLine {
    /** the class whose presence marks a supported line */
    static final String CAPABILITY = "io.lettuce.core.HGetExArgs";
    private static final boolean SUPPORTED = ClientLines.present(RedisClient.class, CAPABILITY);

    private LettuceLine() {
    }

    /**
     * @param what      the client being created, e.g. {@code "CompressingRedisClient"}
     * @param resources passed through, so that a constructor can check before its {@code super(...)} call
     * @return {@code resources}
     * @throws UnsupportedOperationException on a Lettuce older than the supported range (the message names it)
     */
    static ClientResources require(String what, ClientResources resources) {
        if (!SUPPORTED) {
            throw ClientLines.unsupported(what, ClientLines.LETTUCE, RedisClient.class, CAPABILITY
                    + " (HGETEX/HSETEX, Lettuce 6.6)");
        }
        return resources;
    }
}
