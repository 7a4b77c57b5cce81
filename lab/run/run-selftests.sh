#!/bin/bash
# Run stage on the host: boot BASE's KERNEL with the disks of make check
# and run every block selftest in it (guest-selftests.sh), then boot it
# once more for each line of lab/run/extra-boots.tsv whose tests this
# base's selftests have, with that line's kernel arguments, and run only
# those tests. OUT/selftests.tsv gets the first boot's lines with those
# tests' lines replaced by the later boot's (the first boot's own are kept
# in OUT/selftests-first-boot.tsv); each later boot's logs, dmesg, rc and
# kernel-warnings flag are in OUT/<name>/ (the first boot's in OUT/).
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
boot() {	# boot DIR [--append ARGS] [TEST...]
	local dir=$1 r
	shift
	local opts=()
	[ -z "${LAB_GUEST_SMP:-}" ] || opts=(--smp "$LAB_GUEST_SMP")
	if [ "${1:-}" = --append ]; then
		opts+=(--append "$2")
		shift 2
	fi
	"$top/lab/boot/run-guest.sh" --timeout 1800 --out "$dir" "${opts[@]}" \
		"${LAB_CHECK_DISKS[@]}" "$b" "$kernel" \
		"$top/lab/run/guest-selftests.sh" "$ksft" /tmp/out "$@"
	r=$?
	[ $rc -ne 0 ] || rc=$r
	return 0
}

boot "$out" "${only[@]}"
if [ -f "$out/selftests.tsv" ]; then
	cp "$out/selftests.tsv" "$out/selftests-first-boot.tsv"
else
	: >"$out/selftests.tsv"
fi
while IFS=$'\t' read -r name args tests; do
	case $name in ''|'#'*) continue ;; esac
	have=""
	for t in $tests; do
		grep -qxF "block:$t" "$ksft/kselftest-list.txt" || continue
		[ ${#only[@]} -eq 0 ] || printf '%s\n' "${only[@]}" | grep -qxF -- "$t" ||
			continue
		have="$have $t"
	done
	[ -n "$have" ] || continue
	echo "run-selftests[$b/$kernel]: boot '$name' ($args):$have"
	boot "$out/$name" --append "$args" $have </dev/null
	# The first boot's lines of these tests (and their subtests) go.
	awk -F'\t' -v drop="$have" '
		BEGIN { n = split(drop, d, " "); for (i = 1; i <= n; i++) skip[d[i]] = 1 }
		{ t = $1; sub(/:[0-9]+$/, "", t) } !(t in skip)' \
		"$out/selftests.tsv" >"$out/selftests.tsv.new"
	if [ -f "$out/$name/selftests.tsv" ]; then
		cat "$out/$name/selftests.tsv" >>"$out/selftests.tsv.new"
	else
		echo "run-selftests[$b/$kernel]: boot '$name' gave no results:$have will be missing" >&2
	fi
	mv "$out/selftests.tsv.new" "$out/selftests.tsv"
done <"$top/lab/run/extra-boots.tsv"
exit $rc
