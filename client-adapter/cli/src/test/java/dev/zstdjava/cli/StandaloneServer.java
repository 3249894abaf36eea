package dev.zstdjava.cli;

import dev.zstdjava.lettuce.LettuceDictionaryStore;
import dev.zstdjava.testkit.RedisServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;

import java.util.concurrent.TimeUnit;

/**
 * A standalone server per test class, emptied before each test, with a plain connection that sees the stored bytes.
 * Test classes extend it; they run one after the other, each with its own server.
 */
@DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true", disabledReason = "left out with -Dzstdjava.skipServerTests=true")
abstract class StandaloneServer {
    static RedisServer server;
    static RedisClient client;
    static StatefulRedisConnection<byte[], byte[]> raw;
    /** The tool's URI argument for the server. */
    static String uri;

    @BeforeAll
    static void start() {
        server = RedisServer.start();
        uri = "redis://" + RedisServer.HOST + ":" + server.port();
        client = RedisClient.create(RedisURI.create(RedisServer.HOST, server.port()));
        raw = client.connect(ByteArrayCodec.INSTANCE);
    }

    @AfterAll
    static void stop() {
        if (client != null) {
            client.shutdown(0, 2, TimeUnit.SECONDS);
        }
        if (server != null) {
            server.close();
        }
    }

    /** Publishes {@code dictionary} under {@code id} in the store of the default prefix, on a client of its own. */
    static void publish(long id, byte[] dictionary) {
        RedisClient storeClient = RedisClient.create();
        try (LettuceDictionaryStore store = LettuceDictionaryStore.builder().connect(storeClient,
                RedisURI.create(RedisServer.HOST, server.port()))) {
            store.putIfAbsent(id, dictionary);
        } finally {
            storeClient.shutdown(0, 2, TimeUnit.SECONDS);
        }
    }

    @BeforeEach
    void flush() {
        raw.sync().flushall();
    }
}
