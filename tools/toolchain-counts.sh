#!/usr/bin/env bash
# Load-independent comparison of builds of libzstd/liblz4: counts the instructions (and simulated branch
# mispredictions) each build executes per operation of the C reference's cells, under valgrind's callgrind, which
# counts the same on an idle or a busy machine. Complements tools/compare-toolchains.sh (wall clock, needs an idle
# machine).
#
#   tools/toolchain-counts.sh <payload-dir> <label>=<dir> [<label>=<dir>...]
#     <dir> holds libzstd.so.1 and liblz4.so.1 (for example benchmark/target/toolchains/{zig,gcc} after a run of
#     compare-toolchains.sh); <payload-dir> the payloads (text-128.bin ... text-1m.bin, as that script writes them)
#   env CELLS: the cells, default every codec x payload x op of compare-toolchains.sh (zstd level 3, lz4 default)
#   env CREF_EXTRA: more sources and linker flags for the harness, for example the peers' libraries of
#       tools/peer-libraries.sh: CREF_EXTRA="benchmark/src/main/c/lz4-full-reset.c -Wl,--allow-shlib-undefined" for
#       aircompressor's liblz4, which lacks the fastReset entry points and leaves its (unused) xxhash calls to a
#       library the JVM loads first
#   env MIN_TIME_ROUNDS=n: also time each cell natively, n rounds alternating between the builds, and report each
#       build's fastest batch (cref-count's min-time: batches of about 20 us, the fastest of all rounds). Not
#       load-independent, but far steadier on a busy machine than mean times, as interruptions only slow a batch.
#
# Prints a Markdown table: instructions per operation for each build, each build after the first as a ratio to the
# first, the simulated branch mispredictions per operation, and with MIN_TIME_ROUNDS the fastest-batch ns/op (each
# build after the first as a ratio to the first).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
payloads=${1:?usage: toolchain-counts.sh <payload-dir> <label>=<dir>...}
shift
[ $# -ge 1 ] || { echo "toolchain-counts: name at least one build" >&2; exit 2; }
command -v valgrind >/dev/null || { echo "toolchain-counts: needs valgrind" >&2; exit 1; }
work=benchmark/target/toolchain-counts
mkdir -p "$work"
cells=${CELLS:-}
if [ -z "$cells" ]; then
  for p in text-128 text-1k text-64k text-1m; do
    for c in zstd:3 lz4:0; do for o in compress decompress; do cells+="$c:$p:$o "; done; done
  done
fi
labels=()
for b in "$@"; do
  label=${b%%=*}; dir=$(realpath "${b#*=}")
  [ -f "$dir/libzstd.so.1" ] && [ -f "$dir/liblz4.so.1" ] || { echo "toolchain-counts: $dir lacks libzstd.so.1/liblz4.so.1" >&2; exit 1; }
  mkdir -p "$work/$label"
  ln -sf "$dir/libzstd.so.1" "$work/$label/libzstd.so"; ln -sf "$dir/liblz4.so.1" "$work/$label/liblz4.so"
  gcc -O2 -o "$work/$label/cref-count" benchmark/src/main/c/cref-count.c ${CREF_EXTRA:-} -Inative/target/include \
    -L"$work/$label" -lzstd -llz4 -Wl,-rpath,"$dir"
  labels+=("$label")
done
for cell in $cells; do
  payload=$(cut -d: -f3 <<< "$cell")
  size=$(stat -c %s "$payloads/$payload.bin")
  ops=$(( 8388608 / size )); [ "$ops" -ge 8 ] || ops=8
  for label in "${labels[@]}"; do
    out="$work/$label/$(tr : _ <<< "$cell").callgrind"
    valgrind -q --tool=callgrind --collect-atstart=no --toggle-collect=run_ops --branch-sim=yes \
      --callgrind-out-file="$out" "$work/$label/cref-count" "$payloads" "$cell" "$ops" >/dev/null
    echo "$cell $label $ops $(sed -n 's/^events: //p' "$out" | tr ' ' ,) $(sed -n 's/^totals: //p' "$out" | tr ' ' ,)"
  done
done > "$work/counts.txt"
: > "$work/times.txt"
for r in $(seq 1 "${MIN_TIME_ROUNDS:-0}"); do
  for cell in $cells; do
    size=$(stat -c %s "$payloads/$(cut -d: -f3 <<< "$cell").bin")
    ops=$(( 50000000 / size )); [ "$ops" -ge 30 ] || ops=30
    for label in "${labels[@]}"; do
      "$work/$label/cref-count" "$payloads" "$cell" "$ops" min-time \
        | sed -n "s/.*min_ns_op=\([0-9.]*\).*/$cell $label \1/p" >> "$work/times.txt"
    done
  done
done
python3 - "$work/counts.txt" "$work/times.txt" "${labels[@]}" <<'PY'
import sys
path, tpath, labels = sys.argv[1], sys.argv[2], sys.argv[3:]
best = {}
for line in open(tpath):
    cell, label, ns = line.split()
    best[(cell, label)] = min(best.get((cell, label), float("inf")), float(ns))
timed = bool(best)
rows, order = {}, []
for line in open(path):
    cell, label, ops, events, totals = line.split()
    ev = dict(zip(events.split(","), map(int, totals.split(","))))
    per = {k: v / int(ops) for k, v in ev.items()}
    if cell not in rows:
        rows[cell] = {}; order.append(cell)
    rows[cell][label] = per
head = "| codec | payload | op | " + " | ".join(f"{l} instr/op" for l in labels)
head += "".join(f" | {l} vs {labels[0]}" for l in labels[1:])
head += " | " + " | ".join(f"{l} mispred/op" for l in labels) + " |"
ncols = 3 * len(labels) - 1
if timed:
    head += " " + " | ".join(f"{l} min ns/op" for l in labels) + "".join(f" | {l} vs {labels[0]} (time)" for l in labels[1:]) + " |"
    ncols += 2 * len(labels) - 1
print(head)
print("|---|---|---|" + "---:|" * ncols)
for cell in order:
    codec, level, payload, op = cell.split(":")
    r = rows[cell]
    line = f"| {codec} | {payload} | {op} | " + " | ".join(f"{r[l]['Ir']:,.0f}" for l in labels)
    line += "".join(f" | {r[l]['Ir'] / r[labels[0]]['Ir'] - 1:+.1%}" for l in labels[1:])
    line += " | " + " | ".join(f"{r[l].get('Bcm', 0) + r[l].get('Bim', 0):,.1f}" for l in labels) + " |"
    if timed:
        t = [best.get((cell, l), float("nan")) for l in labels]
        line += " " + " | ".join(f"{v:,.1f}" for v in t) + "".join(f" | {v / t[0] - 1:+.1%}" for v in t[1:]) + " |"
    print(line)
PY
