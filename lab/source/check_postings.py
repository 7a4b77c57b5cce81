#!/usr/bin/env python3
"""Check the form of each posting of a base in the postings layout
(patches/<base>/order, lab/paths.sh), as a maintainer would take it:

- every directory that "order" names exists, and every directory there
  is named (none is left out of the patched kernel);
- a posting is git format-patch output numbered 0001..n, with a cover
  letter (0000-cover-letter.patch) exactly when n > 1, whose subjects
  carry the posting's subject-prefix ("[PATCH v3 2/5]");
- every patch and cover letter has To: recipients;
- a cover letter has no format-patch placeholder and at most
  MAX_COVER_LINES lines of text before its shortlog;
- no patch changes or deletes a file that an earlier patch of the same
  posting adds (fix-ups are folded into the patch that adds the file),
  but for lines added to the lists each patch extends (LIST_FILES);
- every patch carries a Signed-off-by: of its author (From:);
- no changelog cites the lab instead of a command anyone can run
  (LAB_WORDS), nor numbered test results unless it adds that test.

usage: check_postings.py PATCHDIR      (e.g. patches/mainline)
Prints one line per posting; exits 1 on the first posting with a
finding (after listing all its findings), 2 on bad usage. A base in the
series layout (no "order" file) has nothing to check: exit 0.
"""
import email.utils
import os
import re
import sys

MAX_COVER_LINES = 60
# what a changelog must not cite: the lab's harness, its numbered test
# results and its mutants (commands and device setups instead)
LAB_WORDS = re.compile(r"\blab\b|\blab's\b|\bmutants?\b|\bresults/")
# a test's own numbered results, which only the patch adding that test
# may cite
RESULT_WORDS = re.compile(r"\bresults? \d+\b")
SELFTESTS = "tools/testing/selftests/"
# files that each patch of a posting extends with its own line
LIST_FILES = ("Makefile", "config", ".gitignore", "index.rst")


def read_order(d):
    with open(os.path.join(d, "order")) as f:
        return [ln.split("#")[0].strip() for ln in f if ln.split("#")[0].strip()]


def split_mail(text):
    """headers (unfolded, lower-case names) and body of one patch mail"""
    head, _, body = text.partition("\n\n")
    headers = {}
    name = None
    for ln in head.splitlines()[1:]:
        if ln[:1] in (" ", "\t") and name:
            headers[name] += " " + ln.strip()
            continue
        name, _, value = ln.partition(":")
        name = name.lower()
        headers[name] = value.strip()
    return headers, body


def changelog(body):
    """the commit message part of a patch body (before the first ---)"""
    out = []
    for ln in body.splitlines():
        if ln == "---":
            break
        out.append(ln)
    return out


def files_of(body):
    """(added, touched, removed_from) of a patch body: the files it adds,
    every file it changes, renames, re-modes or deletes, and the files
    it removes lines from or otherwise alters beyond adding lines (a
    deletion, rename or mode change counts). Paths come from the
    "diff --git" lines and hunk lines are counted by the "@@" headers."""
    added, touched, removed_from = set(), set(), set()
    lines = body.splitlines()
    i, cur = 0, None
    while i < len(lines):
        ln = lines[i]
        if ln.startswith("diff --git a/"):
            old, _, new = ln[len("diff --git a/"):].partition(" b/")
            cur = new
            touched.update({old, new})
            if old != new:
                removed_from.add(old)
        elif cur and ln.startswith("new file mode"):
            added.add(cur)
        elif cur and (ln.startswith("deleted file mode") or ln.startswith("old mode") or
                      ln.startswith("rename from") or ln.startswith("copy from")):
            removed_from.add(cur)
        elif cur and ln.startswith("@@ "):
            m = re.match(r"@@ -\d+(?:,(\d+))? \+\d+(?:,(\d+))? @@", ln)
            n_old = int(m.group(1)) if m and m.group(1) is not None else 1
            n_new = int(m.group(2)) if m and m.group(2) is not None else 1
            while (n_old > 0 or n_new > 0) and i + 1 < len(lines):
                i += 1
                h = lines[i]
                if h.startswith("-"):
                    removed_from.add(cur)
                    n_old -= 1
                elif h.startswith("+"):
                    n_new -= 1
                elif h.startswith("\\"):
                    continue
                else:
                    n_old -= 1
                    n_new -= 1
        i += 1
    return added, touched, removed_from


