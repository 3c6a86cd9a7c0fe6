"""Each Xen target against bare QEMU TCG on the same CPU (its `bare` in
hosttools/targets/table.py), by tests/run --diff on the logs tests/run --all
wrote: the differences are printed, and every test whose verdict or
diagnostics differ must be explained in the Xen section of
docs/findings.md that names the target in a heading (its ID named there:
"## Xen 4.17: xen-pvh-dom0, ..." and its "###" sections, "## Xen 4.20:
..."). A missing log (the Xen target was unavailable here) is a SKIP with
the reason.

usage: tests/check.py xen_diff --run-dir DIR [--findings FILE]
"""
import os
import re
import subprocess
import sys

from .. import ROOT, TESTS, targets
from ..report.tap_out import Tap
from . import argument_parser

# A test the diff names: "ID: A ok, B not ok" or "ID: ... on both, ...".
DIFFERENT_TEST = re.compile(r"^(?!header )([a-z0-9][a-z0-9._-]*): ")


def xen_sections(findings):
    """The findings' Xen sections: (the headings of each, its text), each
    from a "## Xen" heading to the next heading of that level."""
    with open(findings) as f:
        text = f.read()
    return [(re.findall(r"^##+ .*$", m.group(0), re.M), m.group(0))
            for m in re.finditer(r"^## Xen.*?(?=^## |\Z)", text, re.M | re.S)]


def section_of(sections, name):
    """The text of the Xen section one of whose headings names the target
    (the whole name), or ""."""
    word = re.compile(rf"(?<![\w.-]){re.escape(name)}(?![\w.-])")
    return next((text for headings, text in sections
                 if any(word.search(h) for h in headings)), "")


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--run-dir", required=True,
                   help="where tests/run --all --log-dir wrote TARGET.log")
    p.add_argument("--findings", default=os.path.join(ROOT, "docs", "findings.md"))
    args = p.parse_args(argv)
    print("TAP version 13")
    tap = Tap()
    sections = xen_sections(args.findings)
    for t in targets.TARGETS:
        if not targets.bare_target(t):
            continue
        name, bare = t.name, targets.bare_target(t).name
        logs = [os.path.join(args.run_dir, n + ".log") for n in (bare, name)]
        what = f"{name} against {bare}"
        missing = [path for path in logs if not os.path.exists(path)]
        if missing:
            tap.skip(what, f"no log {os.path.basename(missing[0])}: the target "
                     "was not available here (tests/run --list-targets says why)")
            continue
        r = subprocess.run([sys.executable, os.path.join(TESTS, "run"),
                            "--diff"] + logs, capture_output=True, text=True)
        print(f"# tests/run --diff {bare}.log {name}.log:")
        for line in r.stdout.splitlines():
            print(f"#   {line}")
        if not tap.check(r.returncode in (0, 1), f"{what}: tests/run --diff "
                         "reads both logs", [f"exit {r.returncode}", r.stderr]):
            continue
        ids = sorted({m.group(1) for m in map(DIFFERENT_TEST.match,
                                              r.stdout.splitlines()) if m})
        section = section_of(sections, name)
        unexplained = [i for i in ids if i not in section]
        tap.check(section and not unexplained,
                  f"{what}: docs/findings.md's Xen section of {name} explains "
                  f"each of the {len(ids)} tests that differ",
                  [f"not in the Xen section of {name}: {i}" for i in unexplained] or
                  [f"docs/findings.md has no '## Xen' section naming {name} "
                   "in a heading"])
    return tap.finish()
