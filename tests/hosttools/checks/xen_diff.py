"""Each Xen target against bare QEMU TCG on the same CPU (its `bare` in
hosttools/targets/table.py), by tests/run --diff on the logs tests/run --all
wrote: the differences are printed, and every test whose verdict or
diagnostics differ must be explained in the Xen section of
docs/findings.md (its ID named there). A missing log (the Xen target was
unavailable here) is a SKIP with the reason.

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


def xen_section(findings):
    """The text of the findings' Xen section (from its "## Xen" heading to
    the next heading of that level)."""
    with open(findings) as f:
        text = f.read()
    m = re.search(r"^## Xen.*?(?=^## |\Z)", text, re.M | re.S)
    return m.group(0) if m else ""


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--run-dir", required=True,
                   help="where tests/run --all --log-dir wrote TARGET.log")
    p.add_argument("--findings", default=os.path.join(ROOT, "docs", "findings.md"))
    args = p.parse_args(argv)
    print("TAP version 13")
    tap = Tap()
    section = xen_section(args.findings)
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
        unexplained = [i for i in ids if i not in section]
        tap.check(section and not unexplained,
                  f"{what}: docs/findings.md's Xen section explains each of "
                  f"the {len(ids)} tests that differ",
                  [f"not in the Xen section: {i}" for i in unexplained] or
                  ["docs/findings.md has no '## Xen' section"])
    return tap.finish()
