#!/bin/bash
# make check: the project's test run, source -> build -> boot -> run -> report,
# for every base of lab/bases.tsv (or those named in LAB_BASE).
# Installs what is missing; then per base: prepares the tree and applies the
# series, checks that re-export is byte-stable, runs checkpatch --strict on
# every patch, checks the form of each posting (lab/source/check_postings.py)
# and that make post refuses the repository's identity, builds base and patched kernels, checks that every patch
# builds on its own, checks the exit codes of the selftests' KTAP helpers
# on the host, boots each kernel and runs the block selftests in it, and
# checks that they left no module loaded; on mainline it also packages the
# patched kernel (make deb) and boots that.
# Last it prints test x kernel against lab/run/expectations.tsv and writes
# results/check-summary.json. Exits non-zero if anything is off.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. lab/paths.sh
bases=$(lab_bases) || exit 2
t0=$(date +%s)
failed=()
timings=()

# Each stage's output goes to the terminal and to build/check-logs/, so
# that the end of the run can repeat what a failed stage printed last:
# CI keeps only the tail of a run's output. A stage runs in the pipeline's
# subshell: it cannot change this script's variables (none does).
logs=build/check-logs
rm -rf "$logs"
mkdir -p "$logs"
stage_log() { echo "$logs/${1//[^A-Za-z0-9.]/_}.log"; }

stage() {
	local name=$1 s rc
	shift
	s=$(date +%s)
	echo
	echo "=== [$(($(date +%s) - t0)) s] $name"
	"$@" 2>&1 | tee "$(stage_log "$name")"
	rc=${PIPESTATUS[0]}
	timings+=("$(printf '%-28s %5d s  %s' "$name" $(($(date +%s) - s)) "$([ $rc = 0 ] && echo ok || echo FAILED)")")
	[ $rc = 0 ] || failed+=("$name")
	return $rc
}

fatal() {
	echo "check: stage '$1' failed; cannot go on" >&2
	print_timings
	exit 1
}

print_timings() {
	echo
	echo "=== stage timings"
	mkdir -p results
	{
		printf '%s\n' "${timings[@]}"
		echo "total                        $(($(date +%s) - t0)) s"
	} | tee results/check-timings.txt
}

export_is_stable() {
	local b=$1 tmp rc=0
	tmp=$(mktemp -d)
	lab/source/export-series.sh "$b" "$tmp" >/dev/null || return 1
	if ! diff -r -x cover-letter.txt -x subject-prefix -x cc -x order "$tmp" "patches/$b" >/dev/null ||
	   ! diff -r -x cover-letter.txt -x subject-prefix -x cc -x order "patches/$b" "$tmp" >/dev/null; then
		echo "export[$b]: re-exporting the untouched tree changes patches/$b/:" >&2
		diff -r -u -x cover-letter.txt -x subject-prefix -x cc -x order "patches/$b" "$tmp" | head -n 40 >&2
		rc=1
	else
		echo "export[$b]: byte-stable ($(ls "$tmp" | wc -l) files)"
	fi
	rm -rf "$tmp"
	return $rc
}

run_selftests_in() {
	lab/run/run-selftests.sh "$1" "$2" "build/$1/check/$2"
}

# new_kernel_warnings BASE: a boot of the patched kernel (the first, or one
# of lab/run/extra-boots.tsv) logged warnings the same boot of the base
# kernel did not.
new_kernel_warnings() {
	local d=build/$1/check sub log rc=0
	for sub in . $(awk -F'\t' '!/^#/ && NF { print $1 }' lab/run/extra-boots.tsv); do
		[ -f "$d/patched/$sub/kernel-warnings" ] &&
			[ ! -f "$d/base/$sub/kernel-warnings" ] || continue
		echo "check[$1]: the patched kernel logged warnings the base kernel did not (boot $sub):" >&2
		log=$d/patched/$sub/dmesg.txt
		# a boot whose tasks were dumped near its time limit (run-guest.sh)
		[ ! -f "$d/patched/$sub/dmesg-without-dump.txt" ] ||
			log=$d/patched/$sub/dmesg-without-dump.txt
		grep -E -m10 "$LAB_WARN_RE" "$log" >&2
		rc=1
	done
	[ $rc = 0 ] && echo "dmesg[$1]: no kernel warnings that the series adds"
	return $rc
}

