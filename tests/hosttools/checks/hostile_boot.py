"""Hostile boot information: every case of hosttools/bootshim.py booted
through the loader shim, each ending as its row says (a Bail out! naming
the field and status 2, the selected test passing, or for firmware tables
the kernel refuses, cpus.tables failing naming the field) with no write
out of bounds and no loop; the canary check shown to catch a write; a fault while
a fault is reported ending the run at once; the fuzz target's seeds
(tests/fuzz/seeds/) being the cases' boot information.

usage: tests/check.py hostile_boot --elf ELF --shim SHIM [--qemu QEMU]
           [--jobs N] [--case NAME]
       tests/check.py hostile_boot --write-seeds DIR
"""
import concurrent.futures
import os

from .. import TESTS
from ..boot import bootshim
from ..boot import qemu as boot
from ..boot.booted import Boot
from ..report.tap_out import Tap
from . import argument_parser

SEEDS = os.path.join(TESTS, "fuzz", "seeds")


def seeds_current(tap):
    """The committed seed corpus is the case table, file for file."""
    want = {c.name: bootshim.seed(c) for c in bootshim.CASES if c.info}
    have = {}
    for name in sorted(os.listdir(SEEDS)):
        with open(os.path.join(SEEDS, name), "rb") as f:
            have[name] = f.read()
    stale = sorted(n for n in set(want) | set(have) if want.get(n) != have.get(n))
    tap.check(not stale, "tests/fuzz/seeds/ holds the boot information of every case",
              [f"differs: {n}" for n in stale] +
              ["rewrite it: tests/check.py hostile_boot --write-seeds tests/fuzz/seeds"])


def write_seeds(directory):
    os.makedirs(directory, exist_ok=True)
    for name in os.listdir(directory):
        os.unlink(os.path.join(directory, name))
    for case in bootshim.CASES:
        if case.info:
            with open(os.path.join(directory, case.name), "wb") as f:
                f.write(bootshim.seed(case))
    return 0


def detail(outcome, problems):
    return problems + [f"{outcome.seconds:.1f} s; its last lines:"] + \
        [f"| {line[:160]}" for line in outcome.lines[-6:]]


def fault_in_report(args, tap):
    """selftest.fault.in-report: its report faults; the run must end at
    once, one Bail out! naming the second fault, status 2."""
    b = Boot(boot.qemu_command(args.qemu, "tcg", "max", "pvh", elf=args.elf,
                               cmdline="tests=selftest.fault.in-report"), 30)
    status, _ = b.verdict()
    bail = [l for l in b.lines if l.startswith("Bail out!")]
    tap.check(status == 2 and len(bail) == 1 and
              "an exception while reporting an exception: #UD at RIP" in bail[0]
              and len(b.lines) < 40,
              "a fault while a fault is reported: one Bail out! naming it, status 2, at once",
              [f"status {status}, {len(b.lines)} lines, Bail out! lines: {bail[:3]}"] +
              b.lines[-4:])


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--elf")
    p.add_argument("--shim")
    p.add_argument("--qemu", default="qemu-system-x86_64")
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--case", help="run only this case")
    p.add_argument("--write-seeds", metavar="DIR")
    args = p.parse_args(argv)
    if args.write_seeds:
        return write_seeds(args.write_seeds)
    if not args.elf or not args.shim:
        p.error("--elf and --shim are needed")
    facts = bootshim.elf_facts(args.elf)
    cases = [c for c in bootshim.CASES if args.case in (None, c.name)]
    tap = Tap()
    print("TAP version 13")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        outcomes = pool.map(lambda c: bootshim.run_case(c, args.elf, args.shim,
                                                        args.qemu, facts), cases)
        for case, outcome in zip(cases, outcomes):
            problems = outcome.problems + bootshim.verdict_problems(case, outcome)
            what = (f"refused, naming {case.expect!r}" if case.expect
                    else f"the run goes on, on CPU 0, and cpus.tables fails naming {case.tables!r}"
                    if case.tables else "the selected test runs and passes")
            tap.check(not problems, f"{case.route} {case.name}: {what}",
                      detail(outcome, problems))
    if args.case:
        return tap.finish()

    # The canary check can fail: the sound framebuffer, its hole declared a
    # page long, must show the console's writes past it.
    sound = next(c for c in bootshim.CASES if c.name == "mb2.sound")
    short = sound._replace(fb=(sound.fb[0], 4096))
    outcome = bootshim.run_case(short, args.elf, args.shim, args.qemu, facts)
    tap.check(any("the canary window changed" in p for p in outcome.problems),
              "the canary check catches a write past a framebuffer declared too short",
              detail(outcome, outcome.problems))

    fault_in_report(args, tap)
    seeds_current(tap)
    return tap.finish()
