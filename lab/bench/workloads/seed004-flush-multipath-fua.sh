# FUA writes through dm-multipath to a path with a write cache and no FUA
# (seed 004 territory). Path A is a scsi_debug disk (write cache, FUA;
# delay=1: every command takes one jiffy, 1 ms at the lab's HZ, and a
# SYNCHRONIZE CACHE after writes scsi_debug's long delay, 1/20 s), path B a
# loop device over a file in the guest's tmpfs (write cache, no FUA: loop
# writes a FUA write into the file's page cache like any other; a flush is
# an fsync() of the file, which costs tmpfs nothing). B is alone in the
# first priority group and gets all I/O; A, in the second, only makes the
# dm device see a path with FUA. ext4 on the dm device. The workload fails
# unless A reports FUA and B a write cache without FUA.
# Legs (fio, 256 I/Os each):
#   dsync:  4 KiB O_DSYNC direct overwrites of an allocated file (iomap
#           writes them with FUA and no flush when the dm device reports FUA)
#   commit: 4 KiB appends, fsync() after each (one journal commit each, its
#           commit block a PREFLUSH|FUA write)
#   fua_path: a table of A alone, 4 KiB O_SYNC writes on the dm device (the
#           guard: FUA kept where every path has it)
#   noflush_dsync: that table reloaded with noflush (load, resume
#           --noflush: how multipathd adds a path) to the table of B and A,
#           then dsync again; with the dm device's queue/fua after the
#           reload (1 with the series, which decides FUA per path)
#   noflush_wc_fsync: A's cache turned off (no write cache, no FUA), a
#           table of A alone reloaded with noflush to the table of B and A
#           (B has a write cache), then 4 KiB writes with fsync() on the dm
#           device; with whether it reports a write cache after the reload
#           (where it does not, every flush ends at the dm device)
# Reports ops/s, the dm device's queue/fua, and the writes, FUA writes and
# flushes each path was sent (block:block_rq_issue). B's FUA writes are
# writes nothing makes durable: B has no FUA and no flush follows them.
# lab-disk: (none: scsi_debug and loop)
WL_NAME=seed004-flush-multipath-fua
WL_DESC="dm-multipath over a scsi_debug path with FUA and a loop path without: ext4 O_DSYNC overwrites and fsync() appends, FUA writes and flushes per path"

FF_NR=256

# ff_emit LEG: writes, flushes and FUA writes per path from trace.txt
ff_emit() {
	local p dev
	for p in A B; do
		eval "dev=\$FF_$p"
		emit_path_counts "$1" $p "$(tr ':' ',' <"/sys/block/$dev/dev")"
	done
}

# ff_fio LEG ARGS...: one fio run, traced; ops/s from the wall clock
ff_fio() {
	local leg=$1 start end
	shift
	rq_issue_trace_start
	start=$(date +%s.%N)
	timeout -k 10 300 fio --name="$leg" --bs=4k --number_ios=$FF_NR --eta=never --output=/dev/null "$@" || return 1
	end=$(date +%s.%N)
	rq_issue_trace_stop
	emit "${leg}_ops" "$(echo "$FF_NR / ($end - $start)" | bc -l)" ops/s "fio $* (I/Os per wall-clock second)"
	ff_emit "$leg"
}

