#!/bin/bash
# Experiment (not a test): does md raid1 hand the pieces of one large
# O_DIRECT write that crosses a 64 MiB barrier unit to its members in LBA
# order? 6.12 queues the remainder of raid1's split at the barrier unit
# behind the remainder of md's own split to the queue limits (max_sectors,
# max_segments): both go to the tail of current->bio_list. Mainline puts
# split remainders at the head, and md splits raid1 bios at the barrier
# unit itself (chunk_sectors).
#
# Setup: two null_blk members made through configfs (memory backed,
# 512-byte blocks, 1536 MiB, hardware limit 4 MiB, queue/max_sectors_kb
# 1024), a raid1 of them (metadata 1.2, no bitmap, --assume-clean).
# Each measurement is 20 single 4 MiB writes, write k starting at array
# byte k * 64 MiB - 2 MiB + D (k = 1..20), so that it crosses the k-th
# 64 MiB boundary, for
#   submitter  dd: dd bs=4M count=1 oflag=direct (a user buffer: the
#              block layer builds bios of up to 4 MiB from it, as its
#              pages happen to be physically contiguous)
#              uring: fio, io_uring with a registered buffer (one 4 MiB
#              bio reaches md0; on 6.12 io_uring first tries it with
#              REQ_NOWAIT, which md0 ends with EAGAIN at its first split,
#              and submits it again from its worker: two md0 bios per
#              write there)
#   D          0 (boundary 1 MiB aligned in the write), 12 KiB, 524 KiB
#   scheduler  none, mq-deadline (on both members)
# traced with the tracefs events block_bio_queue (Q), block_split and
# block_rq_issue (D) around each write.
#
# Output: one line per measurement and member, counts summed over the 20
# writes; a sector is 512 bytes, an inversion or seek is counted within
# one 4 MiB write, never between two:
#   md0 bios   Q events on md0 (bios the submitter built), their smallest
#              and largest size in KiB, and block_split events on md0
#   D          write requests issued to the member in the data area
#              (member sector >= the md data offset; superblock writes
#              are left out)
#   inv        inversions: a request issued below the end of an earlier
#              request of the same write
#   seeks      requests that do not start where the request issued
#              before them ended (what a disk head would seek for)
#   wr-inv     writes with at least one inversion
#   Q-inv      inversions in the order raid1 submitted the bios to the
#              member (Q events), before the member's queue
# and, for the first write of each measurement, the order of the D events
# of the first member (start+length in KiB, the start relative to the
# boundary).
# The raw traces are left in /tmp/out/md-raid1-split-order/ when the
# guest has /tmp/out.
# Exit: 0 when every write went through (whatever the order), 1 when
# the setup failed (null_blk, raid1, mdadm, tracefs), 2 when a write
# failed or left no trace.
# Run: lab/boot/run-guest.sh --timeout 600 --out DIR 6.12|mainline \
#        base|patched $PWD/lab/experiments/md-raid1-split-order.sh
T=/sys/kernel/tracing
C=/sys/kernel/config/nullb
MIB=$((1024 * 1024))
REPS=${REPS:-20}
raw=/tmp/md-raid1-split-order
[ -d /tmp/out ] && raw=/tmp/out/md-raid1-split-order
mkdir -p "$raw"

fail() { echo "md-raid1-split-order: $*" >&2; exit 1; }

[ -d $T/events/block ] || mount -t tracefs nodev $T 2>/dev/null
[ -d $T/events/block ] || fail "no tracefs block events"
modprobe null_blk nr_devices=0 || fail "modprobe null_blk failed"
modprobe raid1 || fail "modprobe raid1 failed (kernel built without CONFIG_MD_RAID1?)"
[ -d $C ] || fail "no $C (configfs)"
command -v mdadm >/dev/null || fail "no mdadm"

members=()
for m in r1m0 r1m1; do
	d=$C/$m
	mkdir "$d" || fail "mkdir $d failed"
	for kv in size=1536 memory_backed=1 blocksize=512 max_sectors=8192 power=1; do
		echo "${kv#*=}" >"$d/${kv%%=*}" || fail "null_blk $m: ${kv%%=*} failed"
	done
	[ -b /dev/$m ] || fail "no /dev/$m"
	echo 1024 >/sys/block/$m/queue/max_sectors_kb || fail "max_sectors_kb of $m"
	echo none >"/sys/block/$m/queue/scheduler" || fail "scheduler of $m"
	members+=("$m")
done

# no udev in the guest: mdadm makes no device links and does not wait
export MDADM_NO_UDEV=1
mdadm --create /dev/md0 --run --level=1 --raid-devices=2 --assume-clean \
	--metadata=1.2 --bitmap=none /dev/r1m0 /dev/r1m1 >"$raw/mdadm.log" 2>&1 ||
	{ cat "$raw/mdadm.log" >&2; fail "mdadm --create failed"; }
[ -b /dev/md0 ] || fail "no /dev/md0"
off=$(cat /sys/block/md0/md/dev-r1m0/offset) || fail "no md data offset"
off1=$(cat /sys/block/md0/md/dev-r1m1/offset)
[ "$off" = "$off1" ] || fail "members have different data offsets ($off, $off1)"
md_dev=$(tr : , </sys/block/md0/dev)
m0_dev=$(tr : , </sys/block/r1m0/dev)
m1_dev=$(tr : , </sys/block/r1m1/dev)
echo "== $(uname -r): $(grep '^md0' /proc/mdstat)"
echo "   data offset $off sectors; md0 max_sectors_kb $(cat /sys/block/md0/queue/max_sectors_kb)," \
	"max_segments $(cat /sys/block/md0/queue/max_segments)," \
	"chunk_sectors $(cat /sys/block/md0/queue/chunk_sectors 2>/dev/null);" \
	"members max_sectors_kb $(cat /sys/block/r1m0/queue/max_sectors_kb)," \
	"max_hw_sectors_kb $(cat /sys/block/r1m0/queue/max_hw_sectors_kb)," \
	"max_segments $(cat /sys/block/r1m0/queue/max_segments)," \
	"max_segment_size $(cat /sys/block/r1m0/queue/max_segment_size)," \
	"rotational $(cat /sys/block/r1m0/queue/rotational)"
