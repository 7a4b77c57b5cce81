#!/bin/bash
# What each patch of a series costs: builds the kernel after every patch of
# patches/<base>/ that changes kernel code (not tools/, Documentation/ or
# MAINTAINERS), boots base, each of those kernels and patched in turn, runs
# the same workloads in each, and writes results/per-patch-<base>-<date>/
# (per-patch.json, table.txt): every metric per kernel, and its ratio to
# base and to the kernel before it.
#
# By default the guests run under TCG with LAB_ICOUNT=0 (see
# lab/boot/run-guest.sh): the guest clock counts instructions, so a
# CPU-bound rate such as the IOPS of plug-hotpath-randread measures guest
# instructions per I/O (all vCPUs' instructions add up; every instruction
# weighs the same), repeatable to about 0.1 % for that workload whatever
# else the host does. It does not see cache misses or anything else that
# costs time without instructions, and rates that wait for QEMU's device
# threads (virtio-blk, NVMe) mean nothing under it: use it for null_blk
# workloads. LAB_ICOUNT= (empty) runs with the plain accelerator instead.
#
# usage: [LAB_BENCH_ROUNDS=N] [LAB_STEPS="2 5"] run-per-patch.sh BASE [WORKLOAD...]
#   WORKLOAD defaults to plug-hotpath-randread; LAB_STEPS picks the patch
#   numbers to build (default: every patch that changes kernel code).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. lab/paths.sh
t0=$(date +%s)
b=${1:?usage: run-per-patch.sh BASE [WORKLOAD...]}
shift
lab_check_base "$b" || exit 2
export LAB_ICOUNT=${LAB_ICOUNT-0}
if [ -n "$LAB_ICOUNT" ]; then
	case $LAB_ICOUNT in
	*[!0-9]*) echo "per-patch: LAB_ICOUNT must be a shift (0-10), not '$LAB_ICOUNT'" >&2; exit 2 ;;
	esac
	export LAB_ACCEL=tcg
fi
rounds=${LAB_BENCH_ROUNDS:-1}
case $rounds in
''|*[!0-9]*|0*) echo "per-patch: LAB_BENCH_ROUNDS must be a number >= 1, not '$rounds'" >&2; exit 2 ;;
esac
[ $# -gt 0 ] || set -- plug-hotpath-randread
files=$(lab_workload_files per-patch "$@") || exit 2
mapfile -t workloads <<<"$files"
mapfile -t disks < <(lab_workload_disks "${workloads[@]}")
for w in "${workloads[@]}"; do
	if [ -n "$(lab_workload_append "$w")" ]; then
		echo "per-patch: $(basename "$w" .sh) needs kernel arguments ($(lab_workload_append "$w")); run it with run-bench.sh" >&2
		exit 2
	fi
done

lab/deps/install.sh
lab/source/prepare-tree.sh "$b"
tree=$(lab_tree "$b")
lab/build/build-kernel.sh "$b" base
lab/build/build-kernel.sh "$b" patched
lab/build/build-selftests.sh "$b"

# the patches that change kernel code, by their number in the series; the
# last one is the patched kernel itself
kernel_commits=$(git -C "$tree" log --reverse --format=%H base..lab -- . \
	':!tools' ':!Documentation' ':!MAINTAINERS')
steps=()
for c in $kernel_commits; do
	steps+=("$(git -C "$tree" rev-list --count "base..$c")")
done
[ ${#steps[@]} -gt 0 ] || { echo "per-patch[$b]: no patch of the series changes kernel code" >&2; exit 1; }
last=${steps[-1]}
if [ -n "${LAB_STEPS:-}" ]; then
	read -r -a steps <<<"$LAB_STEPS"
else
	steps=("${steps[@]:0:${#steps[@]}-1}")
fi
total=$(git -C "$tree" rev-list --count base..lab)
for n in "${steps[@]}"; do
	case $n in ''|0*|*[!0-9]*) echo "per-patch: LAB_STEPS: '$n' is not a patch number" >&2; exit 2 ;; esac
	[ "$n" -le "$total" ] || { echo "per-patch: no patch $n in a series of $total" >&2; exit 2; }
done
echo "per-patch[$b]: kernels: base, $(for n in "${steps[@]}"; do printf 'step-%s, ' "$n"; done)patched (the last kernel change is patch $last of $total)"

wt=$(lab_src "$b" step-1)
trap '[ -d "$wt" ] && git -C "$wt" checkout -q -f --detach lab 2>/dev/null || true' EXIT
if ! git -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	rm -rf "$wt"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" lab
fi
kernels=(base)
labels=("base")
for n in "${steps[@]}"; do
	c=$(git -C "$tree" rev-list --reverse base..lab | sed -n "${n}p")
	git -C "$wt" checkout -q -f --detach "$c"
	lab/build/build-kernel.sh "$b" "step-$n"
	kernels+=("step-$n")
	labels+=("$n $(git -C "$tree" log -1 --format='%h %s' "$c")")
done
kernels+=(patched)
labels+=("$total (patched)")

stamp=$(date -u +%Y-%m-%dT%H%M%SZ)
res=results/per-patch-$b-$stamp
mkdir -p "$res"
runs=() failed=()
for r in $(seq "$rounds"); do
	for i in "${!kernels[@]}"; do
		k=${kernels[$i]}
		out=build/$b/per-patch/$stamp/$k-round$r
		rm -rf "$out"
		mkdir -p "$out"
		echo "=== [$(($(date +%s) - t0)) s] per-patch on $b/$k, round $r of $rounds"
		if ! lab/boot/run-guest.sh --timeout 2400 --out "$out" "${disks[@]}" "$b" "$k" \
			"$top/lab/bench/guest-bench.sh" /tmp/out "$top/build/$b/kselftest/block" \
			"${workloads[@]}"; then
			echo "per-patch: workloads failed on $b/$k (see $out/serial.log)" >&2
			failed+=("$k-round$r")
		fi
		runs+=("$k=${labels[$i]}=$out")
	done
done

accel=$(cat build/accel 2>/dev/null || echo "${LAB_ACCEL:-unknown}")
[ -n "$LAB_ICOUNT" ] && accel="$accel, icount shift=$LAB_ICOUNT"
/usr/bin/python3 lab/report/per_patch_report.py "$res" "$b" "$accel" "${runs[@]}"
echo "per-patch: results in $res, $(($(date +%s) - t0)) s"
if [ ${#failed[@]} -gt 0 ]; then
	echo "per-patch: FAILED on: ${failed[*]}" >&2
	exit 1
fi
