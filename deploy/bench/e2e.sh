#!/usr/bin/env bash
# End-to-end benchmark matrix of the orderer: 4 replicas on loopback (the README's local cluster)
# and the load generator, all on this machine. For each block size (BatchSize.MaxMessageCount) a
# fresh cluster is generated and started; on it runs one saturating load per envelope payload and
# one light-load run at a fixed rate. Prints a table and writes results.csv (plot.py draws it).
#
#   deploy/bench/e2e.sh                       # tcp, blocks of 100 and 500, payloads 2800 and 300
#   deploy/bench/e2e.sh --transport shm --transactions 20000 --out /tmp/bench
#
# Options (defaults in brackets):
#   --transport tcp|shm|rdma   replica-to-replica transport [tcp]; a node that cannot run it
#                              refuses at start, and the script stops with the node's reason
#   --blocks "100 500"         block sizes (MaxMessageCount), one cluster each
#   --payloads "2800 300"      random payload bytes per envelope (2800 gives ~3.5 KB envelopes;
#                              headers, creator certificate and signature add ~1 KB to any payload);
#                              --payloads "" runs no saturating load: the light run alone, on a
#                              cluster that has done nothing but start (so it includes the JIT's
#                              warm-up unless the AOT cache is used)
#   --transactions N [5000]    per saturating run;  --streams N [32] concurrent submitters
#   --mode gateway|pipelined   how the load generator submits [its default, gateway]: gateway
#                              as Fabric's peer Gateway (a fresh Broadcast stream per envelope and
#                              orderer, quorum decision, Fabric's success rule); pipelined: one
#                              long-lived stream per submitter and orderer (the figures before
#                              2026-11-28). Given only when set here, so --clients may name
#                              distributions older than the option (they ran pipelined); the CSV's
#                              submit_mode column says what each row's load generator reported
#   --light-rate R [200]       tx/s of the light-load run (payload 2800); 0 skips it
#   --light-transactions N [2000]
#   --port-offset N [1000]     added to the local cluster's default ports (7050, 7150, 7250, 8443)
#   --out DIR [deploy/bench/results]   --no-build  (reuse orderer/target's distribution)
#   --keep-data                keep each cluster's ledgers, WALs and crypto material under DIR
#                              (by default only its logs stay: a run of 48,000 transactions leaves
#                              about 1 GB of data per cluster)
#   --dist DIR                 run this distribution (a copy of orderer/target/rubin-orderer-*,
#                              its trained AOT cache kept) instead of building one
#   --clients "A B"            run every load once with each of these load generators, in turn
#                              (a distribution's bin/rubin-orderer, or "built" for this one), the
#                              order alternating from load to load: an A/B of clients on one
#                              cluster in the same time window [built]. The CSV's last column says
#                              which client ran the row
#   --no-aot                   run nodes and load generator without AOT caches. By default they
#                              use the distribution's lib/rubin-orderer.aot and
#                              lib/rubin-orderer-loadgen.aot (bin/rubin-orderer), and the first run
#                              after a build trains them: a short load on a cluster of its own, one
#                              node and the first load recording, each cache written at its exit
#   --fabric-bin DIR [$FABRIC_BIN]   also run Fabric's BFT orderer beside ours: after our cluster's
#                              loads, 4 Fabric orderers (DIR/orderer, built by the operator; this
#                              script never installs or fetches them) start on the same ports with the
#                              same crypto material and genesis block (Fabric's sampleconfig
#                              orderer.yaml in testdata/fabric/sampleconfig, overridden by
#                              environment variables as Fabric deployments do), are joined through
#                              the channel participation API, and take the same loads from the same
#                              client; their rows say "fabric" in the CSV's orderer column. Without
#                              it the script says Fabric's binaries are absent and runs ours alone
# Every row records the 1-minute load average before and after it (this machine is shared: compare
# rows measured under similar load), the CPU time all 4 nodes spent per delivered transaction
# (from /proc/<pid>/stat, a load-independent cost), the CPU the 4 idle nodes used (percent of one
# core, measured over 10 s after start), the largest node RSS seen during the run, and the CPU time
# the load generator itself spent per delivered transaction (it shares the machine with the nodes).
# The load generator runs with the launcher's defaults for `loadgen` (bin/rubin-orderer): C1 only
# (-XX:TieredStopAtLevel=1), its own AOT cache lib/rubin-orderer-loadgen.aot (trained here with the
# nodes'), the memory defaults of every command (serial GC, -Xms64m, compact object headers) and
# no heap ceiling; deploy/bench/README.md says why. LOADGEN_JAVA_OPTS adds JVM options to it (e.g. a
# profiler agent; a JIT level replaces the C1-only default); JAVA_OPTS is the nodes'.
set -euo pipefail
cd "$(dirname "$0")/../.."

