# Bases, and where each kernel's source, objects and modules live under
# build/. Sourced by the lab scripts; needs $top.
#
# A base (lab/bases.tsv: mainline, 6.12) has two kernels, "base" (the
# unpacked Debian source) and "patched" (base + the patches of patches/<base>/):
#   build/<base>/linux          git tree, branch "lab" = base + series
#   build/<base>/obj-patched    its objects
#   build/<base>/base/linux     worktree at tag "base"
#   build/<base>/base/obj       its objects
#   build/<base>/mutant/linux   worktree at "lab" plus one mutant patch
#   build/<base>/mutant/obj     its objects
#   build/<base>/step/linux     worktree at one commit of the series
#   build/<base>/step/obj-N     objects of the kernel with the first N
#                               patches (lab/bench/run-per-patch.sh)
#   build/<base>/v1/linux       worktree at branch "v1": base + series v1,
#   build/<base>/v1/obj         the 6.12 series the review read, and its
#                               objects (lab/run/run-v1.sh; 6.12 only)
# Each object tree sits beside a directory named "linux" with its source,
# so the compiler sees the same paths relative to the object tree in both
# builds and ccache (CCACHE_BASEDIR) serves the second kernel from the first.

# lab_all_bases: every base of lab/bases.tsv, in file order.
lab_all_bases() {
	awk '!/^#/ && NF { print $1 }' "$top/lab/bases.tsv"
}

# lab_bases: the bases to work on: $LAB_BASE (names separated by spaces or
# commas) or every base. Fails on an unknown name.
lab_bases() {
	local b want=${LAB_BASE:-$(lab_all_bases)}
	for b in ${want//,/ }; do
		lab_check_base "$b" || return 2
		echo "$b"
	done
}

lab_check_base() {
	lab_all_bases | grep -qxF -- "$1" && return 0
	echo "unknown base '$1' (lab/bases.tsv has: $(lab_all_bases | xargs))" >&2
	return 2
}

# lab_base_field BASE N: field N of the base's line in lab/bases.tsv
# (2 package, 3 pinned version, 4 suite).
lab_base_field() {
	awk -v b="$1" -v n="$2" '!/^#/ && $1 == b "" { print $n }' "$top/lab/bases.tsv"
}

# A base's kernels: "base", "patched", "mutant" (patched plus one patch
# of lab/mutants/<base>/, built by lab/mutants/run-mutants.sh) and "step-N"
# (base plus the first N patches of the series, lab/bench/run-per-patch.sh),
# and "v1" (base plus series v1, 6.12 only: lab/run/run-v1.sh), and "deb"
# (the patched kernel as make deb packages it from the lab configuration,
# booted from the unpacked linux-image package: lab/build/build-deb.sh).
lab_check_kernel() {
	case $1 in
	base|patched|mutant|v1|deb) return 0 ;;
	step-*[!0-9]*|step-) ;;
	step-*) return 0 ;;
	esac
	echo "unknown kernel '$1' (base, patched, mutant, step-N, v1 or deb)" >&2
	return 2
}

lab_tree() { echo "$top/build/$1/linux"; }
lab_patches() { echo "$top/patches/$1"; }

# A base's patches come in one of two layouts in patches/<base>/:
#  postings  "order" names the posting directories in the order the lab
#            applies them; each directory is git format-patch output of
#            one posting (0000-cover-letter.patch when it has more than
#            one patch) with cover-letter.txt (the cover letter's subject
#            line and text; for a single patch the notes that go below its
#            "---"), subject-prefix ("PATCH v3", "RFC PATCH v3") and
#            optionally cc (addresses to Cc besides get_maintainer.pl's,
#            one a line). mainline: one directory per posting.
#  series    "series" names the patches in apply order (quilt style); 6.12,
#            the backport series.
# lab_layout BASE: "postings" or "series".
lab_layout() {
	if [ -f "$(lab_patches "$1")/order" ]; then echo postings; else echo series; fi
}

# lab_postings BASE: the posting directories of "order", in apply order.
lab_postings() {
	sed 's/#.*//' "$(lab_patches "$1")/order" | awk 'NF { print $1 }'
}

