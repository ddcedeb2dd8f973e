#!/usr/bin/env bash
# rdma-vm-tests.sh — run the tests that need a real RDMA device (JUnit tag `rdma-vm`: rdma-net's
# verbs binding and channel contract, the orderer's cluster network over rdma) inside a small
# QEMU guest with Soft-RoCE (scripts/softroce-vm.sh), for machines without RDMA.
#
#   scripts/rdma-vm-tests.sh            build on the host, boot the guest, run the tests
#
# Prints the JUnit tree and summary; exits 0 when every test passed, 1 when one failed, 124 when
# the run timed out (RDMA_VM_TIMEOUT seconds, boot included; default 900). Where the guest
# cannot run (not Linux x86-64, or no QEMU and no root to install it) it prints
# "rdma-vm-tests: SKIPPED (reason)" and exits 0 at once; with RDMA_VM_REQUIRED=1 (test.sh)
# it prints "rdma-vm-tests: FAILED, cannot run the Soft-RoCE guest (reason)" and exits 3.
# The first run installs the host packages (apt-get) and builds the guest image from Debian's
# package mirrors (1-3 minutes, cached in SOFTROCE_DIR, default ~/.cache/rubin-orderer/softroce).
# See rdma-net/RDMA.md.
#
# How: the module is compiled on the host and packed into jars; a training run of the JUnit
# console launcher on the host writes a JDK AOT cache (class loading and linking done ahead of
# time), which cuts the guest JVM's start-up, emulated ~10x slower, several times over. The
# guest sees the repository and ~/.m2 at the same paths and the host's JDK read-only.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd -P)
TIMEOUT=${RDMA_VM_TIMEOUT:-900}
OUT=rdma-net/target/rdma-vm
log() { echo "rdma-vm-tests: $*" >&2; }

export SOFTROCE_DIR=${SOFTROCE_DIR:-$HOME/.cache/rubin-orderer/softroce}

unavailable() {
  if [ "${RDMA_VM_REQUIRED:-}" = 1 ]; then
    echo "rdma-vm-tests: FAILED, cannot run the Soft-RoCE guest ($1)"
    exit 3
  fi
  echo "rdma-vm-tests: SKIPPED ($1)"
  exit 0
}

[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || unavailable "the Soft-RoCE guest needs Linux on x86-64"
if [ ! -f "$SOFTROCE_DIR/.built" ] || ! command -v qemu-system-x86_64 >/dev/null; then
  [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null ||
    unavailable "QEMU or the guest image is missing and building them needs root and apt-get"
fi

source scripts/jdk.sh
t0=$SECONDS
log "building rdma-net and the orderer on the host"
mkdir -p "$OUT"
rm -f "$OUT"/*.jar "$OUT"/*.classpath
# each module writes its own test classpath (a relative outputFile is the module's own)
mvn -B -ntp -q -pl orderer -am test-compile dependency:build-classpath \
  -Dmdep.includeScope=test -Dmdep.outputFile=target/rdma-vm.classpath
# The JDK's AOT cache takes jars only: each module's classes go into one. The tests of rdma-net
# and the orderer run; the other modules (testdata: the Fabric golden data's locator) are on the
# classpath as the orderer's tests need them.
CP=""
for module in rdma-net orderer; do
  "$JAVA_HOME/bin/jar" cf "$OUT/$module-tests.jar" -C "$module/target/test-classes" .
  CP="$CP:$REPO/$OUT/$module-tests.jar"
done
for module in bft-core rdma-net ledger orderer testdata; do
  "$JAVA_HOME/bin/jar" cf "$OUT/$module.jar" -C "$module/target/classes" .
  CP="$CP:$REPO/$OUT/$module.jar"
done
# the libraries both test classpaths name, each once, without the modules' class directories
CP="${CP#:}:$(cat rdma-net/target/rdma-vm.classpath orderer/target/rdma-vm.classpath | tr ':' '\n' |
  grep -v '/target/\(test-\)\?classes$' | awk '!seen[$0]++' | paste -sd:)"
FIXTURES=$(readlink -f "$REPO/testdata/fabric")
# the flags the modules' Surefire runs with (Agrona reaches jdk.internal.misc.Unsafe, DiSNI
# sun.nio.ch; the orderer's tests find the Fabric fixtures by a property), and a lean JVM
JVM=(--enable-native-access=ALL-UNNAMED --add-exports java.base/jdk.internal.misc=ALL-UNNAMED
  --add-exports java.base/sun.nio.ch=ALL-UNNAMED "-Drubin.fixtures=$FIXTURES"
  -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -XX:-UsePerfData)
# `long` soaks (e.g. the contract's ten-minute back-pressure soak) stay out, as on the host
# Only the two test jars are scanned, and only JUnit Jupiter runs: scanning every library jar of
# the orderer's classpath, and ArchUnit's engine, took minutes in the emulated guest.
RUN=(org.junit.platform.console.ConsoleLauncher execute --include-tag rdma-vm --exclude-tag long
  --include-engine junit-jupiter --scan-classpath="$REPO/$OUT/rdma-net-tests.jar:$REPO/$OUT/orderer-tests.jar"
  --include-package io.rubinbft.net.rdma --include-package io.rubinbft.orderer.cluster
  --fail-if-no-tests --disable-banner --disable-ansi-colors)

log "training the JVM's AOT cache on the host (the tests skip here)"
rm -f "$OUT/rdma-vm.aot"
"$JAVA_HOME/bin/java" "${JVM[@]}" -XX:AOTCacheOutput="$REPO/$OUT/rdma-vm.aot" -cp "$CP" \
  "${RUN[@]}" --details none > "$OUT/training.log" 2>&1 || true
[ -f "$OUT/rdma-vm.aot" ] || { tail -n 20 "$OUT/training.log" >&2; log "no AOT cache written"; exit 1; }
log "host part took $((SECONDS - t0))s; booting the Soft-RoCE guest"

# In the guest: the tests, then how much of the guest's memory the JVM took at its peak (VmHWM,
# sampled while it runs: heap, registered rings and the AOT cache's mapped classes included).
GUEST="java ${JVM[*]} -XX:AOTCache=$REPO/$OUT/rdma-vm.aot -cp $CP ${RUN[*]} --details tree --reports-dir $REPO/$OUT/reports &
pid=\$!; peak=0
while kill -0 \$pid 2>/dev/null; do
  kib=\$(awk '/VmHWM/ {print \$2}' /proc/\$pid/status 2>/dev/null); peak=\${kib:-\$peak}; sleep 1
done
wait \$pid; rc=\$?
echo \"rdma-vm-tests: guest JVM peak resident memory \$((peak / 1024)) MiB of \$(awk '/MemTotal/ {print int(\$2 / 1024)}' /proc/meminfo) MiB\"
exit \$rc"
rc=0
bash scripts/softroce-vm.sh run --timeout "$TIMEOUT" --share "$REPO" --share-ro "$HOME/.m2" \
  --share-ro "$FIXTURES" \
  -- bash -c "$GUEST" || rc=$?
log "done in $((SECONDS - t0))s, exit status $rc"
exit "$rc"
