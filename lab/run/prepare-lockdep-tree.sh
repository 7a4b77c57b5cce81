#!/bin/bash
# Source stage of the lockdep kernels: make build/<base>/lockdep-K/linux, a
# worktree of build/<base>/linux, for kernel K:
#   base     tag "base" (the unpacked Debian source)
#   patched  branch "lab" (base + patches/<base>/series)
#   v1       base + series v1, the patches/<base>/ of commit $V1_COMMIT of
#            this repository: the series ../shared/reviews/ reviewed (6.12
#            only). It becomes branch "v1" of the tree, applied with git am
#            as prepare-tree.sh applies the series.
# Each worktree sits beside its own object tree (build-kernel.sh), so the
# three kernels share ccache.
# usage: prepare-lockdep-tree.sh BASE base|patched|v1
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
usage="usage: prepare-lockdep-tree.sh BASE base|patched|v1"
b=${1:?$usage}
k=${2:?$usage}
lab_check_base "$b" || exit 2
# The last commit whose patches/6.12/ is series v1: the next one (efda617)
# replaced it with the backport of mainline v2. Its messages and subject
# prefix had been reworded by then (2213a69); its kernel code is the code
# the review read (0013, the clone flush/FUA policy, is the same diff as
# in 18f0026, rebased).
V1_COMMIT=efda61751a91b8bb84fcf7ba553423a60f629999^

tree=$(lab_tree "$b")
wt=$(lab_src "$b" "lockdep-$k") || exit 2
git -C "$tree" rev-parse -q --verify lab >/dev/null ||
	{ echo "lockdep[$b]: $tree has no branch lab: run lab/source/prepare-tree.sh $b" >&2; exit 1; }

case $k in
base) rev=base ;;
patched) rev=lab ;;
v1)
	rev=v1
	# That commit also has patches/mainline/: the first mainline series,
	# already v2. Series v1 was for 6.12 only.
	[ "$b" = 6.12 ] ||
		{ echo "lockdep[$b]: series v1 was for 6.12 only" >&2; exit 2; }
	if ! git -C "$tree" rev-parse -q --verify refs/heads/v1 >/dev/null; then
		tmp=$(mktemp -d)
		trap 'rm -rf "$tmp"' EXIT
		git -C "$top" archive "$V1_COMMIT" "patches/$b" | tar -x -C "$tmp"
		echo "lockdep[$b]: branch v1: base + $(grep -vc '^\s*#' "$tmp/patches/$b/series") patches of series v1"
		git -C "$tree" branch -f v1 base
		rm -rf "$tmp/wt"
		git -C "$tree" worktree add -q "$tmp/wt" v1
		grep -v '^\s*#' "$tmp/patches/$b/series" | while read -r p; do
			info=$(git -C "$tmp/wt" mailinfo /dev/null /dev/null <"$tmp/patches/$b/$p")
			GIT_COMMITTER_NAME=$(sed -n 's/^Author: //p' <<<"$info") \
			GIT_COMMITTER_EMAIL=$(sed -n 's/^Email: //p' <<<"$info") \
				git -C "$tmp/wt" am -q --committer-date-is-author-date \
					"$tmp/patches/$b/$p" ||
				{ echo "lockdep[$b]: git am of v1 $p failed" >&2
				  git -C "$tmp/wt" am --abort; git -C "$tree" branch -D v1; exit 1; }
		done
		git -C "$tree" worktree remove --force "$tmp/wt"
	fi
	;;
*) echo "$usage" >&2; exit 2 ;;
esac

if ! git -C "$wt" rev-parse -q --verify HEAD >/dev/null 2>&1; then
	rm -rf "$wt"
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" "$rev"
fi
git -C "$wt" checkout -q -f --detach "$rev"
echo "lockdep[$b]: ${wt#"$top"/} at $k ($(git -C "$wt" rev-parse --short=12 HEAD))"
