"""Boot pmctest on a target and hold its results against tests/expect/TARGET.

  tests/run --list-targets
  tests/run --target NAME [--tests GLOB[,GLOB]] [--junit FILE] [--log FILE]
  tests/run --all [--jobs N] [--junit FILE] [--log-dir DIR] [--lava DIR]...
  tests/run --target NAME --suggest-expectations > tests/expect/NAME
  tests/run --diff A B     (A, B: a TAP log, or a target booted here)

Nested targets (kvm-*) boot Linux in QEMU TCG and pmctest on its KVM, Xen
targets (xen-*) Xen in QEMU TCG and pmctest as its dom0; make images
fetches and builds them into build/kvm-NAME/ and build/xen-VERSION/ first.

The serial TAP streams live (to stdout and --log), with each failure that the
target's expectation file lists turned into "# TODO reason". Exit status:
0 every result matches the expectations (or differs on another host than the
one the file names, "# host:": reported, no regression); 1 a result does not (an unlisted
failure, or a listed test that did not fail: a stale expectation); 2 the run
could not be carried out (emulator missing or failing to start, the guest
hanging, resetting or stopping before its summary line, a Bail out!).
--diff: 0 the two agree, 1 they differ, 2 a side could not be read or run.

Targets are data in hosttools/targets/table.py. The GRUB route bakes the kernel
command line into the ISO, so every ISO boot gets an ISO of its own, made by
scripts/mkiso from the ELF and the command line of that run.
"""
import os
from argparse import RawDescriptionHelpFormatter

from .. import ROOT, TESTS
from ..boot.cmdline import cmdline_problem, kernel_cmdline
from ..boot.image_checks import elf_problem
from ..images.xen import DEFAULT_VERSION, VERSIONS as XEN_VERSIONS, own_image
from ..report.outfile import ToolError
from ..report.printer import say
from ..targets import VMMS
from .all_targets import all_targets
from .args import Parser, count, seconds
from .diff import diff
from .list_targets import list_targets
from .one_target import one_target
from .options import options_of
from .target_run import EXIT_ERROR


def add_selection(p):
    """What to boot and which tests: the mode, tests=, more kernel options."""
    mode = p.add_mutually_exclusive_group(required=True)
    mode.add_argument("--target", metavar="NAME", help="boot this target")
    mode.add_argument("--all", action="store_true",
                      help="every available target, in parallel")
    mode.add_argument("--list-targets", action="store_true",
                      help="list the targets and whether they run here")
    mode.add_argument("--diff", nargs=2, metavar=("A", "B"),
                      help="where two targets differ, test by test: each a "
                           "TAP log (--log, --log-dir, make run, or Xen's "
                           "console) or a target, booted here")
    p.add_argument("--tests", metavar="GLOB[,GLOB]",
                   help="select tests (kernel option tests=)")
    p.add_argument("--kernel-args", default="", metavar="ARGS",
                   help="more kernel options, e.g. verbose")


def add_outputs(p):
    """Where the results go, and how a run is carried out and judged."""
    p.add_argument("--junit", metavar="FILE", help="write JUnit XML here")
    p.add_argument("--report", metavar="DIR",
                   help="write the conformance report (index.html) here")
    p.add_argument("--timeout", type=seconds, metavar="S",
                   help="seconds before the guest counts as hung "
                        "(default: the target's)")
    p.add_argument("--log", metavar="FILE", help="--target: the TAP log")
    p.add_argument("--log-dir", metavar="DIR", help="--all: TARGET.log here")
    p.add_argument("--lava", action="append", default=[], metavar="DIR",
                   help="--all: also judge this finished LAVA job (a "
                        "directory as tests/lava-judge --save writes it) "
                        "and list it with the targets, in --junit and "
                        "--report; repeatable")
    p.add_argument("--only", metavar="GLOB[,GLOB]",
                   help="--all: only the targets whose names match")
    p.add_argument("--jobs", type=count(1), default=min(2, os.cpu_count() or 1),
                   help="--all: targets booted at once (default 2)")
    p.add_argument("-v", "--verbose", action="store_true",
                   help="--all: stream every target's TAP, prefixed")
    p.add_argument("--suggest-expectations", dest="suggest",
                   action="store_true",
                   help="--target: ignore tests/expect and print an "
                        "expectation file for what the target did")
    p.add_argument("--max-stops", type=count(0), default=40, metavar="N",
                   help="--suggest-expectations: tests that stop the "
                        "target to leave out before giving up (default 40)")
    p.add_argument("--subset", action="store_true",
                   help="run a slow target's subset (make test's): every "
                        "group, fewer cases (hosttools/targets/table.py)")
    p.add_argument("--include-excluded", action="store_true",
                   help="run the tests that '!' expectations leave out")
    p.add_argument("--expect-dir", default=os.path.join(TESTS, "expect"),
                   metavar="DIR", help="where the expectation files are")


