#!/bin/bash
# Run stage, inside a lab guest: run every installed block selftest through
# the kselftest runner, one at a time, and append to OUT/selftests.tsv one
# line per test, "<test>\t<pass|fail|skip>\t<seconds>", and one per KTAP
# subtest it reported, "<test>:<N>\t<pass|fail|skip|xfail>\t0". The
# virtio-blk and NVMe disks present at start are offered to the tests in
# BLK_TEST_DISKS. With TEST names, only those tests run. The modules a
# test left loaded that were not loaded before it go to
# OUT/modules-left.tsv, "<test>\t<module>", and those loaded before it
# that it unloaded to OUT/modules-removed.tsv.
# usage: guest-selftests.sh KSELFTEST_INSTALL_DIR OUT [TEST...]
ksft=${1:?usage: guest-selftests.sh KSELFTEST_DIR OUT [TEST...]}
out=${2:?usage: guest-selftests.sh KSELFTEST_DIR OUT [TEST...]}
shift 2
cd "$ksft" || exit 1
tests=$(sed -n 's/^block://p' kselftest-list.txt)
if [ $# -gt 0 ]; then
	for t in "$@"; do
		grep -qxF "$t" <<<"$tests" || {
			echo "guest-selftests: no test $t in $ksft" >&2
			exit 2
		}
	done
	tests="$*"
fi
# The lab's QEMU disks, which tests such as queue_rqs_order.sh may read.
BLK_TEST_DISKS=$(cd /sys/block && ls -d vd* nvme*n* 2>/dev/null | xargs)
export BLK_TEST_DISKS
echo "guest-selftests: BLK_TEST_DISKS=\"$BLK_TEST_DISKS\""
: >"$out/selftests.tsv"
# Without /proc/modules (a kernel without modules) nothing is recorded.
[ -r /proc/modules ] && : >"$out/modules-left.tsv" && : >"$out/modules-removed.tsv"
modules() { cut -d' ' -f1 /proc/modules 2>/dev/null | sort; }
for t in $tests; do
	modules >/tmp/modules-before
	start=$(date +%s.%N)
	./run_kselftest.sh -t "block:$t" 2>&1 | tee "$out/$t.log"
	end=$(date +%s.%N)
	verdict=$(grep -E "^(not )?ok [0-9]+ selftests: block: $t" "$out/$t.log" | tail -n 1)
	case $verdict in
	"not ok"*) result=fail ;;
	*"# SKIP"*) result=skip ;;
	ok*) result=pass ;;
	*) result=fail ;;
	esac
	printf '%s\t%s\t%.1f\n' "$t" "$result" "$(echo "$end - $start" | bc)" >>"$out/selftests.tsv"
	# The test's own KTAP lines reach the runner's output behind "# ".
	grep -E '^# (not )?ok [0-9]+( |$)' "$out/$t.log" | while read -r _ a b c rest; do
		if [ "$a" = not ]; then
			n=$c r=fail
		else
			n=$b r=pass
			case "$c $rest" in
			*"# SKIP"*) r=skip ;;
			*"# XFAIL"*) r=xfail ;;
			esac
		fi
		printf '%s:%s\t%s\t0\n' "$t" "$n" "$r"
	done >>"$out/selftests.tsv"
	if [ -r /proc/modules ]; then
		modules >/tmp/modules-after
		comm -13 /tmp/modules-before /tmp/modules-after |
			sed "s/^/$t\t/" >>"$out/modules-left.tsv"
		comm -23 /tmp/modules-before /tmp/modules-after |
			sed "s/^/$t\t/" >>"$out/modules-removed.tsv"
	fi
done
if [ -s "$out/modules-left.tsv" ]; then
	echo "guest-selftests: modules left loaded by the tests:"
	sed 's/^/  /' "$out/modules-left.tsv"
fi
if [ -s "$out/modules-removed.tsv" ]; then
	echo "guest-selftests: modules loaded before a test and unloaded by it:"
	sed 's/^/  /' "$out/modules-removed.tsv"
fi
