"""The host asks the kernel's own parser (kernel/cmdline.c, built for the
host as cmdline-check) through hosttools/kernel_cmdline.py: every command
line of a list and of seeded mutations of them gets one answer, asked
alone or in a batch, whatever bytes it holds; the limits of
kernel/cmdline_limits.h hold to the byte and the pattern; and a tab,
which the kernel reads as a space, is refused before booting.

  tests/check.py kernel_cmdline --parser BUILD/host/cmdline-check [--seed N]
"""
import random

from ..boot.cmdline import CMDLINE_MAX, PATTERNS_MAX, cmdline_problem, cmdline_problems
from ..report.tap_out import Tap
from . import argument_parser

LINES = ["", "list", "verbose timing", "tests=selftest.pass", "tests=a.*,b?c",
         "exclude=priv.*", "tests=a exclude=b", "tests=a tests=b", "tests=",
         "exclude=", "tests=a,,b", "tests=,a", "tests=a,", "tests=A", "bogus",
         "tests", "tests=a=b", "=", "  tests=a  ", "tests=enc.*'; touch x; echo '",
         "list\x7f", "tests=é", "list\0verbose", "list\nverbose", "a\tb",
         "console=com1", "console=e9,com1", "console=", "console=com2",
         "console=com1,", "console=e9 console=e9", "console=com1,,e9",
         "tests=priv.*@cpu2", "exclude=*@cpu*", "tests=@", "cpus=all", "cpus=0",
         "cpus=0,2-3", "cpus=15", "cpus=16", "cpus=3-1", "cpus=", "cpus=1,",
         "cpus=,1", "cpus=1--2", "cpus=1-2-3", "cpus=a", "cpus=01", "cpus=all,1",
         "cpus=1 cpus=2", "cpus=99999999999999999999", "cpus=1-", "cpus=-1",
         "cpus=٣", "exit=debug", "exit=reset exit=triple", "exit=poweroff",
         "apic=xapic", "apic=x2apic", "apic=", "apic=x2APIC", "apic=x2apic,xapic",
         "apic=xapic apic=x2apic", "apic=x2apic tests=smp.* cpus=0-1", "apic"]
PIECES = [" ", ",", "=", "*", "?", ".", "_", "-", "'", ";", "$", "#", "\\",
          "A", "z", "0", "\n", "\x01", "\x7f", "é", "tests=", "exclude=", "console=",
          "com1", "e9", "cpus=", "@cpu", "all", "1-3", "15", "16",
          "list", "verbose", "timing", "exit=", "debug", "apic=", "xapic",
          "x2apic", "a" * 600]


def mutate(rng, line):
    for _ in range(rng.randrange(1, 4)):
        k = rng.randrange(len(line) + 1)
        op = rng.randrange(3)
        if op == 0:
            line = line[:k] + rng.choice(PIECES) + line[k:]
        elif op == 1:
            line = line[:k] + line[k + 1:]
        else:
            line = line[:k] + " " + rng.choice(LINES) + line[k:]
    return line


# (command line, whether the kernel takes it): the limits, to the unit.
LIMITS = [
    ("tests=" + "a" * (CMDLINE_MAX - 6), True),
    ("tests=" + "a" * (CMDLINE_MAX - 5), False),
    ("tests=" + ",".join(["a"] * PATTERNS_MAX), True),
    ("tests=" + ",".join(["a"] * (PATTERNS_MAX + 1)), False),
    ("list\tverbose", False),	# the kernel would read a space
]


def main(argv):
    p = argument_parser(__name__, __doc__)
    p.add_argument("--parser", required=True, help="BUILD/host/cmdline-check")
    p.add_argument("--mutants", type=int, default=20000)
    p.add_argument("--seed", type=int, default=random.randrange(1 << 32))
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    print("TAP version 13")
    print(f"# seed {args.seed}")
    tap = Tap()
    listed = cmdline_problems(LINES, args.parser)
    alone = [cmdline_problem(line) for line in LINES]
    tap.check(listed == alone, "each listed command line gets one answer, alone or in a batch",
              [f"{line[:80]!r}: batch {b}; alone {a}"
               for line, b, a in zip(LINES, listed, alone) if a != b][:5])
    mutants = [mutate(rng, rng.choice(LINES)) for _ in range(args.mutants)]
    answers = cmdline_problems(mutants, args.parser)
    tap.check(len(answers) == len(mutants) and all(a is None or a for a in answers),
              f"each of {args.mutants} mutants gets one answer: ok or a reason")
    wrong = [f"{line[:40]!r}...: {problem or 'taken'}"
             for (line, taken), problem in zip(LIMITS, cmdline_problems([c for c, _ in LIMITS],
                                                                        args.parser))
             if (problem is None) != taken]
    tap.check(not wrong, f"{CMDLINE_MAX} bytes and {PATTERNS_MAX} patterns are taken, "
              "one more is refused, and so is a tab", wrong)
    return tap.finish()
