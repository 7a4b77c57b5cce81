#!/bin/bash
# Experiment (not a test): what dm-rq's flush after a FUA write to a path
# without FUA costs and whether it makes progress, at queue depth 1 and 16,
# and on a path with a single tag.
#
# Setup: a loop device over a 256 MiB file in the guest's tmpfs (write
# cache, no FUA; its hw_queue_depth is loop's module parameter, default
# 128) in the first priority group of a dm-multipath table (round-robin,
# no queue_if_no_path), alone ("alone": the dm device has no FUA, and the
# dm queue's flush machinery follows FUA writes with flushes it can
# merge) or with a scsi_debug disk (write cache, FUA) in a second group
# that gets no I/O ("mixed": the dm device has FUA, and dm-rq follows each
# FUA write to the loop device with a flush of its own). Each leg: fio, 4 KiB O_DSYNC direct random writes to
# the dm device for 1024 writes (a FUA write each, then the flush of
# generic_write_sync()), libaio at iodepth 1 and 16, traced with
# block_rq_issue at the loop device and the dm device.
# Legs: loop loaded with its default hw_queue_depth, then loaded again with
# hw_queue_depth=1 (one tag: the flush after a write can only get the tag
# the write held).
# Output: one line per leg: writes, FUA writes and flushes issued to the
# loop device, flushes per write, fio's write IOPS (a time rate: compare
# legs of one run only), and fio's exit code (124: fio did not finish
# within 300 s, the hang a tag livelock would show).
# Exit: 0 when every leg finished, 1 when the setup failed (loop,
# dm-multipath, tracefs, fio), 2 when a leg failed or did not finish.
# Run: lab/boot/run-guest.sh --timeout 1200 --out DIR 6.12|mainline \
#        base|patched $PWD/lab/experiments/dm-fua-post-flush.sh
T=/sys/kernel/tracing
NR=1024
fail() { echo "dm-fua-post-flush: $*" >&2; exit 1; }

for p in fio dmsetup losetup timeout; do
	command -v $p >/dev/null || fail "$p is missing"
done
modprobe dm-multipath && modprobe dm-round-robin || fail "no dm-multipath"
[ -d $T/instances ] || mount -t tracefs nodev $T || fail "no tracefs"
# a tracefs instance of this experiment's own
I=$T/instances/dm_fua_post_flush
mkdir -p $I && [ -e $I/events/block/block_rq_issue/enable ] || fail "no block_rq_issue event"
work=$(mktemp -d) || fail "mktemp"
truncate -s 256M "$work/path" || fail "truncate"

# count DEV TRACE: "writes fua-writes flushes" issued to major:minor DEV
count() {
	awk -v dev="$1" '
	{
		for (i = 1; i < NF; i++)
			if ($i == "block_rq_issue:")
				break
		if (i >= NF || $(i + 1) != dev)
			next
		rwbs = $(i + 2)
		if (rwbs ~ /^F/)
			flush++
		sub(/^F/, "", rwbs)
		if (rwbs ~ /^W/) {
			write++
			if (substr(rwbs, 2) ~ /F/)
				fua++
		}
	}
	END { printf "%d %d %d\n", write, fua, flush }' "$2"
}

modprobe scsi_debug dev_size_mb=256 delay=0 || fail "no scsi_debug"
sd=""
for i in $(seq 50); do
	for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
		[ -e "$d" ] && sd=${d##*/}
	done
	[ -n "$sd" ] && [ -b /dev/$sd ] && break
	sleep 0.1
done
[ -n "$sd" ] || fail "scsi_debug made no disk"

rc=0
for depth_param in default 1; do
for tbl in alone mixed; do
	modprobe -r loop 2>/dev/null
	if [ $depth_param = default ]; then
		modprobe loop || fail "no loop module"
	else
		modprobe loop hw_queue_depth=1 || fail "loop hw_queue_depth=1"
	fi
	loopdev=$(losetup -f --show "$work/path") || fail "losetup"
	b=${loopdev#/dev/}
	if [ $tbl = alone ]; then
		table="0 $(cat /sys/block/$b/size) multipath 0 0 1 1 round-robin 0 1 1 $loopdev 1"
	else
		table="0 $(cat /sys/block/$b/size) multipath 0 0 2 1 round-robin 0 1 1 $loopdev 1"
		table="$table round-robin 0 1 1 /dev/$sd 1"
	fi
	dmsetup create lab_fua_pf --table "$table" || fail "dmsetup create"
	# the kernel's node: without udev, /dev/mapper may have none, and fio
	# would write a regular file of that name
	dmname=dm-$(dmsetup info -c --noheadings -o minor lab_fua_pf)
	dm=/dev/$dmname
	[ -b $dm ] || fail "no block device $dm"
	echo "$tbl, loop hw_queue_depth $depth_param: $b write_cache $(cat /sys/block/$b/queue/write_cache)," \
		"fua $(cat /sys/block/$b/queue/fua), nr_requests $(cat /sys/block/$b/queue/nr_requests);" \
		"$dmname fua $(cat /sys/block/$dmname/queue/fua)"
	for qd in 1 16; do
		echo >$I/trace
		echo 1 >$I/events/block/block_rq_issue/enable
		echo 1 >$I/tracing_on
		timeout -k 10 300 fio --name=pf --filename=$dm --rw=randwrite --bs=4k \
			--size=256M --direct=1 --sync=dsync --ioengine=libaio \
			--iodepth=$qd --number_ios=$NR --output-format=terse \
			--terse-version=3 >"$work/fio.out" 2>"$work/fio.err"
		frc=$?
		echo 0 >$I/events/block/block_rq_issue/enable
		cat $I/trace >"$work/trace"
		[ -d /tmp/out ] && cp "$work/trace" "/tmp/out/trace-$tbl-$depth_param-$qd.txt" &&
			cp "$work/fio.out" "/tmp/out/fio-$tbl-$depth_param-$qd.txt"
		read -r w fua fl <<<"$(count "$(cat /sys/block/$b/dev | tr : ,)" "$work/trace")"
		# terse v3: field 49 is the write IOPS
		iops=$(awk -F';' '{ print $49 }' "$work/fio.out" 2>/dev/null)
		printf "%-5s loop depth %-7s iodepth %2d: %5d writes, %4d FUA, %5d flushes (%.2f per write), %s write IOPS, fio rc %d\n" \
			"$tbl" "$depth_param" "$qd" "${w:-0}" "${fua:-0}" "${fl:-0}" \
			"$(awk -v f="${fl:-0}" -v w="${w:-0}" 'BEGIN { print w ? f / w : 0 }')" \
			"${iops:-?}" "$frc"
		[ $frc -eq 0 ] || { rc=2; cat "$work/fio.err" >&2; }
	done
	dmsetup remove lab_fua_pf || fail "dmsetup remove"
	losetup -d "$loopdev"
done
done
modprobe -r scsi_debug
modprobe -r loop 2>/dev/null
rm -rf "$work"
rmdir $I
exit $rc
