# Seed 003 ("blk-plug: don't flush nested plug lists"): Jeff Moyer's job.
# io_submit() batches of 16 O_DIRECT 4 KiB sequential reads on a queue
# without an I/O scheduler. Only the outermost plug (io_submit's) may
# flush, so each batch should reach the device as one merged request.
# Reports bandwidth, merges and the average request size at the device.
# lab-disk: (none: null_blk)
WL_NAME=seed003-aio-batch
WL_DESC="fio libaio read bs=4k iodepth=128 batch=16 on null_blk (none)"

wl_run() {
	local dev=bench_nullb
	local cmd="fio --name=seed003 --filename=/dev/$dev --rw=read --bs=4k --iodepth=128 --iodepth_batch=16 --iodepth_batch_complete=16 --direct=1 --ioengine=libaio --runtime=10 --time_based --output-format=json"
	nullb_create $dev blocksize=4096 size=1024 || return 1
	echo none >/sys/block/$dev/queue/scheduler
	local ios0 merges0 sect0
	ios0=$(stat_field $dev 1) merges0=$(stat_field $dev 2) sect0=$(stat_field $dev 3)
	$cmd >fio.json || return 1
	local ios=$(( $(stat_field $dev 1) - ios0 ))
	local merges=$(( $(stat_field $dev 2) - merges0 ))
	local sect=$(( $(stat_field $dev 3) - sect0 ))
	emit bandwidth "$(echo "$(fio_field fio.json jobs.0.read.bw) / 1024" | bc -l)" MiB/s "$cmd"
	emit read_merges "$merges" count "$cmd; /sys/block/$dev/stat field 2"
	emit merged_bios "$(echo "100 * $merges / ($ios + $merges)" | bc -l)" % "$cmd; /sys/block/$dev/stat fields 1, 2"
	emit avg_request_size "$(echo "$sect / 2 / $ios" | bc -l)" KiB "$cmd; /sys/block/$dev/stat fields 1, 3"
	nullb_remove $dev
}
