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
# A value that is not a number (a parse that found nothing) fails the
# workload instead of leaving the metric out. bc writes a value below 1
# without its leading zero (".0066"): that is a number.
emit() {
	if ! [[ $2 =~ ^-?([0-9]+(\.[0-9]*)?|\.[0-9]+)([eE][-+]?[0-9]+)?$ ]]; then
		echo "bench: $WL_NAME: metric $1 has no numeric value ('$2')" >&2
		echo "$WL_NAME" >>"$BENCH_OUT/failed"
		return 1
	fi
	# a number bash's pattern takes but JSON has not (1e999 is inf)
	if ! python3 - "$WL_NAME" "$1" "$2" "$3" "$4" >>"$BENCH_OUT/metrics.jsonl" <<'PY'
import json, math, sys
w, m, v, u, c = sys.argv[1:6]
if not math.isfinite(float(v)):
    sys.exit(1)
print(json.dumps({"workload": w, "metric": m, "value": float(v), "unit": u, "command": c}))
PY
	then
		echo "bench: $WL_NAME: metric $1 is not a finite number ('$2')" >&2
		echo "$WL_NAME" >>"$BENCH_OUT/failed"
		return 1
	fi
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

# min_med_max VALUE...: the smallest, the median (the lower middle one
# for an even count) and the largest value, on one line
min_med_max() {
	printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[1], v[int((NR + 1) / 2)], v[NR] }'
}

# emit_iops_median METRIC RUNS DIR CMD...: run the fio command CMD (with
# --output-format=json) RUNS times and emit the median of its
# jobs.0.DIR.iops (DIR read or write) as METRIC, in IOPS, naming min and
# max; returns 1 if a run or its parse fails
emit_iops_median() {
	local metric=$1 runs=$2 dir=$3 i v iops=() min med max
	shift 3
	for i in $(seq "$runs"); do
		"$@" >fio.json || return 1
		v=$(fio_field fio.json "jobs.0.$dir.iops") || return 1
		iops+=("$v")
	done
	read -r min med max <<<"$(min_med_max "${iops[@]}")"
	emit "$metric" "$med" IOPS "$* (median of $runs; min $min, max $max)"
}

# rq_issue_trace_start: record block:block_rq_issue (the guest's top-level
# tracefs buffer, 4 MiB per CPU) from an empty buffer; rq_issue_trace_stop
# writes what was recorded to trace.txt in the current directory;
# rq_issue_trace_off turns the event off (cleanup)
LAB_TRACEFS=/sys/kernel/tracing
rq_issue_trace_start() {
	[ -d $LAB_TRACEFS/events ] || mount -t tracefs nodev $LAB_TRACEFS
	echo 0 >$LAB_TRACEFS/tracing_on
	echo >$LAB_TRACEFS/trace
	echo 4096 >$LAB_TRACEFS/buffer_size_kb
	echo 1 >$LAB_TRACEFS/events/block/block_rq_issue/enable
	echo 1 >$LAB_TRACEFS/tracing_on
}

rq_issue_trace_stop() {
	rq_issue_trace_off
	cat $LAB_TRACEFS/trace >trace.txt
}

rq_issue_trace_off() {
	echo 0 >$LAB_TRACEFS/events/block/block_rq_issue/enable 2>/dev/null
}

# use_blk_count_issued: define blk_count_issued DEVNO < TRACE ("<flushes>
# <writes> <fua writes>") from the base's block selftests (LAB_KSFT), so
# that the bench and the flush selftests count a flush, a write and a FUA
# write the same way; fails if the selftests have none
use_blk_count_issued() {
	eval "$(sed -n '/^blk_count_issued()$/,/^}$/p' "$LAB_KSFT/common.sh")"
	declare -F blk_count_issued >/dev/null ||
		{ echo "bench: $WL_NAME: no blk_count_issued() in $LAB_KSFT/common.sh" >&2; return 1; }
}

