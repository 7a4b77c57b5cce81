#!/usr/bin/env python3
"""Report stage for `make check`: join the selftest results of each kernel
with lab/run/expectations.tsv, print the test x kernel table, write
results/check-summary.json, and exit non-zero if any result differs from
its expectation.

usage: check_summary.py EXPECTATIONS JSON_OUT base=DIR patched=DIR
(each DIR holds the guest's selftests.tsv; a missing file counts as fail)
"""
import json
import sys


def read_tsv(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line and not line.startswith("#"):
                rows.append(line.split())
    return rows


def main():
    expect_path, json_out = sys.argv[1], sys.argv[2]
    runs = dict(arg.split("=", 1) for arg in sys.argv[3:])
    expected = {row[0]: {"base": row[1], "patched": row[2]}
                for row in read_tsv(expect_path)}

    results = {}
    tests = list(expected)
    for kernel, outdir in runs.items():
        try:
            rows = read_tsv(f"{outdir}/selftests.tsv")
        except OSError:
            rows = []
        for test, result, seconds in rows:
            results[(test, kernel)] = (result, float(seconds))
            if test not in tests:
                tests.append(test)

    summary, bad = [], 0
    print()
    print(f"{'test':32} {'kernel':8} {'expected':9} {'result':7} {'seconds':>7}  verdict")
    print("-" * 76)
    for test in tests:
        for kernel in runs:
            want = expected.get(test, {}).get(kernel, "pass")
            result, seconds = results.get((test, kernel), ("fail", 0.0))
            ok = result == want
            bad += not ok
            print(f"{test:32} {kernel:8} {want:9} {result:7} {seconds:7.1f}  "
                  f"{'ok' if ok else 'UNEXPECTED'}")
            summary.append({"test": test, "kernel": kernel, "expected": want,
                            "result": result, "seconds": seconds})
    with open(json_out, "w") as f:
        json.dump(summary, f, indent=2)
        f.write("\n")
    good = len(summary) - bad
    print("-" * 76)
    print(f"selftests: {good} passed, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
