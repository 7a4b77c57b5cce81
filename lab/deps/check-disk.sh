#!/bin/bash
# Fail early, with the numbers, when the file system of build/ cannot hold
# what make check is about to unpack and build. Each missing part of a
# base is charged what it took for 7.3.4 (6.12 takes less): the git tree
# build/<base>/linux 2.5 GiB, the base worktree and its objects 2.2 GiB,
# the per-patch build worktree 1.8 GiB, the patched objects 0.8 GiB; plus
# 1 GiB of margin for ccache, logs and guests' disk images in /dev/shm's
# absence.
# usage: check-disk.sh BASE...
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
need=1024
for b in "$@"; do
	lab_check_base "$b" || exit 2
	[ -d "$top/build/$b/linux/.git" ] || need=$((need + 2560))
	[ -d "$top/build/$b/base/obj" ] || need=$((need + 2253))
	[ -d "$top/build/$b/linux-bisect" ] || need=$((need + 1843))
	[ -d "$top/build/$b/obj-patched" ] || need=$((need + 819))
done
mkdir -p "$top/build"
have=$(df -P -BM "$top/build" | awk 'NR == 2 { sub(/M$/, "", $4); print $4 }')
if ! [[ $have =~ ^[0-9]+$ ]]; then
	echo "check-disk: cannot read the free space of $top/build from df" >&2
	exit 1
fi
if [ "$have" -lt "$need" ]; then
	echo "check-disk: $top/build has $((have / 1024)).$((have % 1024 * 10 / 1024)) GiB free;" \
		"the bases $* need about $((need / 1024)).$((need % 1024 * 10 / 1024)) GiB" >&2
	echo "check-disk: free some space (old build/ trees or clones) and run again" >&2
	exit 1
fi
echo "check-disk: $((have / 1024)) GiB free, about $((need / 1024)) GiB needed"
