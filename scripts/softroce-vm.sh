#!/usr/bin/env bash
# softroce-vm.sh — run a command inside a small QEMU guest that has a real RDMA verbs
# device (Soft-RoCE, the kernel's rdma_rxe), for hosts whose kernel has no RDMA support.
#
#   softroce-vm.sh build                    build once (cached in $SOFTROCE_DIR), no boot
#   softroce-vm.sh run [opts] -- CMD [ARG]  boot, run CMD inside, print its output, power off;
#                                           exits with CMD's status (124: timed out)
#   softroce-vm.sh selftest [opts]          boot and check the device with the verbs tools
#                                           (ends with an 'N passed, N failed' line)
#   softroce-vm.sh clean                    remove the cache
#
# run/selftest options:
#   --timeout S     wall-clock bound for the whole VM run, boot included (default 600)
#   --mem M         guest memory in MiB (default 4096)
#   --cpus N        guest vCPUs (default: host cores)
#   --share DIR     share host DIR read-write at the same path in the guest (repeatable;
#                   default: the current directory, unless it is /)
#   --share-ro DIR  share host DIR read-only at the same path (repeatable; /usr/lib/jvm and
#                   $JAVA_HOME are always shared read-only)
#   --env NAME=VAL  export NAME=VAL to CMD (repeatable)
#   --no-rxe        create no RDMA device (CMD sets one up itself)
#   --rxe-on-lo     put rxe0 on the loopback device (GID ::ffff:127.0.0.1): plain verbs work,
#                   rdma_cm does not (it cannot resolve a route to 127.0.0.1: ENODEV)
# environment:
#   SOFTROCE_DIR    cache and scratch directory (default ~/.cache/rubin-orderer/softroce)
#   SOFTROCE_ADDR   the guest's RDMA address (default 192.0.2.1, on a dummy netdev sr0)
#   SOFTROCE_ACCEL  kvm | tcg | auto (default auto: kvm only with kvm_intel/kvm_amd loaded)
#   SOFTROCE_MIRROR Debian mirror for debootstrap (default: the one apt's sources name)
#   SOFTROCE_QEMU_EXTRA  extra qemu arguments (word-split), e.g. a NIC joining two VMs
#   SOFTROCE_KEEP   keep the per-run control directory (for debugging)
#
# The guest: Debian bookworm (debootstrap minbase) + rdma-core userspace (libibverbs,
# librdmacm, the rxe provider, ibverbs-utils, rdmacm-utils, perftest, iproute2's rdma);
# Debian's stock kernel (linux-image-amd64) with rdma_rxe, ib_uverbs, rdma_ucm loaded and
# rxe0 on the dummy netdev sr0 holding $SOFTROCE_ADDR. The VM has no network card
# (-nic none), so no packet can leave it. CMD runs as root, in the directory the script was
# started from, with `ulimit -l unlimited`; its stdout and stderr come back merged on this
# script's stdout (through a virtio console); the guest's own console log is kept only on
# failure. The root disk is used with snapshot=on: every run starts from the same image.
set -euo pipefail

SR=${SOFTROCE_DIR:-$HOME/.cache/rubin-orderer/softroce}
SUITE=bookworm
GUEST_PKGS=libibverbs1,librdmacm1,ibverbs-providers,ibverbs-utils,rdmacm-utils,perftest,iproute2,kmod,procps
HOST_PKGS="qemu-system-x86 debootstrap busybox-static cpio kmod e2fsprogs"
# modules the guest's rootfs carries (with their dependencies), loadable by modprobe.
# crc32_generic: rxe needs the "crc32" crypto hash (ICRC); without it
# `rdma link add` fails with ENOENT and dmesg says "failed to init crc32 algorithm err:-2"
GUEST_MODS="crc32_generic crc32-pclmul rdma_rxe rdma_ucm ib_uverbs ib_umad 9p 9pnet_virtio virtio_console virtio_net dummy veth"
# modules the initramfs loads to reach the root disk
INITRD_MODS="virtio_pci virtio_blk ext4"
IMAGE_VERSION=3   # bump when the guest init or module lists change

