#!/usr/bin/env python3
"""Write the cover letter (0000-cover-letter.patch) of one posting set.

usage: cover_letter.py PLAN_JSON SET ORIGINAL_COVER BENCH_JSONS BASE_COMMIT
                       TO_FILE CC_FILE DIFFSTAT_FILE MATRIX_FILE OUT

It holds, from the plan of split_sets.py: which sets the series is posted
as, what this set applies on and which selftests cross sets; from the
original cover letter: its From:, its "Changes since v1:" items that belong
to this set, and the paragraphs after that list (the notes on the base);
the set's bench numbers (bench_table.py; BENCH_JSONS: one bench.json, or
several separated by spaces); the build matrix of the whole
series (MATRIX_FILE: the ok lines that lab/build/build-matrix.sh --check
printed); the shortlog, the diffstat that make-post.sh computed, and
base-commit. It is dated like the set's newest
patch, so that it changes only with the set.

An item of "Changes since v1:" belongs to the sets of the patches whose
subject it quotes ("subject", or "start of subject ..."); an item about
the base ("based on ...") belongs to every set; any other item to the
block set, which carries the rest of the series. A set that no item
quotes gets a line saying so.
"""
import json
import os
import re
import sys
import textwrap

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from patchfile import Patch, address_header, fold, number, read_list, read_text, write_text  # noqa: E402
import bench_table  # noqa: E402

# the subject of a set of several patches; a set of one patch takes its subject
TITLES = {
    "block": "block: plug flush size, plug merge with several queues, flush "
             "accounting, and block selftests",
}
DEFAULT_SET = "block"
SERIES_WIDE = ("based on ",)
CHANGES_RE = re.compile(r"^Changes since v\d+:\s*$")
SHORTLOG_RE = re.compile(r"^\S.* \(\d+\):$")
# what each leg of lab/build/build-matrix.sh builds
MATRIX_LEGS = {
    "allmod": "each patch on its own, allmodconfig, W=1, sparse",
    "zoned-off": "CONFIG_BLK_DEV_ZONED=n",
    "aio-off": "CONFIG_AIO=n",
    "mpath-off": "CONFIG_DM_MULTIPATH=n",
    "i386": "ARCH=i386",
    "htmldocs": "make htmldocs SPHINXDIRS=block",
}
MATRIX_RE = re.compile(r"^(\S+) +(ok|FAIL) +(\d+) s +([0-9a-f]{12})  (.*)$")


def para(text):
    return textwrap.wrap(text, 72, break_long_words=False, break_on_hyphens=False)


def bullet(text):
    return textwrap.wrap(text, 72, initial_indent="- ", subsequent_indent="  ",
                         break_long_words=False, break_on_hyphens=False)


def plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "es" if word.endswith("ch") else "s")


def quote(e):
    return f'{e["number"]} "{e["title"]}"'


def parse_cover(body):
    """(changes heading, [items, each a list of lines], [note paragraphs])"""
    lines = body.split("\n")
    start = next((i for i, ln in enumerate(lines) if CHANGES_RE.match(ln)), None)
    if start is None:
        return None, [], []
    items, i = [], start + 1
    while i < len(lines) and lines[i].strip():
        if lines[i].startswith("- ") or not items:
            items.append([lines[i]])
        else:
            items[-1].append(lines[i])
        i += 1
    notes, cur = [], []
    for ln in lines[i:]:
        if SHORTLOG_RE.match(ln):
            break
        if ln.strip():
            cur.append(ln)
        elif cur:
            notes.append(cur)
            cur = []
    if cur:
        notes.append(cur)
    return lines[start], items, notes


def item_sets(item, series, sets):
    text = " ".join(ln.strip() for ln in item)
    found = []
    for q in re.findall(r'"([^"]+)"', text):
        q = q.strip()
        if q.endswith("..."):
            hits = [e for e in series if e["title"].startswith(q[:-3].rstrip())]
        else:
            hits = [e for e in series if e["title"] == q]
        found += [e["set"] for e in hits if e["set"] not in found]
    if found:
        return found
    if text[2:].startswith(SERIES_WIDE):
        return list(sets)
    return [DEFAULT_SET if DEFAULT_SET in sets else sets[0]]


def matrix_text(path):
    """The build coverage paragraph from the ok lines of build-matrix.sh --check."""
    b = para("Build coverage of the whole series on base-commit, warnings "
             "counted against the base in the same configuration "
             "(lab/build/build-matrix.sh):")
    with open(path) as f:
        lines = [ln.rstrip("\n") for ln in f if ln.strip()]
    if not lines:
        sys.exit(f"cover_letter: {path} has no build matrix line")
    for ln in lines:
        m = MATRIX_RE.match(ln)
        if not m or m.group(2) != "ok":
            sys.exit(f"cover_letter: {path}: not an ok line of the form "
                     f"'LEG ok N s TREE NOTE': {ln}")
        leg, note = m.group(1), m.group(5)
        if leg not in MATRIX_LEGS:
            sys.exit(f"cover_letter: no description of the build matrix leg {leg} in MATRIX_LEGS")
        b += bullet(f"{leg} ({MATRIX_LEGS[leg]}): ok" + (f", {note};" if note else ";"))
    b[-1] = b[-1].rstrip(";") + "."
    return b


