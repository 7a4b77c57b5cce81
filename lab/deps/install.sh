#!/bin/bash
# Install the Debian packages listed in packages.txt (or in LIST) when any
# of them is missing. Safe to run again: does nothing when everything is
# present. The kernel sources are not installed here:
# lab/deps/fetch-source.sh downloads each base's pinned source package
# into build/src/.
# usage: install.sh [LIST]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
list=${1:-$here/packages.txt}
[ -f "$list" ] || { echo "deps: no package list $list" >&2; exit 2; }

want=$(sed 's/#.*//' "$list" | awk 'NF { print $1 }')
[ -n "$want" ] || { echo "deps: $list names no package" >&2; exit 2; }
missing=
for p in $want; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "deps: all packages present"
	exit 0
fi
echo "deps: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q >/dev/null
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends $missing >/dev/null
echo "deps: done"
