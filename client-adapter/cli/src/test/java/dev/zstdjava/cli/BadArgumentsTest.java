package dev.zstdjava.cli;

import dev.zstdjava.values.CompressionConfig;
import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.zstdjava.cli.Writers.utf8;
import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Options out of range are refused before anything is read, as bad arguments (exit 2), with a message naming the
 * option and its limit; a run stopped by an error says where to resume.
 */
class BadArgumentsTest extends StandaloneServer {

    @AfterEach
    void noHook() {
        Migrate.beforeWrite = null;
    }

    /** Asserts exit 2 with one error line naming {@code expected}, and that nothing was written. */
    private static void refused(String expected, String... args) {
        raw.sync().set(utf8("doc:1"), utf8(json(1000)));
        Map<String, Object> before = MigrateTest.dump();
        Tool t = Tool.run(args);
        assertEquals(2, t.code(), t.toString());
        assertTrue(t.err().contains(expected), t.toString());
        assertEquals(1, t.err().strip().lines().count(), "one line: " + t.err());
        assertEquals("", t.out(), t.toString());
        assertEquals(before, MigrateTest.dump(), "nothing written");
    }

    /** The exit codes are listed in every command's help, as the tool's. */
    @Test
    void everyCommandsHelpListsTheExitCodes() {
        for (String[] command : new String[][] {{}, {"inspect"}, {"inspect", "get"}, {"advise"}, {"migrate"}}) {
            Tool help = Tool.run(concat(command, "--help"));
            assertEquals(0, help.code(), help.toString());
            assertTrue(help.out().matches("(?s).*Exit codes:\\R  0 +done\\R  1 +an error.*\\R  2 +bad arguments: .*"),
                    String.join(" ", command) + " --help:\n" + help.out());
        }
    }

    @Test
    void aMalformedUriIsABadArgument() {
        refused("bad server URI 'localhost:6379': Scheme localhost not supported", "inspect", "localhost:6379");
        refused("bad server URI 'redis://127.0.0.1:99999': Port out of range: 99999", "migrate",
                "redis://127.0.0.1:99999", "--from", "plain", "--to", "glide-zstd", "--match", "*", "--apply");
    }

    /** Lettuce would take {@code host:abc} for the host (on port 6379) and {@code :0} for port 6379. */
    @Test
    void aPortThatIsNotANumberFromOneTo65535IsABadArgument() {
        String port = "127.0.0.1:" + server.port();
        refused("bad server URI 'redis://127.0.0.1:abc': port 'abc' is not a number from 1 to 65535", "inspect",
                "redis://127.0.0.1:abc");
        refused("port '0' is not a number from 1 to 65535", "advise", "redis://127.0.0.1:0");
        refused("port '-1' is not", "inspect", "redis://user:secret@127.0.0.1:-1/0");
        refused("port '" + server.port() + "x' is not", "inspect", "rediss://" + port + "x");
        refused("port 'abc' is not", "migrate", "redis://127.0.0.1:abc", "--from", "plain", "--to", "glide-zstd",
                "--match", "*", "--apply");
        // Lettuce checks Sentinel's ports itself
        refused("bad server URI 'redis-sentinel://127.0.0.1:abc#mymaster': Cannot parse port number", "inspect",
                "redis-sentinel://127.0.0.1:abc#mymaster");
    }

    /**
     * A host name that {@code java.net.URI} does not take for one (an underscore, as Docker Compose's service names
     * have) is split from its port, where Lettuce would take {@code redis_1:6380} for the host; what Lettuce parsed
     * besides stays. What is no host name at all is refused.
     */
    @Test
    void aHostNameWithAnUnderscoreIsSplitFromItsPort() {
        io.lettuce.core.RedisURI u = Keyspace.parse("redis://redis_1:6380");
        assertEquals(List.of("redis_1", 6380, 0, false), List.of(u.getHost(), u.getPort(), u.getDatabase(),
                u.isSsl()));
        u = Keyspace.parse("redis://my_host");
        assertEquals(List.of("my_host", 6379), List.of(u.getHost(), u.getPort()));
        u = Keyspace.parse("rediss://us%40er:pa:s%40s@redis_1:6381/3?clientName=tool&libraryName=x");
        io.lettuce.core.RedisCredentials c = u.getCredentialsProvider().resolveCredentials().block();
        assertEquals(List.of("redis_1", 6381, 3, true, "us@er", "pa:s@s", "tool"),
                List.of(u.getHost(), u.getPort(), u.getDatabase(), u.isSsl(), c.getUsername(),
                        new String(c.getPassword()), u.getClientName()));
        u = Keyspace.parse("redis://:secret@redis_1?database=2");
        c = u.getCredentialsProvider().resolveCredentials().block();
        assertEquals(List.of("redis_1", 6379, 2, "secret"), List.of(u.getHost(), u.getPort(), u.getDatabase(),
                new String(c.getPassword())));
        refused("bad server URI 'redis://redis_1:abc': port 'abc' is not a number from 1 to 65535", "inspect",
                "redis://redis_1:abc");
        refused("bad server URI 'redis://redis_1:6379,redis_2:6379': host 'redis_1:6379,redis_2' is not a host name",
                "inspect", "redis://redis_1:6379,redis_2:6379");
        refused("host '' is not a host name", "inspect", "redis://:6379");
        refused("bad server URI 'redis://my_host:/1': the port after ':' is empty", "inspect", "redis://my_host:/1");
    }

