# Zoned write order on rotational zoned disks, the table of issue #14: what
# each kernel does with sequential write streams, measured the same way on
# both bases, without the series' selftests (so 7.3, which has no zoned
# patch, is measured too).
#
# Devices, 256 MiB, 8 MiB zones, completions after 1 ms (disk-like):
#  - nullb: zoned null_blk with mq-deadline, rotational. On 7.3 it is made
#    rotational before it is registered (configfs "rotational"), so 7.3's
#    default (queue/zoned_qd1_writes = 1 for rotational blk-mq zoned disks)
#    applies; 6.12's null_blk has no such attribute and gets sysfs.
#  - sdd, sdn: scsi_debug as a host-managed ZBC disk of 264 MiB (one
#    conventional zone first), through sd, with mq-deadline (sdd) and none
#    (sdn). scsi_debug reports a non-rotating medium, so sd registers it
#    non-rotational; the workload sets queue/rotational to 1 afterwards, so
#    7.3 leaves zoned_qd1_writes at 0 until the workload sets it.
# On 7.3 every case runs with queue/zoned_qd1_writes 1 and 0 (metric suffix
# _qd1, _qd0); 6.12 has no such attribute.
#
# Workloads:
#  - seed: seed 002's job, fio --zonemode=zbd --ioengine=libaio --iodepth=32
#    --rw=write --bs=64k over 256 MiB (31 zone crossings);
#  - uring: the same with io_uring, whose block device writes are REQ_NOWAIT;
#  - two: two such streams at once, 64 MiB each, 128 MiB apart;
#  - adj: a stream fills zone N with 4 KiB writes at QD 32 that may not
#    merge (max_sectors_kb 4: 2048 writes, two seconds or more) and, once 16
#    of them completed, an unrelated fio writes 64 x 4 KiB at QD 1 from the
#    start of zone N + 1; four zone pairs. The writer's latency shows
#    whether it is held behind the stream.
#
# Figures, from the dispatch stream (block:block_rq_issue, in a tracefs
# instance of its own) and fio's JSON:
#  - inv: writes issued below the end of an earlier write of the same
#    stream (each stream of "two" on its own);
#  - seeks: writes that do not start where the previous write ended;
#  - model_mbps: a disk that streams at MODEL_MBPS and pays MODEL_SEEK_MS per
#    seek: MB / (MB / MODEL_MBPS + seeks * MODEL_SEEK_MS);
#  - mibps: what the device did (null_blk and scsi_debug have no seek cost);
#  - p99_ms: fio's 99th percentile completion latency of the stream(s);
#  - writer_p99_ms, writer_max_ms: the same for the adjacent-zone writer.
# lab-disk: (none: null_blk and scsi_debug)
WL_NAME=zoned-order-matrix
WL_DESC="rotational zoned null_blk and scsi_debug ZBC: seed 002 job (libaio, io_uring), two streams, adjacent-zone writer; inversions, seeks, modelled MB/s, p99"

MODEL_MBPS=250
MODEL_SEEK_MS=4
ZM_ZONE_MB=8
ZM_TRACE=/sys/kernel/tracing/instances/labzoned

zm_trace_start() {
	mkdir $ZM_TRACE || return 1
	echo 16384 >$ZM_TRACE/buffer_size_kb
	echo 1 >$ZM_TRACE/events/block/block_rq_issue/enable &&
	echo 1 >$ZM_TRACE/events/block/block_bio_queue/enable
}

zm_trace_stop() {
	{ echo 0 >$ZM_TRACE/events/block/block_rq_issue/enable; } 2>/dev/null
	{ echo 0 >$ZM_TRACE/events/block/block_bio_queue/enable; } 2>/dev/null
	rmdir $ZM_TRACE 2>/dev/null
	return 0
}

# zm_trace_take OUT: the events since the last take, into OUT; fails if the
# buffer overran (a count would be short)
zm_trace_take() {
	local lost
	cat $ZM_TRACE/trace >"$1"
	lost=$(cat $ZM_TRACE/per_cpu/cpu*/stats | awk '$1 == "overrun:" { n += $2 } END { print n + 0 }')
	echo >$ZM_TRACE/trace
	[ "$lost" -eq 0 ] || { echo "zoned: trace buffer overran ($lost events)" >&2; return 1; }
}

