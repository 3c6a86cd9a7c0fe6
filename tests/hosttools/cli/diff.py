"""--diff A B: where two targets differ, test by test.

A and B are each a TAP log (what tests/run --log or --log-dir wrote, make
run's output, or Xen's console, whose "(d0) " lines are the kernel's) or
the name of a target, booted here. Printed: the header lines that differ
(CPU, hypervisor, CPUID, PMU), then in A's order each test whose verdict
differs (ok, not ok, SKIP) with the first diagnostic of each side, each
test of the same verdict whose diagnostics differ with the lines only one
side has, and the tests only one side ran; a count at the end. Exit
status: 0 the two agree, 1 they differ, 2 a side could not be read or
run.
"""
import os
import re

from .. import targets
from ..boot import xen_console
from ..boot.workdir import scratch
from ..judge.judge import kernel_line
from ..judge.patterns import CONTROL
from ..judge.tap import read
from ..report.printer import say
from .target_run import EXIT_ERROR, TargetRun

EXIT_SAME, EXIT_DIFFERENT = 0, 1

# The header comments that say what the target is (a nested target's L1
# adds its own two, targets/nested.py; Xen its VPMU lines, targets/xen.py).
HEADER = re.compile(r"^# (boot|vendor|screen|hypervisor|cpu|cpuid|pmu|l1 kvm|l1 params|l1 perf|xen): (.*)$")


# The verdicts the diff names, by what the kernel said of a test.
VERDICT_WORDS = {"pass": "ok", "fail": "not ok", "skip": "SKIP"}


class Side:
    """One run, as the diff sees it: its name, its header lines by key, and
    per test ID (in the order of the run) its verdict and diagnostics, as
    the verdict's reader reads them (the runner's TODO marks taken off)."""

    def __init__(self, name, lines):
        self.name = name
        self.header = {}
        lines = [kernel_line(CONTROL.sub("", line)) for line in lines]
        for line in lines:
            h = HEADER.match(line)
            if h:
                self.header.setdefault(h.group(1), []).append(h.group(2))
        tap = read(lines)
        self.problem = tap.problem
        self.results = {r.id: (VERDICT_WORDS[r.kind],
                               [d.strip() for d in r.diagnostics])
                        for r in tap.results}


def side_of_log(path):
    with open(path, errors="replace") as f:
        lines = f.read().splitlines()
    if xen_console.is_xen_console(lines):
        lines = xen_console.guest_lines(lines)
    return Side(os.path.basename(path), lines)


def side_of_target(name, options, s):
    """The target booted here, or None after saying why it could not be."""
    kind = targets.select(name, options.programs)
    run = TargetRun(kind, options).run(s, lambda line: None)
    if run.problems:
        for msg in run.problems:
            say(f"--diff: {name}: {msg}")
        return None
    return Side(name, run.judge.lines)


def differences(a, b):
    """The report's lines, and whether the two differ."""
    out = []
    for key in sorted(set(a.header) | set(b.header)):
        if a.header.get(key) != b.header.get(key):
            out.append(f"header {key}:")
            out += [f"  {a.name}: {v}" for v in a.header.get(key, ["(none)"])]
            out += [f"  {b.name}: {v}" for v in b.header.get(key, ["(none)"])]
    verdicts = diagnostics = both = 0
    for test_id, (va, da) in a.results.items():
        if test_id not in b.results:
            continue
        both += 1
        vb, db = b.results[test_id]
        if va != vb:
            verdicts += 1
            out.append(f"{test_id}: {a.name} {va}, {b.name} {vb}")
            out += [f"  {side.name}: {d[0]}" for side, d in ((a, da), (b, db))
                    if d]
        elif da != db:
            diagnostics += 1
            out.append(f"{test_id}: {va} on both, the diagnostics differ")
            only = [(a.name, [d for d in da if d not in db]),
                    (b.name, [d for d in db if d not in da])]
            out += [f"  only {name}: {d}" for name, lines in only for d in lines]
            if not any(lines for _, lines in only):
                out.append("  the same lines in another order")
    only_a = [t for t in a.results if t not in b.results]
    only_b = [t for t in b.results if t not in a.results]
    out += [f"{t}: only {a.name} ran it" for t in only_a]
    out += [f"{t}: only {b.name} ran it" for t in only_b]
    headers = sum(line.startswith("header ") for line in out)
    out.append(f"# {a.name} and {b.name}: {both} tests in both, {verdicts} "
               f"with another verdict, {diagnostics} more with other "
               f"diagnostics; {len(only_a)} only in {a.name}, {len(only_b)} "
               f"only in {b.name}; {headers} header lines differ")
    return out, bool(verdicts or diagnostics or only_a or only_b or headers)


def side(name, options, s):
    """One side of the diff: a log file, or a target booted here; None
    after saying why it cannot be."""
    if os.path.isfile(name):
        side = side_of_log(name)
    elif targets.by_name(name):
        side = side_of_target(name, options, s)
    else:
        say(f"--diff: {name} is neither a log file nor a target "
            "(tests/run --list-targets)")
        return None
    if side is None:
        return None
    if not side.results:
        say(f"--diff: {name}: no TAP result in it")
        return None
    if side.problem:
        say(f"--diff: {name}: the TAP breaks its form at "
            f"{side.problem}: the diff holds the results read")
    return side


def diff(names, options):
    with scratch(options.programs.elf, options.keep) as s:
        sides = []
        for name in names:
            sides.append(side(name, options, s))
            if sides[-1] is None:
                return EXIT_ERROR
    lines, different = differences(*sides)
    for line in lines:
        print(line, flush=True)
    return EXIT_DIFFERENT if different else EXIT_SAME
