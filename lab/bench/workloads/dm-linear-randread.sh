# Cost of dm's bio completion path (__dm_io_complete(), where a requeued
# bio is handed back): 4 KiB random reads with io_uring through dm-linear
# over a null_blk disk with enough tags that nothing is requeued, with
# interrupt-style completions (4 jobs at queue depth 16) and polled ones
# (hipri, the one poll queue null_blk gives a configfs disk by default),
# disk statistics on. Five 5 s runs per leg; the median IOPS is
# compared. Under LAB_ICOUNT=0 the guest clock counts one nanosecond per
# guest instruction, so 1e9 / IOPS is the guest instructions per read
# (both vCPUs together).
# lab-disk: (none: null_blk)
WL_NAME=dm-linear-randread
WL_DESC="dm-linear over null_blk, io_uring randread bs=4k, irq and polled, median of 5"

wl_run() {
	local dev=dm_bench_nullb dm=dm_bench_linear runs=5 i leg node iops
	local base="fio --name=dmread --rw=randread --bs=4k --ioengine=io_uring --direct=1 --iodepth=16 --iodepth_batch_submit=16 --iodepth_batch_complete_min=16 --numjobs=4 --group_reporting --norandommap --runtime=5 --time_based --output-format=json"
	nullb_create $dev blocksize=4096 size=1024 submit_queues=2 poll_queues=1 \
		hw_queue_depth=256 || return 1
	echo none >/sys/block/$dev/queue/scheduler
	dmsetup create $dm --table "0 $(blockdev --getsz /dev/$dev) linear /dev/$dev 0" ||
		return 1
	node=$(dmsetup info -c --noheadings -o blkdevname $dm)
	echo 1 >/sys/block/$node/queue/iostats
	for leg in irq polled; do
		local cmd="$base --filename=/dev/$node"
		[ $leg = polled ] && cmd="$cmd --hipri=1"
		iops=()
		for i in $(seq $runs); do
			$cmd >fio.json || return 1
			iops+=("$(fio_field fio.json jobs.0.read.iops)")
		done
		read -r min med max <<<"$(min_med_max "${iops[@]}")"
		emit "${leg}_iops_median" "$med" IOPS "$cmd (median of $runs)"
		emit "${leg}_iops_min" "$min" IOPS "$cmd (min of $runs)"
		emit "${leg}_iops_max" "$max" IOPS "$cmd (max of $runs)"
	done
	dmsetup remove $dm
	nullb_remove $dev
}
