#!/bin/bash
# Run stage for the bench, inside a lab guest: run each workload file given
# and collect their metrics in OUT/metrics.jsonl.
# usage: guest-bench.sh OUT WORKLOAD_FILE...
export BENCH_OUT=${1:?usage: guest-bench.sh OUT WORKLOAD...}
shift
: >"$BENCH_OUT/metrics.jsonl"
rc=0
for wl in "$@"; do
	(
		# shellcheck source=guest-lib.sh
		. "$(dirname "$0")/guest-lib.sh"
		# shellcheck disable=SC1090
		. "$wl"
		echo "bench: $WL_NAME: $WL_DESC"
		cd "$(mktemp -d)" && wl_run
	) || { echo "bench: workload $wl FAILED"; rc=1; }
done
exit $rc
