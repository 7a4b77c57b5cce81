# Guard for the plug merge hot path: 4 KiB random reads with io_uring on
# one null_blk queue without a scheduler go through the single-queue
# one-shot merge attempt for every bio, which must not get slower.
# Five 5 s runs per kernel; the median IOPS is compared (patched/base
# should stay >= 0.98; under TCG the spread is wide, see min and max).
# lab-disk: (none: null_blk)
WL_NAME=plug-hotpath-randread
WL_DESC="null_blk io_uring randread bs=4k iodepth=32 batch=16, median of 5"

wl_run() {
	local dev=hot_nullb runs=5 i iops=()
	local cmd="fio --name=hot --filename=/dev/$dev --rw=randread --bs=4k --ioengine=io_uring --direct=1 --iodepth=32 --iodepth_batch_submit=16 --iodepth_batch_complete_min=16 --runtime=5 --time_based --output-format=json"
	nullb_create $dev blocksize=4096 size=1024 || return 1
	echo none >/sys/block/$dev/queue/scheduler
	for i in $(seq $runs); do
		$cmd >fio.json || return 1
		iops+=("$(fio_field fio.json jobs.0.read.iops)")
	done
	read -r min med max <<<"$(min_med_max "${iops[@]}")"
	emit iops_median "$med" IOPS "$cmd (median of $runs)"
	emit iops_min "$min" IOPS "$cmd (min of $runs)"
	emit iops_max "$max" IOPS "$cmd (max of $runs)"
	nullb_remove $dev
}
