#!/usr/bin/env python3
"""What the targets need fetched and built before they boot, as each kind
declares it (Kind.images() in tests/hosttools/targets/): one make target
per line on stdout, for make images.

  tests/images.py                 every target's
  tests/images.py --target NAME   (repeatable) those targets'
"""
import argparse
import sys

from hosttools import targets
from hosttools.tool_table import guard


def main(argv):
    p = argparse.ArgumentParser(prog="tests/images.py",
                                description=__doc__.splitlines()[0])
    p.add_argument("--target", action="append", metavar="NAME",
                   help="only this target's (repeatable)")
    args = p.parse_args(argv)
    for name in args.target or []:
        if not targets.by_name(name):
            p.error(f"no target named {name!r} (tests/run --list-targets)")
    for image in targets.images(args.target):
        print(image)
    return 0


if __name__ == "__main__":
    sys.exit(guard(main, sys.argv[1:]))
