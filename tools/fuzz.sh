#!/usr/bin/env bash
# Coverage-guided fuzzing of every decoding entry point, for as long as asked:
#   tools/fuzz.sh [seconds-per-target] [target,target,...]
# Each target runs in its own forked JVM under Jazzer, starting from its corpus in the repository
# (codec/src/test/fuzz/<target>/, client-adapter/values/src/test/fuzz/ValueCompressorFuzz/); new inputs that add coverage
# are merged back there (commit them to resume from them next time). A finding (an undocumented exception, a failed
# cross-check, a JVM crash) stops that target, is saved as crash-<sha1> in its corpus folder, and fails the run.
# Targets run on the build's JDK only (the JDK 21 and aarch64 test executions are left out of long runs).
# Every target's executions are appended to docs/fuzz-runs.tsv, the record the figures of docs/reliability.md add up.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-300}"
targets="${2:-}"
args=(-B -ntp -pl client-adapter/values -am verify "-Dtest=CodecFuzzTest#fuzz,ValueCompressorFuzzTest#fuzz"
      -Dsurefire.failIfNoSpecifiedTests=false -Dzstdjava.jdk21.skip=true -Dzstdjava.skipAarch64=true
      "-Dzstdjava.fuzz.seconds=$seconds" -Dzstdjava.fuzz.keepCorpus=true
      "-Dzstdjava.test.timeout=$(( seconds + 600 )) s" -Dzstdjava.test.forkTimeout=0   # per target: its time and 10 min
      -Dmaven.test.failure.ignore=true)   # a finding in one target must not stop the others; see the exit codes below
[ -n "$targets" ] && args+=("-Dzstdjava.fuzz.targets=$targets")
rm -f codec/target/fuzz/runs.tsv client-adapter/values/target/fuzz/runs.tsv
status=0
./mvnw "${args[@]}" || status=$?
log=docs/fuzz-runs.tsv
[ -f "$log" ] || printf 'date\ttarget\tseconds\texecutions\texit\twall_seconds\n' > "$log"
for f in codec/target/fuzz/runs.tsv client-adapter/values/target/fuzz/runs.tsv; do
  [ -f "$f" ] && sed "s/^/$(date -u +%Y-%m-%dT%H:%MZ)\t/" "$f" >> "$log"
done
echo "fuzz: this run"
cat codec/target/fuzz/runs.tsv client-adapter/values/target/fuzz/runs.tsv 2>/dev/null | awk -F'\t' '{printf "  %-36s %6s s %12s executions  exit %s\n", $1, $2, $3, $4; n += ($3 > 0 ? $3 : 0)} END {printf "  total %d executions\n", n}'
# the run fails when any target had a finding (non-zero exit) or did not run
if cat codec/target/fuzz/runs.tsv client-adapter/values/target/fuzz/runs.tsv 2>/dev/null | awk -F'\t' '$4 != 0 {bad = 1} END {exit !bad}'; then
  status=1
fi
awk -F'\t' 'NR > 1 && $5 == 0 {n += $4; s += $3} END {printf "fuzz: all recorded runs in %s: %d executions, %d target-seconds\n", FILENAME, n, s}' "$log"
exit $status
