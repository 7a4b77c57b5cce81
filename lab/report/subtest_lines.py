#!/usr/bin/env python3
"""Quote chosen KTAP subtests of one selftest from several runs: for each
run, the subtests' verdicts (ok, not ok, with directives) and the lines
the test printed about them (its "# " messages from the one after the
previous subtest's verdict up to the subtest's own). Used for the README
blocks that show what a few new results did on each kernel, from the
run directories of lab/run/run-selftests.sh (TEST.log in each).

Exits 1 if a run directory has no log of TEST (a result missing from a
log is printed as such, and is not an error).

usage: subtest_lines.py TEST N[,N...] LABEL=DIR...
"""
import re
import sys


def quote(log, wanted):
    out, pending, seen = [], [], set()
    verdict = re.compile(r"^# (not ok|ok) (\d+)(?: (.*))?$")
    for line in open(log, errors="replace"):
        line = line.rstrip("\n")
        m = verdict.match(line)
        if m:
            if int(m.group(2)) in wanted:
                out.extend(pending)
                seen.add(int(m.group(2)))
                out.append(f"{m.group(1)} {m.group(2)} {m.group(3) or ''}".rstrip())
            pending = []
        elif line.startswith("# # ") and not line.startswith("# # Totals"):
            pending.append("  " + line[4:])
    out.extend(f"(no result {n} in the log)" for n in sorted(wanted - seen))
    return out


def main():
    usage = __doc__.strip().splitlines()[-1]
    if len(sys.argv) < 4:
        sys.exit(usage)
    test = sys.argv[1]
    try:
        wanted = {int(n) for n in sys.argv[2].split(",")}
    except ValueError:
        sys.exit(f"subtest_lines: results must be numbers, not '{sys.argv[2]}'\n{usage}")
    runs = [arg.split("=", 1) for arg in sys.argv[3:]]
    if any(len(r) != 2 or not r[0] or not r[1] for r in runs):
        sys.exit(f"subtest_lines: runs are LABEL=DIR\n{usage}")
    rc = 0
    for label, path in runs:
        print(f"== {label}")
        log = f"{path}/{test}.log"
        try:
            lines = quote(log, wanted)
        except OSError as e:
            lines, rc = [f"no log {log}: {e.strerror}"], 1
        for line in lines:
            print("  " + line)
    return rc


if __name__ == "__main__":
    sys.exit(main())
