"""Tools by need, from the one table scripts/tools.txt: on a machine taken
to have none of them (make -n with TOOLS_DRY=1, in an empty build
directory), each command asks for exactly the sets the table gives it;
docs/tools.md is the table as it stands; every check of make test's set
passes here, and each can fail: with its tool hidden (off PATH, or its
module shadowed by one that will not import) the check fails; a missing
program ends a host tool with one line and status 2, never a traceback.

usage: tests/check.py tools
"""
import contextlib
import os
import subprocess
import sys
import tempfile

from .. import ROOT, TESTS
from .. import tool_table
from ..report.tap_out import Tap
from . import argument_parser

DOC = os.path.join(ROOT, "docs", "tools.md")
MARK_BEGIN = "<!-- scripts/tools markdown: begin -->"
MARK_END = "<!-- scripts/tools markdown: end -->"
# the sets of the commands make test does not run (root, a new Debian root)
OUTSIDE_TEST = {"cleanroom", "lavalab"}


def asked_for(target, *variables):
    """The packages `make -n TARGET` would install on a bare machine, and
    make's output."""
    # a make of its own, not a part of the make that runs this check
    env = {k: v for k, v in os.environ.items()
           if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}
    with tempfile.TemporaryDirectory() as build:
        r = subprocess.run(["make", "--no-print-directory", "-n", target,
                            f"BUILD={build}", "TOOLS_DRY=1", *variables],
                           cwd=ROOT, env=env, capture_output=True, text=True,
                           timeout=120)
    packages = set()
    for line in r.stdout.splitlines():
        if line.startswith("pmctest: tools "):
            packages |= set(line.split(":", 2)[2].split())
    return packages, [f"make -n {target} {' '.join(variables)}: exit {r.returncode}"] + \
        r.stderr.strip().splitlines()[-3:]


def check_sets(tap):
    """Each command asks for its sets and no other."""
    run, uefi = tool_table.packages("run"), tool_table.packages("uefi")
    test, cleanroom = tool_table.packages("test"), tool_table.packages("cleanroom")
    qemupmu, lavalab = tool_table.packages("qemupmu"), tool_table.packages("lavalab")
    cases = ((("run",), run, "make run asks for the run set alone"),
             (("run", "FIRMWARE=uefi"), run | uefi, "make run FIRMWARE=uefi adds the uefi set"),
             (("all",), run, "make asks for the run set alone"),
             (("test",), run | test, "make test asks for every set but cleanroom and lavalab"),
             (("qemu-pmu",), run | qemupmu, "make qemu-pmu adds the qemupmu set"),
             (("clean-room",), cleanroom, "make clean-room asks for the cleanroom set alone"),
             (("lava",), run | tool_table.packages("lava"),
              "make lava adds the lava set (LAVA's bookworm root) to the run set"),
             (("lava-lab",), run | lavalab, "make lava-lab adds the lavalab set to the run set"))
    for args, want, name in cases:
        got, why = asked_for(*args)
        tap.check(got == want, name,
                  why + [f"missing: {sorted(want - got)}", f"more: {sorted(got - want)}"])


def check_doc(tap):
    """docs/tools.md holds the table as scripts/tools markdown prints it."""
    table = subprocess.run([os.path.join(ROOT, "scripts", "tools"), "markdown"],
                           capture_output=True, text=True, timeout=60).stdout
    try:
        with open(DOC) as f:
            text = f.read()
        shown = text.split(MARK_BEGIN, 1)[1].split(MARK_END, 1)[0].strip("\n")
    except (OSError, IndexError) as e:
        shown = f"(unreadable: {e})"
    tap.check(table.strip() and shown == table.strip("\n"),
              "docs/tools.md shows scripts/tools.txt as it stands",
              ["run: scripts/tools markdown, and put it between the marks"])


def link_farm(into):
    """into: links to every program on PATH, the first of each name."""
    for folder in os.environ["PATH"].split(os.pathsep):
        if os.path.isdir(folder):
            for name in os.listdir(folder):
                link = os.path.join(into, name)
                if not os.path.lexists(link):
                    os.symlink(os.path.join(folder, name), link)
    return into


