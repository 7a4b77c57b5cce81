#!/bin/bash
# Print the path of a pahole (Debian package pahole) unpacked into
# build/tools/pahole/, for make deb's distribution configurations (BTF).
# Not installed on the host: with pahole on the PATH, every kernel
# configuration records its version (CONFIG_PAHOLE_VERSION), which would
# change the lab kernels' configuration and miss ccache for all of them.
# Its libraries are in lab/deps/packages-deb.txt.
# usage: fetch-pahole.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
dir=$top/build/tools/pahole
bin=$dir/root/usr/bin/pahole
if ! [ -x "$bin" ]; then
	rm -rf "$dir"
	mkdir -p "$dir"
	echo "deps: downloading pahole into ${dir#"$top"/}" >&2
	(cd "$dir" && { apt-get download -q pahole >/dev/null 2>&1 ||
		{ apt-get update -q >/dev/null && apt-get download -q pahole >/dev/null 2>&1; }; }) ||
		{ echo "deps: cannot download the Debian package pahole" >&2; exit 1; }
	dpkg-deb -x "$dir"/pahole_*.deb "$dir/root"
fi
"$bin" --version >/dev/null ||
	{ echo "deps: $bin does not run (lab/deps/packages-deb.txt has its libraries)" >&2; exit 1; }
echo "$bin"
