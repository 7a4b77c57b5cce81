#!/usr/bin/env python3
"""The bench numbers of one posting set: base against patched mainline for
each workload that measures the set, read from bench.json files of `make
bench` (lab/report/bench_report.py says their layout). No number is typed
here: every value and ratio comes from the JSON.

usage: bench_table.py BENCH_JSONS PLAN_JSON SET    (prints the text)
       bench_table.py --check BENCH_JSONS PLAN_JSON
              (fails if a JSON is unreadable; names on stderr the
              workloads that no set of the plan takes)

BENCH_JSONS is one path, or several separated by spaces: runs of some
workloads each (run-bench.sh WORKLOAD...). A workload's numbers come from
the newest of them (by the run's date) that measured it on mainline, base
and patched; the text says the date of each run it quotes.

WORKLOAD_SETS maps each workload to the sets it measures, best first: the
first of them that this posting has takes the workload (seed004 measures
flushes through dm-multipath: the dm set if there is one, else block).
A workload with no such set is left out and named on stderr.
"""
import json
import os
import sys
import textwrap
from email.utils import parsedate_to_datetime
from datetime import datetime

BASE = "mainline"
WORKLOAD_SETS = {
    "plug-flush-size": ("block",),
    "plug-hotpath-randread": ("block",),
    "plug-merge-multi-queue": ("block",),
    "seed000-split-bio-merge": ("block",),
    "flush-accounting": ("block",),
    "seed004-flush-multipath": ("dm", "block"),
    "seed004-flush-multipath-nvmet": ("dm", "block"),
    "seed004-flush-multipath-fua": ("dm", "block"),
    "dm-mpath-busy-path": ("dm", "block"),
    "seed003-aio-batch": ("aio",),
    # the ->queue_rqs() order fix is not in the mainline series
    "queue-rqs-order": ("virtio", "nvme"),
    # replaced by zoned-order-matrix (results/latest from before may still
    # name it)
    "seed002-zoned-order": (),
    # mainline's zoned patch: the QD1 writes thread gives zones time slices
    "zoned-order-matrix": ("block",),
    "zoned-qd1-fairness": ("block",),
}


def load(path):
    try:
        with open(path) as f:
            bench = json.load(f)
    except FileNotFoundError:
        sys.exit(f"bench_table: no {path}: run `make bench` first (or set LAB_POST_BENCH "
                 "to a bench.json)")
    except (OSError, ValueError) as e:
        sys.exit(f"bench_table: cannot read {path}: {e}")
    if not isinstance(bench, dict) or not isinstance(bench.get("workloads"), dict):
        sys.exit(f"bench_table: {path} has no \"workloads\" object: not a bench.json")
    return bench


def load_all(paths):
    """The bench.json files of a space-separated list, oldest run first
    (a run without a date counts as the oldest)."""
    names = paths.split()
    if not names:
        sys.exit("bench_table: no bench.json named")
    benches = [load(p) for p in dict.fromkeys(names)]
    return sorted(benches, key=lambda b: b.get("date") or "")


def measured(metrics):
    """Whether a run measured a workload on mainline, base and patched:
    every metric it has on mainline has both values (a guest that did
    not finish leaves some out, and then an older full run is taken)."""
    on_base = [m.get("values", {}).get(BASE) for m in (metrics or {}).values()]
    on_base = [v for v in on_base if v]
    return bool(on_base) and all(v.get("base") is not None and v.get("patched") is not None
                                 for v in on_base)


def source(benches, workload):
    """The newest run that measured the workload on mainline, or None."""
    for bench in reversed(benches):
        if measured(bench["workloads"].get(workload)):
            return bench
    return None


def owner(workload, sets):
    for s in WORKLOAD_SETS.get(workload, ()):
        if s in sets:
            return s
    return None


def fmt(v):
    return "-" if v is None else f"{v:.2f}"


def ratio(b, p):
    return f"{p / b:.3f}" if b and p is not None else "-"


