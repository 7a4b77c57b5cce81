#!/bin/bash
# make bench: the main job. For every base of lab/bases.tsv (or those named
# in LAB_BASE): builds both kernels (reusing the test build), boots each
# with the devices the workloads ask for ("# lab-disk:" lines), runs every
# workload in lab/bench/workloads/ (or those named as arguments), and writes
# results/<date>/ (bench.json with the base of every number, table.txt,
# PNG plots), pointing results/latest at it when it ran every workload on
# every base. Exits non-zero if a workload
# failed on any kernel.
# usage: [LAB_BENCH_ROUNDS=N] [LAB_BENCH_TIMEOUT=S] run-bench.sh [WORKLOAD_NAME...]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
. lab/paths.sh
t0=$(date +%s)
bases=$(lab_bases)
# LAB_BENCH_ROUNDS=N boots base, patched, base, patched, ... N times each,
# so that drift of the host over time does not bias the ratio; the report
# shows the median of the rounds and every round's ratio.
rounds=${LAB_BENCH_ROUNDS:-1}
case $rounds in
''|*[!0-9]*|0*) echo "bench: LAB_BENCH_ROUNDS must be a number >= 1, not '$rounds'" >&2; exit 2 ;;
esac

# LAB_BENCH_TIMEOUT=S: the time limit of one guest (default 3600 s, the
# whole bench in one boot); a guest past it dumps its tasks before the
# kill (lab/boot/guest-hang-dump.sh), so a shorter limit for a few
# workloads makes a hang cheaper.
guest_timeout=${LAB_BENCH_TIMEOUT:-3600}
case $guest_timeout in
''|*[!0-9]*|0*) echo "bench: LAB_BENCH_TIMEOUT must be seconds >= 1, not '$guest_timeout'" >&2; exit 2 ;;
esac

files=$(lab_workload_files bench "$@") || exit 2
mapfile -t workloads <<<"$files"
mapfile -t disks < <(lab_workload_disks "${workloads[@]}")
# Workloads that ask for kernel arguments ("# lab-append:") run in a boot
# of their own per set of arguments, after the boot of all the others;
# each kernel's metrics of all its boots go into one metrics.jsonl. (The
# keys of group[] carry a "k" so that no arguments is a valid key.)
appends=("")
declare -A group=()
for w in "${workloads[@]}"; do
	a=$(lab_workload_append "$w")
	printf '%s\n' "${appends[@]}" | grep -qxF -- "$a" || appends+=("$a")
	group["k$a"]="${group["k$a"]:-} $w"
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
	for r in $(seq "$rounds"); do
		for k in base patched; do
			out=build/$b/bench/$k
			round_tag=""
			[ "$rounds" = 1 ] || round_tag=-round$r
			out=$out$round_tag
			rm -rf "$out"
			mkdir -p "$out"
			for i in "${!appends[@]}"; do
				a=${appends[$i]}
				[ -n "${group["k$a"]:-}" ] || continue
				dir=$out
				[ "$i" = 0 ] || dir=$out/boot-$i
				mkdir -p "$dir"
				echo "=== [$(($(date +%s) - t0)) s] bench on $b/$k, round $r of $rounds${a:+, kernel arguments: $a}"
				# shellcheck disable=SC2086 # the group is a list of paths
				if ! lab/boot/run-guest.sh --timeout "$guest_timeout" --out "$dir" ${a:+--append "$a"} \
					"${disks[@]}" "$b" "$k" "$top/lab/bench/guest-bench.sh" /tmp/out \
					"$top/build/$b/kselftest/block" ${group["k$a"]}; then
					echo "bench: workloads failed on $b/$k: $(cat "$dir/failed" 2>/dev/null | xargs)" \
						"(see $dir/serial.log)" >&2
					failed+=("$b/$k${round_tag:-}${a:+ ($a)}")
				fi
				if [ "$i" != 0 ]; then
					cat "$dir/metrics.jsonl" >>"$out/metrics.jsonl" 2>/dev/null || true
					cat "$dir/failed" >>"$out/failed" 2>/dev/null || true
				fi
			done
			runs+=("$b:$k=$out")
		done
	done
done

accel=$(cat build/accel 2>/dev/null || echo "${LAB_ACCEL:-unknown}")
[ -n "${LAB_ICOUNT:-}" ] && accel="$accel, icount shift=$LAB_ICOUNT"
# Debian's python3 has python3-matplotlib.
/usr/bin/python3 lab/report/bench_report.py "$res" "$accel" "${runs[@]}"
# results/latest is the full job (make bench); a run of some workloads or
# some bases keeps its own directory and leaves latest alone.
if [ $# -eq 0 ] && [ -z "${LAB_BASE:-}" ]; then
	ln -sfn "$stamp" results/latest
	echo "bench: results in $res (results/latest), $(($(date +%s) - t0)) s"
else
	echo "bench: results in $res (a partial run: results/latest unchanged), $(($(date +%s) - t0)) s"
fi
if [ ${#failed[@]} -gt 0 ]; then
	echo "bench: FAILED on: ${failed[*]}" >&2
	exit 1
fi
