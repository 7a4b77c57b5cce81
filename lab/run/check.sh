#!/bin/bash
# make check: the project's test run, source -> build -> boot -> run -> report.
# Installs what is missing, prepares the tree and applies the series, checks
# that re-export is byte-stable, runs checkpatch --strict on every patch,
# builds base and patched kernels, checks that every patch builds on its
# own, boots each kernel and runs the block selftests in it, then prints
# test x kernel against lab/run/expectations.tsv and writes
# results/check-summary.json. Exits non-zero if anything is off.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top"
t0=$(date +%s)
failed=()
timings=()

stage() {
	local name=$1 s rc
	shift
	s=$(date +%s)
	echo
	echo "=== [$(($(date +%s) - t0)) s] $name"
	"$@"
	rc=$?
	timings+=("$(printf '%-22s %5d s  %s' "$name" $(($(date +%s) - s)) "$([ $rc = 0 ] && echo ok || echo FAILED)")")
	[ $rc = 0 ] || failed+=("$name")
	return $rc
}

fatal() {
	echo "check: stage '$1' failed; cannot go on" >&2
	print_timings
	exit 1
}

print_timings() {
	echo
	echo "=== stage timings"
	printf '%s\n' "${timings[@]}"
	echo "total                  $(($(date +%s) - t0)) s"
}

export_is_stable() {
	local tmp rc=0
	tmp=$(mktemp -d)
	lab/source/export-series.sh "$tmp" >/dev/null || return 1
	if ! diff -r -x cover-letter.txt "$tmp" patches >/dev/null ||
	   ! diff -r -x cover-letter.txt patches "$tmp" >/dev/null; then
		echo "export: re-exporting the untouched tree changes patches/:" >&2
		diff -r -u -x cover-letter.txt patches "$tmp" | head -n 40 >&2
		rc=1
	else
		echo "export: byte-stable ($(ls "$tmp" | wc -l) files)"
	fi
	rm -rf "$tmp"
	return $rc
}

# Disks the selftests may read (queue_rqs_order.sh): a virtio-blk disk, one
# whose 16-entry ring without indirect descriptors fills before its tags
# run out, and a QEMU NVMe namespace.
check_disks=(--disk virtio:64M:wc=off --disk virtio:64M:wc=off,qs=16,ind=off
	--disk nvme:64M)

run_selftests_in() {
	local kernel=$1
	rm -rf "build/check/$kernel"
	mkdir -p "build/check/$kernel"
	lab/boot/run-guest.sh --timeout 1800 --out "build/check/$kernel" \
		"${check_disks[@]}" "$kernel" \
		"$top/lab/run/guest-selftests.sh" "$top/build/kselftest" /tmp/out
}

new_kernel_warnings() {
	if [ -f build/check/patched/kernel-warnings ] && [ ! -f build/check/base/kernel-warnings ]; then
		echo "check: the patched kernel logged warnings the base kernel did not:" >&2
		grep -E -m10 'WARNING:|BUG:|possible circular locking|possible recursive locking|inconsistent lock state|blocked for more than' build/check/patched/dmesg.txt >&2
		return 1
	fi
	echo "dmesg: no kernel warnings that the series adds"
}

stage deps lab/deps/install.sh || fatal deps
stage source lab/source/prepare-tree.sh || fatal source
stage export-stable export_is_stable
stage checkpatch lab/source/checkpatch-series.sh
stage "build base" lab/build/build-kernel.sh base || fatal "build base"
stage "build patched" lab/build/build-kernel.sh patched || fatal "build patched"
stage patch-builds lab/build/check-patch-builds.sh
stage "build selftests" lab/build/build-selftests.sh || fatal "build selftests"
stage "selftests base" run_selftests_in base
stage "selftests patched" run_selftests_in patched
stage dmesg new_kernel_warnings

mkdir -p results
echo
echo "=== [$(($(date +%s) - t0)) s] summary"
python3 lab/report/check_summary.py lab/run/expectations.tsv results/check-summary.json \
	base=build/check/base patched=build/check/patched || failed+=(selftests)
print_timings
if [ ${#failed[@]} -gt 0 ]; then
	echo "check: FAILED: ${failed[*]}"
	exit 1
fi
echo "check: all stages passed; results/check-summary.json written"
