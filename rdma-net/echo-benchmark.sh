#!/usr/bin/env bash
# Echo benchmark (RUBIN Figures 3/4 shape): tcp provider vs plain java.nio on loopback.
# Usage: rdma-net/echo-benchmark.sh [round trips]      (see BENCHMARKS.md "rdma-net")
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/jdk.sh
mvn -B -ntp -q -pl rdma-net -am compile -Dspotless.check.skip -Dcheckstyle.skip
stores="$(mktemp -d)"
trap 'rm -rf "$stores"' EXIT
mvn -B -ntp -q -pl rdma-net dependency:build-classpath -DincludeScope=runtime \
  -Dmdep.outputFile="$stores/classpath"
classpath="rdma-net/target/classes:$(cat "$stores/classpath")"
for name in server client; do
  "$JAVA_HOME/bin/keytool" -genkeypair -alias "$name" -keyalg EC -groupname secp256r1 \
    -sigalg SHA256withECDSA -dname "CN=bench-$name" -validity 2 -storetype PKCS12 \
    -keystore "$stores/$name.p12" -storepass benchmark -keypass benchmark 2>/dev/null
done
exec "$JAVA_HOME/bin/java" --add-exports java.base/jdk.internal.misc=ALL-UNNAMED \
  -cp "$classpath" io.rubinbft.net.cli.EchoBenchmark \
  "$stores/server.p12" "$stores/client.p12" benchmark "$@"
