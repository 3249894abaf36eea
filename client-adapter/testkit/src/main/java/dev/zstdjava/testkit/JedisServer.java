package dev.zstdjava.testkit;

import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.providers.PooledConnectionProvider;

import java.time.Duration;

/**
 * A server process and a Jedis client for one test class, as a JUnit extension:
 * {@code @RegisterExtension static final JedisServer redis = new JedisServer();}. Before the class's first test it
 * starts a {@link RedisServer} and a pooled Jedis {@link UnifiedJedis} (which, without a codec, sees the stored bytes);
 * before each test it empties the server; after the last test (and after the class's own {@code @AfterAll}
 * methods, which may still use the server) it closes the client and stops the server. {@link LettuceServer} is the
 * same for Lettuce.
 *
 * <p>The client is made the same way on every Jedis line the project supports (6.0 has no {@code RedisClient}, 8.0
 * no public {@code UnifiedJedis(HostAndPort)}): a {@link PooledConnectionProvider} under
 * {@code UnifiedJedis(provider, attempts, duration)}, which both have.
 *
 * <p>Jedis and JUnit are optional dependencies of the test kit: a module that uses this class has both already.
 */
public final class JedisServer implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
    private RedisServer server;
    private UnifiedJedis client;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = RedisServer.start();
        client = pooled(server);
    }

    /**
     * @return a pooled Jedis client of {@code server}, made the way every supported Jedis line can (the class
     *     comment says how); the caller closes it
     */
    public static UnifiedJedis pooled(RedisServer server) {
        return new UnifiedJedis(new PooledConnectionProvider(new HostAndPort(RedisServer.HOST, server.port())), 1,
                Duration.ofSeconds(10));
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
    public UnifiedJedis client() {
        return client;
    }
}
