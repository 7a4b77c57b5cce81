# Request-based dm-multipath over a busy path (issue 12, finding 2): path A
# is a null_blk disk with one driver tag, 2 ms completions and mq-deadline,
# kept busy by its own fio writer; path B is fast; round-robin over both.
# The selftest dm_mpath_busy_path.sh writes 1024 x 4 KiB to the dm device
# in batches of 16 and counts the dm device's requeues (BLK_STS_RESOURCE
# from A seen by dm-rq), the writes that went to each path and the
# writes/s (tracing on, the same on both kernels). The series does not
# change this path: both kernels should give the same numbers.
# lab-disk: (none: null_blk)
WL_NAME=dm-mpath-busy-path
WL_DESC="dm-multipath over a busy path: dm requeues (BUSY), writes per path, writes/s"

DB_KSFT=$LAB_KSFT

wl_run() {
	local line
	wl_need "$DB_KSFT/dm_mpath_busy_path.sh" || return 0
	"$DB_KSFT/dm_mpath_busy_path.sh" >selftest.txt 2>&1
	sed -n 's/^# aio_batch/    aio_batch/p' selftest.txt
	line=$(grep -F "# aio_batch exit" selftest.txt | head -n 1)
	[ -n "$line" ] || { echo "no result line in the selftest output" >&2; cat selftest.txt >&2; return 1; }
	# counts of a run that did not complete mean nothing
	case $line in
	*"aio_batch exit 0, "*"still busy: yes;"*) ;;
	*) echo "the selftest's run did not complete: $line" >&2; return 1 ;;
	esac
	grep -q "^# not ok .*path .* failed\|run did not complete" selftest.txt &&
		{ echo "the selftest reports a failed path or an incomplete run" >&2; return 1; }
	emit dm_requeues "$(echo "$line" | sed -n 's/.*dm requeues \([0-9]*\),.*/\1/p')" count \
		"dm_mpath_busy_path.sh: block_rq_requeue on the dm device"
	emit writes_on_busy_path "$(echo "$line" | sed -n 's/.*writes on [^ ]* \([0-9]*\), on.*/\1/p')" count \
		"dm_mpath_busy_path.sh: dm writes issued to the busy path A"
	emit writes_on_fast_path "$(echo "$line" | sed -n 's/.*, on [^ ]* \([0-9]*\),.*/\1/p')" count \
		"dm_mpath_busy_path.sh: dm writes issued to path B"
	emit writes_per_s "$(echo "$line" | sed -n 's/.*, \([0-9]*\) writes\/s traced.*/\1/p')" writes/s \
		"dm_mpath_busy_path.sh: 1024 writes, wall clock, tracing on"
}
