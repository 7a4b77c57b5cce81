# Plug merging when several queues share a plug (seed 001 territory).
# dm-stripe and md raid0 over null_blk legs (default limits: 124 KiB per
# request), 16 KiB chunk.
#  - sequential: fio io_uring writes of 16 KiB, and of 4 KiB (dm-stripe),
#    submitted 256 at a time. Reports the average request size at the
#    legs, bandwidth, IOPS and the share of bios merged at the legs
#    (merges / (merges + requests) from their stat files). A six-leg
#    dm-stripe has more queues than the plug remembers the newest request
#    of, and must merge at least as well as on base.
#  - random: 4 KiB random reads and writes at QD 64 submitted 64 at a time
#    on dm-stripe, md raid0 and one io_uring ring over the four legs
#    (no merging possible: this is the cost of the multi-queue lookup).
#    Median IOPS of five 3 s runs.
# lab-disk: (none: null_blk)
WL_NAME=plug-merge-multi-queue
WL_DESC="dm-stripe and md raid0 over null_blk legs: fio io_uring sequential writes (256 per submit) and 4 KiB random I/O (QD 64, median of 5)"

# mq_seq NAME DEV BS LEGS...: sequential writes through DEV, measured at LEGS
mq_seq() {
	local layout=$1 dev=$2 bs=$3 leg ios=0 sect=0 merges=0
	shift 3
	local cmd="fio --name=$layout --filename=$dev --rw=write --bs=$bs --ioengine=io_uring --direct=1 --iodepth=256 --iodepth_batch_submit=256 --iodepth_batch_complete_min=256 --size=256m --output-format=json"
	declare -A i0 s0 m0
	for leg in "$@"; do
		i0[$leg]=$(stat_field "$leg" 5) s0[$leg]=$(stat_field "$leg" 7) m0[$leg]=$(stat_field "$leg" 6)
	done
	$cmd >fio.json || return 1
	for leg in "$@"; do
		ios=$((ios + $(stat_field "$leg" 5) - i0[$leg]))
		sect=$((sect + $(stat_field "$leg" 7) - s0[$leg]))
		merges=$((merges + $(stat_field "$leg" 6) - m0[$leg]))
	done
	emit "${layout}_avg_request_size" "$(echo "$sect / 2 / $ios" | bc -l)" KiB "$cmd; /sys/block/<leg>/stat fields 5, 7 over the $# legs"
	emit "${layout}_leg_requests" "$ios" count "$cmd; /sys/block/<leg>/stat field 5 over the $# legs"
	emit "${layout}_bandwidth" "$(echo "$(fio_field fio.json jobs.0.write.bw) / 1024" | bc -l)" MiB/s "$cmd"
	emit "${layout}_iops" "$(fio_field fio.json jobs.0.write.iops)" IOPS "$cmd"
	emit "${layout}_merge_rate" "$(echo "100 * $merges / ($merges + $ios)" | bc -l)" % "$cmd; /sys/block/<leg>/stat fields 5, 6 over the $# legs"
}

# mq_rand NAME FILES RW: median IOPS of five runs of 4 KiB random I/O
mq_rand() {
	local layout=$1 files=$2 rw=$3 runs=5 i v iops=() min med max
	local cmd="fio --name=$layout --filename=$files --rw=$rw --bs=4k --ioengine=io_uring --direct=1 --iodepth=64 --iodepth_batch_submit=64 --iodepth_batch_complete_min=32 --size=64m --runtime=3 --time_based --output-format=json"
	local dir=${rw#rand}
	for i in $(seq $runs); do
		$cmd >fio.json || return 1
		v=$(fio_field fio.json "jobs.0.$dir.iops") || return 1
		iops+=("$v")
	done
	read -r min med max <<<"$(min_med_max "${iops[@]}")"
	emit "${layout}_${rw}_iops_median" "$med" IOPS "$cmd (median of $runs; min $min, max $max)"
}

# mq_stripe NAME LEGS...: create dm-stripe NAME over LEGS, print its node
mq_stripe() {
	local name=$1 leg table
	shift
	table="0 $(($# * 256 * 2048)) striped $# 32"
	for leg in "$@"; do table="$table /dev/$leg 0"; done
	dmsetup create "$name" --table "$table" || return 1
	echo "/dev/$(dmsetup info -c --noheadings -o blkdevname "$name")"
}

mq_cleanup() {
	local i
	[ -e /dev/md/mq_raid0 ] && mdadm --stop /dev/md/mq_raid0 >/dev/null 2>&1
	dmsetup remove --retry mq_stripe >/dev/null 2>&1
	dmsetup remove --retry mq_stripe6 >/dev/null 2>&1
	for i in 0 1 2 3 4 5; do
		[ -d /sys/kernel/config/nullb/mq_leg$i ] && nullb_remove mq_leg$i
	done
	return 0
}

wl_run() {
	mq_run
	local rc=$?
	mq_cleanup
	return $rc
}

mq_run() {
	local i node legs4=() legs6=()
	for i in 0 1 2 3 4 5; do
		# md reads back its superblock: keep what is written
		nullb_create mq_leg$i blocksize=4096 size=256 memory_backed=1 || return 1
		echo none >/sys/block/mq_leg$i/queue/scheduler
		[ "$i" -lt 4 ] && legs4+=("mq_leg$i")
		legs6+=("mq_leg$i")
	done

	node=$(mq_stripe mq_stripe "${legs4[@]}") || return 1
	mq_seq dm_stripe "$node" 16k "${legs4[@]}" || return 1
	mq_seq dm_stripe_4k "$node" 4k "${legs4[@]}" || return 1
	mq_rand dm_stripe "$node" randread || return 1
	mq_rand dm_stripe "$node" randwrite || return 1
	dmsetup remove --retry mq_stripe || return 1

	node=$(mq_stripe mq_stripe6 "${legs6[@]}") || return 1
	mq_seq dm_stripe_6legs "$node" 16k "${legs6[@]}" || return 1
	dmsetup remove --retry mq_stripe6 || return 1

	mdadm --create /dev/md/mq_raid0 --run --level=0 --metadata=1.2 --chunk=16 \
		--raid-devices=4 "${legs4[@]/#//dev/}" >/dev/null || return 1
	mq_seq md_raid0 /dev/md/mq_raid0 16k "${legs4[@]}" || return 1
	mq_rand md_raid0 /dev/md/mq_raid0 randread || return 1
	mq_rand md_raid0 /dev/md/mq_raid0 randwrite || return 1
	mdadm --stop /dev/md/mq_raid0 >/dev/null || return 1

	# one ring, four disks: fio takes the files in turn
	node=$(printf '/dev/%s:' "${legs4[@]}")
	mq_rand uring_4disks "${node%:}" randread || return 1
	mq_rand uring_4disks "${node%:}" randwrite || return 1
}
