#!/usr/bin/env python3
"""Report stage for `make check`: join the selftest results of each kernel
with lab/run/expectations.tsv, print the test x kernel table (one column per
base and kernel), write results/check-summary.json, and exit non-zero if
any result differs from its expectation.

usage: check_summary.py [--postings FILE] EXPECTATIONS JSON_OUT BASE:KERNEL=DIR...
Each DIR holds the guest's selftests.tsv. The expectations file has a header
line "test BASE:KERNEL..." and one line per test with pass, fail, skip,
xfail, or "-" where the base's series does not have the test; a line "test.sh:N" sets
the expected result of KTAP subtest N (pass, fail, skip, xfail, or "*":
reported but not judged on that kernel, for a subtest whose failure there
depends on a race). A test that is not listed must pass; a subtest that is
not listed is not judged.
A test or subtest that is expected but has no result counts as "missing".
--postings FILE (lab/run/test-postings.tsv: "test posting" lines, a
"test.sh:N" line for a subtest) adds the mainline posting each test checks
as a column, and one line per posting: its tests, and whether every
verdict of them was as expected.
"""
import json
import os
import sys


def read_rows(path):
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                yield line.split()


VALUES = {"pass", "fail", "skip", "xfail", "-"}


def matches(want, got):
    """Whether result got meets expectation want ("*": any result)."""
    return got == want or (want == "*" and got != "missing")


def read_expectations(path):
    rows = read_rows(path)
    header = next(rows, None)
    if not header or header[0] != "test":
        sys.exit(f"{path}: the first line must be 'test BASE:KERNEL...'")
    cols = header[1:]
    table = {}
    for row in rows:
        if len(row) != len(header):
            sys.exit(f"{path}: {row[0]}: {len(row) - 1} values for {len(cols)} columns")
        allowed = VALUES | ({"*"} if ":" in row[0] else set())
        for value in row[1:]:
            if value not in allowed:
                sys.exit(f"{path}: {row[0]}: '{value}' is not one of {' '.join(sorted(allowed))}")
        table[row[0]] = dict(zip(cols, row[1:]))
    return cols, table


def posting_of(postings, test):
    """The posting a test or subtest checks ("" when the file has none)."""
    if test in postings:
        return postings[test]
    return postings.get(test.split(":")[0], "")


def main():
    usage = "usage: check_summary.py [--postings FILE] EXPECTATIONS JSON_OUT BASE:KERNEL=DIR..."
    postings = None
    if len(sys.argv) > 2 and sys.argv[1] == "--postings":
        try:
            postings = dict(row[:2] for row in read_rows(sys.argv[2]) if len(row) >= 2)
        except OSError as e:
            sys.exit(f"check_summary: {e}")
        del sys.argv[1:3]
        # a posting name must be a directory of patches/mainline/order or a kind
        order = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                             "patches", "mainline", "order")
        known = {"guard", "measure", "6.12-only"}
        if os.path.isfile(order):
            with open(order) as f:
                known |= {ln.split("#")[0].strip() for ln in f if ln.split("#")[0].strip()}
            bad_names = sorted(set(postings.values()) - known)
            if bad_names:
                sys.exit(f"check_summary: unknown postings in --postings: {', '.join(bad_names)}")
    if len(sys.argv) < 4 or any("=" not in a or ":" not in a.split("=")[0]
                                for a in sys.argv[3:]):
        sys.exit(usage)
    expect_path, json_out = sys.argv[1], sys.argv[2]
    if not os.path.isfile(expect_path):
        sys.exit(f"check_summary: no expectations file {expect_path}")
    runs = dict(arg.split("=", 1) for arg in sys.argv[3:])
    cols, expected = read_expectations(expect_path)
    for run in runs:
        if run not in cols:
            sys.exit(f"{expect_path}: no column for {run}")

    results, tests = {}, list(expected)
    for run, outdir in runs.items():
        try:
            rows = list(read_rows(f"{outdir}/selftests.tsv"))
        except OSError:
            rows = []
        for row in rows:
            if len(row) != 3:
                print(f"{outdir}/selftests.tsv: bad line {row} (guest cut off?)")
                continue
            test, result, seconds = row
            results[(test, run)] = (result, float(seconds))
            # A KTAP subtest ("test.sh:N") is judged only where it is listed.
            if test not in tests and ":" not in test:
                tests.append(test)

    summary, bad, unjudged, lines = [], 0, 0, []
    per_posting = {}
    for test in tests:
        cells = []
        posting = posting_of(postings, test) if postings is not None else None
        for run in runs:
            want = expected.get(test, {}).get(run, "pass")
            result, seconds = results.get((test, run), ("missing" if want != "-" else "-", 0.0))
            ok = matches(want, result)
            bad += not ok
            unjudged += ok and want == "*"
            cells.append(result if ok else f"got {result} (want {want})!")
            if result != "-" or want != "-":
                base, kernel = run.split(":")
                row = {"test": test, "base": base, "kernel": kernel,
                       "expected": want, "result": result, "seconds": seconds}
                if posting is not None:
                    row["posting"] = posting or "-"
                    p = per_posting.setdefault(posting or "-", {"tests": [], "bad": 0})
                    if test.split(":")[0] not in p["tests"]:
                        p["tests"].append(test.split(":")[0])
                    p["bad"] += not ok
                summary.append(row)
        lines.append([test] + ([posting or "-"] if posting is not None else []) + cells)
    head = ["test"] + (["posting"] if postings is not None else []) + list(runs)
    widths = [max(len(x) for x in col) for col in zip(head, *lines)]
    rule = "-" * (sum(widths) + 2 * len(widths))
    print("\nexpected result in each cell; a cell that differs says 'got X (want Y)!'\n")
    for row in [head, None] + lines:
        print(rule if row is None else "  ".join(f"{c:<{w}}" for c, w in zip(row, widths)))
    with open(json_out, "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    good = len(summary) - bad
    print(rule)
    for name, p in per_posting.items():
        print(f"posting {name}: {'as expected' if not p['bad'] else str(p['bad']) + ' not as expected'}"
              f" ({', '.join(p['tests'])})")
    print(f"selftests: {good - unjudged} as expected, {unjudged} reported, not judged,"
          f" {bad} not as expected")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
