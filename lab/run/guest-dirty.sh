#!/bin/bash
# Dirty-machine run, inside a lab guest: leave the machine as an admin and
# an interrupted earlier run of the tests might, run every block selftest
# twice in a row (guest-selftests.sh), and record the machine's state
# before and after each pass.
#   foreign state, which the tests must work around and leave alone:
#     null_blk loaded with parameters that differ from its defaults in
#     some of what a configfs device inherits from them (timer
#     completions, two queues of depth 8, no scheduler, shared tags), and
#     one device of its own; a dm device on that device (it takes dm-0); a
#     kprobe event of someone else;
#   stale objects of an interrupted run, with the tests' own names, which
#     the tests must clean up: a powered-on configfs null_blk
#     device of plug_flush_size.sh, a kprobe event of aio_batch_hint.sh.
# OUT/state-0.txt is the state with the foreign objects only,
# OUT/state-1.txt and OUT/state-2.txt after each pass; OUT/pass1/ and
# OUT/pass2/ hold each pass's selftests.tsv and logs.
# usage: guest-dirty.sh KSELFTEST_INSTALL_DIR OUT
ksft=${1:?usage: guest-dirty.sh KSELFTEST_DIR OUT}
out=${2:?usage: guest-dirty.sh KSELFTEST_DIR OUT}
here=$(dirname "$(readlink -f "$0")")
tfs=/sys/kernel/tracing
[ -d $tfs/events ] || mount -t tracefs nodev $tfs
cfs=/sys/kernel/config
[ -d $cfs/nullb ] || mount -t configfs none $cfs 2>/dev/null
[ -d /sys/kernel/debug/block ] || mount -t debugfs nodev /sys/kernel/debug 2>/dev/null

# state: what the tests may change and must restore, one item per line
state() {
	local f d
	echo "modules: $(cut -d' ' -f1 /proc/modules | sort | xargs)"
	for f in /sys/module/null_blk/parameters/* /sys/module/dm_mod/parameters/* \
		 /sys/module/nvme_core/parameters/iopolicy \
		 /sys/module/nvme_core/parameters/multipath; do
		case $f in */stats_current_allocated_bytes) continue ;; esac
		[ -r "$f" ] && echo "param ${f#/sys/module/}: $(cat "$f" 2>/dev/null)"
	done
	ls $cfs/nullb 2>/dev/null | sed 's/^/nullb configfs: /'
	for d in subsystems ports hosts; do
		ls $cfs/nvmet/$d 2>/dev/null | sed "s/^/nvmet $d: /"
	done
	dmsetup ls 2>/dev/null | awk '$2 ~ /^\(/ { print "dm: " $1 }'
	losetup -a 2>/dev/null | sed 's/^/loop: /'
	for d in /sys/block/*; do
		echo "disk: ${d##*/} $(cat "$d/queue/scheduler" 2>/dev/null)," \
			"$(cat "$d/queue/write_cache" 2>/dev/null)"
	done
	sed 's/^/kprobe: /' $tfs/kprobe_events
	ls $tfs/instances | sed 's/^/trace instance: /'
	echo "tracing_on: $(cat $tfs/tracing_on)"
	echo "trace_clock: $(cat $tfs/trace_clock)"
	echo "current_tracer: $(cat $tfs/current_tracer)"
	echo "buffer_size_kb: $(cat $tfs/buffer_size_kb)"
	sed 's/^/event on: /' $tfs/set_event
	for f in /sys/kernel/debug/failslab/*; do
		[ -f "$f" ] && echo "failslab ${f##*/}: $(cat "$f" 2>/dev/null | xargs)"
	done
	grep -vE ' (proc|sysfs|devtmpfs|9p|tracefs|configfs|debugfs) ' /proc/mounts |
		awk '{ print "mount: " $2 " " $3 }'
}

# foreign state
modprobe null_blk nr_devices=1 gb=1 irqmode=2 completion_nsec=200000 \
	submit_queues=2 hw_queue_depth=8 no_sched=1 shared_tags=1 ||
	echo "guest-dirty: cannot load null_blk with its parameters"
modprobe dm-mod 2>/dev/null    # a module in the lab kernels
dmsetup create lab_dirty --table "0 2048 linear /dev/nullb0 0" ||
	echo "guest-dirty: cannot create dm device lab_dirty"
echo "p:labdirty/vfs_read vfs_read" >>$tfs/kprobe_events ||
	echo "guest-dirty: cannot add kprobe labdirty/vfs_read"
state >"$out/state-0.txt"

# stale objects of an interrupted run, with the tests' own names
if mkdir $cfs/nullb/blk_flush_size; then
	echo 1 >$cfs/nullb/blk_flush_size/power
else
	echo "guest-dirty: cannot create configfs null_blk blk_flush_size"
fi
echo "p:blkselftest/get_tags blk_mq_get_tags" >>$tfs/kprobe_events ||
	echo "guest-dirty: cannot add kprobe blkselftest/get_tags"
echo "guest-dirty: planted; state:"
state | sed 's/^/  /'

for pass in 1 2; do
	mkdir -p "$out/pass$pass"
	echo "=== guest-dirty: pass $pass"
	"$here/guest-selftests.sh" "$ksft" "$out/pass$pass"
	state >"$out/state-$pass.txt"
done
