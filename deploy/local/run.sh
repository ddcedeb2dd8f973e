#!/usr/bin/env bash
# README command (1): build, then start a local 4-replica cluster on loopback.
#   deploy/local/run.sh            # data under deploy/local/data (RUBIN_LOCAL_DIR to change)
#   RUBIN_CLUSTER_TRANSPORT=shm deploy/local/run.sh   # replicas over shared memory instead of TCP
#                                  # (mapped files under RUBIN_SHM_DIR, default /dev/shm/rubin-local)
# Ctrl-C stops every node; running it again resumes the same channel from the same data.
set -euo pipefail
cd "$(dirname "$0")/../.."
source scripts/jdk.sh
dir=$(realpath -m "${RUBIN_LOCAL_DIR:-deploy/local/data}")
mkdir -p "$dir/logs"
# Environment overrides of every node's orderer.yaml (docs/CONFIGURATION.md "Cluster transports").
export ORDERER_GENERAL_CLUSTER_TRANSPORT="${RUBIN_CLUSTER_TRANSPORT:-tcp}"
export ORDERER_GENERAL_CLUSTER_SHMDIRECTORY="${RUBIN_SHM_DIR:-/dev/shm/rubin-local}"

echo "run.sh: building the orderer distribution (JDK $JAVA_HOME)..."
mvn -B -ntp -q -Pdist -pl orderer -am -DskipTests package
bin=$(ls -d orderer/target/rubin-orderer-*/bin/rubin-orderer | head -1)

plan=$("$bin" local --dir "$dir")
read -r _ channel genesis <<<"$(grep '^channel ' <<<"$plan")"
read -r _ admin_cert admin_key admin_ca <<<"$(grep '^admin ' <<<"$plan")"
read -r _ client_msp client_msp_id <<<"$(grep '^client ' <<<"$plan")"

pids=()
stop() {
  trap - INT TERM EXIT
  if [ ${#pids[@]} -gt 0 ]; then
    echo "run.sh: stopping ${#pids[@]} nodes..."
    kill "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
  fi
}
trap stop INT TERM EXIT

while read -r _ name config grpc admin ops; do
  "$bin" start --config "$config" >"$dir/logs/$name.log" 2>&1 &
  pids+=($!)
  echo "run.sh: started $name (pid $!, log $dir/logs/$name.log)"
done < <(grep '^node ' <<<"$plan")

grpc_endpoints=()
while read -r _ name config grpc admin ops; do
  for _ in $(seq 1 120); do
    curl -fs "http://127.0.0.1:$ops/healthz" >/dev/null 2>&1 && break
    sleep 0.5
  done
  curl -fs "http://127.0.0.1:$ops/healthz" >/dev/null || {
    echo "run.sh: $name did not become healthy; see $dir/logs/$name.log" >&2
    exit 1
  }
  url="https://127.0.0.1:$admin/participation/v1/channels"
  tls=(--cacert "$admin_ca" --cert "$admin_cert" --key "$admin_key")
  if [ "$(curl -s -o /dev/null -w '%{http_code}' "${tls[@]}" "$url/$channel")" != 200 ]; then
    curl -fsS "${tls[@]}" -F "config-block=@$genesis" "$url" >/dev/null
    echo "run.sh: $name joined channel $channel"
  fi
  grpc_endpoints+=("--orderer 127.0.0.1:$grpc")
done < <(grep '^node ' <<<"$plan")

cat <<INFO

rubin-orderer: 4 replicas on loopback over $ORDERER_GENERAL_CLUSTER_TRANSPORT, channel '$channel' (data under $dir)
$(grep '^node ' <<<"$plan" | awk '{printf "  %s: Broadcast/Deliver 127.0.0.1:%s (TLS)  admin https://127.0.0.1:%s  operations http://127.0.0.1:%s\n", $2, $4, $5, $6}')

Submit transactions and check what comes back (another terminal):
  $bin loadgen ${grpc_endpoints[*]} --channel $channel \\
    --tls-ca $admin_ca --msp-dir $client_msp --msp-id $client_msp_id --transactions 2000

Channel info (osnadmin's API):
  curl --cacert $admin_ca --cert $admin_cert --key $admin_key https://127.0.0.1:$(grep '^node ' <<<"$plan" | head -1 | awk '{print $5}')/participation/v1/channels/$channel

Ctrl-C stops the cluster; run.sh again resumes it.
INFO
wait "${pids[@]}"
