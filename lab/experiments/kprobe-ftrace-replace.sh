#!/bin/bash
# Experiment for issue 15 (not a test): a kprobe event at a function's
# entry (on x86_64 a kprobe on ftrace), hit, removed and added again. On
# 7.3.4 the next call of the function oopses ("BUG: kernel NULL pointer
# dereference, address: 0000000000000001", RIP 0x1) in the second round;
# 6.12.117 runs all three rounds. With OFFSET (e.g. 9: past endbr64 and
# the 5-byte call site) the probe is an ordinary kprobe and 7.3.4 runs all
# three rounds too. aio_batch_hint.sh hit this when run twice in one boot.
# Run: lab/build/build-selftests.sh BASE; lab/boot/run-guest.sh BASE base \
#        $PWD/lab/experiments/kprobe-ftrace-replace.sh $PWD/build/BASE/kselftest [OFFSET]
ksft=${1:?usage: kprobe-ftrace-replace.sh KSELFTEST_DIR [OFFSET]}
off=${2:+"+$2"}
t=/sys/kernel/tracing
[ -d $t/events ] || mount -t tracefs nodev $t
modprobe null_blk nr_devices=1 bs=4096 || exit 1
for i in 1 2 3; do
	echo "p:kpt/get_tag blk_mq_get_tag$off" >>$t/kprobe_events || exit 1
	d=$t/instances/kpt$i
	mkdir $d
	echo 1 >$d/events/kpt/get_tag/enable
	"$ksft/block/aio_batch" -b 16 -s 4096 -S 8192 -n 1024 /dev/nullb0
	echo "round $i: $(grep -c get_tag: $d/trace) hits of $(grep kpt/ $t/kprobe_events)"
	echo 0 >$d/events/kpt/get_tag/enable
	rmdir $d
	echo "-:kpt/get_tag" >>$t/kprobe_events || exit 1
done
echo "kprobe-ftrace-replace: three rounds done"