    /** The URI forms the tool takes parse to what they name; the port check leaves them alone. */
    @Test
    void theOtherUriFormsAreTaken() {
        io.lettuce.core.RedisURI u = Keyspace.parse("redis://127.0.0.1:" + server.port());
        assertEquals("127.0.0.1:" + server.port(), u.getHost() + ":" + u.getPort());
        u = Keyspace.parse("redis://user:pa:ss@cache.example:6380/2");
        assertEquals(List.of("cache.example", 6380, 2, false), List.of(u.getHost(), u.getPort(), u.getDatabase(),
                u.isSsl()));
        u = Keyspace.parse("rediss://cache.example:6380");
        assertEquals(List.of("cache.example", 6380, true), List.of(u.getHost(), u.getPort(), u.isSsl()));
        u = Keyspace.parse("redis://cache.example"); // no port, or an empty one: the default
        assertEquals(6379, u.getPort());
        u = Keyspace.parse("redis://[::1]:6380");
        assertEquals(List.of("[::1]", 6380), List.of(u.getHost(), u.getPort()));
        assertEquals(6379, Keyspace.parse("redis://[::1]").getPort());
        u = Keyspace.parse("redis://cache.example:6380?database=3&clientName=tool&verifyPeer=NONE");
        assertEquals(List.of(3, "tool"), List.of(u.getDatabase(), u.getClientName()));
        assertEquals(4, Keyspace.parse("redis://cache.example?db=4").getDatabase());
        // and the tool connects with a plain one
        raw.sync().set(utf8("doc:1"), utf8(json(1000)));
        Tool t = Tool.run("inspect", "redis://127.0.0.1:" + server.port() + "/0", "--json");
        assertEquals(0, t.code(), t.toString());
    }

    /**
     * What Lettuce would take for another server or drop unread, or connect with only to fail late and unclearly, is
     * refused before anything is sent, naming the part that is wrong.
     */
    @Test
    void aUriLettuceWouldTakeForAnotherServerOrFailLateWithIsABadArgument() {
        // an empty port: a shell's redis://host:$PORT with PORT unset; Lettuce takes 6379, maybe another server
        refused("bad server URI 'redis://127.0.0.1:': the port after ':' is empty", "inspect", "redis://127.0.0.1:");
        refused("the port after ':' is empty", "migrate", "redis://user:pw@127.0.0.1:/0", "--from", "plain", "--to",
                "glide-zstd", "--match", "*", "--apply");
        refused("the port after ':' is empty", "inspect", "redis://[::1]:");
        refused("bad server URI 'redis://[::1]:0': port '0' is not a number from 1 to 65535", "inspect",
                "redis://[::1]:0");
        refused("bad server URI 'redis://[::1]:abc': Illegal character in port number", "inspect", "redis://[::1]:abc");
        refused("host '::1' is not a host name (letters, digits, '.', '-' and '_') or an IP address (an IPv6 address"
                + " in brackets: [::1])", "inspect", "redis://::1:6379");
        refused("bad server URI 'redis://': Expected authority", "inspect", "redis://");
        // query parameters Lettuce drops unread: the run would go to database 0
        refused("query parameter 'database=x' has no value Lettuce takes", "migrate", uri + "?database=x", "--from",
                "plain", "--to", "glide-zstd", "--match", "*", "--apply");
        refused("unknown query parameter 'databse=2'", "inspect", uri + "?databse=2");
        refused("the tool does not take the timeout from the URI; give --timeout SECONDS", "inspect",
                uri + "?timeout=5s");
        // connected to only to fail late: no native transport for Unix sockets; Sentinel is not supported
        refused("bad server URI 'redis-socket:///tmp/valkey.sock': Unix sockets are not supported", "inspect",
                "redis-socket:///tmp/valkey.sock");
        refused("Sentinel is not supported; give the primary's address", "migrate",
                "redis-sentinel://127.0.0.1:26379,127.0.0.1:26380/0#mymaster", "--from", "plain", "--to",
                "glide-zstd", "--match", "*", "--apply");
    }

