#!/bin/bash
# Build coverage of a base's series before posting (issue 16), in the
# configurations a kernel test robot builds and the lab's own kernels do
# not. One leg a line; each leg fails on a build error or on a warning the
# series adds (a warning the base tree has in the same configuration is the
# base's own and is only counted):
#   allmod      every patch on its own, the objects it touches, allmodconfig
#               (CONFIG_WERROR off, so W=1 warnings stay warnings), W=1,
#               sparse: lab/build/check-patch-builds.sh with
#               LAB_PATCH_BUILDS_CONFIG=allmod
#   zoned-off   the whole series, the lab config with CONFIG_BLK_DEV_ZONED=n
#   aio-off     the same with CONFIG_AIO=n
#   mpath-off   the same with CONFIG_DM_MULTIPATH=n
#   i386        the whole series, the lab config built for ARCH=i386
#   htmldocs    make htmldocs SPHINXDIRS=block: no warning in a file the
#               series touches, none the base does not have
# Whole-series legs build the patched tree (vmlinux and modules) in
# build/<base>/matrix/obj-<leg>; only when it warns is the base built in
# the same object tree (incrementally) to tell new warnings from old.
# Logs in build/<base>/matrix/<leg>.log; a line a leg in
# results/build-matrix-<base>.txt, written as each leg ends (a leg run
# again replaces its line; an interrupted run keeps the legs it finished):
# leg, ok or FAIL, seconds, the git tree id (12 digits) of what was built,
# and a note. make post requires every leg ok for the tree its patches give.
# --stale runs only the legs without an ok line for the tree built now;
# --check TREE only says whether every leg (or every LEG given) has an ok
# line for TREE (a tree id, as make post computes it from the patches it
# posts) and prints those lines. Both read results/build-matrix-<base>.txt
# and so refuse LAB_MATRIX_REF.
# LAB_MATRIX_REF names another commit of the tree to build instead of the
# branch lab (a deliberately broken one, to see a leg fail); allmod always
# takes base..lab.
# usage: build-matrix.sh BASE [--stale] [LEG...]   (default: every leg)
#        build-matrix.sh BASE --check TREE [LEG...]
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
usage="usage: build-matrix.sh BASE [--stale | --check TREE] [LEG...]"
b=${1:?$usage}
shift
stale=0 check=""
case ${1:-} in
--stale) stale=1; shift ;;
--check)
	check=${2:-}
	[[ $check =~ ^[0-9a-f]{12,40}$ ]] ||
		{ echo "matrix[$b]: --check takes a git tree id (12 to 40 hex digits)" >&2; exit 2; }
	shift 2 ;;
esac
if [ $stale = 1 ] || [ -n "$check" ]; then
	[ "${LAB_MATRIX_REF:-lab}" = lab ] ||
		{ echo "matrix[$b]: --stale and --check are for the branch lab; unset LAB_MATRIX_REF" >&2; exit 2; }
fi
lab_check_base "$b" || exit 2
all_legs="allmod zoned-off aio-off mpath-off i386 htmldocs"
legs=${*:-$all_legs}
for l in $legs; do
	case " $all_legs " in
	*" $l "*) ;;
	*) echo "matrix[$b]: unknown leg '$l' (legs: $all_legs; options go right after BASE)" >&2; exit 2 ;;
	esac
