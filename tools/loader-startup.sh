#!/usr/bin/env bash
# Startup cost of the first codec call: N fresh JVMs (default 20) each time one Zstd.compress of 1 byte, the first
# call of the process (it loads libzstd: the bundled copy is extracted from the natives jar and opened), and print
# the minimum, median and maximum in milliseconds. Wall-clock on whatever machine runs it: on a shared machine the
# numbers carry its noise; compare two jars in the same session, interleaved.
#
#   tools/loader-startup.sh [-n runs] <codec jar> <natives jar> [<codec jar 2> ...]   (the natives jar is shared)
#
# Compiles with $JAVA_HOME/bin/javac (--release 21) and runs $JAVA_HOME/bin/java, or the command in
# ZSTDJAVA_STARTUP_JAVA (for example the Windows JDK under Wine, tools/wine-env.sh: then set ZSTDJAVA_STARTUP_CPSEP=';').
# Each JVM extracts into its own fresh -Dzstdjava.tmpdir.
set -euo pipefail
runs=20
if [ "${1:-}" = "-n" ]; then runs=$2; shift 2; fi
[ $# -ge 2 ] || { echo "usage: $0 [-n runs] <codec jar> <natives jar> [<codec jar 2> ...]" >&2; exit 2; }
java=${ZSTDJAVA_STARTUP_JAVA:-${JAVA_HOME:+$JAVA_HOME/bin/}java}
sep=${ZSTDJAVA_STARTUP_CPSEP:-:}
natives=$2
jars=("$1" "${@:3}")
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cat > "$work/FirstCall.java" <<'JAVA'
public class FirstCall {
    public static void main(String[] a) {
        long t0 = System.nanoTime();
        byte[] c = dev.zstdjava.zstd.Zstd.compress(new byte[1]);
        long t1 = System.nanoTime();
        if (c.length == 0) throw new AssertionError();
        System.out.println((t1 - t0) / 1000);
    }
}
JAVA
"${JAVA_HOME:+$JAVA_HOME/bin/}javac" --release 21 -d "$work" -cp "${jars[0]}" "$work/FirstCall.java"
for j in "${jars[@]}"; do : > "$work/$(basename "$j").us"; done
for ((i = 0; i < runs; i++)); do
  for j in "${jars[@]}"; do # interleaved, so drift in the machine's load hits every jar alike
    t="$work/t$i"; rm -rf "$t"; mkdir "$t"
    "$java" -XX:-PrintWarnings --enable-native-access=ALL-UNNAMED -Dzstdjava.tmpdir="$t" -cp "$work$sep$j$sep$natives" FirstCall \
      | tr -d '\r' >> "$work/$(basename "$j").us"
  done
done
for j in "${jars[@]}"; do
  sort -n "$work/$(basename "$j").us" | awk -v name="$j" '{ v[NR] = $1 } END {
    m = (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
    printf "%s: %d runs, first Zstd.compress(1 byte): min %.1f ms, median %.1f ms, max %.1f ms\n", name, NR, v[1] / 1000, m / 1000, v[NR] / 1000 }'
done
