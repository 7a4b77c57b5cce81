#!/bin/bash
# Boot stage: boot a built lab kernel under QEMU with the host root shared
# read-only over 9p, run one command in it and return its exit code.
#
# usage: run-guest.sh [options] BASE base|patched COMMAND...
#   BASE is a line of lab/bases.tsv (mainline, 6.12)
#   --out DIR         host directory the guest sees as /tmp/out (read-write);
#                     the serial log, dmesg.txt and rc land there (default: a
#                     new directory under build/<base>/guest/)
#   --timeout SEC     kill the guest after SEC seconds (default 900); a
#                     tenth of it (at least 60 s) before, the guest dumps
#                     its tasks (lab/boot/guest-hang-dump.sh; not for a
#                     limit of 120 s or less)
#   --disk SPEC       extra device, repeatable, backed by a file in /dev/shm:
#                     nvme:SIZE            QEMU NVMe controller + namespace
#                     zns:SIZE:ZONE        zoned QEMU NVMe namespace, ZONE size
#                     virtio:SIZE:wc=on|off[,qs=N][,nq=N][,ind=off]  virtio-blk:
#                                          write cache, ring size, number of
#                                          queues, indirect descriptors
#                     SIZE takes K, M, G (e.g. 1G, 1049602K)
#   --mem MB, --smp N guest size (default 2048 MB, 2 CPUs)
#   --append ARGS     more kernel command-line arguments, e.g.
#                     "nvme_core.multipath=0" (built-in module parameters)
# Environment: LAB_ACCEL=kvm|tcg skips the accelerator probe.
#   LAB_ICOUNT=SHIFT (TCG only) runs QEMU with -icount shift=SHIFT,sleep=off:
#   the guest clock then advances 2^SHIFT ns per guest instruction and
#   jumps over idle time, so a CPU-bound rate measured in the guest counts
#   instructions per operation and does not depend on how busy the host
#   is. The vCPUs then share one host thread.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out="" timeout=900 mem=2048 smp=2 disks=() append=""
while [ $# -gt 0 ]; do
	case $1 in
	--out) out=$2; shift 2 ;;
	--timeout) timeout=$2; shift 2 ;;
	--disk) disks+=("$2"); shift 2 ;;
	--mem) mem=$2; shift 2 ;;
	--smp) smp=$2; shift 2 ;;
	--append) append=$2; shift 2 ;;
	-*) echo "run-guest: unknown option $1" >&2; exit 2 ;;
	*) break ;;
	esac
done
# --timeout, --smp, --mem (and LAB_GUEST_SMP of the runners, which comes
# here as --smp): positive integers, checked in this one place
for kv in "--timeout:$timeout" "--smp:$smp" "--mem:$mem"; do
	case ${kv#*:} in
	''|*[!0-9]*|0*) echo "run-guest: ${kv%%:*} takes a positive integer, not '${kv#*:}'" >&2; exit 2 ;;
	esac
done
usage="usage: run-guest.sh [options] BASE base|patched COMMAND..."
b=${1:?$usage}
kernel=${2:?$usage}
shift 2
[ $# -gt 0 ] || { echo "run-guest: no command given" >&2; exit 2; }
. "$top/lab/paths.sh"
lab_check_base "$b" || exit 2
lab_check_kernel "$kernel" || exit 2
image=$(lab_image "$b" "$kernel")
mods=$(lab_mods "$b" "$kernel")
if [ ! -f "$image" ]; then
	if [ "$kernel" = deb ]; then
		echo "run-guest: $image missing: run lab/build/build-deb.sh $b lab" >&2
	else
		echo "run-guest: $image missing: run lab/build/build-kernel.sh $b $kernel" >&2
	fi
	exit 1
fi

if [ -z "$out" ]; then
	mkdir -p "$top/build/$b/guest"
	out=$(mktemp -d "$top/build/$b/guest/$kernel.XXXXXX")
fi
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out/rc" "$out/dmesg.txt" "$out/serial.log" "$out/hang-dump.txt" "$out/dmesg-hang.txt" "$out/dmesg-without-dump.txt"
printf '%s\n' "$*" >"$out/cmd"
log=$out/serial.log

# The guest prints its tasks' states and stacks (lab/boot/guest-hang-dump.sh)
# this long after its boot, early enough to finish before the kill: a
# tenth of the time limit before it, at least 60 s before it (boot under
# TCG takes 20 to 30 s of the limit too).
# No dump for a limit of 120 s or less (accelerator probes, short runs):
# it would come too early to tell a hang from a slow boot.
margin=$((timeout / 10 > 60 ? timeout / 10 : 60))
dump_after=""
[ "$timeout" -le 120 ] || dump_after=$((timeout - margin))

accel=${LAB_ACCEL:-$("$top/lab/boot/probe-accel.sh" "$b" "$kernel")}
case $accel in
kvm) cpu=host ;;
*) accel=tcg cpu=max ;;
esac

