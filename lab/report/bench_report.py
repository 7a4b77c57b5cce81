#!/usr/bin/env python3
"""Report stage for `make bench`: merge the metrics each guest wrote
(metrics.jsonl) into RESULTS_DIR/bench.json, print and save the base vs
patched table of every base (table.txt), and draw one PNG per workload.

usage: bench_report.py RESULTS_DIR ACCEL BASE:KERNEL=DIR...

A BASE:KERNEL named more than once is one guest run per round (run-bench.sh
with LAB_BENCH_ROUNDS, base and patched alternated): the table shows the
median of the rounds, and the spread of the per-round ratio below it.

bench.json: {"workloads": {WORKLOAD: {METRIC: {"unit", "command": {BASE:
command}, "values": {BASE: {"base": v, "patched": v}}, "rounds": {BASE:
{"base": [v or null per round], "patched": [...]}}}}}, "bases": [...],
"nrounds": N, ...}. A median uses only the rounds where both kernels gave
the metric.
"""
import json
import math
import os
import sys
from datetime import datetime, timezone


def load(path):
    rows = []
    try:
        with open(path) as f:
            rows = [json.loads(line) for line in f if line.strip()]
    except OSError:
        pass
    return rows


def fmt(v, width):
    return f"{v:{width}.2f}" if v is not None else f"{'-':>{width}}"


def ratio(b, p, width):
    return f"{p / b:{width}.3f}" if b and p is not None else f"{'-':>{width}}"


def median(vals):
    v = sorted(vals)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def main():
    out, accel = sys.argv[1], sys.argv[2]
    runs = [arg.split("=", 1) for arg in sys.argv[3:]]
    bases = []
    workloads = {}
    seen = {}
    for run, d in runs:
        base, kernel = run.split(":")
        if base not in bases:
            bases.append(base)
        # the n-th DIR of a BASE:KERNEL is round n (0-based)
        idx = seen[run] = seen.get(run, -1) + 1
        for r in load(os.path.join(d, "metrics.jsonl")):
            w = workloads.setdefault(r["workload"], {})
            m = w.setdefault(r["metric"], {"unit": r["unit"], "command": {}, "values": {},
                                           "rounds": {}})
            m["command"][base] = r["command"]
            m["rounds"].setdefault(base, {}).setdefault(kernel, {})[idx] = r["value"]
    nrounds = max(seen.values(), default=0) + 1
    for w in workloads.values():
        for m in w.values():
            for base, ks in m["rounds"].items():
                # a round that has no value of the metric is None
                for kernel in ks:
                    ks[kernel] = [ks[kernel].get(i) for i in range(nrounds)]
                # medians over the rounds in which both kernels gave a value
                both = [i for i in range(nrounds)
                        if all(ks.get(k, [None] * nrounds)[i] is not None
                               for k in ("base", "patched"))] or range(nrounds)
                for kernel, vals in ks.items():
                    got = [vals[i] for i in both if vals[i] is not None]
                    if got:
                        m["values"].setdefault(base, {})[kernel] = median(got)

    bench = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
             "accelerator": accel,
             "note": "Under TCG only base/patched ratios from the same run are meaningful.",
             "bases": bases,
             "nrounds": nrounds,
             "workloads": workloads}
    with open(os.path.join(out, "bench.json"), "w") as f:
        json.dump(bench, f, indent=2)
        f.write("\n")

    head = f"{'workload':24} {'metric':34} {'unit':8}"
    head2 = " " * len(head)
    for b in bases:
        head += f" | {b:^32}"
        head2 += f" | {'base':>10} {'patched':>10} {'ratio':>10}"
    what = "ratio = patched/base"
    if nrounds > 1:
        what = f"{nrounds} rounds, base and patched alternated; median of the rounds; " + what
    lines = [f"bench {bench['date']} ({accel}); {what}", head, head2,
             "-" * len(head2)]
    for wname, metrics in workloads.items():
        for mname, m in metrics.items():
            row = f"{wname:24} {mname:34} {m['unit']:8}"
            for b in bases:
                v = m["values"].get(b, {})
                bv, pv = v.get("base"), v.get("patched")
                row += f" | {fmt(bv, 10)} {fmt(pv, 10)} {ratio(bv, pv, 10)}"
            lines.append(row)
    if nrounds > 1:
        lines += ["", "ratio of each round (patched/base), in round order:"]
        for wname, metrics in workloads.items():
            for mname, m in metrics.items():
                row = f"{wname:24} {mname:34}"
                for b in bases:
                    ks = m["rounds"].get(b, {})
                    bv = ks.get("base", [None] * nrounds)
                    pv = ks.get("patched", [None] * nrounds)
                    rs = [p / v if v and p is not None else None for v, p in zip(bv, pv)]
                    row += " | " + " ".join("-" if x is None else f"{x:.3f}" for x in rs)
                lines.append(row)
    table = "\n".join(lines)
    print(table)
    with open(os.path.join(out, "table.txt"), "w") as f:
        f.write(table + "\n")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    colors = {"base": "#8c8c8c", "patched": "#1f77b4"}
    for wname, metrics in workloads.items():
        names = list(metrics)
        ncol = min(4, len(names))
        nrow = math.ceil(len(names) / ncol)
        fig, axes = plt.subplots(nrow, ncol, figsize=(3.2 * ncol, 2.8 * nrow), squeeze=False)
        for ax in axes.flat[len(names):]:
            ax.axis("off")
        for ax, mname in zip(axes.flat, names):
            m = metrics[mname]
            x = 0
            ticks, labels, labelled = [], [], set()
            for b in bases:
                v = m["values"].get(b, {})
                for i, k in enumerate(("base", "patched")):
                    val = v.get(k)
                    if val is None:
                        continue
                    ax.bar(x + i * 0.4, val, width=0.4, color=colors[k],
                           label=None if k in labelled else k)
                    labelled.add(k)
                    ax.annotate(f"{val:.3g}", (x + i * 0.4, val), ha="center",
                                va="bottom", fontsize=7)
                ticks.append(x + 0.2)
                labels.append(b)
                x += 1
            ax.set_xticks(ticks, labels, fontsize=8)
            ax.set_title(mname, fontsize=9)
            ax.set_ylabel(m["unit"], fontsize=8)
            ax.tick_params(labelsize=8)
        axes.flat[0].legend(fontsize=7)
        fig.suptitle(f"{wname} ({accel}): base and patched per kernel base", fontsize=10)
        fig.tight_layout()
        fig.savefig(os.path.join(out, f"{wname}.png"), dpi=100)
        plt.close(fig)
    return 0 if workloads else 1


if __name__ == "__main__":
    sys.exit(main())
