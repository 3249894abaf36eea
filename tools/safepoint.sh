#!/usr/bin/env bash
# Worst time-to-safepoint caused by critical heap calls at the default zstdjava.criticalHeapLimit:
#   tools/safepoint.sh [seconds-per-workload]      (default 10)
# Each workload (no zstd calls; compress at levels 1, 3, 9, 19 at the largest input that is still a critical call;
# decompress of 1 MiB) runs in its own JVM with -Xlog:safepoint while another thread requests a safepoint every
# few milliseconds. Logs: codec/target/safepoint/<workload>.log.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-10}"
# the test's time limit grows with the run (six workloads, then the staging comparison of at most 30 s)
./mvnw -B -ntp -pl codec -am verify -Dtest=SafepointProbeTest -Dsurefire.failIfNoSpecifiedTests=false \
  "-Dzstdjava.safepoint.seconds=$seconds" "-Dzstdjava.test.timeout=$(( ${seconds%.*} * 6 + 600 )) s" \
  -Dzstdjava.test.forkTimeout=0 | grep -E '^safepoint:|Tests run:|FAIL|BUILD'
