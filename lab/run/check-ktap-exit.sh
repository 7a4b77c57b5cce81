#!/bin/bash
# check-ktap-exit.sh BASE: the exit codes of the block selftests' KTAP
# helpers, on the host. Fake test files next to a copy of the installed
# common.sh and ktap_helpers.sh (build/<base>/kselftest) must exit 4
# (KSFT_SKIP) when every result is a SKIP, 0 when a result passed and the
# others were skipped or XFAIL, and 1 when one failed, also when more
# results than planned were given. And no installed test file may end with
# ktap_finished, which exits 0 when every result was a SKIP.
set -uo pipefail
b=${1:?usage: check-ktap-exit.sh BASE}
top=$(cd "$(dirname "$0")/../.." && pwd)
ksft=$top/build/$b/kselftest
[ -f "$ksft/block/common.sh" ] && [ -f "$ksft/kselftest/ktap_helpers.sh" ] || {
	echo "ktap-exit[$b]: no installed selftests in $ksft (run lab/build/build-selftests.sh $b)" >&2
	exit 2
}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
mkdir "$dir/block" "$dir/kselftest"
cp "$ksft/block/common.sh" "$dir/block/"
cp "$ksft/kselftest/ktap_helpers.sh" "$dir/kselftest/"

# fake NAME EXPECTED_RC PLAN RESULT...: a test file with PLAN (- for as
# many as results) and one result per word (pass, skip, fail, xfail) that
# ends with blk_finished
fake() {
	local name=$1 want=$2 plan=$3 r rc
	shift 3
	[ "$plan" = - ] && plan=$#
	{
		echo '. "$(dirname "$(readlink -f "$0")")/common.sh"'
		echo 'ktap_print_header'
		echo "ktap_set_plan $plan"
		for r in "$@"; do
			case $r in
			pass) echo 'ktap_test_pass r' ;;
			skip) echo 'ktap_test_skip r' ;;
			fail) echo 'ktap_test_fail r' ;;
			xfail) echo 'blk_test_xfail r' ;;
			esac
		done
		echo 'blk_finished'
	} >"$dir/block/$name.sh"
	bash "$dir/block/$name.sh" >"$dir/$name.out" 2>&1
	rc=$?
	if [ "$rc" -ne "$want" ]; then
		echo "ktap-exit[$b]: $name ($*) exited $rc, expected $want:" >&2
		cat "$dir/$name.out" >&2
		return 1
	fi
	echo "ktap-exit[$b]: $name ($*) exits $rc"
}

ok=0
grep -q '^blk_finished()' "$dir/block/common.sh" || {
	echo "ktap-exit[$b]: common.sh has no blk_finished()" >&2
	exit 1
}
fake all_skip 4 - skip skip || ok=1
fake pass_and_skip 0 - pass skip || ok=1
fake xfail_and_skip 0 - xfail skip || ok=1
fake all_xfail 0 - xfail xfail || ok=1
fake one_fail 1 - pass fail skip || ok=1
fake skips_and_an_unplanned_fail 1 2 skip skip fail || ok=1
for t in "$ksft"/block/*.sh; do
	[ "${t##*/}" = common.sh ] && continue
	if grep -qw ktap_finished "$t"; then
		echo "ktap-exit[$b]: ${t##*/} calls ktap_finished, not blk_finished" >&2
		ok=1
	fi
done
exit $ok
