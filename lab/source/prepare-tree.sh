#!/bin/bash
# Source stage: unpack a base's Debian kernel source (lab/deps/fetch-source.sh)
# into build/<base>/linux, commit it as a reproducible git base (fixed
# identity and date, tag "base"), apply the patches of patches/<base>/ (its
# series, or the postings of its order file, lab/paths.sh) with git am on
# branch "lab", and check out the base in build/<base>/base/linux for the
# unpatched kernel. Re-running is cheap: nothing is redone while the series
# and the tree are unchanged.
# usage: prepare-tree.sh BASE
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
b=${1:?usage: prepare-tree.sh BASE}
lab_check_base "$b" || exit 2
"$top/lab/deps/fetch-source.sh" "$b"
tree=$(lab_tree "$b")
basetree=$(lab_src "$b" base)
patches=$(lab_patches "$b")
srcdir=$(lab_source_dir "$b")
pkg=$(lab_base_field "$b" 2)
pin=$(lab_base_field "$b" 3)
tarball=$(ls "$srcdir"/usr/src/linux-source-*.tar.xz)
ver=$(cat "$srcdir/version")
if [ "$ver" != "$pin" ]; then
	echo "source[$b]: WARNING: ****************************************************" >&2
	echo "source[$b]: WARNING: $pkg is $ver, not the pinned $pin" >&2
	echo "source[$b]: WARNING: results are not comparable with the pinned base" >&2
	echo "source[$b]: WARNING: ****************************************************" >&2
fi

# The base belongs to the people who made the tarball: Debian's kernel team,
# dated by their changelog entry, so every machine gets the same base hash.
base_name="Debian Kernel Team"
base_email="debian-kernel@lists.debian.org"
base_date=$(zcat "$srcdir/usr/share/doc/$pkg/changelog.Debian.gz" |
	sed -n 's/^ -- .*>  //p' | sed -n 1p)

git_base() {
	GIT_AUTHOR_NAME="$base_name" GIT_AUTHOR_EMAIL="$base_email" \
	GIT_AUTHOR_DATE="$base_date" GIT_COMMITTER_NAME="$base_name" \
	GIT_COMMITTER_EMAIL="$base_email" GIT_COMMITTER_DATE="$base_date" \
	git -C "$tree" "$@"
}

if ! git -C "$tree" rev-parse -q --verify refs/tags/base >/dev/null 2>&1 ||
   [ "$(git -C "$tree" config lab.sourceversion)" != "$ver" ]; then
	echo "source[$b]: unpacking $pkg $ver into ${tree#"$top"/}"
	rm -rf "$tree" "$basetree"
	mkdir -p "$tree"
	tar -C "$tree" --strip-components=1 -xf "$tarball"
	git -C "$tree" init -q -b lab
	git -C "$tree" config lab.sourceversion "$ver"
	git -C "$tree" config gc.auto 0
	git_base add -A -f  # Debian's top-level .gitignore ignores "/*"
	git_base commit -q -m "Linux $ver (Debian $pkg)"
	git_base tag base
	echo "source[$b]: base $(git -C "$tree" rev-parse --short=12 base)"
fi

list=$(lab_patch_files "$b") || { echo "source[$b]: ${patches#"$top"/} has no patches to apply" >&2; exit 1; }
layout=$(lab_layout "$b")
index=series
[ "$layout" = postings ] && index=order
series_id=$(cd "$patches" && cat $index $list | sha1sum | cut -c1-40)
record=$tree/.git/lab-applied
head=$(git -C "$tree" rev-parse HEAD)
dirty=$(git -C "$tree" status --porcelain --untracked-files=no | sed -n 1p)
if [ -f "$record" ] && [ "$(cat "$record")" = "$series_id $head" ] && [ -z "$dirty" ]; then
	echo "source[$b]: series already applied (HEAD $(git -C "$tree" rev-parse --short=12 HEAD))"
else
	if [ -f "$record" ] && [ -z "${LAB_RESET:-}" ] &&
	   { [ -n "$dirty" ] || [ "${head}" != "$(cut -d' ' -f2 "$record")" ]; }; then
		echo "source[$b]: ${tree#"$top"/} has commits or edits that are not in patches/$b/." >&2
		echo "source[$b]: run 'make export' to keep them, or LAB_RESET=1 to drop them." >&2
		exit 1
	fi
	git -C "$tree" am --abort >/dev/null 2>&1 || true
	git -C "$tree" rebase --abort >/dev/null 2>&1 || true
	git -C "$tree" checkout -q -f lab 2>/dev/null || git -C "$tree" checkout -q -f -B lab base
	git -C "$tree" reset -q --hard base
	files=()
	for p in $list; do
		files+=("$patches/$p")
	done
	lab_am "$tree" "${files[@]}" ||
		{ echo "source[$b]: the series does not apply" >&2; exit 1; }
	n=${#files[@]}
	# postings: branch posting/<name> ends each posting; a rebase of lab
	# moves them along (rebase.updateRefs), and make export cuts there
	for r in $(git -C "$tree" for-each-ref --format='%(refname)' refs/heads/posting/); do
		git -C "$tree" update-ref -d "$r"
	done
	if [ "$layout" = postings ]; then
		git -C "$tree" config rebase.updateRefs true
		k=0
		for p in $(lab_postings "$b"); do
			k=$((k + $(grep -c "^$p/" <<<"$list")))
			git -C "$tree" branch -f "posting/$p" "lab~$((n - k))"
		done
	fi
	echo "$series_id $(git -C "$tree" rev-parse HEAD)" >"$record"
	echo "source[$b]: applied $n patches$([ "$layout" = postings ] && echo " in $(lab_postings "$b" | wc -l) postings"), HEAD $(git -C "$tree" rev-parse --short=12 HEAD)"
fi

if [ "$(git -C "$basetree" rev-parse HEAD 2>/dev/null)" != "$(git -C "$tree" rev-parse base)" ]; then
	echo "source[$b]: checking out base in ${basetree#"$top"/}"
	rm -rf "$basetree"
	git -C "$tree" worktree prune
	mkdir -p "$(dirname "$basetree")"
	git -C "$tree" worktree add -q --detach "$basetree" base
fi
