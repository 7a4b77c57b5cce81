#!/bin/bash
# Inside a lab guest: sleep until DELAY seconds after boot (when the host's
# time limit is near), then print what the guest's tasks are doing before
# the host kills QEMU: sysrq w (blocked tasks, with their stacks) and l
# (backtraces of all CPUs) into the kernel log, between the lines
# "lab-hang-dump: begin" and "lab-hang-dump: end" (run-guest.sh leaves
# them out when it looks for kernel warnings), then every thread in R or D
# state with its name, wchan and kernel stack (where the kernel has
# /proc/PID/stack), and the kernel log into OUT/dmesg-hang.txt. All of it
# goes to the console (the host's serial log) and to OUT/hang-dump.txt.
# A TERM while it sleeps ends it (the command ended in time); once it
# dumps, it finishes.
# usage: guest-hang-dump.sh OUT DELAY
out=${1:?usage: guest-hang-dump.sh OUT DELAY}
delay=${2:?usage: guest-hang-dump.sh OUT DELAY}
up=$(cut -d. -f1 /proc/uptime)
trap 'kill "$sleeper" 2>/dev/null; exit 0' TERM
sleep $((delay > up ? delay - up : 0)) &
sleeper=$!
wait "$sleeper"
trap '' TERM
self=$$
dump() {
	echo "guest: still running after $(cut -d' ' -f1 /proc/uptime) s, close to the host's time limit"
	echo "lab-hang-dump: begin" >/dev/kmsg
	echo w >/proc/sysrq-trigger
	echo l >/proc/sysrq-trigger
	sleep 2
	echo "lab-hang-dump: end" >/dev/kmsg
	echo "guest: threads in R or D state"
	local d pid st comm
	for d in /proc/[0-9]*/task/[0-9]*; do
		pid=${d##*/}
		# the dump's own processes
		[ "$pid" = "$self" ] && continue
		[ "$(awk '$1 == "PPid:" { print $2 }' "$d/status" 2>/dev/null)" = "$self" ] && continue
		st=$(sed 's/.*) //' "$d/stat" 2>/dev/null | cut -d' ' -f1)
		case $st in R|D) ;; *) continue ;; esac
		# comm, not cmdline: reading cmdline waits for the task's mm lock
		comm=$(cat "$d/comm" 2>/dev/null)
		echo "--- tid $pid state $st wchan $(cat "$d/wchan" 2>/dev/null): $comm"
		cat "$d/stack" 2>/dev/null
	done
	echo "guest: sysrq w and l are in the kernel log ($out/dmesg-hang.txt); its last lines:"
	dmesg >"$out/dmesg-hang.txt" 2>/dev/null
	dmesg | tail -n 120
}
dump 2>&1 | tee "$out/hang-dump.txt"
