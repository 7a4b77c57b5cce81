# Helpers for bench workloads, sourced inside a lab guest by guest-bench.sh.
# A workload file defines WL_NAME, WL_DESC and wl_run(); wl_run() reports
# each number with emit.

BENCH_OUT=${BENCH_OUT:-/tmp/out}
LAB_TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
# LAB_KSFT: the block selftests of this base's series (guest-bench.sh).

# wl_need FILE: true if the base's series ships FILE (a selftest or helper
# the workload runs); else says that the workload is skipped on this base.
wl_need() {
	[ -e "$1" ] && return 0
	echo "bench: $WL_NAME: skipped on this base: its series has no $(basename "$1")"
	return 1
}

# emit METRIC VALUE UNIT COMMAND: one measured number of the current workload.
emit() {
	python3 - "$WL_NAME" "$1" "$2" "$3" "$4" >>"$BENCH_OUT/metrics.jsonl" <<'PY'
import json, sys
w, m, v, u, c = sys.argv[1:6]
print(json.dumps({"workload": w, "metric": m, "value": float(v), "unit": u, "command": c}))
PY
	printf '    %-28s %14.2f %s\n' "$1" "$2" "$3"
}

# fio_field FILE PATH: a value from fio's JSON output, e.g. jobs.0.read.bw
fio_field() {
	python3 - "$1" "$2" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
for k in sys.argv[2].split("."):
    d = d[int(k)] if isinstance(d, list) else d[k]
print(d)
PY
}

# stat_field DEV N: field N (1-based) of /sys/block/DEV/stat
stat_field() {
	awk -v n="$2" '{ print $n }' "/sys/block/$1/stat"
}

nullb_create() {
	local name=$1 dir=/sys/kernel/config/nullb/$1 kv
	shift
	[ -d /sys/module/null_blk ] || modprobe null_blk nr_devices=0 || return 1
	mkdir "$dir" || return 1
	for kv in "$@"; do echo "${kv#*=}" >"$dir/${kv%%=*}" || return 1; done
	echo 1 >"$dir/power" || return 1
	for _ in $(seq 50); do [ -b "/dev/$name" ] && return 0; sleep 0.1; done
	return 1
}

nullb_remove() {
	echo 0 >"/sys/kernel/config/nullb/$1/power"
	rmdir "/sys/kernel/config/nullb/$1"
}

# first_disk MODEL_PATTERN: the first disk whose device/model (NVMe) or
# serial (virtio) matches, e.g. first_disk 'QEMU NVMe'
first_disk() {
	local d
	for d in /sys/block/*; do
		if grep -qs "$1" "$d/device/model" "$d/serial" "$d/device/serial"; then
			basename "$d"
			return 0
		fi
	done
	return 1
}

# bpftrace_start OUT PROGRAM: start bpftrace in the background, wait until
# its probes are attached; bpftrace_stop prints its maps into OUT.
bpftrace_start() {
	BPF_OUT=$1
	bpftrace -e "$2" >"$BPF_OUT" 2>"$BPF_OUT.err" &
	BPF_PID=$!
	for _ in $(seq 600); do
		grep -q '^Attaching' "$BPF_OUT" && return 0
		kill -0 $BPF_PID 2>/dev/null || break
		sleep 0.1
	done
	echo "bpftrace did not start:" >&2
	cat "$BPF_OUT.err" >&2
	return 1
}

bpftrace_stop() {
	kill -INT "$BPF_PID"
	wait "$BPF_PID" 2>/dev/null || true
}

# bpf_map_value FILE KEY: the count printed for @[KEY] (0 if absent)
bpf_map_value() {
	awk -v k="@[$2]:" '$1 == k { v = $2 } END { print v + 0 }' "$1"
}
