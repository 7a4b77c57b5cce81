#!/bin/bash
# Source stage check: scripts/checkpatch.pl --strict (of the base's own
# tree) on every patch of patches/<base>/ (lab_patch_files: the series, or
# every posting). Any ERROR, WARNING or
# CHECK fails, with two exceptions that the tree cannot judge and that are
# checked another way:
#  - UNKNOWN_COMMIT_ID: build/<base>/linux is a tarball import without
#    upstream history, so the ids of Fixes: tags cannot be looked up there
#    (they name mainline commits);
#  - FILE_PATH_CHANGES: checkpatch asks about MAINTAINERS for every added
#    file; instead, each added file must have a maintainer in MAINTAINERS
#    besides "THE REST" (scripts/get_maintainer.pl on the patched tree), so
#    that somebody who maintains that part receives changes to it.
# usage: checkpatch-series.sh BASE
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
b=${1:?usage: checkpatch-series.sh BASE}
lab_check_base "$b" || exit 2
tree=$(lab_tree "$b")
patches=$(lab_patches "$b")
fail=0
list=$(lab_patch_files "$b") || exit 1
for p in $list; do
	# spdxcheck.py wants the Debian python3 with python3-ply and python3-git.
	out=$(cd "$tree" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --terse \
		--no-summary --showfile --ignore UNKNOWN_COMMIT_ID,FILE_PATH_CHANGES \
		"$patches/$p" 2>&1)
	for f in $(sed -n 's|^+++ b/||p' "$patches/$p" | sort -u); do
		grep -q -- "^--- /dev/null" <(grep -B1 -F "+++ b/$f" "$patches/$p") || continue
		(cd "$tree" && perl scripts/get_maintainer.pl --nogit --nogit-fallback \
			--norolestats --no-l --no-r -f "$f" 2>/dev/null) | grep -qv 'torvalds@' ||
			out="$out${out:+$'\n'}$f: new file without a maintainer in MAINTAINERS"
	done
	if [ -n "$out" ]; then
		fail=1
		echo "checkpatch[$b]: $p:"
		echo "$out" | sed 's/^/    /'
	else
		echo "checkpatch[$b]: clean: $p"
	fi
done
exit $fail
