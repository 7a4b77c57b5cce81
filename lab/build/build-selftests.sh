#!/bin/bash
# Build stage: build and install the block selftests of a base's patched
# tree into build/<base>/kselftest (the guests of that base run them from
# there on both kernels).
# usage: build-selftests.sh BASE
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
b=${1:?usage: build-selftests.sh BASE}
lab_check_base "$b" || exit 2
dest=$top/build/$b/kselftest
rm -rf "$dest" "$top/build/$b/kselftest-obj"
if [ ! -d "$(lab_tree "$b")/tools/testing/selftests/block" ]; then
	# Nothing to run; lab/run/expectations.tsv says "-" for every test.
	mkdir -p "$dest"
	: >"$dest/kselftest-list.txt"
	echo "selftests[$b]: the series has no block selftests"
	exit 0
fi
make -s -C "$(lab_tree "$b")/tools/testing/selftests" TARGETS=block \
	O="$top/build/$b/kselftest-obj" INSTALL_PATH="$dest" install >/dev/null
echo "selftests[$b]: $(wc -l <"$dest/kselftest-list.txt") block tests installed in ${dest#"$top"/}"
