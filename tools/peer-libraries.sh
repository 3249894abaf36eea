#!/usr/bin/env bash
# Unpacks the native libraries the peers bundle for linux-x86_64 from the benchmark jar, next to ours, in folders
# that tools/toolchain-counts.sh links its C harness to: the same C calls on each library show how much of a peer
# cell's gap is the peer's build of zstd or lz4 (its compiler, flags or library version) rather than the binding.
#
#   tools/peer-libraries.sh <out-dir>          (after ./bench or ./mvnw -pl benchmark -am package)
#
# Writes <out-dir>/{shipped,zstdjni,lz4java,aircompressor}/ with libzstd.so.1 and liblz4.so.1 each (a peer that
# bundles only one of the two gets our other one, named in its VERSIONS line) and prints what each folder holds.
# aircompressor's liblz4 needs CREF_EXTRA (see tools/toolchain-counts.sh).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
out=${1:?usage: peer-libraries.sh <out-dir>}
jar=benchmark/target/benchmarks.jar
ours=native/linux-x86_64/target/classes/META-INF/zstd-java/native/linux-x86_64
[ -f "$jar" ] || { echo "peer-libraries: $jar is missing: build it first (./mvnw -pl benchmark -am package)" >&2; exit 1; }
[ -f "$ours/libzstd.so" ] || { echo "peer-libraries: $ours is missing: build the natives first" >&2; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
unzip -q -o "$jar" 'linux/amd64/libzstd-jni-*.so' 'net/jpountz/util/linux/amd64/liblz4-java.so' \
  'aircompressor/linux-amd64/libzstd.so' 'aircompressor/linux-amd64/liblz4.so' -d "$tmp"
put() { # folder zstd-library lz4-library
  mkdir -p "$out/$1"
  cp "$2" "$out/$1/libzstd.so.1"; cp "$3" "$out/$1/liblz4.so.1"
  # a library without a soname is linked by its file name
  ln -sf libzstd.so.1 "$out/$1/libzstd.so"; ln -sf liblz4.so.1 "$out/$1/liblz4.so"
  printf '%-14s zstd: %s (%s)\n%-14s lz4:  %s (%s)\n' "$1" "${2#"$tmp"/}" \
    "$(readelf -p .comment "$2" 2>/dev/null | sed -n 's/.*\]  //p' | head -1)" "" "${3#"$tmp"/}" \
    "$(readelf -p .comment "$3" 2>/dev/null | sed -n 's/.*\]  //p' | head -1)"
}
{
  put shipped "$ours/libzstd.so" "$ours/liblz4.so"
  put zstdjni "$(ls "$tmp"/linux/amd64/libzstd-jni-*.so)" "$ours/liblz4.so"
  put lz4java "$ours/libzstd.so" "$tmp/net/jpountz/util/linux/amd64/liblz4-java.so"
  put aircompressor "$tmp/aircompressor/linux-amd64/libzstd.so" "$tmp/aircompressor/linux-amd64/liblz4.so"
} | tee "$out/VERSIONS"
