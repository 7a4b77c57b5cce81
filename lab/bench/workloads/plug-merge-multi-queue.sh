# Plug merging when several queues share a plug (seed 001 territory).
# dm-stripe and md raid0 with 4 null_blk legs (default limits: 124 KiB per
# request), 16 KiB chunk, fio io_uring sequential 16 KiB writes submitted
# 256 at a time. Reports the average request size at the legs, bandwidth
# and IOPS, and the share of bios merged at the legs (merges / (merges +
# requests) from their stat files: plug merges and merges into the
# software queues when a task sleeps for a tag).
# lab-disk: (none: null_blk)
WL_NAME=plug-merge-multi-queue
WL_DESC="dm-stripe and md raid0 over 4 null_blk legs, fio io_uring write bs=16k, 256 per submit"

mq_measure() {
	local layout=$1 dev=$2 leg ios=0 sect=0 merges=0
	local cmd="fio --name=$layout --filename=$dev --rw=write --bs=16k --ioengine=io_uring --direct=1 --iodepth=256 --iodepth_batch_submit=256 --iodepth_batch_complete_min=256 --size=256m --output-format=json"
	declare -A i0 s0 m0
	for leg in $MQ_LEGS; do
		i0[$leg]=$(stat_field "$leg" 5) s0[$leg]=$(stat_field "$leg" 7) m0[$leg]=$(stat_field "$leg" 6)
	done
	$cmd >fio.json || return 1
	for leg in $MQ_LEGS; do
		ios=$((ios + $(stat_field "$leg" 5) - i0[$leg]))
		sect=$((sect + $(stat_field "$leg" 7) - s0[$leg]))
		merges=$((merges + $(stat_field "$leg" 6) - m0[$leg]))
	done
	emit "${layout}_avg_request_size" "$(echo "$sect / 2 / $ios" | bc -l)" KiB "$cmd; /sys/block/<leg>/stat fields 5, 7 over the 4 legs"
	emit "${layout}_leg_requests" "$ios" count "$cmd; /sys/block/<leg>/stat field 5 over the 4 legs"
	emit "${layout}_bandwidth" "$(echo "$(fio_field fio.json jobs.0.write.bw) / 1024" | bc -l)" MiB/s "$cmd"
	emit "${layout}_iops" "$(fio_field fio.json jobs.0.write.iops)" IOPS "$cmd"
	emit "${layout}_merge_rate" "$(echo "100 * $merges / ($merges + $ios)" | bc -l)" % "$cmd; /sys/block/<leg>/stat fields 5, 6 over the 4 legs"
}

wl_run() {
	local i table node
	MQ_LEGS=""
	for i in 0 1 2 3; do
		# md reads back its superblock: keep what is written
		nullb_create mq_leg$i blocksize=4096 size=256 memory_backed=1 || return 1
		echo none >/sys/block/mq_leg$i/queue/scheduler
		MQ_LEGS="$MQ_LEGS mq_leg$i"
	done
	table="0 $((4 * 256 * 2048)) striped 4 32 /dev/mq_leg0 0 /dev/mq_leg1 0 /dev/mq_leg2 0 /dev/mq_leg3 0"
	dmsetup create mq_stripe --table "$table" || return 1
	node=/dev/$(dmsetup info -c --noheadings -o blkdevname mq_stripe)
	mq_measure dm_stripe "$node" || return 1
	dmsetup remove mq_stripe
	mdadm --create /dev/md/mq_raid0 --run --level=0 --metadata=1.2 --chunk=16 \
		--raid-devices=4 /dev/mq_leg0 /dev/mq_leg1 /dev/mq_leg2 /dev/mq_leg3 >/dev/null 2>&1 || return 1
	mq_measure md_raid0 /dev/md/mq_raid0 || return 1
	mdadm --stop /dev/md/mq_raid0 >/dev/null 2>&1
	for i in 0 1 2 3; do nullb_remove mq_leg$i; done
}
