package dev.zstdjava.spring.boot;

import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/** Test helper: the bytes a key holds in the server, read on a raw connection (nothing decoded). */
public final class StoredBytes {
    private StoredBytes() {}

    /** @return the stored bytes, or null for a missing key */
    public static byte[] get(RedisConnectionFactory f, byte[] key) {
        try (RedisConnection c = f.getConnection()) {
            return c.stringCommands().get(key);
        }
    }

    /**
     * @return the key's bytes once it exists (within 10 s): Spring Data Redis may write cache entries asynchronously
     *         (over Lettuce)
     */
    public static byte[] await(RedisConnectionFactory f, byte[] key) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        byte[] v;
        while ((v = get(f, key)) == null) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("no value under " + new String(key, StandardCharsets.UTF_8));
            }
            Thread.sleep(10);
        }
        return v;
    }
}