def main():
    if len(sys.argv) != 11:
        sys.exit(__doc__.split("\n\n")[1])
    (plan_file, set_name, cover_file, bench_file, base, to_file, cc_file, stat_file,
     matrix_file, out) = sys.argv[1:]
    with open(plan_file) as f:
        plan = json.load(f)
    sets = [s["name"] for s in plan["sets"]]
    me = plan["sets"][sets.index(set_name)]
    series = plan["series"]
    mine = [e for e in series if e["set"] == set_name]
    n = len(mine)
    try:
        cover = Patch(cover_file)
        orig_title = cover.title()
    except ValueError as e:
        sys.exit(f"cover_letter: {e}")
    last = Patch(os.path.join(plan["patchdir"], mine[-1]["file"]))
    prefix = mine[0]["prefix"]
    title = mine[0]["title"] if n == 1 else TITLES.get(
        set_name, f"{set_name}: part of the series \"{orig_title}\"")

    head = ["From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001"]
    head += next(raw for name, raw in cover.headers if name.lower() == "from")
    head.append(f"Date: {last.header('Date')}")
    head += fold("Subject", f"[{prefix} {number(0, n)}] {title}")
    head += address_header("To", read_list(to_file))
    head += address_header("Cc", read_list(cc_file))

    b = []
    counts = [f"{s['name']} ({plural(len(s['patches']), 'patch')})" for s in plan["sets"]]
    listing = counts[0] if len(counts) == 1 else ", ".join(counts[:-1]) + " and " + counts[-1]
    b += para(f'v2 of "{orig_title}" is posted as {plural(len(counts), "set")}, one for '
              f"each tree that takes its patches (by the files each patch touches): "
              f"{listing}. This is the {set_name} set.")

    b += [""] + para("Dependencies (a set applies on top of another when one of its "
                     "patches changes a file that a patch of the other set changed "
                     "before it in the series order):")
    if me["applies_on"]:
        for a in me["applies_on"]:
            b += bullet(f"applies on top of set {a['set']}: {quote(a['patch'])} changes "
                        f"{a['file']} after {quote(a['after'])} of set {a['set']};")
    else:
        b += bullet("this set applies to base-commit on its own;")
    above = [s["name"] for s in plan["sets"] if set_name in s["needs_first"]]
    if above:
        b += bullet(f"set{'s' if len(above) > 1 else ''} {', '.join(above)} "
                    f"appl{'y' if len(above) > 1 else 'ies'} on top of this one;")
    elif len(sets) > 1:
        b += bullet("no other set needs this one to apply;")
    by_patch = {}
    for t in me["test_needs"]:
        by_patch.setdefault((t["patch"]["number"], t["patch"]["title"], t["set"]), []).append(
            t["test"])
    for (num, subj, other), tests in by_patch.items():
        b += bullet(f'{num} "{subj}" carries selftests of the code of set {other} '
                    f"({', '.join(tests)}): run them with set {other} applied;")
    elsewhere = {}
    for t in me["tests_elsewhere"]:
        elsewhere.setdefault(json.dumps(t["patch"], sort_keys=True), (t, []))[1].append(t["test"])
    for t, tests in elsewhere.values():
        shared = ", ".join(os.path.basename(f) for f in t["shared"])
        b += bullet(f"the selftests of this set's code ({', '.join(tests)}) are in set "
                    f"{t['patch']['set']} ({quote(t['patch'])}), because that patch "
                    f"changes files that other selftests of that set change too ({shared});")
    b[-1] = b[-1].rstrip(";") + "."

    heading, items, notes = parse_cover(cover.body)
    b += ["", heading or "Changes since v1:"]
    kept = [it for it in items if set_name in item_sets(it, series, sets)]
    own = [it for it in kept if not " ".join(it)[2:].startswith(SERIES_WIDE)]
    b += [ln for it in kept for ln in it]
    if kept and b[-1].endswith(";"):
        b[-1] = b[-1][:-1] + "."  # the last item kept ends the list
    if not own:
        b += bullet("the v1 cover letter lists no change of its own for "
                    + "; ".join(f'"{e["title"]}"' for e in mine) + ".")
    b += [""] + bench_table.set_text(bench_table.load_all(bench_file), plan, set_name)
    b += [""] + matrix_text(matrix_file)

    for p in notes:
        b += [""] + p

    authors = {}
    for e in mine:
        authors.setdefault(e["author"], []).append(e["title"])
    b.append("")
    for a in sorted(authors):
        b.append(f"{a} ({len(authors[a])}):")
        for t in authors[a]:
            b += textwrap.wrap(t, 72, initial_indent="  ", subsequent_indent="    ",
                               break_long_words=False, break_on_hyphens=False)
        b.append("")
    stat = read_text(stat_file).rstrip("\n")
    text = "\n".join(head) + "\n\n" + "\n".join(b) + "\n" + stat + "\n\n\nbase-commit: " + base + "\n"
    write_text(out, text)


if __name__ == "__main__":
    main()
