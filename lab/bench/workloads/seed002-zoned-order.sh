# Seed 002: a sequential write stream to a rotational zoned disk, the
# seed's job: fio --zonemode=zbd --direct=1 --ioengine=libaio --iodepth=32
# --rw=write --bs=64k, over 256 MiB of zoned null_blk (8 MiB zones, 31 zone
# crossings, completions after 1 ms, mq-deadline), once with
# queue/rotational=1 and once with 0.
#
# null_blk has no seek cost, so its own throughput cannot show what an SMR
# disk loses. The disk model, kept small and explicit: the disk streams at
# MODEL_MBPS and every write that does not start where the previous write
# ended costs one seek of MODEL_SEEK_MS. Modelled MB/s = bytes /
# (bytes / MODEL_MBPS + seeks * MODEL_SEEK_MS), from the dispatch stream
# (block_rq_issue) that the selftest zoned_write_order.sh records.
# lab-disk: (none: null_blk)
WL_NAME=seed002-zoned-order
WL_DESC="fio zbd seq write bs=64k iodepth=32 on zoned null_blk, rotational and not: inversions, seeks, modelled MB/s"

MODEL_MBPS=250
MODEL_SEEK_MS=4
ZO_KSFT=$LAB_KSFT

# zo_case METRIC LABEL: numbers from the selftest line "# LABEL: fio exit ..."
zo_case() {
	local metric=$1 label=$2 line writes inv cross seeks
	line=$(grep -E "^# $label: fio exit" selftest.txt | head -n 1)
	[ -n "$line" ] || { echo "no '$label' line in the selftest output" >&2; return 1; }
	read -r writes inv cross seeks < <(echo "$line" | sed -n \
		's/.* \([0-9]*\) writes issued, \([0-9]*\) inversions, \([0-9]*\) of them at zone boundaries, \([0-9]*\) seeks.*/\1 \2 \3 \4/p')
	emit "${metric}_inversions" "$inv" count "zoned_write_order.sh ($label): writes issued below an earlier write's end"
	emit "${metric}_inversions_at_boundaries" "$cross" count "zoned_write_order.sh ($label): inversions across a zone boundary"
	emit "${metric}_seeks" "$seeks" count "zoned_write_order.sh ($label): writes not starting at the previous end"
	emit "${metric}_modelled_mbps" "$(echo "256 / (256 / $MODEL_MBPS + $seeks * $MODEL_SEEK_MS / 1000)" | bc -l)" MB/s \
		"disk model: $MODEL_MBPS MB/s streaming, $MODEL_SEEK_MS ms per seek, 256 MiB written"
}

# zo_fio ROTATIONAL: the seed's job without tracing; prints MiB/s
zo_fio() {
	local dev=bench_zoned
	nullb_create $dev blocksize=4096 size=256 zoned=1 zone_size=8 \
		irqmode=2 completion_nsec=1000000 || return 1
	echo mq-deadline >/sys/block/$dev/queue/scheduler
	echo "$1" >/sys/block/$dev/queue/rotational
	fio --name=seed002 --filename=/dev/$dev --zonemode=zbd --direct=1 --ioengine=libaio \
		--iodepth=32 --rw=write --bs=64k --size=256m --output-format=json >fio.json || return 1
	nullb_remove $dev
	echo "$(fio_field fio.json jobs.0.write.bw) / 1024" | bc -l
}

wl_run() {
	local bw
	wl_need "$ZO_KSFT/zoned_write_order.sh" || return 0
	"$ZO_KSFT/zoned_write_order.sh" >selftest.txt 2>&1
	grep -E '^# (rotational|non-rotational):' selftest.txt | sed 's/^# /    /'
	zo_case rot rotational || return 1
	zo_case nonrot non-rotational || return 1
	bw=$(zo_fio 1) || return 1
	emit rot_null_blk_mibps "$bw" MiB/s "fio seed 002 job, rotational=1, null_blk (no seek cost)"
	bw=$(zo_fio 0) || return 1
	emit nonrot_null_blk_mibps "$bw" MiB/s "fio seed 002 job, rotational=0, null_blk (no seek cost)"
}