log() { echo "[softroce] $*" >&2; }
die() { echo "[softroce] ERROR: $*" >&2; exit 2; }

find_mirror() {
  if [ -n "${SOFTROCE_MIRROR:-}" ]; then echo "$SOFTROCE_MIRROR"; return; fi
  local m
  m=$(grep -hE '^URIs:' /etc/apt/sources.list.d/*.sources 2>/dev/null \
        | awk '{print $2}' | grep -E '/debian/?$' | head -n1 || true)
  [ -z "$m" ] && m=$(grep -hE '^deb\s' /etc/apt/sources.list 2>/dev/null \
        | awk '{print $2}' | grep -E '/debian/?$' | head -n1 || true)
  [ -n "$m" ] || die "no Debian mirror in apt's sources: set SOFTROCE_MIRROR"
  echo "$m"
}

host_tools() {
  local b missing=""
  for b in qemu-system-x86_64 debootstrap busybox cpio depmod mke2fs; do
    command -v "$b" >/dev/null 2>&1 || missing="$missing $b"
  done
  [ -z "$missing" ] && return
  log "installing host packages ($HOST_PKGS) for:$missing"
  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $HOST_PKGS; } \
    > "$SR/host-apt.log" 2>&1 || { tail -n 20 "$SR/host-apt.log" >&2; die "apt-get install failed"; }
}

kver() { cat "$SR/kernel/.kver"; }

build_kernel() {
  [ -f "$SR/kernel/.done" ] && return
  log "downloading Debian's kernel (linux-image-amd64)"
  rm -rf "$SR/debs" "$SR/kernel"; mkdir -p "$SR/debs" "$SR/kernel"
  ( cd "$SR/debs" && { apt-get download linux-image-amd64 >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null && apt-get download linux-image-amd64 >/dev/null; }; } ) ||
    die "apt-get download linux-image-amd64 failed"
  local real kv
  real=$(dpkg-deb -f "$SR"/debs/linux-image-amd64_*.deb Depends | grep -oE 'linux-image-[0-9][^ ,]*' | head -n1)
  [ -n "$real" ] || die "cannot resolve the kernel package behind linux-image-amd64"
  ( cd "$SR/debs" && apt-get download "$real" >/dev/null 2>&1 ) || die "apt-get download $real failed"
  dpkg-deb -x "$SR"/debs/"$real"_*.deb "$SR/kernel"
  kv=$(ls "$SR/kernel/lib/modules" | head -n1)
  depmod -b "$SR/kernel" "$kv"
  echo "$kv" > "$SR/kernel/.kver"
  rm -rf "$SR/debs"
  touch "$SR/kernel/.done"
}

# the .ko paths (relative to lib/modules/KVER) that modules $@ need, in load order
mod_closure() {
  local k m; k=$(kver)
  for m in "$@"; do
    modprobe -d "$SR/kernel" -S "$k" --show-depends "$m" | awk '$1=="insmod"{print $2}'
  done | awk '!seen[$0]++' | sed "s#^$SR/kernel/lib/modules/$k/##"
}

build_rootfs() {
  [ -f "$SR/rootfs/.done" ] && return
  local mirror; mirror=$(find_mirror)
  log "debootstrap $SUITE (minbase + rdma-core userspace) from $mirror"
  rm -rf "$SR/rootfs"
  debootstrap --variant=minbase --include="$GUEST_PKGS" "$SUITE" "$SR/rootfs" "$mirror" \
    > "$SR/debootstrap.log" 2>&1 || { tail -n 20 "$SR/debootstrap.log" >&2; die "debootstrap failed"; }
  rm -f "$SR/rootfs/var/cache/apt/archives/"*.deb
  touch "$SR/rootfs/.done"
}

install_guest_bits() {
  local k p R="$SR/rootfs"; k=$(kver)
  rm -rf "$R/lib/modules"; mkdir -p "$R/lib/modules/$k"
  cp "$SR/kernel/lib/modules/$k"/modules.{order,builtin,builtin.modinfo} "$R/lib/modules/$k/"
  for p in $(mod_closure $GUEST_MODS); do
    mkdir -p "$R/lib/modules/$k/$(dirname "$p")"
    cp "$SR/kernel/lib/modules/$k/$p" "$R/lib/modules/$k/$p"
  done
  depmod -b "$R" "$k"
  echo softroce > "$R/etc/hostname"
  printf '127.0.0.1 localhost softroce\n::1 localhost ip6-localhost\n' > "$R/etc/hosts"
  cat > "$R/sbin/softroce-init" <<'GUESTINIT'
#!/bin/bash
# PID 1 of the guest: mount the shares, set up Soft-RoCE, run the job, power off.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LANG=C.UTF-8
mount -t proc proc /proc 2>/dev/null; mount -t sysfs sys /sys 2>/dev/null
mount -t devtmpfs dev /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm; mount -t devpts devpts /dev/pts; mount -t tmpfs shm /dev/shm
mount -t tmpfs tmp /tmp; mount -t tmpfs run /run
ln -sfn /proc/self/fd /dev/fd
hostname softroce
off() { sync; echo 1 > /proc/sys/kernel/sysrq; echo o > /proc/sysrq-trigger; sleep 30; }
arg() { tr ' ' '\n' < /proc/cmdline | sed -n "s/^$1=//p" | tail -n1; }
modprobe virtio_console; modprobe 9pnet_virtio; modprobe 9p
for i in $(seq 1 100); do [ -e /dev/hvc0 ] && break; sleep 0.05; done
exec </dev/null >/dev/hvc0 2>&1
mkdir -p /softroce
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 ctl /softroce || { echo "softroce: no ctl share"; off; }
# shares: one line each: TAG MODE PATH
while read -r tag mode path; do
  [ -n "$tag" ] || continue
  mkdir -p "$path"
  opts=trans=virtio,version=9p2000.L,msize=512000,cache=mmap
  [ "$mode" = ro ] && opts=$opts,ro
  mount -t 9p -o "$opts" "$tag" "$path" || echo "softroce: mounting $path failed"
done < /softroce/shares
ip link set lo up
ulimit -l unlimited
modprobe crc32_generic; modprobe crc32-pclmul 2>/dev/null
modprobe rdma_rxe && modprobe ib_uverbs && modprobe rdma_ucm || echo "softroce: loading RDMA modules failed"
# rdma_cm (rping, librdmacm, DiSNI) cannot resolve routes to loopback addresses, so by
# default rxe0 sits on a dummy netdev with a non-loopback address; the VM has no NIC.
mode=$(arg softroce.rxe); addr=$(arg softroce.addr); addr=${addr:-192.0.2.1}
case "$mode" in
  none) ;;
  lo) rdma link add rxe0 type rxe netdev lo || echo "softroce: rdma link add rxe0 (lo) failed" ;;
  *) modprobe dummy numdummies=0
     ip link add sr0 type dummy && ip link set sr0 up && ip addr add "$addr/24" dev sr0
     rdma link add rxe0 type rxe netdev sr0 || echo "softroce: rdma link add rxe0 failed" ;;
esac
export SOFTROCE_ADDR=$addr SOFTROCE_GUEST=1
if [ -z "${JAVA_HOME:-}" ]; then
  for j in /usr/lib/jvm/*; do [ -x "$j/bin/java" ] && JAVA_HOME=$j; done
fi
[ -f /softroce/env ] && . /softroce/env
[ -n "${JAVA_HOME:-}" ] && export JAVA_HOME PATH=$JAVA_HOME/bin:$PATH
cd "$(cat /softroce/cwd)" 2>/dev/null || cd /
echo "softroce: guest up after $(cut -d' ' -f1 /proc/uptime)s ($(rdma link show 2>/dev/null | awk '{print $2, $4, "netdev", $NF}' | tr '\n' ' '))"
bash /softroce/cmd.sh
echo "$?" > /softroce/rc
off
GUESTINIT
  chmod 755 "$R/sbin/softroce-init"
}

build_image() {
  [ -f "$SR/.built" ] && [ "$(cat "$SR/.built")" = "$IMAGE_VERSION" ] && return
  install_guest_bits
  log "making rootfs.img (ext4, from the rootfs directory)"
  rm -f "$SR/rootfs.img"
  local mb k p I="$SR/initrd"; k=$(kver)
  mb=$(( $(du -sm "$SR/rootfs" | cut -f1) + 512 ))
  mke2fs -q -t ext4 -L softroce -d "$SR/rootfs" "$SR/rootfs.img" "${mb}M" >/dev/null
  log "making initrd.img (busybox + $INITRD_MODS)"
  rm -rf "$I"; mkdir -p "$I"/{bin,dev,proc,sys,newroot,mods}
  cp "$(command -v busybox)" "$I/bin/busybox"
  : > "$I/mods/list"
  for p in $(mod_closure $INITRD_MODS); do
    cp "$SR/kernel/lib/modules/$k/$p" "$I/mods/"; basename "$p" >> "$I/mods/list"
  done
  cat > "$I/init" <<'INITRD'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for m in $(cat /mods/list); do insmod /mods/$m 2>/dev/null; done
i=0; while [ ! -b /dev/vda ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done
mount -t ext4 /dev/vda /newroot || { echo "initrd: cannot mount /dev/vda"; echo o > /proc/sysrq-trigger; }
umount /proc /sys; mount --move /dev /newroot/dev
exec switch_root /newroot /sbin/softroce-init
INITRD
  chmod 755 "$I/init"
  ( cd "$I" && find . | cpio -o -H newc --quiet | gzip -1 > "$SR/initrd.img" )
  cp "$SR/kernel/boot/vmlinuz-$k" "$SR/vmlinuz"
  echo "$IMAGE_VERSION" > "$SR/.built"
}

do_build() {
  mkdir -p "$SR"
  exec 9>"$SR/.lock"; flock 9
  if [ -f "$SR/.built" ] && [ "$(cat "$SR/.built")" = "$IMAGE_VERSION" ] && command -v qemu-system-x86_64 >/dev/null; then
    exec 9>&-; return
  fi
  [ "$(id -u)" = 0 ] || die "building needs root (apt-get, debootstrap, file owners in the image)"
  local t0=$SECONDS
  host_tools
  build_kernel
  build_rootfs
  build_image
  log "built in $((SECONDS - t0))s: $SR/{vmlinuz,initrd.img,rootfs.img}, kernel $(kver)"
  exec 9>&-
}

do_run() {
  local timeout=600 mem=4096 cpus rxe=dummy d
  cpus=$(nproc)
  local -a rw=() ro=() envs=()
  while [ $# -gt 0 ]; do
    case "$1" in
      --timeout) timeout=$2; shift 2;;
      --mem) mem=$2; shift 2;;
      --cpus) cpus=$2; shift 2;;
      --share) d=$(readlink -f "$2") && [ -d "$d" ] || die "no directory $2"; rw+=("$d"); shift 2;;
      --share-ro) d=$(readlink -f "$2") && [ -d "$d" ] || die "no directory $2"; ro+=("$d"); shift 2;;
      --env) envs+=("$2"); shift 2;;
      --no-rxe) rxe=none; shift;;
      --rxe-on-lo) rxe=lo; shift;;
      --) shift; break;;
      -*) die "unknown option $1";;
      *) break;;
    esac
  done
  [ $# -gt 0 ] || die "no command given (softroce-vm.sh run [opts] -- CMD...)"
  do_build
  if [ ${#rw[@]} -eq 0 ] && [ "$(pwd -P)" != / ]; then rw=("$(pwd -P)"); fi
  [ -d /usr/lib/jvm ] && ro+=(/usr/lib/jvm)
  if [ -n "${JAVA_HOME:-}" ] && [ -d "$JAVA_HOME" ]; then
    d=$(readlink -f "$JAVA_HOME"); case "$d" in /usr/lib/jvm/*) ;; *) ro+=("$d");; esac
  fi

  local accel=${SOFTROCE_ACCEL:-auto} cpu
  if [ "$accel" = auto ]; then
    # KVM only with hardware virtualization (kvm_intel / kvm_amd). A /dev/kvm served by
    # another backend (kvm_pvm on this workplace's machines) runs a stock distro kernel
    # only by instruction emulation: it never gets through the kernel's decompressor.
    if [ -r /dev/kvm ] && [ -w /dev/kvm ] && { [ -d /sys/module/kvm_intel ] || [ -d /sys/module/kvm_amd ]; }; then
      accel=kvm
    else
      accel=tcg
      log "no hardware KVM (modules: $(ls /sys/module 2>/dev/null | grep -E '^kvm' | tr '\n' ' ')): TCG emulation, ~10x slower"
    fi
  fi
  case "$accel" in
    kvm) accel=kvm; cpu=host;;
    *) accel=tcg,thread=multi; cpu=max;;
  esac

  # no_timer_check (on the kernel command line below): under emulation on a loaded host the
  # kernel's IO-APIC timer check can time out and panic the boot ("IO-APIC + timer doesn't
  # work!"); seen once in ten boots at load ~50. The emulated timer is fine; the check is skipped.
  local ctl; ctl=$(mktemp -d "$SR/run.XXXXXX")
  # removed on any exit
  [ -n "${SOFTROCE_KEEP:-}" ] || trap "rm -rf '$ctl'" EXIT
  pwd -P > "$ctl/cwd"
  { echo 'set -o pipefail'; printf '%q ' "$@"; echo; } > "$ctl/cmd.sh"
  : > "$ctl/env"
  [ -n "${JAVA_HOME:-}" ] && printf 'JAVA_HOME=%q\n' "$(readlink -f "$JAVA_HOME")" >> "$ctl/env"
  for d in "${envs[@]}"; do printf 'export %q\n' "$d" >> "$ctl/env"; done
  local -a q=(qemu-system-x86_64 -accel "$accel" -cpu "$cpu" -m "$mem" -smp "$cpus"
    -nodefaults -no-user-config -display none -no-reboot -nic none
    -kernel "$SR/vmlinuz" -initrd "$SR/initrd.img"
    -append "console=ttyS0 quiet loglevel=3 panic=-1 no_timer_check softroce.rxe=$rxe softroce.addr=${SOFTROCE_ADDR:-192.0.2.1}"
    -drive "file=$SR/rootfs.img,if=virtio,format=raw,snapshot=on"
    -serial "file:$ctl/console.log"
    -device virtio-serial-pci -chardev "stdio,id=out,signal=off" -device virtconsole,chardev=out
    -virtfs "local,path=$ctl,mount_tag=ctl,security_model=none,multidevs=remap")
  local n=0
  : > "$ctl/shares"
  for d in "${rw[@]}"; do
    q+=(-virtfs "local,path=$d,mount_tag=s$n,security_model=none,multidevs=remap"); echo "s$n rw $d" >> "$ctl/shares"; n=$((n+1))
  done
  for d in "${ro[@]}"; do
    q+=(-virtfs "local,path=$d,mount_tag=s$n,security_model=none,multidevs=remap,readonly=on"); echo "s$n ro $d" >> "$ctl/shares"; n=$((n+1))
  done
  # shellcheck disable=SC2206
  [ -n "${SOFTROCE_QEMU_EXTRA:-}" ] && q+=($SOFTROCE_QEMU_EXTRA)

  local t0=$SECONDS rc=0 qpid
  # in the background + wait, so that INT/TERM/HUP to this script stop the VM at once
  # (timeout passes the signal on to qemu)
  timeout --kill-after=10 "$timeout" "${q[@]}" </dev/null &
  qpid=$!
  trap "kill -TERM $qpid 2>/dev/null; wait $qpid 2>/dev/null; exit 143" TERM
  trap "kill -TERM $qpid 2>/dev/null; wait $qpid 2>/dev/null; exit 130" INT
  trap "kill -TERM $qpid 2>/dev/null; wait $qpid 2>/dev/null; exit 129" HUP
  wait "$qpid" || rc=$?
  trap - TERM INT HUP
  if [ -f "$ctl/rc" ]; then
    rc=$(cat "$ctl/rc")
  elif [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    log "timed out after ${timeout}s"; rc=124
  else
    log "the guest ended without a result (qemu rc=$rc); its console log:"
    tail -n 40 "$ctl/console.log" >&2 || true
    [ "$rc" = 0 ] && rc=3
  fi
  log "VM run took $((SECONDS - t0))s ($accel), command rc=$rc"
  [ -n "${SOFTROCE_KEEP:-}" ] && log "control dir kept: $ctl"
  return "$rc"
}

# runs inside the guest: the verbs tools against rxe0, one check per line
SELFTEST='
A=${SOFTROCE_ADDR:-192.0.2.1}; P=0; F=0; T="timeout 60"
ok() { echo "ok   $1"; P=$((P+1)); }; bad() { echo "FAIL $1"; F=$((F+1)); }
pair() { # name, server cmd, client cmd
  local name=$1 s=$2 c=$3 sp out
  $T $s > /tmp/srv.out 2>&1 & sp=$!; sleep 1
  if out=$($T $c 2>&1) && wait $sp; then ok "$name"; echo "$out" | grep -E "$4" | sed "s/^/     /"
  else bad "$name"; echo "$out" | tail -n 5; cat /tmp/srv.out | tail -n 5; wait $sp 2>/dev/null; fi
}
rdma link show | sed "s/^/     /"
ibv_devices | grep -q rxe0 && ok "ibv_devices lists rxe0" || bad "ibv_devices lists rxe0"
ibv_devinfo -d rxe0 | grep -q PORT_ACTIVE && ok "rxe0 port ACTIVE" || bad "rxe0 port ACTIVE"
G=$(ibv_devinfo -d rxe0 -v | sed -n "s/.*GID\[ *\([0-9]*\)\]:.*::ffff:$A,.*/\1/p" | head -n1); G=${G:-1}
echo "     GID index of $A: $G"
pair "ibv_rc_pingpong (RC send/recv, 64 B x 5000)" "ibv_rc_pingpong -d rxe0 -g $G -s 64 -n 5000" "ibv_rc_pingpong -d rxe0 -g $G -s 64 -n 5000 127.0.0.1" "iters"
pair "ibv_ud_pingpong (UD send/recv)" "ibv_ud_pingpong -d rxe0 -g $G -s 1024 -n 1000" "ibv_ud_pingpong -d rxe0 -g $G -s 1024 -n 1000 127.0.0.1" "iters"
pair "ibv_srq_pingpong (SRQ, 16 QPs)" "ibv_srq_pingpong -d rxe0 -g $G -q 16 -n 1000" "ibv_srq_pingpong -d rxe0 -g $G -q 16 -n 1000 127.0.0.1" "iters"
pair "rping (rdma_cm, $A)" "rping -s -a $A -C 100" "rping -c -a $A -C 100 -v" "rdma-ping-99"
pair "ib_send_lat (2 B)" "ib_send_lat -d rxe0 -x $G -n 5000" "ib_send_lat -d rxe0 -x $G -n 5000 127.0.0.1" "^ *2 "
pair "ib_send_lat -R (rdma_cm, 2 B)" "ib_send_lat -d rxe0 -R -n 2000" "ib_send_lat -d rxe0 -R -n 2000 $A" "^ *2 "
pair "ib_send_bw (64 KiB)" "ib_send_bw -d rxe0 -x $G -n 2000 --report_gbits" "ib_send_bw -d rxe0 -x $G -n 2000 --report_gbits 127.0.0.1" "^ *65536"
if command -v java >/dev/null; then
  v=$(java -version 2>&1 | head -n1) && ok "java: $v" || bad "java -version"
fi
echo "$P passed, $F failed"
[ $F = 0 ]'

case "${1:-}" in
  build) shift; do_build; log "image up to date: $SR (kernel $(kver))";;
  run) shift; do_run "$@";;
  selftest) shift; do_run "$@" -- bash -c "$SELFTEST";;
  clean) rm -rf "${SR:?}"/{debs,kernel,rootfs,initrd,rootfs.img,initrd.img,vmlinuz,.built,.lock,debootstrap.log,host-apt.log,run.*};;
  *) sed -n '2,40p' "$0"; exit 2;;
esac
