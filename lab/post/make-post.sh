#!/bin/bash
# make post: turn patches/mainline/ into posting sets in results/post/<set>/,
# one set for each tree that takes its patches. Sends nothing.
#
# Each set gets its patches renumbered "[PATCH v2 k/n]" with To:/Cc: headers
# from the base tree's scripts/get_maintainer.pl, a cover letter
# (0000-cover-letter.patch) and send.sh, which prints the git send-email
# command. results/post/sets.txt tells which patch went where. The same
# inputs give the same bytes.
#
# Reads, never writes: patches/mainline/, build/mainline/linux (git
# ls-tree/cat-file/rev-parse and get_maintainer.pl), and the bench.json of
# $LAB_POST_BENCH (several, separated by spaces: a workload's numbers come
# from the newest run that measured it, lab/post/bench_table.py; default
# results/latest/bench.json and the runs lab/post/bench-runs.txt names), and
# results/build-matrix-mainline.txt, which must hold an ok line of every
# leg for the tree the posted patches give (lab/post/series-tree.sh); make
# post runs the stale legs first (lab/build/build-matrix.sh mainline
# --stale), which writes build/mainline/matrix/ and its legs' lines.
#
# usage: lab/post/make-post.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
here=$top/lab/post
base_name=mainline
patches=$(lab_patches "$base_name")
tree=$(lab_tree "$base_name")
# results/latest (the last full make bench) and the runs of some workloads
# that lab/post/bench-runs.txt names (paths from the top of the
# repository, where this script works); each workload from the newest
runs_file=$top/lab/post/bench-runs.txt
bench_default=results/latest/bench.json
[ ! -f "$runs_file" ] ||
	bench_default+=$(sed 's/#.*//' "$runs_file" | awk 'NF { printf " %s", $1 }')
bench=${LAB_POST_BENCH:-$bench_default}
out=$top/results/post
rel() { echo "${1#"$top"/}"; }
die() { echo "post: $*" >&2; exit 1; }
export LC_ALL=C PYTHONDONTWRITEBYTECODE=1
cd "$top"

[ -d "$patches" ] || die "no $(rel "$patches")/: nothing to post (make export writes it)"
[ -f "$patches/series" ] || die "no $(rel "$patches")/series: re-export with make export"
grep -qv '^\s*\(#\|$\)' "$patches/series" || die "$(rel "$patches")/series names no patch"
[ -f "$patches/0000-cover-letter.patch" ] ||
	die "no $(rel "$patches")/0000-cover-letter.patch: re-export with make export"
[ -f "$tree/scripts/get_maintainer.pl" ] ||
	die "no $(rel "$tree")/scripts/get_maintainer.pl: the To/Cc of every patch come from the base tree; run make source first"