def add_programs(p):
    """The kernel, the images and the emulators."""
    p.add_argument("--elf", default=os.path.join(ROOT, "build", "pmctest.elf"))
    p.add_argument("--build", default=os.path.join(ROOT, "build"),
                   help="where make put the nested targets' images "
                        "(kvm-NAME/)")
    p.add_argument("--qemu", default="qemu-system-x86_64")
    p.add_argument("--qemu-pmu", default=os.path.join(ROOT, "build", "qemu-pmu",
                                                      "qemu-system-x86_64"),
                   metavar="PATH",
                   help="the QEMU with the TCG PMU of the *-pmu-* targets "
                        "(default: make's build of tests/qemu-pmu/)")
    p.add_argument("--bochs", default="bochs")
    p.add_argument("--bochs-pmu", default=os.path.join(ROOT, "build", "bochs-pmu",
                                                       "bochs"),
                   metavar="PATH",
                   help="the counting Bochs 3.0 of the bochs-pmu-* targets "
                        "(default: make's build of tests/bochs-pmu/)")
    for name in VMMS:
        p.add_argument(f"--{name}", default=name, metavar="PATH",
                       help=f"the {name} binary (its target needs /dev/kvm)")
    p.add_argument("--xen", action="append", default=[],
                   metavar="[VERSION=]PATH",
                   help="your own Xen (an ELF) in place of Debian's in the "
                        "targets of Xen VERSION (default "
                        f"{DEFAULT_VERSION}; repeatable: {', '.join(XEN_VERSIONS)}); "
                        "Debian's are BUILD/xen-VERSION/xen, which make "
                        "images fetches")
    p.add_argument("--keep", dest="keep_bochs", action="store_true",
                   help="keep the per-run ISOs and Bochs files")


def parse_args(argv):
    p = Parser(
        prog="tests/run", description=__doc__.splitlines()[0],
        formatter_class=RawDescriptionHelpFormatter,
        epilog="\n".join(__doc__.splitlines()[1:]))
    add_selection(p)
    add_outputs(p)
    add_programs(p)
    opts = p.parse_args(argv)
    if opts.lava and not opts.all:
        p.error("--lava needs --all")
    if opts.suggest and not opts.target:
        p.error("--suggest-expectations needs --target")
    opts.tests = opts.tests or ""
    opts.elf = os.path.abspath(opts.elf)
    try:
        opts.xen = dict(own_image(text) for text in opts.xen)
    except ValueError as e:
        p.error(str(e))
    # Bochs runs in a folder of its own: a path to it is made absolute
    for name in ("bochs", "bochs_pmu"):
        if os.sep in getattr(opts, name):
            setattr(opts, name, os.path.abspath(getattr(opts, name)))
    problem = cmdline_problem(kernel_cmdline(opts.tests, (), "", opts.kernel_args))
    if not problem and not opts.list_targets and os.path.exists(opts.elf):
        problem = elf_problem(opts.elf)
    if problem:      # one line and status 2
        p.error(problem)
    return opts


def main(argv):
    args = parse_args(argv)
    options = options_of(args)
    try:
        if args.list_targets:
            return list_targets(options)
        if args.all:
            return all_targets(args, options)
        if args.diff:
            return diff(args.diff, options)
        return one_target(args.target, options)
    except ToolError as e:
        say(str(e))
        return EXIT_ERROR