    /** An IPv6 literal in brackets reaches a server listening on {@code ::1}. */
    @Test
    void anIpv6LiteralConnects() throws Exception {
        int port;
        try (java.net.ServerSocket s = new java.net.ServerSocket(0, 1, java.net.InetAddress.getByName("::1"))) {
            port = s.getLocalPort();
        }
        try (dev.zstdjava.testkit.RedisServer six = dev.zstdjava.testkit.RedisServer.start(
                dev.zstdjava.testkit.TestEnv.serverBinary(), List.of(), "::1", port, true)) {
            six.command("SET doc:1 " + "abcdefgh".repeat(40));
            Tool t = Tool.run("inspect", "redis://[::1]:" + port + "/0", "--json");
            assertEquals(0, t.code(), t.toString());
            assertEquals(List.of("[::1]:" + port, 1L), List.of(t.json().get("server").asText(),
                    t.json().get("keysRead").asLong()), t.out());
        }
    }

    @Test
    void aMinSizeTheLibraryRefusesIsABadArgumentOfEveryCommandThatTakesIt() {
        String limit = "--min-size must be at least " + CompressionConfig.MIN_COMPRESSION_SIZE_LIMIT + " bytes";
        refused(limit + " (the 5-byte header plus one byte), got 3", "advise", uri, "--min-size", "3");
        refused(limit, "migrate", uri, "--from", "plain", "--to", "glide-zstd", "--match", "*", "--min-size", "3",
                "--apply");
    }

    @Test
    void theLimitIsNamedWhenMigrateBuildsItsWriterFromIt() {
        refused("--limit must be between 1 and", "migrate", uri, "--from", "plain", "--to", "glide-zstd", "--match",
                "*", "--limit", "0", "--apply");
    }

    @Test
    void aDictionaryPrefixWithoutOneHashTagIsNamed() {
        refused("--dictionary-prefix: key prefix \"dict:\" must hold exactly one non-empty hash tag", "inspect", uri,
                "--dictionary-prefix", "dict:");
    }

    @Test
    void aTimeoutBeyondTheLimitIsRefused() {
        refused("--timeout must be between 1 and 86400 seconds (a day), got 10000000000", "inspect", uri,
                "--timeout", "10000000000");
    }

    @Test
    void sampleBoundsBelowOneAreRefusedNamingTheOption() {
        refused("--max-sample-bytes must be at least 1, got 0", "advise", uri, "--max-sample-bytes", "0");
        refused("--elements must be at least 1, got 0", "inspect", uri, "--elements", "0");
        refused("--sample must be at least 1, got -5", "advise", uri, "--sample", "-5");
    }

    @Test
    void aCursorThatIsNotOneOfAnEarlierRunIsABadArgument() {
        String[] migrate = {"migrate", uri, "--from", "plain", "--to", "glide-zstd", "--match", "*", "--apply",
                "--cursor"};
        refused("--cursor 'done': every key was seen by the run that printed it", concat(migrate, "done"));
        refused("--cursor 'x:1' is not a cursor as an earlier run printed it (0:CURSOR/OPTIONS on a standalone"
                + " server, NODEID:CURSOR@TOPOLOGY/OPTIONS on a cluster)", concat(migrate, "x:1"));
        String options = CursorOptionsTest.stoppedCursor().replaceFirst(".*/", "/"); // those of CursorOptionsTest.dryRun
        refused("--cursor '7:0" + options + "' names node 7, but a standalone server has one node, 0",
                CursorOptionsTest.dryRun("--cursor", "7:0" + options));
        refused("--cursor '" + "a".repeat(40) + ":5@0123abcd" + options + "' names a cluster node, but "
                + uri.substring(8) + " is a standalone server",
                CursorOptionsTest.dryRun("--cursor", "a".repeat(40) + ":5@0123abcd" + options));
    }

