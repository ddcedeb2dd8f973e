#!/usr/bin/env bash
# Echo benchmark (RUBIN Figures 3/4 shape): the selector over shm and tcp vs plain java.nio.
# Usage: rdma-net/echo-benchmark.sh [round trips]      (see BENCHMARKS.md "rdma-net: echo")
# A short run on a shared machine: ECHO_JAVA_OPTS='-Decho.sizes=1024,16384
# -Decho.streamedBytes=20000000' (the sizes measured, the bytes streamed per size and transport).
# Prints a Markdown table with the machine, date and load average, writes
# rdma-net/echo-benchmark.csv and, when python3 has matplotlib, rdma-net/echo-benchmark.png.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/jdk.sh
round_trips="${1:-2000}"
mvn -B -ntp -q -pl rdma-net -am compile -Dspotless.check.skip -Dcheckstyle.skip
work="$(mktemp -d)"
# The shm transport's memory-mapped files belong on tmpfs.
shm_root="$(mktemp -d -p /dev/shm rubin-echo.XXXXXX)"
trap 'rm -rf "$work" "$shm_root"' EXIT
mvn -B -ntp -q -pl rdma-net dependency:build-classpath -DincludeScope=runtime \
  -Dmdep.outputFile="$work/classpath"
classpath="rdma-net/target/classes:$(cat "$work/classpath")"
for name in server client; do
  "$JAVA_HOME/bin/keytool" -genkeypair -alias "$name" -keyalg EC -groupname secp256r1 \
    -sigalg SHA256withECDSA -dname "CN=bench-$name" -validity 2 -storetype PKCS12 \
    -keystore "$work/$name.p12" -storepass benchmark -keypass benchmark 2>/dev/null
done
echo "date: $(date -u '+%Y-%m-%d %H:%M UTC'); machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); JDK: $("$JAVA_HOME/bin/java" -version 2>&1 | head -1)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
# shellcheck disable=SC2086 # ECHO_JAVA_OPTS holds several options
"$JAVA_HOME/bin/java" ${ECHO_JAVA_OPTS:-} --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
  --enable-native-access=ALL-UNNAMED -cp "$classpath" io.rubinbft.net.cli.EchoBenchmark \
  "$work/server.p12" "$work/client.p12" benchmark "$round_trips" rdma-net/echo-benchmark.csv \
  "$shm_root"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if python3 -c 'import matplotlib' 2>/dev/null; then
  python3 rdma-net/plot-echo.py rdma-net/echo-benchmark.csv rdma-net/echo-benchmark.png
else
  echo "no PNG: python3 lacks matplotlib (apt-get install python3-matplotlib, or pip install matplotlib)" >&2
fi
