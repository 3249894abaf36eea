#!/usr/bin/env bash
# Runs native/smoke/smoke.c against the musl builds of libzstd and liblz4 with the musl dynamic loader: x86-64 natively,
# aarch64 under qemu. The program is compiled with the pinned zig (as the libraries are) and linked against the
# bundled files themselves.
#
#   tools/test-musl.sh <natives-root> [x86_64] [aarch64]       natives-root holds linux-<arch>-musl/; default: both
#
# Provisioning (Debian's musl and qemu packages, unpacked into the cache) is done by tools/cross-env.sh.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "${1:?usage: test-musl.sh <natives-root> [x86_64] [aarch64]}" && pwd)
shift
arches=("$@")
if [ ${#arches[@]} -eq 0 ]; then
  arches=(x86_64 aarch64)
  # the build's -Dzstdjava.skipAarch64=true leaves out everything that needs qemu
  if [ "${ZSTDJAVA_SKIP_AARCH64:-false}" = true ]; then
    arches=(x86_64)
    echo "test-musl: aarch64 left out (-Dzstdjava.skipAarch64=true)"
  fi
fi
# shellcheck source=cross-env.sh
source "$here/cross-env.sh"

cache_root=$ZSTDJAVA_CACHE_ROOT # cross-env.sh sourced tools/cache-dir.sh
zig_version=$(sed -n 's/^zig.version[[:space:]]\+//p' "$here/../native/toolchain.lock")
zig="$cache_root/zig-$zig_version/ziglang/zig"
[ -x "$zig" ] || { echo "test-musl: zig $zig_version not in $cache_root; run native/build-natives.sh first" >&2; exit 1; }
export ZIG_GLOBAL_CACHE_DIR="$cache_root/zig-cache"

for arch in "${arches[@]}"; do
  lib="$root/linux-$arch-musl"
  [ -f "$lib/libzstd.so" ] || { echo "test-musl: no $lib/libzstd.so" >&2; exit 1; }
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
  # the libraries' sonames, as the program records them
  cp "$lib/libzstd.so" "$work/libzstd.so.1"; cp "$lib/liblz4.so" "$work/liblz4.so.1"
  export ZIG_LOCAL_CACHE_DIR="$work/zig-local"
  "$zig" cc -target "$arch-linux-musl" -O2 -o "$work/smoke" "$here/../native/smoke/smoke.c" \
    "$work/libzstd.so.1" "$work/liblz4.so.1"
  case "$arch" in
    x86_64)
      cross_provision musl
      run=("$CROSS_MUSL_X86_64" --library-path "$work" "$work/smoke") ;;
    aarch64)
      cross_provision qemu musl
      run=("$CROSS_QEMU" "$CROSS_MUSL_AARCH64" --library-path "$work" "$work/smoke") ;;
    *) echo "test-musl: unknown arch $arch" >&2; exit 1 ;;
  esac
  echo "test-musl: linux-$arch-musl: ${run[*]}"
  "${run[@]}" | sed "s/^/  /"
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "test-musl: linux-$arch-musl FAILED" >&2; exit 1; }
  rm -rf "$work"; trap - EXIT
done
echo "test-musl: ${arches[*]} ok"
