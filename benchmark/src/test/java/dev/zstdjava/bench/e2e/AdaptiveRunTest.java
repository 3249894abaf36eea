package dev.zstdjava.bench.e2e;

import dev.zstdjava.values.CompressionGoal;
import dev.zstdjava.values.DictionaryManager;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.DisabledIfSystemProperty;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.*;

/** {@code ./e2e --adaptive}: its options, and a tiny run against a real server that checks the report's parts. */
class AdaptiveRunTest {
    @Test
    void adaptiveHasItsOwnReportRoundsAndLearning() {
        EndToEnd.Options full = EndToEnd.parse(new String[] {"--adaptive"});
        assertEquals(AdaptiveRun.FULL_OUT, full.out);
        assertEquals(3, full.rounds);
        assertEquals(4000, full.adaptiveWrites);
        EndToEnd.Options quick = EndToEnd.parse(new String[] {"--adaptive", "--quick"});
        assertEquals(AdaptiveRun.QUICK_OUT, quick.out);
        assertEquals(1, quick.rounds);
        assertEquals(2500, quick.adaptiveWrites);
        assertEquals(2, EndToEnd.run(new String[] {"--adaptive", "--probe-event-loop"}, nowhere()));
        assertEquals(2, EndToEnd.run(new String[] {"--adaptive", "--keys", "20"}, nowhere()));
        assertEquals(CompressionGoal.balanced(), full.goal);
        assertEquals(DictionaryManager.DEFAULT_MIN_IMPROVEMENT, full.dictionaryGain);
    }

    @Test
    void theGoalAndTheDictionaryGainAreTheRunsToChooseAndCheckedAsTheLibraryChecksThem() {
        EndToEnd.Options memory = EndToEnd.parse(new String[] {"--adaptive", "--adaptive-goal", "memory",
                "--adaptive-cpu-budget", "5", "--adaptive-dictionary-gain", "1.5"});
        assertEquals(CompressionGoal.memory(5), memory.goal);
        assertEquals(0.015, memory.dictionaryGain, 1e-12);
        assertEquals(CompressionGoal.speed(), EndToEnd.parse(new String[] {"--adaptive", "--adaptive-goal", "SPEED"})
                .goal);
        for (String[] bad : new String[][] {
                {"--adaptive", "--adaptive-goal", "memory"},
                {"--adaptive", "--adaptive-goal", "memory", "--adaptive-cpu-budget", "0"},
                {"--adaptive", "--adaptive-goal", "balanced", "--adaptive-cpu-budget", "5"},
                {"--adaptive", "--adaptive-goal", "smallest"},
                {"--adaptive", "--adaptive-dictionary-gain", "-1"},
                {"--adaptive-goal", "speed"}}) {
            assertEquals(2, EndToEnd.run(bad, nowhere()), String.join(" ", bad));
        }
    }

    @Test
    @DisabledIfSystemProperty(named = "zstdjava.skipServerTests", matches = "true",
            disabledReason = "left out with -Dzstdjava.skipServerTests=true")
    void tinyRunWritesEveryPart(@TempDir Path dir) throws Exception {
        Path out = dir.resolve("adaptive.md");
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        int status;
        try (PrintStream err = new PrintStream(log, true, StandardCharsets.UTF_8)) {
            status = EndToEnd.run(new String[] {"--adaptive", "--keys", "200", "--adaptive-writes", "200",
                    "--rounds", "1", "--seconds", "0.05", "--global-warmup", "0.05", "--inflight", "4", "--batch", "5",
                    "--no-progress", "--out", out.toString(), "--profile", dir.resolve("profiles").toString()}, err);
        }
        String logText = log.toString(StandardCharsets.UTF_8);
        assertEquals(EndToEnd.OK, status, logText);
        String md = Files.readString(out);
        assertTrue(md.contains("**0 mismatches**"), md);
        for (AdaptiveRun.Client c : AdaptiveRun.Client.values()) {
            assertTrue(md.contains("| " + c.id + " | "), c.id + " missing:\n" + md);
        }
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            assertTrue(md.matches("(?s).*\\| " + k.id + " \\| `[^`]+` \\| [a-z0-9 +-]+ \\|.*"), k.id + "'s decision:\n"
                    + md);
        }
        for (String part : new String[] {"## The value set", "## Per client", "### Server memory per kind",
                "### GET per kind",
                "## Decisions: lettuce-zstd-adaptive next to advise's rule", "### The oracle's measurements",
                "## Targets (ratios against lettuce-zstd, fixed zstd 3)", "| Client CPU per SET, adaptive / zstd 3 |",
                "| Memory saved, adaptive vs the oracle |", "| Decisions settled (most writes of a pattern) |",
                "lettuce-zstd-adaptive's patterns with a dictionary: ", " | Its dictionary |",
                "- The goal of lettuce-zstd-adaptive and of advise's rule here: balanced; a pattern's dictionary is "
                        + "adopted, and the oracle's dictionary option usable, at +5.0 points (the library's default).",
                "Target ratios: the median of the two clients' ratios round by round"}) {
            assertTrue(md.contains(part), part + " missing:\n" + md);
        }
        // each GET target with its per-round quartiles; each round's GET figures in the log
        for (MixedValues.Kind k : MixedValues.Kind.values()) {
            assertTrue(md.matches("(?s).*\\| GET on " + k.id + ": throughput, p50 \\| [0-9.]+x, [0-9.]+x \\(a round's: "
                    + "[0-9.]+-[0-9.]+x, [0-9.]+-[0-9.]+x; lettuce-zstd-again: [0-9.]+x, [0-9.]+x, a round's: "
                    + "[0-9.]+-[0-9.]+x, [0-9.]+-[0-9.]+x\\) \\|.*"), k.id + ":\n" + md);
            assertTrue(logText.contains("e2e: round 1/1 GET " + k.id + "; "), k.id + ":\n" + logText);
        }
        // --profile: one profile per client of its SET phase and of each slice of each kind's GET phase (the
        // oracles: SET only)
        String profiles = Files.readString(dir.resolve("profiles").resolve("profiles.md"));
        for (AdaptiveRun.Client c : AdaptiveRun.Client.values()) {
            assertTrue(Files.size(dir.resolve("profiles").resolve("mixed-4-5-" + c.id + "-r1-set.collapsed")) > 0, c.id);
            assertTrue(profiles.contains("| mixed if4 b5 | SET | " + c.id + " | 1 | "), c.id + ":\n" + profiles);
            boolean reads = c != AdaptiveRun.Client.ORACLE && c != AdaptiveRun.Client.ORACLE_NO_DICTIONARY;
            for (int slice = 1; slice <= AdaptiveRun.GET_SLICES; slice++) {
                assertEquals(reads, Files.exists(dir.resolve("profiles").resolve("html-" + slice + "-4-5-" + c.id
                        + "-r1-get.collapsed")), c.id + " html, slice " + slice);
            }
        }
        // the tokens and the gzip blobs are left plain by advise's rule, as they do not compress
        assertTrue(md.matches("(?s).*\\| token \\| `[^`]+` \\| [^|]+ \\| [^|]+ \\| plain \\|.*"), md);
        assertTrue(md.matches("(?s).*\\| gzip \\| `[^`]+` \\| [^|]+ \\| [^|]+ \\| plain \\|.*"), md);
    }

    private static PrintStream nowhere() {
        return new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8);
    }
}
