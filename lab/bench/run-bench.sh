#!/bin/bash
# make bench: the main job. For every base of lab/bases.tsv (or those named
# in LAB_BASE): builds both kernels (reusing the test build), boots each
# with the devices the workloads ask for ("# lab-disk:" lines), runs every
# workload in lab/bench/workloads/ (or those named as arguments), and writes
# results/<date>/ (bench.json with the base of every number, table.txt,
# PNG plots), pointing results/latest at it. Exits non-zero if a workload
# failed on any kernel.
# usage: run-bench.sh [WORKLOAD_NAME...]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. lab/paths.sh
t0=$(date +%s)
bases=$(lab_bases)

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

disks=()
for d in $(sed -n 's/^# lab-disk: \([a-z]*:[^ ]*\).*/\1/p' "${workloads[@]}" | sort -u); do
	disks+=(--disk "$d")
done

lab/deps/install.sh
stamp=$(date -u +%Y-%m-%dT%H%M%SZ)
res=results/$stamp
mkdir -p "$res"
runs=() failed=()
for b in $bases; do
	lab/source/prepare-tree.sh "$b"
	lab/build/build-kernel.sh "$b" base
	lab/build/build-kernel.sh "$b" patched
	lab/build/build-selftests.sh "$b"
	for k in base patched; do
		out=build/$b/bench/$k
		rm -rf "$out"
		mkdir -p "$out"
		echo "=== [$(($(date +%s) - t0)) s] bench on $b/$k"
		if ! lab/boot/run-guest.sh --timeout 2400 --out "$out" "${disks[@]}" "$b" "$k" \
			"$top/lab/bench/guest-bench.sh" /tmp/out "$top/build/$b/kselftest/block" \
			"${workloads[@]}"; then
			echo "bench: workloads failed on $b/$k: $(cat "$out/failed" 2>/dev/null | xargs)" \
				"(see $out/serial.log)" >&2
			failed+=("$b/$k")
		fi
		runs+=("$b:$k=$out")
	done
done

accel=$(cat build/accel 2>/dev/null || echo "${LAB_ACCEL:-unknown}")
# Debian's python3 has python3-matplotlib.
/usr/bin/python3 lab/report/bench_report.py "$res" "$accel" "${runs[@]}"
ln -sfn "$stamp" results/latest
echo "bench: results in $res (results/latest), $(($(date +%s) - t0)) s"
if [ ${#failed[@]} -gt 0 ]; then
	echo "bench: FAILED on: ${failed[*]}" >&2
	exit 1
fi