# emit_path_counts PREFIX LABEL DEVNO: the writes, flushes and FUA writes
# that trace.txt (block:block_rq_issue) shows issued to DEVNO ("major,minor")
# as PREFIX_writes_path_LABEL, PREFIX_flushes_path_LABEL and
# PREFIX_fua_writes_path_LABEL (LABEL may name a device that is not a path,
# such as "dm"); also sets PATH_WRITES and PATH_FLUSHES
emit_path_counts() {
	local f w u
	read -r f w u <<<"$(blk_count_issued "$3" <trace.txt)"
	emit "${1}_writes_path_$2" "$w" count "block:block_rq_issue on $3, rwbs W (after any F)" || return 1
	emit "${1}_flushes_path_$2" "$f" count "block:block_rq_issue on $3, rwbs starting with F" || return 1
	emit "${1}_fua_writes_path_$2" "$u" count "block:block_rq_issue on $3, W with F" || return 1
	PATH_WRITES=$w PATH_FLUSHES=$f
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

# Counting kprobes through tracefs, in an instance of their own. On the
# 7.3.4 lab guests (QEMU TCG) a kprobe that is armed a second time, by
# bpftrace or by tracefs, oopses at its first hit (RIP 0x1 just after the
# function's __fentry__ call); the first arming works, on 6.12 every one
# does. So a workload arms its probes once, takes a snapshot per case, and
# removes them at its end, and no two workloads may probe the same
# function (they run in one guest).
# kprobes_start FILTER NAME=DEFINITION...: one event labbench/NAME per
# pair, DEFINITION as in kprobe_events without the name, e.g.
# "p blk_mq_get_tags"; FILTER (e.g. 'comm == "fio"', or "" for none)
# applies to each event.
KP_TRACEFS=/sys/kernel/tracing
KP_INST=$KP_TRACEFS/instances/labbench
kprobes_start() {
	local filter=$1 pair name def
	shift
	KP_NAMES=""
	[ -f $KP_TRACEFS/kprobe_events ] || { echo "no tracefs kprobe events" >&2; return 1; }
	mkdir $KP_INST || return 1
	echo 32768 >$KP_INST/buffer_size_kb || { kprobes_stop; return 1; }
	for pair in "$@"; do
		name=${pair%%=*} def=${pair#*=}
		echo "${def%% *}:labbench/$name ${def#* }" >>$KP_TRACEFS/kprobe_events || { kprobes_stop; return 1; }
		KP_NAMES="$KP_NAMES $name"
		if [ -n "$filter" ]; then
			echo "$filter" >$KP_INST/events/labbench/$name/filter || { kprobes_stop; return 1; }
		fi
	done
	echo 1 >$KP_INST/events/labbench/enable || { kprobes_stop; return 1; }
	echo >$KP_INST/trace
}

# kprobes_snapshot OUT: write the events traced since the last snapshot
# (or the start) to OUT and clear the buffer; fails if the ring buffer
# overran meanwhile (a count would be short). Clearing the buffer also
# resets its overrun counters, so they are read before.
kprobes_snapshot() {
	local lost
	cat $KP_INST/trace >"$1"
	lost=$(cat $KP_INST/per_cpu/cpu*/stats | awk '$1 == "overrun:" { n += $2 } END { print n + 0 }')
	echo >$KP_INST/trace
	if [ "$lost" -gt 0 ] || grep -q 'LOST' "$1"; then
		echo "kprobes: the trace buffer overran ($lost events lost): counts would be short" >&2
		return 1
	fi
}

# kprobes_stop: disarm and remove the events of kprobes_start.
kprobes_stop() {
	local name
	{ echo 0 >$KP_INST/events/labbench/enable; } 2>/dev/null
	rmdir $KP_INST 2>/dev/null
	for name in $KP_NAMES; do echo "-:labbench/$name" >>$KP_TRACEFS/kprobe_events; done
	KP_NAMES=""
}

# kprobe_hits FILE NAME: how many NAME events FILE holds.
kprobe_hits() {
	awk -v n=" $2: (" 'index($0, n) { c++ } END { print c + 0 }' "$1"
}