# no_modules_left BASE: the selftests, in every boot of the base and the
# patched kernel, left no module loaded that was not loaded before the
# test that loaded it (OUT/modules-left.tsv of guest-selftests.sh), and
# unloaded none that was loaded before the test (OUT/modules-removed.tsv).
no_modules_left() {
	local d=build/$1/check f r rc=0 n=0
	for f in "$d"/base/modules-left.tsv "$d"/patched/modules-left.tsv \
		"$d"/base/*/modules-left.tsv "$d"/patched/*/modules-left.tsv; do
		case $f in
		*"*"*) continue ;;
		esac
		if [ ! -e "$f" ]; then
			echo "modules[$1]: ${f#"$d"/} is missing (no results, or a kernel without modules)"
			continue
		fi
		n=$((n + 1))
		# A test that failed may leave its modules in use (a kernel
		# that oopsed under it cannot unload them); its failure is
		# judged by the summary. Those of the other tests count.
		left=$(awk -F'\t' 'NR == FNR { if ($2 == "fail") failed[$1] = 1; next }
			!($1 in failed)' "$(dirname "$f")/selftests.tsv" "$f" 2>/dev/null) ||
			left=$(cat "$f")
		if [ -n "$left" ]; then
			echo "check[$1]: the selftests left modules loaded (${f#"$d"/}, test and module):" >&2
			sed 's/^/  /' <<<"$left" >&2
			rc=1
		elif [ -s "$f" ]; then
			echo "modules[$1]: ${f#"$d"/}: modules left by tests that failed (not judged): $(cut -f1 "$f" | sort -u | xargs)"
		fi
		r=${f%-left.tsv}-removed.tsv
		if [ ! -e "$r" ]; then
			echo "modules[$1]: ${r#"$d"/} is missing (a boot from before modules-removed.tsv)"
		elif [ -s "$r" ]; then
			echo "check[$1]: the selftests unloaded modules loaded before them (${r#"$d"/}, test and module):" >&2
			sed 's/^/  /' "$r" >&2
			rc=1
		fi
	done
	[ $rc = 0 ] && echo "modules[$1]: in $n boots the selftests left no module loaded and unloaded none they had not loaded"
	return $rc
}

echo "check: bases: $(echo $bases)"
stage disk lab/deps/check-disk.sh $bases || fatal disk
stage deps lab/deps/install.sh || fatal deps
# make post refuses the repository's identity (a second)
stage "post identity" lab/post/test-post-identity.sh
# check_base BASE: every stage of one base; returns early when a stage
# the next ones need fails (the other bases still run).
check_base() {
	local b=$1
	rm -rf "build/$b/check"
	stage "$b: source" lab/source/prepare-tree.sh "$b" || return 1
	stage "$b: export-stable" export_is_stable "$b"
	stage "$b: checkpatch" lab/source/checkpatch-series.sh "$b"
	# the form of each posting (a second or so; a series passes)
	stage "$b: postings" python3 lab/source/check_postings.py "patches/$b"
	stage "$b: build base" lab/build/build-kernel.sh "$b" base || return 1
	stage "$b: build patched" lab/build/build-kernel.sh "$b" patched || return 1
	stage "$b: patch-builds" lab/build/check-patch-builds.sh "$b"
	stage "$b: build selftests" lab/build/build-selftests.sh "$b" || return 1
	stage "$b: ktap exit codes" lab/run/check-ktap-exit.sh "$b"
	stage "$b: selftests base" run_selftests_in "$b" base
	stage "$b: selftests patched" run_selftests_in "$b" patched
	stage "$b: dmesg" new_kernel_warnings "$b"
	stage "$b: modules left" no_modules_left "$b"
	# make deb's test: about 2 min a base (107 s in a cold run), so only
	# on the base linux-block takes patches against (6.12's packages:
	# make deb, results/deb-6.12-*).
	[ "$b" = mainline ] && stage "$b: deb package" lab/run/check-deb.sh "$b"
	return 0
}

runs=()
for b in $bases; do
	check_base "$b" || echo "check[$b]: a stage failed that the rest of $b needs; going on with the next base" >&2
	# A base whose guests did not run shows its tests as "missing".
	runs+=("$b:base=build/$b/check/base" "$b:patched=build/$b/check/patched")
done

mkdir -p results
echo
echo "=== [$(($(date +%s) - t0)) s] summary"
python3 lab/report/check_summary.py --postings lab/run/test-postings.tsv \
	lab/run/expectations.tsv results/check-summary.json \
	"${runs[@]}" || failed+=(selftests)
print_timings
if [ ${#failed[@]} -gt 0 ]; then
	for f in "${failed[@]}"; do
		[ -s "$(stage_log "$f")" ] || continue
		echo
		echo "=== last lines of stage '$f'"
		tail -n 60 "$(stage_log "$f")"
	done
	echo
	echo "check: FAILED: ${failed[*]}"
	exit 1
fi
echo "check: all stages passed; results/check-summary.json written"
