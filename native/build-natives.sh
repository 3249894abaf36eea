#!/usr/bin/env bash
# Builds libzstd and liblz4 for one platform from the pinned sources in sources.lock.
#
#   build-natives.sh <output-dir> [platform]
#
# Sources are downloaded once into ${ZSTDJAVA_SOURCE_CACHE:-~/.cache/zstd-java/sources} and verified by SHA-256 on
# every use. The archive mirror is $ZSTDJAVA_DEBIAN_MIRROR when set, otherwise the Debian mirror this machine's apt
# is configured with. Output: <output-dir>/libzstd.so, liblz4.so and natives.properties.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
out=${1:?usage: build-natives.sh <output-dir> [platform]}
platform=${2:-linux-x86_64}
cache=${ZSTDJAVA_SOURCE_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/zstd-java/sources}
work="$here/target/native-build/$platform"
mkdir -p "$out" "$cache" "$work"

case "$platform" in
  linux-x86_64)  cc=${CC:-gcc} ;;
  linux-aarch64) cc=${CC:-aarch64-linux-gnu-gcc} ;;
  *) echo "build-natives: unsupported platform '$platform' (supported: linux-x86_64, linux-aarch64)" >&2; exit 1 ;;
esac
command -v "$cc" >/dev/null || { echo "build-natives: C compiler '$cc' not found; install gcc (and make)" >&2; exit 1; }
command -v make >/dev/null || { echo "build-natives: 'make' not found; install make" >&2; exit 1; }

debian_mirror() {
  if [ -n "${ZSTDJAVA_DEBIAN_MIRROR:-}" ]; then echo "${ZSTDJAVA_DEBIAN_MIRROR%/}"; return; fi
  local m
  m=$( { cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' | tr ' ' '\n';
         cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\).*/\2/p'; } \
       | grep -E '/debian/?$' | head -1)
  [ -n "$m" ] || { echo "build-natives: no Debian mirror configured for apt; set ZSTDJAVA_DEBIAN_MIRROR to one (the URL that holds pool/)" >&2; exit 1; }
  echo "${m%/}"
}

fetch() { # name version path sha256 -> prints the verified archive path
  local name=$1 version=$2 path=$3 sha=$4 file actual
  file="$cache/$(basename "$path")"
  if [ ! -f "$file" ] || [ "$(sha256sum "$file" | cut -d' ' -f1)" != "$sha" ]; then
    echo "build-natives: downloading $name $version sources" >&2
    curl -fsSL --retry 3 -o "$file.part" "$(debian_mirror)/pool/$path"
    mv "$file.part" "$file"
  fi
  actual=$(sha256sum "$file" | cut -d' ' -f1)
  if [ "$actual" != "$sha" ]; then
    rm -f "$file"
    echo "build-natives: SHA-256 mismatch for $(basename "$path"): expected $sha, got $actual" >&2; exit 1
  fi
  echo "$file"
}

run() { # runs a build step quietly; shows its log when it fails
  local log="$work/build.log"
  if ! "$@" > "$log" 2>&1; then cat "$log" >&2; echo "build-natives: failed: $*" >&2; exit 1; fi
}

stamp_of() { sha256sum "$here/sources.lock" "$here/build-natives.sh" | sha256sum | cut -d' ' -f1; }
stamp="$(stamp_of) $platform $cc"
if [ -f "$out/libzstd.so" ] && [ -f "$out/liblz4.so" ] && [ "$(cat "$out/.stamp" 2>/dev/null)" = "$stamp" ]; then
  echo "build-natives: $platform libraries are up to date" >&2; exit 0
fi

jobs=$(nproc 2>/dev/null || echo 2)
props="$out/natives.properties"
: > "$props"
echo "platform=$platform" >> "$props"
while read -r name version path sha; do
  case "$name" in ''|\#*) continue ;; esac
  archive=$(fetch "$name" "$version" "$path" "$sha")
  src="$work/$name"
  rm -rf "$src"; mkdir -p "$src"
  tar -xf "$archive" -C "$src" --strip-components=1
  case "$name" in
    zstd)
      # multithreaded (ZSTD_MULTITHREAD), -O3 -fPIC
      # flags go through the environment so the upstream Makefile can still add its own (-shared, ...)
      CC="$cc" CFLAGS="-O3 -fPIC" CPPFLAGS="-DZSTD_MULTITHREAD" LDFLAGS="-pthread" \
        run make -C "$src/lib" -j"$jobs" libzstd
      so=$(ls "$src"/lib/libzstd.so.*.*.* | head -1)
      cp "$so" "$out/libzstd.so" ;;
    lz4)
      # LZ4_PUBLISH_STATIC_FUNCTIONS exports the *_extState_fastReset entry points
      CC="$cc" CFLAGS="-O3 -fPIC" CPPFLAGS="-DLZ4_PUBLISH_STATIC_FUNCTIONS" run make -C "$src/lib" -j"$jobs" liblz4
      so=$(ls "$src"/lib/liblz4.so.*.*.* | head -1)
      cp "$so" "$out/liblz4.so" ;;
  esac
  echo "$name.version=$version" >> "$props"
  echo "$name.source.sha256=$sha" >> "$props"
done < "$here/sources.lock"
echo "$stamp" > "$out/.stamp"
echo "build-natives: built $platform libraries into $out" >&2