@contextlib.contextmanager
def hidden(farm, tool):
    """An environment whose PATH is farm without tool."""
    link = os.path.join(farm, tool)
    target = os.readlink(link)
    os.remove(link)
    try:
        yield dict(os.environ, PATH=farm)
    finally:
        os.symlink(target, link)


def probe(check, env):
    return subprocess.run(["bash", "-c", check], cwd=ROOT, env=env, stdin=subprocess.DEVNULL,
                          capture_output=True, timeout=120).returncode


def shadowed(tmp, language):
    """An environment in which tappy's optional import (Python) or
    TAP::Parser (Perl) fails to load."""
    if language == "python":
        with open(os.path.join(tmp, "more_itertools.py"), "w") as f:
            f.write("raise ImportError('hidden by the tools check')\n")
        return dict(os.environ, PYTHONPATH=tmp)
    os.makedirs(os.path.join(tmp, "TAP"), exist_ok=True)
    with open(os.path.join(tmp, "TAP", "Parser.pm"), "w") as f:
        f.write("die 'hidden by the tools check';\n")
    return dict(os.environ, PERL5LIB=tmp)


def check_probes(tap):
    """Every check of make test's sets passes; each fails without its tool."""
    rows = [r for r in tool_table.read()[0] if not set(r.sets) <= OUTSIDE_TEST]
    failing = [r.tool for r in rows if probe(r.check, os.environ) != 0]
    tap.check(not failing, "every check of make test's tools passes here",
              [f"failing: {failing}"])
    passed_hidden = []
    with tempfile.TemporaryDirectory() as farm, tempfile.TemporaryDirectory() as tmp:
        link_farm(farm)
        for row in rows:
            if row.tool in ("tappy", "perl"):
                env = shadowed(tmp, "python" if row.tool == "tappy" else "perl")
            elif row.tool == "libfuzzer":
                env = dict(os.environ, CLANG=f"clang -resource-dir {tmp}")
            elif not os.path.lexists(os.path.join(farm, row.tool)):
                continue        # data files (a font, ROMs, headers): their path is what is asked
            else:
                with hidden(farm, row.tool) as env:
                    passed_hidden += [row.tool] * (probe(row.check, env) == 0)
                continue
            passed_hidden += [row.tool] * (probe(row.check, env) == 0)
    tap.check(not passed_hidden, "each program's check fails with the program hidden",
              [f"passed all the same: {passed_hidden}"])


def check_missing_program(tap):
    """A host check whose program is missing: one line naming the package,
    status 2."""
    log = os.path.join(TESTS, "hosttools", "checks", "tools.py")   # any file
    with tempfile.TemporaryDirectory() as farm, hidden(link_farm(farm), "perl") as env:
        r = subprocess.run([sys.executable, os.path.join(TESTS, "check.py"), "tap_parsers", log],
                           env=env, capture_output=True, text=True, timeout=120)
    lines = r.stderr.strip().splitlines()
    tap.check(r.returncode == 2 and len(lines) == 1 and "Debian package perl" in lines[0]
              and "Traceback" not in r.stderr,
              "a missing program is one line naming its package, status 2",
              [f"exit {r.returncode}"] + lines[-5:])


def check_no_apt(tap):
    """Without apt-get, a set whose check fails stops make with status 2,
    naming the tool, its package and the command that needs it."""
    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "tools.txt")
        with open(table, "w") as f:
            f.write("@set probe  make probe: the check's own set\n"
                    "probe  no-such-tool  no-such-package  no-such-tool --version\n")
        farm = os.path.join(tmp, "farm")
        os.mkdir(farm)
        with hidden(link_farm(farm), "apt-get") as env:
            env["PMCTEST_TOOLS_TABLE"] = table
            r = subprocess.run([os.path.join(ROOT, "scripts", "tools"), "ensure", "probe"],
                               env=env, capture_output=True, text=True, timeout=60)
    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "tools.txt")
        with open(table, "w") as f:
            f.write("@set probe  make probe: the check's own set\nprobe  gcc  gcc\n")
        no_check = subprocess.run([os.path.join(ROOT, "scripts", "tools"), "ensure", "probe"],
                                  env=dict(os.environ, PMCTEST_TOOLS_TABLE=table),
                                  capture_output=True, text=True, timeout=60)
    tap.check(no_check.returncode == 2 and "the row of 'gcc' has no check" in no_check.stderr,
              "a table row without a check is refused, status 2, not passed",
              [f"exit {no_check.returncode}"] + no_check.stderr.splitlines()[-2:])
    tap.check(r.returncode == 2 and "no-such-tool: 'no-such-tool --version' fails; "
              "Debian package no-such-package (needed by make probe)" in r.stderr,
              "without apt-get a missing tool stops with status 2, naming its package",
              [f"exit {r.returncode}"] + r.stderr.splitlines()[-4:])


