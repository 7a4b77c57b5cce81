#!/bin/bash
# throwaway: run plug_merge_multi_queue.sh twice, show md state after each
cd "$1" || exit 1
for p in 1 2; do
	./run_kselftest.sh -t block:plug_merge_multi_queue.sh 2>&1 | grep -E "^(not )?ok|# (not )?ok"
	echo "pass $p: sys: $(cd /sys/block && echo md*) dev: $(echo /dev/md /dev/md[0-9]*)"
done
dmesg | grep -i "md12\|autoload" | tail -5