# zm_order DEVNO STARTS < TRACE: "<writes> <inversions> <seeks>" of the
# writes to DEVNO; STARTS lists the first sector of each stream (comma
# separated, ascending): a write belongs to the last stream starting at or
# below it, and inversions are counted per stream.
zm_order() {
	awk -v dev="$1" -v starts="$2" '
	BEGIN { ns = split(starts, st, ",") }
	{
		for (i = 1; i < NF; i++)
			if ($i == "block_rq_issue:")
				break
		if (i >= NF || $(i + 1) != dev || $(i + 2) !~ /^W/)
			next
		for (j = i + 3; j < NF; j++)
			if ($j == "+")
				break
		sector = $(j - 1) + 0
		len = $(j + 1) + 0
		s = 1
		for (k = 1; k <= ns; k++)
			if (sector >= st[k] + 0)
				s = k
		writes++
		if (writes > 1 && sector != prev_end)
			seeks++
		prev_end = sector + len
		if (sector < hi[s])
			inv++
		if (sector + len > hi[s])
			hi[s] = sector + len
	}
	END { printf "%d %d %d\n", writes, inv, seeks }'
}

# zm_clat_ms FIO_JSON JOB PERCENTILE: a job's completion latency percentile
# ("max" for the largest) in ms
zm_clat_ms() {
	python3 - "$@" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
job = [j for j in d["jobs"] if j["jobname"] == sys.argv[2]][0]["write"]["clat_ns"]
v = job["max"] if sys.argv[3] == "max" else job["percentile"][sys.argv[3]]
print(v / 1e6)
PY
}

# zm_mibps FIO_JSON: the whole run's write bandwidth in MiB/s
zm_mibps() {
	python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print(sum(j["write"]["bw"] for j in d["jobs"]) / 1024)
PY
}

# zm_fio OUT JOB_ARGS...: fio with common options, JSON into OUT
zm_fio() {
	local out=$1
	shift
	fio --filename=/dev/"$ZM_DEV" --zonemode=zbd --direct=1 --rw=write \
		--output-format=json --output="$out" "$@" >/dev/null 2>fio.err ||
		{ echo "zoned: fio failed on $ZM_DEV:" >&2; tail -n 5 fio.err "$out" >&2; return 1; }
}

# zm_reset: empty every sequential zone of the device
zm_reset() {
	blkzone reset /dev/"$ZM_DEV" || { echo "zoned: blkzone reset failed" >&2; return 1; }
}

# zm_emit_order TAG MB TRACE STARTS: inv, seeks and model_mbps of one run
zm_emit_order() {
	local tag=$1 mb=$2 writes inv seeks
	read -r writes inv seeks < <(zm_order "$ZM_DEVNO" "$4" <"$3")
	[ "$writes" -gt 0 ] || { echo "zoned: no write of $ZM_DEV traced ($tag)" >&2; return 1; }
	echo "    $tag: $writes writes issued, $inv inversions, $seeks seeks"
	emit "${tag}_inv" "$inv" count "writes issued below an earlier write's end in the same stream"
	emit "${tag}_seeks" "$seeks" count "writes not starting where the previous write ended"
	emit "${tag}_model_mbps" "$(echo "$mb / ($mb / $MODEL_MBPS + $seeks * $MODEL_SEEK_MS / 1000)" | bc -l)" MB/s \
		"disk model: $MODEL_MBPS MB/s streaming, $MODEL_SEEK_MS ms per seek, $mb MiB written"
}

# zm_adj_overlap TRACE STREAM_SECTOR WRITER_SECTOR: true if the writer's
# first bio was queued (block_bio_queue) before the stream's last write was
# issued, i.e. the writer really ran while the stream had writes to issue
zm_adj_overlap() {
	awk -v lo="$2" -v hi="$3" '
	{
		for (i = 1; i < NF; i++)
			if ($i == "block_bio_queue:" || $i == "block_rq_issue:")
				break
		if (i >= NF || $(i + 2) !~ /^W/)
			next
		for (j = i + 3; j < NF; j++)
			if ($j == "+")
				break
		sector = $(j - 1) + 0
		n++
		if ($i == "block_bio_queue:" && sector == hi && !wq)
			wq = n
		if ($i == "block_rq_issue:" && sector >= lo && sector < hi)
			last = n
	}
	END { exit !(wq && wq < last) }' "$1"
}

