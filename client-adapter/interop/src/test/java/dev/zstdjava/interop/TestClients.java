package dev.zstdjava.interop;

import dev.zstdjava.testkit.RedisServer;
import org.redisson.Redisson;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/** Clients the cross-client tests open the same way. */
final class TestClients {
    private TestClients() {}

    /** @return a Redisson client for {@code server} with a small connection pool */
    static RedissonClient redisson(RedisServer server) {
        Config config = new Config();
        config.useSingleServer().setAddress("redis://" + RedisServer.HOST + ":" + server.port())
                .setConnectionMinimumIdleSize(1).setConnectionPoolSize(2)
                .setSubscriptionConnectionMinimumIdleSize(0).setSubscriptionConnectionPoolSize(1);
        return Redisson.create(config);
    }
}