def check_posting(d, name):
    findings = []
    pdir = os.path.join(d, name)
    if not os.path.isdir(pdir):
        return [f"order names {name}, which has no directory"], 0
    try:
        with open(os.path.join(pdir, "subject-prefix")) as f:
            prefix = f.read().strip()
    except FileNotFoundError:
        return ["no subject-prefix"], 0
    if not os.path.isfile(os.path.join(pdir, "cover-letter.txt")):
        findings.append("no cover-letter.txt")
    names = sorted(f for f in os.listdir(pdir) if re.match(r"\d{4}-.*\.patch$", f))
    patches = [f for f in names if not f.startswith("0000-")]
    cover = [f for f in names if f.startswith("0000-")]
    n = len(patches)
    if n == 0:
        return findings + ["no patch"], 0
    for k, f in enumerate(patches, 1):
        if not f.startswith(f"{k:04d}-"):
            findings.append(f"{f}: expected patch number {k:04d}")
    if n > 1 and cover != ["0000-cover-letter.patch"]:
        findings.append(f"{n} patches and no 0000-cover-letter.patch")
    if n == 1 and cover:
        findings.append("one patch and a cover letter")
    added_by = {}
    for k, f in enumerate(cover + patches, 0 if cover else 1):
        with open(os.path.join(pdir, f)) as fh:
            headers, body = split_mail(fh.read())
        w = len(str(n))
        want = f"[{prefix} {k:0{w}d}/{n}]" if n > 1 else f"[{prefix}]"
        if not headers.get("subject", "").startswith(want):
            findings.append(f"{f}: subject does not start with {want}")
        if not headers.get("to"):
            findings.append(f"{f}: no To: recipients")
        if k == 0:
            if "*** SUBJECT HERE ***" in headers.get("subject", "") or "*** BLURB HERE ***" in body:
                findings.append(f"{f}: format-patch placeholder left")
            text = []
            for ln in body.splitlines():
                if re.match(r"^\S.* \(\d+\):$", ln):
                    break
                text.append(ln)
            if len(text) > MAX_COVER_LINES:
                findings.append(f"{f}: {len(text)} lines of text, more than {MAX_COVER_LINES}")
            continue
        added, touched, removed_from = files_of(body)
        author = email.utils.parseaddr(headers.get("from", ""))[1].lower()
        sobs = [email.utils.parseaddr(ln.split(":", 1)[1])[1].lower()
                for ln in changelog(body) if ln.lower().startswith("signed-off-by:")]
        if author not in sobs:
            findings.append(f"{f}: no Signed-off-by: of its author {author or '(no From:)'}")
        test_only = all(p.startswith(SELFTESTS) for p in touched)
        for ln in changelog(body):
            m = LAB_WORDS.search(ln) or (not test_only and RESULT_WORDS.search(ln))
            if m:
                findings.append(f"{f}: changelog cites the lab ('{m.group(0)}'): {ln.strip()}")
        for path in sorted(touched - added):
            if path in added_by and (os.path.basename(path) not in LIST_FILES or
                                     path in removed_from):
                findings.append(f"{f}: changes {path}, which {added_by[path]} of this posting adds: fold it there")
        for path in added:
            added_by.setdefault(path, f)
    return findings, n


def main():
    if len(sys.argv) != 2:
        print(__doc__.strip().split("\n\n")[-2], file=sys.stderr)
        return 2
    d = sys.argv[1]
    base = os.path.basename(os.path.normpath(d))
    if not os.path.isfile(os.path.join(d, "order")):
        print(f"postings[{base}]: series layout, no postings to check")
        return 0
    order = read_order(d)
    rc = 0
    dirs = sorted(e for e in os.listdir(d) if os.path.isdir(os.path.join(d, e)))
    for e in dirs:
        if e not in order:
            print(f"postings[{base}]: {e}/ is not in order: the patched kernel would lack it",
                  file=sys.stderr)
            rc = 1
    for name in order:
        findings, n = check_posting(d, name)
        if findings:
            rc = 1
            for f in findings:
                print(f"postings[{base}]: {name}: {f}", file=sys.stderr)
        else:
            print(f"postings[{base}]: {name}: {n} patch(es), ok")
    return rc


if __name__ == "__main__":
    sys.exit(main())
