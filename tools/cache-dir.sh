#!/usr/bin/env bash
# The one rule for zstd-java's cache folders, for every script, the Maven build and the tests (the build passes the
# same folders to its JVMs as system properties; TestEnv in client-adapter/testkit applies the same rule when run
# without them, and CacheDirRuleTest checks that the three agree):
#
#   cache root   $ZSTDJAVA_CACHE, else $XDG_CACHE_HOME/zstd-java, else $HOME/.cache/zstd-java
#   test env     $ZSTDJAVA_TEST_ENV, else <cache root>/redis-test-env
#
# HOME is the environment's, never the password database's home (which the JDK's user.home reports): a container or
# CI job that sets HOME to another folder gets its caches there. Sourced: defines ZSTDJAVA_CACHE_ROOT and
# ZSTDJAVA_TEST_ENV_DIR. Run: `tools/cache-dir.sh cache|test-env` prints one of them.
set -euo pipefail

if [ -n "${ZSTDJAVA_CACHE:-}" ]; then
  ZSTDJAVA_CACHE_ROOT=$ZSTDJAVA_CACHE
elif [ -n "${XDG_CACHE_HOME:-}" ]; then
  ZSTDJAVA_CACHE_ROOT=$XDG_CACHE_HOME/zstd-java
elif [ -n "${HOME:-}" ]; then
  ZSTDJAVA_CACHE_ROOT=$HOME/.cache/zstd-java
else
  echo "cache-dir: neither ZSTDJAVA_CACHE, XDG_CACHE_HOME nor HOME is set: set one of them" >&2
  exit 2
fi
ZSTDJAVA_TEST_ENV_DIR=${ZSTDJAVA_TEST_ENV:-$ZSTDJAVA_CACHE_ROOT/redis-test-env}

if [ "${BASH_SOURCE[0]}" = "$0" ]; then
  case "${1:-}" in
    cache) echo "$ZSTDJAVA_CACHE_ROOT" ;;
    test-env) echo "$ZSTDJAVA_TEST_ENV_DIR" ;;
    *) echo "usage: tools/cache-dir.sh cache|test-env" >&2; exit 2 ;;
  esac
fi
