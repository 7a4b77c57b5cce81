# Flushes through dm-multipath over NVMe paths (seed 004 territory), counted
# down to the cache they are meant to empty. One nvmet subsystem whose
# namespace is a memory-backed null_blk device with a volatile cache
# (cache_size=16, fua=1), exported on an nvme-loop port and connected twice
# with native multipath off: two controllers, two disks (paths) of one
# namespace, dm-multipath round-robin over both. The guest is booted with
# nvme_core.multipath=0 (run-bench.sh boots it separately for this line):
# lab-append: nvme_core.multipath=0
# Legs:
#   mixed:    A write back, B "write through" in queue/write_cache
#   all_wt:   A and B "write through"
#   failover: A write back, B "write through"; A's controller is deleted
#             once A has carried 16 writes of a rate-limited fio run (50
#             writes/s, which must still be running then), so the rest
#             runs on B alone: the workload fails unless A was failed and
#             B carried writes
# Each leg: fio 4 KiB random writes with fsync() after each (256); ops/s
# (not for the rate-limited failover leg), and the writes, flushes and FUA
# writes sent to each path and to the null_blk device behind the namespace
# (block:block_rq_issue).
# lab-disk: (none: nvmet over nvme-loop)
WL_NAME=seed004-flush-multipath-nvmet
WL_DESC="dm-multipath over two nvme-loop controllers of one nvmet namespace on null_blk with a cache: fio randwrite fsync=1, per path setting"

FN_CFS=/sys/kernel/config/nvmet
FN_NQN=nqn.2014-08.org.kernel:lab-bench-flush-multipath-nvmet
FN_PORT=4079
FN_TRADDR=lab-bench-$FN_PORT
FN_NULLB=fnbench
FN_NR=256

# fn_emit LEG: writes, flushes and FUA writes per path and at the namespace
# from trace.txt, by the device numbers saved in FN_DEVNO_*; sets FN_W_A,
# FN_W_B (writes per path) and FN_F_NS (flushes at the namespace)
fn_emit() {
	local p dev
	for p in A B NS; do
		eval "dev=\$FN_DEVNO_$p"
		emit_path_counts "$1" $p "$dev"
		eval "FN_W_$p=$PATH_WRITES FN_F_$p=$PATH_FLUSHES"
	done
}

# fn_measure LEG DM [RATE]: fio with fsync() after each write
fn_measure() {
	local leg=$1 dm=$2 rate=${3:-} cmd start end
	cmd="timeout -k 10 300 fio --name=fsync --filename=$dm --rw=randwrite --bs=4k --direct=1 --ioengine=psync --fsync=1 --number_ios=$FN_NR --size=64M --output=/dev/null${rate:+ --rate_iops=$rate}"
	rq_issue_trace_start
	start=$(date +%s.%N)
	$cmd &
	FN_PID=$!
	[ -z "$rate" ] || return 0	# the caller waits for FN_PID
	wait "$FN_PID" || { FN_PID=; return 1; }
	FN_PID=
	end=$(date +%s.%N)
	rq_issue_trace_stop
	emit "${leg}_fio_fsync_ops" "$(echo "$FN_NR / ($end - $start)" | bc -l)" ops/s "$cmd (writes per wall-clock second)"
	fn_emit "$leg"
}

# fn_dm_create TABLE: the multipath device fn_mp, its node in FN_DM
fn_dm_create() {
	dmsetup create fn_mp --table "$1" || return 1
	FN_DM=/dev/$(dmsetup info -c --noheadings -o blkdevname fn_mp)
	[ -b "$FN_DM" ]
}

fn_connect() {
	local reply
	exec 3<>/dev/nvme-fabrics
	echo "transport=loop,traddr=$FN_TRADDR,nqn=$FN_NQN" >&3 || { exec 3>&-; return 1; }
	read -r reply <&3
	exec 3>&-
	[[ $reply =~ ^instance=([0-9]+), ]] || return 1
	echo "nvme${BASH_REMATCH[1]}"
}

