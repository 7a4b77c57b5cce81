#!/bin/bash
# Mutant stage: prove that the selftests catch what they guard. Each patch
# in lab/mutants/<base>/ breaks one behaviour of the patched kernel and
# names the tests meant to catch it ("Meant to be caught by:"). For every
# base (LAB_BASE limits them): run the selftests on the patched kernel as
# the reference, then for every mutant (or the NAMEs given) apply it to a
# worktree of the patched tree (build/<base>/mutant/linux), build that
# kernel (ccache serves everything but the changed files) and run the
# selftests with the disks of make check. lab/report/mutant_table.py
# prints mutant x test (results/mutants.txt, results/mutants.json) and
# fails if a mutant was not caught by a test meant to catch it.
# A mutant that is the same patch on both bases is kept once, in
# lab/mutants/mainline/, and linked from lab/mutants/6.12/.
# MUTANTS_RESULT=results/mutants-6.12 names the table files of a partial
# run (default results/mutants: .txt and .json). MUTANTS_SCOPE=meant runs,
# on each mutant, only the tests its patch names (a boot of a few minutes
# instead of every test); the reference runs every test, or with
# MUTANTS_REFERENCE=meant only the tests the mutants of this run name (a
# quick check of a few mutants), and the table marks the tests not run.
# usage: run-mutants.sh [NAME...]
set -uo pipefail
shopt -s nullglob
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. lab/paths.sh
bases=$(lab_bases) || exit 2

scope=${MUTANTS_SCOPE:-all}
case ${MUTANTS_REFERENCE:-all} in
all) ;;
meant)
	[ "$scope" = meant ] || { echo "mutants: MUTANTS_REFERENCE=meant needs MUTANTS_SCOPE=meant" >&2; exit 2; } ;;
*) echo "mutants: MUTANTS_REFERENCE is all or meant, not '$MUTANTS_REFERENCE'" >&2; exit 2 ;;
esac
case $scope in
all|meant) ;;
*) echo "mutants: MUTANTS_SCOPE is all or meant, not '$scope'" >&2; exit 2 ;;
esac

# run_selftests BASE KERNEL OUT [TEST...]: the selftests (or only the TESTs)
# in a guest (and the later boots of lab/run/extra-boots.tsv); the exit
# code goes to OUT/guest-rc (124: timeout, 125: died), the TESTs to
# OUT/tests-run.
run_selftests() {
	lab/run/run-selftests.sh "$@"
	local rc=$?
	mkdir -p "$3"
	echo $rc >"$3/guest-rc"
	[ $# -le 3 ] || printf '%s\n' "${@:4}" >"$3/tests-run"
}

# chosen NAME [NAME...]: whether mutant NAME is one of this run's (the
# NAMEs given on the command line; all when none was)
chosen() {
	local name=$1
	shift
	[ $# -eq 0 ] || printf '%s\n' "$@" | grep -qxF -- "$name"
}

# meant_tests PATCH: the test files the patch names as meant to catch it
meant_tests() {
	sed -n 's/^Meant to be caught by: //p' "$1" | tr ',' '\n' |
		sed 's/^ *//; s/:[0-9]* *$//; s/ *$//' | sort -u
}

for name in "$@"; do
	found=0
	for b in $bases; do [ -f "lab/mutants/$b/$name.patch" ] && found=1; done
	[ $found = 1 ] || { echo "mutants: no mutant $name in lab/mutants/{$(echo $bases | tr ' ' ,)}/" >&2; exit 2; }
done

runs=()
wt=""
trap '[ -n "$wt" ] && git -C "$wt" checkout -q -f --detach lab 2>/dev/null' EXIT
for b in $bases; do
	patches=(lab/mutants/"$b"/*.patch)
	[ ${#patches[@]} -gt 0 ] || { echo "mutants[$b]: no mutants in lab/mutants/$b/"; continue; }
	tree=$(lab_tree "$b")
	wt=$(lab_src "$b" mutant)
	git -C "$tree" rev-parse -q --verify lab >/dev/null ||
		{ echo "mutants[$b]: $tree has no branch lab: run lab/source/prepare-tree.sh $b" >&2; exit 1; }
	echo "=== mutants[$b]: the patched kernel, as the reference"
	lab/build/build-kernel.sh "$b" patched || exit 1
	lab/build/build-selftests.sh "$b" || exit 1
	ref_tests=()
	if [ "${MUTANTS_REFERENCE:-all}" = meant ]; then
		for patch in "${patches[@]}"; do
			chosen "$(basename "$patch" .patch)" "$@" || continue
			mapfile -t -O ${#ref_tests[@]} ref_tests < <(meant_tests "$patch")
		done
		mapfile -t ref_tests < <(printf '%s\n' "${ref_tests[@]}" | sort -u | grep .)
		[ ${#ref_tests[@]} -gt 0 ] ||
			echo "mutants[$b]: the mutants of this run name no test: the reference runs every test"
	fi
	run_selftests "$b" patched "build/$b/mutants/patched" "${ref_tests[@]}"
	runs+=("$b:patched=build/$b/mutants/patched")
	if ! git -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
		rm -rf "$wt"
		git -C "$tree" worktree prune
		git -C "$tree" worktree add -q --detach "$wt" lab || exit 1
	fi
	for patch in "${patches[@]}"; do
		name=$(basename "$patch" .patch)
		chosen "$name" "$@" || continue
		out=build/$b/mutants/$name
		rm -rf "$out"
		mkdir -p "$out"
		runs+=("$b:$name=$out")
		echo "=== mutants[$b]: $name: $(sed -n 's/^Mutant: //p' "$patch")"
		git -C "$wt" checkout -q -f --detach lab || exit 1
		if ! git -C "$wt" apply "$top/$patch"; then
			echo "does not apply" >"$out/status"
			continue
		fi
		if ! lab/build/build-kernel.sh "$b" mutant; then
			echo "does not build" >"$out/status"
			continue
		fi
		tests=()
		[ "$scope" = all ] || mapfile -t tests < <(meant_tests "$patch")
		if [ "$scope" = meant ] && [ ${#tests[@]} -eq 0 ]; then
			echo "names no test" >"$out/status"
			continue
		fi
		missing=""
		for t in "${tests[@]}"; do
			grep -qxF "block:$t" "build/$b/kselftest/kselftest-list.txt" ||
				missing="$missing $t"
		done
		if [ -n "$missing" ]; then
			echo "names tests $b does not have:$missing" >"$out/status"
			continue
		fi
		run_selftests "$b" mutant "$out" "${tests[@]}"
	done
	git -C "$wt" checkout -q -f --detach lab
done
out=${MUTANTS_RESULT:-results/mutants}
mkdir -p "$(dirname "$out")"
python3 lab/report/mutant_table.py lab/mutants "$out.json" "${runs[@]}" |
	tee "$out.txt"
