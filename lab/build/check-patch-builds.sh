#!/bin/bash
# Build stage check: every patch of a base's series must compile on its own.
# For each commit base..lab, check it out in build/<base>/linux-bisect and build
# what it touches: the kernel objects of changed .c files, and for changed
# headers the objects under block/ and drivers/{block,nvme,md} that include
# them (from the patched build's dependency files), with W=1 and sparse
# (C=1) when sparse is installed; and the block selftests when it changes
# them. Any build error fails, and so does a warning in a touched file that
# the same objects built at the parent commit do not have (6.12.117
# already has some sparse warnings, e.g. in fs/aio.c).
# LAB_PATCH_BUILDS_CONFIG=allmod builds the same objects under allmodconfig
# (CONFIG_WERROR and Rust off) in build/<base>/obj-bisect-allmod instead of
# the patched lab kernel's configuration (lab/build/build-matrix.sh).
# usage: check-patch-builds.sh BASE
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
b=${1:?usage: check-patch-builds.sh BASE}
lab_check_base "$b" || exit 2
tree=$(lab_tree "$b")
wt=$top/build/$b/linux-bisect
cfg=${LAB_PATCH_BUILDS_CONFIG:-lab}
case $cfg in
lab) obj=$top/build/$b/obj-bisect ;;
allmod) obj=$top/build/$b/obj-bisect-allmod ;;
*) echo "patch-builds[$b]: LAB_PATCH_BUILDS_CONFIG is lab or allmod, not '$cfg'" >&2; exit 2 ;;
esac
ref=$(lab_obj "$b" patched)
lab_build_env
sparse=0
command -v sparse >/dev/null && sparse=1
log=$(mktemp)
trap 'rm -f "$log"' EXIT

commits=$(git -C "$tree" rev-list --reverse base..lab)
[ -n "$commits" ] || { echo "patch-builds[$b]: no patches"; exit 0; }
if [ ! -d "$wt" ]; then
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" base
fi

# warnings_in LOG FILES: the warnings of LOG about FILES, without line
# numbers and build paths, so that two builds can be compared.
warnings_in() {
	{ grep -E 'warning:|error:' "$1" || true; } |
		{ grep -F -f <(echo "$2" | grep -v '^$') || true; } |
		sed -E 's|^.*/linux-bisect/||; s|^([^:]*):[0-9]+:([0-9]+:)?|\1:|' | sort -u
}

kbuild() {
	# shellcheck disable=SC2086
	make -s -C "$wt" O="$obj" CC="ccache gcc" W=1 C=$sparse -j"$(nproc)" $1
}

fail=0 n=0
for c in $commits; do
	n=$((n + 1))
	subject=$(git -C "$tree" log -1 --format=%s "$c")
	git -C "$wt" checkout -q --detach -f "$c"
	files=$(git -C "$tree" diff-tree --no-commit-id --name-only -r "$c")
	objs=""
	for f in $files; do
		case $f in
		tools/*|Documentation/*|MAINTAINERS) ;;
		*.c) objs="$objs ${f%.c}.o" ;;
		*.h)
			[ -d "$ref" ] || continue
			objs="$objs $( { cd "$ref" && grep -l -r --include='.*.o.cmd' -F "/$f" \
				block drivers/block drivers/nvme drivers/md 2>/dev/null || true; } |
				sed 's|/\.\([^/]*\)\.cmd$|/\1|' | awk 'NR <= 40' | tr '\n' ' ')" ;;
		esac
	done
	what=""
	: >"$log"
	if [ -n "${objs// /}" ]; then
		if [ ! -f "$obj/.config" ]; then
			echo "patch-builds[$b]: preparing ${obj#"$top"/} ($cfg config)"
			mkdir -p "$obj"
			if [ "$cfg" = allmod ]; then
				make -s -C "$wt" O="$obj" allmodconfig >/dev/null
				"$wt/scripts/config" --file "$obj/.config" -d WERROR -d RUST
			else
				cp "$ref/.config" "$obj/.config"
			fi
			make -s -C "$wt" O="$obj" CC="ccache gcc" olddefconfig prepare -j"$(nproc)" >/dev/null
		fi
		if ! kbuild "$objs" >"$log" 2>&1; then
			fail=1
			echo "patch-builds[$b]: [$n] $subject: BUILD FAILED" >&2
			tail -n 30 "$log" >&2
			continue
		fi
		what="$(echo $objs | wc -w) objects (W=1$([ $sparse = 1 ] && echo ', sparse'))"
	fi
	if echo "$files" | grep -q '^tools/testing/selftests/block/'; then
		if ! make -s -C "$wt/tools/testing/selftests/block" >>"$log" 2>&1; then
			fail=1
			echo "patch-builds[$b]: [$n] $subject: SELFTESTS BUILD FAILED" >&2
			tail -n 30 "$log" >&2
			continue
		fi
		make -s -C "$wt/tools/testing/selftests/block" clean >/dev/null 2>&1 || true
		what="${what:+$what, }selftests"
	fi
	warn=$(warnings_in "$log" "$files")
	if [ -n "$warn" ] && [ -n "${objs// /}" ]; then
		# Keep only what the parent commit does not warn about already.
		git -C "$wt" checkout -q --detach -f "$c^"
		kbuild "$objs" >"$log.parent" 2>&1 || true
		warn=$(comm -23 <(echo "$warn") <(warnings_in "$log.parent" "$files"))
		rm -f "$log.parent"
	fi
	if [ -n "$warn" ]; then
		fail=1
		echo "patch-builds[$b]: [$n] $subject: new warnings in touched files:" >&2
		echo "$warn" | head -n 20 >&2
		continue
	fi
	echo "patch-builds[$b]: [$n] ok: $subject (${what:-nothing to compile})"
done
exit $fail
