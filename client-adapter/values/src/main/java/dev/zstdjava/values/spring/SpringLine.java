package dev.zstdjava.values.spring;

import dev.zstdjava.values.lines.ClientLines;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.ValueOperations;
import org.springframework.data.redis.serializer.RedisSerializer;

import java.time.Duration;

/**
 * What the Spring Data Redis on the class path offers, looked up once: the oldest supported line (3.5, the first
 * with {@code ValueOperations.setGet}, a {@code SET ... GET} the templates compress), whether it has the
 * {@code SetSpec}/{@code DeleteSpec} operations of 4.1 ({@code SET ... IFEQ}, {@code DELEX}), and 4.1's typed read
 * {@code RedisSerializer.deserialize(bytes, type)}.
 */
final class SpringLine {
    /** {@code SetSpec} and {@code DeleteSpec}: Spring Data Redis 4.1 and newer. */
    static final boolean SPECS = ClientLines.present(RedisTemplate.class, "org.springframework.data.redis.core.DeleteSpec");
    /** {@code RedisSerializer.deserialize(bytes, type)}: Spring Data Redis 4.1 and newer. */
    static final boolean TYPED_READS = ClientLines.hasMethod(RedisSerializer.class, "deserialize", byte[].class,
            Class.class);
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

    /** @throws UnsupportedOperationException on a Spring Data Redis without the typed read (older than 4.1) */
    static void requireTypedReads(String what) {
        if (!TYPED_READS) {
            throw ClientLines.unsupported(what, ClientLines.SPRING_DATA_REDIS_SPECS, RedisSerializer.class,
                    "RedisSerializer.deserialize(byte[], Class)");
        }
    }
}
