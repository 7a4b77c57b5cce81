#!/bin/bash
# Series v1 stage (issue 13, the review's lockdep finding; not part of make
# check): build 6.12's series v1 (lab/run/prepare-v1-tree.sh) with the
# lab's config, which has lockdep (lab/build/guest.config), boot it and run
# the dm-multipath flush tests of the patched tree on it. v1 passed clones
# through a path's flush machinery; flush_multipath_fua.sh result 6 must
# fail on it with a lockdep "possible recursive locking" report, which
# shows that the result can fail for the reason it names (on base and
# patched it passes in make check). Writes results/v1/ (selftests.tsv,
# the test logs, dmesg, lockdep-reports.txt, summary.txt); exits non-zero
# if v1 does not fail that way.
# LAB_GUEST_SMP=N boots the guest with N vCPUs, RESULTS_V1=DIR (under
# results/, relative to the repository) writes DIR instead of results/v1.
# usage: run-v1.sh [TEST...]   (default: the three tests below; the list
#                               must include flush_multipath_fua.sh)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. lab/paths.sh
b=6.12
tests=("$@")
[ ${#tests[@]} -gt 0 ] ||
	tests=(flush_multipath_fua.sh flush_multipath.sh flush_multipath_failover.sh)
printf '%s\n' "${tests[@]}" | grep -qxF flush_multipath_fua.sh ||
	{ echo "run-v1: the tests must include flush_multipath_fua.sh" >&2; exit 2; }

out=${RESULTS_V1:-$top/results/v1}
while [ "${out%/}" != "$out" ]; do out=${out%/}; done
case /$out/ in
*/../*|*/./*) out="" ;;
esac
case $out in
results/*[!/]*|"$top"/results/*[!/]*) ;;
*) echo "run-v1: RESULTS_V1 must name a directory under results/, without '..' (it is emptied first)" >&2; exit 2 ;;
esac

lab/run/prepare-v1-tree.sh || exit 1
lab/build/build-kernel.sh "$b" v1 || exit 1
lab/build/build-selftests.sh "$b" || exit 1
rm -rf "$out"
mkdir -p "$out"
lab/boot/run-guest.sh --timeout 2400 --out "$out" ${LAB_GUEST_SMP:+--smp "$LAB_GUEST_SMP"} "$b" v1 \
	"$top/lab/run/guest-selftests.sh" "$top/build/$b/kselftest" /tmp/out "${tests[@]}"
echo $? >"$out/guest-rc"
fua6=$(awk -F'\t' '$1 == "flush_multipath_fua.sh:6" { print $2 }' "$out/selftests.tsv" 2>/dev/null)
# The first line of each lockdep report of the boot
grep -E "WARNING: (possible|inconsistent)|circular locking dependency|lock order detected|held lock freed|bad unlock balance|Nested lock was not taken|sleeping function called from invalid context" \
	"$out/dmesg.txt" >"$out/lockdep-reports.txt" 2>/dev/null
n=$(grep -c . "$out/lockdep-reports.txt")
recursive=$(grep -c "possible recursive locking" "$out/lockdep-reports.txt")
{
	echo "series v1 (6.12.117 + v1), tests: ${tests[*]}, vCPUs: ${LAB_GUEST_SMP:-default}"
	awk -F'\t' '{ printf "  %-32s %s\n", $1, $2 }' "$out/selftests.tsv" 2>/dev/null
	echo "lockdep reports in the boot: $n ($recursive possible recursive locking)"
	sed 's/^/  /' "$out/lockdep-reports.txt"
} >"$out/summary.txt"
cat "$out/summary.txt"
if [ "${fua6:-none}" != fail ] || [ "$recursive" -eq 0 ]; then
	echo "run-v1: flush_multipath_fua.sh:6 ${fua6:-none} with $recursive recursive-locking reports; v1 should fail it with one" >&2
	exit 1
fi
echo "run-v1: flush_multipath_fua.sh:6 fails on v1 with a recursive-locking report, as it should"