fn_run() {
	local sub=$FN_CFS/subsystems/$FN_NQN c i table w0 wb0 st
	if [ "$(cat /sys/module/nvme_core/parameters/multipath 2>/dev/null)" = Y ]; then
		echo "seed004-nvmet: native NVMe multipath is on: the guest must boot with nvme_core.multipath=0" >&2
		return 1
	fi
	modprobe nvmet && modprobe nvme-loop || return 1
	nullb_create $FN_NULLB memory_backed=1 size=128 blocksize=512 cache_size=16 fua=1 irqmode=0 || return 1
	mkdir "$sub" && echo 1 >"$sub/attr_allow_any_host" || return 1
	mkdir "$sub/namespaces/1" && echo /dev/$FN_NULLB >"$sub/namespaces/1/device_path" &&
		echo 1 >"$sub/namespaces/1/enable" || return 1
	mkdir "$FN_CFS/ports/$FN_PORT" && echo loop >"$FN_CFS/ports/$FN_PORT/addr_trtype" &&
		echo "$FN_TRADDR" >"$FN_CFS/ports/$FN_PORT/addr_traddr" &&
		ln -s "$sub" "$FN_CFS/ports/$FN_PORT/subsystems/$FN_NQN" || return 1
	FN_CTRLS=""
	for i in 1 2; do
		c=$(fn_connect) || return 1
		FN_CTRLS="$FN_CTRLS $c"
	done
	set -- $FN_CTRLS
	FN_CA=$1 FN_A=${1}n1 FN_B=${2}n1
	for i in $(seq 50); do
		[ -b /dev/$FN_A ] && [ -b /dev/$FN_B ] && break
		sleep 0.1
	done
	[ -b /dev/$FN_A ] && [ -b /dev/$FN_B ] || return 1
	FN_DEVNO_A=$(tr ':' ',' </sys/block/$FN_A/dev)
	FN_DEVNO_B=$(tr ':' ',' </sys/block/$FN_B/dev)
	FN_DEVNO_NS=$(tr ':' ',' </sys/block/$FN_NULLB/dev)
	table="0 $(cat /sys/block/$FN_A/size) multipath 0 0 1 1 round-robin 0 2 1 /dev/$FN_A 1 /dev/$FN_B 1"

	echo "write through" >/sys/block/$FN_B/queue/write_cache || return 1
	fn_dm_create "$table" || return 1
	fn_measure mixed "$FN_DM" || return 1
	dmsetup remove --retry fn_mp || return 1

	echo "write through" >/sys/block/$FN_A/queue/write_cache || return 1
	fn_dm_create "$table" || return 1
	fn_measure all_wt "$FN_DM" || return 1
	dmsetup remove --retry fn_mp || return 1

	echo "write back" >/sys/block/$FN_A/queue/write_cache || return 1
	fn_dm_create "$table" || return 1
	fn_measure failover "$FN_DM" 50 || return 1
	# A is deleted once it has carried 16 of this run's writes (polled
	# without a fork per look: a slow poll would let the run end first)
	w0=$(stat_field $FN_A 5)
	for i in $(seq 600); do
		read -r -a st </sys/block/$FN_A/stat
		[ $((st[4] - w0)) -ge 16 ] && break
		kill -0 "$FN_PID" 2>/dev/null || break
		sleep 0.05
	done
	if ! kill -0 "$FN_PID" 2>/dev/null || [ $((st[4] - w0)) -lt 16 ]; then
		echo "seed004-nvmet: $FN_A carried $((st[4] - w0)) writes; fio gone or too slow before $FN_CA could be deleted" >&2
		kill "$FN_PID" 2>/dev/null
		wait "$FN_PID"
		return 1
	fi
	wb0=$(stat_field $FN_B 5)
	timeout 60 sh -c "echo 1 >/sys/class/nvme/$FN_CA/delete_controller" ||
		{ echo "seed004-nvmet: cannot delete $FN_CA" >&2; return 1; }
	wait "$FN_PID" || { FN_PID=; return 1; }
	FN_PID=
	rq_issue_trace_stop
	if ! dmsetup status fn_mp | grep -q " ${FN_DEVNO_A/,/:} F "; then
		echo "seed004-nvmet: path $FN_A is not failed: $(dmsetup status fn_mp)" >&2
		return 1
	fi
	fn_emit failover
	if [ "$FN_W_A" -lt 16 ] || [ "$(stat_field $FN_B 5)" -le "$wb0" ]; then
		echo "seed004-nvmet: $FN_W_A writes to $FN_A; $FN_B carried none after the failover" >&2
		return 1
	fi
	dmsetup remove --retry fn_mp || return 1
}

wl_run() {
	local rc c sub=$FN_CFS/subsystems/$FN_NQN
	use_blk_count_issued || return 1
	fn_run
	rc=$?
	if [ -n "${FN_PID:-}" ]; then
		kill "$FN_PID" 2>/dev/null
		wait "$FN_PID"
	fi
	dmsetup remove --retry fn_mp 2>/dev/null
	rq_issue_trace_off
	for c in ${FN_CTRLS:-}; do
		[ -e /sys/class/nvme/$c ] && echo 1 >/sys/class/nvme/$c/delete_controller
	done
	rm -f "$FN_CFS/ports/$FN_PORT/subsystems/$FN_NQN" 2>/dev/null
	rmdir "$FN_CFS/ports/$FN_PORT" 2>/dev/null
	echo 0 >"$sub/namespaces/1/enable" 2>/dev/null
	rmdir "$sub/namespaces/1" "$sub" 2>/dev/null
	nullb_remove $FN_NULLB 2>/dev/null
	return $rc
}
