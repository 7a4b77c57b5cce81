#!/bin/bash
# Source stage of series v1, the 6.12 series that ../shared/reviews/ read:
# branch "v1" of build/6.12/linux = tag "base" + the patches/6.12/ of
# commit $V1_COMMIT of this repository, applied with git am as
# prepare-tree.sh applies the series, and the worktree build/6.12/v1/linux
# at it. Needs this repository's full history (not a shallow clone).
# usage: prepare-v1-tree.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
b=6.12
# The last commit whose patches/6.12/ is series v1: the next one (efda617)
# replaced it with the backport of mainline v2. Its messages and subject
# prefix had been reworded by then (2213a69); its kernel code is the code
# the review read (0013, the clone flush/FUA policy, is the same diff as
# in 18f0026, rebased).
V1_COMMIT=efda61751a91b8bb84fcf7ba553423a60f629999^
V1_PATCHES=26

tree=$(lab_tree "$b")
wt=$(lab_src "$b" v1)
git -C "$tree" rev-parse -q --verify refs/tags/base >/dev/null ||
	{ echo "v1: $tree has no tag base: run lab/source/prepare-tree.sh $b" >&2; exit 1; }
if ! git -C "$top" cat-file -e "$V1_COMMIT^{commit}" 2>/dev/null; then
	echo "v1: commit $V1_COMMIT is not in this clone (shallow? git fetch --unshallow)" >&2
	exit 1
fi

have=$(git -C "$tree" rev-list --count base..refs/heads/v1 2>/dev/null || echo 0)
if [ "$have" != $V1_PATCHES ]; then
	tmp=$(mktemp -d)
	trap 'git -C "$tree" worktree remove --force "$tmp/wt" 2>/dev/null;
	      git -C "$tree" worktree prune; rm -rf "$tmp"' EXIT
	git -C "$top" archive "$V1_COMMIT" "patches/$b" | tar -x -C "$tmp"
	list=$(grep -v '^\s*#' "$tmp/patches/$b/series")
	[ "$(wc -l <<<"$list")" = $V1_PATCHES ] ||
		{ echo "v1: $V1_COMMIT has not $V1_PATCHES patches for $b" >&2; exit 1; }
	echo "v1: branch v1 = base + the $V1_PATCHES patches of series v1"
	git -C "$tree" worktree add -q --detach "$tmp/wt" base
	files=()
	for p in $list; do
		files+=("$tmp/patches/$b/$p")
	done
	lab_am "$tmp/wt" "${files[@]}" ||
		{ echo "v1: series v1 does not apply" >&2; exit 1; }
	# Only a complete series becomes the branch.
	git -C "$tree" branch -f v1 "$(git -C "$tmp/wt" rev-parse HEAD)"
fi

if [ ! -e "$wt/.git" ]; then
	rm -rf "$wt"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" v1
fi
git -C "$wt" checkout -q -f --detach v1
echo "v1: ${wt#"$top"/} at v1 ($(git -C "$wt" rev-parse --short=12 HEAD))"
