#!/bin/bash
# Run stage on the host: boot BASE's KERNEL with the disks of make check
# and run in it every block selftest (guest-selftests.sh) that no line of
# lab/run/extra-boots.tsv names, then boot it once more for each line whose
# tests this base's selftests have, with that line's kernel arguments and
# time limit, and run only those tests. OUT/selftests.tsv gets the first
# boot's lines and each later boot's (the first boot's alone are kept in
# OUT/selftests-first-boot.tsv); each later boot's logs, dmesg, rc and
# kernel-warnings flag are in OUT/<name>/ (the first boot's in OUT/). A
# test of a later boot that gave no result (the guest hung, oopsed or was
# killed at its time limit) gets a line "fail", and the last lines of that
# boot's serial log are printed.
# With TEST names, only those tests run, in the first boot and in the
# later boots whose lines name them. LAB_GUEST_SMP=N boots N vCPUs (the
# guest's default otherwise).
# Exits with the first non-zero guest exit code (124: timeout, 125: died).
# usage: run-selftests.sh BASE KERNEL OUT [TEST...]
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
usage="usage: run-selftests.sh BASE KERNEL OUT [TEST...]"
b=${1:?$usage}
kernel=${2:?$usage}
out=${3:?$usage}
shift 3
only=("$@")
lab_check_base "$b" || exit 2
ksft=$top/build/$b/kselftest
[ -f "$ksft/kselftest-list.txt" ] ||
	{ echo "run-selftests: $ksft has no tests: run lab/build/build-selftests.sh $b" >&2; exit 1; }
for t in "${only[@]}"; do
	grep -qxF "block:$t" "$ksft/kselftest-list.txt" ||
		{ echo "run-selftests: no test $t in $ksft" >&2; exit 2; }
done
rm -rf "$out"
mkdir -p "$out"
out=$(cd "$out" && pwd)
rc=0
boot() {	# boot DIR [--timeout SEC] [--append ARGS] [TEST...]
	local dir=$1 r limit=1800
	shift
	local opts=()
	[ -z "${LAB_GUEST_SMP:-}" ] || opts=(--smp "$LAB_GUEST_SMP")
	if [ "${1:-}" = --timeout ]; then
		limit=$2
		shift 2
	fi
	if [ "${1:-}" = --append ]; then
		opts+=(--append "$2")
		shift 2
	fi
	"$top/lab/boot/run-guest.sh" --timeout "$limit" --out "$dir" "${opts[@]}" \
		"${LAB_CHECK_DISKS[@]}" "$b" "$kernel" \
		"$top/lab/run/guest-selftests.sh" "$ksft" /tmp/out "$@"
	r=$?
	[ $rc -ne 0 ] || rc=$r
	return 0
}

# later_boot_tests: every test that a line of extra-boots.tsv names
later_boot_tests() {
	awk -F'\t' '!/^#/ && NF >= 4 { print $4 }' "$top/lab/run/extra-boots.tsv" |
		tr ' ' '\n' | sed '/^$/d'
}
if [ ${#only[@]} -eq 0 ]; then
	mapfile -t first < <(sed -n 's/^block://p' "$ksft/kselftest-list.txt" |
		grep -vxF -f <(later_boot_tests; echo /))
else
	mapfile -t first < <(printf '%s\n' "${only[@]}" |
		grep -vxF -f <(later_boot_tests; echo /))
fi
if [ ${#first[@]} -gt 0 ]; then
	boot "$out" "${first[@]}"
fi
if [ -f "$out/selftests.tsv" ]; then
	cp "$out/selftests.tsv" "$out/selftests-first-boot.tsv"
else
	: >"$out/selftests.tsv"
fi
while IFS=$'\t' read -r name args limit tests; do
	case $name in ''|'#'*) continue ;; esac
	case $limit in
	''|*[!0-9]*) echo "run-selftests: extra-boots.tsv: boot '$name' has no time limit in seconds" >&2
		exit 2 ;;
	esac
	[ "$args" != - ] || args=""
	have=""
	for t in $tests; do
		grep -qxF "block:$t" "$ksft/kselftest-list.txt" || continue
		[ ${#only[@]} -eq 0 ] || printf '%s\n' "${only[@]}" | grep -qxF -- "$t" ||
			continue
		have="$have $t"
	done
	[ -n "$have" ] || continue
	echo "run-selftests[$b/$kernel]: boot '$name' (${args:-no arguments}, ${limit} s):$have"
	rc_before=$rc
	if [ -n "$args" ]; then
		boot "$out/$name" --timeout "$limit" --append "$args" $have </dev/null
	else
		boot "$out/$name" --timeout "$limit" $have </dev/null
	fi
	[ -f "$out/$name/selftests.tsv" ] || : >"$out/$name/selftests.tsv"
	cat "$out/$name/selftests.tsv" >>"$out/selftests.tsv"
	lost=""
	for t in $have; do
		grep -qF "$t"$'\t' "$out/$name/selftests.tsv" && continue
		lost="$lost $t"
		printf '%s\tfail\t0\n' "$t" >>"$out/selftests.tsv"
	done
	if [ -n "$lost" ]; then
		echo "run-selftests[$b/$kernel]: boot '$name' gave no result for$lost: FAIL (guest exit $(cat "$out/$name/rc" 2>/dev/null || echo none)); its serial log ends:" >&2
		tail -n 40 "$out/$name/serial.log" 2>/dev/null | sed 's/^/  /' >&2
		# the verdict is that FAIL, judged against the expectations;
		# the guest's exit code does not fail the run a second time
		rc=$rc_before
	fi
done <"$top/lab/run/extra-boots.tsv"
exit $rc
