#!/usr/bin/env bash
# Builds the natives twice from scratch (no output cache, a fresh zig cache each time, different work folders) and
# compares every file byte for byte. Exits non-zero and lists the files that differ.
#
#   tools/check-reproducible.sh [platform...]        default: every platform
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/zstd-java-repro.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
for run in a b; do
  echo "check-reproducible: build $run" >&2
  # a copy of native/ per run, so the two builds also use different source paths
  mkdir -p "$tmp/$run"
  cp "$here/../native/build-natives.sh" "$here/../native/sources.lock" "$here/../native/toolchain.lock" \
    "$here/../native/pgo-train.c" "$tmp/$run/"
  ZSTDJAVA_NATIVE_CACHE=off ZSTDJAVA_ZIG_CACHE="$tmp/zig-cache-$run" ZSTDJAVA_PGO_DATA="$here/../testdata" \
    bash "$tmp/$run/build-natives.sh" "$tmp/out-$run" "$@"
done
if diff -r "$tmp/out-a" "$tmp/out-b" >/dev/null; then
  (cd "$tmp/out-a" && find . -type f | sort | xargs sha256sum)
  echo "check-reproducible: both builds are byte-identical ($(find "$tmp/out-a" -type f | wc -l) files)"
else
  diff -rq "$tmp/out-a" "$tmp/out-b" >&2 || true
  echo "check-reproducible: the builds differ" >&2
  exit 1
fi
