package dev.zstdjava.pause;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/**
 * The safepoint probe's short form: every workload runs for {@code -Dzstdjava.safepoint.seconds} (default 1) in its
 * own JVM and its safepoint log is parsed. The figures are printed, not asserted (timing depends on the machine);
 * {@code tools/safepoint.sh} runs the long form whose figures docs/reliability.md quotes.
 */
class SafepointProbeTest {
    @Test
    void everyWorkloadRunsAndItsSafepointsAreMeasured() throws Exception {
        long millis = (long) (Double.parseDouble(System.getProperty("zstdjava.safepoint.seconds", "1")) * 1000);
        for (String w : SafepointProbe.WORKLOADS) {
            SafepointProbe.Result r = SafepointProbe.measure(w, millis, Path.of("target", "safepoint"));
            System.out.println("safepoint: " + r);
            assertTrue(r.safepoints() > 0 && r.worstNanos() >= r.p99Nanos() && r.p99Nanos() >= 0,
                    "no safepoint measured for " + w + ": " + r);
        }
    }
}
