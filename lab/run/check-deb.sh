#!/bin/bash
# make check's test of make deb: package the patched kernel of BASE from
# the lab configuration (lab/build/build-deb.sh BASE lab: the lab
# kernel's objects are reused), boot the vmlinuz and modules unpacked
# from the linux-image package in the lab guest (kernel "deb"), and run
# one block selftest there. Fails unless the guest ran the package's
# release and the selftest passed.
# usage: check-deb.sh BASE [TEST]   (default TEST: split_bio_merge.sh)
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. lab/paths.sh
b=${1:?usage: check-deb.sh BASE [TEST]}
t=${2:-split_bio_merge.sh}
lab_check_base "$b" || exit 2
lab/build/build-deb.sh "$b" lab || exit 1
lab/build/build-selftests.sh "$b" >/dev/null || exit 1
[ -f "build/$b/kselftest/block/$t" ] || { echo "deb-check[$b]: no selftest $t" >&2; exit 2; }
release=$(cut -f2 "results/deb-$b-lab.txt")
out=$top/build/$b/deb/guest
rm -rf "$out"
lab/boot/run-guest.sh --timeout 600 --out "$out" "$b" deb \
	"$top/lab/run/guest-selftests.sh" "$top/build/$b/kselftest" /tmp/out "$t" >"$out.log" 2>&1
rc=$?
fail() {
	echo "deb-check[$b]: $*" >&2
	tail -n 30 "$out.log" >&2
	exit 1
}
[ $rc -eq 0 ] || fail "the guest exited $rc"
serial=$(tr -d '\r' <"$out/serial.log")
grep -q -F "guest: $release up after" <<<"$serial" ||
	fail "the guest did not run the package's kernel $release"
grep -q -x -F "ok 1 selftests: block: $t" <<<"$serial" || fail "$t did not pass"
echo "deb-check[$b]: the kernel of the linux-image package ($release) booted and passed $t"