transport=tcp blocks="100 500" payloads="2800 300" transactions=5000 streams=32
light_rate=200 light_transactions=2000 port_offset=1000 out=deploy/bench/results build=1 aot=1 keep_data=0
clients=built dist="" mode_args=() fabric_bin=${FABRIC_BIN:-}
while [ $# -gt 0 ]; do
  case "$1" in
    --transport) transport=$2; shift 2 ;;
    --blocks) blocks=$2; shift 2 ;;
    --payloads) payloads=$2; shift 2 ;;
    --transactions) transactions=$2; shift 2 ;;
    --streams) streams=$2; shift 2 ;;
    --mode) mode_args=(--mode "$2"); shift 2 ;;
    --light-rate) light_rate=$2; shift 2 ;;
    --light-transactions) light_transactions=$2; shift 2 ;;
    --port-offset) port_offset=$2; shift 2 ;;
    --out) out=$2; shift 2 ;;
    --clients) clients=$2; shift 2 ;;
    --no-build) build=0; shift ;;
    --keep-data) keep_data=1; shift ;;
    --dist) dist=$2; build=0; shift 2 ;;
    --no-aot) aot=0; shift ;;
    --fabric-bin) fabric_bin=$2; shift 2 ;;
    -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) echo "e2e.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done
case "$transport" in
  tcp | shm | rdma) ;;
  *) echo "e2e.sh: --transport is '$transport' but must be tcp, shm or rdma" >&2; exit 2 ;;
esac

if [ -z "$fabric_bin" ]; then
  echo "e2e.sh: Fabric's binaries absent (FABRIC_BIN or --fabric-bin names the folder of Fabric's orderer): running rubin-orderer alone"
elif [ ! -x "$fabric_bin/orderer" ]; then
  echo "e2e.sh: --fabric-bin/FABRIC_BIN is '$fabric_bin' but it holds no executable 'orderer'" >&2
  exit 2
else
  fabric_bin=$(realpath "$fabric_bin")
  echo "e2e.sh: Fabric's orderer $fabric_bin/orderer runs beside ours ($("$fabric_bin/orderer" version 2>/dev/null | grep -m1 Version | tr -s ' '))"
fi
fabric_cfg=$(realpath testdata/fabric/sampleconfig)

source scripts/jdk.sh
if [ "$build" = 1 ]; then
  echo "e2e.sh: building the orderer distribution..."
  mvn -B -ntp -q -Pdist -pl orderer -am -DskipTests package
fi
if [ -n "$dist" ]; then
  bin=$(realpath "$dist/bin/rubin-orderer")
else
  bin=$(realpath "$(ls -d orderer/target/rubin-orderer-*/bin/rubin-orderer | head -1)")
fi
client_bins=()
for client in $clients; do
  if [ "$client" = built ]; then
    client_bins+=("$bin")
  elif [ -x "$client" ]; then
    client_bins+=("$(realpath "$client")")
  else
    echo "e2e.sh: --clients names '$client', which is neither 'built' nor an executable launcher" >&2
    exit 2
  fi
