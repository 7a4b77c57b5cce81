#!/bin/bash
# Fail early, with the numbers, when the file system of build/ cannot hold
# what make check is about to unpack and build. A base that was never
# built takes about 7 GiB (measured on 7.3.4: git tree 2.5, base worktree
# 2.2, per-patch build worktree 1.8, objects 0.4); one whose trees exist
# needs room for new objects only.
# usage: check-disk.sh BASE...
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
need=0
for b in "$@"; do
	lab_check_base "$b" || exit 2
	if [ -d "$top/build/$b/base/linux" ] && [ -d "$top/build/$b/linux-bisect" ]; then
		need=$((need + 1))
	else
		need=$((need + 7))
	fi
done
mkdir -p "$top/build"
have=$(df --output=avail -BG "$top/build" | tail -n 1 | tr -dc 0-9)
if [ "$have" -lt "$need" ]; then
	echo "check-disk: $top/build has ${have} GiB free; the bases $* need about ${need} GiB" >&2
	echo "check-disk: free some space (old build/ trees or clones) and run again" >&2
	exit 1
fi
echo "check-disk: ${have} GiB free, about ${need} GiB needed"
