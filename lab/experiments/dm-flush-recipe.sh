#!/bin/bash
# Experiment (not a test): the commands that the changelogs of "block:
# account flush requests cloned by stacking drivers as flushes" and "dm rq:
# complete flushes that no device of the table can cache" quote, run as
# they are written there (with the dm device's /dev/dm-N node, since the
# guest has no udev to make /dev/mapper/mp a link).
# Setup: scsi_debug with two hosts sharing one store (two paths, A and B,
# to one logical unit), dm-multipath over B alone, then over both with
# both set to "write through" in queue/write_cache.
# Output: B's /sys/block/<B>/stat reads (field 1), writes (5) and flushes
# (16) before and after 128 writes with fsync() (dd conv=fsync); then the
# flushes (rwbs F+S?) and FUA writes (F?WF) that block:block_rq_issue saw
# issued to each path for 128 such writes and for 128 O_DSYNC direct
# writes. Prints RECIPE-DONE at the end; exits 1 without scsi_debug.
# Run: lab/boot/run-guest.sh --out DIR mainline base|patched \
#        $PWD/lab/experiments/dm-flush-recipe.sh
set -u
modprobe scsi_debug add_host=2 vpd_use_hostno=0 dev_size_mb=64 delay=0 || { echo "no scsi_debug"; exit 1; }
udevadm settle 2>/dev/null; sleep 1
disks=$(ls -d /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/* | xargs -n1 basename)
set -- $disks; A=$1; B=$2
echo "paths: A=$A B=$B ($(cat /sys/block/$A/dev) $(cat /sys/block/$B/dev)) $(cat /sys/block/$A/queue/write_cache) fua $(cat /sys/block/$A/queue/fua)"
T=/sys/kernel/tracing
count() { # flushes and FUA writes issued to each path
	for d in $A $B; do
		mm=$(cat /sys/block/$d/dev); mm=${mm/:/,}
		f=$(grep -cE "block_rq_issue: $mm F+S? " $T/trace)
		w=$(grep -cE "block_rq_issue: $mm F?WF" $T/trace)
		echo "  $d: flushes $f, FUA writes $w"
	done
}
stat_rf() { awk '{ print "reads " $1 ", writes " $5 ", flushes " $16 }' /sys/block/$1/stat; }
writes() {
	for i in $(seq 128); do dd if=/dev/zero of=/dev/$(basename /sys/block/dm-*) bs=4k count=1 seek=$i conv=fsync status=none; done
}
echo "== flush accounting: path $B alone"
dmsetup create mp --table "0 131072 multipath 0 0 1 1 round-robin 0 1 1 /dev/$B 1"
udevadm settle 2>/dev/null; sleep 1
dm=$(basename /sys/block/dm-*); echo "  $dm: $(cat /sys/block/$dm/queue/write_cache), fua $(cat /sys/block/$dm/queue/fua)"
echo "  before: $B $(stat_rf $B)"
writes
echo "  after 128 x dd conv=fsync: $B $(stat_rf $B)"
dmsetup remove mp
echo "== both paths write through"
dmsetup create mp --table "0 131072 multipath 0 0 1 1 round-robin 0 2 1 /dev/$A 1 /dev/$B 1"
udevadm settle 2>/dev/null; sleep 1
echo "write through" > /sys/block/$A/queue/write_cache
echo "write through" > /sys/block/$B/queue/write_cache
echo > $T/trace
echo 1 > $T/events/block/block_rq_issue/enable
writes
echo "  128 x dd conv=fsync:"; count
echo > $T/trace
dd if=/dev/zero of=/dev/$(basename /sys/block/dm-*) bs=4k count=128 oflag=direct,dsync status=none
echo "  dd oflag=direct,dsync count=128:"; count
echo 0 > $T/events/block/block_rq_issue/enable
dm=$(basename /sys/block/dm-*)
echo "  $dm: $(cat /sys/block/$dm/queue/write_cache), fua $(cat /sys/block/$dm/queue/fua)"
dmsetup remove mp
rmmod scsi_debug
echo RECIPE-DONE
