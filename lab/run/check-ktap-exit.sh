#!/bin/bash
# check-ktap-exit.sh BASE: the exit codes of the block selftests' KTAP
# helpers, on the host. Fake test files next to a copy of the installed
# common.sh and ktap_helpers.sh (build/<base>/kselftest) must exit 4
# (KSFT_SKIP) when every result is a SKIP, 0 when a result passed and the
# others were skipped or XFAIL, and 1 when one failed.
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

# fake NAME EXPECTED_RC RESULT...: a test file with one result per word
# (pass, skip, fail, xfail) that ends with blk_finished
fake() {
	local name=$1 want=$2 r rc
	shift 2
	{
		echo '. "$(dirname "$(readlink -f "$0")")/common.sh"'
		echo 'ktap_print_header'
		echo "ktap_set_plan $#"
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
fake all_skip 4 skip skip || ok=1
fake pass_and_skip 0 pass skip || ok=1
fake xfail_and_skip 0 xfail skip || ok=1
fake one_fail 1 pass fail skip || ok=1
exit $ok
