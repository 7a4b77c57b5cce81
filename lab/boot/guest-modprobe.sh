#!/bin/sh
# /proc/sys/kernel/modprobe in a lab guest: the kernel's module requests
# load from the modules directory guest-init.sh recorded in /run/lab-mods.
exec /sbin/modprobe -d "$(cat /run/lab-mods)" "$@"
