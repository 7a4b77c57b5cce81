#!/bin/bash
# Print "kvm" if a lab guest boots under KVM here, else "tcg". On some hosts
# /dev/kvm exists but nested KVM hangs at boot, so this boots the given
# kernel once with a 45 s limit. The answer is cached in build/accel.
# usage: probe-accel.sh BASE base|patched
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cache=$top/build/accel
if [ -f "$cache" ]; then cat "$cache"; exit 0; fi
result=tcg
if [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
	probe=$(mktemp -d)
	if LAB_ACCEL=kvm LAB_ICOUNT= timeout -k 5 60 "$top/lab/boot/run-guest.sh" --timeout 45 \
		--out "$probe" "$1" "$2" true >/dev/null 2>&1; then
		result=kvm
	fi
	rm -rf "$probe"
fi
echo "probe: guest accelerator is $result" >&2
echo "$result" >"$cache"
echo "$result"
