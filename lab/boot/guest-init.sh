#!/bin/bash
# PID 1 of a lab guest. The root is the host's, read-only over 9p. Mounts
# the pseudo filesystems, a tmpfs on /tmp and the results share on /tmp/out,
# points modprobe at the kernel's modules, runs /tmp/out/cmd, stores its
# exit code in /tmp/out/rc and the kernel log in /tmp/out/dmesg.txt, and
# powers off.
# LAB_MODS (kernel command line) is the host directory with lib/modules,
# LAB_TOP the checkout of this repository, LAB_DUMP_AFTER below.
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
export HOME=/tmp TERM=dumb LANG=C.UTF-8

mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
mkdir -p /dev/pts /dev/shm
# devtmpfs lacks what udev would add; the kselftest runner writes to /dev/stdout.
ln -sf /proc/self/fd /dev/fd
ln -sf /proc/self/fd/0 /dev/stdin
ln -sf /proc/self/fd/1 /dev/stdout
ln -sf /proc/self/fd/2 /dev/stderr
mount -t devpts devpts /dev/pts
mount -t tmpfs tmpfs /dev/shm
mount -t tmpfs -o size=75% tmpfs /tmp
mount -t tmpfs tmpfs /run
mount -t configfs configfs /sys/kernel/config
mount -t debugfs debugfs /sys/kernel/debug
mount -t tracefs tracefs /sys/kernel/tracing 2>/dev/null
mkdir -p /tmp/out
mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000 labout /tmp/out
# A checkout under /tmp (or /run) is hidden by the tmpfs mounted there: the
# host shares it as "labrepo", mount it back at the same path.
if [ -n "$LAB_TOP" ] && [ ! -d "$LAB_TOP/lab" ]; then
	mkdir -p "$LAB_TOP"
	mount -t 9p -o trans=virtio,version=9p2000.L,msize=512000,ro labrepo "$LAB_TOP"
fi
# The host has no /lib/modules/<this kernel>: point modprobe at LAB_MODS,
# both for scripts and for the kernel's own module requests.
if [ -n "$LAB_MODS" ]; then
	export MODPROBE_OPTIONS="-d $LAB_MODS"
	echo "$LAB_MODS" >/run/lab-mods
	echo "$(dirname "$0")/guest-modprobe.sh" >/proc/sys/kernel/modprobe
fi
hostname lab-guest
ulimit -l unlimited    # bpftrace maps
echo "guest: $(uname -r) up after $(cut -d' ' -f1 /proc/uptime) s"

cd /tmp || exit 1
# LAB_DUMP_AFTER (kernel command line, set by run-guest.sh from its
# --timeout): a command still running that many seconds after boot gets
# its tasks' states and stacks printed before the host kills the guest.
dump_pid=""
case ${LAB_DUMP_AFTER:-} in
''|*[!0-9]*) ;;
*)
	"$(dirname "$0")/guest-hang-dump.sh" /tmp/out "$LAB_DUMP_AFTER" &
	dump_pid=$!
	;;
esac
if [ -n "$LAB_MODS" ] && [ ! -d "$LAB_MODS/lib/modules/$(uname -r)" ]; then
	# a kernel other than the one built for these modules
	echo "guest: $LAB_MODS has no lib/modules/$(uname -r): not running the command"
	rc=1
else
	bash /tmp/out/cmd </dev/null
	rc=$?
fi
# before /tmp/out goes: end the dump's wait, or let a dump finish
if [ -n "$dump_pid" ]; then
	kill "$dump_pid" 2>/dev/null
	wait "$dump_pid"
fi
dmesg >/tmp/out/dmesg.txt
echo "$rc" >/tmp/out/rc
sync
umount /tmp/out
poweroff -f 2>/dev/null
echo o >/proc/sysrq-trigger
sleep 10
