package dev.zstdjava.values.lines;

import dev.zstdjava.testkit.ClientJars;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;
import org.redisson.api.RedissonClient;
import org.springframework.data.redis.core.RedisTemplate;
import redis.clients.jedis.Protocol;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The client lines: each run loads the versions its pom names (zstd-java-values the newest, values-lines the older
 * lines), the capability look-ups the adapters use, the message of an unsupported line, and the support table in the
 * docs stating the ranges the adapters' messages name.
 */
class ClientLinesTest {
    /** The library whose jar a class comes from, by the system property holding the version its run expects. */
    private static final Map<String, Class<?>> LIBRARIES = Map.of(
            "jedis", Protocol.class,
            "spring-data-redis", RedisTemplate.class,
            "redisson", RedissonClient.class,
            "micrometer-core", MeterRegistry.class,
            "netty-buffer", ByteBuf.class);

    @Test
    void eachLibraryIsTheVersionThisRunNames() {
        LIBRARIES.forEach((artifact, anchor) -> ClientJars.assertThisRunsVersion(artifact, artifact, anchor));
    }

    @Test
    void capabilitiesAreLookedUpByClassAndMethod() {
        assertTrue(ClientLines.present(Protocol.class, "redis.clients.jedis.params.HSetExParams"));
        assertFalse(ClientLines.present(Protocol.class, "redis.clients.jedis.params.NoSuchParams"));
        assertTrue(ClientLines.hasMethod(String.class, "repeat", int.class));
        assertFalse(ClientLines.hasMethod(String.class, "repeat", long.class));
    }

    @Test
    void anUnsupportedLineIsNamedWithTheVersionFound() {
        String jedis = System.getProperty("zstdjava.lines.jedis");
        String m = ClientLines.unsupported("CompressingJedis", ClientLines.JEDIS, Protocol.class, "X").getMessage();
        assertEquals("CompressingJedis needs " + ClientLines.JEDIS + "; the redis.clients.jedis from jedis-" + jedis
                + ".jar on the class path lacks X", m);
        String spring = System.getProperty("zstdjava.lines.spring-data-redis");
        m = ClientLines.unsupported("CompressingRedisTemplate", ClientLines.SPRING_DATA_REDIS, RedisTemplate.class, "Y")
                .getMessage();
        assertEquals("CompressingRedisTemplate needs " + ClientLines.SPRING_DATA_REDIS
                + "; the org.springframework.data.redis.core " + spring + " on the class path lacks Y", m);
    }

    @Test
    void theSupportTableStatesTheRangesTheMessagesName() throws Exception {
        Path doc = Path.of(System.getProperty("zstdjava.testdata")).resolveSibling("docs").resolve("support.md");
        String text = Files.readString(doc);
        for (String range : new String[] {ClientLines.JEDIS, ClientLines.SPRING_DATA_REDIS,
                ClientLines.SPRING_DATA_REDIS_SPECS, ClientLines.LETTUCE}) {
            assertTrue(text.contains(range), range + " is not in " + doc);
        }
    }
}
