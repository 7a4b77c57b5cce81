#!/usr/bin/env python3
"""Write To: and Cc: headers into the patches of one posting, each patch
to its own recipients and the cover letter to all of them, the way
b4 and most posters split them: To: the maintainers scripts/get_maintainer.pl
names for the files the patch touches, Cc: its reviewers and lists and the
posting's extra Cc addresses, less those in To:.

usage: add_recipients.py TREE EXTRA_CC_FILE PATCH...
TREE is the kernel tree whose MAINTAINERS and get_maintainer.pl decide;
EXTRA_CC_FILE holds one address a line ("#" comments; "-" for none).
A PATCH named 0000-cover-letter.patch gets the union. The headers go
right after Subject:, folded as git format-patch folds them, in C sort
order, so the same inputs give the same bytes. Exits 1 with the error of
get_maintainer.pl when it fails, 2 on bad usage.
"""
import os
import subprocess
import sys


def maintainers(tree, patch, role_args):
    cmd = ["perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
           "--no-rolestats", "--no-fixes"] + role_args + [os.path.abspath(patch)]
    r = subprocess.run(cmd, cwd=tree, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"add_recipients: get_maintainer.pl failed on {patch}: {r.stderr.strip()}")
    return {ln.strip() for ln in r.stdout.splitlines() if ln.strip()}


def header(name, addrs):
    addrs = sorted(addrs)
    if not addrs:
        return []
    lines = [f"{name}: {addrs[0]}"]
    for a in addrs[1:]:
        lines[-1] += ","
        lines.append(f"    {a}")
    return lines


def insert(path, to, cc):
    with open(path) as f:
        text = f.read()
    head, sep, body = text.partition("\n\n")
    lines = head.split("\n")
    out, i = [], 0
    while i < len(lines):
        out.append(lines[i])
        if lines[i].startswith("Subject:"):
            while i + 1 < len(lines) and lines[i + 1][:1] in (" ", "\t"):
                i += 1
                out.append(lines[i])
            out += header("To", to) + header("Cc", cc)
        i += 1
    with open(path, "w") as f:
        f.write("\n".join(out) + sep + body)


def main(argv):
    if len(argv) < 4:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    tree, extra_file, patches = argv[1], argv[2], argv[3:]
    extra = set()
    if extra_file != "-" and os.path.exists(extra_file):
        with open(extra_file) as f:
            extra = {ln.split("#")[0].strip() for ln in f if ln.split("#")[0].strip()}
    per = {}
    for p in patches:
        if os.path.basename(p) == "0000-cover-letter.patch":
            continue
        to = maintainers(tree, p, ["--no-r", "--no-l"])
        cc = (maintainers(tree, p, ["--no-m"]) | extra) - to
        per[p] = (to, cc)
    all_to = set().union(*(t for t, _ in per.values())) if per else set()
    all_cc = set().union(*(c for _, c in per.values())) - all_to if per else set()
    for p in patches:
        if p in per:
            insert(p, *per[p])
        else:
            insert(p, all_to, all_cc)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
