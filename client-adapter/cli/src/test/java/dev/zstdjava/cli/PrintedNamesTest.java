package dev.zstdjava.cli;

import com.fasterxml.jackson.databind.JsonNode;
import dev.zstdjava.testkit.TestValues;
import io.lettuce.core.api.sync.RedisCommands;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static dev.zstdjava.cli.Writers.utf8;
import static dev.zstdjava.testkit.TestValues.json;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Names the server supplies (keys, patterns, hash fields) are printed with their control characters as {@code \xHH},
 * in the text and the JSON output, so that a key cannot rewrite the terminal or forge a line of the report; and the
 * tool takes a name back in the form it printed it.
 */
class PrintedNamesTest extends StandaloneServer {
    /** A value Redisson's ZStdCodec could not have written: its frame header, then garbage. */
    static final byte[] CORRUPT = TestValues.concat(new byte[] {0, 0, 0x10, 0, 0x28, (byte) 0xb5, 0x2f, (byte) 0xfd, 0,
            0x58}, utf8("garbage after the zstd frame header"));

    /** @return the characters of {@code s} that act on a terminal (line breaks of the output itself aside) */
    static List<String> terminalControls(String s) {
        List<String> found = new ArrayList<>();
        s.codePoints().filter(c -> c != '\n' && (c < 0x20 || c >= 0x7f && c <= 0x9f || c == 0x2028 || c == 0x202e))
                .forEach(c -> found.add(String.format("U+%04X", c)));
        return found;
    }

    @Test
    void controlCharactersOfNamesArePrintedEscapedInTextAndJson() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        c.set(utf8("evil\u001b]0;owned\u0007\u001b[2J:a"), utf8(json(300)));
        c.set(utf8("csi\u009b31m\u202eab:a"), utf8(json(310))); // the 8-bit CSI and a right-to-left override
        c.set(utf8("bad\n  failed: victim:1: forged"), CORRUPT); // a newline that would forge a report line
        c.hset(utf8("h:1"), utf8("f\u001b[1m"), utf8(json(320)));

        Tool inspect = Tool.run("inspect", uri);
        assertEquals(0, inspect.code(), inspect.toString());
        assertEquals(List.of(), terminalControls(inspect.out()), inspect.out());
        // the pattern's digits are folded to *
        assertTrue(inspect.out().contains("evil\\x1B]*;owned\\x07\\x1B[*J"), inspect.out());
        assertTrue(inspect.out().contains("csi\\xC2\\x9B*m\\xE2\\x80\\xAEab"), inspect.out());

        Tool json = Tool.run("inspect", uri, "--json");
        assertEquals(0, json.code(), json.toString());
        List<String> patterns = new ArrayList<>();
        json.json().get("patterns").forEach(p -> patterns.add(p.get("pattern").asText()));
        assertEquals(List.of(), terminalControls(String.join(" ", patterns)), patterns.toString());
        assertTrue(patterns.stream().anyMatch(p -> p.contains("evil\\x1B]*;owned\\x07\\x1B[*J")), patterns.toString());

