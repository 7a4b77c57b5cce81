#!/usr/bin/env python3
"""Quote chosen KTAP subtests of one selftest from several runs: for each
run, the subtests' verdicts (ok, not ok, with directives) and the lines
the test printed about them (its "# " messages from the one after the
previous subtest's verdict up to the subtest's own). Used for the README
blocks that show what a few new results did on each kernel, from the
run directories of lab/run/run-selftests.sh (TEST.log in each).

usage: subtest_lines.py TEST N[,N...] LABEL=DIR...
"""
import re
import sys


def quote(log, wanted):
    out, pending = [], []
    verdict = re.compile(r"^# (not ok|ok) (\d+) (.*)$")
    for line in open(log, errors="replace"):
        line = line.rstrip("\n")
        m = verdict.match(line)
        if m:
            if int(m.group(2)) in wanted:
                out.extend(pending)
                out.append(f"{m.group(1)} {m.group(2)} {m.group(3)}")
            pending = []
        elif line.startswith("# # ") and not line.startswith("# # Totals"):
            pending.append("  " + line[4:])
    return out


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    test = sys.argv[1]
    wanted = {int(n) for n in sys.argv[2].split(",")}
    for arg in sys.argv[3:]:
        label, path = arg.split("=", 1)
        print(f"== {label}")
        try:
            lines = quote(f"{path}/{test}.log", wanted)
        except OSError as e:
            lines = [f"no log: {e.strerror}"]
        for line in lines or ["(none of these results in the log)"]:
            print("  " + line)
    return 0


if __name__ == "__main__":
    sys.exit(main())