arr_bytes=$(($(cat /sys/block/md0/size) * 512))
[ "$arr_bytes" -ge $(((REPS * 64 + 3) * MIB)) ] || fail "md0 too small for $REPS writes"

# one write first: md marks the array dirty (a superblock write at member
# sector 8) on it; it does so again after each idle spell longer than
# md/safe_mode_delay, which the data-area filter of summarize leaves out
dd if=/dev/zero of=/dev/md0 bs=4096 count=1 oflag=direct status=none ||
	fail "first write to md0 failed"
sleep 1

echo global >$T/trace_clock
echo 16384 >$T/buffer_size_kb
ev="block_bio_queue block_split block_rq_issue"

write_one() { # SUBMITTER BYTE-OFFSET
	case $1 in
	dd) dd if=/dev/zero of=/dev/md0 bs=$((4 * MIB)) count=1 \
		oflag=direct,seek_bytes seek="$2" status=none ;;
	uring) fio --name=w --filename=/dev/md0 --rw=write --bs=4m --size=4m \
		--offset="$2" --direct=1 --ioengine=io_uring --fixedbufs \
		--iodepth=1 --invalidate=0 --eta=never --output=/dev/null ;;
	esac
}

# summarize TRACE NAME: the lines of the table (see the header)
summarize() {
	awk -v md="$md_dev" -v m0="$m0_dev" -v m1="$m1_dev" -v off="$off" \
		-v name="$2" -v bsec=$((64 * MIB / 512)) '
	function reset(   d) {
		if (rep) for (d in wrinv) if (wrinv[d] == rep) winv[d]++
		split("", hi); split("", last); split("", qhi)
	}
	/tracing_mark_write: lab-rep / {
		reset(); rep = $NF + 0; b = rep * bsec
		if (rep == 1) sample = ""
		next
	}
	{
		for (i = 1; i < NF; i++) if ($i ~ /^block_(bio_queue|split|rq_issue):$/) break
		if (i >= NF || !rep) next
		ev = $i; dev = $(i + 1); rwbs = $(i + 2)
		if (rwbs !~ /W/) next
		if (ev == "block_split:") { if (dev == md) splits++; next }
		for (j = i + 3; j < NF; j++) if ($j == "+") break
		if (j >= NF) next
		s = $(j - 1) + 0; n = $(j + 1) + 0
		if (n == 0) next
		if (ev == "block_bio_queue:") {
			if (dev == md) {
				mdq++; kb = n / 2
				if (!mdmin || kb < mdmin) mdmin = kb
				if (kb > mdmax) mdmax = kb
				next
			}
			if ((dev != m0 && dev != m1) || s < off) next
			if (dev in qhi && s < qhi[dev]) qinv[dev]++
			if (!(dev in qhi) || s + n > qhi[dev]) qhi[dev] = s + n
			next
		}
		# block_rq_issue
		if ((dev != m0 && dev != m1) || s < off) next
		nd[dev]++
		if (dev in hi && s < hi[dev]) { inv[dev]++; wrinv[dev] = rep }
		if (dev in last && s != last[dev]) seeks[dev]++
		if (!(dev in hi) || s + n > hi[dev]) hi[dev] = s + n
		last[dev] = s + n
		if (rep == 1 && dev == m0)
			sample = sample sprintf(" %d+%d", (s - off - b) / 2, n / 2)
	}
	END {
		reset()
		printf "%-28s md0: %3d bios of %d-%d KiB, %3d splits\n", name, mdq, mdmin, mdmax, splits
		for (k = 0; k < 2; k++) {
			d = k ? m1 : m0
			printf "%-28s member %d: D %4d  inv %3d  seeks %3d  wr-inv %2d  Q-inv %3d\n",
				name, k, nd[d], inv[d], seeks[d], winv[d], qinv[d]
		}
		printf "%-28s first write, member 0 (KiB start+length):%s\n", name, sample
	}' "$1"
}

rc=0
for sched in none mq-deadline; do
	for m in "${members[@]}"; do
		echo "$sched" >"/sys/block/$m/queue/scheduler" || fail "scheduler $sched on $m"
	done
	for sub in dd uring; do
		for dk in 0 12 524; do
			name="$sub D=${dk}K $sched"
			f=$raw/trace-$sub-$dk-$sched.txt
			echo >$T/trace
			for e in $ev; do echo 1 >"$T/events/block/$e/enable"; done
			for k in $(seq 1 "$REPS"); do
				echo "lab-rep $k" >$T/trace_marker
				if ! write_one $sub $((k * 64 * MIB - 2 * MIB + dk * 1024)); then
					echo "md-raid1-split-order: $name: write $k failed" >&2
					rc=2
				fi
			done
			for e in $ev; do echo 0 >"$T/events/block/$e/enable"; done
			cat $T/trace >"$f"
			grep -q block_rq_issue "$f" || { echo "md-raid1-split-order: $name: no issue events" >&2; rc=2; }
			summarize "$f" "$name"
		done
	done
done

mdadm --stop /dev/md0 >>"$raw/mdadm.log" 2>&1
for m in "${members[@]}"; do
	echo 0 >"$C/$m/power"
	rmdir "$C/$m"
done
exit $rc
