"""The host refuses the kernel command lines the kernel refuses, and no
other: hosttools/kernel_cmdline.py against the kernel's own parser
(kernel/cmdline.c, built for the host as cmdline-check), on a list of
command lines and on seeded mutations of them. The one difference by
design: the host refuses a tab, which the kernel reads as a space.

  tests/check.py kernel_cmdline --parser BUILD/host/cmdline-check [--seed N]
"""
import random
import subprocess

from ..kernel_cmdline import cmdline_problem
from ..tap_out import Tap
from . import argument_parser

LINES = ["", "list", "verbose timing", "tests=selftest.pass", "tests=a.*,b?c",
         "exclude=priv.*", "tests=a exclude=b", "tests=a tests=b", "tests=",
         "exclude=", "tests=a,,b", "tests=,a", "tests=a,", "tests=A", "bogus",
         "tests", "tests=a=b", "=", "  tests=a  ", "tests=enc.*'; touch x; echo '",
         "tests=" + ",".join(["a"] * 32), "tests=" + ",".join(["a"] * 33),
         "tests=" + "a" * 1017, "tests=" + "a" * 1018, "list\x7f", "tests=é",
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


def kernel_verdicts(parser, lines):
    data = b"".join(line.encode("utf-8") + b"\0" for line in lines)
    p = subprocess.run([parser], input=data, capture_output=True, timeout=60)
    return p.stdout.decode("utf-8", "replace").splitlines()


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
    for name, lines in (("the listed command lines", LINES),
                        (f"{args.mutants} mutants of them",
                         [mutate(rng, rng.choice(LINES)) for _ in range(args.mutants)])):
        kernel = kernel_verdicts(args.parser, lines)
        differ = []
        for line, said in zip(lines, kernel):
            host = cmdline_problem(line)
            if (host is None) != (said == "ok") and not (host and "\t" in line):
                differ.append(f"{line[:80]!r}: kernel {said}; host {host or 'ok'}")
        tap.check(len(kernel) == len(lines) and not differ,
                  f"the host and the kernel refuse the same of {name}",
                  differ[:5] + [f"{len(kernel)} answers for {len(lines)} lines"])
    return tap.finish()
