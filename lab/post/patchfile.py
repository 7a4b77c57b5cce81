"""Read one `git format-patch` file: its mail headers, its subject and the
files its diff touches. Imported by the other scripts of lab/post/; it
writes nothing.

A patch is kept as bytes decoded with surrogateescape, so that writing it
back gives the same bytes even where the body is not UTF-8.
"""
import re
from email.utils import parsedate_to_datetime

# "[PATCH v2 03/15] rest" -> prefix "PATCH v2", number 3, total 15
SUBJECT_RE = re.compile(r"^\[(?P<prefix>[^\]]*?)(?: (?P<k>\d+)/(?P<n>\d+))?\] (?P<title>.*)$", re.S)
DIFF_RE = re.compile(r"^diff --git a/(?P<a>\S+) b/(?P<b>\S+)$")


def read_text(path):
    with open(path, "rb") as f:
        return f.read().decode("utf-8", "surrogateescape")


def write_text(path, text):
    with open(path, "wb") as f:
        f.write(text.encode("utf-8", "surrogateescape"))


class Patch:
    """One format-patch file. headers: [(name, [raw lines])] in file order,
    the first line being the mbox "From <sha> <date>" line (name "")."""

    def __init__(self, path):
        self.path = path
        self.text = read_text(path)
        head, sep, self.body = self.text.partition("\n\n")
        if not sep:
            raise ValueError(f"{path}: no blank line after the mail headers")
        self.headers = []
        for line in head.split("\n"):
            if line[:1] in (" ", "\t") and self.headers:
                self.headers[-1][1].append(line)
            elif line.startswith("From ") and not self.headers:
                self.headers.append(("", [line]))
            else:
                name = line.split(":", 1)[0]
                self.headers.append((name, [line]))

    def header(self, name):
        """The unfolded value of the first header NAME, or None."""
        for n, lines in self.headers:
            if n.lower() == name.lower():
                return "".join(lines)[len(n) + 1:].strip()
        return None

    def subject_parts(self):
        subj = self.header("Subject")
        if subj is None:
            raise ValueError(f"{self.path}: no Subject: header")
        m = SUBJECT_RE.match(subj)
        if not m:
            raise ValueError(f"{self.path}: Subject has no [PATCH ...] prefix: {subj}")
        return m.group("prefix"), m.group("title")

    def title(self):
        """The subject without its [PATCH ...] prefix."""
        return self.subject_parts()[1]

    def author_name(self):
        frm = self.header("From") or ""
        return frm.split("<", 1)[0].strip().strip('"')

    def date(self):
        return parsedate_to_datetime(self.header("Date"))

    def files(self):
        """Every path the diff touches (both names of a rename), in diff order."""
        out = []
        for line in self.body.split("\n"):
            m = DIFF_RE.match(line)
            if m:
                for p in (m.group("a"), m.group("b")):
                    if p not in out:
                        out.append(p)
        return out


def fold(name, value, width=78):
    """A header line folded at spaces like git format-patch does it for the
    subject: no line longer than WIDTH where a space allows it."""
    words = value.split(" ")
    lines, cur = [], f"{name}: {words[0]}"
    for w in words[1:]:
        if len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = " " + w
        else:
            cur += " " + w
    lines.append(cur)
    return lines


def address_header(name, addrs):
    """To:/Cc: as git format-patch writes --to/--cc: one address a line,
    continuation lines indented by four spaces."""
    if not addrs:
        return []
    lines = []
    for i, a in enumerate(addrs):
        lead = f"{name}: " if i == 0 else "    "
        lines.append(lead + a + ("," if i + 1 < len(addrs) else ""))
    return lines


def number(k, n):
    """k/n zero-padded to the width of n, as git format-patch numbers."""
    w = len(str(n))
    return f"{k:0{w}d}/{n}"


def read_list(path):
    """Lines of a file, without empty ones (a missing file is an empty list)."""
    try:
        return [line for line in read_text(path).split("\n") if line.strip()]
    except FileNotFoundError:
        return []
