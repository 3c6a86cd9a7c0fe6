"""docs/tests.md's table has a row for every test: each test ID the
simulator lists, on any of its profiles, falls under one of the group
patterns of the table's first column. The table is the manual's, written
by hand (what a group checks is prose); this check keeps a new group from
being left out of it. The kernel-only suites (tests/kernel/) are not in
the simulator, so their rows are not checked here.

A pattern is a cell's `code`: up to its first '<', '[' or '*' it is a
prefix (`ovf.write.*`, `priv.<mode>...`), without one the whole test ID
(`prog.all`)."""
import glob
import os
import re
import subprocess

TABLE_HEADER = "| group | tests | checks |"
CODE = re.compile(r"`([^`]+)`")
WILD = re.compile(r"[<\[*]")
CELL_SEPARATOR = re.compile(r"(?<!\\)\|")	# a | not escaped as \|


def patterns(doc):
    """(text, is_prefix) of each pattern of the table's first column."""
    lines = doc.splitlines()
    if TABLE_HEADER not in lines:
        return []
    out = []
    for line in lines[lines.index(TABLE_HEADER) + 2:]:
        if not line.startswith("|"):
            break
        for code in CODE.findall(CELL_SEPARATOR.split(line)[1]):
            wild = WILD.search(code)
            out.append((code[:wild.start()], True) if wild else (code, False))
    return out


def uncovered(doc, test_ids):
    """The test IDs no pattern of doc's table covers, or why the table
    cannot be read."""
    found = patterns(doc)
    if not found:
        return [f"no table headed {TABLE_HEADER!r}"]
    return [t for t in test_ids
            if not any(t.startswith(p) if prefix else t == p
                       for p, prefix in found)]


def simulated_ids(root, sim):
    """Every test ID pmctest-sim lists on any profile of tests/profiles/,
    with tests=* (the explicit suites too), in first-seen order; or raises
    RuntimeError with the run that failed."""
    ids = []
    for profile in sorted(glob.glob(os.path.join(root, "tests", "profiles", "*.profile"))):
        r = subprocess.run([sim, "--profile", profile, "list", "tests=*"],
                           capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"{sim} --profile {profile} list: status "
                               f"{r.returncode}: {r.stderr.strip()}")
        for line in r.stdout.splitlines():
            test_id = line.split()[0] if line.strip() else "#"
            if not test_id.startswith("#") and test_id not in ids:
                ids.append(test_id)
    return ids
