package dev.zstdjava.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.RedisClient;

/**
 * A server process and a Jedis client for one test class, as a JUnit extension:
 * {@code @RegisterExtension static final JedisServer redis = new JedisServer();}. Before the class's first test it
 * starts a {@link RedisServer} and a Jedis {@link RedisClient} (which, without a codec, sees the stored bytes);
 * before each test it empties the server; after the last test (and after the class's own {@code @AfterAll}
 * methods, which may still use the server) it closes the client and stops the server. {@link LettuceServer} is the
 * same for Lettuce.
 *
 * <p>Jedis and JUnit are optional dependencies of the test kit: a module that uses this class has both already.
 */
public final class JedisServer implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
    private RedisServer server;
    private RedisClient client;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = RedisServer.start();
        client = RedisClient.create(RedisServer.HOST, server.port());
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        client.flushAll();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (client != null) {
                client.close();
            }
        } finally {
            if (server != null) {
                server.close();
            }
        }
    }

    /** @return the server process */
    public RedisServer server() {
        return server;
    }

    /** @return the client: it reads and writes the stored bytes as they are */
    public RedisClient client() {
        return client;
    }
}