        Tool migrate = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "*");
        assertEquals(1, migrate.code(), migrate.toString());
        assertEquals(List.of(), terminalControls(migrate.out() + migrate.err()), migrate.toString());
        assertTrue(migrate.out().contains("  failed: bad\\x0A  failed: victim:1: forged: string value: corrupt"),
                migrate.out());
        assertFalse(migrate.out().lines().anyMatch(l -> l.startsWith("  failed: victim:1")), "no forged line: "
                + migrate.out());
        Tool migrateJson = Tool.run("migrate", uri, "--from", "redisson-zstd", "--to", "glide-zstd", "--match", "*",
                "--json");
        JsonNode failures = migrateJson.json().get("failures");
        assertEquals(1, failures.size(), migrateJson.out());
        assertEquals(List.of(), terminalControls(failures.get(0).asText()), failures.toString());

        Tool advise = Tool.run("advise", uri, "--json");
        assertEquals(0, advise.code(), advise.toString());
        List<String> advised = new ArrayList<>();
        advise.json().get("patterns").forEach(p -> advised.add(p.get("pattern").asText()));
        assertTrue(advised.stream().anyMatch(p -> p.contains("\\x1B")), advised.toString());
        assertEquals(List.of(), terminalControls(String.join(" ", advised)), advised.toString());
    }

    /** A key printed by the tool (a byte that is not UTF-8, a control character, a backslash) is taken back as such. */
    @Test
    void inspectGetTakesANameInTheFormTheToolPrintsIt() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        byte[] key = TestValues.concat(new byte[] {(byte) 0xff, 'k', 0x1b, '\\'}, utf8("é:1"));
        String value = json(5000);
        c.set(key, utf8(value));
        String printed = "\\xFFk\\x1B\\\\é:1";
        Tool get = Tool.run("inspect", "get", uri, printed);
        assertEquals(0, get.code(), get.toString());
        assertEquals(value, get.out().strip());
        assertTrue(get.err().startsWith(printed + ": plain"), get.err());
        // as a run that lists the key prints it (it is over --limit)
        Tool listed = Tool.run("migrate", uri, "--from", "plain", "--to", "glide-zstd", "--match", "*", "--limit",
                "4000");
        Matcher m = Pattern.compile("failed: (.*): string value of 5000 bytes").matcher(listed.out());
        assertTrue(m.find(), listed.toString());
        assertEquals(printed, m.group(1));

        c.hset(utf8("h:1"), new byte[] {0x1b, 'f', (byte) 0xfe}, utf8("the field's value"));
        Tool field = Tool.run("inspect", "get", uri, "h:1", "--field", "\\x1bf\\xfe", "--json");
        assertEquals(0, field.code(), field.toString());
        assertEquals("the field's value", field.json().get("value").asText());
        assertEquals("\\x1Bf\\xFE", field.json().get("field").asText());

        c.set(utf8("a\\b"), utf8("a backslash"));
        Tool backslash = Tool.run("inspect", "get", uri, "a\\\\b");
        assertEquals(0, backslash.code(), backslash.toString());
        assertEquals("a backslash", backslash.out().strip());
        Tool lone = Tool.run("inspect", "get", uri, "a\\b");
        assertEquals(2, lone.code(), lone.toString());
        assertTrue(lone.err().contains("KEY 'a\\b': a backslash at character 2 starts neither \\\\ (a backslash) nor"
                + " \\xHH (one byte)"), lone.err());
        assertEquals("a backslash", new String(c.get(utf8("a\\b")), StandardCharsets.UTF_8));
    }

    /**
     * A printed key pasted into {@code --match}: {@code \xHH} is that byte (a glob character so written matches
     * itself), not the glob's escaped {@code x} followed by two letters, which would match other keys; the glob's own
     * escapes still work; a backslash that starts no escape is refused.
     */
    @Test
    void matchTakesAPrintedNameBack() {
        RedisCommands<byte[], byte[]> c = raw.sync();
        byte[] key = TestValues.concat(new byte[] {(byte) 0xff, 'k', 0x1b}, utf8("é:1"));
        c.set(key, utf8(json(1000)));
        c.set(utf8("xFFkx1Bé:1"), utf8(json(1000))); // what the glob \xFFk\x1B* matches, read as the server reads it
        c.set(utf8("star*1"), utf8(json(1000)));
        c.set(utf8("star11"), utf8(json(1000)));
        Tool listed = Tool.run("migrate", uri, "--from", "plain", "--to", "glide-zstd", "--match", "*", "--limit", "900");
        assertTrue(listed.out().contains("failed: \\xFFk\\x1Bé:1: string value of 1"), listed.toString());

        Tool t = Tool.run("migrate", uri, "--from", "plain", "--to", "glide-zstd", "--match", "\\xFFk\\x1B*",
                "--apply", "--json");
        assertEquals(0, t.code(), t.toString());
        assertEquals(1, MigrateTest.count(t.json(), "rewritten"), t.out());
        assertEquals(0, c.get(key)[0], "the printed key rewritten");
        assertEquals('{', c.get(utf8("xFFkx1Bé:1"))[0], "the other key left alone");
        Tool inspect = Tool.run("inspect", uri, "--match", "\\xff\\x6B\\x1b\\xC3\\xA9:*", "--json");
        assertEquals(0, inspect.code(), inspect.toString());
        assertEquals(1, inspect.json().get("keysScanned").asLong(), inspect.out());

        Tool star = Tool.run("inspect", uri, "--match", "star\\x2A1", "--json"); // the byte '*', not the glob's
        assertEquals(1, star.json().get("keysScanned").asLong(), star.out());
        Tool escaped = Tool.run("inspect", uri, "--match", "star\\*1", "--json");
        assertEquals(1, escaped.json().get("keysScanned").asLong(), escaped.out());
        Tool glob = Tool.run("inspect", uri, "--match", "star*1", "--json");
        assertEquals(2, glob.json().get("keysScanned").asLong(), glob.out());

        Tool bad = Tool.run("inspect", uri, "--match", "a\\xZZ*");
        assertEquals(2, bad.code(), bad.toString());
        assertTrue(bad.err().contains("--match 'a\\xZZ*': \\x at character 2 is not followed by two hex digits"),
                bad.err());
        Tool trailing = Tool.run("migrate", uri, "--from", "plain", "--to", "glide-zstd", "--match", "a\\");
        assertEquals(2, trailing.code(), trailing.toString());
        assertTrue(trailing.err().contains("--match 'a\\': the backslash at character 2 escapes nothing"),
                trailing.err());
    }
}
