#!/usr/bin/env bash
# Before/after comparison of two builds of the benchmark jar on the same JMH cells, interleaved on one machine:
#   tools/compare-jars.sh BEFORE.jar AFTER.jar [passes] [regex] [payloads] [out-dir]
# Runs the cells with BEFORE, then AFTER, then AFTER, then BEFORE (and so on for `passes` pairs, default 2), one
# fork each, so drift of the machine falls on both sides alike. Both jars load the same native libraries when
# ZSTDJAVA_ZSTD_PATH / ZSTDJAVA_LZ4_PATH are set (the loader's zstdjava.zstd.path / zstdjava.lz4.path), so only
# the Java side differs. Prints one line per cell: ns/op of each side (mean of its passes, with the spread of the
# passes) and AFTER / BEFORE. Defaults: the segment and byte[]+destination forms of both codecs at 128 B, 1 KiB,
# 64 KiB. Run it on an idle machine; its numbers mean nothing under load.
set -euo pipefail
before=${1:?before.jar}; after=${2:?after.jar}; passes=${3:-2}
regex=${4:-'(Zstd|Lz4)(Compress|Decompress)Bench\.zstdjava_(segment|arrayDst)$'}
payloads=${5:-text-128,text-1k,text-64k}
out=${6:-$(mktemp -d)}
java="$(cd "$(dirname "$0")/.." && tools/benchmark-java.sh)"
props=(--enable-native-access=ALL-UNNAMED)
[ -n "${ZSTDJAVA_ZSTD_PATH:-}" ] && props+=("-Dzstdjava.zstd.path=$ZSTDJAVA_ZSTD_PATH")
[ -n "${ZSTDJAVA_LZ4_PATH:-}" ] && props+=("-Dzstdjava.lz4.path=$ZSTDJAVA_LZ4_PATH")
mkdir -p "$out"
echo "compare-jars: $passes pass pair(s), cells $regex on $payloads; results in $out; load $(cut -d' ' -f1-3 /proc/loadavg)"
run() { # side jar pass
  "$java" -jar "$2" "$regex" -p "payload=$payloads" -f 1 -wi 3 -w 500ms -i 5 -r 500ms -bm avgt -tu ns \
    -jvmArgsAppend "${props[*]}" -rf json -rff "$out/$1-$3.json" > "$out/$1-$3.log" 2>&1 \
    || { echo "compare-jars: JMH failed, see $out/$1-$3.log" >&2; exit 1; }
}
for ((p = 1; p <= passes; p++)); do
  if ((p % 2)); then run before "$before" "$p"; run after "$after" "$p"; else run after "$after" "$p"; run before "$before" "$p"; fi
  echo "compare-jars: pass $p of $passes done"
done
echo "compare-jars: load at the end $(cut -d' ' -f1-3 /proc/loadavg)"
python3 - "$out" <<'EOF'
import glob, json, os, statistics, sys
out = sys.argv[1]
cells = {}
for f in sorted(glob.glob(os.path.join(out, '*.json'))):
    side = os.path.basename(f).split('-')[0]
    for r in json.load(open(f)):
        key = (r['benchmark'].rsplit('.', 2)[-2] + '.' + r['benchmark'].rsplit('.', 1)[-1], r['params']['payload'])
        cells.setdefault(key, {}).setdefault(side, []).append(r['primaryMetric']['score'])
print(f"{'cell':<46} {'before ns/op':>16} {'after ns/op':>16} {'after/before':>12}")
for (bench, payload), sides in sorted(cells.items()):
    b, a = sides.get('before', []), sides.get('after', [])
    if not b or not a:
        continue
    mb, ma = statistics.mean(b), statistics.mean(a)
    sb, sa = (max(b) - min(b)) / 2, (max(a) - min(a)) / 2
    print(f"{bench + ' ' + payload:<46} {mb:>9.1f} ±{sb:>5.1f} {ma:>9.1f} ±{sa:>5.1f} {ma / mb:>12.3f}")
EOF
