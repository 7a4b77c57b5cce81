#!/bin/bash
# Source stage of blktests: clone the pinned blktests (a git bundle in
# ../shared/blktests/, upstream commit a608cb56341e) into build/blktests,
# apply patches/blktests/*.patch on branch "lab" with git am, and build its
# helper programs (make). Safe to run again: the branch is made anew from
# the pinned commit each time. Exits 1 with a message when the bundle is
# missing or a patch does not apply.
# usage: prepare-blktests.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
pin=a608cb56341e0f4cacf473f5e0ac6052f1f12de9
bundle=${LAB_BLKTESTS_BUNDLE:-$top/../shared/blktests/blktests.bundle}
dir=$top/build/blktests
if [ ! -d "$dir/.git" ]; then
	[ -f "$bundle" ] ||
		{ echo "blktests: no bundle at $bundle (set LAB_BLKTESTS_BUNDLE)" >&2; exit 1; }
	git clone -q "$bundle" "$dir"
fi
git -C "$dir" cat-file -e "$pin^{commit}" 2>/dev/null ||
	{ echo "blktests: $dir has no commit $pin" >&2; exit 1; }
git -C "$dir" am --abort >/dev/null 2>&1 || true
git -C "$dir" checkout -q -B lab "$pin"
shopt -s nullglob
patches=("$top"/patches/blktests/[0-9][0-9][0-9][0-9]-*.patch)
if [ ${#patches[@]} -gt 0 ]; then
	git -C "$dir" -c user.name=lab -c user.email=lab@localhost am -q --keep-cr "${patches[@]}" ||
		{ echo "blktests: patches/blktests/ does not apply on $pin" >&2; exit 1; }
fi
make -s -C "$dir" -j"$(nproc)" >/dev/null
echo "blktests: build/blktests at $(git -C "$dir" rev-parse --short=12 HEAD) ($pin + ${#patches[@]} patches)"