ff_run() {
	local d dm table_ba mark
	modprobe scsi_debug add_host=1 dev_size_mb=128 delay=1 || return 1
	modprobe loop 2>/dev/null
	for _ in $(seq 50); do
		for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do
			[ -e "$d" ] && FF_A=$(basename "$d")
		done
		[ -n "$FF_A" ] && [ -b "/dev/$FF_A" ] && break
		sleep 0.1
	done
	[ -n "$FF_A" ] && [ -b "/dev/$FF_A" ] || return 1
	FF_FILE=$(mktemp) || return 1
	truncate -s 128M "$FF_FILE" || return 1
	FF_LOOP=$(losetup -f --show "$FF_FILE") || return 1
	FF_B=${FF_LOOP#/dev/}
	echo "bench: $WL_NAME: $FF_A fua $(cat /sys/block/$FF_A/queue/fua), $FF_B $(cat /sys/block/$FF_B/queue/write_cache) fua $(cat /sys/block/$FF_B/queue/fua)"
	if [ "$(cat /sys/block/$FF_A/queue/fua)" != 1 ] ||
	   [ "$(cat /sys/block/$FF_B/queue/write_cache)" != "write back" ] ||
	   [ "$(cat /sys/block/$FF_B/queue/fua)" != 0 ]; then
		echo "bench: $WL_NAME: $FF_A must report FUA, $FF_B a write cache without FUA" >&2
		return 1
	fi

	# B alone in the first priority group, A in the second
	table_ba="0 $(cat /sys/block/$FF_B/size) multipath 0 0 2 1 round-robin 0 1 1 $FF_LOOP 1 round-robin 0 1 1 /dev/$FF_A 1"
	dmsetup create ff_mp --table "$table_ba" || return 1
	dm=/dev/$(dmsetup info -c --noheadings -o blkdevname ff_mp)
	emit dm_reports_fua "$(cat /sys/block/${dm#/dev/}/queue/fua)" 0/1 "queue/fua of the dm device over both paths"
	mkfs.ext4 -q -F -E nodiscard,lazy_journal_init=1 "$dm" || return 1
	mkdir -p ffm && mount -o noatime,noinit_itable "$dm" ffm || return 1
	fio --name=layout --filename=ffm/overwrite --rw=write --bs=1M --size=16M --direct=1 --end_fsync=1 --output=/dev/null || return 1
	sync
	ff_fio dsync --filename=ffm/overwrite --rw=randwrite --size=16M --direct=1 --sync=dsync --ioengine=psync || return 1
	sync
	ff_fio commit --filename=ffm/append --rw=write --size=$((FF_NR * 4))k --ioengine=psync --fsync=1 || return 1
	umount ffm
	dmsetup remove --retry ff_mp || return 1

	dmsetup create ff_mp --table "0 $(cat /sys/block/$FF_A/size) multipath 0 0 1 1 round-robin 0 1 1 /dev/$FF_A 1" || return 1
	dm=/dev/$(dmsetup info -c --noheadings -o blkdevname ff_mp)
	ff_fio fua_path --filename="$dm" --rw=randwrite --size=64M --direct=1 --sync=1 --ioengine=psync || return 1

	# noflush: the table of A alone reloaded the way multipathd adds a
	# path (load, resume --noflush) to the table of B and A
	dmsetup load ff_mp --table "$table_ba" || return 1
	dmsetup resume --noflush ff_mp || return 1
	emit noflush_dm_reports_fua "$(cat /sys/block/${dm#/dev/}/queue/fua)" 0/1 "queue/fua of the dm device after a noflush reload adding the path without FUA"
	mount -o noatime,noinit_itable "$dm" ffm || return 1
	sync
	ff_fio noflush_dsync --filename=ffm/overwrite --rw=randwrite --size=16M --direct=1 --sync=dsync --ioengine=psync || return 1
	umount ffm
	dmsetup remove --retry ff_mp || return 1

	# noflush_wc: from a table without a write cache (A's turned off) to
	# the table of B and A, the way multipathd adds a path
	for d in /sys/block/$FF_A/device/scsi_disk/*/cache_type; do
		echo "write through" >"$d" || return 1
	done
	dmsetup create ff_mp --table "0 $(cat /sys/block/$FF_A/size) multipath 0 0 1 1 round-robin 0 1 1 /dev/$FF_A 1" || return 1
	dm=/dev/$(dmsetup info -c --noheadings -o blkdevname ff_mp)
	# with the series a request-based dm device reports a write cache
	# whatever its paths report; the path must not
	if [ "$(cat /sys/block/$FF_A/queue/write_cache)" != "write through" ]; then
		echo "bench: $WL_NAME: $FF_A with its cache off reports a write cache" >&2
		return 1
	fi
	dmsetup load ff_mp --table "$table_ba" || return 1
	dmsetup resume --noflush ff_mp || return 1
	d=0
	[ "$(cat /sys/block/${dm#/dev/}/queue/write_cache)" = "write back" ] && d=1
	emit noflush_wc_dm_write_cache "$d" 0/1 "the dm device reports a write cache after a noflush reload from a table without one to the table of B and A (queue/write_cache)"
	ff_fio noflush_wc_fsync --filename="$dm" --rw=randwrite --size=64M --direct=1 --fsync=1 --ioengine=psync || return 1
	dmsetup remove --retry ff_mp
}

# ff_cleanup: undo what ff_run set up, whatever happened
ff_cleanup() {
	umount ffm 2>/dev/null
	dmsetup remove --retry ff_mp 2>/dev/null
	[ -n "$FF_LOOP" ] && losetup -d "$FF_LOOP" 2>/dev/null
	[ -n "$FF_FILE" ] && rm -f "$FF_FILE"
	rq_issue_trace_off
	modprobe -r scsi_debug 2>/dev/null
}

wl_run() {
	use_blk_count_issued || return 1
	ff_run
	set -- $?
	ff_cleanup
	return "$1"
}
