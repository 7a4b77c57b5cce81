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
#             fail_path) 2 s into the fio run (which must still be running
#             then), so the rest of fio and all of fs_mark run on B alone:
#             the workload fails unless fs_mark's flushes all reach B
#   wce0:    the logical unit's cache turned off through both paths
#            (cache_type "write through": WCE=0 in the caching mode page,
#            so neither path's queue has a write cache) before the table
#            load; fio only, with fdatasync() after each write. Unpatched,
#            the dm device has no write cache either and its flushes end in
#            submit_bio_noacct(); with the series a request-based dm device
#            reports a write cache (and FUA) whatever its paths report, so
#            each fdatasync() sends the dm device a flush request that dm-rq
#            completes: this leg measures that cost, and also counts the
#            requests issued to the dm device (metrics "..._path_dm"; flush
#            requests: 0 unpatched, FM_IOS - 1 with the series, as fio does
#            not sync after its last write). It fails if a path says "write
#            back", if a flush reaches a path, or if the trace did not see
#            FM_IOS writes at the dm device
# Workloads: fio 4 KiB random writes with fsync() after each (FM_IOS), and
# fs_mark (64 files of 4 KiB, fsync before close) on ext4 on the dm device.
# Reports ops/s, fio's median and 99th percentile latency (us) of the
# writes and of the fsync()/fdatasync() calls (FM_IOS - 1: fio does not
# sync after the last write), and the writes, flushes and FUA writes each
# path was sent (block:block_rq_issue).
# lab-disk: (none: scsi_debug)
WL_NAME=seed004-flush-multipath
WL_DESC="dm-multipath over two scsi_debug paths to one store: fio randwrite fsync=1 and fs_mark per path setting, and fio fdatasync=1 with the cache off in the device"
FM_IOS=128	# fio's writes per leg

# fm_emit_paths LEG WORKLOAD: writes, flushes and FUA writes per path from
# trace.txt; sets FM_FLUSHES_A and FM_FLUSHES_B
fm_emit_paths() {
	local p dev
	for p in A B; do
		eval "dev=\$FM_$p"
		emit_path_counts "${1}_$2" $p "$(tr ':' ',' <"/sys/block/$dev/dev")"
		eval "FM_FLUSHES_$p=$PATH_FLUSHES"
	done
}

# fm_lat_us SECTION PERCENTILE: a latency percentile in us of fio.json's
# job (write: clat_ns; sync: lat_ns of the fsync()/fdatasync() calls)
fm_lat_us() {
	python3 - "$1" "$2" <<'PY'
import json, sys
job = json.load(open("fio.json"))["jobs"][0]
sec = job[sys.argv[1]]
lat = sec["clat_ns"] if sys.argv[1] == "write" else sec["lat_ns"]
pct = lat.get("percentile")
if not pct:
    sys.exit(f"fio.json: no {sys.argv[1]} latency percentiles")
print(pct[sys.argv[2]] / 1e3)
PY
}

# fm_emit_fio LEG WHAT CMD START END: ops/s, median and p99 latencies of
# fio.json
fm_emit_fio() {
	emit "${1}_fio_${2}_ops" "$(echo "$FM_IOS / ($5 - $4)" | bc -l)" ops/s "$3 (writes per wall-clock second)"
	emit "${1}_fio_write_p50_us" "$(fm_lat_us write 50.000000)" us "$3 (write completion latency, median)"
	emit "${1}_fio_write_p99_us" "$(fm_lat_us write 99.000000)" us "$3 (write completion latency, 99th percentile)"
	emit "${1}_fio_${2}_p50_us" "$(fm_lat_us sync 50.000000)" us "$3 ($2() latency, median)"
	emit "${1}_fio_${2}_p99_us" "$(fm_lat_us sync 99.000000)" us "$3 ($2() latency, 99th percentile)"
}

