#!/bin/bash
# make deb: installable Debian packages (linux-image, linux-headers,
# linux-libc-dev, and linux-image-*-dbg for a configuration with debug
# info) of a base with its series applied (the branch lab of
# build/<base>/linux), from a chosen configuration with the block
# selftests' config fragment merged, so that the tests run on the
# installed kernel. LOCALVERSION names the series version of the cover
# letter's subject prefix (patches/<base>/subject-prefix: "PATCH v2" ->
# "-blk-v2").
#
# CONFIG is one of
#   host     /boot/config-$(uname -r) (the default when it exists)
#   debian   Debian's own configuration of the base's version, from the
#            package linux-config-<ver> (the default otherwise; fetched
#            into build/src/<base>-config/), flavour amd64_none_amd64
#   lab      the patched lab kernel's configuration; its objects are copied
#            first, so only what the release string reaches is rebuilt
#            (what make check uses)
#   FILE     any kernel .config
# Debian's certificate paths (debian/certs/...) are not in the kernel
# tree: the trusted and revocation key lists are emptied, and module
# signing, when on, uses a key generated in the object tree.
#
# The packages land in build/<base>/deb/<config>/, the package's root
# (dpkg-deb -x of linux-image) in build/<base>/deb/<config>/root, which
# the lab guest boots as kernel "deb" (lab/paths.sh). A line with the
# time it took (wall and CPU seconds, summed over the runs of a build that
# was stopped and resumed) in results/deb-<base>-<config>.txt.
# usage: build-deb.sh BASE [host|debian|lab|FILE]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
b=${1:?usage: build-deb.sh BASE [host|debian|lab|FILE]}
lab_check_base "$b" || exit 2
cfg=${2:-}
if [ -z "$cfg" ]; then
	cfg=debian
	[ -f "/boot/config-$(uname -r)" ] && cfg=host
fi
tree=$(lab_tree "$b")
frag=$tree/tools/testing/selftests/block/config
die() { echo "deb[$b]: $*" >&2; exit 1; }
[ -f "$tree/Makefile" ] || die "no ${tree#"$top"/}: run make source"
[ "$(git -C "$tree" symbolic-ref -q --short HEAD)" = lab ] ||
	die "${tree#"$top"/} is not on its branch lab (the base with the series): run make source"
[ -f "$frag" ] || die "the series has no tools/testing/selftests/block/config"

case $cfg in
host)
	config=/boot/config-$(uname -r)
	[ -f "$config" ] || die "no $config: name a configuration (debian, lab or a file)" ;;
debian)
	"$top/lab/deps/fetch-source.sh" "$b" config >&2
	config=$(ls "$(lab_source_dir "$b")"-config/usr/src/linux-config-*/config.amd64_none_amd64.xz 2>/dev/null | head -n 1)
	[ -n "$config" ] ||
		die "linux-config package of $b has no config.amd64_none_amd64.xz" ;;
lab)
	"$top/lab/build/build-kernel.sh" "$b" patched >&2
	config=$(lab_obj "$b" patched)/.config ;;
*)
	config=$cfg
	[ -f "$config" ] || die "no configuration file $config"
	cfg="file" ;;
esac

