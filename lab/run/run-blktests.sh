#!/bin/bash
# Run stage of blktests on the host: boot BASE's KERNEL once per TEST (a
# test that oopses or hangs the kernel takes no other test's verdict with
# it; time limit LAB_BLKTESTS_TIMEOUT, default 420 s) and run it there
# (guest-blktests.sh). OUT/blktests.tsv gets "<test>\t<pass|fail|not run>"
# per test; a boot that gave no verdict is "fail", printed with the tail
# of its serial log. Exits 1 if any test did not pass, 2 on bad arguments.
# usage: run-blktests.sh BASE KERNEL OUT TEST...
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
usage="usage: run-blktests.sh BASE KERNEL OUT TEST..."
b=${1:?$usage}
kernel=${2:?$usage}
out=${3:?$usage}
shift 3
[ $# -gt 0 ] || { echo "$usage" >&2; exit 2; }
lab_check_base "$b" || exit 2
lab_check_kernel "$kernel" || exit 2
limit=${LAB_BLKTESTS_TIMEOUT:-420}
[ -x "$top/build/blktests/check" ] ||
	{ echo "run-blktests: no build/blktests: run lab/source/prepare-blktests.sh" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
: >"$out/blktests.tsv"
rc=0
for t in "$@"; do
	[ -f "$top/build/blktests/tests/$t" ] ||
		{ echo "run-blktests: no test $t in build/blktests" >&2; exit 2; }
	d=$out/${t//\//_}
	"$top/lab/boot/run-guest.sh" --timeout "$limit" --out "$d" "$b" "$kernel" \
		"$top/lab/run/guest-blktests.sh" "$top/build/blktests" /tmp/out "$t" </dev/null
	if [ -s "$d/blktests.tsv" ]; then
		cat "$d/blktests.tsv" >>"$out/blktests.tsv"
	else
		printf '%s\tfail\n' "$t" >>"$out/blktests.tsv"
		echo "run-blktests[$b/$kernel]: no verdict for $t (guest exit $(cat "$d/rc" 2>/dev/null || echo none)); its serial log ends:" >&2
		tail -n 40 "$d/serial.log" 2>/dev/null | sed 's/^/  /' >&2
	fi
	grep -q "^$t"$'\t'pass "$out/blktests.tsv" || rc=1
done
cat "$out/blktests.tsv"
exit $rc
