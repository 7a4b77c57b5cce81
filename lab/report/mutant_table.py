#!/usr/bin/env python3
"""Report stage for `make mutants`: which selftest caught which mutant.

usage: mutant_table.py MUTANT_DIR JSON_OUT BASE:NAME=DIR...
Each DIR holds a guest's selftests.tsv (and guest-rc, or status when the
mutant did not apply or build, and tests-run when only those tests ran:
make mutants with MUTANTS_SCOPE=meant); NAME "patched" is the reference run of
that base's patched kernel. A test (or one of its KTAP subtests) catches a
mutant when it passed on the reference and failed on the mutant. Each
mutant patch, MUTANT_DIR/BASE/NAME.patch, names the tests meant to catch
it on a line "Meant to be caught by: a.sh, b.sh:2". Prints the mutant x
test table and the tests that caught no mutant, writes JSON_OUT, and exits
1 if a mutant was missed by any test (or subtest) it names as meant to
catch it.
"""
import json
import sys

from check_summary import read_rows


def read_results(outdir):
    try:
        return {r[0]: r[1] for r in read_rows(f"{outdir}/selftests.tsv") if len(r) == 3}
    except OSError:
        return {}


def read_text(path, default=""):
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return default


def meant_for(mutant_dir, base, name):
    for line in read_text(f"{mutant_dir}/{base}/{name}.patch").splitlines():
        if line.startswith("Meant to be caught by:"):
            return [t.strip() for t in line.split(":", 1)[1].split(",") if t.strip()]
    return []


def main():
    mutant_dir, json_out = sys.argv[1], sys.argv[2]
    runs = [arg.split("=", 1) for arg in sys.argv[3:]]
    ref = {label.split(":", 1)[0]: read_results(d) for label, d in runs
           if label.endswith(":patched")}
    report, tests = [], []
    for label, outdir in runs:
        base, name = label.split(":", 1)
        results = read_results(outdir)
        for key in list(ref.get(base, {})) + list(results):
            t = key.split(":")[0]
            if t not in tests:
                tests.append(t)
        if name == "patched":
            continue
        status = read_text(f"{outdir}/status")
        rc = read_text(f"{outdir}/guest-rc", "-")
        if not status and rc in ("124", "125"):
            status = "guest timed out" if rc == "124" else "guest died"
        caught = sorted({k for k, v in results.items()
                         if v == "fail"
                         and ref.get(base, {}).get(k) in ("pass", "xfail")})
        meant = meant_for(mutant_dir, base, name)
        ran = read_text(f"{outdir}/tests-run").split() or None
        # every test (or subtest) the mutant names must catch it
        missed = [m for m in meant
                  if m not in caught and not any(c.split(":")[0] == m for c in caught)]
        report.append({"base": base, "mutant": name, "meant_for": meant,
                       "caught_by": caught, "missed_by": missed,
                       "caught_as_meant": bool(meant) and not missed,
                       "status": status or "ran", "guest_rc": rc,
                       "tests_run": ran, "results": results})

    width = max([len(f"{r['base']} {r['mutant']}") for r in report] + [6])
    print("mutant x test: X = caught (passed, or was an expected failure, on")
    print("patched and failed on the mutant),")
    print("x = caught by a subtest only, . = no change, s = skipped on the mutant")
    print("(passed on patched), ? = no result, - = not run on that mutant; the")
    print("last column says whether every test the mutant names as meant to")
    print("catch it did")
    for i, t in enumerate(tests):
        print(f"{'':{width}}  {'|  ' * i}{t}")
    for r in report:
        cells = []
        for t in tests:
            if t in r["caught_by"]:
                cells.append("X")
            elif any(c.split(":")[0] == t for c in r["caught_by"]):
                cells.append("x")
            elif r["results"].get(t) == "skip" and ref.get(r["base"], {}).get(t) == "pass":
                cells.append("s")
            elif t in r["results"]:
                cells.append(".")
            elif r["tests_run"] is not None and t not in r["tests_run"]:
                cells.append("-")
            else:
                cells.append("?")
        if r["status"] != "ran":
            verdict = r["status"].upper()
        elif r["caught_as_meant"]:
            verdict = "caught as meant"
        elif r["caught_by"]:
            verdict = "caught, but not by " + " ".join(r["missed_by"])
        else:
            verdict = "NOT CAUGHT by " + " ".join(r["meant_for"])
        # a meant test that skipped where it passed on patched cannot catch
        # (a subtest counts as skipped when its whole test was)
        skipped = [m for m in r["missed_by"]
                   if ref.get(r["base"], {}).get(m) == "pass"
                   and "skip" in (r["results"].get(m),
                                  r["results"].get(m.split(":")[0]))]
        if skipped and r["status"] == "ran":
            verdict += " (skipped on the mutant: " + " ".join(skipped) + ")"
        print(f"{r['base'] + ' ' + r['mutant']:{width}}  {'  '.join(cells)}  {verdict}")
    unrun = [t for t in tests if not any(
        r["status"] == "ran" and (r["tests_run"] is None or t in r["tests_run"])
        for r in report)]
    idle = [t for t in tests if t not in unrun and not any(
        c.split(":")[0] == t for r in report for c in r["caught_by"])]
    if idle:
        print("tests that caught no mutant: " + " ".join(idle))
    if unrun:
        print("tests run on no mutant: " + " ".join(unrun))
    with open(json_out, "w") as f:
        json.dump({"mutants": report, "tests_catching_nothing": idle,
                   "tests_run_on_no_mutant": unrun}, f, indent=1)
    return 0 if all(r["caught_as_meant"] for r in report) else 1


if __name__ == "__main__":
    sys.exit(main())
