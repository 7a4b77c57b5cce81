# Zones taking turns on a rotational zoned disk: the writes of one zone
# against an unrelated writer in the next zone and against a second
# stream, with the kernel's default write mode (7.3: queue/zoned_qd1_writes
# = 1, one thread submitting every write at queue depth one; 6.12: zone
# write plugging with the series' hold). The figures of mainline's
# "block: zoned: bound the time one zone holds the QD1 write worker".
#
# Device and cases are zoned-order-matrix's null_blk (256 MiB, 8 MiB zones,
# 1 ms completions, mq-deadline, registered rotational), whose helpers this
# file reads:
#  - adj: a 4 KiB QD 32 stream in zone N, a 4 KiB QD 1 writer at the start
#    of zone N + 1 once the stream is under way; four zone pairs. Metrics:
#    the writer's p99 (median of the pairs) and worst completion latency;
#  - two: two seed 002 streams at once (64 KiB, QD 32), 64 MiB each, 128
#    MiB apart. Metrics: inversions within a stream, seeks, modelled MB/s,
#    the device's MiB/s, the p99 of the slower stream;
#  - seed: seed 002's job alone, 256 MiB: inversions, seeks and modelled
#    MB/s (a single stream must cross every zone boundary in order), the
#    device's MiB/s and p99.
# nullb_qd1_default records queue/zoned_qd1_writes as registered (7.3).
# lab-disk: (none: null_blk)
# shellcheck source=zoned-order-matrix.sh
. "$(dirname "${BASH_SOURCE[0]}")/zoned-order-matrix.sh"
WL_NAME=zoned-qd1-fairness
WL_DESC="rotational zoned null_blk, default write mode: adjacent-zone writer latency, two streams (inversions, seeks, p99), seed 002 stream order"

wl_run() {
	local rc=0
	command -v blkzone >/dev/null || { echo "zoned: blkzone is missing" >&2; return 1; }
	[ -d /sys/module/null_blk ] || modprobe null_blk nr_devices=0 || return 1
	zm_trace_start || { zm_trace_stop; echo "zoned: cannot make a tracefs instance" >&2; return 1; }
	ZM_DEV=bench_zq ZM_FIRST=0
	if zm_nullb_create; then
		zm_case_adj nullb 0 && zm_case_two nullb 0 &&
			zm_case_stream nullb seed libaio 0 || rc=1
	else
		rc=1
	fi
	[ -d /sys/kernel/config/nullb/$ZM_DEV ] && { nullb_remove $ZM_DEV || rc=1; }
	zm_trace_stop
	return $rc
}
