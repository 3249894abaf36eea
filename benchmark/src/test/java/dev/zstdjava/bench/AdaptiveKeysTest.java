package dev.zstdjava.bench;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import picocli.CommandLine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The paired random-keys comparison ({@code benchmarks.jar adaptive-keys}): its short form end to end, and its arithmetic. */
class AdaptiveKeysTest {
    @Test
    void shortRunTimesEveryContestantAndPrintsTheTableAndTheDecisions() {
        // one child JVM, two rounds of 200 writes: checks the plumbing, its numbers mean nothing
        PrintStream was = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        int status;
        try {
            System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
            status = new CommandLine(new AdaptiveKeys()).execute("--jvms", "1", "--rounds", "2",
                    "--warmup-rounds", "0", "--writes", "200");
        } finally {
            System.setOut(was);
        }
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, out);
        for (int c = 1; c < AdaptiveKeys.CONTESTANTS.length; c++) {
            String name = AdaptiveKeys.CONTESTANTS[c];
            assertTrue(out.lines().anyMatch(l -> l.matches("\\| " + name + " \\| \\d+\\.\\d{3}x \\[.*")), name + "\n" + out);
        }
        assertTrue(out.contains("Random keys: "), out);
        // random keys beyond the table's bound share "(other)"; the one key's pattern is its fold
        assertTrue(out.contains("JVM 1: random keys: (other) "), out);
        assertTrue(out.contains("JVM 1: one key: sess:*:profile "), out);
    }

    @Test
    void eachRoundIsTimedAgainstZstd3InTheSameRoundAndTheVerdictIsTheMedianOfTheJvms() {
        // round 0: zstd 3 100 ns, the others 90..120; round 1: zstd 3 200 ns (a slow phase), the others twice theirs
        List<String> lines = new ArrayList<>();
        double[] first = {100, 90, 99, 110, 120};
        for (int c = 0; c < first.length; c++) {
            lines.add("0\t" + c + "\t" + first[c]);
            lines.add("1\t" + c + "\t" + 2 * first[c]);
        }
        lines.add("decision\trandom keys: (other) zstd 1 after 9 writes");
        double[][] ratio = AdaptiveKeys.parse(lines, 2);
        assertEquals(0.99, ratio[AdaptiveKeys.RANDOM_KEYS][0], 1e-9);
        assertEquals(0.99, ratio[AdaptiveKeys.RANDOM_KEYS][1], 1e-9, "a slow phase that hits both cancels out");
        double[][] over = AdaptiveKeys.parse(lines.stream().map(l -> l.startsWith("0\t2\t") ? "0\t2\t104" : l).toList(), 2);
        String met = AdaptiveKeys.report(List.of(ratio, ratio, over), "test");
        assertTrue(met.contains("| adaptive, random keys | 0.990x [0.990, 1.015] |"), met);
        assertTrue(met.contains("no more than the fixed mode (met)"), met);
        String missed = AdaptiveKeys.report(List.of(over, over, ratio), "test");
        assertTrue(missed.contains("| adaptive, random keys | 1.015x [0.990, 1.015] |"), missed);
        assertTrue(missed.contains("MORE than the fixed mode"), missed);
        List<String> noRound = lines.stream().filter(l -> !l.startsWith("1\t3\t")).toList();
        assertThrows(IllegalStateException.class, () -> AdaptiveKeys.parse(noRound, 2));
    }
}
