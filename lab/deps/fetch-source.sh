#!/bin/bash
# Source stage, first half: download the pinned Debian kernel source package
# of a base (lab/bases.tsv) and unpack it into build/src/<base>/ (the
# tarball under usr/src/, Debian's changelog under usr/share/doc/). apt runs
# on a private index in build/apt/: the host's own sources plus the base's
# suite on the host's mirror, so the host's apt setup is never changed.
# Does nothing when the pinned version is already unpacked. Another
# version is taken only when the pin is not offered, with a loud warning
# (kept, with the warning, until LAB_REFETCH=1 asks the mirror again).
# "config" after the base fetches Debian's kernel configurations of the
# same version instead (linux-config-<ver>, for make deb) into
# build/src/<base>-config/.
# usage: fetch-source.sh BASE [config]
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/lab/paths.sh"
base=${1:?usage: fetch-source.sh BASE [config]}
what=${2:-source}
lab_check_base "$base" || exit 2
pkg=$(lab_base_field "$base" 2)
pin=$(lab_base_field "$base" 3)
suite=$(lab_base_field "$base" 4)
dest=$(lab_source_dir "$base")
case $what in
source) ;;
config) pkg=linux-config-${pkg#linux-source-} dest=$dest-config ;;
*) echo "usage: fetch-source.sh BASE [config]" >&2; exit 2 ;;
esac
[ -n "$pkg" ] && [ -n "$pin" ] && [ -n "$suite" ] ||
	{ echo "fetch[$base]: lab/bases.tsv needs package, version and suite for $base" >&2; exit 2; }

warn_version() {
	echo "fetch[$base]: WARNING: **************************************************" >&2
	echo "fetch[$base]: WARNING: $pkg $pin is not offered by the package mirror;" >&2
	echo "fetch[$base]: WARNING: using $1 instead: results are not comparable" >&2
	echo "fetch[$base]: WARNING: with the pinned base, and the series may not apply." >&2
	echo "fetch[$base]: WARNING: **************************************************" >&2
}

have=$(cat "$dest/version" 2>/dev/null || true)
if [ "$have" = "$pin" ]; then
	echo "fetch[$base]: $pkg $pin already unpacked"
	exit 0
elif [ -n "$have" ] && [ -z "${LAB_REFETCH:-}" ]; then
	warn_version "$have (unpacked earlier; LAB_REFETCH=1 looks again)"
	exit 0
fi

apt=$top/build/apt
rm -rf "$apt/parts"
mkdir -p "$apt/lists/partial" "$apt/cache/archives/partial" "$apt/dl" "$apt/parts"
# The host's sources, copied as they are; the host's apt setup is not used
# beyond that (its hooks neither: see aptopts).
cp /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources "$apt/parts/" 2>/dev/null || true
[ -f /etc/apt/sources.list ] && cp /etc/apt/sources.list "$apt/parts/host.list"
# The host's Debian mirror: the URI of its main release, e.g. bookworm.
codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
mirror=$(apt-get indextargets --format '$(REPO_URI) $(RELEASE)' 2>/dev/null |
	awk -v c="$codename" '$2 == c { print $1; exit }' || true)
mirror=${mirror:-http://deb.debian.org/debian/}
: >"$apt/extra.list"
if [ "$suite" != "-" ]; then
	echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] $mirror $suite main" >"$apt/extra.list"
fi
aptopts=(-o Dir::Etc::SourceList="$apt/extra.list"
	-o Dir::Etc::SourceParts="$apt/parts"
	-o Dir::State::Lists="$apt/lists" -o Dir::Cache="$apt/cache"
	-o APT::Update::Pre-Invoke::= -o APT::Update::Post-Invoke::=
	-o APT::Update::Post-Invoke-Success::=
	-o Acquire::IndexTargets::deb::DEP-11::DefaultEnabled=false
	-o APT::Sandbox::User=root -q)

if [ "$suite" = - ]; then
	echo "fetch[$base]: private apt index of the host's sources"
else
	echo "fetch[$base]: private apt index of the host's sources + $suite on $mirror"
fi
apt-get "${aptopts[@]}" update >"$apt/update.log" 2>&1 ||
	{ echo "fetch[$base]: apt-get update failed:" >&2; tail -n 20 "$apt/update.log" >&2; exit 1; }
offered=$(apt-cache "${aptopts[@]}" madison "$pkg" | awk -F'|' '{ gsub(/ /, "", $2); print $2 }' || true)
ver=$pin
if ! grep -qxF "$pin" <<<"$offered"; then
	ver=$(head -n 1 <<<"$offered")
	[ -n "$ver" ] || { echo "fetch[$base]: $pkg is not offered at all by the mirror; cannot go on" >&2; exit 1; }
	warn_version "$ver"
fi

echo "fetch[$base]: downloading $pkg $ver"
(cd "$apt/dl" && rm -f ./*.deb && apt-get "${aptopts[@]}" download "$pkg=$ver" >"$apt/download.log" 2>&1) ||
	{ echo "fetch[$base]: apt-get download failed:" >&2; tail -n 20 "$apt/download.log" >&2; exit 1; }
rm -rf "$dest"
mkdir -p "$dest"
dpkg-deb -x "$apt/dl/"*.deb "$dest" ||
	{ echo "fetch[$base]: unpacking the package failed" >&2; exit 1; }
rm -f "$apt/dl/"*.deb
echo "$ver" >"$dest/version"
echo "fetch[$base]: unpacked into ${dest#"$top"/}: $(ls -d "$dest"/usr/src/*.tar.* "$dest"/usr/src/linux-config-* 2>/dev/null | head -n 1)"
