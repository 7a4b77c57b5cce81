#!/bin/bash
# Source stage check: scripts/checkpatch.pl --strict on every patch in
# patches/series. Any ERROR, WARNING or CHECK fails.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
tree=$top/build/linux
fail=0
for p in $(grep -v '^\s*#' "$top/patches/series"); do
	# spdxcheck.py wants the Debian python3 with python3-ply and python3-git.
	out=$(cd "$tree" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --terse --no-summary \
		--showfile "$top/patches/$p" 2>&1)
	if [ -n "$out" ]; then
		fail=1
		echo "checkpatch: $p:"
		echo "$out" | sed 's/^/    /'
	else
		echo "checkpatch: clean: $p"
	fi
done
exit $fail
