#!/usr/bin/env python3
"""Report stage of lab/bench/run-per-patch.sh: what each patch of a series
costs. Reads the metrics every guest wrote (metrics.jsonl), writes
RESULTS_DIR/per-patch.json and RESULTS_DIR/table.txt and prints the table:
for every metric, its median over the rounds on each kernel (base, then
the series up to each patch that changes kernel code, then patched), the
ratio to base and the ratio to the kernel before it, which is what that
kernel's patches changed.

usage: per_patch_report.py RESULTS_DIR BASE ACCEL KERNEL=LABEL=DIR...

A KERNEL given more than once is one guest run per round.
per-patch.json: {"base", "accelerator", "date", "nrounds", "kernels":
[{"kernel", "label"}], "metrics": [{"workload", "metric", "unit",
"rounds": {KERNEL: [v or null per round]}, "median": {KERNEL: v or null}}]}
"""
import json
import os
import statistics
import sys
from datetime import datetime, timezone


def load(path):
    try:
        with open(path) as f:
            return [json.loads(line) for line in f if line.strip()]
    except OSError:
        return []


def main():
    if len(sys.argv) < 5:
        sys.exit("usage: per_patch_report.py RESULTS_DIR BASE ACCEL KERNEL=LABEL=DIR...")
    res, base, accel = sys.argv[1:4]
    kernels, labels, dirs = [], {}, {}
    for arg in sys.argv[4:]:
        kernel, rest = arg.split("=", 1)
        label, outdir = rest.rsplit("=", 1)
        if kernel not in dirs:
            kernels.append(kernel)
            labels[kernel] = label
            dirs[kernel] = []
        dirs[kernel].append(outdir)
    nrounds = max(len(d) for d in dirs.values())

    metrics = {}
    for kernel in kernels:
        for r, outdir in enumerate(dirs[kernel]):
            for row in load(os.path.join(outdir, "metrics.jsonl")):
                key = (row["workload"], row["metric"])
                m = metrics.setdefault(key, {"unit": row["unit"], "rounds": {}})
                vals = m["rounds"].setdefault(kernel, [None] * nrounds)
                vals[r] = row["value"]

    out = {"base": base, "accelerator": accel,
           "date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
           "nrounds": nrounds,
           "kernels": [{"kernel": k, "label": labels[k]} for k in kernels],
           "metrics": []}
    lines = [f"per-patch {base} {out['date']} ({accel}); value: median of "
             f"{nrounds} round(s); /base and /prev: ratio to base and to the "
             f"kernel before"]
    width = max(len(labels[k]) for k in kernels)
    width = min(max(width, 20), 60)
    for (workload, metric), m in sorted(metrics.items()):
        median = {}
        for k in kernels:
            vals = [v for v in m["rounds"].get(k, []) if v is not None]
            median[k] = statistics.median(vals) if vals else None
        out["metrics"].append({"workload": workload, "metric": metric,
                               "unit": m["unit"], "rounds": m["rounds"],
                               "median": median})
        lines.append("")
        lines.append(f"{workload} {metric} ({m['unit']})")
        lines.append(f"  {'kernel':<{width}} {'value':>14} {'/base':>8} {'/prev':>8}"
                     + ("  rounds" if nrounds > 1 else ""))
        prev = None
        for k in kernels:
            v = median[k]
            b0 = median[kernels[0]]
            rb = f"{v / b0:8.4f}" if v is not None and b0 else f"{'-':>8}"
            rp = f"{v / prev:8.4f}" if v is not None and prev else f"{'-':>8}"
            vs = f"{v:14.2f}" if v is not None else f"{'-':>14}"
            line = f"  {labels[k][:width]:<{width}} {vs} {rb} {rp}"
            if nrounds > 1:
                line += "  " + " ".join("-" if x is None else f"{x:.2f}"
                                        for x in m["rounds"].get(k, []))
            lines.append(line)
            prev = v
    with open(os.path.join(res, "per-patch.json"), "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
        f.write("\n")
    text = "\n".join(lines) + "\n"
    with open(os.path.join(res, "table.txt"), "w") as f:
        f.write(text)
    sys.stdout.write(text)
    if not metrics:
        sys.exit("per-patch: no metrics were measured")


if __name__ == "__main__":
    main()
