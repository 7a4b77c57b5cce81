# Plug merging when several queues share a plug (seed 001 territory), on
# null_blk legs (default limits: 124 KiB per request, no scheduler):
# dm-stripe and md raid0 with a 16 KiB chunk over 4 and 8 legs, and one
# io_uring ring over 2, 4 and 8 disks.
#  - sequential: fio io_uring writes of 16 KiB and of 4 KiB through the
#    stripe and the array, submitted 256 at a time. Reports the average
#    request at the legs (KiB, sectors written / writes from their stat
#    files) and the largest average that the request size limit allows
#    for one batch (avg_request_ideal): each leg gets 256 / legs bios of
#    a batch, at most max_sectors_kb / bs of them per request.
#  - random: 4 KiB random reads and writes at QD 64 submitted 64 at a
#    time (nothing to merge: this is the cost of the merge lookup when
#    many requests of several queues are plugged). Median IOPS of three
#    2 s runs. Under the lab's icount mode (run-per-patch.sh), IOPS is
#    1e9 / guest instructions per I/O.
# lab-disk: (none: null_blk)
WL_NAME=plug-merge-multi-queue
WL_DESC="dm-stripe and md raid0 over 4 and 8 null_blk legs, io_uring over 2/4/8 disks: sequential writes (256 per submit, average request vs ideal) and 4 KiB random I/O (QD 64, median of 3)"

MQ_LEGS=8

# mq_seq NAME DEV BS LEGS...: sequential writes of BS through DEV,
# measured at LEGS
mq_seq() {
	local layout=$1 dev=$2 bs=$3 leg ios=0 sect=0 nlegs per_leg per_rq nrq max_kb first_leg=$4
	shift 3
	local cmd="fio --name=$layout --filename=$dev --rw=write --bs=$bs --ioengine=io_uring --direct=1 --iodepth=256 --iodepth_batch_submit=256 --iodepth_batch_complete_min=256 --size=64m --output-format=json"
	declare -A i0 s0
	for leg in "$@"; do
		i0[$leg]=$(stat_field "$leg" 5) s0[$leg]=$(stat_field "$leg" 7)
	done
	$cmd >fio.json || return 1
	for leg in "$@"; do
		ios=$((ios + $(stat_field "$leg" 5) - i0[$leg]))
		sect=$((sect + $(stat_field "$leg" 7) - s0[$leg]))
	done
	# the best one batch allows: per_leg bios of bs per leg, at most
	# per_rq of them in one request
	nlegs=$#
	bs=${bs%k}
	max_kb=$(cat "/sys/block/$first_leg/queue/max_sectors_kb")
	per_leg=$((256 / nlegs))
	per_rq=$((max_kb / bs))
	nrq=$(((per_leg + per_rq - 1) / per_rq))
	emit "${layout}_avg_request" "$(echo "$sect / 2 / $ios" | bc -l)" KiB "$cmd; /sys/block/<leg>/stat fields 5, 7 over the $nlegs legs"
	emit "${layout}_avg_request_ideal" "$(echo "$per_leg * $bs / $nrq" | bc -l)" KiB "$per_leg bios of $bs KiB per leg and batch, at most $per_rq per request (max_sectors_kb $max_kb)"
}

# mq_rand NAME FILES RW: median IOPS of three runs of 4 KiB random I/O
mq_rand() {
	local layout=$1 files=$2 rw=$3
	local cmd="fio --name=$layout --filename=$files --rw=$rw --bs=4k --ioengine=io_uring --direct=1 --iodepth=64 --iodepth_batch_submit=64 --iodepth_batch_complete_min=32 --size=64m --runtime=2 --time_based --output-format=json"
	# shellcheck disable=SC2086 # cmd is split into fio's arguments
	emit_iops_median "${layout}_${rw}_iops" 3 "${rw#rand}" $cmd
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
	for i in $(seq 0 $((MQ_LEGS - 1))); do
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

# mq_layouts N: dm-stripe and md raid0 over the first N legs
mq_layouts() {
	local n=$1 i node legs=()
	for i in $(seq 0 $((n - 1))); do legs+=("mq_leg$i"); done

	node=$(mq_stripe mq_stripe "${legs[@]}") || return 1
	mq_seq "dm_stripe_${n}legs_16k" "$node" 16k "${legs[@]}" || return 1
	mq_seq "dm_stripe_${n}legs_4k" "$node" 4k "${legs[@]}" || return 1
	mq_rand "dm_stripe_${n}legs" "$node" randread || return 1
	mq_rand "dm_stripe_${n}legs" "$node" randwrite || return 1
	dmsetup remove --retry mq_stripe || return 1

	mdadm --create /dev/md/mq_raid0 --run --level=0 --metadata=1.2 --chunk=16 \
		--raid-devices="$n" "${legs[@]/#//dev/}" >/dev/null || return 1
	mq_seq "md_raid0_${n}legs_16k" /dev/md/mq_raid0 16k "${legs[@]}" || return 1
	mq_seq "md_raid0_${n}legs_4k" /dev/md/mq_raid0 4k "${legs[@]}" || return 1
	mq_rand "md_raid0_${n}legs" /dev/md/mq_raid0 randread || return 1
	mq_rand "md_raid0_${n}legs" /dev/md/mq_raid0 randwrite || return 1
	mdadm --stop /dev/md/mq_raid0 >/dev/null || return 1
	wipefs -a -q "${legs[@]/#//dev/}" || return 1
}

mq_run() {
	local i n node
	for i in $(seq 0 $((MQ_LEGS - 1))); do
		# md reads back its superblock: keep what is written
		nullb_create mq_leg$i blocksize=4096 size=256 memory_backed=1 || return 1
		echo none >/sys/block/mq_leg$i/queue/scheduler
	done
	mq_layouts 4 || return 1
	mq_layouts 8 || return 1

	# one ring over n disks: fio takes the files in turn
	for n in 2 4 8; do
		node=$(printf '/dev/mq_leg%s:' $(seq 0 $((n - 1))))
		mq_rand "uring_${n}disks" "${node%:}" randread || return 1
		mq_rand "uring_${n}disks" "${node%:}" randwrite || return 1
	done
}
