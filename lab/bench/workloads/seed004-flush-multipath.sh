# Flushes through dm-multipath over paths that differ in what their queues
# report (seed 004 territory). Two scsi_debug hosts share one store: two
# paths to one logical unit. Disk model, kept small and explicit: every
# command takes 1 ms (scsi_debug delay=1); a SYNCHRONIZE CACHE takes 50 ms
# when something was written since the last one (scsi_debug's long delay,
# 1/20 s) and returns at once otherwise.
# Path settings per leg, dm-multipath round-robin over A and B:
#   mixed:   A write back, B "write through" in queue/write_cache
#   all_wt:  A and B "write through" in queue/write_cache
#   late_wb: cache off at table load, turned on through A afterwards
#   failover: A write back, B "write through"; A is failed (dmsetup message
#             fail_path) 2 s into the fio run, so the rest of fio and all of
#             fs_mark run on B alone: their flushes must still reach B
# Workloads: fio 4 KiB random writes with fsync() after each (128), and
# fs_mark (64 files of 4 KiB, fsync before close) on ext4 on the dm device.
# Reports ops/s and the flushes and FUA writes each path was sent
# (block:block_rq_issue).
# lab-disk: (none: scsi_debug)
WL_NAME=seed004-flush-multipath
WL_DESC="dm-multipath over two scsi_debug paths to one store: fio randwrite fsync=1 and fs_mark, per path setting"

FM_TRACE=/sys/kernel/tracing

fm_trace_start() {
	[ -d $FM_TRACE/events ] || mount -t tracefs nodev $FM_TRACE
	echo 0 >$FM_TRACE/tracing_on
	echo >$FM_TRACE/trace
	echo 4096 >$FM_TRACE/buffer_size_kb
	echo 1 >$FM_TRACE/events/block/block_rq_issue/enable
	echo 1 >$FM_TRACE/tracing_on
}

fm_trace_stop() {
	echo 0 >$FM_TRACE/events/block/block_rq_issue/enable
	cat $FM_TRACE/trace >trace.txt
}

# fm_emit_paths LEG WORKLOAD: flushes and FUA writes per path from trace.txt
fm_emit_paths() {
	local p dev counts
	for p in A B; do
		eval "dev=\$FM_$p"
		counts=$(awk -v dev="$(tr ':' ',' <"/sys/block/$dev/dev")" '
		{
			for (i = 1; i < NF; i++) if ($i == "block_rq_issue:") break
			if (i >= NF || $(i + 1) != dev) next
			r = $(i + 2)
			if (r ~ /^F/) f++
			sub(/^F/, "", r)
			if (r ~ /^W/ && substr(r, 2) ~ /F/) u++
		}
		END { printf "%d %d\n", f, u }' trace.txt)
		emit "${1}_${2}_flushes_path_$p" "${counts% *}" count "block:block_rq_issue on $dev, rwbs starting with F"
		emit "${1}_${2}_fua_writes_path_$p" "${counts#* }" count "block:block_rq_issue on $dev, W with F"
	done
}

# fm_measure LEG DM [COMMAND]: COMMAND runs in the background 2 s into the
# fio run (the failover leg fails a path with it)
fm_measure() {
	local leg=$1 dm=$2 during=${3:-} cmd start end files pid=""
	cmd="fio --name=fsync --filename=$dm --rw=randwrite --bs=4k --direct=1 --ioengine=psync --fsync=1 --number_ios=128 --size=64M --output-format=json"
	fm_trace_start
	start=$(date +%s.%N)
	[ -n "$during" ] && { sleep 2; $during; } &
	[ -n "$during" ] && pid=$!
	$cmd >fio.json || return 1
	end=$(date +%s.%N)
	if [ -n "$pid" ]; then
		wait "$pid" || { echo "seed004: '$during' failed" >&2; return 1; }
	fi
	fm_trace_stop
	emit "${leg}_fio_fsync_ops" "$(echo "128 / ($end - $start)" | bc -l)" ops/s "$cmd (writes per wall-clock second)"
	fm_emit_paths "$leg" fio

	mkfs.ext4 -q -F "$dm" || return 1
	mkdir -p fsm && mount "$dm" fsm || return 1
	cmd="fs_mark -d fsm/d -n 64 -s 4096 -S 1 -t 1 -L 1"
	fm_trace_start
	$cmd >fsmark.txt 2>&1 || { cat fsmark.txt; umount fsm; return 1; }
	fm_trace_stop
	umount fsm
	files=$(awk '$1 ~ /^[0-9]+$/ && NF >= 5 { v = $4 } END { print v }' fsmark.txt)
	emit "${leg}_fsmark_files" "${files:-0}" files/s "$cmd on ext4"
	fm_emit_paths "$leg" fsmark
}

fm_cache_type() {
	echo "$2" >"/sys/class/scsi_disk/$(basename "$(readlink -f "/sys/block/$1/device")")/cache_type"
}

wl_run() {
	local d table dm
	modprobe scsi_debug add_host=2 vpd_use_hostno=0 dev_size_mb=128 delay=1 || return 1
	sleep 1
	set -- $(for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do basename "$d"; done)
	FM_A=$1 FM_B=$2
	[ -b "/dev/$FM_A" ] && [ -b "/dev/$FM_B" ] || return 1
	table="0 $(cat /sys/block/$FM_A/size) multipath 0 0 1 1 round-robin 0 2 1 /dev/$FM_A 1 /dev/$FM_B 1"

	echo "write through" >/sys/block/$FM_B/queue/write_cache
	dmsetup create fm_mp --table "$table" || return 1
	dm=/dev/$(dmsetup info -c --noheadings -o blkdevname fm_mp)
	fm_measure mixed "$dm" || return 1
	dmsetup remove fm_mp

	echo "write through" >/sys/block/$FM_A/queue/write_cache
	dmsetup create fm_mp --table "$table" || return 1
	fm_measure all_wt "$dm" || return 1
	dmsetup remove fm_mp
	echo "write back" >/sys/block/$FM_A/queue/write_cache
	echo "write back" >/sys/block/$FM_B/queue/write_cache

	fm_cache_type $FM_A "write through"
	fm_cache_type $FM_B "write through"
	dmsetup create fm_mp --table "$table" || return 1
	fm_cache_type $FM_A "write back"
	fm_measure late_wb "$dm" || return 1
	dmsetup remove fm_mp
	fm_cache_type $FM_B "write back"

	echo "write through" >/sys/block/$FM_B/queue/write_cache
	dmsetup create fm_mp --table "$table" || return 1
	fm_measure failover "$dm" "dmsetup message fm_mp 0 fail_path /dev/$FM_A" || return 1
	dmsetup status fm_mp | grep -q " $(cat /sys/block/$FM_A/dev) F " || {
		echo "seed004: path $FM_A was not failed: $(dmsetup status fm_mp)" >&2
		return 1
	}
	dmsetup remove fm_mp
	echo "write back" >/sys/block/$FM_B/queue/write_cache
	modprobe -r scsi_debug
}
