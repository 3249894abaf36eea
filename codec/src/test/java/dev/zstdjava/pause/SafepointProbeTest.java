package dev.zstdjava.pause;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The safepoint probe's short form. {@link #stagingKeepsTheTimeToSafepointFarBelowOneCriticalCall} asserts what
 * staging is for, as a relation measured in one JVM (no absolute time: the machine may be loaded);
 * {@link #everyWorkloadRunsAndItsSafepointsAreMeasured} runs every workload of {@code tools/safepoint.sh} for
 * {@code -Dzstdjava.safepoint.seconds} (default 1) in its own JVM and prints the figures docs/reliability.md quotes.
 * Neither carries a {@code @Timeout}: the default one applies, which {@code tools/safepoint.sh} raises with the length.
 */
class SafepointProbeTest {
    private static long millis() {
        return (long) (Double.parseDouble(System.getProperty("zstdjava.safepoint.seconds", "1")) * 1000);
    }

    @Test
    void everyWorkloadRunsAndItsSafepointsAreMeasured() throws Exception {
        for (String w : SafepointProbe.WORKLOADS) {
            SafepointProbe.Result r = SafepointProbe.measure(w, millis(), Path.of("target", "safepoint"));
            System.out.println("safepoint: " + r);
            assertTrue(r.safepoints() > 0 && r.worstNanos() >= r.p99Nanos() && r.p99Nanos() >= 0,
                    "no safepoint measured for " + w + ": " + r);
        }
    }

    /**
     * 8 MiB heap arrays at level 9, in one JVM with a safepoint requested every 3 ms: phases of one critical call
     * per array (what the limit prevents) and phases of the library's own call, which stages arrays above
     * {@code zstdjava.criticalHeapLimit} through native memory, in turn. While the critical calls run, a safepoint
     * waits for the call in progress (most of one call); while staged calls run, only for a copy. Asserted with
     * wide margins (medians over three phases each): the typical wait at least 10 times shorter, the worst at least
     * 2 times shorter.
     */
    @Test
    void stagingKeepsTheTimeToSafepointFarBelowOneCriticalCall() throws Exception {
        assumeTrue(Runtime.version().feature() >= 22,
                "JDK 21 has no critical downcall on heap arrays (the library always stages there): nothing to compare");
        SafepointProbe.Staging s = SafepointProbe.compareStaging(Math.min(Math.max(millis(), 1000) * 3, 30_000),
                Path.of("target", "safepoint"));
        System.out.println("safepoint: " + s);
        assertTrue(s.fewestSafepoints() >= 3, "too few safepoints in a phase to compare: " + s);
        long stagedTypical = SafepointProbe.Staging.median(s.staged(), SafepointProbe.Staging::median);
        long criticalTypical = SafepointProbe.Staging.median(s.critical(), SafepointProbe.Staging::median);
        long stagedWorst = SafepointProbe.Staging.median(s.staged(), SafepointProbe.Staging::worst);
        long criticalWorst = SafepointProbe.Staging.median(s.critical(), SafepointProbe.Staging::worst);
        assertTrue(stagedTypical * 10 <= criticalTypical,
                "the typical time to safepoint with staging is not 10 times below a critical call's: " + s);
        assertTrue(stagedWorst * 2 <= criticalWorst,
                "the worst time to safepoint with staging is not 2 times below a critical call's: " + s);
    }
}