def table(metrics):
    """Rows of metric, unit, base, patched, ratio with columns fitted."""
    rows = [("metric", "unit", "base", "patched", "ratio")]
    for name, m in metrics.items():
        v = m.get("values", {}).get(BASE)
        if not v:
            continue
        b, p = v.get("base"), v.get("patched")
        rows.append((name, m.get("unit", ""), fmt(b), fmt(p), ratio(b, p)))
    if len(rows) == 1:
        return []
    w = [max(len(r[i]) for r in rows) for i in range(5)]
    return ["  " + f"{r[0]:<{w[0]}}  {r[1]:<{w[1]}}  {r[2]:>{w[2]}}  {r[3]:>{w[3]}}  "
            f"{r[4]:>{w[4]}}".rstrip() for r in rows]


def changes_what_ran(entry):
    """Whether a patch changes what a bench run measured: kernel code, or
    the selftests' programs (C sources, Makefile) that workloads run;
    selftest scripts and documentation do not."""
    for f in entry.get("files", []):
        if f.startswith("Documentation/"):
            continue
        if f.startswith("tools/testing/selftests/"):
            if f.endswith((".c", ".h")) or os.path.basename(f) == "Makefile":
                return True
            continue
        return True
    return False


def para(text):
    return textwrap.wrap(text, 72, break_long_words=False, break_on_hyphens=False)


def set_text(benches, plan, set_name):
    sets = [s["name"] for s in plan["sets"]]
    mine = [w for w in WORKLOAD_SETS if owner(w, sets) == set_name]
    if not mine:
        return para("No bench workload of the lab measures the patches of this set.")
    out = []
    runs = []
    for w in mine:
        bench = source(benches, w)
        if bench is not None and all(bench is not r for r, _ in runs):
            runs.append((bench, [x for x in mine if source(benches, x) is bench]))
    for bench, workloads in runs:
        if out:
            out.append("")
        out += run_text(bench, workloads, plan, set_name)
    missing = [w for w in mine if source(benches, w) is None]
    if missing:
        out.append("")
        out += para(", ".join(missing) + f": not measured on {BASE} in "
                    + ("this run." if len(benches) == 1 else "these runs."))
    return out


def run_text(bench, mine, plan, set_name):
    sets = [s["name"] for s in plan["sets"]]
    series = plan["series"]
    out = para(f"Base against patched {BASE} kernel in the lab's bench run of "
               f"{bench.get('date', 'unknown date')} ({bench.get('accelerator', 'unknown')}). "
               + (bench["note"] + " " if bench.get("note") else "")
               + "Patched is the whole series as it was in that run, not this set "
               "alone; ratio = patched/base.")
    when = bench.get("date")
    if when:
        ran = datetime.fromisoformat(when)
        after = [e for e in series if parsedate_to_datetime(e["date"]) > ran]
        late = [e for e in after if changes_what_ran(e)]
        own = [e for e in late if e["set"] == set_name]
        other = sorted({e["set"] for e in late if e["set"] != set_name}, key=sets.index)
        what = [f'{e["number"]} "{e["title"]}"' for e in own]
        if other:
            what.append(f"patches of set{'s' if len(other) > 1 else ''} {', '.join(other)}")
        rest = len(after) - len(late)
        text = ""
        if what:
            text = ("This run predates the Date: of " + "; ".join(what)
                    + ": its patched kernel did not have those versions.")
        if rest:
            text += (" It also" if what else "This run") + (
                f" predates {rest} patch{'es' if rest > 1 else ''} of selftest scripts or "
                "documentation, which change neither the kernels nor the programs "
                "the bench ran.")
        if text:
            out.append("")
            out += para(text.strip())
    for w in mine:
        out.append("")
        out.append(f"{w}:")
        out += table(bench["workloads"][w])
    return out


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--check":
        benches = load_all(sys.argv[2])
        with open(sys.argv[3]) as f:
            sets = [s["name"] for s in json.load(f)["sets"]]
        for w in sorted({w for b in benches for w in b["workloads"]}):
            if w not in WORKLOAD_SETS:
                print(f"bench_table: workload {w} is not in WORKLOAD_SETS of "
                      "lab/post/bench_table.py: no set shows it", file=sys.stderr)
            elif not owner(w, sets):
                want = ", ".join(WORKLOAD_SETS[w]) or "none"
                print(f"bench_table: workload {w} measures no set of this posting "
                      f"(its sets: {want})", file=sys.stderr)
        return
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    benches = load_all(sys.argv[1])
    with open(sys.argv[2]) as f:
        plan = json.load(f)
    print("\n".join(set_text(benches, plan, sys.argv[3])))


if __name__ == "__main__":
    main()
