#!/bin/bash
# Build stage: build one guest kernel (base or patched) in its own O= tree
# with ccache, from tinyconfig + lab/build/guest.config, and install its
# modules under build/mods-<kernel> for the guest to bind-mount.
# Usage: build-kernel.sh base|patched
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
kernel=${1:?usage: build-kernel.sh base|patched}
. "$top/lab/paths.sh"
src=$(lab_src "$kernel") || exit 2
obj=$(lab_obj "$kernel")
mods=$(lab_mods "$kernel")
frag=$top/lab/build/guest.config
[ -f "$src/Makefile" ] || { echo "build: $src missing: run lab/source/prepare-tree.sh" >&2; exit 1; }

# Same compiler inputs in both trees, so ccache serves the second build.
export CCACHE_BASEDIR=$top/build CCACHE_NOHASHDIR=true
export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
export KBUILD_BUILD_TIMESTAMP="2026-01-01 00:00:00 UTC" KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab
kmake() { make -s -C "$src" O="$obj" CC="ccache gcc" LOCALVERSION="-$kernel" -j"$(nproc)" "$@"; }

start=$(date +%s)
config_id=$(cat "$frag" "$0" | sha1sum | cut -c1-40)
if [ ! -f "$obj/.config" ] || [ "$(cat "$obj/.lab-config-id" 2>/dev/null)" != "$config_id" ]; then
	echo "build[$kernel]: configuring (tinyconfig + $(basename "$frag"))"
	mkdir -p "$obj"
	kmake tinyconfig >/dev/null
	"$src/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$frag" >/dev/null
	kmake olddefconfig >/dev/null
	lost=$(grep -v '^\s*#' "$frag" | grep . | while read -r l; do
		grep -qxF "$l" "$obj/.config" || echo "  $l"; done)
	if [ -n "$lost" ]; then
		echo "build[$kernel]: these fragment options did not survive olddefconfig:" >&2
		echo "$lost" >&2
		exit 1
	fi
	echo "$config_id" >"$obj/.lab-config-id"
fi

echo "build[$kernel]: compiling bzImage and modules (ccache, -j$(nproc))"
kmake bzImage modules
rm -rf "$mods"
kmake INSTALL_MOD_PATH="$mods" modules_install >/dev/null
release=$(cat "$obj/include/config/kernel.release")
echo "$release" >"$obj/.lab-release"
echo "build[$kernel]: $release done in $(( $(date +%s) - start )) s"
