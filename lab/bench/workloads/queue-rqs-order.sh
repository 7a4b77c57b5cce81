# Order of a plug's requests through virtio_queue_rqs() and nvme_queue_rqs()
# when some of them are handed back (issue 5). Two cases:
#   virtio_ring_full: virtio-blk with a 16-entry ring and no indirect
#     descriptors, 4 KiB reads, 32 per io_submit(): the ring fills in the
#     middle of a batch and the rest of the batch is requeued;
#   nvme_alloc_fail: QEMU NVMe, 4 KiB and 16 KiB reads alternating, 32 per
#     io_submit(), with failslab failing the submitter's atomic slab
#     allocations, so that a 16 KiB read cannot be prepared in queue_rqs.
# Inversions and requeues come from the selftest queue_rqs_order.sh (its
# trace of block_rq_issue minus requeued attempts); reads/s from the same
# aio_batch run without tracing.
# lab-disk: virtio:64M:wc=off,qs=16,ind=off
# lab-disk: nvme:1049602K
WL_NAME=queue-rqs-order
WL_DESC="aio_batch reads, 32 per io_submit: virtio-blk ring full, NVMe allocation failure; inversions and reads/s"

QO_KSFT=$LAB_TOP/build/kselftest/block

# qo_rate DISK FAULT ARGS...: reads per second of one aio_batch run
qo_rate() {
	local disk=$1 fault=$2 start end
	shift 2
	start=$(date +%s.%N)
	if [ "$fault" = y ]; then
		(cd /sys/kernel/debug/failslab && echo Y >task-filter && echo Y >ignore-gfp-wait &&
			echo 1 >interval && echo -1 >times && echo 0 >verbose && echo 100 >probability) || return 1
		sh -c 'echo 1 >/proc/self/make-it-fail && exec "$@"' sh \
			"$QO_KSFT/aio_batch" "$@" "/dev/$disk" || return 1
		echo 0 >/sys/kernel/debug/failslab/probability
	else
		"$QO_KSFT/aio_batch" "$@" "/dev/$disk" || return 1
	fi
	end=$(date +%s.%N)
	echo "4096 / ($end - $start)" | bc -l
}

# qo_case METRIC DISK CASE_NAME FAULT ARGS...
qo_case() {
	local metric=$1 disk=$2 case=$3 fault=$4 line rate
	shift 4
	line=$(grep -F "# $disk $case:" selftest.txt | head -n 1)
	[ -n "$line" ] || { echo "no '$disk $case' line in the selftest output" >&2; return 1; }
	emit "${metric}_inversions" "$(echo "$line" | sed -n 's/.*, \([0-9]*\) LBA inversions.*/\1/p')" count \
		"queue_rqs_order.sh, $case on $disk: requests below the previous one"
	emit "${metric}_requeued" "$(echo "$line" | sed -n 's/.*, \([0-9]*\) attempts requeued.*/\1/p')" count \
		"queue_rqs_order.sh, $case on $disk: block_rq_requeue"
	rate=$(qo_rate "$disk" "$fault" "$@" -n 4096) || return 1
	emit "${metric}_reads_per_s" "$rate" reads/s "aio_batch $* -n 4096 /dev/$disk (wall clock)"
}

wl_run() {
	local vd nvme
	vd=$(first_disk labvirtio) || { echo "no lab virtio-blk disk" >&2; return 1; }
	nvme=$(first_disk 'QEMU NVMe') || { echo "no QEMU NVMe disk" >&2; return 1; }
	BLK_TEST_DISKS="$vd $nvme" "$QO_KSFT/queue_rqs_order.sh" >selftest.txt 2>&1
	sed -n 's/^# \(vd\|nvme\)/    \1/p' selftest.txt
	for d in $vd $nvme; do
		echo none >/sys/block/$d/queue/scheduler
		echo 2 >/sys/block/$d/queue/nomerges
	done
	qo_case virtio_ring_full "$vd" "4 KiB reads" n -b 32 -s 4096 -S 8192 || return 1
	qo_case nvme_alloc_fail "$nvme" "allocation failure" y -b 32 -s 4096 -m 16384 -S 32768 || return 1
}
