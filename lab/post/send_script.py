#!/usr/bin/env python3
"""Write the send.sh of a posting set: a script that lists each file's
To:/Cc: (read from the files' own headers) and prints, never runs, the
git send-email command that sends the set as one thread under its cover
letter.

usage: send_script.py SETDIR    (writes SETDIR/send.sh)
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from patchfile import Patch, write_text  # noqa: E402


def addresses(p, name):
    """The addresses of header NAME, split at commas outside quotes."""
    out, cur, quoted = [], "", False
    for c in p.header(name) or "":
        if c == '"':
            quoted = not quoted
        if c == "," and not quoted:
            out.append(cur.strip())
            cur = ""
        else:
            cur += c
    if cur.strip():
        out.append(cur.strip())
    return out


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: send_script.py SETDIR")
    d = sys.argv[1]
    files = sorted(f for f in os.listdir(d) if f.endswith(".patch") and f[:4].isdigit())
    if not files or files[0] != "0000-cover-letter.patch":
        sys.exit(f"send_script: {d} has no 0000-cover-letter.patch")
    name = os.path.basename(os.path.normpath(d))
    out = ["#!/bin/bash",
           f"# Prints the git send-email command for the {name} set; sends nothing.",
           "# Written by lab/post/make-post.sh (make post). git send-email takes the",
           "# recipients of each mail from the To: and Cc: headers of its file (from",
           "# the base tree's scripts/get_maintainer.pl); they are:",
           "#"]
    for f in files:
        p = Patch(os.path.join(d, f))
        out.append(f"# {f}")
        for h in ("To", "Cc"):
            for a in addresses(p, h):
                out.append(f"#   {h}: {a}")
    out += ["#",
            "# Review every file, then run the printed command yourself (with",
            "# --dry-run first to see the mails). If git send-email asks \"To whom",
            "# should the emails be sent (if anyone)?\", press Enter: the headers",
            "# of the files name everyone.",
            "set -eu",
            'dir=$(cd "$(dirname "$0")" && pwd)',
            "files=("]
    out += [f"\t{f}" for f in files]
    out += [")",
            "printf 'git send-email --confirm=always --thread --no-chain-reply-to'",
            "for f in \"${files[@]}\"; do printf ' %q' \"$dir/$f\"; done",
            "printf '\\n'"]
    write_text(os.path.join(d, "send.sh"), "\n".join(out) + "\n")
    os.chmod(os.path.join(d, "send.sh"), 0o755)


if __name__ == "__main__":
    main()
