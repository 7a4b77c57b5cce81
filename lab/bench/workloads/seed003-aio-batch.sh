# Seed 003 ("blk-plug: don't flush nested plug lists"): Jeff Moyer's job,
# io_submit() batches of 16 O_DIRECT 4 KiB reads at iodepth 128. Only the
# outermost plug (io_submit's) may flush, so each sequential batch should
# reach a queue without a scheduler as one merged request. With the batch
# hint (issue 3), each io_submit() also takes the tags of its requests in
# one go; that matters when requests do not merge, so the same job runs
# with random reads too.
#
# Cases: null_blk with no scheduler (the seed's setup) and mq-deadline,
# QEMU NVMe with no scheduler; sequential (the seed job) and random reads.
# Reports bandwidth, merged bios, average request size, and tag
# allocation calls per request (tracefs kprobe events on blk_mq_get_tags,
# batched, and blk_mq_get_tag, single, made by fio).
# lab-disk: nvme:1049602K
WL_NAME=seed003-aio-batch
WL_DESC="fio libaio read bs=4k iodepth=128 batch=16: null_blk none/mq-deadline, QEMU NVMe; seq and rand"

aio_case() {
	local name=$1 dev=$2 sched=$3 rw=$4 ios0 merges0 sect0 ios merges sect batched single
	local cmd="fio --name=seed003 --filename=/dev/$dev --rw=$rw --bs=4k --iodepth=128 --iodepth_batch=16 --iodepth_batch_complete=16 --direct=1 --ioengine=libaio --runtime=8 --time_based --output-format=json"
	local probes="tracefs kprobe events on blk_mq_get_tags (batched) and blk_mq_get_tag (single) of fio"
	echo "$sched" >/sys/block/$dev/queue/scheduler
	ios0=$(stat_field $dev 1) merges0=$(stat_field $dev 2) sect0=$(stat_field $dev 3)
	kprobes_snapshot kp-before.txt || return 1
	$cmd >fio.json || return 1
	kprobes_snapshot kp.txt || return 1
	ios=$(( $(stat_field $dev 1) - ios0 ))
	merges=$(( $(stat_field $dev 2) - merges0 ))
	sect=$(( $(stat_field $dev 3) - sect0 ))
	batched=$(kprobe_hits kp.txt batched) single=$(kprobe_hits kp.txt single)
	emit "${name}_bandwidth" "$(echo "$(fio_field fio.json jobs.0.read.bw) / 1024" | bc -l)" MiB/s "$cmd"
	emit "${name}_merged_bios" "$(echo "100 * $merges / ($ios + $merges)" | bc -l)" % "$cmd; /sys/block/$dev/stat fields 1, 2"
	emit "${name}_avg_request_size" "$(echo "$sect / 2 / $ios" | bc -l)" KiB "$cmd; /sys/block/$dev/stat fields 1, 3"
	emit "${name}_tag_allocs_per_request" "$(echo "(${batched:-0} + ${single:-0}) / $ios" | bc -l)" calls "$cmd; $probes"
	emit "${name}_batched_tag_allocs" "${batched:-0}" count "$cmd; $probes"
}

wl_run() {
	kprobes_start 'comm == "fio"' "batched=p blk_mq_get_tags" "single=p blk_mq_get_tag" || return 1
	aio_cases
	local rc=$?
	kprobes_stop
	return $rc
}

aio_cases() {
	local nvme
	nullb_create bench_nullb blocksize=4096 size=1024 || return 1
	aio_case nullb_none_seq bench_nullb none read || return 1
	aio_case nullb_none_rand bench_nullb none randread || return 1
	aio_case nullb_deadline_seq bench_nullb mq-deadline read || return 1
	aio_case nullb_deadline_rand bench_nullb mq-deadline randread || return 1
	nullb_remove bench_nullb
	nvme=$(first_disk 'QEMU NVMe') || { echo "no QEMU NVMe disk" >&2; return 1; }
	aio_case nvme_none_seq "$nvme" none read || return 1
	aio_case nvme_none_rand "$nvme" none randread || return 1
}