# lab_patch_files BASE: every patch of the base in apply order, one path
# a line relative to patches/<base>/ (no cover letter). Fails with a
# message when a posting or the series list is missing.
lab_patch_files() {
	local d p n
	d=$(lab_patches "$1")
	if [ "$(lab_layout "$1")" = series ]; then
		[ -f "$d/series" ] || { echo "no ${d#"$top"/}/series or order" >&2; return 1; }
		sed 's/#.*//' "$d/series" | awk 'NF { print $1 }'
		return
	fi
	for p in $(lab_postings "$1"); do
		[ -d "$d/$p" ] || { echo "${d#"$top"/}/order names $p, which has no directory" >&2; return 1; }
		n=0
		for f in "$d/$p"/[0-9][0-9][0-9][0-9]-*.patch; do
			[ -e "$f" ] || break
			case ${f##*/} in 0000-cover-letter.patch) continue ;; esac
			echo "$p/${f##*/}"
			n=$((n + 1))
		done
		[ $n -gt 0 ] || { echo "${d#"$top"/}/$p has no patch" >&2; return 1; }
	done
}

# lab_src BASE KERNEL, lab_obj BASE KERNEL, lab_mods BASE KERNEL
lab_src() {
	lab_check_kernel "$2" || return 2
	case $2 in
	base) echo "$top/build/$1/base/linux" ;;
	patched) echo "$top/build/$1/linux" ;;
	mutant) echo "$top/build/$1/mutant/linux" ;;
	step-*) echo "$top/build/$1/step/linux" ;;
	v1) echo "$top/build/$1/v1/linux" ;;
	deb) echo "$top/build/$1/linux" ;;
	esac
}

lab_obj() {
	lab_check_kernel "$2" || return 2
	case $2 in
	base) echo "$top/build/$1/base/obj" ;;
	patched) echo "$top/build/$1/obj-patched" ;;
	mutant) echo "$top/build/$1/mutant/obj" ;;
	step-*) echo "$top/build/$1/step/obj-${2#step-}" ;;
	v1) echo "$top/build/$1/v1/obj" ;;
	deb) echo "$top/build/$1/deb/lab/obj" ;;
	esac
}

# The disks a selftest guest gets (queue_rqs_order.sh reads them): a
# virtio-blk disk, one whose 16-entry ring without indirect descriptors
# fills before its tags run out, and a QEMU NVMe namespace.
LAB_CHECK_DISKS=(--disk virtio:64M:wc=off --disk virtio:64M:wc=off,qs=16,ind=off
	--disk nvme:64M)

# lab_mods BASE KERNEL: the directory with lib/modules/<release>/.
lab_mods() {
	local root=$top/build/$1/deb/lab/root
	if [ "$2" != deb ]; then
		echo "$top/build/$1/mods-$2"
	elif [ -d "$root/usr/lib/modules" ]; then
		echo "$root/usr"
	else
		echo "$root"
	fi
}

# lab_image BASE KERNEL: the kernel image a guest boots: the build's
# bzImage, or for "deb" the vmlinuz of the unpacked linux-image package.
lab_image() {
	local f
	if [ "$2" = deb ]; then
		for f in "$top/build/$1/deb/lab/root/boot/vmlinuz-"*; do
			echo "$f"
			return
		done
	fi
	echo "$(lab_obj "$1" "$2")/arch/x86/boot/bzImage"
}

