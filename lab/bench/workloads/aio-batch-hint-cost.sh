# What the io_submit() batch hint gains and costs, with fio's libaio
# engine on one null_blk disk without a scheduler (64 tags, no memory
# backing, so the disk itself costs few instructions):
#  - 4 KiB random reads at QD 64, submitted 16 and 32 iocbs per
#    io_submit(): nothing merges and each request needs a tag. With the
#    hint the first allocation of a call tries to take them all, which
#    the tag allocator does only from one word of its bitmap: 16 tags
#    with 64 tags in all, so a call of 32 gets no batch (the cost of a
#    refused batch);
#  - 4 KiB sequential writes at QD 64, 16 and 32 per io_submit(): the
#    iocbs of a call merge into requests of up to max_sectors_kb, so the
#    spare requests a batch took are freed unused at the flush.
# Median IOPS of three 2 s runs, and the average request at the disk (for
# the reads a check that nothing merged). Under the lab's icount mode
# (run-per-patch.sh), IOPS is 1e9 / guest instructions per I/O.
# lab-disk: (none: null_blk)
WL_NAME=aio-batch-hint-cost
WL_DESC="null_blk, fio libaio QD 64: 4 KiB random reads and sequential writes, 16 and 32 iocbs per io_submit() (median of 3)"

aio_cost() {
	local rw=$1 batch=$2 runs=3 dir
	local cmd="fio --name=aio --filename=/dev/aio_nullb --rw=$rw --bs=4k --ioengine=libaio --direct=1 --iodepth=64 --iodepth_batch_submit=$batch --iodepth_batch_complete_min=$batch --runtime=2 --time_based --output-format=json"
	local f ios0 sect0
	dir=${rw#rand}
	f=1; [ "$dir" = write ] && f=5
	ios0=$(stat_field aio_nullb $f) sect0=$(stat_field aio_nullb $((f + 2)))
	# shellcheck disable=SC2086 # cmd is split into fio's arguments
	emit_iops_median "${rw}_batch${batch}_iops" $runs "$dir" $cmd || return 1
	emit "${rw}_batch${batch}_avg_request" \
		"$(echo "($(stat_field aio_nullb $((f + 2))) - $sect0) / 2 / ($(stat_field aio_nullb $f) - $ios0)" | bc -l)" \
		KiB "$cmd; /sys/block/aio_nullb/stat fields $f, $((f + 2)) over the $runs runs"
}

wl_run() {
	local rc=0
	nullb_create aio_nullb blocksize=4096 size=1024 hw_queue_depth=64 || return 1
	echo none >/sys/block/aio_nullb/queue/scheduler
	{ aio_cost randread 16 && aio_cost randread 32 &&
	  aio_cost write 16 && aio_cost write 32; } || rc=1
	nullb_remove aio_nullb
	return $rc
}