# zm_adj_round TAG ROUND STREAM_SECTOR: one zone pair of the adj case;
# appends the writer's p99 and max to wp99 and wmax
zm_adj_round() {
	local zs=$((ZM_ZONE_MB << 11)) a=$3 pid done0 rc=0
	done0=$(stat_field "$ZM_DEV" 5)
	zm_trace_take /dev/null || return 1
	fio --filename=/dev/"$ZM_DEV" --zonemode=zbd --direct=1 --rw=write \
		--name=stream --ioengine=libaio --iodepth=32 --bs=4k \
		--offset=$((a << 9)) --size=${ZM_ZONE_MB}m >/dev/null 2>adj$2-stream.err &
	pid=$!
	for _ in $(seq 3000); do
		[ $(($(stat_field "$ZM_DEV" 5) - done0)) -ge 16 ] && break
		kill -0 $pid 2>/dev/null || break
		sleep 0.01
	done
	zm_fio adj$2.json --name=writer --ioengine=libaio --iodepth=1 --bs=4k \
		--offset=$(((a + zs) << 9)) --size=${ZM_ZONE_MB}m --io_size=256k || rc=1
	[ $rc = 0 ] || kill $pid 2>/dev/null
	if ! wait $pid; then
		echo "zoned: the adj stream failed on $ZM_DEV:" >&2
		tail -n 5 adj$2-stream.err >&2
		rc=1
	fi
	[ $rc = 0 ] || return 1
	zm_trace_take adj$2.trace || return 1
	if ! zm_adj_overlap adj$2.trace "$a" $((a + zs)); then
		echo "zoned: $1 adj round $2: the writer did not start while the stream had writes to issue" >&2
		return 1
	fi
	wp99+=("$(zm_clat_ms adj$2.json writer 99.000000)")
	wmax+=("$(zm_clat_ms adj$2.json writer max)")
}

# zm_case_adj TAG FIRST_SECTOR: a stream in zone N and a writer in zone
# N + 1, four zone pairs, with 4 KiB requests (restored on every exit)
zm_case_adj() {
	local tag=$1 zs=$((ZM_ZONE_MB << 11)) q=/sys/block/$ZM_DEV/queue max r a rc=0
	local wp99=() wmax=()
	zm_reset || return 1
	max=$(cat $q/max_sectors_kb)
	echo 4 >$q/max_sectors_kb || return 1
	for r in 0 1 2 3; do
		zm_adj_round "$tag" $r $(($2 + 2 * r * zs)) || { rc=1; break; }
	done
	echo "$max" >$q/max_sectors_kb || rc=1
	[ $rc = 0 ] || return 1
	echo "    ${tag}_adj: writer p99 ${wp99[*]} ms, max ${wmax[*]} ms"
	read -r _ a _ < <(min_med_max "${wp99[@]}")
	emit "${tag}_adj_writer_p99_ms" "$a" ms "adjacent-zone 4 KiB QD1 writer, clat p99, median of 4 zone pairs"
	read -r _ _ a < <(min_med_max "${wmax[@]}")
	emit "${tag}_adj_writer_max_ms" "$a" ms "adjacent-zone 4 KiB QD1 writer, clat max over 4 zone pairs"
}

# zm_case_stream TAG NAME ENGINE FIRST_SECTOR: seed 002's job with ENGINE
# over 256 MiB from FIRST_SECTOR, metrics named TAG_NAME_*
zm_case_stream() {
	zm_reset || return 1
	zm_trace_take /dev/null || return 1
	zm_fio "$2.json" --name="$2" --ioengine="$3" --iodepth=32 --bs=64k \
		--offset=$(($4 << 9)) --size=256m || return 1
	zm_trace_take "$2.trace" || return 1
	zm_emit_order "$1_$2" 256 "$2.trace" "$4" || return 1
	emit "$1_$2_mibps" "$(zm_mibps "$2.json")" MiB/s "the device's own rate (no seek cost)"
	emit "$1_$2_p99_ms" "$(zm_clat_ms "$2.json" "$2" 99.000000)" ms "fio clat p99"
}

# zm_case_two TAG FIRST_SECTOR: two seed 002 streams at once, 64 MiB each,
# from FIRST_SECTOR and 16 zones above it, metrics named TAG_two_*
zm_case_two() {
	local zs=$((ZM_ZONE_MB << 11)) s0=$2 a r

	zm_reset || return 1
	zm_trace_take /dev/null || return 1
	zm_fio two.json --ioengine=libaio --iodepth=32 --bs=64k \
		--name=one --offset=$((s0 << 9)) --size=64m \
		--name=other --offset=$(((s0 + 16 * zs) << 9)) --size=64m || return 1
	zm_trace_take two.trace || return 1
	zm_emit_order "$1_two" 128 two.trace "$s0,$((s0 + 16 * zs))" || return 1
	emit "$1_two_mibps" "$(zm_mibps two.json)" MiB/s "both streams, the device's own rate"
	a=$(zm_clat_ms two.json one 99.000000) r=$(zm_clat_ms two.json other 99.000000)
	emit "$1_two_p99_ms" "$(echo "if ($a > $r) $a else $r" | bc -l)" ms "fio clat p99, the slower stream"
}

