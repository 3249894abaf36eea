package dev.zstdjava.testkit;

import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import io.lettuce.core.api.StatefulRedisConnection;
import io.lettuce.core.codec.ByteArrayCodec;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * A server process and a Lettuce client for one test class, as a JUnit extension:
 * {@code @RegisterExtension static final LettuceServer redis = new LettuceServer();}. Before the class's first test
 * it starts a {@link RedisServer} and connects a {@link RedisClient} with a raw {@code byte[]} connection (which sees
 * the stored bytes); before each test it empties the server; after the last test it shuts the client down and stops
 * the server. The extension runs before the class's own {@code @BeforeAll} methods, which may use it.
 *
 * <p>Lettuce and JUnit are optional dependencies of the test kit: a module that uses this class has both already.
 */
public final class LettuceServer implements BeforeAllCallback, BeforeEachCallback, AfterAllCallback {
    private final Function<RedisURI, ? extends RedisClient> clients;
    private RedisServer server;
    private RedisURI uri;

    /** With a plain {@link RedisClient}. */
    public LettuceServer() {
        this(RedisClient::create);
    }

    /**
     * @param clients makes the class's client for the server's address, for example a {@code RedisClient} subclass
     *                that applies a command policy
     */
    public LettuceServer(Function<RedisURI, ? extends RedisClient> clients) {
        this.clients = clients;
    }

    private RedisClient client;
    private StatefulRedisConnection<byte[], byte[]> raw;

    @Override
    public void beforeAll(ExtensionContext context) {
        server = RedisServer.start();
        uri = RedisURI.create(RedisServer.HOST, server.port());
        client = clients.apply(uri);
        raw = client.connect(ByteArrayCodec.INSTANCE);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        raw.sync().flushall();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        try {
            if (client != null) {
                client.shutdown(0, 2, TimeUnit.SECONDS);
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

    /** @return the server's address */
    public RedisURI uri() {
        return uri;
    }

    /** @return the client; connections made from it are closed when the class's tests are done */
    public RedisClient client() {
        return client;
    }

    /** @return a connection without compression: it reads and writes the stored bytes as they are */
    public StatefulRedisConnection<byte[], byte[]> raw() {
        return raw;
    }
}
