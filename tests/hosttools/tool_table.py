"""scripts/tools.txt read by the host tools: what each set of tools holds,
which commands need it, and which Debian package brings a program, for the
one-line error a missing program gives (missing_program)."""
import collections
import os
import shutil
import sys

from . import SCRIPTS

TABLE = os.path.join(SCRIPTS, "tools.txt")

Row = collections.namedtuple("Row", "sets tool packages check")


def read(path=TABLE):
    """(rows, needed_by, needs): the rows in order; set -> the commands
    that need it; set -> the other sets it brings (@needs)."""
    rows, needed_by, needs = [], {}, {}
    with open(path) as f:
        for line in f:
            if line.startswith("@set "):
                name, what = line[5:].strip().split(None, 1)
                needed_by[name] = what.split(":", 1)[0]
            elif line.startswith("@needs "):
                name, *more = line.split()[1:]
                needs[name] = more
            elif line.strip() and not line.startswith(("#", "@")):
                sets, tool, packages, check = line.split(None, 3)
                rows.append(Row(sets.split(","), tool, packages.split(","), check.strip()))
    return rows, needed_by, needs


def packages(set_, path=TABLE):
    """Every package of set_ and the sets it brings."""
    rows, _, needs = read(path)
    sets = {set_, *needs.get(set_, [])}
    return {p for r in rows if sets & set(r.sets) for p in r.packages}


def missing_program(error):
    """The one line for a FileNotFoundError raised starting a program
    (error.filename is the program as it was named), or None when the
    error is not that."""
    name = error.filename
    if not isinstance(name, str) or "/" in name or shutil.which(name):
        return None
    rows, needed_by, _ = read()
    row = next((r for r in rows if r.tool == name), None)
    if row is None:
        return f"the program {name!r} is not installed"
    return (f"the program {name!r} is not installed: Debian package "
            f"{' + '.join(row.packages)}, which {needed_by[row.sets[0]]} installs "
            f"(scripts/tools.txt)")


def guard(main, argv):
    """main(argv)'s status; a program it starts that is missing ends it with
    one line and status 2, never a traceback."""
    try:
        return main(argv)
    except FileNotFoundError as e:
        line = missing_program(e)
        if line is None:
            raise
        print(f"pmctest: {line}", file=sys.stderr)
        return 2
