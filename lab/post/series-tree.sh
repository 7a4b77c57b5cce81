#!/bin/bash
# Print the git tree id that the patches give when applied in order to
# BASE_COMMIT of TREE, the way make post checks that the build matrix
# built what it posts. The patches are applied in SCRATCH, a new
# repository that borrows TREE's objects (TREE is only read), with a
# private git configuration, so that no user setting (apply.whitespace)
# changes the result.
# usage: series-tree.sh TREE BASE_COMMIT SCRATCH PATCH...
set -euo pipefail
usage="usage: series-tree.sh TREE BASE_COMMIT SCRATCH PATCH..."
tree=${1:?$usage}
base=${2:?$usage}
scratch=${3:?$usage}
shift 3
[ $# -gt 0 ] || { echo "series-tree: no patch given" >&2; exit 2; }
unset GIT_DIR GIT_WORK_TREE GIT_INDEX_FILE GIT_OBJECT_DIRECTORY GIT_ALTERNATE_OBJECT_DIRECTORIES
export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 LC_ALL=C

objects=$(git -C "$tree" rev-parse --path-format=absolute --git-path objects)
[ -d "$objects" ] || { echo "series-tree: $tree has no object store" >&2; exit 1; }
rm -rf "$scratch"
git init -q "$scratch"
echo "$objects" >"$scratch/.git/objects/info/alternates"
cd "$scratch"
git read-tree "$base"
for p in "$@"; do
	git apply --cached --whitespace=nowarn "$p" 2>.git/apply.err || {
		echo "series-tree: $(basename "$p") does not apply on $base: $(head -n 3 .git/apply.err)" >&2
		exit 1
	}
done
git write-tree
