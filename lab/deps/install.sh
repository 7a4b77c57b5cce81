#!/bin/bash
# Install the Debian packages listed in packages.txt (plus the pinned kernel
# source) when any of them is missing. Safe to run again: does nothing when
# everything is present.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
pin=${LAB_SOURCE_VERSION:-6.12.117-1~deb12u1}

want=$(grep -v '^\s*#' "$here/packages.txt" | grep -v '^\s*$')
want="$want linux-source-6.12"
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
src=linux-source-6.12
if apt-cache madison "$src" | awk '{print $3}' | grep -qxF "$pin"; then
	src="linux-source-6.12=$pin"
else
	echo "deps: WARNING: linux-source-6.12 $pin is not offered by the registry;" \
		"taking the candidate $(apt-cache policy linux-source-6.12 | awk '/Candidate/{print $2}')" >&2
fi
# shellcheck disable=SC2086
apt-get install -y -q --no-install-recommends ${missing/linux-source-6.12/$src} >/dev/null
echo "deps: done"
