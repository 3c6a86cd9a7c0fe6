"""The statements of docs/spec.md, for the tools that map tests to them."""
import os
import re

from .. import ROOT

SPEC = os.path.join(ROOT, "docs", "spec.md")
STATEMENT = re.compile(r"^- ([A-Z]+-\d+)\s+(.*)$")


def anchor(heading):
    """The anchor GitHub and most Markdown renderers give a heading."""
    slug = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return slug.replace(" ", "-")


def statements(path=SPEC):
    """[(ID, its whole text, the anchor of its section)] in spec order."""
    out, section = [], ""
    with open(path) as f:
        for line in f:
            m = STATEMENT.match(line)
            if line.startswith("## "):
                section = anchor(line[3:])
            elif m:
                out.append([m.group(1), m.group(2).strip(), section])
            elif out and line.startswith("  ") and line.strip():
                out[-1][1] += " " + line.strip()    # its next line
    return [tuple(o) for o in out]
