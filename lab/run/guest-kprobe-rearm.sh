#!/bin/bash
# Inside a lab guest: arm a tracefs kprobe event on blk_mq_get_tag(), read
# 2000 blocks of a null_blk disk, disarm it, and do it twice more. On the
# 7.3.4 lab guests (QEMU TCG) the second arming oopses at its first hit
# (RIP 0x1 just after the __fentry__ call); 6.12 guests print three
# rounds of 2000 hits.
# usage: lab/boot/run-guest.sh BASE base|patched "$PWD/lab/run/guest-kprobe-rearm.sh"
T=/sys/kernel/tracing
modprobe null_blk nr_devices=1 queue_mode=2 || exit 1
echo "p:rearm/tag blk_mq_get_tag" >>$T/kprobe_events || exit 1
for round in 1 2 3; do
	echo 1 >$T/events/rearm/tag/enable
	dd if=/dev/nullb0 of=/dev/null bs=4k count=2000 iflag=direct status=none
	echo 0 >$T/events/rearm/tag/enable
	echo "round $round: $(grep -c ' tag: ' $T/trace) hits"
	echo >$T/trace
done
echo "-:rearm/tag" >>$T/kprobe_events
rmmod null_blk