done
aot_cache=$(realpath "$(dirname "$bin")/../lib")/rubin-orderer.aot
loadgen_cache=$(dirname "$aot_cache")/rubin-orderer-loadgen.aot
# A cache older than the jars it describes is refused by the JVM: train a new one.
for cache in "$aot_cache" "$loadgen_cache"; do
  if [ -f "$cache" ] && [ -n "$(find "$(dirname "$cache")" -name '*.jar' -newer "$cache")" ]; then
    rm -f "$aot_cache" "$loadgen_cache"
  fi
done
if [ "$aot" = 1 ]; then
  export RUBIN_AOT_CACHE=$aot_cache
else
  export RUBIN_AOT_CACHE=none RUBIN_LOADGEN_AOT_CACHE=none
fi
mkdir -p "$out"
out=$(realpath "$out")
csv="$out/results.csv"
echo "date_utc,transport,block_size,payload_bytes,rate_tx_s,submitted,accepted,delivered,blocks,tx_per_s,p50_ms,p90_ms,p99_ms,max_ms,duplicates,lost,result,node_cpu_ms_per_tx,idle_nodes_cpu_pct,max_node_rss_mb,load1_before,load1_after,client_cpu_ms_per_tx,client,submit_mode,failed_submits,orderer" >"$csv"

