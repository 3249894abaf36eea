package dev.zstdjava.interop;

import dev.zstdjava.testkit.ClientJars;
import io.lettuce.core.RedisClient;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.data.redis.core.RedisTemplate;
import redis.clients.jedis.Protocol;

/**
 * The client lines the cross-client tests run on: this module the newest, {@code client-adapter/interop-lines} the
 * oldest supported ones (the same {@link CrossClientMatrixTest}); each run loads the versions its pom names.
 */
class InteropLinesTest {
    @Test
    void eachClientIsTheVersionThisRunNames() {
        ClientJars.assertThisRunsVersion("lettuce", "lettuce-core", RedisClient.class);
        ClientJars.assertThisRunsVersion("spring-data-redis", "spring-data-redis", RedisTemplate.class);
        ClientJars.assertThisRunsVersion("jedis", "jedis", Protocol.class);
        ClientJars.assertThisRunsVersion("redisson", "redisson", RedissonClient.class);
        ClientJars.assertThisRunsVersion("netty-buffer", "netty-buffer", ByteBuf.class);
        ClientJars.assertThisRunsVersion("micrometer-core", "micrometer-core", MeterRegistry.class);
    }
}