    /**
     * A run stopped by an error prints its summary so far, in text and JSON: the keys that failed before it (which
     * a run resumed from the cursor does not see again) are listed, with the cursor and the error.
     */
    @Test
    void aMigrationStoppedByAnErrorListsTheKeysThatFailedBeforeIt() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        for (int i = 0; i < 60; i++) {
            c.set(utf8("cx:" + i), PrintedNamesTest.CORRUPT);
        }
        for (boolean json : new boolean[] {false, true}) {
            AtomicInteger read = new AtomicInteger();
            Reader.afterType = key -> {
                if (read.incrementAndGet() == 30) {
                    throw new RedisCommandTimeoutException("Command timed out after 10 second(s)");
                }
            };
            Tool t;
            try {
                t = json ? Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "cx:*",
                        "--json") : Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match",
                        "cx:*");
            } finally {
                Reader.afterType = null;
            }
            assertEquals(1, t.code(), t.toString());
            Matcher m = Pattern.compile("resume with --cursor (\\S+)\\)").matcher(t.err());
            assertTrue(m.find(), t.toString());
            if (json) {
                com.fasterxml.jackson.databind.JsonNode r = t.json();
                assertEquals(29, r.get("failures").size(), t.out());
                assertEquals(m.group(1), r.get("cursor").asText());
                assertTrue(r.get("stopped").asText().contains("Command timed out after 10 second(s)"), t.out());
            } else {
                assertEquals(29, t.out().lines().filter(l -> l.matches("  failed: cx:\\d+: string value: corrupt.*"))
                        .count(), t.toString());
                assertTrue(t.out().contains("(dry run: nothing written), stopped by an error: "), t.out());
                assertTrue(t.out().contains("cursor: " + m.group(1)), t.out());
            }
        }
    }

    /** A --from form that --legacy leaves unrecognised could match nothing: refused rather than a run that skips all. */
    @Test
    void aFromFormThatLegacyDoesNotRecogniseIsRefused() {
        raw.sync().set(utf8("rz:1"), Writers.redissonZstd(json(1000)));
        refused("--from redisson-zstd is not among the formats --legacy recognises (lettuce-gzip,redisson-lz4): every"
                + " value would be skipped as not that format", "migrate", uri, "--from", "redisson-zstd", "--to",
                "glide-zstd", "--match", "*", "--legacy", "lettuce-gzip,redisson-lz4");
        Tool group = Tool.run("migrate", uri, "--from", "legacy", "--to", "glide-zstd", "--match", "*", "--legacy",
                "redisson-zstd", "--json");
        assertEquals(0, group.code(), group.toString());
        assertEquals(1, MigrateTest.count(group.json(), "rewritten"), group.out());
    }

    /** An error in the middle of a migration names the cursor to resume from; resuming there finishes the job. */
    @Test
    void aMigrationStoppedByAnErrorSaysWhereToResume() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        int keys = 300;
        for (int i = 0; i < keys; i++) {
            c.set(utf8("m:" + i), utf8(json(600 + i)));
        }
        AtomicInteger writes = new AtomicInteger();
        Migrate.beforeWrite = key -> {
            if (writes.incrementAndGet() == 150) {
                throw new RedisCommandTimeoutException("Command timed out after 10 second(s)");
            }
        };
        String[] args = {"migrate", uri, "--from", "plain", "--to", "glide-zstd", "--match", "m:*", "--apply",
                "--rate", "100000"};
        Tool stopped = Tool.run(args);
        assertEquals(1, stopped.code(), stopped.toString());
        Matcher m = Pattern.compile("stopped after (\\d+) rewritten; resume with --cursor (\\d+:\\d+/[0-9a-f]+)")
                .matcher(stopped.err());
        assertTrue(m.find(), stopped.toString());
        assertTrue(stopped.err().contains("Command timed out after 10 second(s)"), stopped.toString());
        System.out.println("migrate stopped by an error: " + stopped.err().strip());
        Migrate.beforeWrite = null;
        Tool resumed = Tool.run(concat(args, "--cursor", m.group(2), "--json"));
        assertEquals(0, resumed.code(), resumed.toString());
        // from the page it stopped in: every key rewritten once, by one run or the other
        assertEquals(keys - Long.parseLong(m.group(1)), MigrateTest.count(resumed.json(), "rewritten"), resumed.out());
        for (int i = 0; i < keys; i++) {
            byte[] stored = c.get(utf8("m:" + i));
            assertArrayEquals(new byte[] {0, 1, 2, 0, 1}, java.util.Arrays.copyOf(stored, 5), "m:" + i + " rewritten");
            assertEquals(json(600 + i), new String(Writers.ZSTD.decompress(stored),
                    java.nio.charset.StandardCharsets.UTF_8), "m:" + i);
        }
    }

    /** @return {@code a} followed by {@code b} */
    static String[] concat(String[] a, String... b) {
        String[] r = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, r, a.length, b.length);
        return r;
    }
}
