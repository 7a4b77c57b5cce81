#!/bin/bash
# Inside a lab guest, when the host's time limit is near: print what the
# guest's tasks are doing before the host kills QEMU. For every task that
# is running (R) or in uninterruptible sleep (D): its command line, wchan
# and kernel stack (where the kernel has /proc/PID/stack); then sysrq w
# (blocked tasks, with their stacks) and l (backtraces of all CPUs) into
# the kernel log, and the kernel log into OUT/dmesg-hang.txt.
# All of it goes to the console (the host's serial log) and to
# OUT/hang-dump.txt. The traces of sysrq are not kernel warnings:
# OUT/dmesg-hang-from says where they start.
# usage: guest-hang-dump.sh OUT
out=${1:?usage: guest-hang-dump.sh OUT}
self=$$
dump() {
	echo "guest: still running after $(cut -d' ' -f1 /proc/uptime) s, close to the host's time limit: tasks in R or D state"
	local d pid st comm
	for d in /proc/[0-9]*; do
		pid=${d#/proc/}
		# the dump's own processes
		[ "$pid" = "$self" ] && continue
		[ "$(awk '$1 == "PPid:" { print $2 }' "$d/status" 2>/dev/null)" = "$self" ] && continue
		st=$(sed 's/.*) //' "$d/stat" 2>/dev/null | cut -d' ' -f1)
		case $st in R|D) ;; *) continue ;; esac
		comm=$(tr '\0' ' ' <"$d/cmdline" 2>/dev/null)
		[ -n "$comm" ] || comm="[$(cat "$d/comm" 2>/dev/null)]"
		echo "--- pid $pid state $st wchan $(cat "$d/wchan" 2>/dev/null): $comm"
		cat "$d/stack" 2>/dev/null
	done
	# the kernel log's lines before the dump: run-guest.sh looks for
	# kernel warnings in those only, should the command still end
	dmesg | wc -l >"$out/dmesg-hang-from"
	echo w >/proc/sysrq-trigger
	echo l >/proc/sysrq-trigger
	sleep 2
	echo "guest: sysrq w and l are in the kernel log ($out/dmesg-hang.txt); its last lines:"
	dmesg >"$out/dmesg-hang.txt" 2>/dev/null
	dmesg | tail -n 120
}
dump 2>&1 | tee "$out/hang-dump.txt"
