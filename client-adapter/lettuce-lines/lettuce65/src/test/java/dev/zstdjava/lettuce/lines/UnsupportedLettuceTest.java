package dev.zstdjava.lettuce.lines;

import dev.zstdjava.lettuce.CompressingRedisClient;
import dev.zstdjava.lettuce.CompressingRedisClusterClient;
import dev.zstdjava.testkit.LettuceServer;
import io.lettuce.core.RedisClient;
import io.lettuce.core.RedisURI;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.function.Executable;

import static org.junit.jupiter.api.Assertions.*;

/**
 * On Lettuce 6.5, one line older than the supported range, the compressing clients fail when created, with a
 * message naming the supported range and the Lettuce found, while Lettuce itself works against the same server.
 */
class UnsupportedLettuceTest {
    /** Lettuce's own client, which 6.5 supports */
    @RegisterExtension
    static final LettuceServer redis = new LettuceServer();

    static final String EXPECTED = "needs Lettuce 6.6 to 7.x; the io.lettuce.core "
            + System.getProperty("zstdjava.lines.lettuce");

    @Test
    void thisRunLoadsLettuce65() {
        String jar = RedisClient.class.getProtectionDomain().getCodeSource().getLocation().getPath();
        assertTrue(jar.endsWith("/lettuce-core-6.5.5.RELEASE.jar"), jar);
        assertEquals("PONG", redis.raw().sync().ping(), "Lettuce 6.5 itself works");
    }

    @Test
    void theCompressingClientsFailWhenCreated() {
        RedisURI uri = redis.uri();
        assertUnsupported("CompressingRedisClient", () -> CompressingRedisClient.create(uri));
        assertUnsupported("CompressingRedisClient", () -> CompressingRedisClient.create(uri.toString()));
        assertUnsupported("CompressingRedisClient", CompressingRedisClient::create);
        assertUnsupported("CompressingRedisClusterClient", () -> CompressingRedisClusterClient.create(uri));
    }

    static void assertUnsupported(String what, Executable create) {
        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class, create, what);
        assertTrue(e.getMessage().startsWith(what + " " + EXPECTED), e.getMessage());
        assertTrue(e.getMessage().endsWith(" lacks io.lettuce.core.HGetExArgs (HGETEX/HSETEX, Lettuce 6.6)"),
                e.getMessage());
    }
}