# apt-get as the check's stand-in: update passes; install is all or
# nothing, as apt-get's is: a package named unknown-* fails the whole call,
# else each package gets a mark in $MARKS; every call is logged there.
STAND_IN_APT = r"""#!/bin/sh
echo "$*" >> "$MARKS/calls"
case " $* " in *" update "*) exit 0 ;; esac
for p in "$@"; do
    case $p in unknown-*) echo "E: Unable to locate package $p" >&2; exit 100 ;; esac
done
for p in "$@"; do
    case $p in -*|*=*|install) ;; *) touch "$MARKS/$p" ;; esac
done
"""
RELEASE_TABLE = """@release probe-release  the check's own
@lacks probe-release lacked-package: take it from elsewhere
@set probe  make probe: the check's own set
probe  present  present-package  test -e "$MARKS/present-package"
probe  lacked   lacked-package   test -e "$MARKS/lacked-package"
probe  unknown  unknown-package  test -e "$MARKS/unknown-package"
"""


def check_release(tap):
    """On a release that lacks a package (@lacks), and with a package
    apt-get cannot find, the others are installed; each missing one is one
    line naming its package, the release and what to do; status 2."""
    with tempfile.TemporaryDirectory() as tmp:
        marks, farm = os.path.join(tmp, "marks"), os.path.join(tmp, "farm")
        os.mkdir(marks)
        os.mkdir(farm)
        table, release = os.path.join(tmp, "tools.txt"), os.path.join(tmp, "os-release")
        with open(table, "w") as f:
            f.write(RELEASE_TABLE)
        with open(release, "w") as f:
            f.write("ID=debian\nVERSION_CODENAME=probe-release\n")
        with hidden(link_farm(farm), "apt-get") as env:
            for name, text in (("apt-get", STAND_IN_APT), ("sudo", '#!/bin/sh\nexec "$@"\n')):
                path = os.path.join(farm, name)
                with contextlib.suppress(FileNotFoundError):
                    os.remove(path)
                with open(path, "w") as f:
                    f.write(text)
                os.chmod(path, 0o755)
            env.update(PMCTEST_TOOLS_TABLE=table, PMCTEST_OS_RELEASE=release, MARKS=marks)
            r = subprocess.run([os.path.join(ROOT, "scripts", "tools"), "ensure", "probe"],
                               env=env, capture_output=True, text=True, timeout=60)
            os.remove(os.path.join(farm, "apt-get"))
        installed = sorted(set(os.listdir(marks)) - {"calls"})
        with open(os.path.join(marks, "calls")) as f:
            calls = f.read()
    lines = [l for l in r.stderr.splitlines() if l.startswith("pmctest:   ")]
    lacked = ("pmctest:   lacked: Debian package lacked-package is not in probe-release "
              "(scripts/tools.txt): take it from elsewhere (needed by make probe)")
    unknown = [l for l in lines if l.startswith("pmctest:   unknown: ") and
               "unknown-package" in l and "probe-release" in l and "install it" in l]
    tap.check(r.returncode == 2 and installed == ["present-package"] and
              "lacked-package" not in calls and len(lines) == 2 and lacked in lines
              and unknown,
              "a package the release lacks, or one apt-get cannot find, leaves the "
              "others installed; each is one line (package, release, what to do), "
              "status 2", [f"exit {r.returncode}", f"installed: {installed}",
                           f"apt-get calls: {calls.splitlines()}"] + r.stderr.splitlines()[-6:])


def main(argv):
    argument_parser(__name__, __doc__).parse_args(argv)
    tap = Tap()
    print("TAP version 13")
    check_sets(tap)
    check_doc(tap)
    check_probes(tap)
    check_missing_program(tap)
    check_no_apt(tap)
    check_release(tap)
    return tap.finish()
