#!/bin/bash
# Build stage: build and install the block selftests of the patched tree
# into build/kselftest (the guests run them from there on both kernels).
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$top/build/kselftest" "$top/build/kselftest-obj"
make -s -C "$top/build/linux/tools/testing/selftests" TARGETS=block \
	O="$top/build/kselftest-obj" INSTALL_PATH="$top/build/kselftest" install >/dev/null
echo "selftests: $(wc -l <"$top/build/kselftest/kselftest-list.txt") block tests installed in build/kselftest"
