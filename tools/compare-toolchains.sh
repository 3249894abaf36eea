#!/usr/bin/env bash
# Compares the shipped linux-x86_64 natives (native/build-natives.sh: libzstd by the pinned gcc, liblz4 by the pinned
# zig, both linked by zig for x86_64-linux-gnu.2.17; labelled "zig" below) with the same sources built by this
# machine's gcc (upstream Makefiles, -O3; for comparison only: that build needs the build machine's glibc), by running
# the C reference (benchmark/src/main/c/cref.c) on both: zstd level 3 and lz4 default, compress and decompress, on the
# benchmark's generated text payloads from 128 B to 1 MiB. Runs alternate between the two builds to spread the
# machine's noise over both. Prints a Markdown table (ns/op, lower is better; delta = zig / gcc - 1).
#
#   tools/compare-toolchains.sh [rounds (default 3)] [iteration-ms (default 300)]
#
# Builds what it needs: the natives (native/build-natives.sh, cached), the benchmark jar for the payloads.
# Wall-clock times need an idle machine. The builds and payloads stay in benchmark/target/toolchains; on a busy machine
# compare them by instruction counts instead (valgrind, independent of load):
#   tools/toolchain-counts.sh benchmark/target/toolchains/payloads gcc=benchmark/target/toolchains/gcc \
#     zig=benchmark/target/toolchains/zig
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
rounds=${1:-3}
iter_ms=${2:-300}
payloads=(text-128 text-1k text-64k text-1m)
work=benchmark/target/toolchains
rm -rf "$work"; mkdir -p "$work/zig" "$work/gcc" "$work/payloads"
command -v gcc >/dev/null && command -v make >/dev/null || { echo "compare-toolchains: needs gcc and make" >&2; exit 1; }

echo "compare-toolchains: zig build (native/build-natives.sh)" >&2
bash native/build-natives.sh "$work/zig-out" linux-x86_64
cp "$work/zig-out/linux-x86_64/libzstd.so" "$work/zig/libzstd.so.1"
cp "$work/zig-out/linux-x86_64/liblz4.so" "$work/zig/liblz4.so.1"

echo "compare-toolchains: gcc build ($(gcc -dumpfullversion), upstream Makefiles, -O3)" >&2
src="$work/gcc-src"; mkdir -p "$src"
# shellcheck source=cache-dir.sh
source "$(dirname "${BASH_SOURCE[0]}")/cache-dir.sh"
cache=${ZSTDJAVA_SOURCE_CACHE:-$ZSTDJAVA_CACHE_ROOT/sources}
while read -r name version path sha; do
  case "$name" in ''|\#*) continue ;; esac
  archive="$cache/$(basename "$path")"
  [ "$(sha256sum "$archive" | cut -d' ' -f1)" = "$sha" ] || { echo "compare-toolchains: $archive missing or wrong" >&2; exit 1; }
  mkdir -p "$src/$name"; tar -xf "$archive" -C "$src/$name" --strip-components=1
done < native/sources.lock
CFLAGS="-O3 -fPIC" CPPFLAGS="-DZSTD_MULTITHREAD" LDFLAGS="-pthread" make -s -C "$src/zstd/lib" -j2 libzstd >/dev/null
CFLAGS="-O3 -fPIC" CPPFLAGS="-DLZ4_PUBLISH_STATIC_FUNCTIONS" make -s -C "$src/lz4/lib" -j2 liblz4 >/dev/null
cp "$(ls "$src"/zstd/lib/libzstd.so.*.*.* | head -1)" "$work/gcc/libzstd.so.1"
cp "$(ls "$src"/lz4/lib/liblz4.so.*.*.* | head -1)" "$work/gcc/liblz4.so.1"

echo "compare-toolchains: payloads and the C reference" >&2
./mvnw -q -B -ntp -pl benchmark -am package -DskipTests
java="$(tr -d '\n' < benchmark/target/bench-env/java-home)/bin/java"
"$java" -jar benchmark/target/benchmarks.jar payloads "$work/payloads" "${payloads[@]}"
for tc in zig gcc; do
  ln -sf libzstd.so.1 "$work/$tc/libzstd.so"; ln -sf liblz4.so.1 "$work/$tc/liblz4.so"
  gcc -O2 -o "$work/$tc/cref" benchmark/src/main/c/cref.c -Inative/target/include -L"$work/$tc" -lzstd -llz4 \
    -Wl,-rpath,"$(realpath "$work/$tc")" -ldl -lm
done

cases=()
for p in "${payloads[@]}"; do cases+=("zstd:3:$p" "lz4:0:$p"); done
for r in $(seq 1 "$rounds"); do
  for tc in zig gcc; do
    echo "compare-toolchains: round $r/$rounds, $tc" >&2
    "$work/$tc/cref" "$work/payloads" 200 "$iter_ms" 3 "${cases[@]}" > "$work/$tc-$r.jsonl"
    grep -q "\"zstd_library\":\"$(realpath "$work/$tc")/libzstd.so.1\"" "$work/$tc-$r.jsonl" \
      || { echo "compare-toolchains: the $tc run did not load its own libzstd" >&2; head -1 "$work/$tc-$r.jsonl" >&2; exit 1; }
  done
done

# the table: per cell the best (lowest) mean over the rounds of each build
python3 - "$work" "$rounds" <<'EOF'
import json, sys
work, rounds = sys.argv[1], int(sys.argv[2])
best = {}
for tc in ("zig", "gcc"):
    for r in range(1, rounds + 1):
        for line in open(f"{work}/{tc}-{r}.jsonl"):
            d = json.loads(line)
            if d["kind"] != "cell":
                continue
            key = (d["codec"], d["payload"], d["op"])
            v = best.setdefault(key, {})
            v[tc] = min(v.get(tc, float("inf")), d["ns_op"])
order = {"text-128": 0, "text-1k": 1, "text-64k": 2, "text-1m": 3}
print("| codec | payload | op | zig ns/op | gcc ns/op | zig vs gcc |")
print("|---|---|---|---:|---:|---:|")
worst = 0.0
for key in sorted(best, key=lambda k: (k[0] != "zstd", order.get(k[1], 9), k[2])):
    v = best[key]
    delta = v["zig"] / v["gcc"] - 1
    worst = max(worst, delta)
    print(f"| {key[0]} | {key[1]} | {key[2]} | {v['zig']:,.0f} | {v['gcc']:,.0f} | {delta:+.1%} |")
print(f"\nworst cell: zig {worst:+.1%} against gcc")
EOF
