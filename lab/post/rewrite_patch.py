#!/usr/bin/env python3
"""Write one patch of a posting set: the original with its Subject's
"[PREFIX k/n]" renumbered and To:/Cc: headers after the Subject, the way
`git format-patch --to/--cc` writes them (git send-email reads them).
Every other byte is the original's.

usage: rewrite_patch.py ORIGINAL K N TO_FILE CC_FILE OUT

TO_FILE and CC_FILE hold one address a line, in the order to write them.
"""
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from patchfile import Patch, address_header, number, read_list, write_text  # noqa: E402


def main():
    if len(sys.argv) != 7:
        sys.exit("usage: rewrite_patch.py ORIGINAL K N TO_FILE CC_FILE OUT")
    orig, k, n, to_file, cc_file, out = sys.argv[1:]
    try:
        p = Patch(orig)
        prefix, _ = p.subject_parts()
    except ValueError as e:
        sys.exit(f"rewrite_patch: {e}")
    if any(name.lower() in ("to", "cc") for name, _ in p.headers):
        sys.exit(f"rewrite_patch: {orig} already has To:/Cc: headers (format.to or "
                 "format.cc in a git config?): export it without them")
    lines = []
    for name, raw in p.headers:
        if name.lower() == "subject":
            new, count = re.subn(r"^Subject: \[[^\]]*\]", f"Subject: [{prefix} {number(int(k), int(n))}]",
                                 raw[0])
            if count != 1:
                sys.exit(f"rewrite_patch: {orig}: cannot renumber {raw[0]!r}")
            lines += [new] + raw[1:]
            lines += address_header("To", read_list(to_file))
            lines += address_header("Cc", read_list(cc_file))
        else:
            lines += raw
    write_text(out, "\n".join(lines) + "\n\n" + p.body)


if __name__ == "__main__":
    main()