pids=()
orderer=rubin # whose nodes the rows measure: rubin or fabric
sampler=""
aot_training="" # the cache file the second node of the next cluster writes, when training
stop_cluster() {
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null && wait "$sampler" 2>/dev/null
  sampler=""
  if [ ${#pids[@]} -gt 0 ]; then
    kill "${pids[@]}" 2>/dev/null || true
    wait "${pids[@]}" 2>/dev/null || true
  fi
  pids=()
}
trap stop_cluster EXIT
trap 'exit 130' INT TERM

load1() { cut -d' ' -f1 /proc/loadavg; }

# Sum of user+system clock ticks of the node processes.
node_ticks() {
  local total=0 pid fields
  for pid in "${pids[@]}"; do
    read -ra fields <<<"$(sed 's/^.*) //' "/proc/$pid/stat")"
    total=$((total + fields[11] + fields[12]))
  done
  echo "$total"
}

# Starts the 4 nodes of cluster folder $1 and joins them to its channel; sets $plan and $endpoints.
start_cluster() {
  local dir=$1 name config grpc admin ops
  plan=$("$bin" local --dir "$dir" --max-message-count "$2" --port-offset "$port_offset")
  read -r _ channel genesis <<<"$(grep '^channel ' <<<"$plan")"
  read -r _ admin_cert admin_key admin_ca <<<"$(grep '^admin ' <<<"$plan")"
  read -r _ client_msp client_msp_id <<<"$(grep '^client ' <<<"$plan")"
  mkdir -p "$dir/logs"
  while read -r _ name config grpc admin ops; do
    local train=()
    [ -n "$aot_training" ] && [ ${#pids[@]} = 1 ] && train=(RUBIN_AOT_TRAIN="$aot_training")
    env "${train[@]}" ORDERER_GENERAL_CLUSTER_TRANSPORT="$transport" "$bin" start --config "$config" \
      >"$dir/logs/$name.log" 2>&1 &
    pids+=($!)
  done < <(grep '^node ' <<<"$plan")
  join_cluster "$dir" "a node with transport '$transport'"
}

# Starts Fabric's 4 orderers on the plan of the cluster folder $1 (the ports, crypto material and
# genesis block `rubin-orderer local` made for ours, which stopped) and joins them to its channel.
# Fabric's sampleconfig orderer.yaml with the environment variables its deployments set.
start_fabric_cluster() {
  local dir=$1 name config grpc admin ops node_dir cluster_port tls admin_client_ca
  mkdir -p "$dir/logs"
  while read -r _ name config grpc admin ops; do
    node_dir=$(dirname "$(awk '/LocalMSPDir:/ {print $2}' "$config")")
    cluster_port=$(awk '/Cluster:/ {c = 1} c && /ListenPort:/ {print $2; exit}' "$config")
    # The admin API's client CA is our node's own (a CA of its own, not the orderers' TLS CA).
    admin_client_ca=$(awk '/ClientRootCAs:/ {c = 1; next} c {print $2; exit}' "$config")
    tls=$node_dir/tls
    mkdir -p "$dir/fabric/$name"
    env FABRIC_CFG_PATH="$fabric_cfg" \
      ORDERER_GENERAL_LISTENADDRESS=127.0.0.1 ORDERER_GENERAL_LISTENPORT="$grpc" \
      ORDERER_GENERAL_LOCALMSPID=OrdererMSP ORDERER_GENERAL_LOCALMSPDIR="$node_dir/msp" \
      ORDERER_GENERAL_BOOTSTRAPMETHOD=none ORDERER_GENERAL_TLS_ENABLED=true \
      ORDERER_GENERAL_TLS_CERTIFICATE="$tls/server.crt" ORDERER_GENERAL_TLS_PRIVATEKEY="$tls/server.key" \
      ORDERER_GENERAL_TLS_ROOTCAS="[$tls/ca.crt]" \
      ORDERER_GENERAL_CLUSTER_CLIENTCERTIFICATE="$tls/server.crt" \
      ORDERER_GENERAL_CLUSTER_CLIENTPRIVATEKEY="$tls/server.key" \
      ORDERER_GENERAL_CLUSTER_SERVERCERTIFICATE="$tls/server.crt" \
      ORDERER_GENERAL_CLUSTER_SERVERPRIVATEKEY="$tls/server.key" \
      ORDERER_GENERAL_CLUSTER_ROOTCAS="[$tls/ca.crt]" \
      ORDERER_GENERAL_CLUSTER_LISTENADDRESS=127.0.0.1 ORDERER_GENERAL_CLUSTER_LISTENPORT="$cluster_port" \
      ORDERER_ADMIN_LISTENADDRESS="127.0.0.1:$admin" ORDERER_ADMIN_TLS_ENABLED=true \
      ORDERER_ADMIN_TLS_CERTIFICATE="$tls/server.crt" ORDERER_ADMIN_TLS_PRIVATEKEY="$tls/server.key" \
      ORDERER_ADMIN_TLS_CLIENTAUTHREQUIRED=true ORDERER_ADMIN_TLS_CLIENTROOTCAS="[$admin_client_ca]" \
      ORDERER_OPERATIONS_LISTENADDRESS="127.0.0.1:$ops" \
      ORDERER_FILELEDGER_LOCATION="$dir/fabric/$name/ledger" \
      ORDERER_CONSENSUS_WALDIR="$dir/fabric/$name/wal" ORDERER_CONSENSUS_SNAPDIR="$dir/fabric/$name/snapshot" \
      "$fabric_bin/orderer" >"$dir/logs/fabric-$name.log" 2>&1 &
    pids+=($!)
  done < <(grep '^node ' <<<"$plan")
  join_cluster "$dir" "Fabric's $name"
}

# Waits for every node of the plan to be healthy and joins it to the channel; sets $endpoints.
join_cluster() {
  local dir=$1 what=$2 name config grpc admin ops i=0
  endpoints=()
  while read -r _ name config grpc admin ops; do
    until curl -fs "http://127.0.0.1:$ops/healthz" >/dev/null 2>&1; do
      if ! kill -0 "${pids[$i]}" 2>/dev/null; then
        echo "e2e.sh: $what ($name) refused to start:" >&2
        grep -m3 -iE 'error|exception|refus|not supported|only|panic' "$dir/logs/"*"$name.log" >&2 || tail -5 "$dir/logs/"*"$name.log" >&2
        exit 3
      fi
      sleep 0.5
    done
    local url="https://127.0.0.1:$admin/participation/v1/channels"
    curl -fsS --cacert "$admin_ca" --cert "$admin_cert" --key "$admin_key" \
      -F "config-block=@$genesis" "$url" >/dev/null
    endpoints+=(--orderer "127.0.0.1:$grpc")
    i=$((i + 1))
  done < <(grep '^node ' <<<"$plan")
}

# One load per client of --clients, the order alternating from call to call (so neither client
# always meets the warmer cluster). Arguments as run_load's after the first.
loads_done=0
run_loads() {
  local order=("${client_bins[@]}") i
  if [ $((loads_done % 2)) = 1 ]; then
    order=()
    for ((i = ${#client_bins[@]} - 1; i >= 0; i--)); do order+=("${client_bins[$i]}"); done
  fi
  loads_done=$((loads_done + 1))
  for i in "${order[@]}"; do
    run_load "$i" "$@"
  done
}

# One loadgen run; appends a CSV row. $1 the client's launcher, $2 block size, $3 payload, $4 rate
# (0: saturating), $5 count.
run_load() {
  local client_bin=$1 block=$2 payload=$3 rate=$4 count=$5 report rss_file before_ticks after_ticks before after
  local client_times client_cpu
  client_times=$(mktemp)
  local rate_args=()
  [ "$rate" != 0 ] && rate_args=(--rate "$rate")
  rss_file=$(mktemp)
  (while true; do ps -o rss= -p "$(IFS=,; echo "${pids[*]}")" >>"$rss_file" 2>/dev/null; sleep 1; done) &
  sampler=$!
  before=$(load1)
  before_ticks=$(node_ticks)
  # `times` in the substitution's shell: the CPU the load generator used (its children's line).
  report=$( (JAVA_OPTS="${LOADGEN_JAVA_OPTS:-}" "$client_bin" loadgen "${endpoints[@]}" --channel "$channel" --tls-ca "$admin_ca" \
    --msp-dir "$client_msp" --msp-id "$client_msp_id" --transactions "$count" \
    --streams "$streams" --payload-bytes "$payload" "${rate_args[@]}" ${mode_args[@]+"${mode_args[@]}"} \
    2>>"$out/loadgen.err" || true)
    times >"$client_times")
  client_cpu=$(awk 'NR == 2 {for (i = 1; i <= 2; i++) {split($i, t, "m"); s += t[1] * 60 + t[2]}; print s}' "$client_times")
  after_ticks=$(node_ticks)
  after=$(load1)
  kill "$sampler" 2>/dev/null; wait "$sampler" 2>/dev/null || true
  sampler=""
  echo "$report" >>"$out/loadgen.log"
  local max_rss
  max_rss=$(sort -n "$rss_file" | tail -1)
  rm -f "$rss_file" "$client_times"
  awk -v date="$(date -u +%Y-%m-%dT%H:%MZ)" -v transport="$transport" -v block="$block" \
    -v payload="$payload" -v rate="$rate" -v ticks=$((after_ticks - before_ticks)) \
    -v hz="$(getconf CLK_TCK)" -v rss="${max_rss:-0}" -v l0="$before" -v l1="$after" \
    -v idle="$idle_cpu" -v client="${client_cpu:-0}" -v client_bin="$client_bin" -v orderer="$orderer" '
    /^submit mode/ {mode=$3}
    /^failed submits/ {failed=$3}
    /^submitted/ {submitted=$2}
    /^accepted/ {accepted=$3}
    /^delivered/ {delivered=$2; blocks=$4; tps=$6; sub(/^\(/, "", tps)}
    /^latency/ {p50=$4; p90=$6; p99=$8; max=$10}
    /^duplicates/ {dup=$2}
    /^lost/ {lost=$2}
    /^result/ {result=$2}
    END {
      cpu = delivered > 0 ? ticks / hz * 1000 / delivered : 0
      client_cpu = delivered > 0 ? client * 1000 / delivered : 0
      # Load generators older than the gateway mode report no mode: they submitted pipelined.
      if (mode == "" && submitted != "") mode = "pipelined"
      printf "%s,%s,%d,%d,%d,%d,%d,%d,%d,%s,%s,%s,%s,%s,%d,%d,%s,%.3f,%s,%.0f,%s,%s,%.3f,%s,%s,%d,%s\n",
        date, transport, block, payload, rate, submitted, accepted, delivered, blocks, tps, p50,
        p90, p99, max, dup, lost, (result == "" ? "NO-REPORT" : result), cpu, idle, rss / 1024, l0, l1,
        client_cpu, client_bin, mode, submitted - accepted, orderer
    }' <<<"$report" >>"$csv"
  tail -1 "$csv"
}

# Trains the nodes' AOT cache on a cluster of its own: one node (a backup: three of four nodes are)
# records the classes it loads and its methods' profiles through saturating and light loads of
# both payloads, and writes the cache when it stops (the JVM assembles it then, which takes a while).
# The first of those loads trains the load generator's own cache the same way.
train_aot() {
  local dir="$out/cluster-aot-training"
  echo "e2e.sh: training the nodes' AOT cache $aot_cache (first run after a build)..."
  rm -rf "$dir"
  aot_training="${aot_cache%.aot}.training.aot"
  start_cluster "$dir" 100
  aot_training=""
  local common=("${endpoints[@]}" --channel "$channel" --tls-ca "$admin_ca" --msp-dir "$client_msp"
    --msp-id "$client_msp_id" --streams "$streams" ${mode_args[@]+"${mode_args[@]}"})
  RUBIN_AOT_TRAIN="${loadgen_cache%.aot}.training.aot" \
    "$bin" loadgen "${common[@]}" --transactions 4000 --payload-bytes 2800 >>"$out/loadgen.err" 2>&1 || true
  "$bin" loadgen "${common[@]}" --transactions 2000 --payload-bytes 300 >>"$out/loadgen.err" 2>&1 || true
  "$bin" loadgen "${common[@]}" --transactions 600 --payload-bytes 2800 --rate 200 >>"$out/loadgen.err" 2>&1 || true
  stop_cluster
  if [ -f "${loadgen_cache%.aot}.training.aot" ]; then
    mv "${loadgen_cache%.aot}.training.aot" "$loadgen_cache"
  else
    echo "e2e.sh: no load generator AOT cache came out of the training run; running without" >&2
  fi
  if [ -f "${aot_cache%.aot}.training.aot" ]; then
    mv "${aot_cache%.aot}.training.aot" "$aot_cache"
  else
    echo "e2e.sh: no AOT cache came out of the training run (see $dir/logs); running without" >&2
  fi
  rm -rf "$dir"
}

# The idle CPU of the started cluster, then the loads of block size $1 on it; stops it.
measure_cluster() {
  local block=$1 ticks payload
  sleep 5 # past the start-up JIT work
  ticks=$(node_ticks)
  sleep 10
  idle_cpu=$(awk -v t=$(($(node_ticks) - ticks)) -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.1f", t / hz / 10 * 100}')
  for payload in $payloads; do
    run_loads "$block" "$payload" 0 "$transactions"
  done
  if [ "$light_rate" != 0 ]; then
    run_loads "$block" 2800 "$light_rate" "$light_transactions"
  fi
  stop_cluster
}

: >"$out/loadgen.log"
: >"$out/loadgen.err"
if [ "$aot" = 1 ] && { [ ! -f "$aot_cache" ] || [ ! -f "$loadgen_cache" ]; }; then
  train_aot
fi
for block in $blocks; do
  dir="$out/cluster-$block"
  rm -rf "$dir"
  echo "e2e.sh: blocks of $block, transport $transport (cluster in $dir)"
  start_cluster "$dir" "$block"
  measure_cluster "$block"
  if [ -n "$fabric_bin" ]; then
    echo "e2e.sh: blocks of $block, Fabric's BFT orderer on the same ports, crypto and genesis"
    orderer=fabric
    start_fabric_cluster "$dir"
    measure_cluster "$block"
    orderer=rubin
  fi
  if [ "$keep_data" = 0 ]; then
    find "$dir" -mindepth 1 -maxdepth 1 ! -name logs -exec rm -rf {} +
  fi
done

echo
column -s, -t "$csv"
echo
echo "e2e.sh: results in $csv (loadgen reports in $out/loadgen.log); plot: python3 deploy/bench/plot.py $csv"
