package dev.zstdjava.cli;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.zstdjava.cli.Writers.utf8;
import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/**
 * A migrate cursor carries the options that decide which keys the run rewrites and how: resumed under other ones
 * (another {@code --match}, a dry run's cursor with {@code --apply}, ...) it is refused, naming the option, before
 * anything is read; a cursor without them (as earlier versions printed) is refused naming its form.
 */
class CursorOptionsTest extends StandaloneServer {
    static final String[] DRY_RUN = {"migrate", null, "--from", "plain", "--to", "glide-zstd", "--match", "a:*"};

    @AfterEach
    void noHook() {
        Reader.afterType = null;
    }

    /** @return {@link #DRY_RUN} on this test's server, followed by {@code more} */
    static String[] dryRun(String... more) {
        String[] args = DRY_RUN.clone();
        args[1] = uri;
        return BadArgumentsTest.concat(args, more);
    }

    /** Writes 300 plain keys a:N and 300 b:N, and stops a dry run over a:* at the 150th key it reads. */
    static String stoppedCursor() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        for (int i = 0; i < 300; i++) {
            c.set(utf8("a:" + i), utf8(json(600 + i)));
            c.set(utf8("b:" + i), utf8(json(600 + i)));
        }
        return stoppedCursor(dryRun());
    }

    /** @return the cursor printed by the run of {@code args}, stopped at the 150th key it reads */
    static String stoppedCursor(String... args) {
        AtomicInteger read = new AtomicInteger();
        Reader.afterType = key -> {
            if (read.incrementAndGet() == 150) {
                throw new RedisCommandTimeoutException("Command timed out after 10 second(s)");
            }
        };
        Tool stopped = Tool.run(args);
        Reader.afterType = null;
        assertEquals(1, stopped.code(), stopped.toString());
        Matcher m = Pattern.compile("resume with --cursor (\\S+)\\)").matcher(stopped.err());
        assertTrue(m.find(), stopped.toString());
        assertNotEquals("0", m.group(1), "stopped after the first page: " + stopped);
        return m.group(1);
    }

    @Test
    void aCursorResumedUnderOtherOptionsIsRefusedNamingThem() {
        String cursor = stoppedCursor();
        Map<String, Object> before = MigrateTest.dump();

        // another --match: the keys of b:* the cursor passed would never be seen, and the run would say "done"
        Tool otherMatch = Tool.run(migrate("b:*", "--cursor", cursor));
        assertEquals(2, otherMatch.code(), otherMatch.toString());
        assertTrue(otherMatch.err().contains("--cursor '" + cursor + "' was printed by a run with another --match"),
                otherMatch.err());
        assertTrue(otherMatch.err().contains("run again without --cursor"), otherMatch.err());
        assertTrue(otherMatch.out().isEmpty(), otherMatch.out());

        // a dry run's cursor with --apply: the keys before it would never be written
        Tool applied = Tool.run(dryRun("--apply", "--cursor", cursor));
        assertEquals(2, applied.code(), applied.toString());
        assertTrue(applied.err().contains("was printed by a run with another --apply"), applied.err());

        Tool otherFrom = Tool.run("migrate", uri, "--from", "compressed", "--to", "plain", "--match", "a:*",
                "--cursor", cursor);
        assertEquals(2, otherFrom.code(), otherFrom.toString());
        assertTrue(otherFrom.err().contains("was printed by a run with another --from and --to"), otherFrom.err());
        Tool otherLegacy = Tool.run(dryRun("--legacy", "redisson-zstd", "--cursor", cursor));
        assertEquals(2, otherLegacy.code(), otherLegacy.toString());
        assertTrue(otherLegacy.err().contains("was printed by a run with another --legacy"), otherLegacy.err());
        assertEquals(before, MigrateTest.dump(), "nothing written");

        // the same options, written otherwise (the form's label in another case, the default level): resumed
        Tool same = Tool.run(BadArgumentsTest.concat(new String[] {"migrate", uri, "--from", "PLAIN", "--to",
                "glide-zstd:3", "--match", "a:*", "--cursor", cursor, "--json"}));
        assertEquals(0, same.code(), same.toString());
        long resumed = MigrateTest.count(same.json(), "rewritten");
        assertTrue(resumed > 0 && resumed < 300, same.out());
        assertEquals("done", same.json().get("cursor").asText());
    }

    /**
     * {@code --min-size} decides only what a compressed {@code --to} writes: with {@code --to plain} every value in the
     * {@code --from} form is written plain whatever it is, so a cursor resumes under another {@code --min-size}.
     */
    @Test
    void toPlainResumesUnderAnotherMinSize() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        for (int i = 0; i < 300; i++) {
            c.set(utf8("z:" + i), Writers.ZSTD.compress(utf8(json(600 + i))));
        }
        String[] toPlain = {"migrate", uri, "--from", "compressed", "--to", "plain", "--match", "z:*"};
        String cursor = stoppedCursor(toPlain);
        Tool resumed = Tool.run(BadArgumentsTest.concat(toPlain, "--min-size", "128", "--cursor", cursor, "--json"));
        assertEquals(0, resumed.code(), resumed.toString());
        long rest = MigrateTest.count(resumed.json(), "rewritten");
        assertTrue(rest > 0 && rest < 300, resumed.out());
        assertEquals("done", resumed.json().get("cursor").asText());

        // with a compressed --to it decides which values are written compressed: another one is refused
        Tool toZstd = Tool.run("migrate", uri, "--from", "plain", "--to", "glide-zstd", "--match", "a:*",
                "--min-size", "128", "--cursor", stoppedCursor());
        assertEquals(2, toZstd.code(), toZstd.toString());
        assertTrue(toZstd.err().contains("was printed by a run with another --min-size"), toZstd.err());
    }

    /** A cursor without the options it was printed under (as earlier versions printed it) is refused, naming its form. */
    @Test
    void aCursorOfAnEarlierVersionIsRefusedNamingItsForm() {
        String cursor = stoppedCursor();
        String old = cursor.replaceFirst("/.*", ""); // the cursor as earlier versions printed it
        assertTrue(old.matches("0:[0-9]+"), old);
        Tool t = Tool.run(dryRun("--cursor", old));
        assertEquals(2, t.code(), t.toString());
        assertTrue(t.err().contains("--cursor '" + old + "' is a cursor of an earlier version of the tool"
                + " (0:CURSOR, NODEID:CURSOR@TOPOLOGY), which does not carry the options it was printed under"), t.err());
        assertTrue(t.out().isEmpty(), t.out());
    }

    /** {@code migrate --from plain --to glide-zstd --match MATCH} on this test's server, followed by {@code more} */
    private static String[] migrate(String match, String... more) {
        return BadArgumentsTest.concat(new String[] {"migrate", uri, "--from", "plain", "--to", "glide-zstd",
                "--match", match}, more);
    }
}
