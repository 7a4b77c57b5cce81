#!/usr/bin/env python3
"""Write the measured tables into README.md from results/, so that the
README's numbers cannot drift from what the lab measured. Each table sits
between "<!-- begin generated: NAME -->" and "<!-- end generated: NAME -->";
every NAME and its file are in `sources` in main(). Among them:

  check-verdicts   results/check-summary.json: test x {base:kernel}
  check-timings    results/check-timings.txt: make check stage times
  bench            results/latest/table.txt: base vs patched per base
  bench-flush-accounting  the run of lab/bench/workloads/flush-accounting.sh
  mutants          results/mutants.txt: mutant x test (make mutants)
  mutants-6.12     results/mutants-6.12.txt: the same, 6.12 alone
  mutants-nvme     results/mutants-nvme-head.txt: one mutant, both bases
  mutants-plug-merge  results/mutants-plug-walk-mainline.txt: one mutant
  bench-plug-merge    the alternated run of the plug merge workloads
  per-patch-mainline  lab/bench/run-per-patch.sh mainline: cost per patch
  bench-dm-busy       the run of lab/bench/workloads/dm-mpath-busy-path.sh
  bench-hotpath-6.12-icount  6.12 plug-hotpath-randread, guest instructions
  plug-merge-cost  lab/report/plug_merge_cost.py over the per-patch runs of
                   the plug merge fix: instructions per I/O, request sizes
  aio-batch-hint-cost  per-patch run of the io_submit() batch hint
  bench-zoned     results/zoned-table-2026-11-24: zoned-order-matrix on
                  6.12 (base, v1, series) and 7.3 (base, series; each with
                  zoned_qd1_writes 1, 0)
  bench-zoned-slice  mainline zoned-qd1-fairness, 2 rounds: the zone turns
  bench-flush-nvmet  seed004-flush-multipath-nvmet, both bases, 2 rounds
  bench-flush-fua  seed004-flush-multipath-fua, both bases, 2 rounds
  zoned-uring-sd   zoned_write_order.sh result 7 on the four kernels
  flush-allfailed  flush_multipath.sh results 7 and 8 on the four kernels
  mutants-flush78-mainline, mutants-flush78-6.12  their mutants
  bench-flush-wce0  seed004-flush-multipath with latencies and wce0
  lockdep-1cpu     flush_multipath_fua.sh result 6 on one vCPU, and v1
  zoned-robust-reset  zoned_write_order_robust.sh result 3 (6.12)
  deb-debian       results/deb-mainline-debian.txt: make deb with Debian's
                   own configuration of 7.3.4, cold, on this machine
  keep-flushes     flush_multipath.sh 7-9 and flush_multipath_fua.sh 7-8
                   after the noflush-reload review (2026-11-28)
  mutants-keep-flushes  its two mutants (make mutants, meant scope)

usage: readme_tables.py [README]   (run by `make readme`)
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_summary import matches  # noqa: E402


def verdicts(path):
    rows = json.load(open(path))
    runs, tests, cell = [], [], {}
    for r in rows:
        run = f"{r['base']} {r['kernel']}"
        if run not in runs:
            runs.append(run)
        if r["test"] not in tests:
            tests.append(r["test"])
        mark = "" if matches(r["expected"], r["result"]) \
            else f" (expected {r['expected']})"
        cell[(r["test"], run)] = r["result"] + mark
    out = ["| test | " + " | ".join(runs) + " |",
           "|---" * (len(runs) + 1) + "|"]
    for t in tests:
        out.append(f"| `{t}` | " + " | ".join(cell.get((t, r), "-") for r in runs) + " |")
    return "\n".join(out)


def fenced(path):
    return "```\n" + open(path).read().rstrip("\n") + "\n```"


def main():
    readme = sys.argv[1] if len(sys.argv) > 1 else "README.md"
    if len(sys.argv) > 2 or not os.path.isfile(readme):
        sys.exit("usage: readme_tables.py [README]   (README: an existing file)")
    sources = {
        "check-verdicts": ("results/check-summary.json", verdicts),
        "check-timings": ("results/check-timings.txt", fenced),
        "bench": ("results/latest/table.txt", fenced),
        "bench-flush-accounting": ("results/2026-11-22T120435Z/table.txt", fenced),
        "mutants": ("results/mutants.txt", fenced),
        "mutants-6.12": ("results/mutants-6.12.txt", fenced),
        "mutants-nvme": ("results/mutants-nvme-head.txt", fenced),
        "mutants-plug-merge": ("results/mutants-plug-walk-mainline.txt", fenced),
        "mutants-meant-mainline": ("results/mutants-meant-mainline.txt", fenced),
        "mutants-meant-6.12": ("results/mutants-meant-6.12.txt", fenced),
        "mutants-noflush": ("results/mutants-noflush-2026-11-25.txt", fenced),
        "bench-plug-merge": ("results/2026-11-22T132454Z/table.txt", fenced),
        "per-patch-mainline": ("results/per-patch-mainline-2026-11-22T193755Z/table.txt", fenced),
        "bench-dm-busy": ("results/2026-11-22T200431Z/table.txt", fenced),
        "bench-hotpath-6.12-icount": ("results/2026-11-22T202058Z/table.txt", fenced),
        "plug-merge-cost": ("results/plug-merge-cost.txt", fenced),
        "aio-batch-hint-cost": ("results/per-patch-mainline-2026-11-29T191242Z/table.txt", fenced),
        "bench-zoned": ("results/zoned-table-2026-11-24/table.txt", fenced),
        "bench-zoned-slice": ("results/2026-11-23T015424Z/table.txt", fenced),
        "bench-flush-nvmet": ("results/2026-11-23T052722Z/table.txt", fenced),
        "bench-flush-fua": ("results/2026-11-23T075226Z/table.txt", fenced),
        "noflush-fua": ("results/dm-noflush-cache-2026-11-25/summary.txt", fenced),
        "bench-flush-fua-noflush": ("results/2026-11-25T014036Z/table.txt", fenced),
        "bench-flush-wce0-3rounds": ("results/2026-11-25T022203Z/table.txt", fenced),
        "bench-flush-2026-11-24": ("results/2026-11-24T102107Z/table.txt", fenced),
        "lockdep": ("results/lockdep/summary.txt", fenced),
        "v1": ("results/v1/summary.txt", fenced),
        "dirty-mainline": ("results/dirty/mainline-patched/summary.txt", fenced),
        "dirty-6.12": ("results/dirty/6.12-patched/summary.txt", fenced),
        "zoned-uring-sd": ("results/zoned-uring-sd-2026-11-24/summary.txt", fenced),
        "flush-allfailed": ("results/flush-allfailed-2026-11-24/summary.txt", fenced),
        "mutants-flush78-mainline": ("results/mutants-flush78-mainline.txt", fenced),
        "mutants-flush78-6.12": ("results/mutants-flush78-6.12.txt", fenced),
        "bench-flush-wce0": ("results/2026-11-24T140141Z/table.txt", fenced),
        "lockdep-1cpu": ("results/lockdep-1cpu/summary.txt", fenced),
        "zoned-robust-reset": ("results/zoned-robust-reset-2026-11-24/summary.txt", fenced),
        "deb-debian": ("results/deb-mainline-debian.txt", fenced),
        "keep-flushes": ("results/keep-flushes-2026-11-28/summary.txt", fenced),
        "mutants-keep-flushes": ("results/mutants-s26-keep-flushes.txt", fenced),
    }
    text = open(readme).read()
    for name, (path, render) in sources.items():
        pat = re.compile(rf"(<!-- begin generated: {name} -->\n).*?(<!-- end generated: {name} -->)",
                         re.S)
        if not pat.search(text):
            print(f"readme: no block '{name}' in {readme}", file=sys.stderr)
            continue
        if not os.path.exists(path):
            print(f"readme: {path} missing, '{name}' left as it is", file=sys.stderr)
            continue
        src = os.path.realpath(path)
        body = f"From `{os.path.relpath(src)}`:\n\n{render(path)}\n"
        text = pat.sub(lambda m: m.group(1) + body + m.group(2), text)
        print(f"readme: {name} from {os.path.relpath(src)}")
    open(readme, "w").write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
