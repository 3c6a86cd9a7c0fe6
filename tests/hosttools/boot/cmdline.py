"""The kernel command line: a run's, put together (kernel_cmdline), and
why the kernel would refuse one, in its own words, asked before anything
boots: of the kernel's own parser (kernel/cmdline.c),
built for the host with the checks of the line itself as
build/host/cmdline-check (tests/host/cmdline_check.c). There is no second
grammar here. make builds the program before the ISO (make run too); a
host tool run before any make finds none, refuses nothing, and the kernel
refuses a bad line at boot, in the same words."""
import os
import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[3]
PARSER = ROOT / "build" / "host" / "cmdline-check"


def c_number(header, name):
    """The number header (a path of the tree) #defines as name."""
    text = (ROOT / header).read_text()
    return int(re.search(rf"^#define\s+{name}\s+(\d+)\b", text, re.M).group(1))


CMDLINE_MAX = c_number("kernel/cmdline_limits.h", "CMDLINE_MAX")
PATTERNS_MAX = c_number("kernel/cmdline_limits.h", "CMDLINE_PATTERNS_MAX")


def cmdline_problems(cmdlines, program):
    """Why the kernel would refuse each of cmdlines (strs), or None each,
    as the parser program says."""
    data = b"".join(b"%d\n" % len(d) + d for d in
                    (line.encode("utf-8", "surrogateescape") for line in cmdlines))
    p = subprocess.run([str(program)], input=data, capture_output=True, timeout=60)
    answers = p.stdout.decode("utf-8", "replace").splitlines()
    if p.returncode != 0 or len(answers) != len(cmdlines):
        raise RuntimeError(f"{program}: exit {p.returncode}, {len(answers)} answers "
                           f"for {len(cmdlines)} command lines")
    return [None if a == "ok" else a.removeprefix("refused: ") for a in answers]


def parser():
    """The program make built: in make's BUILD (PMCTEST_CMDLINE_CHECK), else
    in build/; None where neither is built yet."""
    for path in (os.environ.get("PMCTEST_CMDLINE_CHECK"), PARSER):
        if path and os.access(path, os.X_OK):
            return path
    return None


def cmdline_problem(cmdline):
    """Why the kernel would refuse cmdline (a str), in its words, or None
    (also where the parser is not built yet: the kernel says at boot); a
    tab, which the kernel would take as a space, is refused too: the
    loaders do not all pass one on."""
    program = parser()
    return cmdline_problems([cmdline], program)[0] if program else None


def kernel_cmdline(tests="", excluded=(), target_args="", user_args=""):
    """The kernel command line of a run: tests=, exclude=, the target's own
    words and the user's (--kernel-args), in that order."""
    parts = []
    if tests:
        parts.append("tests=" + tests)
    if excluded:
        parts.append("exclude=" + ",".join(excluded))
    parts += [words for words in (target_args, user_args) if words]
    return " ".join(parts)
