#!/usr/bin/env python3
"""Report stage of the dirty-machine run (lab/run/run-dirty.sh): judge the
two passes of lab/run/guest-dirty.sh against lab/run/expectations.tsv and
against each other, and the machine's state after each pass against the
state before. Prints the verdicts and writes them to DIR/summary.txt;
exits non-zero if
  - a result of either pass differs from its expectation (the tests of
    lab/run/extra-boots.tsv that need kernel arguments of their own
    must SKIP here, and their subtests are not judged),
  - the two passes differ in any result, or
  - the state after a pass differs from the state before the stale
    objects were planted (something left behind, or a stale object of
    the tests' own names not cleaned up).

usage: dirty_judge.py EXPECTATIONS EXTRA_BOOTS BASE:KERNEL DIR
"""
import difflib
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from check_summary import matches, read_expectations, read_rows  # noqa: E402


def results(path):
    out = {}
    for row in read_rows(path):
        if len(row) == 3:
            out[row[0]] = row[1]
    return out


def main():
    if len(sys.argv) != 5:
        sys.exit(__doc__.strip().splitlines()[-1])
    expect_path, extra_path, col, outdir = sys.argv[1:5]
    cols, expected = read_expectations(expect_path)
    if col not in cols:
        sys.exit(f"{expect_path}: no column for {col}")
    # tests that need kernel arguments of their own SKIP here; those that
    # have a boot of their own only to keep an oops or a hang away from the
    # others ("-" for arguments) are judged as in make check
    extra = set()
    for line in open(extra_path):
        fields = line.rstrip("\n").split("\t")
        if line.strip() and not line.startswith("#") and len(fields) >= 4 \
                and fields[1] != "-":
            extra.update(fields[3].split())
    lines, bad = [], 0

    passes = []
    for p in (1, 2):
        path = f"{outdir}/pass{p}/selftests.tsv"
        if not os.path.exists(path):
            lines.append(f"pass {p}: no results ({path} missing)")
            bad += 1
            passes.append({})
            continue
        passes.append(results(path))

    for p, res in enumerate(passes, 1):
        tests = sorted({t for t in res if ":" not in t} |
                       {t for t in expected if ":" not in t and expected[t][col] != "-"})
        for t in tests:
            want = "skip" if t in extra else expected.get(t, {}).get(col, "pass")
            got = res.get(t, "missing")
            if not matches(want, got):
                lines.append(f"pass {p}: {t}: {got}, expected {want}")
                bad += 1
        for t, exp in expected.items():
            if ":" not in t or t.split(":")[0] in extra or exp[col] in ("-", "*"):
                continue
            got = res.get(t, "missing")
            if not matches(exp[col], got):
                lines.append(f"pass {p}: {t}: {got}, expected {exp[col]}")
                bad += 1
    if passes[0] and passes[1]:
        # whole tests, and the subtests expectations.tsv judges (others
        # depend on races)
        judged = [t for t in sorted(set(passes[0]) | set(passes[1]))
                  if ":" not in t or (t in expected and expected[t][col] != "*")]
        for t in judged:
            a, b = passes[0].get(t, "missing"), passes[1].get(t, "missing")
            if a != b:
                lines.append(f"passes differ: {t}: {a} then {b}")
                bad += 1
        n = len(passes[0])
        lines.append(f"verdicts: {n} results per pass"
                     f" ({sum(1 for t in passes[0] if ':' not in t)} tests)")

    try:
        before = open(f"{outdir}/state-0.txt").read().splitlines()
    except OSError:
        before = []
    if not before:
        lines.append("no state before the tests (state-0.txt missing or empty)")
        bad += 1
    for p in (1, 2):
        path = f"{outdir}/state-{p}.txt"
        after = open(path).read().splitlines() if os.path.exists(path) else ["(missing)"]
        diff = [d for d in difflib.unified_diff(before, after, "before", f"after pass {p}",
                                                lineterm="", n=0)
                if not d.startswith("@@")]
        if diff:
            bad += 1
            lines.append(f"state after pass {p} differs from the state before:")
            lines.extend("  " + d for d in diff)
        else:
            lines.append(f"state after pass {p}: as before ({len(before)} items)")

    lines.append(f"dirty-machine run {col}: " +
                 ("every verdict as expected, both passes alike, nothing left behind"
                  if not bad else f"{bad} problems"))
    text = "\n".join(lines) + "\n"
    open(f"{outdir}/summary.txt", "w").write(text)
    print(text, end="")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
