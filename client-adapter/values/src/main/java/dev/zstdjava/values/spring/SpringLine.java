package dev.zstdjava.values.spring;

import dev.zstdjava.values.lines.ClientLines;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.ValueOperations;

import java.time.Duration;

/**
 * What the Spring Data Redis on the class path offers, looked up once: the oldest supported line (3.5, the first
 * with {@code ValueOperations.setGet}, a {@code SET ... GET} the templates compress) and whether it has the
 * {@code SetSpec}/{@code DeleteSpec} operations of 4.1 ({@code SET ... IFEQ}, {@code DELEX}).
 */
final class SpringLine {
    /** {@code SetSpec} and {@code DeleteSpec}: Spring Data Redis 4.1 and newer. */
    static final boolean SPECS = ClientLines.present(RedisTemplate.class, "org.springframework.data.redis.core.DeleteSpec");
    private static final boolean SUPPORTED = ClientLines.hasMethod(ValueOperations.class, "setGet", Object.class,
            Object.class, Duration.class);

    private SpringLine() {
    }

    /** @throws UnsupportedOperationException on a Spring Data Redis older than the supported range */
    static void require(String what) {
        if (!SUPPORTED) {
            throw ClientLines.unsupported(what, ClientLines.SPRING_DATA_REDIS, RedisTemplate.class,
                    "ValueOperations.setGet(key, value, Duration)");
        }
    }

    /** @throws UnsupportedOperationException on a Spring Data Redis without {@code DeleteSpec} */
    static void requireSpecs(String what) {
        if (!SPECS) {
            throw ClientLines.unsupported(what, ClientLines.SPRING_DATA_REDIS_SPECS, RedisTemplate.class,
                    "org.springframework.data.redis.core.DeleteSpec");
        }
    }
}
