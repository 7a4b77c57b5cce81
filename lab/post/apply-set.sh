#!/bin/bash
# Apply one posting set to the base in a scratch repository, after the sets
# it applies on top of, and print its diffstat as git format-patch writes it
# in a cover letter. Fails, naming the patch, when the set does not apply:
# then the split of lab/post/split_sets.py does not hold.
#
# The base files come from TREE with git ls-tree/cat-file at BASE_COMMIT
# (read-only: TREE's index, work tree and refs are not touched).
#
# usage: apply-set.sh TREE BASE_COMMIT SCRATCH FIRST_LIST PATCH...
#   FIRST_LIST  a file naming the patches to apply first, one a line (may be empty)
#   SCRATCH     a directory to create (removed and made anew)
set -euo pipefail
tree=${1:?usage: apply-set.sh TREE BASE_COMMIT SCRATCH FIRST_LIST PATCH...}
base=${2:?}
scratch=${3:?}
first_list=${4:?}
shift 4
[ $# -gt 0 ] || { echo "apply-set: no patch given" >&2; exit 2; }

abs() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
first=() set=()
while IFS= read -r p; do [ -z "$p" ] || first+=("$(abs "$p")"); done <"$first_list"
for p in "$@"; do set+=("$(abs "$p")"); done
for p in "${first[@]}" "${set[@]}"; do
	[ -f "$p" ] || { echo "apply-set: no $p" >&2; exit 2; }
done

# A private git: no user or system configuration changes what it prints.
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 LC_ALL=C
export GIT_AUTHOR_NAME=post GIT_AUTHOR_EMAIL=post@invalid GIT_AUTHOR_DATE='2000-01-01T00:00:00Z'
export GIT_COMMITTER_NAME=post GIT_COMMITTER_EMAIL=post@invalid GIT_COMMITTER_DATE='2000-01-01T00:00:00Z'

rm -rf "$scratch"
mkdir -p "$scratch"
# the old name of every file a patch touches; a file new in the series is not in the base
mapfile -t paths < <(sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' "${first[@]}" "${set[@]}" | sort -u)
git -C "$tree" ls-tree -r "$base" -- "${paths[@]}" |
while IFS=$'\t' read -r meta path; do
	read -r mode _ sha <<<"$meta"
	mkdir -p "$scratch/$(dirname "$path")"
	git -C "$tree" cat-file blob "$sha" >"$scratch/$path"
	[ "$mode" != 100755 ] || chmod +x "$scratch/$path"
done

cd "$scratch"
git init -q .
git add -A
git commit -q --allow-empty -m base
apply() {
	git apply --index --whitespace=nowarn "$1" 2>.git/apply.err || {
		echo "apply-set: $(basename "$1") does not apply: $(head -3 .git/apply.err)" >&2
		exit 1
	}
}
for p in "${first[@]}"; do apply "$p"; done
git commit -q --allow-empty -m first
for p in "${set[@]}"; do apply "$p"; done
git -c diff.renames=true diff --cached --stat=72 --summary HEAD