done
tree=$(lab_tree "$b")
ref=${LAB_MATRIX_REF:-lab}
dir=$top/build/$b/matrix
wt=$dir/linux
frags=("$top/lab/build/guest.config" "$top/lab/build/guest-$b.config")
summary=$top/results/build-matrix-$b.txt
[ "$ref" = lab ] || summary=$top/build/$b/matrix/summary-${ref//\//-}.txt
# ok_line LEG TREE: the leg's ok line for TREE, if the summary has one
ok_line() {
	grep -E "^$1 +ok +[0-9]+ s +${2:0:12} " "$summary" 2>/dev/null
}
# not_ok TREE: the legs of $legs without an ok line for TREE
not_ok() {
	local l
	for l in $legs; do
		ok_line "$l" "$1" >/dev/null || echo "$l"
	done
}
if [ -n "$check" ]; then
	missing=$(not_ok "$check" | xargs)
	if [ -n "$missing" ]; then
		echo "matrix[$b]: no ok line for tree ${check:0:12} in ${summary#"$top"/}: $missing" >&2
		exit 1
	fi
	for l in $legs; do
		ok_line "$l" "$check"
	done
	exit 0
fi
[ -f "$tree/Makefile" ] || { echo "matrix[$b]: no $tree: run make source" >&2; exit 1; }
# What every leg builds, resolved once: the branch may move during a run.
commit=$(git -C "$tree" rev-parse -q --verify "$ref^{commit}") ||
	{ echo "matrix[$b]: $tree has no commit '$ref' (the branch lab: make source)" >&2; exit 1; }
built=$(git -C "$tree" rev-parse "$commit^{tree}")
built=${built:0:12}
if [ $stale = 1 ]; then
	legs=$(not_ok "$built" | xargs)
	if [ -z "$legs" ]; then
		echo "matrix[$b]: every leg is ok for tree $built (${summary#"$top"/})"
		exit 0
	fi
	echo "matrix[$b]: legs to run for tree $built: $legs"
fi

lab_build_env

mkdir -p "$dir" "$top/results"
# The worktree the whole-series legs switch between base and the series.
need_wt() {
	[ -d "$wt" ] && return 0
	git -C "$tree" worktree prune
	git -C "$tree" worktree add -q --detach "$wt" base
}

# warnings LOG: the compiler, linker, modpost and sphinx warnings of a
# log without line numbers and build paths, sorted, so that two builds
# of different trees can be compared.
warnings() {
	{ grep -E '(warning|error|WARNING|ERROR)(:| \()' "$1" || true; } |
		sed -E "s#$top/build/$b/(matrix/|base/)?linux/##g; s|^([^: ]*):[0-9]+(:[0-9]+)?:|\\1:|" |
		sed -E 's/[[:space:]]+$//' | sort -u
}

checkout() {
	git -C "$wt" checkout -q --detach -f "$1"
}

# configure OBJ ARCH SETTING...: tinyconfig + the lab fragments, then each
# SETTING (CONFIG_X=y or CONFIG_X=n), checked after olddefconfig.
configure() {
	local obj=$1 arch=$2 s name want
	shift 2
	mkdir -p "$obj"
	make -s -C "$wt" O="$obj" ARCH="$arch" tinyconfig >/dev/null || return 1
	"$wt/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "${frags[@]}" >/dev/null ||
		return 1
	for s in "$@"; do
		name=${s%%=*}
		want=${s#*=}
		"$wt/scripts/config" --file "$obj/.config" "$([ "$want" = n ] && echo -d || echo -e)" "${name#CONFIG_}"
	done
	make -s -C "$wt" O="$obj" ARCH="$arch" olddefconfig >/dev/null || return 1
	for s in "$@"; do
		name=${s%%=*}
		want=${s#*=}
		if [ "$want" = n ]; then
			grep -q "^$name=" "$obj/.config" && { echo "$name is still set after olddefconfig" >&2; return 1; }
		else
			grep -qx "$name=$want" "$obj/.config" || { echo "$name=$want did not survive olddefconfig" >&2; return 1; }
		fi
	done
	return 0
}

# series_leg LEG ARCH SETTING...: the whole series in one configuration.
series_leg() {
	local leg=$1 arch=$2 obj=$dir/obj-$1 log=$dir/$1.log new base_w
	shift 2
	: >"$log"
	need_wt || { note="no worktree"; return 1; }
	checkout "$commit" || { note="checkout of $ref failed"; return 1; }
	# a fresh object tree each time (ccache keeps it cheap): an up-to-date
	# tree compiles nothing and so would warn about nothing
	rm -rf "$obj" "$obj-base"
	configure "$obj" "$arch" "$@" >>"$log" 2>&1 || { note="configuration failed"; return 1; }
	kb() { make -s -C "$wt" O="$1" ARCH="$arch" CC="ccache gcc" -j"$(nproc)" vmlinux modules; }
	if ! kb "$obj" >>"$log" 2>&1; then
		note="BUILD FAILED"
		grep -E 'error|Error' "$log" | head -n 20 >&2
		return 1
	fi
	warnings "$log" >"$dir/$leg.patched.w"
	if [ ! -s "$dir/$leg.patched.w" ]; then
		note="no warnings"
		return 0
	fi
	# The base in the same configuration, a full build of its own too, for
	# the warnings it has already.
	checkout base || { note="checkout of base failed"; return 1; }
	mkdir -p "$obj-base"
	cp "$obj/.config" "$obj-base/.config"
	{ make -s -C "$wt" O="$obj-base" ARCH="$arch" olddefconfig && kb "$obj-base"; } >"$log.base" 2>&1 || true
	warnings "$log.base" >"$dir/$leg.base.w"
	checkout "$commit" || { note="checkout of $ref failed"; return 1; }
	new=$(comm -23 "$dir/$leg.patched.w" "$dir/$leg.base.w")
	base_w=$(wc -l <"$dir/$leg.base.w")
	if [ -n "$new" ]; then
		note="new warnings: $(echo "$new" | wc -l)"
		echo "$new" | head -n 20 >&2
		return 1
	fi
	note="no new warnings ($base_w of the base's own)"
	return 0
}

htmldocs_leg() {
	local obj=$dir/obj-htmldocs log=$dir/htmldocs.log files new bad exposed
	if ! command -v sphinx-build >/dev/null; then
		note="sphinx-build is missing (Debian package python3-sphinx: lab/deps/install.sh)"
		return 1
	fi
	# The trees of make source when they are there and the series is the
	# commit checked out there with no change under Documentation/ (make
	# check), else the matrix worktree.
	local src_base src_ref=$tree
	src_base=$(lab_src "$b" base)
	if [ ! -f "$src_base/Makefile" ] || [ "$(git -C "$tree" rev-parse HEAD)" != "$commit" ] ||
		[ -n "$(git -C "$tree" status --porcelain -- Documentation)" ]; then
		need_wt || { note="no worktree"; return 1; }
		src_base=$wt src_ref=$wt
	fi
	hd() {
		rm -rf "$obj"
		mkdir -p "$obj"
		make -C "$1" O="$obj" SPHINXDIRS=block htmldocs
	}
	# the base first, so that the pages left in obj-htmldocs are the series'
	if [ "$src_base" = "$wt" ]; then
		checkout base || { note="checkout of base failed"; return 1; }
	fi
	hd "$src_base" >"$log.base" 2>&1 || true
	warnings "$log.base" >"$dir/htmldocs.base.w"
	if [ "$src_ref" = "$wt" ]; then
		checkout "$commit" || { note="checkout of $ref failed"; return 1; }
	fi
	if ! hd "$src_ref" >"$log" 2>&1; then
		note="htmldocs FAILED"
		tail -n 20 "$log" >&2
		return 1
	fi
	warnings "$log" >"$dir/htmldocs.patched.w"
	files=$(git -C "$tree" diff --name-only base "$commit")
	# A warning fails when it names a file of the series, or when it is
	# new and names no file. A new one about files the series does not
	# touch is the base's own, exposed: the ABI database is read only when
	# a page mentions a /sys path, and then warns about duplicate entries
	# in other drivers' ABI files (7.3.4, Documentation/ABI/testing/
	# sysfs-driver-hid-lenovo-go*).
	[ -n "$files" ] || { note="no file differs between base and $ref"; return 1; }
	# a warning names a file as "path:" (line numbers are stripped)
	bad=$(grep -F -f <(echo "$files" | sed 's/$/:/') "$dir/htmldocs.patched.w" || true)
	new=$(comm -23 "$dir/htmldocs.patched.w" "$dir/htmldocs.base.w" |
		grep -v -F -f <(echo "$files" | sed 's/$/:/') || true)
	exposed=$(echo "$new" | grep -E '(Documentation|include|drivers|block|fs|tools)/' || true)
	bad=$(printf '%s\n%s\n' "$bad" "$(echo "$new" | grep -v -E '(Documentation|include|drivers|block|fs|tools)/' || true)" |
		grep . || true)
	if [ -n "$bad" ]; then
		note="warnings in the series' files or new ones: $(echo "$bad" | wc -l)"
		echo "$bad" | head -n 20 >&2
		return 1
	fi
	note="no warning in the series' files, none new; $(wc -l <"$dir/htmldocs.base.w") of the base's own"
	[ -z "$exposed" ] || note="$note, $(echo "$exposed" | wc -l) more of its own exposed (other files' ABI entries)"
	return 0
}

# record LINE: LINE replaces its leg's line in the summary, at once, so
# that an interrupted run keeps the legs it finished (--stale resumes)
record() {
	{ [ -f "$summary" ] && grep -v -E "^${1%% *} " "$summary"; echo "$1"; } >"$summary.new" &&
	awk -v order="$all_legs" 'BEGIN { n = split(order, o, " "); for (i = 1; i <= n; i++) r[o[i]] = i }
		{ print r[$1] "\t" $0 }' "$summary.new" | sort -n | cut -f2- >"$summary.sorted" &&
		mv "$summary.sorted" "$summary"
	rm -f "$summary.new"
}

fail=0
for leg in $legs; do
	start=$(date +%s)
	note=""
	echo "matrix[$b]: $leg ..."
	case $leg in
	allmod)
		if [ "$ref" != lab ]; then
			rc=1 note="allmod builds base..lab only, not $ref"
		elif LAB_PATCH_BUILDS_CONFIG=allmod "$top/lab/build/check-patch-builds.sh" "$b" \
			>"$dir/allmod.log" 2>&1; then
			rc=0
			note="$(grep -c '\] ok:' "$dir/allmod.log") patches built on their own, no new warnings"
		else
			rc=1
			note="a patch failed (build/$b/matrix/allmod.log)"
			grep -v '\] ok:' "$dir/allmod.log" | tail -n 20 >&2
		fi ;;
	zoned-off) series_leg "$leg" x86_64 CONFIG_BLK_DEV_ZONED=n; rc=$? ;;
	aio-off) series_leg "$leg" x86_64 CONFIG_AIO=n; rc=$? ;;
	mpath-off) series_leg "$leg" x86_64 CONFIG_DM_MULTIPATH=n; rc=$? ;;
	i386) series_leg "$leg" i386 CONFIG_64BIT=n; rc=$? ;;
	htmldocs) htmldocs_leg; rc=$? ;;
	esac
	t=$(( $(date +%s) - start ))
	# allmod takes base..lab itself: the branch must not have moved
	now=$(git -C "$tree" rev-parse -q --verify "$ref^{tree}")
	[ "${now:0:12}" = "$built" ] || rc=1 note="$ref moved during the leg: run it again"
	verdict=ok
	[ "$rc" -eq 0 ] || { verdict=FAIL; fail=1; }
	line=$(printf '%-10s %-4s %5d s  %s  %s' "$leg" "$verdict" "$t" "$built" "$note")
	echo "matrix[$b]: $line"
	record "$line"
done
echo "matrix[$b]: summary in ${summary#"$top"/}"
exit $fail
