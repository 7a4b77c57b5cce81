#!/bin/bash
# sample every qemu's cpu ticks every 5 s: epoch pid utime stime
hz=$(getconf CLK_TCK)
while pgrep -f "/tmp/cirun17" >/dev/null; do
	for p in $(pgrep -f qemu-system); do
		read -r -a f < /proc/$p/stat 2>/dev/null || continue
		echo "$(date +%s) $p ${f[13]} ${f[14]} $hz"
	done
	# also the whole machine
	echo "$(date +%s) all $(head -1 /proc/stat)"
	sleep 5
done
