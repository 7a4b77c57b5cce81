# Seed 000 (revert of "block: don't reorder requests in blk_add_rq_to_plug"):
# Hazem Abuelfotoh's job, buffered 4 KiB random writes with psync,
# fsync=64, numjobs=4 on a raw NVMe namespace.
#
# Why each 4 KiB write became two 2 KiB bios on the seed's host: a raw block
# device's page cache uses buffer heads whose size set_init_blocksize()
# (block/bdev.c) picks as the largest power of two up to PAGE_SIZE that
# divides the device size. The seed's 1.9 TB instance-store NVMe is a
# multiple of 2 KiB but not of 4 KiB, so the block size is 2 KiB and
# writeback submits one 2 KiB bio per buffer head, two per page. They reach
# the device as 4 KiB only if the second bio merges with the request made by
# the first in the plug (blk_attempt_plug_merge()).
#
# Here the same condition is made with a QEMU NVMe namespace of 1 GiB +
# 2 KiB. Reports bandwidth, the write size at the device, and the
# share of write bios merged at the disk (merges / (merges + requests),
# from the disk's stat file). The seed read the plug merge hit rate from a
# kretprobe on blk_attempt_plug_merge(); kprobes cannot be re-armed on the
# 7.3.4 lab guests, and the disk's counts also include merges into the
# software queues, so this is the merge rate, not the plug merge hit rate.
# lab-disk: nvme:1049602K
WL_NAME=seed000-split-bio-merge
WL_DESC="fio psync randwrite bs=4k fsync=64 numjobs=4, buffered, on NVMe with 2 KiB page-cache blocks"

wl_run() {
	local dev
	dev=$(first_disk 'QEMU NVMe') || { echo "no QEMU NVMe disk" >&2; return 1; }
	local cmd="fio --name=seed000 --filename=/dev/$dev --rw=randwrite --bs=4k --ioengine=psync --iodepth=1 --fsync=64 --invalidate=1 --randrepeat=0 --numjobs=4 --group_reporting --runtime=15 --time_based --output-format=json"
	echo none >/sys/block/$dev/queue/scheduler
	echo "    page-cache block size of /dev/$dev: $(blockdev --getbsz /dev/$dev) bytes"
	emit pagecache_block_size "$(blockdev --getbsz /dev/$dev)" bytes "blockdev --getbsz /dev/$dev"
	local ios0 merges0 sect0
	ios0=$(stat_field $dev 5) merges0=$(stat_field $dev 6) sect0=$(stat_field $dev 7)
	$cmd >fio.json || return 1
	local ios=$(( $(stat_field $dev 5) - ios0 ))
	local merges=$(( $(stat_field $dev 6) - merges0 ))
	local sect=$(( $(stat_field $dev 7) - sect0 ))
	emit bandwidth "$(echo "$(fio_field fio.json jobs.0.write.bw) / 1024" | bc -l)" MiB/s "$cmd"
	emit avg_write_size "$(echo "$sect / 2 / $ios" | bc -l)" KiB "$cmd; /sys/block/$dev/stat fields 5, 7"
	emit write_merges "$merges" count "$cmd; /sys/block/$dev/stat field 6"
	[ $((merges + ios)) -gt 0 ] &&
		emit merge_rate "$(echo "100 * $merges / ($merges + $ios)" | bc -l)" % "$cmd; /sys/block/$dev/stat fields 5, 6"
	return 0
}
