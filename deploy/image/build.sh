#!/usr/bin/env bash
# Builds the orderer's container image as an OCI archive, with no container engine and no image
# registry: deploy/image/target/rubin-orderer-<version>.oci.tar, then prints its digest and sizes.
#   layer 1: Debian bookworm (debootstrap --variant=minbase, trimmed), user 10001, data/config dirs
#   layer 2: a Java 25 runtime made by jlink from the local JDK (modules: jre-modules.txt)
#   layer 3: the orderer's distribution (orderer/pom.xml profile "dist") at /opt/rubin-orderer
# Layers 1 and 2 are cached under $RUBIN_IMAGE_CACHE (default ~/.cache/rubin-orderer-image) and
# rebuilt only when their inputs change. Needs root (debootstrap, chroot); installs its tools with
# apt-get when missing. Usage: deploy/image/build.sh   (README.md beside this file)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
cache=${RUBIN_IMAGE_CACHE:-$HOME/.cache/rubin-orderer-image}
target=$here/target
suite=bookworm
data_dir=/var/hyperledger/production/orderer
config_dir=/etc/rubin-orderer
java_home=/opt/java/openjdk
app_home=/opt/rubin-orderer
uid=10001

log() { echo "build.sh: $*" >&2; }

install_tools() {
  local tool missing=()
  for tool in umoci skopeo debootstrap zip unzip jq; do
    command -v "$tool" >/dev/null || missing+=("$tool")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing ${missing[*]}"
  apt-get update -q >/dev/null
  DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
}

# Prints the distribution directory after building it with Maven.
build_distribution() {
  log "building the distribution (mvn -Pdist)"
  (cd "$repo" && source scripts/jdk.sh &&
    mvn -B -ntp -q -Dstyle.color=never -Drubin.commit="$(git rev-parse HEAD 2>/dev/null || echo unknown)" \
      -pl orderer -am -Pdist -DskipTests package) >&2
  local dist
  dist=$(find "$repo/orderer/target" -maxdepth 1 -type d -name 'rubin-orderer-*' | head -1)
  [ -x "$dist/bin/rubin-orderer" ] || { log "no distribution in orderer/target"; exit 1; }
  echo "$dist"
}

