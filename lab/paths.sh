# Where each kernel's source, objects and modules live under build/.
# Sourced by the lab scripts; needs $top.
#
# Each object tree sits beside a directory named "linux" with its source
# (build/linux + build/obj-patched, build/base/linux + build/base/obj), so
# the compiler sees the same paths relative to the object tree in both
# builds and ccache (CCACHE_BASEDIR) serves the second kernel from the first.
lab_src() {
	case $1 in
	base) echo "$top/build/base/linux" ;;
	patched) echo "$top/build/linux" ;;
	*) echo "unknown kernel '$1' (base or patched)" >&2; return 2 ;;
	esac
}

lab_obj() {
	case $1 in
	base) echo "$top/build/base/obj" ;;
	patched) echo "$top/build/obj-patched" ;;
	*) echo "unknown kernel '$1' (base or patched)" >&2; return 2 ;;
	esac
}

lab_mods() {
	echo "$top/build/mods-$1"
}
