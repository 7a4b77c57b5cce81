#!/usr/bin/env python3
"""Check a poster's identity, and write a posting under it.

usage: sign_posting.py check NAME EMAIL REPO_IDENT
       sign_posting.py ident PATCH
       sign_posting.py sign NAME EMAIL REPO_IDENT V2_LINK SRC_DIR DST_DIR

REPO_IDENT is the identity the exported patches carry ("Name <email>"),
which is the repository's, not a person's.

check: exits 0 when NAME <EMAIL> can sign a posting, else prints why on
stderr and exits 1. Refused: an empty name or address, the repository's
own identity (same address or same name), an address without a domain
that has a dot, a noreply address, and the domains reserved for
documentation and tests (RFC 2606, RFC 6761: example, example.com/.net/
.org, .invalid, .test, .localhost, .local), which mail cannot reach.

ident: prints the decoded "Name <email>" of PATCH's From: header.

sign: copies each .patch of SRC_DIR to DST_DIR with the From: header,
when it is the repository's, and the repository's Signed-off-by: trailers
replaced by the poster's (a Signed-off-by: of the poster's already there
is not added twice; a patch by somebody else keeps its From:), the cover
letter's shortlog author line too, and "<lore link of v2>" replaced by
V2_LINK when it is not empty ("none" drops the line that holds it).
Exits 1 with a message when a patch has no From: header.
"""
import email.parser
import email.policy
import email.utils
import os
import re
import sys

RESERVED = re.compile(r"(^|\.)(example|invalid|test|localhost|local)$|"
                      r"(^|\.)example\.(com|net|org)$")
V2_PLACEHOLDER = "<lore link of v2>"


def parse_ident(ident):
    name, addr = email.utils.parseaddr(ident)
    return name.strip(), addr.strip().lower()


def why_refused(name, addr, repo_ident):
    repo_name, repo_addr = parse_ident(repo_ident)
    if not name:
        return "no name (git config user.name)"
    if not addr:
        return "no e-mail address (git config user.email)"
    if addr.lower() == repo_addr or name == repo_name:
        return (f"'{name} <{addr}>' is the repository's own identity, not a person's: "
                "patches are signed by the person who posts them")
    local, _, domain = addr.rpartition("@")
    domain = domain.lower().rstrip(".")
    if not local or "." not in domain:
        return f"'{addr}' has no routable domain"
    if "noreply" in addr.lower() or "no-reply" in addr.lower():
        return f"'{addr}' is a noreply address: nobody can answer the review there"
    if RESERVED.search(domain):
        return f"'{addr}' is in a domain reserved for examples and tests ({domain}): mail cannot reach it"
    return None


def header_ident(text):
    """The "Name <address>" of a mail's From: header, unfolded and decoded
    (RFC 2047), or None."""
    msg = email.parser.Parser(policy=email.policy.default).parsestr(text, headersonly=True)
    value = msg.get("From")
    if value is None:
        return None
    name, addr = email.utils.parseaddr(str(value))
    return f"{name} <{addr}>"


def sign(text, name, addr, repo_ident, v2_link):
    """text with the repository's identity replaced by the poster's: the
    From: header when it is the repository's, the repository's
    Signed-off-by: trailers (dropped when the poster already signed), a
    cover letter's shortlog author line. None when there is no From:."""
    repo_name, repo_addr = parse_ident(repo_ident)
    poster = email.utils.formataddr((name, addr), charset="utf-8")
    plain = f"{name} <{addr}>"
    head, sep, body = text.partition("\n\n")
    author = header_ident(head + "\n\n")
    if author is None:
        return None
    out, skip = [], False
    for ln in head.split("\n"):
        if skip and ln[:1] in (" ", "\t"):
            continue
        skip = False
        if ln.startswith("From: ") and parse_ident(author)[1] == repo_addr:
            out.append(f"From: {poster}")
            skip = True
            continue
        out.append(ln)
    if any(ord(c) > 127 for c in name) and not any(
            ln.lower().startswith("content-type:") for ln in out):
        out += ["MIME-Version: 1.0", "Content-Type: text/plain; charset=UTF-8",
                "Content-Transfer-Encoding: 8bit"]
    # trailers live in the changelog, before the first "---" line
    cut = body.find("\n---\n")
    cut = len(body) if cut < 0 else cut + 1
    log, dashes, rest = body[:cut], "", body[cut:]
    sob_repo = re.compile(r"^Signed-off-by: .*<" + re.escape(repo_addr) + r">[ \t]*\n?",
                          re.I | re.M)
    sob_poster = re.compile(r"^Signed-off-by: .*<" + re.escape(addr) + r">[ \t]*$",
                            re.I | re.M)
    if sob_poster.search(log):
        log = sob_repo.sub("", log)
    else:
        log = sob_repo.sub(lambda m: f"Signed-off-by: {plain}\n", log)
    body = log + dashes + rest
    # the cover letter's shortlog: "Repo Name (N):"
    body = re.sub(r"(?m)^" + re.escape(repo_name) + r" (\(\d+\):)$",
                  lambda m: f"{name} {m.group(1)}", body)
    if v2_link == "none":
        body = re.sub(r"(?m)^.*" + re.escape(V2_PLACEHOLDER) + r".*\n", "", body)
    elif v2_link:
        body = body.replace(V2_PLACEHOLDER, v2_link)
    return "\n".join(out) + sep + body


def main(argv):
    if len(argv) >= 5 and argv[1] == "check":
        why = why_refused(argv[2], argv[3], argv[4])
        if why:
            print(why, file=sys.stderr)
            return 1
        return 0
    if len(argv) == 3 and argv[1] == "ident":
        with open(argv[2]) as fh:
            who = header_ident(fh.read())
        if not who:
            print(f"{argv[2]}: no From: header", file=sys.stderr)
            return 1
        print(who)
        return 0
    if len(argv) == 8 and argv[1] == "sign":
        _, _, name, addr, repo_ident, v2_link, src, dst = argv
        why = why_refused(name, addr, repo_ident)
        if why:
            print(why, file=sys.stderr)
            return 1
        os.makedirs(dst, exist_ok=True)
        for f in sorted(os.listdir(src)):
            if not f.endswith(".patch"):
                continue
            with open(os.path.join(src, f)) as fh:
                text = fh.read()
            new = sign(text, name, addr, repo_ident, v2_link)
            if new is None:
                print(f"{os.path.join(src, f)}: no From: header", file=sys.stderr)
                return 1
            with open(os.path.join(dst, f), "w") as fh:
                fh.write(new)
        return 0
    print(__doc__.split("\n\n")[1], file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
