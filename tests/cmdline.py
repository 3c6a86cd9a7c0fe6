#!/usr/bin/env python3
"""Write the kernel command line that make bakes into the ISO.

usage: tests/cmdline.py FILE

The line comes from the environment variable PMCTEST_CMDLINE (make passes
TESTS= and KERNEL_ARGS= that way, so no shell ever parses them). A line
the kernel would refuse is refused here, before anything is built or
booted, with the kernel's reason and status 2; else FILE gets it, rewritten
only when it differs (the ISO depends on FILE).
"""
import os
import sys

from hosttools.boot.cmdline import cmdline_problem
from hosttools.tool_table import guard


def main(argv):
    if len(argv) != 1 or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv and argv[0] in ("-h", "--help") else 2
    path = argv[0]
    cmdline = os.environb.get(b"PMCTEST_CMDLINE", b"").decode(
        "utf-8", "surrogateescape")
    problem = cmdline_problem(cmdline)
    if problem:
        print(f"pmctest: TESTS= and KERNEL_ARGS= make a command line the "
              f"kernel would refuse: {problem} (status 2)", file=sys.stderr)
        return 2
    text = cmdline + "\n"
    try:
        with open(path) as f:
            if f.read() == text:
                return 0
    except OSError:
        pass
    try:
        with open(path, "w") as f:
            f.write(text)
    except OSError as e:
        print(f"pmctest: cannot write {path}: {e.strerror} (status 2)",
              file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(guard(main, sys.argv[1:]))
