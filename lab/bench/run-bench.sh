#!/bin/bash
# make bench: the main job. Builds both kernels (reusing the test build),
# boots each with the devices the workloads ask for ("# lab-disk:" lines),
# runs every workload in lab/bench/workloads/ (or those named as
# arguments) and writes results/<date>/ (bench.json, table.txt, PNG plots),
# pointing results/latest at it.
# usage: run-bench.sh [WORKLOAD_NAME...]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
t0=$(date +%s)

if [ $# -gt 0 ]; then
	workloads=()
	for w in "$@"; do
		f=lab/bench/workloads/$w.sh
		[ -f "$f" ] || { echo "bench: no workload $w (see lab/bench/workloads/)" >&2; exit 2; }
		workloads+=("$top/$f")
	done
else
	workloads=("$top"/lab/bench/workloads/*.sh)
fi

lab/deps/install.sh
lab/source/prepare-tree.sh
lab/build/build-kernel.sh base
lab/build/build-kernel.sh patched
lab/build/build-selftests.sh

disks=()
for d in $(sed -n 's/^# lab-disk: \([a-z]*:[^ ]*\).*/\1/p' "${workloads[@]}" | sort -u); do
	disks+=(--disk "$d")
done

stamp=$(date -u +%Y-%m-%dT%H%M%SZ)
res=results/$stamp
mkdir -p "$res"
for k in base patched; do
	rm -rf "build/bench/$k"
	mkdir -p "build/bench/$k"
	echo "=== [$(($(date +%s) - t0)) s] bench on $k"
	lab/boot/run-guest.sh --timeout 2400 --out "build/bench/$k" "${disks[@]}" "$k" \
		"$top/lab/bench/guest-bench.sh" /tmp/out "${workloads[@]}" ||
		echo "bench: some workloads failed on $k (see build/bench/$k/serial.log)" >&2
done

accel=$(cat build/accel 2>/dev/null || echo "${LAB_ACCEL:-unknown}")
# Debian's python3 has python3-matplotlib.
/usr/bin/python3 lab/report/bench_report.py "$res" "$accel" base=build/bench/base patched=build/bench/patched
ln -sfn "$stamp" results/latest
echo "bench: results in $res (results/latest), $(($(date +%s) - t0)) s"