# zm_cases TAG: the four workloads on $ZM_DEV, metrics named TAG_<workload>_*
zm_cases() {
	local tag=$1 s0=$((ZM_FIRST * (ZM_ZONE_MB << 11)))

	zm_case_stream "$tag" seed libaio "$s0" || return 1
	zm_case_stream "$tag" uring io_uring "$s0" || return 1
	zm_case_two "$tag" "$s0" || return 1
	zm_case_adj "$tag" "$s0"
}

# zm_nullb_create: the zoned null_blk $ZM_DEV (256 MiB, 8 MiB zones, 1 ms
# completions, mq-deadline, rotational: before registration where null_blk
# has "rotational", else through sysfs); sets ZM_DEVNO and emits
# nullb_qd1_default where queue/zoned_qd1_writes exists
zm_nullb_create() {
	local rot=

	grep -qsw rotational /sys/kernel/config/nullb/features && rot=rotational=1
	nullb_create $ZM_DEV blocksize=4096 size=256 zoned=1 zone_size=$ZM_ZONE_MB zone_nr_conv=0 \
		irqmode=2 completion_nsec=1000000 $rot ||
		{ echo "zoned: cannot create null_blk $ZM_DEV" >&2; return 1; }
	ZM_DEVNO=$(tr ':' ',' </sys/block/$ZM_DEV/dev)
	echo mq-deadline >/sys/block/$ZM_DEV/queue/scheduler &&
		echo 1 >/sys/block/$ZM_DEV/queue/rotational || return 1
	if [ -e /sys/block/$ZM_DEV/queue/zoned_qd1_writes ]; then
		emit nullb_qd1_default "$(cat /sys/block/$ZM_DEV/queue/zoned_qd1_writes)" bool \
			"queue/zoned_qd1_writes of a zoned null_blk registered rotational"
	fi
}

# zm_each_qd1 TAG: zm_cases once per queue/zoned_qd1_writes setting (7.3),
# or once where the attribute does not exist (6.12)
zm_each_qd1() {
	local q=/sys/block/$ZM_DEV/queue/zoned_qd1_writes v
	if [ ! -e "$q" ]; then
		zm_cases "$1"
		return
	fi
	for v in 1 0; do
		echo $v >"$q" || return 1
		zm_cases "$1_qd$v" || return 1
	done
}

zm_sd_disk() {
	local d
	for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
		[ -e "$d" ] && [ -b "/dev/${d##*/}" ] && { echo "${d##*/}"; return 0; }
	done
	return 1
}

wl_run() {
	local rc=0 s
	command -v blkzone >/dev/null || { echo "zoned: blkzone is missing" >&2; return 1; }
	zm_trace_start || { echo "zoned: cannot make a tracefs instance" >&2; return 1; }

	# null_blk
	ZM_DEV=bench_zm ZM_FIRST=0
	[ -d /sys/module/null_blk ] || modprobe null_blk nr_devices=0 || rc=1
	if [ $rc = 0 ] && zm_nullb_create; then
		zm_each_qd1 nullb || rc=1
	else
		rc=1
	fi
	[ -d /sys/kernel/config/nullb/$ZM_DEV ] && { nullb_remove $ZM_DEV || rc=1; }

	# scsi_debug, host-managed ZBC; zone 0 is conventional
	if [ -d /sys/module/scsi_debug ]; then
		echo "zoned: scsi_debug is already loaded" >&2
		rc=1
	elif ! modprobe scsi_debug zbc=host-managed dev_size_mb=264 zone_size_mb=$ZM_ZONE_MB \
		zone_nr_conv=1 ndelay=1000000 max_luns=1 num_tgts=1; then
		echo "zoned: cannot load scsi_debug as a ZBC disk" >&2
		rc=1
	else
		for _ in $(seq 50); do ZM_DEV=$(zm_sd_disk) && break; sleep 0.1; done
		if [ -z "$ZM_DEV" ]; then
			echo "zoned: scsi_debug made no disk" >&2
			rc=1
		else
			udevadm settle 2>/dev/null
			ZM_DEVNO=$(tr ':' ',' </sys/block/$ZM_DEV/dev) ZM_FIRST=1
			echo 1 >/sys/block/$ZM_DEV/queue/rotational
			# 32 sequential zones after the conventional one: the 256 MiB stream
			# fills them from zone 1; "two" and "adj" fit too
			for s in mq-deadline none; do
				echo $s >/sys/block/$ZM_DEV/queue/scheduler || { rc=1; break; }
				if [ $s = none ]; then zm_each_qd1 sdn || rc=1; else zm_each_qd1 sdd || rc=1; fi
			done
		fi
		modprobe -r scsi_debug
	fi
	zm_trace_stop
	return $rc
}
