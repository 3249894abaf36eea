#!/usr/bin/env bash
# Writes the fuzz seeds made with the zstd and lz4 command-line tools (seed-cli-*) into the codec's corpus folders.
# The seeds from this library's own compressors come from dev.zstdjava.fuzz.MakeSeeds (test sources). Only needed
# again when a target's input layout changes; the seeds are committed.
set -euo pipefail
cd "$(dirname "$0")/../codec/src/test/fuzz"
tmp="$(mktemp -d)"; trap 'rm -rf "$tmp"' EXIT
for i in $(seq 1 30); do printf '{"id":%d,"name":"user%d","tags":["a","b"]}\n' "$i" "$((i * 7))"; done > "$tmp/text"
head -c 2000 /dev/zero > "$tmp/zeros"
printf 'x' > "$tmp/one"
: > "$tmp/empty"

# prefix byte for the stream targets (their first byte picks step sizes)
put() { mkdir -p "$1"; cp "$3" "$1/$2"; }
putp() { mkdir -p "$1"; { printf "\\x$3"; cat "$4"; } > "$1/$2"; }

n=0
for f in text zeros one empty; do
  zstd -q -c -1 "$tmp/$f" > "$tmp/z1"                        # content size declared
  zstd -q -c -19 --no-check < "$tmp/$f" > "$tmp/z19"         # from a pipe: no content size
  zstd -q -c -3 --no-content-size "$tmp/$f" > "$tmp/z3"
  for z in z1 z19 z3; do
    n=$((n + 1))
    put ZstdOneShotFuzz "seed-cli-$n" "$tmp/$z"
    put ZstdFrameFuzz "seed-cli-$n" "$tmp/$z"
    putp ZstdStreamFuzz.DecompressStream "seed-cli-$n" "$(printf '%02x' $((n * 29 % 256)))" "$tmp/$z"
    putp ZstdStreamFuzz.InputStreamTarget "seed-cli-$n" "$(printf '%02x' $((n * 31 % 256)))" "$tmp/$z"
  done
  lz4 -q -c "$tmp/$f" > "$tmp/l1"
  lz4 -q -c -9 -BD -B4 --content-size "$tmp/$f" > "$tmp/l9"
  lz4 -q -c -1 -B7 --no-frame-crc -BX "$tmp/$f" > "$tmp/lx"
  for l in l1 l9 lx; do
    n=$((n + 1))
    put Lz4FrameFuzz.OneShot "seed-cli-$n" "$tmp/$l"
    putp Lz4FrameFuzz.Streams "seed-cli-$n" "$(printf '%02x' $((n * 37 % 256)))" "$tmp/$l"
  done
done
# a skippable frame followed by a real one
{ printf '\x50\x2a\x4d\x18\x04\x00\x00\x00abcd'; zstd -q -c "$tmp/text"; } > "$tmp/skip"
put ZstdOneShotFuzz seed-cli-skippable "$tmp/skip"
put ZstdFrameFuzz seed-cli-skippable "$tmp/skip"
# a dictionary trained by the CLI and a frame compressed with it (two-byte dictionary length first)
mkdir -p "$tmp/samples"
for i in $(seq 1 300); do printf '{"id":%d,"user":"name%d","active":%s}' "$i" "$((i % 13))" "$([ $((i % 2)) = 0 ] && echo true || echo false)" > "$tmp/samples/$i"; done
zstd -q --train "$tmp"/samples/* --maxdict=1024 -o "$tmp/dict"
zstd -q -c -D "$tmp/dict" "$tmp/samples/7" > "$tmp/dframe"
size=$(stat -c %s "$tmp/dict")
mkdir -p ZstdDictionaryFuzz
{ printf "\\x$(printf '%02x' $((size >> 8)))\\x$(printf '%02x' $((size & 255)))"; cat "$tmp/dict" "$tmp/dframe"; } > ZstdDictionaryFuzz/seed-cli-1
echo "fuzz-seeds: $(find . -name 'seed-cli-*' | wc -l) seeds written"
