#!/bin/bash
# Experiment for issue 6 (not a test): seed 002's fio job on a zoned QEMU
# NVMe namespace, with queue/rotational set to 1 and to 0, counting writes
# issued (block_rq_issue) below the end of an earlier write.
# Run: lab/boot/run-guest.sh --disk zns:256M:8M 6.12|mainline base|patched \
#        $PWD/lab/experiments/zns-write-order.sh
T=/sys/kernel/tracing
d=$(cd /sys/block && ls -d nvme*n* | head -n 1)
[ -n "$d" ] || { echo "no NVMe namespace" >&2; exit 1; }
echo "== $d zoned=$(cat /sys/block/$d/queue/zoned) chunk=$(cat /sys/block/$d/queue/chunk_sectors) sched=$(cat /sys/block/$d/queue/scheduler)"
echo global >$T/trace_clock
echo 8192 >$T/buffer_size_kb
dev=$(tr : , </sys/block/$d/dev)
for rot in 1 0; do
	echo $rot >/sys/block/$d/queue/rotational
	blkzone reset /dev/$d
	echo >$T/trace; echo 1 >$T/events/block/block_rq_issue/enable
	fio --name=zns --filename=/dev/$d --zonemode=zbd --direct=1 --ioengine=libaio \
		--iodepth=32 --rw=write --bs=64k --size=256m --output-format=terse >/tmp/fio.txt
	rc=$?
	echo 0 >$T/events/block/block_rq_issue/enable
	awk -v dev="$dev" '
	{
		for (i = 1; i < NF; i++) if ($i == "block_rq_issue:") break
		if (i >= NF || $(i + 1) != dev || $(i + 2) !~ /^W/) next
		for (j = i + 3; j < NF; j++) if ($j == "+") break
		s = $(j - 1) + 0; n = $(j + 1) + 0; w++
		if (s < hi) inv++
		if (s + n > hi) hi = s + n
	}
	END { printf "rotational=%d: fio rc %d, %d writes, %d inversions\n", rot, rc, w, inv }' rot=$rot rc=$rc $T/trace
	echo "  write bw (KiB/s): $(cut -d';' -f48 /tmp/fio.txt)"
done
