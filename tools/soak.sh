#!/usr/bin/env bash
# Leak and soak run over every API (codec and Lettuce adapter), for as many operations as asked:
#   tools/soak.sh [operations]        (default 10000000)
# Samples malloc in use (glibc mallinfo2), RSS and the heap after GC along the way and fails when malloc in use or
# the heap grows by more than 16 MiB after warm-up (the first quarter). It runs once, on the build's JDK (the JDK 21 and
# aarch64 test executions are left out; the default test run covers those with the short form). Samples: client-adapter/lettuce/target/soak/all.csv.
# The test's time limit grows with the run: 1 ms per operation (the short form takes about a quarter of that on a
# loaded 2-core machine) plus 10 minutes.
set -euo pipefail
cd "$(dirname "$0")/.."
ops="${1:-10000000}"
./mvnw -B -ntp -pl client-adapter/lettuce -am verify -Dtest=dev.zstdjava.lettuce.SoakTest -Dsurefire.failIfNoSpecifiedTests=false \
  -Dzstdjava.jdk21.skip=true -Dzstdjava.skipAarch64=true "-Dzstdjava.soak.ops=$ops" \
  "-Dzstdjava.test.timeout=$(( ops / 1000 + 600 )) s" -Dzstdjava.test.forkTimeout=0 | grep -E '^soak|Tests run:|FAIL|BUILD'
