#!/usr/bin/env bash
# Used by ./bench and ./e2e: builds the benchmark module and what it needs with ./mvnw (package, tests skipped,
# nothing installed; build output on stderr), then prints the java executable of the JDK that build ran on, which
# the build wrote to benchmark/target/bench-env/java-home. Both tools so run on the JDK they were compiled for.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

echo "benchmark-java: building the benchmarks (./mvnw -q -pl benchmark -am package -DskipTests)" >&2
./mvnw -q -B -ntp -pl benchmark -am package -DskipTests >&2
home="$(tr -d '\n' < benchmark/target/bench-env/java-home)"
if [ ! -x "$home/bin/java" ]; then
  echo "benchmark-java: no java at $home/bin/java (from benchmark/target/bench-env/java-home)" >&2
  exit 1
fi
echo "$home/bin/java"
