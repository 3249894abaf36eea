package dev.zstdjava.values;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A snapshot taken while a pattern switches, interleaved exactly by a debugger
 * ({@code src/test/jdi/HoldingDebugger.java} runs {@link TornDecisionChild}): the switching thread is held inside
 * {@code PatternState.switchTo} just after it publishes the new option, and the snapshot taken then must be one
 * decision, the one before or the one after (its option, its saving and since when), not the new option with the old
 * one's saving and time.
 */
class SnapshotDuringSwitchTest {
    private static final Path SOURCE = Path.of("src/main/java/dev/zstdjava/values/PatternState.java");

    /** @return the line after the one of {@code switchTo} that publishes the new option ({@code current = ...}) */
    private static int afterPublishLine() throws Exception {
        List<String> lines = Files.readAllLines(SOURCE, StandardCharsets.UTF_8);
        int i = 0;
        while (i < lines.size() && !lines.get(i).contains("private void switchTo(")) {
            i++;
        }
        while (i < lines.size() && !lines.get(i).trim().startsWith("current = ")) {
            i++;
        }
        assertTrue(i + 1 < lines.size(), "switchTo's current = ... in " + SOURCE.toAbsolutePath());
        return i + 2; // 1-based: the line after it
    }

    @Test
    void aSnapshotDuringASwitchIsOneDecision() throws Exception {
        String out = PatternStateRaceTest.debug(TornDecisionChild.class, PatternState.class, afterPublishLine(),
                "switchTo", "(Ldev/zstdjava/values/CompressionOption;Ldev/zstdjava/values/CompressionOption;"
                        + "Ljava/lang/String;)V", "switcher");
        String before = line(out, "before: ");
        String during = line(out, "during: ");
        String after = line(out, "after: ");
        assertTrue(before.startsWith("option=zstd 3 "), out);
        assertTrue(after.startsWith("option=plain saved=0.0 "), out);
        assertNotEquals(before, after, out);
        assertTrue(during.equals(before) || during.equals(after),
                "the snapshot during the switch is neither the decision before nor the one after:\n" + out);
        assertEquals(after, during, "held after the new option is published: the new decision\n" + out);
    }

    private static String line(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).findFirst()
                .orElseThrow(() -> new AssertionError("no line " + prefix + " in:\n" + out));
    }
}
