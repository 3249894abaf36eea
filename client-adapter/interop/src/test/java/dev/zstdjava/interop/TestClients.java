package dev.zstdjava.interop;

import dev.zstdjava.testkit.RedisServer;
import dev.zstdjava.values.CompressionBackend;
import glide.api.GlideClient;
import glide.api.models.configuration.CompressionConfiguration;
import glide.api.models.configuration.GlideClientConfiguration;
import glide.api.models.configuration.NodeAddress;
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

    /**
     * @param level               GLIDE's compression level, or null for its default
     * @param maxDecompressedSize GLIDE's limit, or null for its default (512 MiB)
     * @return a Java GLIDE client for {@code server} compressing with {@code backend}; the caller closes it
     */
    static GlideClient glide(RedisServer server, CompressionBackend backend, Integer level, Long maxDecompressedSize)
            throws Exception {
        return GlideClient.createClient(GlideClientConfiguration.builder()
                .address(NodeAddress.builder().host(RedisServer.HOST).port(server.port()).build())
                .requestTimeout(10_000)
                .compressionConfiguration(CompressionConfiguration.builder().enabled(true)
                        .backend(backend == CompressionBackend.ZSTD
                                ? glide.api.models.configuration.CompressionBackend.ZSTD
                                : glide.api.models.configuration.CompressionBackend.LZ4)
                        .compressionLevel(level).maxDecompressedSize(maxDecompressedSize)
                        .build())
                .build()).get(30, java.util.concurrent.TimeUnit.SECONDS);
    }
}