# the series' version: its subject prefix, or the newest of its postings'
prefix=$(cat "$(lab_patches "$b")/subject-prefix" "$(lab_patches "$b")"/*/subject-prefix 2>/dev/null |
	grep -o 'v[0-9]\+' | sort -V | tail -n 1 || true)
ver=${prefix:-v1}
localversion=-blk-$ver
dir=$top/build/$b/deb/$cfg
obj=$dir/obj
root=$dir/root

# Any configuration but the lab's may ask for BTF (Debian's do): pahole,
# unpacked into build/tools/ (lab/deps/fetch-pahole.sh says why not
# installed), given to this build alone.
# Such a build does not use ccache either: it times what a user's plain
# build takes, and its objects (with debug info) would push the lab
# kernels' out of the cache.
pahole=() cc="ccache gcc"
if [ "$cfg" != lab ]; then
	"$top/lab/deps/install.sh" "$top/lab/deps/packages-deb.txt" >&2
	pahole=(PAHOLE="$("$top/lab/deps/fetch-pahole.sh")")
	cc=gcc
fi
lab_build_env
kmake() {
	make -s -C "$tree" O="$obj" CC="$cc" LOCALVERSION="$localversion" \
		"${pahole[@]}" -j"$(nproc)" "$@"
}

# A build that was stopped resumes from its objects (not for lab, whose
# objects are copied again). So that a long distribution build can be
# timed in pieces, $dir/time-spent ("key runs wall_s cpu_s from") adds up
# the wall seconds and the CPU seconds (user + sys of all its processes
# where a cgroup can be made, below) of the runs of one build, until a run ends with the
# packages. The key is a hash of the configuration file, the tree's commit
# and the release suffix: a run with another key starts from zero. "from"
# says whether the first run found no objects (cold), objects of an
# earlier build (warm), or copied the lab's (lab).
spent=$dir/time-spent
key=$( { cat "$config"; git -C "$tree" rev-parse HEAD; echo "$localversion"; } |
	sha1sum | cut -c1-16)
mkdir -p "$dir"
runs0=0 wall0=0 cpu0=0 from=cold
[ "$cfg" = lab ] && from=lab
[ "$cfg" != lab ] && [ -e "$obj/.config" ] && from=warm
if [ "$cfg" != lab ] && [ -d "$obj" ] && [ -s "$spent" ]; then
	read -r k r w c f <"$spent" || true
	if [ "${k:-}" = "$key" ] && [[ ${r:-} =~ ^[0-9]+$ && ${w:-} =~ ^[0-9]+$ && ${c:-} =~ ^[0-9]+$ ]] &&
		[[ ${f:-} =~ ^(cold|warm)$ ]]; then
		runs0=$r wall0=$w cpu0=$c from=$f
		echo "deb[$b]: resuming a build that ran $r time(s) before ($w s)"
	fi
fi
# The CPU time of a run: user + sys of every process of the build, read
# from a cgroup of its own (cgroup v1 cpuacct or v2 cpu.stat) that this
# shell joins, so that compilers a stopped make never reaped count too.
# Without a writable cgroup: bash's times, which sees only the children
# that were waited for (a run stopped by a signal then misses some).
cg="" cg_file="" cpu_how=cgroup
# "FSTYPE DIR" for each cgroup this shell could make a child of: the
# cgroup v1 hierarchy with cpuacct and the v2 one, where they are mounted
# (/proc/self/mountinfo), at this shell's own cgroup (/proc/self/cgroup).
cg_candidates() {
	local self1 self2
	self1=$(awk -F: '$2 ~ /(^|,)cpuacct(,|$)/ { sub(/^[^:]*:[^:]*:/, ""); print; exit }' \
		/proc/self/cgroup 2>/dev/null || true)
	self2=$(awk '/^0::/ { sub(/^0::/, ""); print; exit }' /proc/self/cgroup 2>/dev/null || true)
	awk -v s1="$self1" -v s2="$self2" '{
		for (i = 7; i < NF && $i != "-"; i++)
			;
		fs = $(i + 1); opts = $(i + 3); root = $4; mnt = $5
		if (fs == "cgroup" && opts ~ /(^|,)cpuacct(,|$)/ && s1 != "")
			self = s1
		else if (fs == "cgroup2" && s2 != "")
			self = s2
		else
			next
		if (root != "/") {
			if (index(self, root) != 1)
				next
			self = substr(self, length(root) + 1)
		}
		sub(/\/$/, "", self)
		print fs, mnt self
	}' /proc/self/mountinfo 2>/dev/null || true
}
# A child cgroup of our own (named by pid and time: one left behind by a
# killed run is never met again), with this shell in it. On a host where
# systemd owns the cgroup tree this writes below systemd's unit, as any
# root process may.
cg_join() {
	local fs d name
	name=lab-deb-$$-$(date +%s)
	while read -r fs d; do
		case $fs in
		cgroup) [ -f "$d/cpuacct.usage" ] || continue; cg_file=cpuacct.usage ;;
		*) [ -f "$d/cpu.stat" ] || continue; cg_file=cpu.stat ;;
		esac
		mkdir "$d/$name" 2>/dev/null || continue
		if { echo $$ >"$d/$name/cgroup.procs"; } 2>/dev/null; then
			cg=$d/$name
			return 0
		fi
		rmdir "$d/$name" 2>/dev/null || true
	done < <(cg_candidates)
	cpu_how=times
}
# Leave the cgroup at the end; what the build left running is killed
# first (a stopped build should not leave compilers behind). Not to be
# cut short by a second signal.
cg_leave() {
	[ -n "$cg" ] || return 0
	trap '' HUP INT TERM
	local p n
	if ! { echo $$ >"${cg%/*}/cgroup.procs"; } 2>/dev/null; then
		echo "deb[$b]: could not leave the cgroup $cg; left as it is" >&2
		cpu_used
		cg=""
		return 0
	fi
	[ ! -f "$cg/cgroup.kill" ] || { echo 1 >"$cg/cgroup.kill"; } 2>/dev/null || true
	for n in 1 2 3 4 5 6 7 8 9 10; do
		p=$(grep -vx "$$" "$cg/cgroup.procs" 2>/dev/null) || break
		# shellcheck disable=SC2086 # one pid per word
		kill -9 $p 2>/dev/null || true
		sleep 0.2
	done
	cpu_used
	rmdir "$cg" 2>/dev/null || echo "deb[$b]: could not remove the cgroup $cg" >&2
	cg=""
}
# sets cpu_now (seconds)
cpu_used() {
	if [ -n "$cg" ]; then
		case $cg_file in
		cpuacct.usage) cpu_now=$(($(cat "$cg/cpuacct.usage") / 1000000000)) ;;
		*) cpu_now=$(awk '$1 == "usage_usec" { printf "%d", $2 / 1000000 }' "$cg/cpu.stat") ;;
		esac
		return 0
	fi
	# times runs in this shell (in $(...) it would see a subshell's
	# children); its second line: user and sys of the children waited for
	times >"$dir/times.tmp"
	cpu_now=$(awk 'NR == 2 { s = 0; for (i = 1; i <= 2; i++) {
		split($i, a, /[ms]/); s += a[1] * 60 + a[2] }; printf "%d", s }' "$dir/times.tmp")
	rm -f "$dir/times.tmp"
}
cpu_start=0 cpu_now=0
start=$(date +%s)
# sets runs, t and cpu: this run added to the earlier ones
totals() {
	if [ -n "$cg" ]; then cg_leave; else cpu_used; fi
	runs=$((runs0 + 1)) t=$((wall0 + $(date +%s) - start)) cpu=$((cpu0 + cpu_now - cpu_start))
}
save_time_spent() {
	totals
	echo "$key $runs $t $cpu $from" >"$spent.new" && mv "$spent.new" "$spent"
}
trap save_time_spent EXIT
# on a signal, exit (a TERM to this shell alone runs the trap once the
# running make has ended; signal the process group to stop at once):
# cg_leave then kills what is left of the build and reads its CPU time
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
cg_join
[ "$cpu_how" = cgroup ] ||
	echo "deb[$b]: no writable cgroup: the CPU time counts only the processes make reaped" >&2
cpu_used
cpu_start=$cpu_now
rm -f "$dir"/*.deb "$dir"/*.buildinfo "$dir"/*.changes
if [ "$cfg" = lab ]; then
	# The lab kernel's objects: only what the release string reaches is
	# built again (init/version.o, the modules' vermagic).
	echo "deb[$b]: copying the objects of the patched lab kernel"
	mkdir -p "$obj"
	rsync -a --delete --exclude=/debian "$(lab_obj "$b" patched)/" "$obj/"
else
	mkdir -p "$obj"
	case $config in
	*.xz) xz -dc "$config" >"$obj/.config" ;;
	*) cp "$config" "$obj/.config" ;;
	esac
fi
echo "deb[$b]: configuration: $cfg ($config) + tools/testing/selftests/block/config"
# The lab kernel builds dm, md and raid0 as modules (as a distribution
# does), which the tests load and unload themselves: keep them so, so that
# the lab's objects are reused, although the fragment says built in.
merged=$frag
if [ "$cfg" = lab ]; then
	merged=$dir/config-fragment
	awk 'NR == FNR { if ($0 ~ /^CONFIG_[A-Za-z0-9_]+=m$/) { sub(/=m$/, ""); mod[$0] = 1 }; next }
	     /=y$/ { o = $0; sub(/=y$/, "", o); if (o in mod) next } { print }' \
		"$obj/.config" "$frag" >"$merged"
fi
"$tree/scripts/kconfig/merge_config.sh" -m -O "$obj" "$obj/.config" "$merged" >/dev/null
for k in SYSTEM_TRUSTED_KEYS SYSTEM_REVOCATION_KEYS; do
	case $(grep "^CONFIG_$k=" "$obj/.config" || true) in
	*debian/*) "$tree/scripts/config" --file "$obj/.config" --set-str "$k" "" ;;
	esac
done
if grep -q '^CONFIG_MODULE_SIG_KEY="certs/signing_key.pem"' "$obj/.config" ||
	! grep -q '^CONFIG_MODULE_SIG=y' "$obj/.config"; then
	:
else
	"$tree/scripts/config" --file "$obj/.config" --set-str MODULE_SIG_KEY certs/signing_key.pem
fi
kmake olddefconfig >/dev/null
# y where the fragment says m is as good
lost=$(lab_config_lost "$obj/.config" --y-for-m "$merged")
[ -z "$lost" ] || die "these options of the selftests' config did not survive olddefconfig:
$lost"

echo "deb[$b]: building the packages (bindeb-pkg, LOCALVERSION=$localversion, -j$(nproc))"
release=$(kmake -s kernelrelease)
# The packages' maintainer is whoever builds them (git's identity), as in
# make export; -d: 6.12's bindeb-pkg checks build dependencies (debhelper)
# that a binary-only build does not use.
DEBFULLNAME=$(git -C "$top" config user.name || echo "${USER:-root}") \
DEBEMAIL=$(git -C "$top" config user.email || echo "${USER:-root}@localhost") \
kmake KDEB_PKGVERSION="$(make -s -C "$tree" kernelversion)-1" DPKG_FLAGS=-d bindeb-pkg \
	>"$dir/build.log" 2>&1 ||
	{ tail -n 40 "$dir/build.log" >&2; die "bindeb-pkg failed (log: ${dir#"$top"/}/build.log)"; }
image=""
for f in "$dir"/linux-image-"$release"_*.deb; do
	[ -f "$f" ] && image=$f
done
[ -n "$image" ] || die "bindeb-pkg made no linux-image-$release package"
rm -rf "$root"
dpkg-deb -x "$image" "$root"
[ -f "$root/boot/vmlinuz-$release" ] || die "$(basename "$image") has no boot/vmlinuz-$release"
trap - EXIT
totals
pkgs=$(cd "$dir" && ls ./*.deb | sed 's|^\./||' | xargs)
echo "deb[$b]: $release in $t s ($cpu s of CPU, $runs run(s), objects: $from): $pkgs (in ${dir#"$top"/})"
mkdir -p "$top/results"
printf '%s\t%s\t%s s\t%s\t%s s of CPU in %s run(s), objects: %s\n' "$cfg" "$release" "$t" "$pkgs" "$cpu" "$runs" "$from" \
	>"$top/results/deb-$b-$cfg.txt"
rm -f "$spent"
