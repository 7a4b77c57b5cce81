#!/bin/bash
# Run stage for the bench, inside a lab guest: run each workload file given
# and collect their metrics in OUT/metrics.jsonl. KSFT is the directory of
# the base's installed block selftests (build/<base>/kselftest/block).
# usage: guest-bench.sh OUT KSFT WORKLOAD_FILE...
export BENCH_OUT=${1:?usage: guest-bench.sh OUT KSFT WORKLOAD...}
export LAB_KSFT=${2:?usage: guest-bench.sh OUT KSFT WORKLOAD...}
shift 2
: >"$BENCH_OUT/metrics.jsonl"
rm -f "$BENCH_OUT/failed"
# The lab kernels build dm, md and raid0 as modules, as a distribution
# does; the workloads create dm and md devices without loading them.
modprobe -a dm-multipath dm-round-robin md-mod raid0 2>/dev/null
rc=0
for wl in "$@"; do
	(
		# shellcheck source=guest-lib.sh
		. "$(dirname "$0")/guest-lib.sh"
		# shellcheck disable=SC1090
		. "$wl"
		echo "bench: $WL_NAME: $WL_DESC"
		cd "$(mktemp -d)" && wl_run
	) || { echo "bench: workload $wl FAILED"; echo "$(basename "$wl" .sh)" >>"$BENCH_OUT/failed"; rc=1; }
done
# a metric a workload could not measure (emit) fails the run too
[ -s "$BENCH_OUT/failed" ] && rc=1
exit $rc
