#!/usr/bin/env python3
"""Write To: and Cc: headers into the patches of one posting. To: of a
patch: the maintainers scripts/get_maintainer.pl names for the files it
touches (for a patch that changes code, those of its code: the
documentation maintainers of a document folded into it go to Cc:). Cc:
of every patch: the reviewers, lists and maintainers of the whole
posting and the posting's extra Cc addresses, less its own To:, so that
each list sees the whole thread. The cover letter goes To: every
patch's To: and Cc: the rest.

usage: add_recipients.py TREE EXTRA_CC_FILE PATCH...
TREE is the kernel tree whose MAINTAINERS and get_maintainer.pl decide;
EXTRA_CC_FILE holds one address a line ("#" comments; "-" for none).
A PATCH named 0000-cover-letter.patch gets the union. The headers go
right after Subject:, folded as git format-patch folds them, in C sort
order, so the same inputs give the same bytes. Exits 1 with the error of
get_maintainer.pl when it fails, 2 on bad usage.
"""
import email.utils
import os
import subprocess
import sys
import tempfile

# get_maintainer.pl reads ~/.get_maintainer.conf and .get_maintainer.ignore:
# run it with an empty HOME so that no user's settings change the result
EMPTY_HOME = tempfile.mkdtemp(prefix="add_recipients.")


def run_gm(tree, args):
    env = dict(os.environ, HOME=EMPTY_HOME)
    cmd = ["perl", "scripts/get_maintainer.pl", "--no-git", "--no-git-fallback",
           "--no-rolestats", "--no-fixes"] + args
    r = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, env=env)
    if r.returncode != 0:
        sys.exit(f"add_recipients: get_maintainer.pl failed on {args[-1]}: {r.stderr.strip()}")
    return {ln.strip() for ln in r.stdout.splitlines() if ln.strip()}


def patch_files(patch):
    """the files a patch changes, from its diff --git lines"""
    out = []
    with open(patch) as f:
        for ln in f:
            if ln.startswith("diff --git a/"):
                out.append(ln.split(" b/", 1)[1].strip())
    return out


def to_of(tree, patch):
    """To: of a patch: the maintainers of its files, or of its code alone
    when a document is folded into a code patch"""
    files = patch_files(patch)
    code = [f for f in files if not f.startswith("Documentation/")]
    if code and len(code) < len(files):
        out = set()
        for f in code:
            out |= run_gm(tree, ["--no-r", "--no-l", "-f", f])
        return out
    return run_gm(tree, ["--no-r", "--no-l", os.path.abspath(patch)])


def dedup(addrs):
    """one entry per address (the first spelling, in C order)"""
    seen, out = set(), set()
    for a in sorted(addrs):
        key = email.utils.parseaddr(a)[1].lower() or a
        if key not in seen:
            seen.add(key)
            out.add(a)
    return out


def minus(addrs, drop):
    keys = {email.utils.parseaddr(a)[1].lower() for a in drop}
    return {a for a in addrs if email.utils.parseaddr(a)[1].lower() not in keys}


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
    recipients, everyone = {}, set(extra)
    for p in patches:
        if os.path.basename(p) == "0000-cover-letter.patch":
            continue
        recipients[p] = dedup(to_of(tree, p))
        everyone |= run_gm(tree, [os.path.abspath(p)])
    all_to = dedup(set().union(*recipients.values())) if recipients else set()
    for p in patches:
        to = recipients.get(p, all_to)
        insert(p, to, dedup(minus(everyone, to)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
