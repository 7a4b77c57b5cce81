#!/bin/bash
# Run stage, inside a lab guest: run blktests TESTs (e.g. dm/005) from a
# writable copy of build/blktests (the guest's root is read-only) and write
# OUT/blktests.tsv, one line "<test>\t<pass|fail|not run>" per test, from
# blktests' own result files (OUT/results/). A test that left no result
# file (the guest died under it) has no line.
# usage: guest-blktests.sh BLKTESTS_DIR OUT TEST...
src=${1:?usage: guest-blktests.sh BLKTESTS_DIR OUT TEST...}
out=${2:?usage: guest-blktests.sh BLKTESTS_DIR OUT TEST...}
shift 2
[ $# -gt 0 ] || { echo "guest-blktests: no test given" >&2; exit 2; }
cp -a "$src" /tmp/blktests || exit 1
cd /tmp/blktests || exit 1
: >"$out/blktests.tsv"
rc=0
for t in "$@"; do
	./check -o "$out/results" "$t" || rc=1
	f=$(ls "$out"/results/*/"$t" 2>/dev/null | head -n 1)
	[ -n "$f" ] || continue
	printf '%s\t%s\n' "$t" "$(awk -F'\t' '$1 == "status" { print $2 }' "$f")" >>"$out/blktests.tsv"
done
cat "$out/blktests.tsv"
exit $rc