args=(-machine pc -accel "$accel" -cpu "$cpu" -smp "$smp" -m "$mem"
	-nodefaults -no-reboot -display none -serial "file:$log"
	-kernel "$image"
	-append "console=ttyS0 loglevel=5 panic=-1 root=hostroot rootfstype=9p rootflags=trans=virtio,version=9p2000.L,msize=512000,cache=loose ro init=$top/lab/boot/guest-init.sh LAB_MODS=$mods LAB_TOP=$top LAB_DUMP_AFTER=$dump_after${append:+ $append}"
	-fsdev "local,id=hostroot,path=/,security_model=none,readonly=on,multidevs=remap"
	-device virtio-9p-pci,fsdev=hostroot,mount_tag=hostroot
	-fsdev "local,id=labout,path=$out,security_model=none"
	-device virtio-9p-pci,fsdev=labout,mount_tag=labout
	-fsdev "local,id=labrepo,path=$top,security_model=none,readonly=on,multidevs=remap"
	-device virtio-9p-pci,fsdev=labrepo,mount_tag=labrepo)

files=()
qpid="" tpid=""
# Interrupted or killed (Ctrl-C, a CI timeout), the runner takes its QEMU
# and console reader with it (tpid is the reader pipeline's sed; its tail
# ends with QEMU), then dies of the same signal, so that a caller's loop
# stops too.
cleanup() {
	if [ -n "$qpid" ]; then kill -9 "$qpid" 2>/dev/null || true; fi
	if [ -n "$tpid" ]; then kill "$tpid" 2>/dev/null || true; fi
	# a signal between "qemu &" and "qpid=$!"
	# shellcheck disable=SC2046
	kill -9 $(jobs -p) 2>/dev/null || true
	rm -f "${files[@]}"
}
trap cleanup EXIT
for sig in INT TERM HUP; do
	# shellcheck disable=SC2064 # $sig now, on purpose
	trap "cleanup; trap - $sig EXIT; kill -$sig \$\$" $sig
done
i=0
for spec in "${disks[@]}"; do
	IFS=: read -r type size opt <<<"$spec"
	f=/dev/shm/lab-$$-$i.img
	files+=("$f")
	truncate -s "$size" "$f" || { echo "run-guest: bad size in --disk $spec" >&2; exit 2; }
	args+=(-drive "file=$f,if=none,id=d$i,format=raw,cache=unsafe")
	case $type in
	nvme)
		args+=(-device "nvme,serial=labnvme$i,id=c$i"
			-device "nvme-ns,drive=d$i,bus=c$i,nsid=1") ;;
	zns)
		args+=(-device "nvme,serial=labzns$i,id=c$i,zoned.zasl=5"
			-device "nvme-ns,drive=d$i,bus=c$i,nsid=1,zoned=true,zoned.zone_size=${opt:-8M},zoned.zone_capacity=${opt:-8M}") ;;
	virtio)
		dev="virtio-blk-pci,drive=d$i,serial=labvirtio$i,write-cache=on"
		for kv in ${opt//,/ }; do
			case $kv in
			wc=*) dev="${dev/write-cache=on/write-cache=${kv#wc=}}" ;;
			qs=*) dev="$dev,queue-size=${kv#qs=}" ;;
			nq=*) dev="$dev,num-queues=${kv#nq=}" ;;
			ind=*) dev="$dev,indirect_desc=${kv#ind=}" ;;
			*) echo "run-guest: unknown virtio option '$kv' in --disk $spec" >&2; exit 2 ;;
			esac
		done
		args+=(-device "$dev") ;;
	*) echo "run-guest: unknown disk type '$type' in --disk $spec" >&2; exit 2 ;;
	esac
	i=$((i + 1))
