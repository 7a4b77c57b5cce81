#!/bin/bash
# Experiment for issue 5 (not a test yet): request order in the D stream of a
# virtio-blk disk whose ring overflows, so that requests are requeued.
# Run: lab/boot/run-guest.sh --disk virtio:64M:wc=off,qs=16,ind=off patched \
#        bash $PWD/lab/experiments/virtio-requeue-order.sh
# Counts requeues and LBA inversions in block_rq_issue; note that a D event
# of an attempt that was requeued is counted too.
T=/sys/kernel/tracing
for d in /sys/block/vd*; do
  n=$(basename $d); echo none > $d/queue/scheduler; echo 2 > $d/queue/nomerges
  mm=$(cat $d/dev | tr : ,)
  echo "== $n ($mm) hw_queues=$(ls $d/mq | wc -l) nr_requests=$(cat $d/queue/nr_requests)"
  echo > $T/trace; echo 1 > $T/events/block/block_rq_issue/enable; echo 1 > $T/events/block/block_rq_requeue/enable
  taskset -c 0 $(dirname "$0")/../../build/kselftest/block/aio_batch -b 32 -s 4096 -S 8192 -n 3200 /dev/$n
  echo 0 > $T/events/block/block_rq_issue/enable; echo 0 > $T/events/block/block_rq_requeue/enable
  echo "requeues $(grep -c block_rq_requeue $T/trace)"
  grep 'block_rq_issue' $T/trace | grep " $mm " | awk '{for(i=1;i<=NF;i++) if($i=="+") print $(i-1)}' > /tmp/s.txt
  awk 'NR>1 && $1<prev {inv++} {prev=$1} END {print "issues", NR, "inversions", inv+0}' /tmp/s.txt
  grep -B3 -A6 -m1 block_rq_requeue $T/trace | cut -c1-150
done
