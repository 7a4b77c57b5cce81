#!/usr/bin/env python3
"""Split a series into posting sets, one per tree that takes its patches,
by the files each patch touches; keep the series order within a set and
find which set applies on top of which.

usage: split_sets.py PATCHDIR OUTDIR [NAME]

PATCHDIR holds `series` (apply order) and the patches it names; NAME is
what sets.txt calls it (default: PATCHDIR). Writes
OUTDIR/plan.json (everything the other scripts of lab/post/ need),
OUTDIR/sets.tsv (SET K N ORIGINAL NEW, one patch a line, for the shell),
OUTDIR/SET.first (the patches to apply before SET's, for apply-set.sh),
OUTDIR/SET.code (the patches of SET that change code, one name a line)
and OUTDIR/sets.txt (the grouping, for people). Fails on a file that no
rule below claims, and on two sets that would each need the other.

The rules:
- a patch that changes code goes to the set of its code (CODE_TREES; a
  patch with code of several trees goes to the first of them in
  CODE_TREES order);
- a selftest or documentation patch (SUPPORT paths) goes to the block
  set, unless every file of it that TESTS names belongs to one other set
  that has code patches here, and none of its files is touched by a
  patch outside that set (so that each set still applies on its own);
- set X applies on top of set Y when a patch of X touches a file that a
  patch of Y, earlier in the series, touched.
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from patchfile import Patch, number  # noqa: E402

# set -> path prefixes of its code; the order settles a patch that spans trees
CODE_TREES = [
    ("block", ("block/", "include/linux/blk")),
    ("dm", ("drivers/md/dm",)),
    ("nvme", ("drivers/nvme/",)),
    ("virtio", ("drivers/block/virtio_blk.c",)),
    ("aio", ("fs/aio.c",)),
]
# selftests and documentation; they go with block unless TESTS says otherwise
SUPPORT = ("tools/testing/selftests/block/", "tools/testing/selftests/Makefile",
           "Documentation/block/", "Documentation/ABI/stable/sysfs-block",
           "MAINTAINERS")
DEFAULT_SET = "block"
# selftest or document -> the set whose code it is specific to. A file not
# named here tests or describes the block layer as a whole.
TESTS = {
    "tools/testing/selftests/block/aio_batch_hint.sh": "aio",
    "tools/testing/selftests/block/flush_multipath.sh": "dm",
    "tools/testing/selftests/block/flush_multipath_failover.sh": "dm",
    # Specific to this series, not to the file: every patch of it that
    # touches this document describes the write cache and FUA of
    # request-based dm (what the dm set changes), and a dm patch changes
    # the file between them. Drop the entry when a block patch edits it.
    "Documentation/block/writeback_cache_control.rst": "dm",
}
SET_ORDER = [name for name, _ in CODE_TREES]


def fail(msg):
    print(f"split_sets: {msg}", file=sys.stderr)
    sys.exit(1)


def code_set(path):
    for name, prefixes in CODE_TREES:
        if any(path.startswith(p) for p in prefixes):
            return name
    return None


def read_series(patchdir):
    path = os.path.join(patchdir, "series")
    try:
        with open(path) as f:
            names = [ln.strip() for ln in f if ln.strip() and not ln.lstrip().startswith("#")]
    except FileNotFoundError:
        fail(f"no {path}")
    if not names:
        fail(f"{path} names no patch")
    patches = []
    for name in names:
        p = os.path.join(patchdir, name)
        if not os.path.isfile(p):
            fail(f"{path} names {name}, which is not in {patchdir}")
        try:
            patches.append(Patch(p))
        except ValueError as e:
            fail(str(e))
    return names, patches


def assign(names, patches):
    """set of each patch (list, series order), and why a selftest stayed."""
    sets = [None] * len(patches)
    for i, p in enumerate(patches):
        trees = []
        for f in p.files():
            t = code_set(f)
            if t:
                trees.append(t)
            elif not f.startswith(SUPPORT):
                fail(f"{names[i]} touches {f}, which no set claims: add it to "
                     "CODE_TREES or SUPPORT in lab/post/split_sets.py")
        if trees:
            sets[i] = min(trees, key=SET_ORDER.index)
    code_sets = {s for s in sets if s}
    # candidates: selftest/doc patches specific to one other set with code here
    cand = {}
    for i, p in enumerate(patches):
        if sets[i]:
            continue
        named = {TESTS[f] for f in p.files() if f in TESTS}
        if len(named) == 1:
            t = named.pop()
            if t != DEFAULT_SET and t in code_sets:
                cand[i] = t
    stayed = {}
    changed = True
    while changed:
        changed = False
        for i, t in sorted(cand.items()):
            outside = [j for j in range(len(patches))
                       if j != i and (sets[j] or cand.get(j, DEFAULT_SET)) != t]
            shared = sorted({f for j in outside for f in patches[j].files()}
                            & set(patches[i].files()))
            if shared:
                del cand[i]
                stayed[i] = (t, shared)
                changed = True
                break
    for i in range(len(patches)):
        if not sets[i]:
            sets[i] = cand.get(i, DEFAULT_SET)
    return sets, stayed


def main():
    if len(sys.argv) not in (3, 4):
        fail("usage: split_sets.py PATCHDIR OUTDIR [NAME]")
    patchdir, outdir = sys.argv[1], sys.argv[2]
    label = sys.argv[3] if len(sys.argv) == 4 else patchdir
    names, patches = read_series(patchdir)
    sets, stayed = assign(names, patches)

    order = []
    for s in sets:
        if s not in order:
            order.append(s)
    members = {s: [i for i in range(len(patches)) if sets[i] == s] for s in order}
    pos = {}
    for s in order:
        n = len(members[s])
        for k, i in enumerate(members[s], 1):
            pos[i] = (k, n)

    def ref(i):
        k, n = pos[i]
        return {"set": sets[i], "number": number(k, n), "title": patches[i].title(),
                "file": names[i]}

    # applies on top of: a file touched earlier by a patch of another set
    applies = {s: {} for s in order}
    for i, p in enumerate(patches):
        for f in p.files():
            for j in range(i):
                if sets[j] != sets[i] and f in patches[j].files():
                    applies[sets[i]].setdefault(sets[j], {"patch": ref(i), "after": ref(j),
                                                          "file": f})
    # every set a set needs first, in the order the series puts them
    closure = {}
    for s in order:
        need, todo = set(), list(applies[s])
        while todo:
            t = todo.pop()
            if t not in need:
                need.add(t)
                todo.extend(applies[t])
        if s in need:
            fail(f"sets {s} and {', '.join(sorted(applies[s]))} each need the other "
                 "(they change the same files in turns): post them as one set, or "
                 "reorder the series")
        closure[s] = [t for t in order if t in need]

    test_needs = {s: [] for s in order}
    tests_elsewhere = {s: [] for s in order}
    for i, p in enumerate(patches):
        for f in p.files():
            t = TESTS.get(f)
            if t and t != sets[i] and t in members:
                test_needs[sets[i]].append({"patch": ref(i), "test": os.path.basename(f),
                                            "set": t})
                if i in stayed:
                    tests_elsewhere[t].append({"patch": ref(i), "test": os.path.basename(f),
                                               "shared": stayed[i][1]})

    plan = {
        "patchdir": patchdir,
        "series": [dict(ref(i), prefix=p.subject_parts()[0], date=p.header("Date"),
                        author=p.author_name(), files=p.files(),
                        new_file=f"{pos[i][0]:04d}-{names[i].split('-', 1)[1]}"
                        if "-" in names[i] else f"{pos[i][0]:04d}-{names[i]}")
                   for i, p in enumerate(patches)],
        "sets": [{"name": s, "patches": [names[i] for i in members[s]],
                  "applies_on": [dict(v, set=t) for t, v in sorted(
                      applies[s].items(), key=lambda kv: order.index(kv[0]))],
                  "needs_first": closure[s],
                  "test_needs": test_needs[s],
                  "tests_elsewhere": tests_elsewhere[s]} for s in order],
        "sets_without_patches": [s for s in SET_ORDER if s not in members],
    }
    os.makedirs(outdir, exist_ok=True)
    with open(os.path.join(outdir, "plan.json"), "w") as f:
        json.dump(plan, f, indent=1, sort_keys=True)
        f.write("\n")
    by_file = {e["file"]: e for e in plan["series"]}
    with open(os.path.join(outdir, "sets.tsv"), "w") as f:
        for s in plan["sets"]:
            for name in s["patches"]:
                e = by_file[name]
                k, n = e["number"].split("/")
                f.write(f"{s['name']}\t{int(k)}\t{n}\t{name}\t{e['new_file']}\n")
    # SET.first: the patches of the sets SET applies on, in series order
    for s in plan["sets"]:
        with open(os.path.join(outdir, f"{s['name']}.first"), "w") as f:
            for e in plan["series"]:
                if e["set"] in s["needs_first"]:
                    f.write(os.path.join(patchdir, e["file"]) + "\n")
    # SET.code: the patches of SET that change code (the others are its
    # selftests and documents, which go to the code's maintainers too)
    for s in plan["sets"]:
        with open(os.path.join(outdir, f"{s['name']}.code"), "w") as f:
            for name in s["patches"]:
                if any(code_set(x) for x in by_file[name]["files"]):
                    f.write(name + "\n")
    with open(os.path.join(outdir, "sets.txt"), "w") as f:
        f.write(f"Posting sets of {label}, in the order of their first patch in "
                "its series (lab/post/split_sets.py says how a patch finds its set).\n")
        for s in plan["sets"]:
            f.write(f"\n{s['name']}/: {len(s['patches'])} of the {len(names)} patches\n")
            for name in s["patches"]:
                e = by_file[name]
                f.write(f"  {e['number']}  {e['title']}  (was {name[:4]})\n")
            if s["needs_first"]:
                f.write(f"  applies on top of: {', '.join(s['needs_first'])}\n")
            else:
                f.write("  applies on the base on its own\n")
            for t in s["test_needs"]:
                f.write(f"  {t['patch']['number']} carries {t['test']}, which tests the code of "
                        f"set {t['set']}\n")
        if plan["sets_without_patches"]:
            f.write(f"\nNo patch for: {', '.join(plan['sets_without_patches'])}\n")


if __name__ == "__main__":
    main()