done

icount=""
if [ -n "${LAB_ICOUNT:-}" ]; then
	case $LAB_ICOUNT in
	''|*[!0-9]*) echo "run-guest: LAB_ICOUNT must be a shift (0-10), not '$LAB_ICOUNT'" >&2; exit 2 ;;
	esac
	[ "$accel" = tcg ] || { echo "run-guest: LAB_ICOUNT needs TCG, not $accel" >&2; exit 2; }
	args+=(-icount "shift=$LAB_ICOUNT,sleep=off")
	icount=" icount shift=$LAB_ICOUNT,"
fi

echo "guest[$b/$kernel]: booting ($accel,$icount ${smp} CPUs, ${mem} MB${disks:+, disks: ${disks[*]}}${append:+, kernel arguments: $append})"
start=$(date +%s)
qemu-system-x86_64 "${args[@]}" </dev/null >"$out/qemu.log" 2>&1 &
qpid=$!
touch "$log"
# Stream the console while the guest runs.
tail -n +1 -F --pid=$qpid "$log" 2>/dev/null | tr -d '\r' | sed -u 's/^/    | /' &
tpid=$!
deadline=$((start + timeout))
while kill -0 $qpid 2>/dev/null; do
	if [ "$(date +%s)" -ge $deadline ]; then
		kill -9 $qpid 2>/dev/null || true
		wait $qpid 2>/dev/null || true
		qpid=""
		kill $tpid 2>/dev/null || true
		tpid=""
		echo "guest[$b/$kernel]: TIMEOUT after ${timeout} s; QEMU killed. Serial log tail:" >&2
		tail -n 40 "$log" | tr -d '\r' | sed 's/^/    > /' >&2
		if [ -s "$out/hang-dump.txt" ]; then
			echo "guest[$b/$kernel]: what its tasks were doing: $out/hang-dump.txt, kernel log with sysrq w and l: $out/dmesg-hang.txt" >&2
		fi
		exit 124
	fi
	sleep 1
done
wait $qpid 2>/dev/null || true
qpid=""
wait $tpid 2>/dev/null || true
tpid=""
if [ ! -f "$out/rc" ]; then
	echo "guest[$b/$kernel]: guest died without an exit code (panic?). QEMU said:" >&2
	sed 's/^/    > /' "$out/qemu.log" >&2
	echo "guest[$b/$kernel]: serial log tail:" >&2
	tail -n 40 "$log" | tr -d '\r' | sed 's/^/    > /' >&2
	exit 125
fi
rc=$(cat "$out/rc")
warn_log=$out/dmesg.txt
if grep -q 'lab-hang-dump: begin' "$out/dmesg.txt" 2>/dev/null &&
	grep -q 'lab-hang-dump: end' "$out/dmesg.txt"; then
	# the command ended after guest-hang-dump.sh ran: its sysrq traces
	# are no kernel warnings
	echo "guest[$b/$kernel]: the command ran past ${dump_after} s, its tasks were dumped ($out/hang-dump.txt); kernel warnings are looked for in the kernel log without the dump" >&2
	sed '/lab-hang-dump: begin/,/lab-hang-dump: end/d' "$out/dmesg.txt" >"$out/dmesg-without-dump.txt"
	warn_log=$out/dmesg-without-dump.txt
fi
if grep -qE "$LAB_WARN_RE" "$warn_log" 2>/dev/null; then
	echo "guest[$b/$kernel]: kernel warnings in dmesg (see $warn_log):" >&2
	# the warnings themselves; their call traces only if nothing else matched
	head=$(grep -E "$LAB_WARN_RE" "$warn_log" | grep -v 'Call Trace:' | head -n 5 || true)
	[ -n "$head" ] || head=$(grep -E -m5 "$LAB_WARN_RE" "$warn_log" || true)
	sed 's/^/    > /' <<<"$head" >&2
	touch "$out/kernel-warnings"
fi
echo "guest[$b/$kernel]: exit $rc after $(( $(date +%s) - start )) s"
exit "$rc"