command -v perl >/dev/null || die "perl is needed for get_maintainer.pl"
read -ra bench_files <<<"$bench"
[ ${#bench_files[@]} -gt 0 ] || die "LAB_POST_BENCH names no bench.json"
for f in "${bench_files[@]}"; do
	[ -f "$f" ] ||
		die "no $(rel "$f"): the cover letters carry the bench numbers; run make bench first (or LAB_POST_BENCH=results/<run>/bench.json)"
done

work=$top/results/post.new
rm -rf "$work"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/.post"
meta=$work/.post

# a snapshot, so that a re-export while this runs cannot mix two versions
mkdir "$meta/in"
grep -v '^\s*\(#\|$\)' "$patches/series" | while read -r p; do
	[ -f "$patches/$p" ] || die "$(rel "$patches")/series names $p, which is not there"
	cp "$patches/$p" "$meta/in/"
done
cp "$patches/series" "$patches/0000-cover-letter.patch" "$meta/in/"
src=$patches
patches=$meta/in

# base-commit: the one the series was exported against, which must be the tree's base
base=$(sed -n 's/^base-commit: \([0-9a-f]\{40\}\)$/\1/p' "$patches/0000-cover-letter.patch")
tree_base=$(git -C "$tree" rev-parse -q --verify 'refs/tags/base^{commit}' 2>/dev/null) ||
	die "$(rel "$tree") has no tag base: run make source first"
if [ -z "$base" ]; then
	base=$tree_base
elif [ "$base" != "$tree_base" ]; then
	die "$(rel "$src")/0000-cover-letter.patch says base-commit $base, but $(rel "$tree") has base $tree_base: re-export (make export) or prepare the tree again (make source)"
fi

# The build matrix must have passed for the tree the posted patches give;
# its lines are kept for the cover letters.
matrix=$meta/matrix.txt
mapfile -t files < <(grep -v '^\s*\(#\|$\)' "$patches/series" | sed "s|^|$patches/|")
applied=$("$here/series-tree.sh" "$tree" "$base" "$meta/applied" "${files[@]}")
"$top/lab/build/build-matrix.sh" "$base_name" --check "$applied" >"$matrix" ||
	die "the build matrix has not passed for these patches (tree ${applied:0:12}): lab/build/build-matrix.sh $base_name --stale; make export first if build/$base_name/linux has changes that patches/ lacks"

python3 "$here/split_sets.py" "$(rel "$patches")" "$meta" "$(rel "$src")"
python3 "$here/bench_table.py" --check "$bench" "$meta/plan.json"

# To: maintainers and reviewers (no lists); Cc: the lists and the rest, less To
# (b4's split). One pair of files a patch of the series, sorted.
maint() {
	(cd "$tree" && perl scripts/get_maintainer.pl --no-git --no-git-fallback --no-rolestats \
		--no-fixes "$@") 2>"$meta/maint.err" || {
		echo "post: get_maintainer.pl failed on ${*: -1}:" >&2
		cat "$meta/maint.err" >&2
		exit 1
	}
}
while IFS=$'\t' read -r _ _ _ orig _; do
	maint --no-l "$patches/$orig" | sort -u >"$meta/$orig.to"
	maint --no-m "$patches/$orig" | sort -u | comm -23 - "$meta/$orig.to" >"$meta/$orig.cc"
done <"$meta/sets.tsv"
# A selftest or document that split_sets.py moved out of the block set
# also goes to those of its set's code patches: they are asked to take it
# (a dm document under Documentation/block/ would otherwise reach no dm
# maintainer). Those of the block set keep their own recipients.
while IFS=$'\t' read -r set _ _ orig _; do
	[ "$set" != block ] || continue
	! grep -qxF "$orig" "$meta/$set.code" || continue
	[ -s "$meta/$set.code" ] || continue
	for ext in to cc; do
		sed "s|^|$meta/|; s|\$|.$ext|" "$meta/$set.code" | xargs cat |
			sort -u - "$meta/$orig.$ext" >"$meta/$orig.$ext.new"
		mv "$meta/$orig.$ext.new" "$meta/$orig.$ext"
	done
	comm -23 "$meta/$orig.cc" "$meta/$orig.to" >"$meta/$orig.cc.new"
	mv "$meta/$orig.cc.new" "$meta/$orig.cc"
done <"$meta/sets.tsv"

cut -f1 "$meta/sets.tsv" | uniq >"$meta/sets"
while read -r set; do
	dir=$work/$set
	mkdir -p "$dir"
	awk -F'\t' -v s="$set" '$1 == s' "$meta/sets.tsv" >"$meta/$set.tsv"
	while IFS=$'\t' read -r _ k n orig new; do
		python3 "$here/rewrite_patch.py" "$patches/$orig" "$k" "$n" \
			"$meta/$orig.to" "$meta/$orig.cc" "$dir/$new"
	done <"$meta/$set.tsv"
	# the cover letter goes to everyone of its patches
	cut -f4 "$meta/$set.tsv" | sed "s|^|$meta/|; s|\$|.to|" | xargs cat | sort -u >"$meta/$set.to"
	cut -f4 "$meta/$set.tsv" | sed "s|^|$meta/|; s|\$|.cc|" | xargs cat | sort -u |
		comm -23 - "$meta/$set.to" >"$meta/$set.cc"
	# checks that the set applies after the sets it needs, and gives its diffstat
	cut -f5 "$meta/$set.tsv" | sed "s|^|$dir/|" | xargs "$here/apply-set.sh" "$tree" "$base" \
		"$meta/scratch" "$meta/$set.first" >"$meta/$set.stat"
	python3 "$here/cover_letter.py" "$meta/plan.json" "$set" "$patches/0000-cover-letter.patch" \
		"$bench" "$base" "$meta/$set.to" "$meta/$set.cc" "$meta/$set.stat" \
		"$matrix" "$dir/0000-cover-letter.patch"
	python3 "$here/send_script.py" "$dir"
	echo "post: $set: $(wc -l <"$meta/$set.tsv") patch(es), cover letter To $(wc -l <"$meta/$set.to"), Cc $(wc -l <"$meta/$set.cc") -> $(rel "$out")/$set/"
done <"$meta/sets"

cp "$meta/sets.txt" "$work/sets.txt"
rm -rf "$meta"
rm -rf "$out"
mv "$work" "$out"
trap - EXIT
cat "$out/sets.txt"
echo "post: nothing was sent; review $(rel "$out")/, then run each set's send.sh"
