# Where flushes show up in the disk statistics (iostat's r/s and f/s come
# from these fields), for the two kinds of request that op_stat_group()
# used to count as reads: flush clones that dm-multipath sends down its
# paths, and the flushes that native NVMe multipath accounts on its head
# disk. fio: 128 random 4 KiB writes with fsync() after each (fio ends
# on a write: 127 flushes). Reports, per disk, the reads and flushes its
# stat file gained (fields 1 and 16) and the fsync()ed writes per second.
# dm: two scsi_debug hosts on one store, round-robin. NVMe: an nvmet
# namespace on null_blk with a write cache, two nvme-loop controllers.
# lab-disk: (none: scsi_debug, null_blk, nvme-loop)
WL_NAME=flush-accounting
WL_DESC="stat-file reads and flushes of dm-multipath paths and of an NVMe multipath head, 128 writes with fsync()"

FA_FIO="fio --name=fsync --rw=randwrite --bs=4k --direct=1 --ioengine=psync --fsync=1 --number_ios=128 --size=64M --output=/dev/null"

# fa_measure PREFIX TARGET DISK...: run fio on TARGET, emit the stat deltas
# of each DISK as PREFIX_<n>_reads/_flushes (n = 1, 2, ...) and ops/s.
fa_measure() {
	local prefix=$1 target=$2 d n start end
	shift 2
	for d in "$@"; do
		eval "fa_r_$d=$(stat_field "$d" 1) fa_f_$d=$(stat_field "$d" 16)"
	done
	start=$(date +%s.%N)
	$FA_FIO --filename="$target" || return 1
	end=$(date +%s.%N)
	emit "${prefix}_fsync_ops" "$(echo "128 / ($end - $start)" | bc -l)" ops/s "$FA_FIO --filename=$target"
	n=0
	for d in "$@"; do
		n=$((n + 1))
		eval "emit ${prefix}_${n}_reads \$((\$(stat_field $d 1) - fa_r_$d)) count '/sys/block/$d/stat field 1'"
		eval "emit ${prefix}_${n}_flushes \$((\$(stat_field $d 16) - fa_f_$d)) count '/sys/block/$d/stat field 16'"
	done
}

fa_dm() {
	local d dm
	modprobe scsi_debug add_host=2 vpd_use_hostno=0 dev_size_mb=128 delay=0 || return 1
	sleep 1
	set -- $(for d in /sys/bus/pseudo/drivers/scsi_debug/adapter*/host*/target*/*/block/*; do basename "$d"; done)
	[ -b "/dev/$1" ] && [ -b "/dev/$2" ] || return 1
	dmsetup create fa_mp --table "0 $(cat /sys/block/$1/size) multipath 0 0 1 1 round-robin 0 2 1 /dev/$1 1 /dev/$2 1" || return 1
	dm=/dev/$(dmsetup info -c --noheadings -o blkdevname fa_mp)
	fa_measure dm_path "$dm" "$1" "$2" || return 1
	dmsetup remove fa_mp
	modprobe -r scsi_debug
}

fa_nvme() {
	local cfs=/sys/kernel/config/nvmet nqn=nqn.2014-08.org.kernel:bench-flush-accounting
	local port=4078 reply c ctrls="" head rc=0
	modprobe null_blk nr_devices=0 && modprobe nvmet && modprobe nvme-loop || return 1
	mkdir /sys/kernel/config/nullb/fanvme || return 1
	echo 1 >/sys/kernel/config/nullb/fanvme/memory_backed
	echo 64 >/sys/kernel/config/nullb/fanvme/size
	echo 16 >/sys/kernel/config/nullb/fanvme/cache_size
	echo 1 >/sys/kernel/config/nullb/fanvme/power || return 1
	mkdir "$cfs/subsystems/$nqn" "$cfs/subsystems/$nqn/namespaces/1" "$cfs/ports/$port" || return 1
	echo 1 >"$cfs/subsystems/$nqn/attr_allow_any_host"
	echo /dev/fanvme >"$cfs/subsystems/$nqn/namespaces/1/device_path"
	echo 1 >"$cfs/subsystems/$nqn/namespaces/1/enable" || return 1
	echo loop >"$cfs/ports/$port/addr_trtype"
	echo bench-$port >"$cfs/ports/$port/addr_traddr"
	ln -s "$cfs/subsystems/$nqn" "$cfs/ports/$port/subsystems/$nqn" || return 1
	for c in 1 2; do
		exec 3<>/dev/nvme-fabrics
		echo "transport=loop,traddr=bench-$port,nqn=$nqn" >&3 && read -r reply <&3
		exec 3>&-
		[[ $reply =~ ^instance=([0-9]+), ]] || return 1
		ctrls="$ctrls nvme${BASH_REMATCH[1]}"
	done
	sleep 1
	# the first controller's path disk nvme<S>c<C>n1 belongs to head nvme<S>n1
	set -- $ctrls
	head=$(ls -d /sys/class/nvme/$1/nvme*c*n1 2>/dev/null)
	head=$(basename "${head:-none}" | sed 's/c[0-9]*n/n/')
	if [ -b "/dev/$head" ]; then
		echo numa >"/sys/class/nvme-subsystem/nvme-subsys$(echo "$head" | sed 's/^nvme//; s/n[0-9]*$//')/iopolicy"
		fa_measure nvme_head "/dev/$head" "$head" || rc=1
	else
		echo "bench: no NVMe head disk for$ctrls"
		rc=1
	fi
	for c in $ctrls; do echo 1 >"/sys/class/nvme/$c/delete_controller"; done
	rm "$cfs/ports/$port/subsystems/$nqn"
	rmdir "$cfs/ports/$port"
	echo 0 >"$cfs/subsystems/$nqn/namespaces/1/enable"
	rmdir "$cfs/subsystems/$nqn/namespaces/1" "$cfs/subsystems/$nqn"
	echo 0 >/sys/kernel/config/nullb/fanvme/power
	rmdir /sys/kernel/config/nullb/fanvme
	return $rc
}

wl_run() {
	fa_dm || return 1
	fa_nvme
}