# fm_measure LEG DM [FAIL_PATH]: fio, then fs_mark on ext4; with FAIL_PATH
# that path is failed 2 s into the fio run, which must still be running then
fm_measure() {
	local leg=$1 dm=$2 fail=${3:-} cmd start end files pid
	cmd="fio --name=fsync --filename=$dm --rw=randwrite --bs=4k --direct=1 --ioengine=psync --fsync=1 --number_ios=$FM_IOS --size=64M --output-format=json"
	rq_issue_trace_start
	start=$(date +%s.%N)
	$cmd >fio.json &
	pid=$!
	if [ -n "$fail" ]; then
		sleep 2
		if ! kill -0 "$pid" 2>/dev/null; then
			echo "seed004: fio ended within 2 s, before $fail could be failed" >&2
			wait "$pid"
			return 1
		fi
		if ! dmsetup message fm_mp 0 fail_path "$fail"; then
			wait "$pid"
			return 1
		fi
	fi
	wait "$pid" || return 1
	end=$(date +%s.%N)
	rq_issue_trace_stop
	if [ -n "$fail" ] &&
	   ! dmsetup status fm_mp | grep -q " $(cat "/sys/block/${fail#/dev/}/dev") F "; then
		echo "seed004: path $fail is not failed: $(dmsetup status fm_mp)" >&2
		return 1
	fi
	fm_emit_fio "$leg" fsync "$cmd" "$start" "$end"
	fm_emit_paths "$leg" fio

	mkfs.ext4 -q -F "$dm" || return 1
	mkdir -p fsm && mount "$dm" fsm || return 1
	cmd="fs_mark -d fsm/d -n 64 -s 4096 -S 1 -t 1 -L 1"
	rq_issue_trace_start
	$cmd >fsmark.txt 2>&1 || { cat fsmark.txt; umount fsm; return 1; }
	rq_issue_trace_stop
	umount fsm
	files=$(awk '$1 ~ /^[0-9]+$/ && NF >= 5 { v = $4 } END { print v }' fsmark.txt)
	emit "${leg}_fsmark_files" "${files:-0}" files/s "$cmd on ext4"
	fm_emit_paths "$leg" fsmark
	if [ -n "$fail" ] && { [ "$FM_FLUSHES_A" -ne 0 ] || [ "$FM_FLUSHES_B" -eq 0 ]; }; then
		echo "seed004: after $fail failed, fs_mark sent $FM_FLUSHES_A flushes to it and $FM_FLUSHES_B to the other path" >&2
		return 1
	fi
}

fm_cache_type() {
	echo "$2" >"/sys/class/scsi_disk/$(basename "$(readlink -f "/sys/block/$1/device")")/cache_type"
}

# fm_wce0 TABLE: the cache off in the device through both paths before the
# table load, fio with fdatasync() after each write
fm_wce0() {
	local dm cmd start end d
	fm_cache_type $FM_A "write through" && fm_cache_type $FM_B "write through" || return 1
	dmsetup create fm_mp --table "$1" || return 1
	dm=/dev/$(dmsetup info -c --noheadings -o blkdevname fm_mp)
	for d in $FM_A $FM_B; do
		if [ "$(cat /sys/block/$d/queue/write_cache)" != "write through" ]; then
			echo "seed004: wce0: $d says $(cat /sys/block/$d/queue/write_cache)" >&2
			return 1
		fi
	done
	echo "seed004: wce0: the dm device says $(cat /sys/block/${dm#/dev/}/queue/write_cache), fua $(cat /sys/block/${dm#/dev/}/queue/fua)" >&2
	cmd="fio --name=fdatasync --filename=$dm --rw=randwrite --bs=4k --direct=1 --ioengine=psync --fdatasync=1 --number_ios=$FM_IOS --size=64M --output-format=json"
	rq_issue_trace_start
	start=$(date +%s.%N)
	$cmd >fio.json || return 1
	end=$(date +%s.%N)
	rq_issue_trace_stop
	fm_emit_fio wce0 fdatasync "$cmd" "$start" "$end"
	fm_emit_paths wce0 fio
	emit_path_counts wce0_fio dm "$(tr ':' ',' <"/sys/block/${dm#/dev/}/dev")" || return 1
	# the writes show that the trace saw the dm device (0 flushes would
	# also be what a trace that missed it gives)
	if [ "$PATH_WRITES" -ne $FM_IOS ]; then
		echo "seed004: wce0: the trace saw $PATH_WRITES writes at the dm device, not $FM_IOS" >&2
		return 1
	fi
	if [ $((FM_FLUSHES_A + FM_FLUSHES_B)) -ne 0 ]; then
		echo "seed004: wce0: flushes reached the paths: $FM_FLUSHES_A, $FM_FLUSHES_B" >&2
		return 1
	fi
	dmsetup remove fm_mp || :	# wl_run retries it
}

# fm_run: the legs; wl_run cleans up after it whatever happened
fm_run() {
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

	echo "write through" >/sys/block/$FM_B/queue/write_cache || return 1
	dmsetup create fm_mp --table "$table" || return 1
	fm_measure failover "$dm" "/dev/$FM_A" || return 1
	dmsetup remove --retry fm_mp
	echo "write back" >/sys/block/$FM_B/queue/write_cache || return 1

	fm_wce0 "$table"
}

wl_run() {
	local rc
	use_blk_count_issued || return 1
	fm_run
	rc=$?
	umount fsm 2>/dev/null
	dmsetup remove --retry fm_mp 2>/dev/null
	rq_issue_trace_off
	modprobe -r scsi_debug 2>/dev/null
	return $rc
}
