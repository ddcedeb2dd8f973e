#!/usr/bin/env bash
# Runs the image built by build.sh for real, without a container engine: unpacks the OCI archive's
# layers (umoci), then, in a private mount namespace, chroots into them the way the Helm chart runs
# the pod: as UID 10001, read-only root file system, /tmp a tmpfs, the data dir a writable volume,
# the MSP mounted under /etc/rubin-orderer. Checks:
#   - the image's entrypoint and default command (rubin-orderer --help), and loadgen --help
#   - RocksDB's native library loads and writes on the volume (ledger.cli.VerifyChain, empty store)
#   - the crypto provider is the native ACCP (loadgen logs it, then fails to reach port 1)
#   - (all with the chart's JAVA_TOOL_OPTIONS)
#   - jre-modules.txt still covers what jdeps finds in the image's jars
# Needs root. Slow (minutes); not part of ./test.sh. Usage: deploy/image/test.sh [image.oci.tar]
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
uid=10001
# What helm/rubin-orderer's StatefulSet sets (its default memory plan).
helm_java_options="-Djava.io.tmpdir=/tmp"
helm_memory_plan=(RUBIN_CHANNELS=1 RUBIN_BLOCK_MAX_BYTES=10MB RUBIN_CONSENTERS=4)
passed=0
failed=0

check() { # name, command...: runs the command, counts and prints the result
  local name=$1
  shift
  if "$@"; then
    passed=$((passed + 1))
    echo "ok:   $name"
  else
    failed=$((failed + 1))
    echo "FAIL: $name"
  fi
}

# The image's configuration (from the OCI config, as umoci turned it into a runtime spec).
spec() { jq -r "$1" "$bundle/config.json"; }

# Runs a command inside the image as the image's user, with the image's environment and cwd.
in_image() {
  local env=()
  mapfile -t env < <(spec '.process.env[]')
  env+=("JAVA_TOOL_OPTIONS=$helm_java_options" "${helm_memory_plan[@]}")
  # shellcheck disable=SC2016 # expanded by the image's shell, not here
  env -i "${env[@]}" chroot --userspec="$(spec '.process.user.uid'):$(spec '.process.user.gid')" \
    "$root" /bin/sh -c 'cd "$0" && exec "$@"' "$(spec '.process.cwd')" "$@"
}

mount_like_helm() {
  local data=$work/volume etc=$work/etc
  mkdir -p "$data" "$etc/msp"
  chown "$uid:$uid" "$data"
  cp -r "$repo/testdata/fabric/crypto/peerOrganizations/org1.example.com/users/User1@org1.example.com/msp/." "$etc/msp"
  chown -R "$uid:$uid" "$etc"
  mount --bind "$root" "$root"
  mount -o remount,bind,ro "$root"
  mount -t proc proc "$root/proc"
  mount --rbind /dev "$root/dev"
  mount -t tmpfs -o mode=1777 tmpfs "$root/tmp"
  mount --bind "$data" "$root$(spec '.process.cwd')"
  mount --bind "$etc" "$root/etc/rubin-orderer"
}

help_works() { # args...: the command prints picocli's usage and exits 0
  local out
  out=$(in_image "$@" 2>&1) || { echo "$out"; return 1; }
  grep -q '^Usage: rubin-orderer' <<<"$out" || { echo "$out"; return 1; }
}

runs_as_non_root() { [ "$(in_image id -u)" = "$uid" ]; }

root_is_read_only() { ! in_image touch /opt/rubin-orderer/probe 2>/dev/null; }

rocksdb_loads() {
  local out data
  data=$(spec '.process.cwd')
  out=$(in_image java --enable-native-access=ALL-UNNAMED -cp '/opt/rubin-orderer/lib/*' \
    io.rubinbft.ledger.cli.VerifyChain "$data" 2>&1) || { echo "$out"; return 1; }
  [ -f "$work/volume/CURRENT" ] || { echo "no RocksDB store on the volume: $out"; return 1; }
}

# loadgen picks its crypto provider, signs with the MSP's key, then connects to a closed loopback
# port: its output names the provider and the netty transport that failed to connect.
loadgen_output() {
  in_image rubin-orderer loadgen --orderer 127.0.0.1:1 --channel probe \
    --msp-dir /etc/rubin-orderer/msp --msp-id Org1MSP --transactions 1 --timeout-seconds 5 2>&1 || true
}

output_has() { # pattern
  grep -q -- "$1" "$work/loadgen.out" || { head -20 "$work/loadgen.out"; return 1; }
}

modules_cover_jdeps() {
  local needed listed missing
  needed=$(cd "$root/opt/rubin-orderer/lib" && source "$repo/scripts/jdk.sh" &&
    jdeps --ignore-missing-deps --print-module-deps --multi-release 25 -q \
      --class-path "$(printf '%s:' ./*.jar)" ./*.jar | tr , '\n' | sort)
  listed=$(grep -v '^#' "$here/jre-modules.txt" | sort)
  missing=$(comm -23 <(echo "$needed") <(echo "$listed"))
  [ -z "$missing" ] || { echo "jre-modules.txt lacks: $missing"; return 1; }
}

inside() {
  mount_like_helm
  local entrypoint=()
  mapfile -t entrypoint < <(spec '.process.args[]')
  check "default command: ${entrypoint[*]}" help_works "${entrypoint[@]}"
  check "rubin-orderer loadgen --help" help_works rubin-orderer loadgen --help
  check "runs as UID $uid" runs_as_non_root
  check "root file system is read-only" root_is_read_only
  check "RocksDB native library loads, store written on the volume" rocksdb_loads
  loadgen_output >"$work/loadgen.out"
  check "crypto provider is the native ACCP" \
    output_has 'crypto provider: AmazonCorrettoCryptoProvider .*(native)'
  check "gRPC uses netty's native epoll transport" output_has 'AbstractEpollChannel'
  check "jre-modules.txt covers jdeps" modules_cover_jdeps
  echo "image: $passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}

main() {
  [ "$(id -u)" -eq 0 ] || { echo "test.sh: needs root (chroot, mounts)" >&2; exit 1; }
  local archive=${1:-}
  if [ -z "$archive" ]; then
    # shellcheck disable=SC2012 # the newest archive; names are ours, without odd characters
    archive=$(ls -t "$here"/target/rubin-orderer-*.oci.tar 2>/dev/null | head -1)
  fi
  [ -f "$archive" ] || { echo "test.sh: no image; run deploy/image/build.sh first" >&2; exit 1; }
  work=$(mktemp -d "${TMPDIR:-/tmp}/rubin-image-test.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  mkdir "$work/layout"
  tar -xf "$archive" -C "$work/layout"
  local ref
  ref=$(jq -r '.manifests[0].annotations["org.opencontainers.image.ref.name"]' "$work/layout/index.json")
  umoci unpack --image "$work/layout:$ref" "$work/bundle" >/dev/null
  bundle=$work/bundle
  root=$bundle/rootfs
  echo "test.sh: $archive ($ref)"
  # A private mount namespace: every mount below disappears with it, whatever happens.
  export work bundle root
  unshare --mount --propagation private "$0" --inside
}

if [ "${1:-}" = --inside ]; then
  inside
else
  main "$@"
fi
