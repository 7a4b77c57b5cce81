#!/bin/bash
# Lockdep stage (not part of make check: lockdep slows every lock operation
# in the guest, and each base needs kernels of its own): for each base
# (LAB_BASE limits them), build the base and patched kernels with
# lab/build/lockdep.config (and series v1's kernel on the bases that had a
# v1: 6.12), boot each, run the dm-multipath flush tests, and judge:
#   - flush_multipath_fua.sh result 6 (no lockdep report while journal
#     commits go through dm-multipath) passes on base and patched, and
#     fails on v1, whose clones went through a path's flush machinery
#     (review finding "lockdep recursion", issue 13);
#   - the base and patched boots log no lockdep report at all.
# Writes results/lockdep/<base>-<kernel>/ (selftests.tsv, the test logs,
# the lockdep reports of the boot), results/lockdep/<base>.tsv and
# results/lockdep/summary.txt (every base's table); exits non-zero if a
# verdict differs from the above.
# usage: run-lockdep.sh [TEST...]   (default: the tests below)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. lab/paths.sh
bases=$(lab_bases) || exit 2
tests=("$@")
[ ${#tests[@]} -gt 0 ] ||
	tests=(flush_multipath_fua.sh flush_multipath.sh flush_multipath_failover.sh)
res=$top/results/lockdep
mkdir -p "$res"
bad=0

# reports DMESG: the first line of each lockdep report in a guest's log
reports() {
	grep -E "WARNING: (possible|inconsistent|suspicious)|circular locking dependency|lock held when returning|bad unlock balance" "$1" 2>/dev/null
}

for b in $bases; do
	summary=$res/$b.tsv
	printf 'base\tkernel\tfua:6\tlockdep reports\texpected\n' >"$summary"
	kernels="base patched"
	lab/run/prepare-lockdep-tree.sh "$b" v1 >/dev/null 2>&1 && kernels="$kernels v1"
	lab/build/build-selftests.sh "$b" || exit 1
	for k in $kernels; do
		echo "=== lockdep[$b/$k]"
		lab/run/prepare-lockdep-tree.sh "$b" "$k" || exit 1
		lab/build/build-kernel.sh "$b" "lockdep-$k" || exit 1
		out=$res/$b-$k
		rm -rf "$out"
		mkdir -p "$out"
		lab/boot/run-guest.sh --timeout 2400 --out "$out" "$b" "lockdep-$k" \
			"$top/lab/run/guest-selftests.sh" "$top/build/$b/kselftest" /tmp/out \
			"${tests[@]}"
		echo $? >"$out/guest-rc"
		fua6=$(awk -F'\t' '$1 == "flush_multipath_fua.sh:6" { print $2 }' \
			"$out/selftests.tsv" 2>/dev/null)
		reports "$out/dmesg.txt" >"$out/lockdep-reports.txt"
		n=$(grep -c . "$out/lockdep-reports.txt")
		if [ "$k" = v1 ]; then
			want="fail"
			[ "$fua6" = fail ] || bad=1
		else
			want="pass, 0 reports"
			[ "$fua6" = pass ] && [ "$n" -eq 0 ] || bad=1
		fi
		printf '%s\t%s\t%s\t%s\t%s\n' "$b" "$k" "${fua6:-none}" "$n" "$want" >>"$summary"
		echo "lockdep[$b/$k]: flush_multipath_fua.sh:6 ${fua6:-none}, $n lockdep reports (want $want)"
		sed 's/^/  /' "$out/lockdep-reports.txt"
	done
done
for f in "$res"/*.tsv; do
	column -t -s $'\t' "$f"
	echo
done | sed '$d' >"$res/summary.txt"
cat "$res/summary.txt"
[ $bad -eq 0 ] || { echo "lockdep: a verdict differs from the expected one" >&2; exit 1; }
echo "lockdep: every verdict as expected"
