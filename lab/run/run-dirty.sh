#!/bin/bash
# Dirty-machine run (issue 15; not part of make check: it runs every test
# twice): boot BASE's KERNEL (default patched) with the disks of make
# check, leave the machine as an admin and an interrupted earlier run
# might (lab/run/guest-dirty.sh), run every block selftest twice, and
# judge with lab/report/dirty_judge.py: the verdicts of make check, the
# same in both passes, and the machine's state as before. Results in
# results/dirty/<base>-<kernel>/ (summary.txt, the states, each pass's
# logs).
# usage: run-dirty.sh BASE [KERNEL]
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. lab/paths.sh
b=${1:?usage: run-dirty.sh BASE [KERNEL]}
k=${2:-patched}
lab_check_base "$b" || exit 2
lab_check_kernel "$k" || exit 2
lab/build/build-kernel.sh "$b" "$k" || exit 1
lab/build/build-selftests.sh "$b" || exit 1
out=$top/results/dirty/$b-$k
rm -rf "$out"
mkdir -p "$out"
lab/boot/run-guest.sh --timeout 2400 --out "$out" "${LAB_CHECK_DISKS[@]}" "$b" "$k" \
	"$top/lab/run/guest-dirty.sh" "$top/build/$b/kselftest" /tmp/out
rc=$?
[ $rc -eq 0 ] || echo "dirty[$b/$k]: guest exit $rc" >&2
python3 lab/report/dirty_judge.py lab/run/expectations.tsv lab/run/extra-boots.tsv \
	"$b:$k" "$out" || exit 1
exit $rc
