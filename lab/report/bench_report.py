#!/usr/bin/env python3
"""Report stage for `make bench`: merge the metrics each guest wrote
(metrics.jsonl) into RESULTS_DIR/bench.json, print and save the base vs
patched table (table.txt), and draw one PNG per workload.

usage: bench_report.py RESULTS_DIR ACCEL base=DIR patched=DIR
"""
import json
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


def main():
    out, accel = sys.argv[1], sys.argv[2]
    runs = dict(arg.split("=", 1) for arg in sys.argv[3:])
    kernels = list(runs)
    workloads = {}
    for kernel, d in runs.items():
        for r in load(os.path.join(d, "metrics.jsonl")):
            w = workloads.setdefault(r["workload"], {})
            m = w.setdefault(r["metric"], {"unit": r["unit"], "command": r["command"]})
            m[kernel] = r["value"]

    bench = {"date": datetime.now(timezone.utc).isoformat(timespec="seconds"),
             "accelerator": accel,
             "note": "Under TCG only base/patched ratios from the same run are meaningful.",
             "workloads": workloads}
    with open(os.path.join(out, "bench.json"), "w") as f:
        json.dump(bench, f, indent=2)
        f.write("\n")

    lines = [f"bench {bench['date']} ({accel})",
             f"{'workload':26} {'metric':22} {'unit':7} {'base':>11} {'patched':>11} {'patched/base':>12}",
             "-" * 94]
    for wname, metrics in workloads.items():
        for mname, m in metrics.items():
            b, p = m.get("base"), m.get("patched")
            ratio = f"{p / b:12.3f}" if b and p is not None else f"{'-':>12}"
            fmt = lambda v: f"{v:11.2f}" if v is not None else f"{'missing':>11}"
            lines.append(f"{wname:26} {mname:22} {m['unit']:7} {fmt(b)} {fmt(p)} {ratio}")
    table = "\n".join(lines)
    print(table)
    with open(os.path.join(out, "table.txt"), "w") as f:
        f.write(table + "\n")

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    for wname, metrics in workloads.items():
        names = list(metrics)
        fig, axes = plt.subplots(1, len(names), figsize=(2.6 * len(names), 3.2), squeeze=False)
        for ax, mname in zip(axes[0], names):
            m = metrics[mname]
            vals = [m.get(k, 0) or 0 for k in kernels]
            ax.bar(kernels, vals, color=["#8c8c8c", "#1f77b4"][:len(kernels)])
            ax.set_title(mname, fontsize=9)
            ax.set_ylabel(m["unit"], fontsize=8)
            ax.tick_params(labelsize=8)
            for i, v in enumerate(vals):
                ax.annotate(f"{v:.3g}", (i, v), ha="center", va="bottom", fontsize=7)
        fig.suptitle(f"{wname} ({accel})", fontsize=10)
        fig.tight_layout()
        fig.savefig(os.path.join(out, f"{wname}.png"), dpi=100)
        plt.close(fig)
    return 0 if workloads else 1


if __name__ == "__main__":
    sys.exit(main())
