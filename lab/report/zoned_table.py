#!/usr/bin/env python3
"""Issue #14's one table: the zoned-order-matrix workload on every kernel,
side by side. Columns: 6.12.117, 6.12.117 with series v1's zoned patch,
6.12.117 with the series, 7.3.4 with queue/zoned_qd1_writes 1 and 0 (the
7.3.4 base kernel; the mainline series does not change zoned writes).

usage: zoned_table.py BENCH_6.12.json V1_METRICS.jsonl BENCH_MAINLINE.json
prints the table (metric rows: device, workload, figure)
"""
import json
import sys

WL = "zoned-order-matrix"


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


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    b612, v1, bml = sys.argv[1:]
    cols = [
        ("6.12.117", bench_values(b612, "6.12", "base"), ""),
        ("6.12 + v1", jsonl_values(v1), ""),
        ("6.12 + series", bench_values(b612, "6.12", "patched"), ""),
        ("7.3.4 qd1=1", bench_values(bml, "mainline", "base"), "qd1"),
        ("7.3.4 qd1=0", bench_values(bml, "mainline", "base"), "qd0"),
    ]
    rows = []
    for metric in cols[0][1]:
        if metric not in rows:
            rows.append(metric)
    width = max(len(r) for r in rows) + 2
    print(f"{'metric':<{width}}{'unit':<8}" + "".join(f"{c[0]:>15}" for c in cols))
    print("-" * (width + 8 + 15 * len(cols)))
    for metric in rows:
        dev, rest = metric.split("_", 1)
        cells, unit = [], cols[0][1][metric][1]
        for _, vals, qd in cols:
            key = f"{dev}_{qd}_{rest}" if qd else metric
            v = vals.get(key)
            cells.append(f"{v[0]:>15.2f}" if v else f"{'-':>15}")
        print(f"{metric:<{width}}{unit:<8}" + "".join(cells))
    return 0


if __name__ == "__main__":
    sys.exit(main())
