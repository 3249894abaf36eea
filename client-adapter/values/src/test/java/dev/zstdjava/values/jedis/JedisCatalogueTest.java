package dev.zstdjava.values.jedis;

import dev.zstdjava.values.CommandPolicy;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Protocol;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Every command the Jedis on the class path can send ({@code Protocol.Command}) is classified by the command policy,
 * so {@link CompressingJedis} decides it as it decides the same command on any other line. Runs on every tested
 * Jedis line (the values test jar again in {@code client-adapter/values-lines}); a Jedis that adds a command fails
 * here until the policy classifies it.
 */
class JedisCatalogueTest {
    @Test
    void everyCommandThisJedisSendsIsClassified() {
        Protocol.Command[] commands = Protocol.Command.values();
        assertTrue(commands.length > 200, "Protocol.Command has " + commands.length + " commands");
        List<String> unknown = java.util.Arrays.stream(commands)
                .map(c -> new String(c.getRaw(), StandardCharsets.US_ASCII))
                .filter(name -> !CommandPolicy.glide().knows(name))
                .toList();
        assertEquals(List.of(), unknown, "Jedis commands the policy does not classify");
    }
}
