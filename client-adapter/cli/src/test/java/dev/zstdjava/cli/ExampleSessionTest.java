package dev.zstdjava.cli;

import io.lettuce.core.api.sync.RedisCommands;
import io.lettuce.core.codec.CompressionCodec;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;

import static dev.zstdjava.cli.Writers.utf8;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The session docs/cli.md shows: a server filled like a small application's keyspace, then each command
 * as a user types it. Every command must succeed; the transcript is written to target/example-session.txt (with the
 * test server's address shown as 127.0.0.1:6379), from which the docs' examples are copied.
 */
class ExampleSessionTest extends StandaloneServer {
    @Test
    void everyCommandOfTheDocumentedSessionSucceeds() throws IOException {
        RedisCommands<byte[], byte[]> c = raw.sync();
        List<String> products = Files.readAllLines(AdviseTest.JSON.resolve("products.ndjson"));
        List<String> statuses = Files.readAllLines(AdviseTest.JSON.resolve("statuses.ndjson"));
        java.util.Random r = new java.util.Random(42);
        for (int i = 0; i < 300; i++) {
            c.set(utf8("product:" + (1000 + i)), utf8(products.get(i)));
        }
        for (int i = 0; i < 80; i++) {
            c.set(utf8("status:" + (5000 + i)), Writers.ZSTD.compress(utf8(statuses.get(i))));
            c.set(utf8("cart:" + (100 + i)), Writers.redissonZstd(statuses.get((i * 7) % statuses.size())));
            c.set(utf8("session:" + new UUID(r.nextLong(), r.nextLong())),
                    Writers.lettuce(CompressionCodec.CompressionType.GZIP, statuses.get(i)));
            c.set(utf8("counter:" + i), utf8(Integer.toString(r.nextInt(100000))));
        }
        c.expire(utf8("cart:100"), 3600);
        StringBuilder log = new StringBuilder();
        String shown = "redis://127.0.0.1:6379";
        String[][] session = {
                {"inspect", uri},
                {"advise", uri, "--match", "product:*"},
                {"migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "cart:*"},
                {"migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "cart:*", "--apply"},
                {"inspect", "get", uri, "cart:100"},
        };
        for (String[] args : session) {
            Tool t = Tool.run(args);
            assertEquals(0, t.code(), t.toString());
            log.append("$ ./zstd-values ").append(String.join(" ", args).replace(uri, shown)
                    .replace("product:*", "'product:*'").replace("cart:*", "'cart:*'")).append('\n');
            log.append(t.err().replace(uri, shown)).append(t.out().replace(uri, shown)
                    .replace(RedisServerAddress.of(uri), "127.0.0.1:6379")).append('\n');
        }
        Files.writeString(Path.of("target/example-session.txt"), log.toString().replace(RedisServerAddress.of(uri),
                "127.0.0.1:6379"));
    }

    /** The host:port of a URI, as the tool prints it. */
    static final class RedisServerAddress {
        static String of(String uri) {
            return uri.substring("redis://".length());
        }
    }
}
