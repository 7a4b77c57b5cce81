#!/usr/bin/env python3
"""Issue #14's one table: the zoned-order-matrix workload on every kernel,
side by side. Columns: 6.12.117, 6.12.117 with series v1's zoned patch,
6.12.117 with the series, 7.3.4 with queue/zoned_qd1_writes 1 and 0, and
7.3.4 with the mainline series (whose "block: zoned: bound the time one
zone holds the QD1 write worker" changes the QD1 path) with 1 and 0.
A cell is "-" where the run has no value (a guest that did not finish).
The mainline series' columns are left empty (and stderr says why) when
the mainline run is older than the Date: of that zoned patch in
patches/mainline/: its patched kernel did not have it.

usage: zoned_table.py BENCH_6.12.json V1_METRICS.jsonl BENCH_MAINLINE.json
prints the table (metric rows: device, workload, figure)
"""
import glob
import json
import os
import sys
from datetime import datetime
from email.utils import parsedate_to_datetime

WL = "zoned-order-matrix"
CW = 17  # column width


def bench_values(path, base, kernel):
    d = json.load(open(path))
    out = {}
    for metric, m in d["workloads"].get(WL, {}).items():
        v = m["values"].get(base, {}).get(kernel)
        if v is not None:
            out[metric] = (v, m["unit"])
    return out


def jsonl_values(path):
    out = {}
    for line in open(path):
        r = json.loads(line)
        if r["workload"] == WL:
            out[r["metric"]] = (r["value"], r["unit"])
    return out


ZONED_PATCH = "patches/mainline/*/*-block-zoned-bound-the-time-one-zone-hold*.patch"


def series_had_zoned_patch(bench_path):
    """False if the mainline run predates the series' zoned patch."""
    top = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")
    found = sorted(glob.glob(os.path.join(top, ZONED_PATCH)) +
                   glob.glob(os.path.join(top, ZONED_PATCH.replace("*/*-", "*-", 1))))
    with open(bench_path) as f:
        when = json.load(f).get("date")
    if not found:
        print(f"zoned_table: no {ZONED_PATCH}: the run's date is not checked", file=sys.stderr)
        return True
    if not when:
        return True
    with open(found[0]) as f:
        lines = f.read().splitlines()
    for line in lines:
        if line.startswith("Date: "):
            dated = parsedate_to_datetime(line[6:].strip())
            if datetime.fromisoformat(when) < dated:
                print(f"zoned_table: {bench_path} ran before {os.path.basename(found[0])} "
                      f"(Date: {dated.isoformat()}): no 7.3.4+ser columns", file=sys.stderr)
                return False
            break
    return True


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    b612, v1, bml = sys.argv[1:]
    ser = series_had_zoned_patch(bml)
    cols = [
        ("6.12.117", bench_values(b612, "6.12", "base"), ""),
        ("6.12 + v1", jsonl_values(v1), ""),
        ("6.12 + series", bench_values(b612, "6.12", "patched"), ""),
        ("7.3.4 qd1=1", bench_values(bml, "mainline", "base"), "qd1"),
        ("7.3.4 qd1=0", bench_values(bml, "mainline", "base"), "qd0"),
        ("7.3.4+ser qd1=1", bench_values(bml, "mainline", "patched") if ser else {}, "qd1"),
        ("7.3.4+ser qd1=0", bench_values(bml, "mainline", "patched") if ser else {}, "qd0"),
    ]
    rows = []
    for metric in cols[0][1]:
        if metric not in rows:
            rows.append(metric)
    width = max(len(r) for r in rows) + 2
    print(f"{'metric':<{width}}{'unit':<8}" + "".join(f"{c[0]:>{CW}}" for c in cols))
    print("-" * (width + 8 + CW * len(cols)))
    for metric in rows:
        dev, rest = metric.split("_", 1)
        cells, unit = [], cols[0][1][metric][1]
        for _, vals, qd in cols:
            key = f"{dev}_{qd}_{rest}" if qd else metric
            v = vals.get(key)
            cells.append(f"{v[0]:>{CW}.2f}" if v else f"{'-':>{CW}}")
        print(f"{metric:<{width}}{unit:<8}" + "".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
