# When the plug is flushed for size (BLK_PLUG_FLUSH_SIZE, 128 KiB): each
# io_submit() holds one 4 KiB read far away followed by 64 sequential
# 64 KiB reads that merge into 512 KiB requests (null_blk max_sectors 1024).
# Checking the newest plug request flushes after each 512 KiB request;
# checking the oldest (4 KiB) one holds them all until io_submit() ends.
# Uses aio_batch from the block selftests (build/<base>/kselftest). Reports the
# requests per unplug (block:block_unplug) and the read bandwidth.
# lab-disk: (none: null_blk)
WL_NAME=plug-flush-size
WL_DESC="io_submit of 4 KiB + 64 x 64 KiB reads on null_blk (512 KiB max), requests per unplug"

wl_run() {
	local dev=fs_nullb batches=256 t0 t1
	local tool=$LAB_KSFT/aio_batch
	local cmd="aio_batch -b 64 -s 65536 -n $((64 * batches)) -f 4096 -F $((768 << 20)) /dev/$dev"
	local bpf='tracepoint:block:block_unplug /comm == "aio_batch"/ { @n = count(); @sum = sum(args->nr_rq); @max = max(args->nr_rq); }'
	wl_need "$tool" || return 0
	nullb_create $dev blocksize=4096 size=1024 max_sectors=1024 || return 1
	echo none >/sys/block/$dev/queue/scheduler
	bpftrace_start bpf.txt "$bpf" || return 1
	t0=$(date +%s.%N)
	"$tool" ${cmd#aio_batch } || { bpftrace_stop; return 1; }
	t1=$(date +%s.%N)
	bpftrace_stop
	local n sum max
	n=$(awk '$1 == "@n:" { print $2 }' bpf.txt)
	sum=$(awk '$1 == "@sum:" { print $2 }' bpf.txt)
	max=$(awk '$1 == "@max:" { print $2 }' bpf.txt)
	emit unplugs "$n" count "$cmd; bpftrace -e '$bpf'"
	emit mean_requests_per_unplug "$(echo "$sum / $n" | bc -l)" requests "$cmd; bpftrace -e '$bpf'"
	emit max_requests_per_unplug "$max" requests "$cmd; bpftrace -e '$bpf'"
	emit bandwidth "$(echo "$batches * (64 * 65536 + 4096) / 1048576 / ($t1 - $t0)" | bc -l)" MiB/s "$cmd (wall time)"
	nullb_remove $dev
}
