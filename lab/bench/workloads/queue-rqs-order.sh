# Order of a plug's requests through virtio_queue_rqs() and nvme_queue_rqs()
# when some of them are handed back (issue 5). Two cases:
#   virtio_ring_full: virtio-blk with a 16-entry ring and no indirect
#     descriptors, 4 KiB reads, 32 per io_submit(): the ring fills in the
#     middle of a batch and the rest of the batch is requeued;
#   nvme_alloc_fail: QEMU NVMe, 4 KiB and 16 KiB reads alternating, 32 per
#     io_submit(), with failslab failing the submitter's atomic slab
#     allocations, so that a 16 KiB read cannot be prepared in queue_rqs.
# Inversions, requeues, BUSY answers and reads/s (with tracing on, the same on both
# kernels) come from the selftest queue_rqs_order.sh, which runs the cases.
# lab-disk: virtio:64M:wc=off,qs=16,ind=off
# lab-disk: nvme:1049602K
WL_NAME=queue-rqs-order
WL_DESC="aio_batch reads, 32 per io_submit: virtio-blk ring full, NVMe allocation failure; inversions, requeues, BUSY answers and reads/s"

QO_KSFT=$LAB_KSFT

# qo_case METRIC DISK CASE_NAME: the numbers of one selftest case
qo_case() {
	local metric=$1 disk=$2 case=$3 line
	line=$(grep -F "# $disk $case:" selftest.txt | head -n 1)
	[ -n "$line" ] || { echo "no '$disk $case' line in the selftest output" >&2; return 1; }
	emit "${metric}_inversions" "$(echo "$line" | sed -n 's/.*, \([0-9]*\) LBA inversions.*/\1/p')" count \
		"queue_rqs_order.sh, $case on $disk: requests below the previous one"
	emit "${metric}_requeued" "$(echo "$line" | sed -n 's/.*, \([0-9]*\) attempts requeued.*/\1/p')" count \
		"queue_rqs_order.sh, $case on $disk: block_rq_requeue"
	emit "${metric}_busy_before_issue" "$(echo "$line" | sed -n 's/.*, \([0-9]*\) answered BUSY before issue.*/\1/p')" count \
		"queue_rqs_order.sh, $case on $disk: block_rq_requeue of requests never issued"
	emit "${metric}_reads_per_s" "$(echo "$line" | sed -n 's/.*, \([0-9]*\) reads\/s traced.*/\1/p')" reads/s \
		"queue_rqs_order.sh, $case on $disk: 1024 reads, wall clock, tracing on"
}

wl_run() {
	local vd nvme
	wl_need "$QO_KSFT/queue_rqs_order.sh" || return 0
	vd=$(first_disk labvirtio) || { echo "no lab virtio-blk disk" >&2; return 1; }
	nvme=$(first_disk 'QEMU NVMe') || { echo "no QEMU NVMe disk" >&2; return 1; }
	BLK_TEST_DISKS="$vd $nvme" "$QO_KSFT/queue_rqs_order.sh" >selftest.txt 2>&1
	sed -n 's/^# \(vd\|nvme\)/    \1/p' selftest.txt
	qo_case virtio_ring_full "$vd" "4 KiB reads" || return 1
	qo_case nvme_alloc_fail "$nvme" "allocation failure" || return 1
}