# The base layer as an uncompressed tar: a trimmed minbase Debian with the orderer's user and
# directories. Its cache key is this function's text, so editing it rebuilds the layer.
base_layer() {
  local key tar work
  key=$(declare -f base_layer | sha256sum | cut -c1-12)
  tar=$cache/base-$suite-$key.tar
  if [ ! -f "$tar" ]; then
    log "debootstrap $suite (minbase) into the cache: a few minutes, once"
    work=$(mktemp -d "$cache/base.XXXXXX")
    debootstrap --variant=minbase "$suite" "$work/rootfs" >"$work/debootstrap.log" 2>&1 ||
      { tail -20 "$work/debootstrap.log" >&2; exit 1; }
    chroot "$work/rootfs" groupadd --gid "$uid" orderer
    chroot "$work/rootfs" useradd --uid "$uid" --gid "$uid" --no-create-home \
      --home-dir "$data_dir" --shell /usr/sbin/nologin orderer
    mkdir -p "$work/rootfs$data_dir" "$work/rootfs$config_dir"
    chown "$uid:$uid" "$work/rootfs$data_dir"
    # Documentation, translations, package lists, logs and the build host's identity are not
    # needed at run time; dpkg's database stays so that image scanners can list the packages.
    (cd "$work/rootfs" && rm -rf usr/share/doc/* usr/share/man/* usr/share/info/* \
      usr/share/locale/* var/cache/apt/* var/lib/apt/lists/* var/log/* dev/* \
      etc/hostname etc/resolv.conf)
    tar --numeric-owner --sort=name -C "$work/rootfs" -cf "$tar.part" .
    mv "$tar.part" "$tar"
    rm -rf "$work"
  fi
  echo "$tar"
}

# The jlinked Java runtime, cached per JDK build and module list.
java_runtime() {
  local modules key jre
  source "$repo/scripts/jdk.sh"
  modules=$(grep -v '^#' "$here/jre-modules.txt" | paste -sd, -)
  key=$( (cat "$JAVA_HOME/release"; echo "$modules") | sha256sum | cut -c1-12)
  jre=$cache/jre-$key
  if [ ! -x "$jre/bin/java" ]; then
    log "jlink $modules"
    rm -rf "$jre.part"
    jlink --add-modules "$modules" --strip-debug --no-man-pages --no-header-files \
      --compress=zip-6 --output "$jre.part" >&2
    mv "$jre.part" "$jre"
  fi
  echo "$jre"
}

# A copy of the distribution for linux/amd64 only: rocksdbjni carries RocksDB for 15 platforms
# (92 MB); the glibc x86_64 one is all this image can use. An AOT cache trained beside the
# distribution (deploy/bench/e2e.sh) stays out: it describes the local JDK and the unmodified jars,
# so the image's JVM would refuse it at every start.
image_distribution() {
  local dist=$1 copy=$2 jar
  cp -a "$dist" "$copy"
  rm -f "$copy"/lib/*.aot
  for jar in "$copy"/lib/rocksdbjni-*.jar; do
    unzip -Z1 "$jar" | grep -E '\.(so|jnilib|dll)$' | grep -vx 'librocksdbjni-linux64.so' |
      xargs zip -q -d "$jar"
  done
}

assemble() {
  local version=$1 base=$2 jre=$3 app=$4 oci=$5 ref=rubin-orderer:$1 port
  umoci init --layout "$oci"
  umoci new --image "$oci:$ref"
  umoci raw add-layer --image "$oci:$ref" \
    --history.created_by "debootstrap --variant=minbase $suite; user $uid; $data_dir" "$base"
  umoci insert --image "$oci:$ref" --history.created_by "jlink (jre-modules.txt)" "$jre" "$java_home"
  umoci insert --image "$oci:$ref" --history.created_by "rubin-orderer $version" "$app" "$app_home"
  local config=(--architecture amd64 --os linux --config.user "$uid:$uid"
    --config.entrypoint "$app_home/bin/rubin-orderer" --config.cmd=--help
    --config.workingdir "$data_dir" --config.volume "$data_dir"
    --config.env "JAVA_HOME=$java_home"
    --config.env "PATH=$app_home/bin:$java_home/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
    --config.label "org.opencontainers.image.title=rubin-orderer"
    --config.label "org.opencontainers.image.version=$version"
    --config.label "org.opencontainers.image.revision=$(git -C "$repo" rev-parse HEAD 2>/dev/null || echo unknown)")
  # 7050 Broadcast/Deliver gRPC, 7150 cluster, 9443 channel participation (admin), 8443 operations.
  for port in 7050 7150 9443 8443; do config+=(--config.exposedports "$port/tcp"); done
  umoci config --image "$oci:$ref" "${config[@]}"
  umoci gc --layout "$oci"
}

report() {
  local archive=$1 oci=$2 manifest
  manifest=$(jq -r '.manifests[0].digest' "$oci/index.json")
  skopeo inspect "oci-archive:$archive" >/dev/null
  echo "image:   $archive"
  echo "digest:  $manifest"
  echo "archive: $(du -h "$archive" | cut -f1) ($(stat -c %s "$archive") bytes)"
  jq -r '.layers[] | "layer:   \(.digest[7:19]) \(.size / 1048576 | floor) MiB compressed"' \
    "$oci/blobs/sha256/${manifest#sha256:}"
}

main() {
  [ "$(id -u)" -eq 0 ] || { log "needs root (debootstrap, chroot)"; exit 1; }
  mkdir -p "$cache" "$target"
  install_tools
  local dist version base jre archive
  dist=$(build_distribution)
  version=${dist##*/rubin-orderer-}
  base=$(base_layer)
  jre=$(java_runtime)
  work=$(mktemp -d "$target/work.XXXXXX")
  trap 'rm -rf "$work"' EXIT
  image_distribution "$dist" "$work/app"
  assemble "$version" "$base" "$jre" "$work/app" "$work/oci"
  archive=$target/rubin-orderer-$version.oci.tar
  tar --sort=name -C "$work/oci" -cf "$archive.part" . && mv "$archive.part" "$archive"
  report "$archive" "$work/oci"
}

main "$@"
