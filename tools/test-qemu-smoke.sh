#!/usr/bin/env bash
# Runs native/smoke/smoke.c against the glibc builds for linux-ppc64le, linux-s390x and linux-riscv64 under qemu-user
# (no JDK exists for them here, so this C program is what runs their libraries): compress and decompress with zstd
# (one thread and two workers), LZ4 blocks and LZ4 frames. Each also exchanges frames with linux-x86_64: frames made on
# x86-64 must decode there and its frames must decode on x86-64 (s390x is big-endian, the others little-endian).
# The program is compiled with the pinned zig (as the libraries are) and linked against the bundled files.
#
#   tools/test-qemu-smoke.sh <natives-root> [ppc64le] [s390x] [riscv64]     default: all three
#
# qemu is called explicitly, qemu-<arch>-static -L <sysroot> <sysroot>/lib/<loader> (no binfmt). Debian's
# qemu-user-static and libc6-{ppc64el,s390x,riscv64}-cross are used when installed, otherwise fetched with
# apt-get download and unpacked into the cache (tools/cross-env.sh); leave these tests out with
# -Dzstdjava.skipQemuSmoke=true.
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "${1:?usage: test-qemu-smoke.sh <natives-root> [ppc64le] [s390x] [riscv64]}" && pwd)
shift
arches=("$@")
[ ${#arches[@]} -gt 0 ] || arches=(ppc64le s390x riscv64)
# shellcheck source=cross-env.sh
source "$here/cross-env.sh"
cross_die() {
  echo "test-qemu-smoke: $*" >&2
  echo "test-qemu-smoke: leave these tests out with -Dzstdjava.skipQemuSmoke=true" >&2
  exit 1
}
mkdir -p "$cross_root"

cache_root=$ZSTDJAVA_CACHE_ROOT # cross-env.sh sourced tools/cache-dir.sh
zig_version=$(sed -n 's/^zig.version[[:space:]]\+//p' "$here/../native/toolchain.lock")
zig="$cache_root/zig-$zig_version/ziglang/zig"
[ -x "$zig" ] || cross_die "zig $zig_version not in $cache_root; run native/build-natives.sh first"
export ZIG_GLOBAL_CACHE_DIR="$cache_root/zig-cache"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export ZIG_LOCAL_CACHE_DIR="$work/zig-local"

# smoke program for one platform, linked against its bundled libraries (under their sonames)
build_smoke() { # platform zig-target
  local d="$work/$1"
  mkdir -p "$d/lib"
  [ -f "$root/$1/libzstd.so" ] || cross_die "no $root/$1/libzstd.so"
  cp "$root/$1/libzstd.so" "$d/lib/libzstd.so.1"; cp "$root/$1/liblz4.so" "$d/lib/liblz4.so.1"
  local abi=()
  case "$2" in powerpc64le-*) abi=(-mabi=ibmlongdouble) ;; esac # as the library (native/build-natives.sh)
  "$zig" cc -target "$2" "${abi[@]}" -O2 -o "$d/smoke" "$here/../native/smoke/smoke.c" "$d/lib/libzstd.so.1" "$d/lib/liblz4.so.1"
}

# the x86-64 side of the exchange: this machine's glibc, natively
build_smoke linux-x86_64 x86_64-linux-gnu.2.17
x86() { LD_LIBRARY_PATH="$work/linux-x86_64/lib" "$work/linux-x86_64/smoke" "$@"; }
mkdir -p "$work/from-x86_64"
x86 --write "$work/from-x86_64" | sed 's/^/  x86_64: /'

if [ -x /usr/bin/qemu-s390x-static ]; then qemu_dir=/usr/bin; else
  cross_apt_extract qemu-user-static "$cross_root/qemu-user-static"; qemu_dir="$cross_root/qemu-user-static/usr/bin"
fi
for arch in "${arches[@]}"; do
  case "$arch" in
    ppc64le) triple=powerpc64le-linux-gnu; pkg=libc6-ppc64el-cross; loader=ld64.so.2; target=powerpc64le-linux-gnu.2.19 ;;
    s390x)   triple=s390x-linux-gnu; pkg=libc6-s390x-cross; loader=ld64.so.1; target=s390x-linux-gnu.2.17 ;;
    riscv64) triple=riscv64-linux-gnu; pkg=libc6-riscv64-cross; loader=ld-linux-riscv64-lp64d.so.1; target=riscv64-linux-gnu.2.27 ;;
    *) cross_die "unknown arch $arch (ppc64le s390x riscv64)" ;;
  esac
  if [ -e "/usr/$triple/lib/$loader" ]; then sysroot=/usr/$triple; else
    cross_apt_extract "$pkg" "$cross_root/$pkg"; sysroot="$cross_root/$pkg/usr/$triple"
  fi
  [ -e "$sysroot/lib/$loader" ] || cross_die "no $loader in $sysroot (Debian's $pkg)"
  qemu="$qemu_dir/qemu-$arch-static"
  [ -x "$qemu" ] || cross_die "no $qemu (Debian's qemu-user-static)"
  build_smoke "linux-$arch" "$target"
  d="$work/linux-$arch"
  mkdir -p "$d/out"
  run=("$qemu" -L "$sysroot" "$sysroot/lib/$loader" --library-path "$d/lib:$sysroot/lib" "$d/smoke")
  echo "test-qemu-smoke: linux-$arch: ${run[*]} --read <x86_64 frames> --write <its frames>"
  "${run[@]}" --read "$work/from-x86_64" --write "$d/out" | sed "s/^/  $arch: /"
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "test-qemu-smoke: linux-$arch FAILED" >&2; exit 1; }
  x86 --read "$d/out" | grep '^read' | sed "s/^/  x86_64 reading $arch's frames: /"
  [ "${PIPESTATUS[0]}" -eq 0 ] || { echo "test-qemu-smoke: x86_64 could not decode linux-$arch's frames" >&2; exit 1; }
  for f in smoke.zst smoke.lz4 smoke.lz4b; do # the same input, library and level: the same bytes on every machine
    cmp -s "$work/from-x86_64/$f" "$d/out/$f" && same=identical || same=different
    echo "  $arch: $f $same to x86_64's"
  done
done
echo "test-qemu-smoke: ${arches[*]} ok"