# lab_workload_files WHO NAME...: the file of each bench workload NAME of
# lab/bench/workloads/, one per line (every workload without NAMEs); WHO
# names the caller in the error for a missing one.
lab_workload_files() {
	local who=$1 w
	shift
	if [ $# -eq 0 ]; then
		printf '%s\n' "$top"/lab/bench/workloads/*.sh
		return
	fi
	for w in "$@"; do
		[ -f "$top/lab/bench/workloads/$w.sh" ] ||
			{ echo "$who: no workload $w (see lab/bench/workloads/)" >&2; return 2; }
		echo "$top/lab/bench/workloads/$w.sh"
	done
}

# lab_workload_disks FILE...: the --disk options the workloads ask for in
# their "# lab-disk:" lines, one per line.
lab_workload_disks() {
	local d
	for d in $(sed -n 's/^# lab-disk: \([a-z]*:[^ ]*\).*/\1/p' "$@" | sort -u); do
		printf -- '--disk\n%s\n' "$d"
	done
}

# lab_workload_append FILE: the kernel arguments the workload asks for in
# its "# lab-append:" line (e.g. nvme_core.multipath=0), or nothing.
lab_workload_append() {
	sed -n 's/^# lab-append: *\(.*[^ ]\) *$/\1/p' "$1" | head -n 1
}

# LAB_WARN_RE: the dmesg lines that say the kernel warned; run-guest.sh
# flags a boot that has one (OUT/kernel-warnings), and make check shows
# them for a boot of the patched kernel whose base boot had none.
LAB_WARN_RE='WARNING:|BUG:|possible circular locking|possible recursive locking|inconsistent lock state|blocked for more than|Call Trace:'

# lab_am TREE PATCH...: git am each patch in TREE's checkout, with the
# patch's author as committer and its Date: as commit date, so that two
# applies of the same patches give the same commits.
lab_am() {
	local tree=$1 p info
	shift
	for p in "$@"; do
		info=$(git -C "$tree" mailinfo /dev/null /dev/null <"$p")
		GIT_COMMITTER_NAME=$(sed -n 's/^Author: //p' <<<"$info") \
		GIT_COMMITTER_EMAIL=$(sed -n 's/^Email: //p' <<<"$info") \
			git -C "$tree" am -q --committer-date-is-author-date "$p" ||
			{ echo "git am of $(basename "$p") failed in $tree" >&2; return 1; }
	done
}

# lab_source_dir BASE: the unpacked Debian source package of the base.
lab_source_dir() { echo "$top/build/src/$1"; }

# lab_build_env: the environment of every lab kernel build: ccache shared
# between the object trees (all beside a "linux" source directory, so the
# paths relative to CCACHE_BASEDIR match), and a fixed build stamp.
lab_build_env() {
	export CCACHE_BASEDIR=$top/build CCACHE_NOHASHDIR=true
	# Mainline kbuild passes the absolute source path in
	# -fmacro-prefix-map, which ccache does not rewrite; both trees map
	# their own root away, so the option does not change the objects and
	# is left out of the hash.
	export CCACHE_IGNOREOPTIONS='-fmacro-prefix-map=*'
	# Depend mode hashes the compiler's own -MMD output instead of running
	# the preprocessor a second time on every miss (block/bdev.c of 7.3.4,
	# cold: 2.3 s with the preprocessor run, 1.9 s without, on a busy
	# machine).
	export CCACHE_DEPEND=1
	export CCACHE_DIR=${CCACHE_DIR:-$HOME/.cache/ccache}
	export KBUILD_BUILD_TIMESTAMP="2026-01-01 00:00:00 UTC" KBUILD_BUILD_USER=lab KBUILD_BUILD_HOST=lab
}

# lab_config_lost CONFIG [--y-for-m] FRAGMENT...: the fragment lines that
# the .config CONFIG (after olddefconfig) lost, one a line, indented:
# an "CONFIG_X=v" line it lacks, or a "# CONFIG_X is not set" line whose
# option it sets. With --y-for-m, CONFIG_X=y stands in for CONFIG_X=m.
lab_config_lost() {
	local cfg=$1 yform=0 f l o
	shift
	[ "${1:-}" = --y-for-m ] && { yform=1; shift; }
	for f in "$@"; do
		[ -r "$f" ] && [ "${f#-}" = "$f" ] ||
			{ echo "lab_config_lost: cannot read the fragment '$f'" >&2; return 2; }
	done
	for f in "$@"; do
		while read -r l || [ -n "$l" ]; do
			case $l in
			"# CONFIG_"*" is not set")
				o=${l#\# }
				o=${o%% *}
				! grep -q "^$o=" "$cfg" || echo "  $l" ;;
			\#* | "") ;;
			*)
				grep -qxF "$l" "$cfg" ||
					{ [ $yform = 1 ] && grep -qxF "${l%=m}=y" "$cfg"; } ||
					echo "  $l" ;;
			esac
		done <"$f"
	done
}
