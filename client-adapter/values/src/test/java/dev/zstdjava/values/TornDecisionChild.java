package dev.zstdjava.values;

import java.util.List;

import static dev.zstdjava.values.TwoPatterns.b;
import static dev.zstdjava.values.TwoPatterns.blobValue;
import static dev.zstdjava.values.TwoPatterns.decision;

/**
 * The program {@link SnapshotDuringSwitchTest} runs under {@code HoldingDebugger} ({@code src/test/jdi}): a thread's
 * sampled write makes a pattern's first decision (zstd 3 to plain, random values) and is held by the debugger inside
 * the switch, just after the new option is published; meanwhile the main thread takes a snapshot. It prints the
 * pattern's decision before the switch, during it and after it, one line each.
 */
public final class TornDecisionChild {
    private TornDecisionChild() {
    }

    public static void main(String[] args) throws InterruptedException {
        // every write of the first 64 sampled; the first decision after 8 samples
        AdaptiveCompressor ac = AdaptiveCompressor.builder(CompressionConfig.defaults()).patterns(List.of("blob:*"))
                .sampling(64, 1 << 30, 1 << 30).window(8, 8).hysteresis(1, 0.01, 0.2).build();
        byte[] key = b("blob:1");
        for (int i = 0; i < 7; i++) {
            ac.compress(key, blobValue(i)); // samples 1 to 7: no decision yet
        }
        PatternDecision before = decision(ac, "blob:*");
        Thread.sleep(20); // the switch's time is later than the pattern's first one
        Thread switcher = new Thread(() -> ac.compress(key, blobValue(7)), "switcher"); // the 8th: zstd 3 -> plain
        switcher.start();
        awaitHeld();
        PatternDecision during = decision(ac, "blob:*");
        releaseHeld();
        switcher.join();
        PatternDecision after = decision(ac, "blob:*");
        print("before", before);
        print("during", during);
        print("after", after);
    }

    private static void print(String when, PatternDecision d) {
        System.out.println(when + ": option=" + d.option() + " saved=" + d.savedFraction() + " since=" + d.since());
    }

    /** The debugger holds the caller here until the switcher is held. */
    static void awaitHeld() {
    }

    /** The debugger lets the switcher go on here. */
    static void releaseHeld() {
    }
}
