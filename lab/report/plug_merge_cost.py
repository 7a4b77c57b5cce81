#!/usr/bin/env python3
"""What the multi-queue plug merge fix costs and gains, from per-patch runs
(lab/bench/run-per-patch.sh mainline plug-hotpath-randread
plug-merge-multi-queue under LAB_ICOUNT=0).

Kernels are found by the subject of their last patch: "before" is the
kernel up to the patch before the fix, "walk" the one with
"block: try the newest plugged request of the bio's queue for a plug
merge", "cache" the one that also remembered the newest request of up to
four queues in struct blk_plug (v2's design, measured on top of the walk),
"7.3.4" the base. A kernel measured in several runs gets the mean of its
per-run medians.

Prints two tables: guest instructions per I/O of the random 4 KiB rows
(10^9 / IOPS: under icount shift=0 the guest clock advances 1 ns per
instruction) with the change from "before", and the average request at
the legs of the sequential rows against the best one batch allows.

usage: plug_merge_cost.py RESULT_DIR...   (exit 1 if a kernel or row is
missing from every run)
"""
import json
import os
import statistics
import sys

# the workloads whose metrics are tabled (metric names are unique within them)
WORKLOADS = ("plug-hotpath-randread", "plug-merge-multi-queue")

ROLES = [
    ("7.3.4", lambda label: label == "base"),
    ("before", lambda label: "a noflush reload of dm-multipath" in label),
    ("walk", lambda label: "try the newest plugged request" in label),
    ("cache", lambda label: "remember the newest request of each queue" in label),
]


def role_of(label):
    for role, match in ROLES:
        if match(label):
            return role
    return None


def main():
    if len(sys.argv) < 2:
        sys.exit("usage: plug_merge_cost.py RESULT_DIR...")
    values = {}
    runs = {}
    for res in sys.argv[1:]:
        with open(os.path.join(res, "per-patch.json")) as f:
            d = json.load(f)
        if "icount shift=0" not in d.get("accelerator", ""):
            sys.exit(f"plug_merge_cost: {res} was not run under icount shift=0 "
                     f"({d.get('accelerator')}): its IOPS are not instruction counts")
        roles = {k["kernel"]: role_of(k["label"]) for k in d["kernels"]}
        for m in d["metrics"]:
            if m["workload"] not in WORKLOADS:
                continue
            for kernel, v in m["median"].items():
                role = roles.get(kernel)
                if role is None or v is None:
                    continue
                values.setdefault((role, m["metric"]), []).append(v)
                runs.setdefault(role, set()).add(res)

    def get(role, metric):
        vals = values.get((role, metric))
        return statistics.mean(vals) if vals else None

    for role in ("before", "walk"):
        if role not in runs:
            sys.exit(f"plug_merge_cost: no run measured the '{role}' kernel")
    have_cache = "cache" in runs

    rows = [("one null_blk, randread", "iops_median")]
    for n in (2, 4, 8):
        for rw in ("randread", "randwrite"):
            rows.append((f"io_uring, {n} disks, {rw}", f"uring_{n}disks_{rw}_iops"))
    for lay, name in (("dm_stripe", "dm-stripe"), ("md_raid0", "md raid0")):
        for n in (4, 8):
            for rw in ("randread", "randwrite"):
                rows.append((f"{name}, {n} legs, {rw}", f"{lay}_{n}legs_{rw}_iops"))

    print("Guest instructions per I/O (10^9 / IOPS under icount shift=0),")
    print("4 KiB random I/O, QD 64, 64 per submission; runs: "
          + ", ".join(f"{r} {len(runs.get(r, ()))}" for r, _ in ROLES))
    head = f"  {'':<30} {'7.3.4':>7} {'before':>7} {'walk':>7} {'change':>8}"
    if have_cache:
        head += f" {'cache':>7} {'change':>8}"
    print(head)
    missing = False
    for label, metric in rows:
        b, w = get("before", metric), get("walk", metric)
        if b is None or w is None:
            print(f"  {label:<30} (not measured)")
            missing = True
            continue
        base = get("7.3.4", metric)
        ib, iw = 1e9 / b, 1e9 / w
        line = (f"  {label:<30} {1e9 / base if base else float('nan'):7.0f}"
                f" {ib:7.0f} {iw:7.0f} {100 * (iw / ib - 1):+7.2f}%")
        if have_cache:
            c = get("cache", metric)
            if c:
                line += f" {1e9 / c:7.0f} {100 * (1e9 / c / ib - 1):+7.2f}%"
            else:
                line += f" {'-':>7} {'-':>8}"
        print(line)

    print()
    print("Average request at the legs (KiB), sequential writes, 256 per submission")
    print(f"  {'':<30} {'before':>7} {'walk':>7} {'best':>7}")
    for lay, name in (("dm_stripe", "dm-stripe"), ("md_raid0", "md raid0")):
        for n in (4, 8):
            for bs in ("16k", "4k"):
                metric = f"{lay}_{n}legs_{bs}_avg_request"
                b, w = get("before", metric), get("walk", metric)
                ideal = get("walk", metric + "_ideal")
                if b is None or w is None or ideal is None:
                    print(f"  {name}, {n} legs, {bs:<14} (not measured)")
                    missing = True
                    continue
                print(f"  {f'{name}, {n} legs, {bs}':<30} {b:7.1f} {w:7.1f} {ideal:7.1f}")
    if missing:
        sys.exit(1)


if __name__ == "__main__":
    main()
